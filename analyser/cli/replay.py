"""``allfours replay``: referee a game log (or score a hand-written one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .options import JsonOpt, announce_engine, check_input, fail, log_lines


def replay(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file: JSON lines, one dealer's turn each (see docs/game-log.md).")],
    show: Annotated[bool, typer.Option(
        "--show", help="Print each deal as a person reads it: hands, turn-ups, bids, every trick and who won it, "
                       "card points for Game, every point with its reason, the score.")] = False,
    line: Annotated[Optional[int], typer.Option(
        "--line", min=1, metavar="N", help="Only line N of the file (numbered as a text editor numbers them).")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Referee a game log: every act, play, trick and point is checked. A seat's view (the cards that seat
    did not see written ??) is checked as far as it shows, and replay says what it could not check."""
    from ..deal_account import account, account_text
    from ..referee import LogError, referee_text

    scored: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    count = 0
    numbers: list[int] = []
    check_input(file)
    announce_engine()
    try:
        for number, text in log_lines(file):
            numbers.append(number)
            if line is not None and number != line:
                continue
            count += 1
            try:
                verdict = referee_text(text)
            except LogError as err:
                where = f"line {number}" + (f", event {err.event}" if err.event >= 0 else "")
                if json_out:
                    typer.echo(json.dumps({"ok": False, "line": number, "event": err.event, "error": err.reason}))
                if err.reason.startswith("not valid JSON"):  # "line 3 is not valid JSON: ..."
                    fail(f"{file}: line {number} is {err.reason}", code=1)
                fail(f"{file}: {where}: {err.reason}", code=1)
            if verdict.scored:
                scored.append({"line": number, "points": [{"side": s, "n": n, "why": w} for s, n, w in verdict.points],
                               "score_after": verdict.score_after, "winner": verdict.winner})
            if verdict.seat is not None:
                views.append({"line": number, "seat": verdict.seat, "unchecked": verdict.unchecked})
            if show:
                shown.append(account(json.loads(text), verdict, number))
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {getattr(err, 'strerror', None) or err}")
    if line is not None and count == 0:
        have = f"its log lines are {', '.join(map(str, numbers[:8]))}{' …' if len(numbers) > 8 else ''}"
        fail(f"--line {line}: {file} has no log line {line} ({have if numbers else 'it has none'})")
    if count == 0:
        fail(f"{file}: no log lines", code=1)
    if json_out:
        typer.echo(json.dumps({"ok": True, "lines": count, "scored": scored, "views": views}
                              | ({"shown": shown} if show else {})))
        return
    if show:
        typer.echo("\n\n".join(account_text(item) for item in shown))
        typer.echo("")
        typer.echo(f"{file}: {summary_line(count, len(scored), len(views))}")
        return
    for item in views:
        unchecked = "; ".join(item["unchecked"]) or "nothing (every card of the other hands was played)"
        typer.echo(f"line {item['line']}: seat {item['seat']}'s view, checked as far as it shows; "
                   f"not checked: {unchecked}")
    for item in scored:
        points = ", ".join(f"side {p['side']} {p['n']} {p['why']}" for p in item["points"]) or "no points"
        typer.echo(f"line {item['line']}: {points}; score after {item['score_after']}"
                   + (f", side {item['winner']} wins" if item["winner"] is not None else ""))
    typer.echo(f"{file}: {summary_line(count, len(scored), len(views))}")


def summary_line(count: int, scored: int, views: int = 0) -> str:
    """The last line of a replay, in words.

    >>> summary_line(5000, 0)
    '5000 lines legal; every point the log gives is right'
    >>> summary_line(1, 1)
    '1 line legal; it gives no points: they are worked out above'
    >>> summary_line(4, 1)
    '4 lines legal; every point the log gives is right (3 lines), and the line without points is scored above'
    >>> summary_line(1, 0, 1)
    "1 line legal; every point the log gives is right; it is a seat's view, checked as far as it shows (above)"
    """
    text = _summary(count, scored)
    if views:
        what = "it is a seat's view" if count == 1 else (
            "each is a seat's view" if views == count else
            "1 of them is a seat's view" if views == 1 else f"{views} of them are seats' views")
        text += f"; {what}, checked as far as {'it shows' if views == 1 else 'they show'} (above)"
    return text


def _summary(count: int, scored: int) -> str:
    lines = lambda n: f"{n} line" + ("" if n == 1 else "s")  # noqa: E731
    checked = count - scored
    head = f"{lines(count)} legal; "
    if scored == 0:
        return head + "every point the log gives is right"
    without = "it gives" if count == 1 else ("they give" if checked == 0 else "")
    if checked == 0:
        return head + f"{without} no points: they are worked out above"
    rest = "the line without points is" if scored == 1 else f"the {scored} lines without points are"
    return head + f"every point the log gives is right ({lines(checked)}), and {rest} scored above"
