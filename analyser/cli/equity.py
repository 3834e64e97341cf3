"""``allfours equity``: the match-equity table, cached in the user's cache folder and drawn as a heatmap."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, TYPE_CHECKING

import typer

from ..analysis.defaults import EQUITY_DEALS_PER_CELL as DEFAULT_DEALS_PER_CELL

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.equity import EquityTable
from .options import (
    ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, PolicyOpt, Preset, RulesOpt, SchedulerOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_cache, check_output, file_errors, print_json, progress_bar, writing,
)


def format_table(table: EquityTable) -> str:
    """The table as text: % that the dealer's side wins, rows its score, columns the opponents'."""
    t = table.target
    lines = ["P(dealer's side wins the match), %: rows the dealer's side's score, columns the opponents'",
             "     " + "".join(f"{b:>5}" for b in range(t))]
    for a in range(t):
        lines.append(f"{a:>4} " + "".join(f"{100 * table.p[a, b]:>5.1f}" for b in range(t)))
    return "\n".join(lines)


def equity(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    policy: PolicyOpt = "heuristic",
    deals_per_cell: Annotated[int, typer.Option(
        "--deals-per-cell", "--matches-per-cell", min=100, max=10_000_000,
        help="Single deals sampled from every score (the table is solved from these one-deal transitions).",
    )] = DEFAULT_DEALS_PER_CELL,
    seed: SeedOpt = 1,
    out: Annotated[Path | None, typer.Option(
        "--out", help="Folder of the cached tables and the heatmap (default: equity/ in the user's cache, "
                      "~/.cache/allfours or $ALLFOURS_CACHE_DIR).")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="The heatmap's image file (.png, .pdf, .svg, ...; "
                                                             "default: a .png next to the table).")] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Match-win probability from every score (2 sides), with 95% CIs; cached and drawn.

    --out is a cache: a table already there is read, not replaced. An existing --plot file is
    refused unless --force.
    """
    from ..analysis.charts import equity_heatmap
    from ..analysis.bidding.equity import check_two_sides, equity_folder, equity_table
    from ..work.executor import check_options, open_executor
    from ..players.policy import parse_policy

    ruleset = build_rules(rules, players, set_)
    given = out is not None
    out = equity_folder(out)
    check_options(threads, scheduler, cluster)
    check_two_sides(ruleset)
    parse_policy(policy)
    check_cache(out, "--out", given=given)  # the cache: tables are added, never replaced
    check_output(plot, "--plot", folder=False, force=force, image=True)
    announce_engine()
    # The cluster starts (or is reached) only if the table is not in the cache.
    with (open_executor(threads, scheduler, cluster) as executor,
          progress_bar("equity", ruleset.target ** 2) as bar, file_errors(out)):
        table, path, cached = equity_table(ruleset, policy, deals_per_cell, seed, out, bar.advance,
                                           executor=executor)
    heatmap = plot or out / (path.stem + "-heatmap.png")  # in --out, also for a table shipped in results/
    drawn = plot is None and cached and heatmap.is_file()  # the cached table's own heatmap: already drawn
    if json_out:
        print_json({**table.to_json(), "file": str(path), "cached": cached, "heatmap": str(heatmap)})
    else:
        typer.echo(f"Match equity: {ruleset.preset}, {ruleset.players} players, target {ruleset.target}, policy "
                   f"{policy} ({deals_per_cell:,} deals per cell, seed {seed})")
        typer.echo(format_table(table))
        typer.echo(f"largest 95% CI half-width: {100 * table.max_half_width:.1f} percentage points")
        typer.echo(f"table: {path} ({'from the cache' if cached else 'new'}); heatmap: {heatmap}")
    if not drawn:  # after the answer: a heatmap that cannot be written loses nothing
        with writing(heatmap):
            equity_heatmap(table, heatmap)
