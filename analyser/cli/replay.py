"""``allfours replay``: referee a game log (or score a hand-written one)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from .options import JsonOpt, fail


def replay(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file (JSON lines).")],
    json_out: JsonOpt = False,
) -> None:
    """Referee a game log: every act, play, trick and point is checked."""
    from ..gamelog import read_lines
    from ..replay import LogError, referee_text

    scored: list[dict[str, Any]] = []
    count = 0
    try:
        for number, text in read_lines(str(file)):
            count += 1
            try:
                verdict = referee_text(text)
            except LogError as err:
                where = f"line {number}" + (f", event {err.event}" if err.event >= 0 else "")
                if json_out:
                    typer.echo(json.dumps({"ok": False, "line": number, "event": err.event, "error": err.reason}))
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
    checked = count - len(scored)
    typer.echo(f"{file}: {count} lines legal; points checked on {checked}, scored on {len(scored)}")
