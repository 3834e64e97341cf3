"""The coach of ``allfours play``: each of the player's decisions judged as ``allfours analyse`` judges it.

A decision is judged where it was due: the line of the deal so far (a full log) is cut there and read by
``analyse``'s own ``line_decisions``, and the bid or the card goes to ``analyse``'s ``judge_bid`` or
``judge_card`` with ``analyse``'s default settings, the match's seed and the line's number in the log, so the
decision draws its deals or worlds from the same stream as ``allfours analyse LOG --seat S --seed N`` (the
stream is keyed by the line and the event: ``analyse.stream``). The loss, its 95% CI and the flag are the
analysis's; only the match-win chances are left out (no equity table is read), and they flag nothing. A play
with one legal card is no decision, as in ``analyse``. A card's worlds are weighed by the other players' bids and
cards before it as ``analyse --inference`` weighs them (`inference`, default full: the same answer as ``analyse``
with that option).

What the coach says (`comment`): with ``mistakes`` (the default) only what the analysis flags as an error or
a blunder (the lower end of the loss's 95% CI reaches the ``error`` threshold), with ``all`` every decision,
with ``off`` nothing (the decisions are then judged after the match, by ``analyse`` itself: `review`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..analysis.play.analyse import (
    WEIGHED_BY, Decision, Settings, Thresholds, analyse, judge_bid, judge_card, read_log, summary,
)
from ..analysis.play.cardvalues import Buffers
from ..analysis.play.inference import DEFAULT_INFERENCE
from ..analysis.play.logcuts import Bid, line_decisions
from ..game.cards import parse_card
from ..record.gamelog import dumps
from ..game.rules import RuleSet
from .hint import pretty
from ..analysis.bidding.whatif import score_words

COACH_MODES = ("off", "mistakes", "all")
COSTLIEST = 5  # decisions listed after the match
SPOKEN = ("error", "blunder")  # what the coach points out with --coach mistakes
FLAG_WORDS = {"doubtful": "doubtful", "error": "an error", "blunder": "a blunder"}


@dataclasses.dataclass
class Judged:
    """A judged decision of the player's, with the deal it was in (from 1 in the match)."""

    deal: int
    decision: Decision


class Coach:
    def __init__(self, rules: RuleSet, seat: int, seed: int, mode: str = "mistakes",
                 thresholds: Thresholds = Thresholds(), inference: str = DEFAULT_INFERENCE,
                 strategy: str | None = None):
        if mode not in COACH_MODES:
            raise ValueError(f"coach mode {mode!r}: one of {', '.join(COACH_MODES)}")
        self.rules = rules
        self.seat = seat
        self.mode = mode
        self.settings = Settings(seed=seed, thresholds=thresholds, seats=frozenset([seat]), inference=inference,
                                 strategy=strategy)  # the others' bids read by this equilibrium run (None: shipped)
        self.buffers = Buffers()
        self.bids: dict[tuple[int, int], Bid] = {}  # the bids judged, by (line, event): the table's word on them

    @property
    def thresholds(self) -> Thresholds:
        return self.settings.thresholds

    @property
    def inference(self) -> str:
        return self.settings.inference

    def judge(self, line: dict[str, Any], number: int, chosen: str | int) -> Decision | None:
        """The decision due where `line` stops (line `number` of the log), made as `chosen` (a bid word or a
        card): analyse's judgement; None for a card with no choice (one legal card)."""
        facts = line_decisions(line, cut=True)
        due = facts.decisions[-1]
        if isinstance(due, Bid):
            bid = dataclasses.replace(due, chosen=str(chosen))
            self.bids[(number, bid.event)] = bid
            return judge_bid(number, bid, self.rules, self.settings, None)
        if len(due.position.legal_cards()) < 2:
            return None
        play = dataclasses.replace(due, chosen=int(chosen))
        return judge_card(number, play, self.settings, self.buffers, None, facts)

    def review(self, lines: list[tuple[int, dict[str, Any]]]) -> list[Decision]:
        """Every decision of the seat in `lines` (number, line), judged by ``analyse`` itself."""
        parsed = read_log((number, dumps(line)) for number, line in lines)
        return analyse(parsed, self.settings).decisions

    def comment(self, d: Decision | None) -> str | None:
        """What the coach says about decision `d`, by its mode (None: nothing)."""
        if d is None or self.mode == "off":
            return None
        if self.mode == "mistakes" and d.flag not in SPOKEN:
            return None
        said = self.table_words(d)
        return verdict_words(d) + (f" {said}" if said else "")

    def table_words(self, d: Decision) -> str | None:
        """Where the player's bid was the strategy card's (or the shipped table's) and playing this hand out
        settles that the other bid was better: the sentence that says so, and why where it can tell."""
        bid = self.bids.get((d.line, d.event))
        if bid is None or d.kind != "bid" or d.best is None or d.best == d.chosen or not d.loss_ci95 \
                or d.loss_ci95[0] <= 0:
            return None
        from ..analysis.bidding.shipped import disagreement, lookup

        n = self.rules.players
        eldest = bid.seat if bid.role == "eldest" else (bid.seat + 1) % n  # the score the eldest's side first
        by_eldest = tuple(bid.score[self.rules.side_of((eldest + k) % n)] for k in range(self.rules.sides))
        answer = lookup(self.rules, bid.role, bid.hand, bid.turnup, by_eldest)
        return disagreement(answer, d.best, bid.hand, bid.turnup, self.rules,
                            score_words(self.rules, list(bid.score), bid.seat))


