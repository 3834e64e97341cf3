"""``allfours bench``: whole deals per second, 1 thread and T threads, and peak memory."""

from __future__ import annotations

import json
import os
from typing import Annotated, Optional

import typer

from .options import JsonOpt, PlayersOpt, Preset, RulesOpt, SetOpt, build_rules


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
    json_out: JsonOpt = False,
) -> None:
    """Measure whole deals per second (random with the eldest standing, and heuristic; trinidad by default)."""
    from ..bench import bench_table, run_bench

    result = run_bench(threads or os.cpu_count() or 1, seconds, build_rules(rules, players, set_))
    typer.echo(json.dumps(result) if json_out else bench_table(result))
