"""``allfours whatif``: stand or beg, give or run? Paired rollouts of one decision."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated, Optional, TYPE_CHECKING

import typer

from ..analysis.defaults import WHATIF_BATCH as BATCH, WHATIF_MAX_DEALS as MAX_DEALS, WHATIF_MIN_DEALS as MIN_DEALS
from ..analysis.defaults import WHATIF_STOP_Z as STOP_Z
from ..analysis.defaults import ANALYSE_BID_DEALS, ANALYSE_MAX_CARDS, ANALYSE_WORLDS

from ..analysis.stats import percent as rate, percent_ci as rate_ci, probability as percent

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.whatif import WhatIfResult
from .options import (
    Inference, InferenceStrategyOpt, ForceOpt, JsonOpt, PlayersOpt, PolicyOpt, Preset, RulesOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, fail, log_lines, print_json, progress_bar, load_equity,
    writing,
)

# Each option as a card player says it.
DOING = {"stand": "standing", "beg": "begging", "give": "giving one", "run": "running the cards"}
SURE = 0.95  # how likely the better option must be to be called better in the sentence


class Measure(str, enum.Enum):
    win = "win"
    points = "points"


class WinBy(str, enum.Enum):
    auto = "auto"
    table = "table"
    playout = "playout"


def sentence(res: WhatIfResult) -> str:
    """The answer in one sentence: the better option, and what each option is worth."""
    best, other = res.best_index, res.runner_up
    if res.measure == "win":
        worth = [rate(res.win_prob(j).mean) for j in range(len(res.names))]
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


def shipped_table(res: WhatIfResult) -> tuple[dict | None, str | None]:
    """What the shipped strategy says for the what-if's hand (``"table"`` of --json) and, where the settled
    what-if (better with probability SURE) differs from it or from the strategy card, the sentence that says so."""
    from ..analysis.bidding.shipped import for_result

    return for_result(res, res.p_best >= SURE, res.situation.score_words())


def format_result(res: WhatIfResult, explain: bool = False, table_line: str | None = None) -> str:
    sit = res.situation
    from ..game.cards import card_name

    lines = [
        (f"{sit.rules.preset}, {sit.rules.players} players; the {sit.seat} holds "
         f"{' '.join(card_name(c) for c in sit.hand)}, turn-up {card_name(sit.turnup)}"
         + ("; the eldest begged" if sit.seat == "dealer" else "") +
         f"; score: {sit.score_words()} (to {sit.rules.target}); policy {res.policy}"),
        sentence(res),
        *([table_line] if table_line else []),
        "",
        f"{'option':<12} {'net points':>9}  {'95% CI':<18} {'P(win match)':>12}  {'95% CI':<16}",
    ]
    for j, name in enumerate(res.names):
        ev, wp = res.ev(j), res.win_prob(j)
        lo, hi = ev.ci95
        wlo, whi = wp.clipped_ci95(0.0, 1.0)
        lines.append(f"{name:<12} {ev.mean:>+9.3f}  [{lo:+.3f}, {hi:+.3f}]  {rate(wp.mean):>12}  {rate_ci(wlo, whi)}")
    other = res.names[res.runner_up]
    dp, dw = res.difference("points"), res.difference("win")
    lines.append(f"{res.best + ' - ' + other:<12} {dp.mean:>+9.3f}  [{dp.ci95[0]:+.3f}, {dp.ci95[1]:+.3f}]  "
                 f"{rate(dw.mean, True):>12}  {rate_ci(*dw.ci95, True)}")
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
    hand: Annotated[Optional[str], typer.Option("--hand", help='The decider\'s six cards, e.g. "AS JS 4H 7D 9C TC".')] = None,
    turnup: Annotated[Optional[str], typer.Option("--turnup", help="The turned-up card, e.g. KS.")] = None,
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    seat: Annotated[Optional[str], typer.Option(
        "--seat", help="Who decides: eldest (stand/beg) or dealer (give/run) with --hand (default eldest); with --log, "
                       "the seat number (or eldest/dealer) that must be the one to act.")] = None,
    score: ScoreOpt = None,
    log: Annotated[Optional[Path], typer.Option(
        "--log", help="Judge the decision due where a line of this allfours-log/1 file stops (a real game typed in, or "
                      "simulate --log output cut with --event): stand/beg, give/run from that exact position, or "
                      "every legal card over worlds consistent with what the seat has seen.")] = None,
    line: Annotated[int, typer.Option("--line", min=1, help="Which line of the --log file (numbered as an editor "
                                                            "numbers them).")] = 1,
    event: Annotated[Optional[int], typer.Option(
        "--event", min=0, help="Cut the --log line before this event (0-based) and judge that decision, the choice "
                               "the log made included.")] = None,
    worlds: Annotated[int, typer.Option("--worlds", min=2, max=100_000,
                                        help="--log, a card decision: worlds sampled (each solved with every hand "
                                             "open).")] = ANALYSE_WORLDS,
    inference: Annotated[Inference, typer.Option(
        "--inference", help="--log, a card decision: how the worlds are weighed: full (by how likely the others' "
                            "bids and cards before it make each), bids (by the bids only) or none (every world "
                            "alike).")] = Inference.full,
    strategy: InferenceStrategyOpt = None,
    max_cards: Annotated[int, typer.Option("--max-cards", min=2, max=52,
                                           help="--log: refuse a card decision with more cards than this left in "
                                                "the hands (above 24 the bounded search values the worlds the "
                                                "solver cannot finish).")] = ANALYSE_MAX_CARDS,
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
    plot: Annotated[Path | None, typer.Option("--plot", help="Write a convergence plot of the difference to this "
                                                             "image file (.png, .pdf, .svg, ...), in a folder that "
                                                             "exists.")] = None,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    explain: Annotated[bool, typer.Option("--explain", help="Say how the answer was reached and how to read "
                                                            "its numbers.")] = False,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Judge one decision by paired rollouts: both options on the same sampled deals.

    Prints the answer in a sentence, then the numbers; --explain says how to read them. With --log, the decision
    due where a game log's line stops: a bid as above, from that exact position, or a card: every legal card's
    value over worlds consistent with what the seat has seen, each solved with every hand open.
    """
    from ..analysis.bidding.strategy import parse_side_score
    from ..analysis.bidding.whatif import decider_score, make_situation
    from ..game.cards import parse_card, parse_cards
    from ..players.policy import parse_policy

    parse_policy(policy)
    if log is not None:
        if hand is not None or turnup is not None or score is not None:
            fail("a --log line says the hand, the turn-up and the score: leave out --hand, --turnup and --score")
        if rules != Preset.trinidad or players is not None or set_:  # type: ignore[attr-defined]
            fail("a --log line carries its own rules: --rules, --players and --set go with --hand")
        if strategy is not None:
            from ..players.policy import read_equilibrium

            read_equilibrium(str(strategy))  # a bad folder: one line now, before any world is solved
        from_log(log, line, event, seat, worlds, max_cards, policy, max_deals, stop_z, measure, win_by, equity_dir,
                 plot, seed, threads, explain, force, json_out, inference.value,
                 None if strategy is None else str(strategy))
        return
    if strategy is not None:
        fail("--strategy goes with --log: it reads the others' bids when a card decision's worlds are weighed")
    if hand is None or turnup is None:
        fail("give --hand and --turnup (or a game log with --log)")
    role = seat or "eldest"
    if role not in ("eldest", "dealer"):
        fail(f"--seat {seat}: not one of the choices; choose eldest or dealer")
    ruleset = build_rules(rules, players, set_)
    parse_cards(hand, count=6, what="hand")
    parse_card(turnup)
    given = parse_side_score(score, ruleset) if score is not None else (0,) * ruleset.sides
    method = win_method(win_by, ruleset)
    check_output(plot, "--plot", folder=False, force=force, image=True)
    announce_engine()
    sit = make_situation(ruleset, hand, turnup, role, ":".join(map(str, decider_score(given, ruleset, role))))
    run_situation(sit, policy, method, measure, max_deals, stop_z, equity_dir, plot, seed, threads, explain,
                  json_out)


