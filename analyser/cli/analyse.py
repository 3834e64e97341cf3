"""``allfours analyse``: every decision of a recorded game judged; where the points were lost, and the luck."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import enum

import typer

from ..analysis.defaults import ANALYSE_BID_DEALS, ANALYSE_MAX_CARDS, ANALYSE_WORLDS
from .options import (
    ForceOpt, InferenceStrategyOpt, JsonOpt, SeedOpt, ThreadsOpt, announce_engine, check_input, check_output, fail, load_equity, log_lines,
    print_json, progress_bar, writing,
)

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when the command runs
    from ..analysis.play.analyse import Report
    from ..analysis.bidding.equity import EquityTable
    from ..game.rules import RuleSet

WORLDS_HELP = "Worlds per card decision: deals of the cards the player has not seen, consistent with what it has seen."
INFERENCE_HELP = ("Card decisions: how the worlds are weighed: full (by how likely the others' bids and cards "
                  "before the decision make each), bids (by the bids only) or none (every world alike).")


class Inference(str, enum.Enum):
    none = "none"
    bids = "bids"
    full = "full"


MAX_CARDS_HELP = ("Card decisions with more cards than this left in all hands together are not analysed (52: all are; "
                  "above 24 the worlds the solver cannot finish quickly are valued by the bounded search).")


def equity_loader(policy: str, equity_dir: Path | None, threads: int | None):
    """A function giving each rule set's match-equity table (from the cache, or built once, announced)."""
    tables: dict[Any, EquityTable] = {}

    def load(rules: RuleSet) -> EquityTable:
        if rules not in tables:
            tables[rules] = load_equity(rules, policy, equity_dir, threads)[0]
        return tables[rules]

    return load


def analyse(
    file: Annotated[Path, typer.Argument(help="An allfours-log/1 file (see docs/game-log.md): deals from simulate "
                                              "--log or typed by hand, one line per dealer's turn, a match or more.")],
    seat: Annotated[Optional[list[int]], typer.Option(
        "--seat", min=0, max=3, help="Judge only this seat's decisions (repeat for more). Default: every seat of a "
                                     "full log; the seat whose hand a seat's view shows.")] = None,
    side: Annotated[Optional[int], typer.Option("--side", min=0, max=2,
                                                help="Judge only the decisions of this side's seats.")] = None,
    worlds: Annotated[int, typer.Option("--worlds", min=2, max=100_000, help=WORLDS_HELP)] = ANALYSE_WORLDS,
    inference: Annotated[Inference, typer.Option("--inference", help=INFERENCE_HELP)] = Inference.full,
    strategy: InferenceStrategyOpt = None,
    bid_deals: Annotated[int, typer.Option("--bid-deals", min=100, max=10_000_000,
                                           help="Paired deals per stand/beg or give/run decision (the what-if's "
                                                "rollouts from that exact position).")] = ANALYSE_BID_DEALS,
    policy: Annotated[str, typer.Option("--policy", help="Who plays the rest of a bid's rollouts, and whose match-"
                                                         "equity table gives the match-win chances.")] = "heuristic",
    max_cards: Annotated[int, typer.Option("--max-cards", min=2, max=52, help=MAX_CARDS_HELP)] = ANALYSE_MAX_CARDS,
    doubtful: Annotated[float, typer.Option("--doubtful", min=0.0, help="Flag a decision as doubtful when the lower "
                                                                         "end of its loss's 95% CI reaches this many "
                                                                         "net points (a mean loss this large whose "
                                                                         "interval reaches below it: too close to "
                                                                         "call).")] = 0.1,
    error: Annotated[float, typer.Option("--error", min=0.0, help="Flag an error when the lower end of the loss's "
                                                                  "95% CI reaches this.")] = 0.3,
    blunder: Annotated[float, typer.Option("--blunder", min=0.0, help="Flag a blunder when the lower end of the "
                                                                      "loss's 95% CI reaches this.")] = 1.0,
    win_prob: Annotated[bool, typer.Option("--win-prob/--no-win-prob",
                                           help="Also the match-win chance of each option (two sides; reads or "
                                                "builds the policy's match-equity table).")] = True,
    equity_dir: Annotated[Optional[Path], typer.Option(
        "--equity-dir", help="Where equity tables are cached (default: equity/ in the user's cache).")] = None,
    out: Annotated[Optional[Path], typer.Option("--out", help="Write index.html here: the deals, the tricks and each "
                                                              "flagged decision with its alternatives.")] = None,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    force: ForceOpt = False,
    json_out: JsonOpt = False,
) -> None:
    """Judge every decision of a recorded game: the choice made, the best choice, the loss.

    Card decisions: every legal card valued over worlds the player could not tell apart, each solved with every hand
    open and weighed by how likely the others' bids and cards make it (--inference). Bids: the what-if's paired rollouts from that exact position. Losses in net points of the deal for the
    decider's side, flagged doubtful, error or blunder; summaries per player and side (bidding and card play apart),
    per match, and the luck of the deal (its value with every hand open).

    A seat's view (as record writes it, ?? for unseen cards) is read as it is: when every hidden card was played
    the deal is rebuilt from the plays; otherwise that seat's own decisions are judged and one line says what
    could not be. A deal left in progress by play or record is judged up to where it stopped.
    """
    from ..analysis import AnalysisError
    from ..analysis.play.analyse import LineError, Settings, Thresholds, analyse as run, count_work, read_log
    from ..players.policy import parse_policy

    if seat and side is not None:
        fail("give --seat or --side, not both")
    parse_policy(policy)
    if strategy is not None:
        from ..players.policy import read_equilibrium

        read_equilibrium(str(strategy))  # a bad folder: one line now, not after the first deal
    thresholds = Thresholds(doubtful, error, blunder)
    settings = Settings(worlds=worlds, bid_deals=bid_deals, policy=policy, max_cards=max_cards, seed=seed,
                        thresholds=thresholds, threads=threads, seats=frozenset(seat) if seat else None,
                        sides=frozenset([side]) if side is not None else None, inference=inference.value,
                        strategy=None if strategy is None else str(strategy))
    check_input(file)
    check_output(out, "--out", folder=True, force=force)
    announce_engine()
    try:
        parsed = read_log(log_lines(file))
    except LineError as err:
        if err.reason.startswith("not valid JSON"):  # as replay says it
            fail(f"{file}: line {err.line} is {err.reason}", code=1)
        fail(f"{file}: {err}", code=2 if err.view else 1)  # a seat's view no dealing allows: bad input
    except AnalysisError as err:
        fail(f"{file}: {err}", code=1)
    for p in parsed:
        n = p.facts.rules.players
        if any(s >= n for s in seat or []) or (side is not None and side >= p.facts.rules.sides):
            fail(f"{file}: line {p.number} has {n} players: no " + (f"side {side}" if side is not None else
                                                                     f"seat {max(seat or [0])}"))
    loader = equity_loader(policy, equity_dir, threads) if win_prob else None
    with progress_bar("decisions", count_work(parsed, settings)) as bar:
        report = run(parsed, settings, str(file), equity=loader, progress=bar.advance)
    if json_out:
        print_json(report.to_json())
    else:
        typer.echo(format_report(report))
    if out is not None:  # after the answer: a page that cannot be written loses nothing
        from ..analysis.play.analyse_html import write_page

        with writing(out):
            path = write_page(report, out)
        typer.echo(f"wrote {path}", err=True)