def show(d: Decision, option: str | None) -> str:
    """A card or a bid of a decision, as a player reads it."""
    if option is None:
        return "?"
    return pretty(parse_card(option)) if d.kind == "card" else option


def loss_words(d: Decision) -> str:
    assert d.loss is not None and d.loss_ci95 is not None
    lo, hi = d.loss_ci95
    over = f"{d.samples:,} deals of the unseen cards" if d.kind == "card" else f"{d.samples:,} deals played both ways"
    if d.kind == "card" and d.inference in WEIGHED_BY:
        over += f" weighed by how likely the others' {WEIGHED_BY[d.inference]} make them"
    return f"{d.loss:.2f} points (95% CI {lo:.2f} to {hi:.2f}, {over})"


def verdict_words(d: Decision) -> str:
    """The analysis's judgement of one decision in a sentence: what was better and by how much."""
    what = "card" if d.kind == "card" else "bid"
    chosen, best = show(d, d.chosen), show(d, d.best)
    if not d.analysed:
        return f"{chosen}: not judged ({(d.note or '').removeprefix('not analysed: ')})."
    if d.best == d.chosen or not d.loss or d.loss <= 0:
        return f"{chosen} was the best {what}."
    if d.flag is not None:
        return f"{best} was better; {chosen} gave up {loss_words(d)}: {FLAG_WORDS[d.flag]}."
    if d.close:
        return f"too close to call: {best} may be better than {chosen} by {loss_words(d)}."
    return f"{chosen} is fine: {best} was better by only {d.loss:.2f} points."


def review_text(decisions: list[Decision], judged: list[Judged], thresholds: Thresholds) -> list[str]:
    """After the match: the player's decisions added up as ``analyse`` sums a seat's, and the costliest."""
    s = summary(decisions, thresholds)
    bids = sum(d.kind == "bid" and d.analysed for d in decisions)
    flags = ", ".join(f"{s['flags'][f]} {f}{'s' * (s['flags'][f] != 1 and f != 'doubtful')}"
                      for f in ("blunder", "error", "doubtful"))
    out = [f"Your decisions, judged as `allfours analyse` judges them: {s['decisions']} ({bids} bids, "
           f"{s['decisions'] - bids} cards), {s['total_loss']:.2f} points lost in all; {flags}"
           + (f"; {s['not_analysed']} not judged (too many cards in the hands)" if s["not_analysed"] else "") + "."]
    costly = sorted((j for j in judged if j.decision.loss and j.decision.loss > 0),
                    key=lambda j: -(j.decision.loss or 0))[:COSTLIEST]
    if costly:
        out.append("Your costliest decisions:")
    for k, j in enumerate(costly, start=1):
        d = j.decision
        lo, hi = d.loss_ci95 or (0.0, 0.0)
        where = f"trick {d.trick}" if d.kind == "card" else f"the {d.where}'s bid"
        verb = "played" if d.kind == "card" else "chose"
        out.append(f"  {k}. deal {j.deal}, {where}: you {verb} {show(d, d.chosen)}; {show(d, d.best)} was better by "
                   f"{d.loss:.2f} (95% CI {lo:.2f} to {hi:.2f})" + (f": {d.verdict}" if d.verdict else ""))
    return out


__all__ = ["COACH_MODES", "Coach", "Judged", "review_text", "verdict_words"]
