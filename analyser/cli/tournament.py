"""``allfours tournament``: policy A against policy B over duplicated matches."""

from __future__ import annotations

from typing import Annotated

import typer

from .options import (
    ClusterOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, SeedOpt, SetOpt, ThreadsOpt, announce_engine,
    build_rules, print_json, progress_bar,
)


def tournament(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    a: Annotated[str, typer.Option("--a", help="Policy of side A (even seats), e.g. heuristic:beg_trumps=3.")] = "heuristic",
    b: Annotated[str, typer.Option("--b", help="Policy of side B (odd seats).")] = "random",
    matches: Annotated[
        int, typer.Option("--matches", min=2, max=100_000_000, help="Matches to play; odd is rounded up (pairs).")
    ] = 2_000,
    run_deals: Annotated[
        int, typer.Option("--run-deals", min=0, max=100_000_000,
                          help="Instead of matches: deal this many single deals and play those with a run twice, "
                               "seats swapped (A's net points per run deal; for card players that differ above 24 "
                               "cards, e.g. --a pimc --b pimc:max_cards=24). 0: play matches.")
    ] = 0,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Play whole matches of policy A against B, each deal duplicated with seats swapped.

    4 players: A on seats 0 and 2, B on 1 and 3; 2 players: A on seat 0, B on seat 1.
    3 players are refused (each plays alone, there are no two sides).
    """
    from ..analysis.play.tournament import run_deal_duel, run_tournament
    from ..analysis.stats import percent, percent_ci
    from ..work.executor import check_options, open_executor

    ruleset = build_rules(rules, players, set_)
    check_options(threads, scheduler, cluster)
    announce_engine()
    if run_deals:
        with open_executor(threads, scheduler, cluster) as executor, progress_bar("deals", run_deals) as bar:
            duel = run_deal_duel(ruleset, a, b, run_deals, seed, on_chunk=bar.advance, executor=executor)
        if json_out:
            print_json(duel.as_dict())
            return
        e = duel.a_net_per_run_deal
        lo, hi = e.ci95
        typer.echo(f"{ruleset.preset}, {ruleset.players} players, seed {seed}: A = {a}, B = {b}")
        typer.echo(f"deals {duel.deals}, with a run {duel.run_deals} ({percent(duel.run_rate)}; run twice "
                   f"{duel.twice_run}), each played twice with the seats swapped")
        typer.echo(f"A's net points per run deal: {e.mean:+.4f} (se {e.se:.4f}, 95% CI [{lo:+.4f}, {hi:+.4f}])")
        return
    with open_executor(threads, scheduler, cluster) as executor, progress_bar("pairs", (matches + 1) // 2) as bar:
        result = run_tournament(ruleset, a, b, matches, seed, on_chunk=bar.advance, executor=executor)
    if json_out:
        print_json(result.as_dict())
        return
    lo, hi = result.a_win_rate_ci95
    typer.echo(f"{ruleset.preset}, {ruleset.players} players, seed {seed}: A = {a}, B = {b}")
    typer.echo(f"matches {result.matches} ({result.matches // 2} duplicate pairs), deals {result.deals}"
               + (f", {result.unfinished} unfinished" if result.unfinished else ""))
    typer.echo(f"A wins {result.a_wins}: win rate {percent(result.a_win_rate.mean)} "
               f"(se {percent(result.a_win_rate.se)}, 95% CI {percent_ci(lo, hi)})")
    for name, est in (("A", result.a_points_per_deal), ("B", result.b_points_per_deal),
                      ("A-B", result.diff_points_per_deal)):
        plo, phi = est.ci95
        typer.echo(f"points per deal {name:>3}: {est.mean:.4f} (se {est.se:.4f}, 95% CI [{plo:.4f}, {phi:.4f}])")
