"""``allfours simulate``: play deals as matches in parallel; summary, run folder, game log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from ..game.rules import RuleSet
from ..players.simulate import CHUNK_DEALS
from .options import (
    FAILED, USAGE, ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, SeedOpt, SetOpt,
    announce_engine, build_rules, check_output, fail, file_errors, os_words, print_json, progress_bar, stopping_notice,
)


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
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Play deals as matches in parallel; summarize them, keep results in a run folder, write a log.

    An existing --out folder or --log file is refused unless --force (or --resume, for the run folder).
    """
    from ..analysis import runner
    from ..work.executor import check_options, open_executor

    check_options(threads, scheduler, cluster)
    given = {name for name in ("rules", "players", "set_", "deals", "seed", "policy", "chunk_size")
             if getattr(ctx.get_parameter_source(name), "name", "DEFAULT") not in ("DEFAULT", "DEFAULT_MAP")}
    if resume is not None and out is not None and out.resolve() != resume.resolve():
        fail("give --resume RUN_DIR alone, or with the same --out")
    run_dir = resume if resume is not None else out
    try:
        if resume is not None:
            with file_errors(resume, USAGE):  # the run folder named: an input
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
        check_output(run_dir, "--resume" if resume is not None else "--out", folder=True, force=force,
                     resuming=resume is not None, resumable=True)
        check_output(log, "--log", folder=False, force=force)
        announce_engine()
        if log is not None:
            write_log(spec.rules, spec.deals, spec.seed, list(spec.policies), spec.chunk_size, log)
        with (open_executor(threads, scheduler, cluster) as executor,
              progress_bar("simulating", spec.deals, rate="deals") as bar, file_errors(run_dir)):
            summary = runner.run(spec, executor, run_dir, resume=resume is not None,
                                 progress=bar.advance, on_start=bar.start, replace=force and resume is None)
    except KeyboardInterrupt:
        if run_dir is not None and (run_dir / "meta.json").exists():
            typer.echo(f"interrupted: finished chunks are kept; continue with --resume {run_dir}", err=True)
            raise typer.Exit(130) from None
        raise
    if json_out:
        print_json(summary, indent=2)
    else:
        typer.echo(runner.summary_table(summary))


def write_log(ruleset: RuleSet, deals: int, seed: int, policy: list[str], chunk: int, log: Path) -> None:
    """Write every deal of the run (the same chunks as its summary) to `log` (allfours-log/1)."""
    from ..record.gamelog import dumps
    from ..players.policy import seat_policies
    from ..players.simulate import iter_log_lines

    kinds, params = seat_policies(policy, ruleset.players)
    count = 0
    try:
        with stopping_notice(), open(log, "w", encoding="utf-8") as stream:  # whole lines only: a deal is written once it is played
            for line in iter_log_lines(ruleset, deals, seed, kinds, params, chunk):
                stream.write(dumps(line) + "\n")
                count += 1
    except KeyboardInterrupt:
        kept = f"the {count} finished deals are" if count != 1 else "the 1 finished deal is"
        typer.echo(f"interrupted: {kept} kept in {log} (of {deals} asked); "
                   "`allfours replay` reads them", err=True)
        raise typer.Exit(130) from None
    except OSError as err:
        fail(f"cannot write {log}: {os_words(err)}", FAILED)
    typer.echo(f"wrote {count} deal{'' if count == 1 else 's'} ({ruleset.preset}, {ruleset.players} players, "
               f"seed {seed}) to {log}", err=True)
