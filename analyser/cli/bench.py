"""``allfours bench``: whole deals per second, 1 thread and T threads, and peak memory."""

from __future__ import annotations

import json
import os
from typing import Annotated, Optional

import typer

from .options import JsonOpt, PlayersOpt, Preset, RulesOpt, SetOpt, announce_engine, build_rules, fail, stopping_notice


STOPPING = "stopping: the measurement under way is dropped..."


def bench(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    threads: Annotated[
        Optional[int], typer.Option("--threads", min=1, help="Threads to measure (default: all cores).")
    ] = None,
    seconds: Annotated[
        float, typer.Option("--seconds", min=0.01, max=600, help="Seconds of play per figure.")
    ] = 3.0,
    against_c: Annotated[bool, typer.Option(
        "--against-c",
        help="Also compile a plain C reference (scripts/c_reference/) and measure it, its numba translation and the "
             "engine alternately: deals/s and ratios (trinidad, 4 players).")] = False,
    rounds: Annotated[int, typer.Option(
        "--rounds", min=1, max=50, help="With --against-c: alternating rounds (medians are reported).")] = 5,
    json_out: JsonOpt = False,
) -> None:
    """Measure whole deals per second (random with the eldest standing, and heuristic; trinidad by default)."""
    from ..work.bench import bench_table, run_bench

    ruleset = build_rules(rules, players, set_)
    announce_engine()
    if against_c:
        from ..work.bench_c import against_c_text, run_against_c

        if (ruleset.preset, ruleset.players) != ("trinidad", 4) or set_:
            fail("--against-c measures the trinidad 4-player figures that the C reference plays: "
                 "leave out --rules, --players and --set")
        with stopping_notice(STOPPING):
            result = run_against_c(seconds, rounds)
        typer.echo(json.dumps(result) if json_out else against_c_text(result))
        return
    with stopping_notice(STOPPING):
        result = run_bench(threads or os.cpu_count() or 1, seconds, ruleset)
    typer.echo(json.dumps(result) if json_out else bench_table(result))