def win_method(win_by: WinBy, ruleset) -> str:
    method = win_by.value if win_by != WinBy.auto else ("table" if ruleset.sides == 2 else "playout")
    if method == "table" and ruleset.sides != 2:
        fail("equity tables need two sides: with 3 players use --win-by playout")
    return method


def run_situation(sit, policy, method, measure, max_deals, stop_z, equity_dir, plot, seed, threads, explain,
                  json_out, extra: dict | None = None, header: list[str] | None = None,
                  rollout_seed: int | None = None, min_deals: int | None = None) -> None:
    """The what-if of one stand/beg or give/run situation, printed (text or JSON). `rollout_seed`,
    `min_deals`: whatif --log's (the decision's own stream, at least analyse's deals)."""
    from ..analysis.bidding.whatif import what_if

    table = path = None
    if method == "table":
        table, path = load_equity(sit.rules, policy, equity_dir, threads)
    with progress_bar("deals", max_deals) as bar:
        res = what_if(sit, policy, seed=seed if rollout_seed is None else rollout_seed, equity=table,
                      win_by=method, measure=measure.value, max_deals=max_deals,
                      min_deals=min(MIN_DEALS if min_deals is None else min_deals, max_deals), stop_z=stop_z, batch=BATCH,
                      threads=threads, progress=bar.advance)
    res.equity_path = None if path is None else str(path)
    print_situation(res, explain, json_out, extra, header)
    if plot is not None:  # after the answer: a plot that cannot be written loses nothing
        from ..analysis.charts import convergence_plot

        other = res.names[res.runner_up]
        v = res.values()
        label = "match-win probability" if res.measure == "win" else "net points"
        with writing(plot):
            convergence_plot(v[:, res.best_index] - v[:, res.runner_up], plot,
                             f"{res.best} - {other}: {label} difference ({sit.rules.preset}, {sit.seat}, "
                             f"seed {seed})", f"{label}: {res.best} - {other}")


