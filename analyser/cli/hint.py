"""``allfours hint``: the decision due now for one seat, from what that seat knows."""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from .options import (
    InferenceStrategyOpt, JsonOpt, PlayersOpt, PolicyOpt, Preset, RulesOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt, announce_engine,
    build_rules, fail, load_equity, log_lines, progress_bar, writing,
)

HINT_WORLDS = 300      # analyser.table.hint.HINT_WORLDS (not imported: the CLI loads numba only when it runs)
HINT_MAX_CARDS = 52    # analyser.table.hint.HINT_MAX_CARDS


class Inference(str, enum.Enum):
    none = "none"
    bids = "bids"
    full = "full"


def hint(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    dealer: Annotated[Optional[int], typer.Option("--dealer", min=0, max=3, help="The dealer's seat (0-3).")] = None,
    seat: Annotated[Optional[int], typer.Option(
        "--seat", min=0, max=3, help="Your seat: whose cards --hand holds; with --log, whose view to take (default: "
                                     "the seat to act, or the view's seat).")] = None,
    hand: Annotated[Optional[str], typer.Option(
        "--hand", help='Every card you were dealt, e.g. "AH KH 9S 4D 2C JC" (after a run, the run\'s cards too).')] = None,
    turnup: Annotated[Optional[list[str]], typer.Option(
        "--turnup", help="The turned-up card, e.g. 7H; repeat it for runs: the first, then each one after a run.")] = None,
    bids: Annotated[Optional[str], typer.Option(
        "--bids", help="What was bid so far: stand, beg, beg,give or beg,run (none: the eldest is to bid).")] = None,
    played: Annotated[Optional[str], typer.Option(
        "--played", help='Every card played so far, in order from the first lead, e.g. "9S 2S 5D 3S 4D".')] = None,
    discard: Annotated[Optional[str], typer.Option(
        "--discard", help="Your discards after a run (rules that discard down to six).")] = None,
    score: ScoreOpt = None,
    log: Annotated[Optional[Path], typer.Option(
        "--log", help="Read the deal from this allfours-log/1 file instead: a full log (with --seat) or a seat's "
                      "view (?? for unseen cards), stopping where the decision is due.")] = None,
    line: Annotated[Optional[int], typer.Option("--line", min=1, help="Which line of --log (default: the last).")] = None,
    worlds: Annotated[int, typer.Option(
        "--worlds", min=2, max=100_000, help="A card decision: deals of the unseen cards sampled when more than "
                                             "10,000 fit what you have seen (otherwise every one is used).")] = HINT_WORLDS,
    inference: Annotated[Inference, typer.Option(
        "--inference", help="How the unseen hands are weighed: full (by how likely the others' bids and cards make "
                            "each deal), bids (by the bids only) or none (every deal that fits alike).")
    ] = Inference.full,
    strategy: InferenceStrategyOpt = None,
    max_cards: Annotated[int, typer.Option("--max-cards", min=2, max=52, help="Refuse a card decision with more cards "
                                                                           "than this left in the hands (above 24 the "
                                                                           "bounded search answers).")] = HINT_MAX_CARDS,
    policy: PolicyOpt = "heuristic",
    equity_dir: Annotated[Path | None, typer.Option(
        "--equity-dir", help="Where match-equity tables are cached (default: equity/ in the user's cache).")] = None,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Append the deal as entered (a seat's view, allfours-log/1) to this file.")] = None,
    explain: Annotated[bool, typer.Option("--explain", help="Say how the answer was computed.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Which card now (or which bid), from what your seat knows: your hand, the turn-up, the bids and the cards
    played. Every legal option with its expected net points and 95% CI, and what each loses against the best."""
    from ..table.entry import check_appendable, entry_line

    if log is not None:
        typed = {"--hand": hand, "--turnup": turnup, "--bids": bids, "--played": played, "--discard": discard,
                 "--score": score, "--dealer": dealer, "--out": out}
        given = [name for name, value in typed.items() if value is not None]
        if given:
            fail(f"a --log line says the deal: leave out {', '.join(given)} (or leave out --log)")
        obj = read_log_line(log, line)
    else:
        if hand is None or not turnup or dealer is None or seat is None:
            missing = [o for o, v in (("--dealer", dealer), ("--seat", seat), ("--hand", hand), ("--turnup", turnup))
                       if v is None or v == []]
            fail(f"give {', '.join(missing)} (or a game log with --log)")
        ruleset = build_rules(rules, players, set_)
        if out is not None:
            check_appendable(out)
        obj, _ = entry_line(ruleset, dealer, seat, hand, turnup, bids, played, score, discard)
    answer(obj, seat, worlds, inference.value, max_cards, policy, equity_dir, seed, threads, explain, json_out,
           strategy)
    if out is not None:
        from ..table.entry import append_line

        with writing(out):
            append_line(out, obj)
        if not json_out:
            typer.echo(f"the deal so far is appended to {out}")


def read_log_line(log: Path, line: int | None) -> dict[str, Any]:
    """Line `line` of `log` (default: its last line that is not blank), parsed; a bad file or line: exit 2."""
    found: list[tuple[int, str]] = []
    for number, content in log_lines(log, "--log"):
        if line is None or number == line:
            found = [(number, content)]
            if line is not None:
                break
    if not found:
        fail(f"{log}: no line {line} (or it is blank)" if line is not None else f"{log} holds no deal")
    number, text = found[0]
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        fail(f"{log}: line {number} is not valid JSON: {err.msg} at column {err.colno}")
    if not isinstance(obj, dict):
        fail(f"{log}: line {number} is not a log line (a JSON object)")
    return obj


def answer(obj: dict[str, Any], seat: int | None, worlds: int, inference: str, max_cards: int, policy: str,
           equity_dir: Path | None, seed: int, threads: int | None, explain: bool, json_out: bool,
           strategy: Path | None = None) -> None:
    """Print the hint for the decision due where `obj` stops, seen by `seat` (the others' bids read by the
    equilibrium run `strategy`, default the shipped one)."""
    from ..table.hint import card_hint, card_text, decision_model, decision_of, where_text

    decision = decision_of(obj, seat)
    announce_engine()
    if decision.kind == "bid":
        bid(decision, policy, equity_dir, seed, threads, explain, json_out)
        return
    rules = decision.rules
    table = load_equity(rules, policy, equity_dir, threads)[0] if rules.sides == 2 else None
    model = None if inference == "none" else decision_model(decision, strategy)
    result = card_hint(decision, worlds, seed, table, max_cards, inference=inference, model=model)
    if json_out:
        typer.echo(json.dumps(result.to_json()))
    else:
        typer.echo(card_text(result, explain, where_text(decision)))


def bid(decision: Any, policy: str, equity_dir: Path | None, seed: int, threads: int | None, explain: bool,
        json_out: bool) -> None:
    """The bid due (stand/beg or give/run): the paired rollouts of ``whatif --hand``, at the deal's score."""
    from ..analysis.bidding.whatif import MAX_DEALS
    from ..table.hint import bid_hint, bid_table, bid_text

    rules = decision.rules
    table = load_equity(rules, policy, equity_dir, threads)[0] if rules.sides == 2 else None
    with progress_bar("deals", MAX_DEALS) as bar:
        res = bid_hint(decision, policy, seed, table, threads=threads, progress=bar.advance)
    if json_out:
        typer.echo(json.dumps({**res.to_json(), "kind": "bid", "seat": decision.seat, "role": res.situation.seat,
                               "exact": False, "inference": "none", "table": bid_table(res, decision)[0]}))
    else:
        typer.echo(bid_text(res, decision, explain))
