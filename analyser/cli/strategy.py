"""``allfours strategy``: stand/beg and give/run tables by hand class, by iterated best responses."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional, TYPE_CHECKING

import typer

from ..analysis.defaults import STRATEGY_DEALS as DEFAULT_DEALS, STRATEGY_ROUNDS as DEFAULT_ROUNDS

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.strategy import StrategyResult
from .options import (
    ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, file_errors, print_json, progress_bar, score_text,
)


def format_role(res: StrategyResult, role: str) -> str:
    from ..analysis.stats import percent
    from ..record.vocabulary import ROLE

    a, b = ROLE[role].options
    table = res.final(role)
    if not len(table):
        return f"{role}: no round"
    lines = [f"{role.capitalize()}: {a} or {b} (round {int(table['round'].iloc[0])}); net points per deal, the "
             f"{role}'s side minus the others; ? = the 95% CI includes 0",
             f"{'class':<11} {'n':>9} {'share':>7} {a:>7} {b:>7} {ROLE[role].diff:>11}  {'95% CI':<17} recommend"]
    for rec in table.itertuples(index=False):
        rd = rec._asdict()
        if rec.n == 0:
            lines.append(f"{rec.class_key:<11} {0:>9} {'':>7} {'':>7} {'':>7} {'':>11}  {'':<17} (heuristic rule)")
            continue
        unsure = "?" if rec.ci_includes_zero else ""
        lines.append(f"{rec.class_key:<11} {rec.n:>9,} {percent(rec.share):>7} {rd[a + '_mean']:>+7.3f} "
                     f"{rd[b + '_mean']:>+7.3f} {rec.diff_mean:>+11.3f}  [{rec.diff_ci_lo:+.3f}, {rec.diff_ci_hi:+.3f}] "
                     f"{rec.recommend}{unsure}")
    return "\n".join(lines)


def class_legend(res: StrategyResult) -> list[str]:
    """The legend of the class codes the tables show: how to read them, then each one in words."""
    from ..record.hand_text import KEY, class_words

    shown = [key for role in ("eldest", "dealer") for key, n in zip(res.final(role)["class_key"], res.final(role)["n"])
             if n > 0]
    width = max((len(k) for k in shown), default=0)
    return [f"Hand classes: {KEY}."] + [f"  {key:<{width}} = {class_words(key)}"
                                         for key in dict.fromkeys(shown)] + [""]


def format_result(res: StrategyResult) -> str:
    r = res.rules
    lines = [f"Strategy: {r.preset}, {r.players} players, {score_text(res.score)}, "
             f"starting policy {res.policy}; {res.deals:,} decision deals per round, seed {res.seed}",
             f"{'round':<6}{'role':<8}{'deals':>11} {'changed':>8}  {'gain per decision deal [95% CI]':<36}classes changed"]
    for rec in res.rounds.itertuples(index=False):
        lines.append(f"{rec.round:<6}{rec.role:<8}{rec.deals:>11,} {rec.classes_changed:>8}  "
                     f"{rec.gain_mean:+.4f} [{rec.gain_ci_lo:+.4f}, {rec.gain_ci_hi:+.4f}]{'':<7}{rec.changed or '-'}")
    done = len(res.rounds)
    lines.append(f"stopped: {'no recommendation changed in round ' + str(done) if res.converged else f'after {done} rounds (--rounds)'}")
    lines += ["", format_role(res, "eldest"), "", format_role(res, "dealer"), ""]
    lines += class_legend(res)
    lines.append(f"{int(res.rounds['deals'].sum()):,} paired decision deals (each played both ways) in "
                 f"{res.seconds:.1f} s: {res.deals_per_s:,.0f} deals/s")
    if res.out_dir is not None:
        lines.append(f"run folder: {res.out_dir} (tables, rounds.csv, charts); "
                     f"play it with --policy tuned:{res.out_dir}")
    return "\n".join(lines)


def strategy(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    deals: Annotated[int, typer.Option("--deals", min=100, max=1_000_000_000,
                                       help="Paired decision deals per round.")] = DEFAULT_DEALS,
    rounds: Annotated[int, typer.Option("--rounds", min=2, max=50,
                                        help="Best-response rounds at most (eldest, dealer, eldest, ...).")]
    = DEFAULT_ROUNDS,
    policy: Annotated[str, typer.Option("--policy", help="Starting policy of every seat: heuristic[:key=value] or "
                                                         "tuned:RUN_DIR; pimc[:worlds=N] or oracle to play the cards "
                                                         "by search (slow).")] = "heuristic",
    score: ScoreOpt = None,
    seed: SeedOpt = 1,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Run folder (default runs/strategy-<preset>-<players>p-seed<S>).")] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Stand or beg, give or run, for every hand class: tables, tuned policy and charts in a run folder.

    An existing run folder is refused unless --force.
    """
    from ..analysis.bidding.strategy import check_base_policy, default_out_dir, parse_side_score, run_strategy
    from ..work.executor import check_options, open_executor

    ruleset = build_rules(rules, players, set_)
    check_options(threads, scheduler, cluster)
    check_base_policy(policy)
    parsed = parse_side_score(score, ruleset) if score is not None else None
    out_dir = out if out is not None else default_out_dir(ruleset, seed)
    check_output(out_dir, "--out", folder=True, force=force)
    announce_engine()
    with (open_executor(threads, scheduler, cluster) as executor, progress_bar("deals", deals * rounds) as bar,
          file_errors(out_dir)):
        res = run_strategy(ruleset, policy, deals, seed, rounds, parsed, out_dir, executor=executor,
                           progress=bar.advance)
    if json_out:
        print_json(res.to_json())
    else:
        typer.echo(format_result(res))
