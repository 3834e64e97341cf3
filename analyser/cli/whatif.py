"""``allfours whatif``: stand or beg, give or run? Paired rollouts of one decision."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated

import typer

from ..analysis.equity import DEFAULT_DIR
from ..analysis.whatif import BATCH, MAX_DEALS, MIN_DEALS, STOP_Z, WhatIfResult
from .options import (
    JsonOpt, PlayersOpt, PolicyOpt, Preset, RulesOpt, SeedOpt, SetOpt, ThreadsOpt, build_rules, fail, file_errors,
    progress_bar,
)


class Seat(str, enum.Enum):
    eldest = "eldest"
    dealer = "dealer"


class Measure(str, enum.Enum):
    win = "win"
    points = "points"


class WinBy(str, enum.Enum):
    auto = "auto"
    table = "table"
    playout = "playout"


def format_result(res: WhatIfResult) -> str:
    sit = res.situation
    from ..cards import card_name

    lines = [
        (f"{sit.rules.preset}, {sit.rules.players} players; {sit.seat} holds "
         f"{' '.join(card_name(c) for c in sit.hand)}, turn-up {card_name(sit.turnup)}, "
         f"score {':'.join(map(str, sit.score))} (ours first); policy {res.policy}"),
        f"{'option':<12} {'net points':>9}  {'95% CI':<18} {'P(win match)':>12}  {'95% CI':<16}",
    ]
    for j, name in enumerate(res.names):
        ev, wp = res.ev(j), res.win_prob(j)
        lo, hi = ev.ci95
        wlo, whi = wp.clipped_ci95(0.0, 1.0)
        lines.append(f"{name:<12} {ev.mean:>+9.3f}  [{lo:+.3f}, {hi:+.3f}]  {wp.mean:>12.4f}  [{wlo:.4f}, {whi:.4f}]")
    other = res.names[res.runner_up]
    dp, dw = res.difference("points"), res.difference("win")
    lines.append(f"{res.best + ' - ' + other:<12} {dp.mean:>+9.3f}  [{dp.ci95[0]:+.3f}, {dp.ci95[1]:+.3f}]  "
                 f"{dw.mean:>+12.4f}  [{dw.ci95[0]:+.4f}, {dw.ci95[1]:+.4f}]")
    by = "match-win probability" if res.measure == "win" else "net points"
    stop = f"ahead by more than {res.stop_z:g} SE" if res.stopped_by == "separated" else "reached --max-deals"
    lines.append(f"recommendation: {res.best} (P(really best) {res.p_best:.4f}, by {by}); "
                 f"{res.deals:,} deals, stopped: {stop}")
    if res.beg_rate is not None:
        lines.append(f"the eldest's policy begs with {100 * res.beg_rate:.1f}% of the hands the dealer cannot rule out")
    lines.append("win probability: " + ("playing the match out" if res.win_by == "playout"
                                         else f"equity table {res.equity_path}"))
    return "\n".join(lines)


def whatif(
    hand: Annotated[str, typer.Option("--hand", help='The decider\'s six cards, e.g. "AS JS 4H 7D 9C TC".')],
    turnup: Annotated[str, typer.Option("--turnup", help="The turned-up card, e.g. KS.")],
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    seat: Annotated[Seat, typer.Option("--seat", help="Who decides: the eldest (stand/beg) or the dealer "
                                                      "answering a beg (give/run).")] = Seat.eldest,
    score: Annotated[str | None, typer.Option(
        "--score", help="Score before this deal from the decider's side: OURS:THEIRS (3 players: OURS:NEXT:LAST, "
                        "the others in play order after the decider). Default all zero.")] = None,
    policy: PolicyOpt = "heuristic",
    max_deals: Annotated[int, typer.Option("--max-deals", min=2, max=100_000_000,
                                           help="Stop after this many deals at most.")] = MAX_DEALS,
    stop_z: Annotated[float, typer.Option("--stop-z", min=0.0, help="Stop once the best option leads by this many "
                                                                    "standard errors of the difference.")] = STOP_Z,
    measure: Annotated[Measure, typer.Option("--measure", help="What the recommendation and stopping use: match-win "
                                                               "probability or net points.")] = Measure.win,
    win_by: Annotated[WinBy, typer.Option("--win-by", help="Match-win probability from the cached equity table, or "
                                                           "by playing each match out (auto: table with 2 sides, "
                                                           "playout with 3 players).")] = WinBy.auto,
    equity_dir: Annotated[Path, typer.Option("--equity-dir", help="Where equity tables are cached.")] = DEFAULT_DIR,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a convergence plot (PNG) of the difference.")] = None,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Judge one decision by paired rollouts: both options on the same sampled deals."""
    from ..analysis.equity import cached_table, equity_table
    from ..analysis.whatif import make_situation, what_if
    from ..policy import parse_policy

    ruleset = build_rules(rules, players, set_)
    parse_policy(policy)
    sit = make_situation(ruleset, hand, turnup, seat.value, score or ":".join(["0"] * ruleset.sides))
    method = win_by.value if win_by != WinBy.auto else ("table" if ruleset.sides == 2 else "playout")
    if method == "table" and ruleset.sides != 2:
        fail("equity tables need two sides: with 3 players use --win-by playout")
    table = path = None
    if method == "table":
        with file_errors(equity_dir):
            found = cached_table(ruleset, policy, equity_dir)
            if found is None:
                typer.echo(f"no equity table for these rules, policy and engine in {equity_dir}: estimating one "
                           "(once; see `allfours equity`)", err=True)
                with progress_bar("equity table", ruleset.target ** 2) as bar:
                    table, path, _ = equity_table(ruleset, policy, out_dir=equity_dir, progress=bar.advance,
                                                  threads=threads)
            else:
                table, path = found
    with progress_bar("deals", max_deals) as bar:
        res = what_if(sit, policy, seed=seed, equity=table, win_by=method, measure=measure.value,
                      max_deals=max_deals, min_deals=min(MIN_DEALS, max_deals), stop_z=stop_z, batch=BATCH,
                      threads=threads, progress=bar.advance)
    res.equity_path = None if path is None else str(path)
    if plot is not None:
        from ..analysis.charts import convergence_plot

        other = res.names[res.runner_up]
        v = res.values()
        label = "match-win probability" if res.measure == "win" else "net points"
        with file_errors(plot):
            convergence_plot(v[:, res.best_index] - v[:, res.runner_up], plot,
                             f"{res.best} - {other}: {label} difference ({ruleset.preset}, {sit.seat}, "
                             f"seed {seed})", f"{label}: {res.best} - {other}")
    typer.echo(json.dumps(res.to_json()) if json_out else format_result(res))