def _ci(pair: Any) -> str:
    return f"[{pair[0]:+.2f}, {pair[1]:+.2f}]" if pair else ""


def _mean(x: float | None, digits: int = 3) -> str:
    return "-" if x is None else f"{x:+.{digits}f}"


def _decision_row(d: Any) -> str:
    where = d.where if d.kind == "bid" else f"trick {d.trick}"
    verb = "played" if d.kind == "card" else "chose "
    return (f"  line {d.line:>3} event {d.event:>3}  seat {d.seat} {d.kind:<4} {where:<9} {verb} "
            f"{d.chosen:<5} best {d.best:<5} loss {d.loss:+.2f} {_ci(d.loss_ci95)}  {d.flag or ''}").rstrip()


def _view_lines(report: Report) -> list[str]:
    """What the seats' views (and deals in progress) let the analysis judge: one line for each run of lines
    that say the same."""
    from ..analysis.play.analyse import view_words

    said: list[tuple[list[int], str]] = []
    for line in report.lines:
        for text in view_words(line):
            if said and said[-1][1] == text and said[-1][0][-1] == line.line - 1:
                said[-1][0].append(line.line)
            else:
                said.append(([line.line], text))
    return [(f"line {nums[0]}" if len(nums) == 1 else f"lines {nums[0]}-{nums[-1]}") + text for nums, text in said]


