"""The analysis of a game as one self-contained HTML page (``allfours analyse --out DIR``).

One file, ``index.html``: inline CSS, no script, no image, no link to anything outside
it, so it opens in any browser from the disk. It shows the players' and sides' summaries
(bidding and card play apart, with the luck of the deal), then every deal: the hands
dealt, the turn-ups and the bidding, the tricks card by card (each judged card marked by
its flag), and each flagged decision with every alternative and its value. Every flagged
decision is an element ``<section class="decision flagged FLAG" id="d-LINE-EVENT">``; a
decision too close to call is ``<section class="decision close" ...>``.

Everything on it is written for a card player: suits as symbols, cards as ``10♦``, counts
with their nouns ("1 match, 2 deals"), chances in percent, intervals as "0.09 to 0.81"; no
field of the log or of the program is printed as it is stored.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from ...game.cards import SUIT_SYMBOLS, SUIT_WORDS, SUITS, card_name, card_symbol, parse_card
from ...engine.layout import PS_LED, PS_LEADER, PS_N_TRICKS, PS_PLAYERS, PS_TRICK_CARD, PS_TRICK_NO, PS_TRUMP
from ...players.solve import Position
from ...referee.reading import HIDDEN
from .analyse import CLOSE, FLAGS, WEIGHED_BY, Decision, LineReport, Report, view_words, weighing_words
from .logcuts import BID_EVENTS

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 76em; color: #222; }
h1 { font-size: 1.5em; } h2 { margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { margin-bottom: .3em; }
table { border-collapse: collapse; margin: .5em 0; }
td, th { border: 1px solid #ccc; padding: .2em .5em; text-align: right; } td { white-space: nowrap; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
.red { color: #c00; } .card { white-space: nowrap; font-weight: 600; }
.doubtful { background: #fff6d6; } .error { background: #ffe0c2; } .blunder { background: #ffc9c9; }
.close { background: #eef1f6; }
.won { text-decoration: underline; }
.decision { border: 1px solid #ddd; border-radius: 4px; padding: .4em .8em; margin: .6em 0; }
.tag { white-space: nowrap; font-size: .8em; padding: 0 .4em; border-radius: 3px; border: 1px solid #999; }
.note { color: #666; font-size: .9em; }
table.summary { font-size: .9em; }
"""

MINUS = "\u2212"
# What each log event's option is called at the table.
DOING = {"stand": "stands", "beg": "begs", "give": "gives one", "run": "runs the cards"}
OPTION = {"stand": "stand", "beg": "beg", "give": "give one", "run": "run the cards"}
WHY = {"kick": "the kick", "gift": "the gift (give one)", "jack-bonus": "the jack bonus", "high": "High",
       "low": "Low", "jack": "Jack", "hang-jack": "hanging the jack", "game": "Game"}
REDEAL = {"exhausted": "the pack ran out during the runs", "bunched": "the players agreed to bunch"}
ROLE_TO = {"eldest": "the eldest, to stand or beg", "dealer": "the dealer, to give one or run (the eldest begged)"}


def esc(x: Any) -> str:
    return html.escape(str(x), quote=True)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 match``, ``2 matches``: a count with its noun."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def signed(x: float | None, digits: int = 2) -> str:
    """+0.45, −0.45 (a true minus sign), 0.00; "–" for none."""
    if x is None:
        return "–"
    text = f"{abs(x):.{digits}f}"
    if float(text) == 0:
        return text
    return ("+" if x > 0 else MINUS) + text


def plain(x: float | None, digits: int = 2) -> str:
    """A size (a loss): no plus sign, a true minus sign."""
    if x is None:
        return "–"
    text = f"{abs(x):.{digits}f}"
    return (MINUS if x < 0 and float(text) != 0 else "") + text


def interval(pair: Any, digits: int = 2, sign: bool = False) -> str:
    """A 95% CI in words: ``0.09 to 0.81``."""
    if not pair:
        return ""
    f = signed if sign else plain
    return f"{f(pair[0], digits)} to {f(pair[1], digits)}"


def percent(p: float | None, digits: int = 1) -> str:
    return "–" if p is None else f"{100 * p:.{digits}f}%"


