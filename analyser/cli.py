"""The ``allfours`` command line: one thin command per job.

Errors are one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .cards import CardError
from .policy import PolicyError
from .rules import PRESETS, RuleSet, RulesError, make_rules

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Monte Carlo strategy analyser for the card game All Fours.")

Preset = enum.Enum("Preset", {name.replace("-", "_"): name for name in PRESETS}, type=str)  # type: ignore[misc]

RulesOpt = Annotated[Preset, typer.Option("--rules", help="Rule preset (see shared/rules.md).")]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", min=2, max=4, help="Number of players (2-4).")]
SetOpt = Annotated[
    Optional[list[str]], typer.Option("--set", metavar="KEY=VALUE", help="Override a rule parameter, e.g. target=7.")
]
SeedOpt = Annotated[int, typer.Option("--seed", min=0, help="Random seed: the same seed gives the same answer.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]

USER_ERRORS = (RulesError, CardError, PolicyError, ValueError, OSError)


def fail(message: str, code: int = 2) -> None:
    """Print one line on stderr and exit non-zero."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def build_rules(preset: Preset, players: int | None, settings: list[str] | None) -> RuleSet:
    try:
        return make_rules(preset.value, players=players, settings=settings or [])
    except RulesError as err:
        fail(str(err))
        raise  # unreachable


@app.command()
def simulate(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals (dealer turns) to play.")] = 10_000,
    seed: SeedOpt = 1,
    policy: Annotated[
        list[str], typer.Option("--policy", help="Policy for every seat, or once per seat (e.g. random:beg=0).")
    ] = ["random"],  # noqa: B006
    log: Annotated[Optional[Path], typer.Option("--log", help="Write every deal to this allfours-log/1 file.")] = None,
) -> None:
    """Play deals as matches and write their game log."""
    from .policy import seat_policies
    from .simulate import iter_log_lines
    from .gamelog import dumps

    ruleset = build_rules(rules, players, set_)
    try:
        kinds, params = seat_policies(policy, ruleset.players)
    except PolicyError as err:
        fail(str(err))
    if log is None:
        fail("give --log FILE to write the game log")
    assert log is not None
    try:
        with open(log, "w", encoding="utf-8") as out:
            count = 0
            for line in iter_log_lines(ruleset, deals, seed, kinds, params):
                out.write(dumps(line) + "\n")
                count += 1
    except OSError as err:
        fail(f"cannot write {log}: {err.strerror}")
    typer.echo(f"wrote {count} deals ({ruleset.preset}, {ruleset.players} players, seed {seed}) to {log}", err=True)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file (JSON lines).")],
    json_out: JsonOpt = False,
) -> None:
    """Referee a game log: every act, play, trick and point is checked."""
    from .gamelog import read_lines
    from .replay import LogError, referee_text

    scored = []
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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