def format_report(report: Report) -> str:
    from ..analysis.play.analyse import weighing_words

    s = report.settings
    t = s.thresholds
    first = report.lines[0].rules
    decisions = report.decisions
    lines = [
        f"{report.file}: {len(report.lines)} deal{'s' * (len(report.lines) != 1)} in {report.matches} "
        f"match{'es' * (report.matches != 1)}; {first.preset}, {first.players} players",
        f"cards: each legal card on {s.worlds} worlds the player could not tell apart, each solved with every hand "
        f"open, {weighing_words(s.inference)}; bids: {s.bid_deals:,} paired deals of the what-if ({s.policy} play; whatif --log at the same line "
        "and event plays these same deals first)",
        "losses in net points of the deal for the decider's side (its points minus the others')"
        + ("" if first.sides == 2 else "; three players: net points only, no match-win chances"),
        *_view_lines(report),
        "",
        f"flagged decisions (the lower end of the loss's 95% CI reaches doubtful {t.doubtful:g}, error {t.error:g}, "
        f"blunder {t.blunder:g}):",
    ]
    flagged = [d for d in decisions if d.flag]
    close = [d for d in decisions if d.close]
    lines += [_decision_row(d) for d in flagged] or ["  none"]
    if close:
        lines.append(f"too close to call (a mean loss of {t.doubtful:g} or more whose 95% CI reaches below "
                     f"{t.doubtful:g}):")
        lines += [_decision_row(d) for d in close]
    skipped = [d for d in decisions if not d.analysed]
    if skipped:
        big = sum(d.kind == "card" for d in skipped)
        lines.append(f"not analysed: {len(skipped)} decisions" + (f" ({big} card decisions with more than "
                                                                 f"{s.max_cards} cards left in the hands: "
                                                                 "--max-cards)" if big else "")
                     + (f"; {len(skipped) - big} bids (see --json)" if len(skipped) > big else ""))
    bounded = sum(d.method == "bounded" for d in decisions)
    if bounded:
        lines.append(f"bounded search: {bounded} card decisions (more than {s.budget.horizon} cards in the hands: "
                     "worlds the solver did not finish within the node budget valued by the heuristic's play down "
                     f"to {s.budget.horizon} cards, then the solver)")
    few = sum(d.few_worlds for d in decisions)
    if few:
        lines.append(f"few worlds carry the answer in {few} card decision{'s' * (few != 1)}: the others' choices make "
                     "a few of the worlds far likelier than the rest (ess in --json; more --worlds spreads it)")
    forced = sum(line.forced for line in report.lines)
    if forced:
        lines.append(f"forced plays (one legal card, no decision): {forced}")
    lines += ["", "players (loss per decision, 95% CI over the decisions):",
              f"  {'seat':<6}{'side':<6}{'bids':>5} {'loss':>7} {'per bid':>8}  {'cards':>5} {'loss':>7} "
              f"{'per card':>8}  {'mean loss [95% CI]':<26}{'doubtful':>9}{'error':>6}{'blunder':>8}{'too close':>10}"]
    for p in report.players():
        b, c = p["bid"], p["card"]
        lines.append(f"  {p['seat']:<6}{p['side']:<6}{b['decisions']:>5} {b['total_loss']:>+7.2f} "
                     f"{_mean(b['mean_loss']):>8}  {c['decisions']:>5} {c['total_loss']:>+7.2f} "
                     f"{_mean(c['mean_loss']):>8}  {_mean(p['mean_loss']) + ' ' + _ci(p['mean_loss_ci95']):<26}"
                     f"{p['flags']['doubtful']:>9}{p['flags']['error']:>6}{p['flags']['blunder']:>8}{p['too_close']:>10}")
    if first.sides == 2:
        lines += ["", "sides (luck: the deals' value with every hand open and perfect play; result: what the play "
                      "gave; both net High, Low, Jack and Game points):"]
        for sd in report.sides():
            luck = "-" if sd["luck"] is None else f"{sd['luck']:+.0f}"
            result = "-" if sd["result"] is None else f"{sd['result']:+.0f}"
            parts = [" ".join(filter(None, (f"{k}s {_mean(sd[k]['mean_loss'])}", _ci(sd[k]["mean_loss_ci95"]),
                                            f"over {sd[k]['decisions']}")))
                     for k in ("card", "bid") if sd[k]["decisions"]]
            lines.append(f"  side {sd['side']} (seats {', '.join(map(str, sd['seats']))}): mean loss per decision: "
                         + ("; ".join(parts) or "none judged") + f"; luck {luck}, result {result} over "
                         f"{sd['luck_deals']} deals")
        notes = sorted({line.note for line in report.lines if line.note})
        lines += [f"  note: {n}" for n in notes]
    if report.matches > 1:
        lines += ["", "per match (mean loss per decision by seat):"]
        for m in report.match_summaries():
            seats = ", ".join(f"seat {p['seat']} {_mean(p['mean_loss'])} ({p['decisions']})" for p in m["players"])
            won = "" if m["winner"] is None else f", won by side {m['winner']}"
            lines.append(f"  match {m['match']} (lines {m['lines'][0]}-{m['lines'][1]}{won}): {seats}")
    return "\n".join(lines)
