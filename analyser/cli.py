"""The ``allfours`` command line: one thin command per job.

Errors are one clear line on stderr and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import enum
import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import importlib

import typer

from .cards import CardError
from .policy import PolicyError
from .rules import PRESETS, RuleSet, RulesError, make_rules
from .simulate import CHUNK_DEALS

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo strategy analyser for the card game All Fours.")


def _one_line(self: Exception, file: object = None) -> None:
    """Usage errors as one line on stderr (click would print usage, a hint and a blank line)."""
    typer.echo(f"error: {self.format_message()} (see --help)", err=True)  # type: ignore[attr-defined]


# Newer typer vendors click as typer._click; older ones use click itself. Patch whichever is used.
for _name in ("typer._click.exceptions", "click.exceptions"):
    try:
        _exceptions = importlib.import_module(_name)
    except ImportError:
        continue
    _exceptions.ClickException.show = _one_line  # type: ignore[attr-defined]
    _exceptions.UsageError.show = _one_line  # type: ignore[attr-defined]

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


SchedulerOpt = Annotated[Optional[str], typer.Option(
    "--scheduler", metavar="tcp://HOST:PORT", help="Run the chunks on this Dask scheduler's workers.")]
ClusterOpt = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="local:N", help="Start a Dask cluster of N worker processes here and run on it.")]


@app.command()
def simulate(
    ctx: typer.Context,
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    deals: Annotated[int, typer.Option("--deals", min=1, help="Deals (dealer turns) to play.")] = 10_000,
    seed: SeedOpt = 1,
    policy: Annotated[
        list[str], typer.Option("--policy", help="Policy for every seat, or once per seat (e.g. random:beg=0).")
    ] = ["random"],  # noqa: B006
    log: Annotated[Optional[Path], typer.Option("--log", help="Write every deal to this allfours-log/1 file.")] = None,
    threads: Annotated[
        Optional[int], typer.Option("--threads", min=1, help="Threads playing chunks (default: all cores).")
    ] = None,
    out: Annotated[
        Optional[Path], typer.Option("--out", help="Run folder: chunk results (Parquet), meta.json, summary.")
    ] = None,
    resume: Annotated[
        Optional[Path], typer.Option("--resume", help="Finish an interrupted run folder (plays missing chunks).")
    ] = None,
    chunk_size: Annotated[
        int, typer.Option("--chunk-size", min=1, help="Deals per chunk (each chunk starts a fresh match).")
    ] = CHUNK_DEALS,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play deals as matches in parallel; summarize them, keep results in a run folder, write a log."""
    from . import runner
    from .executor import ExecutorError, check_options, open_executor

    try:
        check_options(threads, scheduler, cluster)
    except ExecutorError as err:
        fail(str(err))

    given = {name for name in ("rules", "players", "set_", "deals", "seed", "policy", "chunk_size")
             if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") not in ("DEFAULT", "DEFAULT_MAP")}
    if resume is not None and out is not None and out.resolve() != resume.resolve():
        fail("give --resume RUN_DIR alone, or with the same --out")
    run_dir = resume if resume is not None else out
    try:
        if resume is not None:
            spec, same_engine = runner.open_run(resume)
            conflicts = runner.resume_conflicts(
                spec, preset=rules.value if "rules" in given else None, players=players,
                settings=set_ if "set_" in given else None, policies=policy if "policy" in given else None,
                seed=seed if "seed" in given else None, deals=deals if "deals" in given else None,
                chunk_size=chunk_size if "chunk_size" in given else None)
            if conflicts:
                fail(f"{resume} was run with other options: {'; '.join(conflicts)}")
            if not same_engine:
                typer.echo("warning: the engine changed since this run started; "
                           "resumed chunks may differ from an uninterrupted run", err=True)
        else:
            spec = runner.RunSpec.new(build_rules(rules, players, set_), policy, seed, deals, chunk_size)
        if log is not None:
            _write_log(spec.rules, spec.deals, spec.seed, list(spec.policies), spec.chunk_size, log)
        with open_executor(threads, scheduler, cluster) as executor, runner.ProgressBar(spec.deals) as bar:
            summary = runner.run(spec, executor, run_dir, resume=resume is not None,
                                 progress=bar.advance, on_start=bar.start)
    except KeyboardInterrupt:
        if run_dir is not None and (run_dir / "meta.json").exists():
            typer.echo(f"interrupted: finished chunks are kept; continue with --resume {run_dir}", err=True)
        raise
    except (runner.RunError, PolicyError, ExecutorError) as err:
        fail(str(err))
    except OSError as err:
        fail(f"{err.filename or 'run folder'}: {err.strerror or err}")
    typer.echo(runner.summary_json(summary) if json_out else runner.summary_table(summary), nl=not json_out)


def _write_log(ruleset: RuleSet, deals: int, seed: int, policy: list[str], chunk: int, log: Path) -> None:
    """Write every deal of the run (the same chunks as its summary) to `log` (allfours-log/1)."""
    from .gamelog import dumps
    from .policy import seat_policies
    from .simulate import iter_log_lines

    kinds, params = seat_policies(policy, ruleset.players)
    try:
        with open(log, "w", encoding="utf-8") as stream:
            count = 0
            for line in iter_log_lines(ruleset, deals, seed, kinds, params, chunk):
                stream.write(dumps(line) + "\n")
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


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


# Commands that live in their own modules register themselves on `app` when imported.
# (one import per module, below this line)
from . import cli_tournament  # noqa: E402,F401
from . import cli_bench  # noqa: E402,F401
from . import cli_whatif  # noqa: E402,F401
from . import cli_equity  # noqa: E402,F401
from . import cli_strategy  # noqa: E402,F401
from . import cli_advice  # noqa: E402,F401
from . import cli_report  # noqa: E402,F401