def suit_html(letter: str) -> str:
    """A suit letter of the log as a player reads it: ``♥ hearts``."""
    k = SUITS.index(letter)
    red = " red" if letter in "HD" else ""
    return f'<span class="card{red}">{SUIT_SYMBOLS[k]}</span> {SUIT_WORDS[k]}s'


def card_html(name: str) -> str:
    try:
        c = parse_card(name)
    except Exception:  # an option name (stand, beg, give, run)
        return esc(OPTION.get(name, name))
    red = " red" if SUITS[c // 13] in "HD" else ""
    return f'<span class="card{red}">{esc(card_symbol(c))}</span>'


def cards_html(names: list[str]) -> str:
    """Cards as symbols; a hand hidden in a seat's view (``??``) as how many cards it was."""
    hidden = sum(c == HIDDEN for c in names)
    shown = " ".join(card_html(c) for c in names if c != HIDDEN)
    return " ".join(filter(None, [shown, f"({plural(hidden, 'card')} not seen)" if hidden else ""]))


def position_html(position: Position) -> str:
    """Who is to move to which trick, trump and the trick so far, in words and symbols."""
    s = position.state
    n = int(s[PS_PLAYERS])
    trick = int(s[PS_TRICK_NO]) + 1
    trump = SUITS[int(s[PS_TRUMP])]
    text = (f"seat {position.seat} to {'lead' if s[PS_LED] < 0 else 'play'} to trick {trick} of "
            f"{int(s[PS_N_TRICKS])}, trump {suit_html(trump)}")
    if s[PS_LED] >= 0:
        seat = int(s[PS_LEADER])
        played = []
        while seat != position.seat:
            played.append(f"seat {seat} {card_html(card_name(int(s[PS_TRICK_CARD + seat])))}")
            seat = (seat + 1) % n
        text += "; the trick so far: " + ", ".join(played)
    return text


def summary_table(rows: list[dict[str, Any]], key: str) -> str:
    head = (f'<tr><th class="l">{"player" if key == "seat" else "side"}</th><th>bids</th><th>lost in bids</th>'
            '<th>per bid</th><th>cards</th><th>lost in cards</th><th>per card</th><th>mean loss (95% CI)</th>'
            + "".join(f"<th>{f}</th>" for f in FLAGS) + "<th>too close</th><th>not analysed</th>")
    extra = key == "side"
    if extra:
        head += "<th>luck</th><th>result</th>"
    out = [f'<table class="summary">{head}</tr>']
    for r in rows:
        b, c = r["bid"], r["card"]
        who = f"seat {r['seat']} (side {r['side']})" if key == "seat" else f"side {r['side']} (seats " + \
            ", ".join(map(str, r["seats"])) + ")"
        mean = plain(r["mean_loss"], 3) + (f" ({interval(r['mean_loss_ci95'], 3)})" if r["mean_loss_ci95"] else "")
        cells = [who, b["decisions"], plain(b["total_loss"]), plain(b["mean_loss"], 3), c["decisions"],
                 plain(c["total_loss"]), plain(c["mean_loss"], 3), mean]
        cells += [r["flags"][f] for f in FLAGS] + [r["too_close"], r["not_analysed"]]
        if extra:
            cells += [signed(r["luck"], 0), signed(r["result"], 0)]
        out.append("<tr>" + "".join(f'<td{" class=l" if k == 0 else ""}>{esc(v)}</td>' for k, v in enumerate(cells))
                   + "</tr>")
    out.append("</table>")
    if not extra:
        out.append('<p class="note">bids, cards: the decisions judged; lost in bids, lost in cards: the net points '
                   "given up against the best choices; per bid, per card, mean loss: per decision; too close: "
                   f"{CLOSE}.</p>")
    return "\n".join(out)


def decision_html(d: Decision, win: bool, position: Position | None = None, doubtful: float = 0.1) -> str:
    flag = d.flag or ""
    cls = f"decision flagged {flag}" if d.flag else ("decision close" if d.close else "decision")
    if d.kind == "bid":
        where = f"seat {d.seat}, {esc(ROLE_TO.get(d.where, d.where))}"
    else:
        where = position_html(position) if position is not None else f"seat {d.seat}, trick {d.trick}"
    verdict = d.verdict or "ok"
    out = [f'<section class="{cls}" id="d-{d.line}-{d.event}" data-line="{d.line}" data-event="{d.event}" '
           f'data-flag="{esc(flag)}">',
           f"<h3>Line {d.line}, event {d.event}: {where} <span class=\"tag {esc(flag or ('close' if d.close else ''))}"
           f"\">{esc(verdict)}</span></h3>"]
    verb = "played" if d.kind == "card" else "chose"
    text = (f"{verb} {card_html(d.chosen)}, best {card_html(d.best or '')}: a loss of {plain(d.loss)} net points "
            f"(95% CI {interval(d.loss_ci95)})")
    if d.win_loss is not None:
        change = signed(-100 * d.win_loss, 1)
        text += (", the same chance to win the match" if change == "0.0" else
                 f", {change}% chance to win the match")
    if d.close:
        text += f"; too close to call: the interval reaches below the doubtful mark, {doubtful:g}"
    out.append(f"<p>{text}.</p>")
    unit = "world" if d.kind == "card" else "paired deal"
    out.append('<table><tr><th class="l">option</th><th>net points</th><th>95% CI</th>'
               + ("<th>chance to win the match</th>" if win else "") + "<th></th></tr>")
    for name, o in d.options.items():
        mark = ", ".join(w for w, on in (("played", name == d.chosen), ("best", name == d.best)) if on)
        row = (f'<tr><td class="l">{card_html(name)}</td><td>{signed(o["ev"], 3)}</td>'
               f'<td>{interval(o["ev_ci95"], 3, sign=True)}</td>')
        if win:
            row += f"<td>{percent(o.get('win_prob'))}</td>"
        out.append(row + f'<td class="l">{esc(mark)}</td></tr>')
    weighed = ""
    if d.kind == "card" and d.inference in WEIGHED_BY and d.ess is not None:
        weighed = f", weighed by how likely the others' {WEIGHED_BY[d.inference]} make each"
        if not d.few_worlds:  # else the note says on how many the answer rests
            weighed += f" (worth about {plural(round(d.ess), 'world')} alike)"
    out.append(f"</table><p class=\"note\">judged on {plural(d.samples, unit)}{esc(weighed)}"
               + (f"; {esc(d.note)}" if d.note else "") + "</p></section>")
    return "\n".join(out)


def _hands(e: dict[str, Any], n: int) -> str:
    return "; ".join(f"seat {s}: {cards_html(e['hands'][s])}" for s in range(n))


def deal_html(line: LineReport, win: bool, doubtful: float = 0.1) -> str:
    obj = line.obj
    n = line.rules.players
    judged = {d.event: d for d in line.decisions}
    positions = {p.event: p.position for p in line.facts.plays}
    after = (f", {esc(':'.join(map(str, line.facts.verdict.score_after)))} after" if line.facts.verdict else "")
    out = [f'<h2 id="line-{line.line}">Line {line.line} (match {line.match}): seat {obj["dealer"]} deals; score '
           f'{esc(":".join(map(str, obj["score_before"])))} before{after} (side 0 first)</h2>']
    events = obj["events"]
    lines: list[str] = []
    trick: list[str] = []
    tricks: list[str] = []
    for i, e in enumerate(events):
        kind = e.get("event")
        if kind == "deal":
            lines.append(f"<li>dealt: {_hands(e, n)}</li>")
        elif kind == "more":
            lines.append(f"<li>the run's cards: {_hands(e, n)}</li>")
        elif kind == "turnup":
            lines.append(f"<li>turn-up: {card_html(e['card'])}</li>")
        elif kind in BID_EVENTS:
            d = judged.get(i)
            said = f"<li>seat {e['seat']} {esc(DOING.get(kind, kind))}"
            if d is not None and d.best and d.verdict:
                tag = d.flag or "close"
                said += (f" (best: {esc(OPTION.get(d.best, d.best))}, a loss of {plain(d.loss)} net points) "
                         f'<a href="#d-{line.line}-{i}"><span class="tag {esc(tag)}">{esc(d.verdict)}</span></a>')
            elif d is not None and d.best:
                said += (" (judged the best choice)" if d.best == d.chosen else
                         f" (best: {esc(OPTION.get(d.best, d.best))}, a loss of {plain(d.loss)} net points)")
            lines.append(said + "</li>")
        elif kind == "redeal":
            lines.append(f"<li>redeal: {esc(REDEAL.get(e.get('reason'), 'the deal is void'))}</li>")
        elif kind == "bunch":
            lines.append(f"<li>the vote to bunch: {'agreed' if e.get('agreed') else 'not agreed'}</li>")
        elif kind == "trump":
            lines.append(f"<li>trump: {suit_html(e['suit'])}</li>")
        elif kind == "discard":
            lines.append(f"<li>seat {e['seat']} discards {cards_html(e['cards'])}</li>")
        elif kind == "play":
            d = judged.get(i)
            marked = d is not None and d.verdict is not None
            cls = f' class="{esc(d.flag or "close")}"' if d is not None and marked else ""
            title = f' title="best {esc(card_symbol(parse_card(d.best)))}, a loss of {plain(d.loss)}"' \
                if d is not None and d.best else ""
            link = f'<a href="#d-{line.line}-{i}">{card_html(e["card"])}</a>' if marked else card_html(e["card"])
            trick.append(f"<td{cls}{title}>seat {e['seat']}: {link}</td>")
        elif kind == "trick":
            tricks.append(f"<tr><td>{len(tricks) + 1}</td>{''.join(trick)}<td>seat {e['winner']}</td></tr>")
            trick = []
        elif kind == "points":
            lines.append(f"<li>side {e['side']} scores {e['n']} for {esc(WHY.get(e['why'], e['why']))}</li>")
    out += [f'<p class="note">{esc("This line" + text)}.</p>' for text in view_words(line)]
    out.append("<ul>" + "\n".join(lines) + "</ul>")
    if tricks:
        out.append('<table><tr><th>trick</th>' + "".join("<th>card</th>" for _ in range(n))
                   + "<th>won by</th></tr>" + "\n".join(tricks) + "</table>")
    if line.luck is not None:
        out.append(f"<p>luck of the deal (its value with every hand open and perfect play, from trick "
                   f"{line.luck_trick}): " + ", ".join(f"side {s} {signed(v, 0)}" for s, v in enumerate(line.luck))
                   + " net points" + (("; what the play gave: " + ", ".join(f"side {s} {signed(v, 0)}"
                                                                              for s, v in enumerate(line.result)))
                                      if line.result else "") + "</p>")
    if line.note:
        out.append(f'<p class="note">{esc(line.note)}</p>')
    shown = [d for d in line.decisions if d.flag or d.close]
    out += [decision_html(d, win, positions.get(d.event), doubtful) for d in shown]
    return "\n".join(out)


def page(report: Report) -> str:
    s = report.settings
    t = s.thresholds
    first = report.lines[0].rules
    body = [f"<h1>All Fours: analysis of {esc(report.file)}</h1>",
            f"<p>{plural(len(report.lines), 'deal')}, {plural(report.matches, 'match', 'matches')}; "
            f"{esc(first.preset)} rules, {first.players} players.</p>",
            f"<p>Card decisions: each legal card valued on {plural(s.worlds, 'world')} (deals of the cards the player "
            f"had not seen, consistent with what it had seen), each solved with every hand open, "
            f"{esc(weighing_words(s.inference))}. Bids (stand or beg, "
            f"give one or run): {plural(s.bid_deals, 'paired deal')} of the what-if, the rest played by the "
            f"{esc(s.policy)} policy; <code>allfours whatif --log</code> at the same line and event, with the same "
            "seed, plays these same deals first. A loss is what the choice made gives up against the best choice, in "
            "net points of the deal for the decider's side (its points minus the others'); its 95% CI is the range "
            f"the true loss lies in 19 times out of 20. A decision is {esc(t.rule())}.</p>",
            "<h2>Players</h2>", summary_table(report.players(), "seat"),
            "<h2>Sides</h2>", summary_table(report.sides(), "side"),
            "<p class=\"note\">luck (net points): the deal's value with every hand open and perfect play; result: what the "
            "play gave (High, Low, Jack, Game, in net points). Result minus luck is what the play made of the "
            "cards.</p>"]
    body += [deal_html(line, report.win_prob, t.doubtful) for line in report.lines]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>All Fours analysis: {esc(report.file)}</title><style>{CSS}</style></head>\n<body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_page(report: Report, out_dir: Path) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "index.html"
    path.write_text(page(report), encoding="utf-8")
    return path