def print_situation(res: WhatIfResult, explain: bool, json_out: bool, extra: dict | None,
                    header: list[str] | None) -> None:
    """The what-if's answer on stdout, text or JSON (with whatif --log's `extra` and `header`)."""
    if extra is not None and extra.get("chosen") is not None:
        extra.update(chosen_loss(res, extra["chosen"]))
        from ..analysis.play.analyse import bid_judgement

        extra["analyse"] = bid_judgement(res, extra["chosen"], ANALYSE_BID_DEALS)
    table, said = shipped_table(res)
    if json_out:
        print_json({**res.to_json(), "table": table, **(extra or {})})
        return
    text = format_result(res, explain, said)
    if header:
        text = "\n".join(header) + "\n" + text
    if extra is not None and extra.get("chosen") is not None:
        lo, hi = extra["loss_ci95"]
        text += (f"\nthe log chose {extra['chosen']}: " + ("the option of most net points" if extra["loss"] == 0 else
                 f"it loses {extra['loss']:+.3f} net points against {extra['best_by_points']} (95% CI "
                 f"[{lo:+.3f}, {hi:+.3f}])"))
        if "analyse" in extra:
            text += "\n" + analyse_words(extra["analyse"], res.deals)
    typer.echo(text)


def chosen_loss(res, chosen: str) -> dict:
    """What the option `chosen` loses in net points against the option of most net points (paired), as
    analyse computes it."""
    from ..analysis.play.analyse import chosen_loss as loss_of

    b, d, _ = loss_of(res, chosen)
    return {"chosen": chosen, "best_by_points": res.names[b], "loss": d.mean, "loss_ci95": list(d.ci95)}


def analyse_words(a: dict, deals: int) -> str:
    """analyse's judgement in words, and why the what-if's may differ."""
    lo, hi = a["loss_ci95"]
    verdict = a["verdict"] or "not flagged"
    if a["deals"] == deals:
        return (f"analyse (--bid-deals {a['deals']}, the same --seed) plays these same {a['deals']:,} deals and "
                f"calls it: {verdict}")
    return (f"analyse (--bid-deals {a['deals']}, the same --seed) plays the first {a['deals']:,} of these deals: a "
            f"loss of {a['loss']:+.3f} (95% CI [{lo:+.3f}, {hi:+.3f}]), {verdict}; this what-if went on to "
            f"{deals:,} deals, so its numbers differ from analyse's within their intervals")


SEAT_WORDS = ("eldest", "dealer")


