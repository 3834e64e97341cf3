"""``allfours whatif``: stand or beg, give or run? Paired rollouts of one decision."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated, TYPE_CHECKING

import typer

from ..analysis.defaults import WHATIF_BATCH as BATCH, WHATIF_MAX_DEALS as MAX_DEALS, WHATIF_MIN_DEALS as MIN_DEALS
from ..analysis.defaults import WHATIF_STOP_Z as STOP_Z

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.whatif import WhatIfResult
from .options import (
    ForceOpt, JsonOpt, PlayersOpt, PolicyOpt, Preset, RulesOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, fail, file_errors, progress_bar, score_text,
)

# Each option as a card player says it.
DOING = {"stand": "standing", "beg": "begging", "give": "giving one", "run": "running the cards"}
SURE = 0.95  # how likely the better option must be to be called better in the sentence


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


def percent(p: float) -> str:
    """A probability for people: 48%, 0.4%, "above 99.99%"."""
    if p >= 0.9999:
        return "above 99.99%"
    return f"{100 * p:.0f}%" if 0.1 <= p <= 0.9 else f"{100 * p:.2g}%"


def sentence(res: WhatIfResult) -> str:
    """The answer in one sentence: the better option, and what each option is worth."""
    best, other = res.best_index, res.runner_up
    if res.measure == "win":
        worth = [f"{100 * res.win_prob(j).mean:.0f}%" for j in range(len(res.names))]
        tail = f"wins the match about {worth[best]} of the time, {DOING[res.names[other]]} {worth[other]}"
    else:
        worth = [f"{res.ev(j).mean:+.2f}" for j in range(len(res.names))]
        tail = (f"nets about {worth[best]} points this deal (your side's minus the others'), "
                f"{DOING[res.names[other]]} {worth[other]}")
    if res.p_best >= SURE:
        return f"{res.best.capitalize()}: with this hand {DOING[res.best]} {tail}."
    return (f"Too close to call: {DOING[res.best]} {tail}; {res.best} is ahead, but is better only with "
            f"probability {percent(res.p_best)}.")


def explanation(res: WhatIfResult) -> list[str]:
    """--explain: how the answer was reached and how to read the numbers, in a few sentences."""
    sit = res.situation
    first, second = res.names[res.best_index], res.names[res.runner_up]
    knows = "your six cards and the turn-up" + (", and that the eldest begged" if sit.seat == "dealer" else "")
    lines = [
        f"How: {res.deals:,} deals were dealt at random around what you know ({knows}). Each deal was played "
        f"twice from the same cards, once {DOING[first]} and once {DOING[second]}, with every other decision "
        f"made by the {res.policy} policy, so the two differ only by your choice.",
        "Net points: your side's points minus the other sides', from your decision to the end of the hand "
        "(the turn-up's kick came before it and is not counted).",
        "Match-win chance: " + ("whether your side goes on to win the match, from the score after this deal, read "
                                "from the match-equity table" if res.win_by == "table" else
                                "whether your side wins the match, each match played out to the end") + ".",
    ]
    dp, dw = res.difference("points"), res.difference("win")
    lines.append(f"The difference, {first} minus {second}: {100 * dw.mean:+.1f} percentage points of match-win "
                 f"chance (95% CI [{100 * dw.ci95[0]:+.1f}, {100 * dw.ci95[1]:+.1f}]) and {dp.mean:+.3f} net points "
                 f"(95% CI [{dp.ci95[0]:+.3f}, {dp.ci95[1]:+.3f}]). The 95% CI is the range the true value lies in, "
                 "19 times out of 20; an interval that leaves out 0 means the sign is settled.")
    by = "match-win chance" if res.measure == "win" else "net points"
    lines.append(f"Judged by {by} (--measure), {first} is better with probability {percent(res.p_best)}; "
                 "more deals (--max-deals) narrow the intervals when it is close.")
    return lines


def format_result(res: WhatIfResult, explain: bool = False) -> str:
    sit = res.situation
    from ..cards import card_name

    yours = sit.score[0]
    whose = "you have" if sit.rules.sides == 3 else "your side has"
    lines = [
        (f"{sit.rules.preset}, {sit.rules.players} players; the {sit.seat} holds "
         f"{' '.join(card_name(c) for c in sit.hand)}, turn-up {card_name(sit.turnup)}"
         + ("; the eldest begged" if sit.seat == "dealer" else "") +
         f"; {score_text(sit.eldest_first())} ({whose} {yours}); policy {res.policy}"),
        sentence(res),
        "",
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
    by = "match-win chance" if res.measure == "win" else "net points"
    stop = (f"stopped once {res.best} led by more than {res.stop_z:g} standard errors" if res.stopped_by == "separated"
            else "stopped at --max-deals before either option was clearly ahead")
    lines.append(f"{res.best} is better (by {by}) with probability {percent(res.p_best)}; {res.deals:,} deals played, "
                 f"{stop}")
    if res.beg_rate is not None:
        lines.append(f"the eldest begs with {100 * res.beg_rate:.1f}% of the hands you cannot rule out; the deals "
                     "above are drawn from those")
    lines.append("match-win chances: " + ("each match played out" if res.win_by == "playout"
                                          else f"from the equity table {res.equity_path}"))
    if explain:
        lines += [""] + explanation(res)
    return "\n".join(lines)


def whatif(
    hand: Annotated[str, typer.Option("--hand", help='The decider\'s six cards, e.g. "AS JS 4H 7D 9C TC".')],
    turnup: Annotated[str, typer.Option("--turnup", help="The turned-up card, e.g. KS.")],
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    seat: Annotated[Seat, typer.Option("--seat", help="Who decides: the eldest (stand/beg) or the dealer "
                                                      "answering a beg (give/run).")] = Seat.eldest,
    score: ScoreOpt = None,
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
    equity_dir: Annotated[Path | None, typer.Option(
        "--equity-dir", help="Where equity tables are cached (default: equity/ in the user's cache, "
                             "~/.cache/allfours or $ALLFOURS_CACHE_DIR).")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a convergence plot (PNG) of the difference.")] = None,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    explain: Annotated[bool, typer.Option("--explain", help="Say how the answer was reached and how to read "
                                                            "its numbers.")] = False,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Judge one decision by paired rollouts: both options on the same sampled deals.

    Prints the answer in a sentence, then the numbers; --explain says how to read them.
    """
    from ..analysis.equity import build_notice, cached_table, equity_folder, equity_table
    from ..analysis.strategy import parse_side_score
    from ..analysis.whatif import decider_score, make_situation, what_if
    from ..cards import parse_card, parse_cards
    from ..policy import parse_policy

    ruleset = build_rules(rules, players, set_)
    equity_dir = equity_folder(equity_dir)
    parse_policy(policy)
    parse_cards(hand, count=6, what="hand")
    parse_card(turnup)
    given = parse_side_score(score, ruleset) if score is not None else (0,) * ruleset.sides
    method = win_by.value if win_by != WinBy.auto else ("table" if ruleset.sides == 2 else "playout")
    if method == "table" and ruleset.sides != 2:
        fail("equity tables need two sides: with 3 players use --win-by playout")
    check_output(plot, "--plot", folder=False, force=force)
    if method == "table":
        check_output(equity_dir, "--equity-dir", folder=True, force=True)  # a cache: tables are added, not replaced
    announce_engine()
    sit = make_situation(ruleset, hand, turnup, seat.value, ":".join(map(str, decider_score(given, ruleset,
                                                                                           seat.value))))
    table = path = None
    if method == "table":
        with file_errors(equity_dir):
            found = cached_table(ruleset, policy, equity_dir)
            if found is None:
                typer.echo(f"{build_notice(ruleset, threads=threads)}; it is kept in {equity_dir} for next time",
                           err=True)
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
    typer.echo(json.dumps(res.to_json()) if json_out else format_result(res, explain))
