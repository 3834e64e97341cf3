"""``allfours replay``: referee a game log (or score a hand-written one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .options import JsonOpt, announce_engine, fail


def replay(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file: JSON lines, one dealer's turn each (see docs/game-log.md).")],
    json_out: JsonOpt = False,
) -> None:
    """Referee a game log: every act, play, trick and point is checked."""
    from ..gamelog import read_lines
    from ..referee import LogError, referee_text

    scored: list[dict[str, Any]] = []
    count = 0
    announce_engine()
    try:
        for number, text in read_lines(str(file)):
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
    except (OSError, UnicodeDecodeError) as err:
        fail(f"cannot read {file}: {getattr(err, 'strerror', None) or err}")
    if count == 0:
        fail(f"{file}: no log lines", code=1)
    if json_out:
        typer.echo(json.dumps({"ok": True, "lines": count, "scored": scored}))
        return
    for item in scored:
        points = ", ".join(f"side {p['side']} {p['n']} {p['why']}" for p in item["points"]) or "no points"
        typer.echo(f"line {item['line']}: {points}; score after {item['score_after']}"
                   + (f", side {item['winner']} wins" if item["winner"] is not None else ""))
    typer.echo(f"{file}: {summary_line(count, len(scored))}")


def summary_line(count: int, scored: int) -> str:
    """The last line of a replay, in words.

    >>> summary_line(5000, 0)
    '5000 lines legal; every point the log gives is right'
    >>> summary_line(1, 1)
    '1 line legal; it gives no points: they are worked out above'
    >>> summary_line(4, 1)
    '4 lines legal; every point the log gives is right (3 lines), and the line without points is scored above'
    """
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