def from_log(log: Path, line: int, event: int | None, seat: str | None, worlds: int, max_cards: int, policy: str,
             max_deals: int, stop_z: float, measure: Measure, win_by: WinBy, equity_dir: Path | None,
             plot: Path | None, seed: int, threads: int | None, explain: bool, force: bool, json_out: bool,
             inference: str = "full", strategy: str | None = None) -> None:
    """whatif --log: the decision due where line `line` of `log` stops (or before its event `event`); a card
    decision's worlds weighed by the others' choices before it (`inference`; their bids read by the equilibrium
    run `strategy`, default the shipped one)."""
    from ..analysis.play.analyse import bid_seed, situation
    from ..analysis.play.logcuts import BID_EVENTS, cut_line, line_decisions
    from ..referee import LogError

    text = None
    for number, content in log_lines(log, "--log"):
        if number == line:
            text = content
            break
    if text is None:
        fail(f"{log}: no line {line} (or it is blank)")
    where = f"{log}: line {line}"
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        fail(f"{where} is not valid JSON: {err.msg} at column {err.colno}", code=1)
    chosen = None
    events = obj.get("events") if isinstance(obj, dict) else None
    if event is not None and isinstance(events, list):  # --event names no decision: a usage error
        if event >= len(events):
            fail(f"--event {event}: {where} has events 0..{len(events) - 1}")
        name = events[event].get("event") if isinstance(events[event], dict) else None
        if name not in (*BID_EVENTS, "play"):
            fail(f"--event {event}: that event of {where} is {name!r}, not a decision; give the index of a stand, "
                 "beg, give, run or play event")
    try:
        if event is not None:
            whole = obj
            obj = cut_line(whole, event)
            taken = whole["events"][event]
            chosen = taken.get("card") if taken["event"] == "play" else taken["event"]
        facts = line_decisions(obj, cut=True)
    except LogError as err:
        fail(f"{where}" + (f", event {err.event}" if err.event >= 0 else "") + f": {err.reason}", code=1)
    if facts.due is None:
        fail(f"{where} is a whole deal: cut it where the decision is due, or give --event E (the index of a stand, "
             "beg, give, run or play event)")
    at = event if event is not None else facts.events
    rules = facts.rules
    acting = facts.bids[-1].seat if facts.due == "bid" else facts.plays[-1].seat
    if seat is not None:
        wanted = {"eldest": (facts.dealer + 1) % rules.players, "dealer": facts.dealer}.get(seat)
        if wanted is None and not (seat.isdigit() and int(seat) < rules.players):
            fail(f"--seat {seat}: not one of the choices; choose eldest, dealer or a seat 0..{rules.players - 1}")
        if (wanted if wanted is not None else int(seat)) != acting:
            fail(f"--seat {seat}: seat {acting} is the one to act at {where}, event {at}")
    announce_engine()
    if facts.due == "bid":
        bid = facts.bids[-1]
        method = win_method(win_by, rules)
        check_output(plot, "--plot", folder=False, force=force, image=True)
        header = [f"{where}, event {at}: seat {bid.seat}, the {bid.role}, to "
                  + ("stand or beg" if bid.role == "eldest" else "give or run (the eldest begged)")]
        extra = {"kind": "bid", "file": str(log), "line": line, "event": at, "decider": bid.seat, "chosen": chosen}
        # analyse's stream for this line and event, and at least its deals: the first ones are analyse's own
        run_situation(situation(rules, bid), policy, method, measure, max_deals, stop_z, equity_dir, plot, seed,
                      threads, explain, json_out, extra, header, rollout_seed=bid_seed(seed, line, at),
                      min_deals=max(MIN_DEALS, ANALYSE_BID_DEALS))
        return
    if plot is not None:
        fail("--plot is for a stand/beg or give/run decision")
    card_from_log(facts, facts.plays[-1].position, where, line, at, chosen, worlds, max_cards, policy, win_by,
                  equity_dir, seed, threads, json_out, str(log), inference, strategy)


