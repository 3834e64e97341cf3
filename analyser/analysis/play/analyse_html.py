"""The analysis of a game as one self-contained HTML page (``allfours analyse --out DIR``).

One file, ``index.html``: inline CSS, no script, no image, no link to anything outside
it, so it opens in any browser from the disk. It shows the players' and sides' summaries
(bidding and card play apart, with the luck of the deal), then every deal: the hands
dealt, the turn-ups and the bidding, the tricks card by card (each judged card marked by
its flag), and each flagged decision with every alternative and its value. Every flagged
decision is an element ``<section class="decision flagged FLAG" id="d-LINE-EVENT">``.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ...cards import SUITS, card_symbol, parse_card
from .analyse import FLAGS, Decision, LineReport, Report
from .logcuts import BID_EVENTS

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: right; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
.red { color: #c00; } .card { white-space: nowrap; font-weight: 600; }
.doubtful { background: #fff6d6; } .error { background: #ffe0c2; } .blunder { background: #ffc9c9; }
.won { text-decoration: underline; }
.decision { border: 1px solid #ddd; border-radius: 4px; padding: .4em .8em; margin: .6em 0; }
.tag { font-size: .8em; padding: 0 .4em; border-radius: 3px; border: 1px solid #999; }
.note { color: #666; font-size: .9em; }
"""


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def card_html(name: str) -> str:
    try:
        c = parse_card(name)
    except Exception:  # an option name (stand, beg, give, run)
        return esc(name)
    red = " red" if SUITS[c // 13] in "HD" else ""
    return f'<span class="card{red}">{esc(card_symbol(c))}</span>'


def num(x: float | None, digits: int = 2, sign: bool = True) -> str:
    if x is None:
        return "-"
    return f"{x:+.{digits}f}" if sign else f"{x:.{digits}f}"


def ci(pair: Any, digits: int = 2) -> str:
    if not pair:
        return ""
    return f"[{pair[0]:+.{digits}f}, {pair[1]:+.{digits}f}]"


def summary_table(rows: list[dict[str, Any]], key: str) -> str:
    head = (f'<tr><th class="l">{key}</th><th>bids</th><th>bid loss</th><th>per bid</th><th>cards</th>'
            '<th>card loss</th><th>per card</th><th>decisions</th><th>mean loss [95% CI]</th>'
            + "".join(f"<th>{f}</th>" for f in FLAGS) + "<th>not analysed</th>")
    extra = key == "side"
    if extra:
        head += "<th>luck</th><th>result</th>"
    out = [f"<table>{head}</tr>"]
    for r in rows:
        b, c = r["bid"], r["card"]
        who = f"seat {r['seat']} (side {r['side']})" if key == "seat" else f"side {r['side']} (seats " + \
            ", ".join(map(str, r["seats"])) + ")"
        cells = [who, b["decisions"], num(b["total_loss"]), num(b["mean_loss"], 3), c["decisions"],
                 num(c["total_loss"]), num(c["mean_loss"], 3), r["decisions"],
                 f"{num(r['mean_loss'], 3)} {ci(r['mean_loss_ci95'], 3)}"]
        cells += [r["flags"][f] for f in FLAGS] + [r["not_analysed"]]
        if extra:
            cells += [num(r["luck"], 1), num(r["result"], 1)]
        out.append("<tr>" + "".join(f'<td{" class=l" if k == 0 else ""}>{esc(v)}</td>' for k, v in enumerate(cells))
                   + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def decision_html(d: Decision, win: bool) -> str:
    flag = d.flag or ""
    cls = f"decision flagged {flag}" if d.flag else "decision"
    title = (f"line {d.line}, event {d.event}: seat {d.seat} ({'the ' + d.where if d.kind == 'bid' else d.where})")
    out = [f'<section class="{cls}" id="d-{d.line}-{d.event}" data-line="{d.line}" data-event="{d.event}" '
           f'data-flag="{esc(flag)}">',
           f"<h3>{esc(title)} <span class=\"tag {esc(flag)}\">{esc(flag or 'ok')}</span></h3>",
           f"<p>played {card_html(d.chosen)}, best {card_html(d.best or '-')}: loss {num(d.loss)} net points "
           f"(95% CI {ci(d.loss_ci95)})" + (f", match-win chance {100 * d.win_loss:+.1f} points lost"
                                              if d.win_loss is not None else "") + "</p>"]
    unit = "worlds" if d.kind == "card" else "paired deals"
    out.append('<table><tr><th class="l">option</th><th>net points</th><th>95% CI</th>'
               + ("<th>P(win match)</th>" if win else "") + "<th></th></tr>")
    for name, o in d.options.items():
        mark = " ".join(w for w, on in (("played", name == d.chosen), ("best", name == d.best)) if on)
        row = f'<tr><td class="l">{card_html(name)}</td><td>{num(o["ev"], 3)}</td><td>{ci(o["ev_ci95"], 3)}</td>'
        if win:
            row += f"<td>{num(o.get('win_prob'), 3, sign=False)}</td>"
        out.append(row + f'<td class="l">{esc(mark)}</td></tr>')
    out.append(f"</table><p class=\"note\">judged on {d.samples:,} {unit}" + (f"; {esc(d.note)}" if d.note else "")
               + "</p></section>")
    return "\n".join(out)


def deal_html(line: LineReport, win: bool) -> str:
    obj = line.obj
    n = line.rules.players
    judged = {d.event: d for d in line.decisions}
    out = [f'<h2 id="line-{line.line}">Line {line.line} (match {line.match}): dealer seat {obj["dealer"]}, score '
           f'{esc(":".join(map(str, obj["score_before"])))}'
           + (f" → {esc(':'.join(map(str, line.facts.verdict.score_after)))}" if line.facts.verdict else "") + "</h2>"]
    events = obj["events"]
    lines: list[str] = []
    trick: list[str] = []
    tricks: list[str] = []
    for i, e in enumerate(events):
        kind = e.get("event")
        if kind in ("deal", "more"):
            hands = "; ".join(f"seat {s}: " + " ".join(card_html(c) for c in e["hands"][s]) for s in range(n))
            lines.append(f"<li>{esc(kind)}: {hands}</li>")
        elif kind == "turnup":
            lines.append(f"<li>turn-up {card_html(e['card'])}</li>")
        elif kind in BID_EVENTS:
            d = judged.get(i)
            tag = f' <span class="tag {esc(d.flag)}">{esc(d.flag)}</span>' if d is not None and d.flag else ""
            best = f" (best: {esc(d.best)}, loss {num(d.loss)})" if d is not None and d.best else ""
            lines.append(f"<li>seat {e['seat']} {esc(kind)}s{best}{tag}</li>")
        elif kind in ("redeal", "bunch", "trump", "discard"):
            lines.append(f"<li>{esc(kind)}: {esc({k: v for k, v in e.items() if k != 'event'})}</li>")
        elif kind == "play":
            d = judged.get(i)
            cls = f' class="{esc(d.flag)}"' if d is not None and d.flag else ""
            title = f' title="best {esc(d.best)}, loss {num(d.loss)}"' if d is not None and d.best else ""
            link = f'<a href="#d-{line.line}-{i}">{card_html(e["card"])}</a>' if d is not None and d.flag else \
                card_html(e["card"])
            trick.append(f"<td{cls}{title}>seat {e['seat']}: {link}</td>")
        elif kind == "trick":
            tricks.append(f"<tr><td>{len(tricks) + 1}</td>{''.join(trick)}<td>seat {e['winner']}</td></tr>")
            trick = []
        elif kind == "points":
            lines.append(f"<li>side {e['side']} scores {e['n']} ({esc(e['why'])})</li>")
    out.append("<ul>" + "\n".join(lines) + "</ul>")
    if tricks:
        out.append('<table><tr><th>trick</th>' + "".join("<th>card</th>" for _ in range(n))
                   + "<th>won by</th></tr>" + "\n".join(tricks) + "</table>")
    if line.luck is not None:
        out.append(f"<p>luck of the deal (perfect play, every hand open, from trick {line.luck_trick}): "
                   + ", ".join(f"side {s} {num(v, 0)}" for s, v in enumerate(line.luck))
                   + (("; result of the play: " + ", ".join(f"side {s} {num(v, 0)}"
                                                             for s, v in enumerate(line.result)))
                      if line.result else "") + "</p>")
    if line.note:
        out.append(f'<p class="note">{esc(line.note)}</p>')
    flagged = [d for d in line.decisions if d.flag]
    out += [decision_html(d, win) for d in flagged]
    return "\n".join(out)


def page(report: Report) -> str:
    s = report.settings
    t = s.thresholds
    body = [f"<h1>All Fours: analysis of {esc(report.file)}</h1>",
            f"<p>{len(report.lines)} deals, {report.matches} matches. Card decisions: each legal card valued on "
            f"{s.worlds} worlds consistent with what the player had seen, each solved with every hand open; bids: "
            f"{s.bid_deals:,} paired deals of the what-if ({esc(s.policy)} play). Losses in net points of the deal "
            f"for the decider's side; flags: doubtful ≥ {t.doubtful:g}, error ≥ {t.error:g}, "
            f"blunder ≥ {t.blunder:g}.</p>",
            "<h2>Players</h2>", summary_table(report.players(), "seat"),
            "<h2>Sides</h2>", summary_table(report.sides(), "side"),
            "<p class=\"note\">luck: the deal's value with every hand open and perfect play; result: what the "
            "play gave (High, Low, Jack, Game, net). Result minus luck is what the play made of the cards.</p>"]
    body += [deal_html(line, report.win_prob) for line in report.lines]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>All Fours analysis: {esc(report.file)}</title><style>{CSS}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_page(report: Report, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "index.html"
    path.write_text(page(report), encoding="utf-8")
    return path
