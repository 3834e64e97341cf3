"""``allfours report``: the strategy report for one rule system, as Markdown, HTML, charts and tables."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated, NoReturn, Optional

import typer

from .options import (
    ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, fail, stopping_notice,
)


def report(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    deals: Annotated[int, typer.Option(
        "--deals", min=2000, max=1_000_000_000,
        help="Paired decision deals per strategy round; the other parts scale with it (20000: a quick look in "
             "a couple of minutes).")] = 1_000_000,
    seed: SeedOpt = 1,
    policy: Annotated[str, typer.Option("--policy", help="Starting policy: heuristic[:key=value].")] = "heuristic",
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Report folder (default report-<preset>-<players>p).")] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    sensitivity: Annotated[Optional[Path], typer.Option(
        "--sensitivity", help="Folder written by scripts/sensitivity.py (the strategy tables with pimc playing the "
                              "cards): shown as a section of the report.")] = None,
    pimc: Annotated[str, typer.Option(
        "--pimc", help="The pimc player the tournaments measure and the play tips watch (pimc:worlds=20: a "
                       "quicker, weaker one).")] = "pimc",
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Strategy tables, match equity, the advice check, score what-ifs and tournaments, in one report folder.

    An existing non-empty report folder is refused unless --force (which writes the new report over it).
    """
    from ..analysis.bidding.strategy import check_base_policy
    from ..work.executor import check_options, open_executor
    from ..players.policy import pimc_worlds
    from ..report.build import build_report

    ruleset = build_rules(rules, players, set_)
    folder = out if out is not None else Path(f"report-{ruleset.preset}-{ruleset.players}p")
    # The exact command that regenerates this report (thread and cluster options do not change it).
    words = ["allfours", "report", "--rules", ruleset.preset, "--players", str(ruleset.players)]
    words += [w for item in (set_ or []) for w in ("--set", item)]
    words += ["--deals", str(deals), "--seed", str(seed), "--policy", policy, "--out", str(folder)]
    words += ["--sensitivity", str(sensitivity)] if sensitivity is not None else []
    words += ["--pimc", pimc] if pimc != "pimc" else []
    command = " ".join(shlex.quote(w) for w in words + ["--force"])
    check_options(threads, scheduler, cluster)
    check_base_policy(policy)
    pimc_worlds(pimc)
    existed = folder.exists()
    check_output(folder, "--out", folder=True, force=force)
    if sensitivity is not None and not (sensitivity / "sensitivity.json").is_file():
        fail(f"--sensitivity {sensitivity}: no sensitivity.json there (write it with scripts/sensitivity.py)")
    announce_engine()
    with open_executor(threads, scheduler, cluster) as executor:
        try:
            with stopping_notice():  # (the parts finished are kept: see `interrupted`)
                path = build_report(ruleset, folder, deals, seed, policy, threads, executor, command=command,
                                    log=lambda m: typer.echo(f"report: {m}", err=True), sensitivity=sensitivity,
                                    pimc=pimc, force=force)
        except KeyboardInterrupt:
            interrupted(folder, existed)
        except OSError as err:
            where = f"{err.filename}: " if err.filename and str(err.filename) != str(folder) else ""
            why = "a file is in the way of a folder" if isinstance(err, FileExistsError) else err.strerror or err
            fail(f"cannot write the report to {folder}: {where}{why}", code=1)  # a failure while working
    if json_out:
        typer.echo((folder / "report.json").read_text(encoding="utf-8"))
    else:
        typer.echo(f"wrote {path} and {folder / 'report.html'}")


def interrupted(folder: Path, existed: bool) -> NoReturn:
    """Ctrl-C: say what is kept and how to finish; the empty --out folder made for the check goes."""
    from ..report.folder import partial_state

    if not existed and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    state = partial_state(folder)
    if state is None:
        raise KeyboardInterrupt
    where, done = state
    kept = f"its finished parts ({', '.join(done)}) are kept in {where}" if done else f"it is in {where}"
    typer.echo(f"interrupted: the report is not finished; {kept}; run the same command again to finish it", err=True)
    raise typer.Exit(130)