def card_from_log(facts, position, where: str, line: int, at: int, chosen: str | None, worlds: int, max_cards: int,
                  policy: str, win_by: WinBy, equity_dir: Path | None, seed: int, threads: int | None,
                  json_out: bool, file: str, inference: str = "full", strategy: str | None = None) -> None:
    """whatif --log at a card decision: every legal card over sampled worlds, each solved open and weighed by the
    others' choices before it (`inference`, their bids read by `strategy`), as analyse judges it."""
    import numpy as np

    from ..analysis.play.analyse import Thresholds, stream, weigh, weighing_words
    from ..analysis.play.inference import weight_note
    from ..analysis.play.cardvalues import card_values, cards_left
    from ..analysis.stats import Z95
    from ..game.cards import card_name, cards_of, parse_card
    from ..engine.bits import rng_state
    from ..engine.layout import PS_HAND, PS_SCORE

    rules = position.rules
    left = cards_left(position)
    if left > max_cards:
        fail(f"{where}, event {at}: {left} cards are left in the hands, more than --max-cards {max_cards} (raise "
             "--max-cards to answer: above 24 cards the bounded search values the worlds the solver cannot finish)")
    if win_by == WinBy.playout:
        fail("--win-by playout is for stand/beg and give/run; a card's match-win chance reads the equity table")
    table = path = None
    if rules.sides == 2:
        table, path = load_equity(rules, policy, equity_dir, threads)
    values = card_values(position, worlds, rng_state(stream(seed, line, at)), table)
    values, model = weigh(values, facts, facts.plays[-1], inference, strategy)
    seat = position.seat
    hand = [card_name(c) for c in cards_of(int(np.uint64(position.state[PS_HAND + seat])))]
    eldest = (facts.dealer + 1) % rules.players
    by_side = [int(position.state[PS_SCORE + s]) for s in range(rules.sides)]
    first = rules.side_of(eldest)
    score = [by_side[(first + k) % rules.sides] for k in range(rules.sides)]
    from ..analysis.bidding.whatif import score_words
    best = values.best
    cards = values.to_json()
    for name, item in cards.items():
        loss = values.loss(parse_card(name))
        item["loss"] = loss.mean
        item["loss_ci95"] = [loss.mean - Z95 * loss.se, loss.mean + Z95 * loss.se]
    out = {"kind": "card", "file": file, "line": line, "event": at, "seat": seat, "side": position.side,
           "position": position.describe(), "hand": hand, "cards_left": left, "score_eldest_first": score,
           "worlds": worlds, "method": values.method, "inference": inference, "ess": values.ess,
           "model": None if model is None else model.to_json(), "cards": cards, "best": card_name(best),
           "equity_table": None if path is None else str(path),
           "win_prob": table is not None, "rules": rules.as_log_dict()}
    if chosen is not None:
        c = card_name(parse_card(chosen))
        out.update(chosen=c, loss=cards[c]["loss"], loss_ci95=cards[c]["loss_ci95"])
        verdict = Thresholds().verdict(out["loss"], tuple(out["loss_ci95"]))
        out["analyse"] = {"worlds": worlds, "inference": inference, "loss": out["loss"], "loss_ci95": out["loss_ci95"],
                          "verdict": verdict}
    if json_out:
        print_json(out)
        return
    whose = "its side's points minus the other side's" if rules.sides == 2 else (
        "its own points minus the other two players' together, both taken to play against it")
    means = values.means()
    ranked = sorted(range(len(values.cards)), key=lambda j: -means[j])
    lines = [f"{where}, event {at}: {position.describe()}; {left} cards left in the hands",
             f"seat {seat} holds {' '.join(hand)}; score as play started, from seat {seat}'s chair: "
             f"{score_words(rules, by_side, seat)} (to {rules.target})",
             f"Play {card_name(best)}: over {worlds} worlds consistent with what seat {seat} has seen, each solved "
             f"with every hand open{'' if model is None else ', ' + weighing_words(inference)}, it nets {values.ev(values.best_index).mean:+.2f} points this deal ({whose})"
             + (f"; the next best, {values.names[ranked[1]]}, {values.ev(ranked[1]).mean:+.2f}" if len(ranked) > 1
                else "") + ".",
             *([values.method_note()] if values.method == "bounded" else []),
             *([few] if model is not None and (few := weight_note(values.ess, worlds)) else []),
             "",
             f"{'card':<6}{'net points':>10}  {'95% CI':<18}"
             + (f"{'P(win match)':>12}  {'95% CI':<16}" if table is not None else "")
             + f"{'loss vs best':>12}  95% CI"]
    for j in ranked:
        name = values.names[j]
        ev, item = values.ev(j), cards[name]
        row = f"{name:<6}{ev.mean:>+10.3f}  [{ev.ci95[0]:+.3f}, {ev.ci95[1]:+.3f}]  "
        if table is not None:
            wp = values.win_prob(j)
            assert wp is not None  # a table gives every card its match-win probability
            lo, hi = wp.clipped_ci95(0.0, 1.0)
            row += f"{rate(wp.mean):>12}  {rate_ci(lo, hi):<16}  "
        row += "best" if j == values.best_index else (f"{item['loss']:>+12.3f}  [{item['loss_ci95'][0]:+.3f}, "
                                                      f"{item['loss_ci95'][1]:+.3f}]")
        lines.append(row.rstrip())
    if chosen is not None:
        lo, hi = out["loss_ci95"]
        lines.append(f"the log plays {out['chosen']}: " + ("a card of best value" if out["loss"] == 0 else
                     f"it loses {out['loss']:+.3f} net points against {card_name(best)} (95% CI [{lo:+.3f}, "
                     f"{hi:+.3f}])") + f"; analyse --worlds {worlds}"
                     + ("" if inference == "full" else f" --inference {inference}")
                     + ("" if strategy is None or model is None else f" --strategy {strategy}")
                     + " (the same worlds) calls it: "
                     + (out["analyse"]["verdict"] or "not flagged"))
    lines.append(f"worlds: deals of the cards seat {seat} has not seen, consistent with its voids and hand sizes, "
                 f"{weighing_words(inference)}"
                 + ("" if model is None else f" (read by {model.strategy} for the bids, the heuristic's preferences "
                                             f"for the cards; they count as about {values.ess:.1f} worlds alike)")
                 + "; the losses are paired world by world")
    if table is not None:
        lines.append(f"match-win chances: the score after the deal's points as perfect play shares them, read from "
                     f"the equity table {path} (perfect play maximises net points, so this is an approximation)")
    typer.echo("\n".join(lines))
