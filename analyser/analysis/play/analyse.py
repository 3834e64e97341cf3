"""Analyse a recorded game: every decision's value, the best choice, the loss, and the luck of the deal.

For every decision of every line of a log (``logcuts.py`` finds them, refereeing the
line as ``replay`` does), from the decider's point of view, with only what it could see:

* **card decisions**: each legal card valued over ``worlds`` worlds consistent with what
  the seat has seen, each world solved with every hand open (``cardvalues.py``). The
  best card has the highest mean; the **loss** of the card played is the best card's
  value minus its value, world by world on the same worlds, so its 95% CI is the paired
  one. The solver's work grows about 2.5-fold per card, so a world with more than 24
  cards in the hands (a trinidad deal after runs) is solved whole only within a node
  budget, and otherwise valued by the **bounded search** (``engine/bounded.py``: the
  heuristic's play down to 24 cards, the solver after); such a decision says so
  (``method``: ``exact`` or ``bounded``, and a note). Positions with more than
  ``max_cards`` cards left (default 52: none) are not analysed, and the output says
  so. A play with one legal card is no decision (counted as forced). With ``inference`` ``full`` (the
  default) or ``bids``, each world is weighed by how likely the other players' bids (and cards) make it
  (``inference.py``: the evidence of the decision is what was bid and played before it, ``evidence_of_line``);
  the means, the loss and its CI are then the weighted ones (self-normalised importance sampling), and
  ``ess`` says on how many worlds the answer effectively rests. ``none``: every world alike.
* **bids** (stand/beg, give/run): the what-if's paired rollouts (``whatif.py``) from that
  exact position: the decider's hand, the turn-up, the score, its role, ``bid_deals``
  deals with both options on each deal, every other decision by ``policy``. The loss
  is the best option's net points minus the chosen one's.

Losses are in net points of the deal for the decider's side (its points minus the
others'). Card values count High, Low, Jack (hang jack) and Game under perfect play;
bid values count everything from the decision to the end of the deal (gift, kicks of
runs), under the rollout policy's play. A decision is flagged ``doubtful``, ``error`` or
``blunder`` (thresholds as options) only when the *lower end* of its loss's 95% CI reaches
the threshold: the evidence must show the loss, not just the mean. A loss whose mean
reaches the ``doubtful`` threshold but whose interval reaches below it is **too close to
call** (shown with its loss, not flagged).

**The luck of the deal**: the perfect-information value of the position (every hand
open, perfect play by everyone) at the first lead (at the first trick with at most
``max_cards`` cards left, if that is lower), for each side: exact when the solver
finishes within ``LUCK_NODES`` nodes, else the bounded search's estimate (``luck_method``
says which); beside it the **result**, what the deal's play
really gave (High, Low, Jack, Game, net). Result minus luck is what the play of both
sides made of the cards dealt.

**A seat's view** (``??`` for the cards it did not see, as ``record`` writes it; ``seatview.py``): when every
hidden card of the deal was played the deal is rebuilt from the plays and analysed as its full log (the same
analysis of that seat with the same seed); otherwise the view's own seat's decisions are judged over the
worlds consistent with what it saw, and the other seats' decisions and the luck are not (``view_words`` says
which and why). Without --seat or --side, a view's own seat is judged. **A deal in progress** (a line with
``"unfinished": true``, left by ``play`` or ``record``) has its decisions so far judged.

Every decision draws its worlds or deals from its own stream,
``SeedSequence(seed, spawn_key=(line, event))``: the same seed gives the same answer
whatever is analysed with it (one seat, one side, the whole file). ``whatif --log`` draws
from the same stream (``bid_seed``, ``stream``), so at the same decision it plays the
same deals or worlds: a bid's what-if starts with analyse's ``bid_deals`` deals and may go
on (its stopping rule); both report the loss ``chosen_loss`` computes.
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Callable, Iterable
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import numpy as np

from ...game.cards import card_name
from ...engine.bits import rng_state
from ...engine.layout import N_STATE, PS_LED, PS_TRICK_NO
from ...engine.solver import SolverWork, solve_value
from ...referee import LogError
from ...game.rules import RuleSet
from .. import AnalysisError
from .cardvalues import BOUNDED, EXACT, Budget, Buffers, CardValues, card_values, cards_left
from .inference import (
    DEFAULT_INFERENCE, INFERENCES, Model, evidence_of_line, log_weights, model_for, normalised, weight_note,
)
from ..defaults import ANALYSE_BID_DEALS, ANALYSE_MAX_CARDS, ANALYSE_WORLDS
from ..bidding.equity import EquityTable
from .logcuts import Bid, LineDecisions, Play, line_decisions
from ...referee.views import seats_text
from .seatview import LineView, view_decisions, view_seat
from ..stats import Estimate, Z95, estimate
from ..bidding.whatif import BATCH, OPTIONS, Situation, WhatIfResult, decider_score, run_batch

FLAGS = ("doubtful", "error", "blunder")
CLOSE = "too close to call"   # a loss reaching `doubtful` on average, but not at the lower end of its 95% CI
KINDS = ("bid", "card")
LUCK_NODES = 10_000_000  # the luck's one open solve at the first lead: exact within this many nodes, else bounded
POINT_WHY = ("high", "low", "jack", "hang-jack", "game")
WEIGHED_BY = {"bids": "bids", "full": "bids and cards"}  # what a weighed world was weighed by, in words
DEAL_WHY = ("kick", "gift", "jack-bonus")


@dataclasses.dataclass(frozen=True)
class Thresholds:
    """Losses (net points) from which a decision is flagged."""

    doubtful: float = 0.1
    error: float = 0.3
    blunder: float = 1.0

    def __post_init__(self) -> None:
        if not 0 < self.doubtful <= self.error <= self.blunder:
            raise AnalysisError(f"flag thresholds must rise: 0 < doubtful ({self.doubtful:g}) <= error "
                                f"({self.error:g}) <= blunder ({self.blunder:g})")

    def flag(self, loss: float | None, ci95: tuple[float, float] | None = None) -> str | None:
        """The highest flag whose threshold the lower end of the loss's 95% CI reaches (the loss itself
        when no interval is given); None below `doubtful`."""
        if loss is None:
            return None
        low = loss if ci95 is None else min(loss, ci95[0])
        for name in reversed(FLAGS):
            if low >= getattr(self, name) - 1e-9:
                return name
        return None

    def close(self, loss: float | None, ci95: tuple[float, float] | None) -> bool:
        """Too close to call: the mean loss reaches `doubtful`, the lower end of its 95% CI does not."""
        return loss is not None and loss >= self.doubtful - 1e-9 and self.flag(loss, ci95) is None

    def verdict(self, loss: float | None, ci95: tuple[float, float] | None) -> str | None:
        """The flag, "too close to call", or None (no loss worth a word, or not analysed)."""
        return self.flag(loss, ci95) or (CLOSE if self.close(loss, ci95) else None)

    def rule(self) -> str:
        """The flagging rule in words."""
        return (f"flagged doubtful, error or blunder when the lower end of the loss's 95% CI reaches "
                f"{self.doubtful:g}, {self.error:g} or {self.blunder:g} net points; a mean loss of {self.doubtful:g} "
                f"or more whose interval reaches below {self.doubtful:g} is {CLOSE}")


@dataclasses.dataclass(frozen=True)
class Settings:
    worlds: int = ANALYSE_WORLDS
    bid_deals: int = ANALYSE_BID_DEALS
    policy: str = "heuristic"
    max_cards: int = ANALYSE_MAX_CARDS
    seed: int = 1
    budget: Budget = Budget()  # worlds above its horizon: exact within its nodes, else the bounded search
    luck_nodes: int = LUCK_NODES  # the luck's open solve above the horizon: exact within this many nodes
    thresholds: Thresholds = Thresholds()
    threads: int | None = None
    seats: frozenset[int] | None = None   # only these seats' decisions (None: all)
    sides: frozenset[int] | None = None   # only these sides' decisions
    inference: str = DEFAULT_INFERENCE    # card decisions' worlds weighed by the others' choices: none, bids, full
    strategy: str | None = None           # the equilibrium run the others' bids are read by (None: the shipped one)

    def __post_init__(self) -> None:
        if self.inference not in INFERENCES:
            raise AnalysisError(f"inference must be one of {', '.join(INFERENCES)}, not {self.inference!r}")

    def wanted(self, rules: RuleSet, seat: int) -> bool:
        if self.seats is not None and seat not in self.seats:
            return False
        return self.sides is None or rules.side_of(seat) in self.sides

    def to_json(self) -> dict[str, Any]:
        return {"worlds": self.worlds, "bid_deals": self.bid_deals, "policy": self.policy,
                "max_cards": self.max_cards, "seed": self.seed,
                "horizon": self.budget.horizon, "nodes": self.budget.nodes, "luck_nodes": self.luck_nodes,
                "thresholds": dataclasses.asdict(self.thresholds),
                "flag_rule": "the lower end of the loss's 95% CI reaches the threshold",
                "seats": sorted(self.seats) if self.seats is not None else None,
                "sides": sorted(self.sides) if self.sides is not None else None,
                "inference": self.inference, **({"strategy": self.strategy} if self.strategy else {})}


def weighing_words(inference: str) -> str:
    """How the worlds of a card decision count, in a phrase: alike, or weighed by the others' choices."""
    if inference == "none":
        return "every world alike (the others' bids and cards not read)"
    return f"each world weighed by how likely the others' {WEIGHED_BY[inference]} make it"


@dataclasses.dataclass
class Decision:
    """One decision, judged. `loss` None: not analysed (`note` says why)."""

    line: int
    event: int
    seat: int
    side: int
    kind: str                 # "bid" or "card"
    chosen: str
    best: str | None
    loss: float | None
    loss_ci95: tuple[float, float] | None
    flag: str | None
    where: str                # "eldest" / "dealer" for a bid; the position in words for a card
    options: dict[str, dict[str, Any]]
    samples: int              # worlds (cards) or deals (bids) it was judged on
    win_loss: float | None = None   # match-win probability lost, where known
    note: str | None = None
    trick: int | None = None  # card decisions: 1-based trick number
    close: bool = False       # too close to call: the mean loss reaches `doubtful`, its CI's lower end does not
    method: str | None = None  # card decisions: EXACT (every world solved) or BOUNDED (cardvalues.py)
    ess: float | None = None   # card decisions: the effective number of worlds (all of them when not weighed)
    model: str | None = None   # card decisions weighed by the others' choices: the strategy their bids are read by
    inference: str | None = None  # card decisions: how the worlds were weighed (none, bids, full)

    @property
    def analysed(self) -> bool:
        return self.loss is not None

    @property
    def verdict(self) -> str | None:
        """The flag, "too close to call", or None."""
        return self.flag or (CLOSE if self.close else None)

    @property
    def few_worlds(self) -> bool:
        """A card decision whose weighed worlds rest on few of them (``inference.weight_note``)."""
        return self.model is not None and self.ess is not None and weight_note(self.ess, self.samples) is not None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "event": self.event, "seat": self.seat, "side": self.side, "kind": self.kind,
                "chosen": self.chosen, "best": self.best, "loss": self.loss,
                "loss_ci95": list(self.loss_ci95) if self.loss_ci95 else None, "flag": self.flag,
                "too_close": self.close,
                "analysed": self.analysed, "where": self.where, "trick": self.trick, "samples": self.samples,
                "win_loss": self.win_loss, "options": self.options, "note": self.note, "method": self.method,
                "inference": self.inference, "ess": self.ess, "model": self.model}


@dataclasses.dataclass
class LineReport:
    line: int
    match: int
    obj: dict[str, Any]
    facts: LineDecisions
    decisions: list[Decision]
    forced: int                         # plays with one legal card
    luck: list[float] | None            # per side: perfect-information value (two sides)
    luck_trick: int | None              # the trick it was taken at (1: the first lead)
    result: list[float] | None          # per side: what the play gave, net
    deal_points: list[int]              # per side: kicks, gift, jack bonus
    note: str | None = None
    luck_method: str | None = None      # EXACT (the solver finished within LUCK_NODES) or BOUNDED
    view: LineView | None = None        # a seat's view (None: a full log)
    unfinished: bool = False            # a deal in progress: its decisions so far
    unjudged: str | None = None         # which asked-for decisions the view cannot judge, and why
    asked: frozenset[int] = frozenset()  # the seats whose decisions were asked for (--seat, --side, the view's)

    @property
    def rules(self) -> RuleSet:
        return self.facts.rules

    def to_json(self) -> dict[str, Any]:
        v = self.facts.verdict
        return {"line": self.line, "match": self.match, "dealer": self.facts.dealer,
                "score_before": self.facts.score_before, "score_after": v.score_after if v else None,
                "winner": v.winner if v else None, "decisions": len(self.decisions), "forced": self.forced,
                "luck": self.luck, "luck_trick": self.luck_trick, "luck_method": self.luck_method,
                "result": self.result,
                "deal_points": self.deal_points, "note": self.note, "unfinished": self.unfinished,
                "view": None if self.view is None else {**self.view.to_json(), "not_judged": self.unjudged}}


@dataclasses.dataclass
class Report:
    file: str
    settings: Settings
    lines: list[LineReport]
    win_prob: bool                      # match-win probabilities were computed (two sides, a table)

    @property
    def decisions(self) -> list[Decision]:
        return [d for line in self.lines for d in line.decisions]

    @property
    def matches(self) -> int:
        return len({line.match for line in self.lines})

    def seats(self) -> list[tuple[int, int]]:
        """(seat, side) of every seat that plays in the file."""
        out = set()
        for line in self.lines:
            for s in range(line.rules.players):
                out.add((s, line.rules.side_of(s)))
        return sorted(out)

    def players(self, match: int | None = None) -> list[dict[str, Any]]:
        decisions = [d for line in self.lines if match is None or line.match == match for d in line.decisions]
        out = []
        for seat, side in self.seats():
            if not any(seat in line.asked for line in self.lines):
                continue
            mine = [d for d in decisions if d.seat == seat]
            out.append({"seat": seat, "side": side, **summary(mine, self.settings.thresholds),
                        "bid": summary([d for d in mine if d.kind == "bid"], self.settings.thresholds),
                        "card": summary([d for d in mine if d.kind == "card"], self.settings.thresholds)})
        return out

    def sides(self, match: int | None = None) -> list[dict[str, Any]]:
        lines = [line for line in self.lines if match is None or line.match == match]
        decisions = [d for line in lines for d in line.decisions]
        out = []
        for side in sorted({side for _, side in self.seats()}):
            mine = [d for d in decisions if d.side == side]
            luck = [line.luck[side] for line in lines if line.luck is not None]
            result = [line.result[side] for line in lines if line.result is not None and line.luck is not None]
            out.append({"side": side, "seats": [s for s, sd in self.seats() if sd == side],
                        **summary(mine, self.settings.thresholds),
                        "bid": summary([d for d in mine if d.kind == "bid"], self.settings.thresholds),
                        "card": summary([d for d in mine if d.kind == "card"], self.settings.thresholds),
                        "luck": float(sum(luck)) if luck else None, "result": float(sum(result)) if result else None,
                        "luck_deals": len(luck)})
        return out

    def match_summaries(self) -> list[dict[str, Any]]:
        out = []
        for m in sorted({line.match for line in self.lines}):
            lines = [line for line in self.lines if line.match == m]
            last = lines[-1].facts.verdict
            out.append({"match": m, "lines": [lines[0].line, lines[-1].line], "deals": len(lines),
                        "winner": last.winner if last else None, "players": self.players(m), "sides": self.sides(m)})
        return out

    def to_json(self) -> dict[str, Any]:
        decisions = self.decisions
        return {"file": self.file, "lines": len(self.lines), "settings": self.settings.to_json(),
                "win_prob": self.win_prob, "decisions": [d.to_json() for d in decisions],
                "not_analysed": sum(not d.analysed for d in decisions),
                "forced": sum(line.forced for line in self.lines),
                "players": self.players(), "sides": self.sides(), "matches": self.match_summaries(),
                "deals": [line.to_json() for line in self.lines]}


def view_words(line: LineReport) -> list[str]:
    """What a seat's view (or a deal in progress) lets the analysis judge, in words, each text to follow
    "line N" (the text output and the page say the same)."""
    out = []
    view = line.view
    if view is not None:
        asked = sorted(line.asked)
        judged = asked if view.whole else [s for s in asked if s == view.seat]
        said = f": seat {view.seat}'s view" + (
            "; every card of the other hands was played, so the deal is known whole" if view.whole else "")
        said += ("; judging " + seats_text(judged) if judged else "; no seat asked for can be judged") + (
            " (--seat for the others)" if view.whole and asked == [view.seat] else "")
        if line.unjudged:
            said += f"; {line.unjudged}"
        out.append(said)
    if line.unfinished:
        out.append(": a deal in progress; its decisions so far are judged")
    return out


def summary(decisions: Iterable[Decision], thresholds: Thresholds) -> dict[str, Any]:
    """decisions, total_loss, mean_loss (with its 95% CI over the decisions), counts per flag, not analysed."""
    items = list(decisions)
    losses = np.array([d.loss for d in items if d.loss is not None], dtype=np.float64)
    n = int(losses.shape[0])
    out: dict[str, Any] = {"decisions": n, "total_loss": float(losses.sum()) if n else 0.0,
                           "mean_loss": float(losses.mean()) if n else None, "mean_loss_ci95": None}
    if n > 1:  # one decision has no interval
        est = estimate(losses)
        out["mean_loss_ci95"] = [est.ci95[0], est.ci95[1]]
    out["flags"] = {name: sum(d.flag == name for d in items) for name in FLAGS}
    out["too_close"] = sum(d.close for d in items)
    out["not_analysed"] = sum(not d.analysed for d in items)
    return out


# --- reading the file ---------------------------------------------------------------------------


@dataclasses.dataclass
class ParsedLine:
    number: int
    obj: dict[str, Any]
    facts: LineDecisions
    view: LineView | None = None   # a seat's view: what it lets the analysis judge (None: a full log)
    unfinished: bool = False       # a deal in progress (``"unfinished": true``): its decisions so far

    def wanted(self, settings: Settings, seat: int) -> bool:
        """A decision of `seat` is asked for: by --seat/--side, else every seat of a full log and the view's
        own seat of a view."""
        if settings.seats is None and settings.sides is None and self.view is not None:
            return seat == self.view.seat
        return settings.wanted(self.facts.rules, seat)

    def judged(self, settings: Settings, d: Bid | Play) -> bool:
        """Decision `d` is asked for, was made (not the one due where a deal in progress stops) and can be
        judged from what the line shows."""
        if not self.wanted(settings, d.seat) or d.chosen is None:
            return False
        return self.view is None or self.view.judged(d)


def read_log(lines: Iterable[tuple[int, str]]) -> list[ParsedLine]:
    """Every line refereed and its decisions found; a bad line raises LineError (line and event named)."""
    import json

    out = []
    for number, text in lines:
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as err:
            what = err.msg.removesuffix(" at").rstrip(":")
            raise LineError(number, -1, f"not valid JSON: {what[:1].lower() + what[1:]} at column {err.colno}") \
                from None
        unfinished = isinstance(obj, dict) and obj.get("unfinished") is True
        looks_view = True  # a first deal that tries to be a view, and fails, is a bad view
        try:
            seat = view_seat(obj)
            looks_view = seat is not None
            if seat is None:
                facts, view = line_decisions(obj, partial=unfinished), None
            else:
                facts, view = view_decisions(obj, partial=unfinished)
        except LogError as err:
            raise LineError(number, err.event, err.reason, view=looks_view) from None
        out.append(ParsedLine(number, obj, facts, view, unfinished))
    if not out:
        raise AnalysisError("no log lines")
    return out


class LineError(AnalysisError):
    """A log line refused by the referee: its number, the event (-1: the line itself) and why."""

    def __init__(self, line: int, event: int, reason: str, view: bool = False):
        where = f"line {line}" + (f", event {event}" if event >= 0 else "")
        super().__init__(f"{where}: {reason}")
        self.line, self.event, self.reason = line, event, reason
        self.view = view  # the line is a seat's view (or a first deal that tries to be one)


def match_numbers(parsed: list[ParsedLine]) -> list[int]:
    """The match of each line: a new one after a line with a winner, or where the score or rules do not
    carry on from the line before."""
    out: list[int] = []
    previous: ParsedLine | None = None
    match = 0
    for p in parsed:
        if previous is not None:
            v = previous.facts.verdict
            carried = v is not None and v.winner is None and list(p.facts.score_before) == list(v.score_after) \
                and p.facts.rules == previous.facts.rules
            if not carried:
                match += 1
        out.append(match + 1)
        previous = p
    return out


# --- judging decisions --------------------------------------------------------------------------


def stream(seed: int, line: int, event: int) -> np.random.SeedSequence:
    """The random stream of the decision at event `event` of line `line` (analyse and whatif --log)."""
    return np.random.SeedSequence(seed, spawn_key=(line, event))


def bid_seed(seed: int, line: int, event: int) -> int:
    """The what-if seed of the bid at event `event` of line `line`: its batches are the decision's own
    (analyse and whatif --log play the same deals)."""
    return int(stream(seed, line, event).generate_state(1)[0])


def judge_card(line: int, play: Play, settings: Settings, buffers: Buffers,
               equity: EquityTable | None, facts: LineDecisions | None = None) -> Decision:
    """The card decision `play` judged over `settings.worlds` worlds from its own stream, weighed by the others'
    choices before it (`settings.inference`; `facts`: the refereed line the play is in, needed unless none)."""
    position = play.position
    rules = position.rules
    seat = position.seat
    assert play.chosen is not None
    chosen = card_name(play.chosen)
    trick = int(position.state[PS_TRICK_NO]) + 1
    base: dict[str, Any] = dict(line=line, event=play.event, seat=seat, side=rules.side_of(seat), kind="card", chosen=chosen,
                where=position.describe(), trick=trick)
    left = cards_left(position)
    if left > settings.max_cards:
        return Decision(**base, best=None, loss=None, loss_ci95=None, flag=None, options={}, samples=0,
                        note=f"not analysed: {left} cards left in the hands, more than --max-cards "
                             f"{settings.max_cards}")
    rng = rng_state(stream(settings.seed, line, play.event))
    values = card_values(position, settings.worlds, rng, equity, buffers, settings.budget)
    values, model = weigh(values, facts, play, settings.inference, settings.strategy)
    return card_decision({**base, "inference": settings.inference}, values, play.chosen, settings.thresholds, model)


_MODELS: dict[tuple[RuleSet, tuple[int, int] | None, str | None], Model] = {}
_MODELS_LOCK = threading.Lock()


def model_of(rules: RuleSet, score: tuple[int, int] | None, strategy: str | None = None) -> Model:
    """``inference.model_for`` (the shipped strategy at the deal's score, or the equilibrium run `strategy`), read
    once per rules, score and strategy."""
    key = (rules, score, strategy)
    with _MODELS_LOCK:
        if key not in _MODELS:
            _MODELS[key] = model_for(rules, strategy=strategy, score=score)
        return _MODELS[key]


def weigh(values: CardValues, facts: LineDecisions | None, play: Play, inference: str, strategy: str | None = None
          ) -> tuple[CardValues, Model | None]:
    """The values of a card decision with each world weighed by how likely the others' choices before it make
    it (`inference` bids or full; unchanged for none), and the model that weighed them (the others' bids read by
    the equilibrium run `strategy`, default the shipped one)."""
    if inference == "none":
        return values, None
    if facts is None or values.hands is None:
        raise ValueError("weighing a card decision's worlds needs its line's decisions")
    k = next(i for i, p in enumerate(facts.plays) if p.event == play.event)
    evidence, score = evidence_of_line(facts, k)
    model = model_of(facts.rules, score, strategy)
    logw = log_weights(facts.rules, play.position.state, play.seat, values.hands, model, inference, evidence)
    return values.weighted(normalised(logw)), model


def card_decision(base: dict[str, Any], values: CardValues, chosen: int, thresholds: Thresholds,
                  model: Model | None = None) -> Decision:
    loss = values.loss(chosen)
    wl = values.win_loss(chosen)
    ci = _ci(loss)
    notes = [values.method_note()] if values.method == BOUNDED else []
    if values.weights is not None:
        few = weight_note(values.ess, values.values.shape[0])
        notes += [few] if few else []
    return Decision(**base, best=card_name(values.best), loss=loss.mean, loss_ci95=ci,
                    flag=thresholds.flag(loss.mean, ci), options=values.to_json(), samples=values.values.shape[0],
                    win_loss=None if wl is None else wl.mean, close=thresholds.close(loss.mean, ci),
                    note="; ".join(notes) or None, method=values.method, ess=values.ess,
                    model=None if model is None else model.strategy)


def _ci(est: Estimate) -> tuple[float, float]:
    if not math.isfinite(est.se):
        return (est.mean, est.mean)
    return (est.mean - Z95 * est.se, est.mean + Z95 * est.se)


def situation(rules: RuleSet, bid: Bid) -> Situation:
    """The what-if's view of a bid: the decider's hand, the turn-up, its role and the score (its side first)."""
    score = decider_score(tuple(bid.score), rules, bid.role)
    return Situation(rules, bid.role, tuple(bid.hand), bid.turnup, tuple(int(x) for x in score))


def bid_result(sit: Situation, policy: str, equity: EquityTable | None, deals: int, seed: int,
               threads: int | None = None) -> WhatIfResult:
    """The what-if's paired rollouts of both options, `deals` deals in batches on `threads` threads
    (the batches of ``whatif.what_if`` with that seed, without its stopping rule)."""
    rules = sit.rules
    table = (np.ascontiguousarray(equity.p, dtype=np.float64) if equity is not None
             else np.zeros((rules.target, rules.target), dtype=np.float64))
    sizes = [min(BATCH, deals - b) for b in range(0, deals, BATCH)]
    workers = max(1, min(threads or os.cpu_count() or 1, len(sizes)))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(run_batch, sit, policy, table, False, seed, k, size) for k, size in enumerate(sizes)]
        parts = [f.result() for f in futures]
    net = np.concatenate([p[0] for p in parts])
    win = np.concatenate([p[1] for p in parts])
    tries = sum(p[2] for p in parts)
    names = tuple(o[0] for o in OPTIONS[sit.seat])
    beg_rate = net.shape[0] / tries if sit.seat == "dealer" else None
    return WhatIfResult(sit, policy, "points", "table", names, net, win, "max-deals", 0.0, beg_rate)


def judge_bid(line: int, bid: Bid, rules: RuleSet, settings: Settings, equity: EquityTable | None) -> Decision:
    assert bid.chosen is not None
    base: dict[str, Any] = dict(line=line, event=bid.event, seat=bid.seat, side=rules.side_of(bid.seat), kind="bid",
                chosen=bid.chosen, where=bid.role)
    seed = bid_seed(settings.seed, line, bid.event)
    try:
        res = bid_result(situation(rules, bid), settings.policy, equity, settings.bid_deals, seed, settings.threads)
    except AnalysisError as err:  # the rollout policy (almost) never begs with such hands
        return Decision(**base, best=None, loss=None, loss_ci95=None, flag=None, options={}, samples=0,
                        note=f"not analysed: {err}")
    return bid_decision(base, res, bid.chosen, settings.thresholds, equity is not None)


def bid_decision(base: dict[str, Any], res: WhatIfResult, chosen: str, thresholds: Thresholds,
                 win: bool) -> Decision:
    options = {}
    for k, name in enumerate(res.names):
        ev = res.ev(k)
        item: dict[str, Any] = {"ev": ev.mean, "ev_ci95": list(ev.ci95), "ev_se": ev.se}
        if win:
            wp = res.win_prob(k)
            item.update(win_prob=wp.mean, win_prob_ci95=list(wp.clipped_ci95(0.0, 1.0)), win_prob_se=wp.se)
        options[name] = item
    b, loss, lost_chance = chosen_loss(res, chosen)
    win_loss = lost_chance if win else None
    note = None
    if res.beg_rate is not None:
        note = f"the rollout policy begs with {100 * res.beg_rate:.1f}% of the eldest's hands the dealer cannot rule out"
    ci = _ci(loss)
    return Decision(**base, best=res.names[b], loss=loss.mean, loss_ci95=ci, flag=thresholds.flag(loss.mean, ci),
                    options=options, samples=res.deals, win_loss=win_loss, note=note,
                    close=thresholds.close(loss.mean, ci))


def chosen_loss(res: WhatIfResult, chosen: str, deals: int | None = None) -> tuple[int, Estimate, float]:
    """(the option of most net points, what `chosen` loses against it in net points (paired, deal by deal),
    the match-win chance it loses), on the first `deals` deals (all when None). analyse and whatif --log
    both judge a bid with this."""
    net = res.net if deals is None else res.net[:deals]
    win = res.win if deals is None else res.win[:deals]
    j = res.names.index(chosen)
    b = int(np.argmax(net.mean(axis=0)))
    if j == b:
        return b, Estimate(0.0, 0.0, net.shape[0]), 0.0
    return b, estimate(net[:, b] - net[:, j]), float((win[:, b] - win[:, j]).mean())


def bid_judgement(res: WhatIfResult, chosen: str, deals: int,
                  thresholds: Thresholds = Thresholds()) -> dict[str, Any]:
    """analyse's judgement of the bid `chosen` on the first `deals` deals of a what-if drawn from the
    decision's own stream (``bid_seed``): what ``analyse --bid-deals deals`` reports (whatif --log)."""
    n = min(deals, res.deals)
    b, loss, _ = chosen_loss(res, chosen, n)
    ci = _ci(loss)
    return {"deals": n, "best": res.names[b], "loss": loss.mean, "loss_ci95": list(ci),
            "flag": thresholds.flag(loss.mean, ci), "too_close": thresholds.close(loss.mean, ci),
            "verdict": thresholds.verdict(loss.mean, ci)}


# --- luck -------------------------------------------------------------------------------------------


Luck = tuple[list[float] | None, int | None, list[float] | None, str | None, str | None]


def luck_and_result(facts: LineDecisions, settings: Settings, buffers: Buffers) -> Luck:
    """(luck per side, the trick it is taken at, result per side, a note, how the luck was valued: EXACT or
    BOUNDED) for two sides; Nones otherwise."""
    rules = facts.rules
    if facts.start is None:
        return None, None, None, "no trick play", None
    if rules.sides != 2:
        return (None, None, None, "luck not computed with three players (the solver's value is the mover's alone)",
                None)
    luck = None
    trick = None
    note = None
    method = None
    budget = settings.budget
    for play in facts.plays:
        pos = play.position
        if pos.state[PS_LED] < 0 and cards_left(pos) <= settings.max_cards:
            best, method = open_value(pos, budget, settings.luck_nodes, buffers)
            luck = _by_side(rules, pos.side, best)
            trick = int(pos.state[PS_TRICK_NO]) + 1
            break
    if luck is None:
        note = f"luck not computed: more than --max-cards {settings.max_cards} cards left at every trick"
    elif trick != 1:
        note = f"luck from trick {trick}: the tricks before it hold more than --max-cards {settings.max_cards} cards"
    if method == BOUNDED:
        note = ((note + "; ") if note else "") + (
            f"luck estimated by the bounded search ({cards_left(pos)} cards in the hands: the solver did not finish "
            f"within {settings.luck_nodes:,} nodes; the heuristic's play down to {budget.horizon} cards, then the solver)")
    last = facts.plays[-1] if facts.plays else None
    result = None
    if last is not None and facts.verdict is not None:
        v = card_values(last.position, 0, np.zeros(4, dtype=np.uint64), None, buffers)
        result = _by_side(rules, last.position.side, float(v.values.max()))
    return luck, trick, result, note, method


def open_value(position, budget: Budget, nodes: int, buffers: Buffers) -> tuple[float, str]:
    """The position's value with every hand open, for the side to move, and how it was found: EXACT when the
    solver (its own 2**20-entry table) finishes within `nodes` nodes, else BOUNDED (the best card's value by
    the bounded search)."""
    if budget.exact_for(position):
        return float(card_values(position, 0, np.zeros(4, dtype=np.uint64), None, buffers).values.max()), EXACT
    work = SolverWork()
    work.node_cap = nodes  # the exact search stopped at the budget, as the card values' (engine/bounded.py)
    value = solve_value(position.state[:N_STATE].copy(), position.rules.as_array(), work.states, work.moves,
                        work.frames, work.tt, work.ctx)
    if not work.aborted:
        return float(value), EXACT
    v = card_values(position, 0, np.zeros(4, dtype=np.uint64), None, buffers, dataclasses.replace(budget, nodes=0))
    return float(v.values.max()), BOUNDED


def _by_side(rules: RuleSet, side: int, value: float) -> list[float]:
    out = [0.0, 0.0]
    out[side] = value
    out[1 - side] = 0.0 - value  # not -0.0
    return out


def deal_points(facts: LineDecisions, sides: int) -> list[int]:
    out = [0] * sides
    if facts.verdict is not None:
        for side, n, why in facts.verdict.points:
            if why in DEAL_WHY:
                out[side] += n
    return out


# --- the whole file -----------------------------------------------------------------------------------


def count_work(parsed: list[ParsedLine], settings: Settings) -> int:
    """Decisions to judge (the progress bar's total)."""
    return sum(p.judged(settings, d) and (isinstance(d, Bid) or len(d.position.legal_cards()) > 1)
               for p in parsed for d in p.facts.decisions)


def analyse(parsed: list[ParsedLine], settings: Settings, file: str = "",
            equity: Callable[[RuleSet], EquityTable | None] | None = None,
            progress: Callable[[int], None] | None = None) -> Report:
    """Judge every wanted decision of the parsed lines (module docstring). The card decisions and the lucks
    are judged side by side on `settings.threads` threads (each its own buffers; every decision has its own
    stream, so the answer is the same on any number of threads); the bids one after another, each spreading
    its rollouts over the threads itself."""
    matches = match_numbers(parsed)
    tables = [equity(p.facts.rules) if equity is not None and p.facts.rules.sides == 2 else None for p in parsed]
    local = threading.local()

    def buffers() -> Buffers:
        if not hasattr(local, "buffers"):
            local.buffers = Buffers()
        return local.buffers

    def card(p: ParsedLine, d: Play, table: EquityTable | None) -> Decision:
        return judge_card(p.number, d, settings, buffers(), table, p.facts)

    def luck(p: ParsedLine) -> Luck:
        if p.view is not None and not p.view.whole:
            return None, None, None, (f"luck not computed: seat {p.view.seat}'s view, the hidden hands are not all "
                                      "known"), None
        if p.unfinished:
            return None, None, None, "a deal in progress: no luck or result", None
        return luck_and_result(p.facts, settings, buffers())

    pool = ThreadPoolExecutor(max_workers=max(1, settings.threads or os.cpu_count() or 1))
    try:
        cards: dict[tuple[int, int], Future[Decision]] = {}
        lucks: list[Future[Luck]] = []
        for p, table in zip(parsed, tables):
            for d in p.facts.decisions:
                if isinstance(d, Play) and p.judged(settings, d) and len(d.position.legal_cards()) > 1:
                    cards[(p.number, d.event)] = pool.submit(card, p, d, table)
            lucks.append(pool.submit(luck, p))
        reports = []
        for p, match, table, luck_future in zip(parsed, matches, tables, lucks):
            facts = p.facts
            rules = facts.rules
            decisions: list[Decision] = []
            forced = 0
            for d in facts.decisions:
                if not p.judged(settings, d):
                    continue
                if isinstance(d, Bid):
                    decisions.append(judge_bid(p.number, d, rules, settings, table))
                elif (p.number, d.event) in cards:
                    decisions.append(cards[(p.number, d.event)].result())
                else:
                    forced += 1
                    continue
                if progress is not None:
                    progress(1)
            luck_sides, trick, result, note, luck_method = luck_future.result()
            reports.append(LineReport(p.number, match, p.obj, facts, decisions, forced, luck_sides, trick, result,
                                      deal_points(facts, rules.sides), note, luck_method, p.view, p.unfinished,
                                      _unjudged(p, settings),
                                      frozenset(s for s in range(rules.players) if p.wanted(settings, s))))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)  # Ctrl-C: the decisions under way finish, no new one starts
        raise
    pool.shutdown()
    return Report(file, settings, reports, any(t is not None for t in tables))


def _unjudged(p: ParsedLine, settings: Settings) -> str | None:
    """One line: which decisions and measures of this line the view cannot judge, and why (None: all
    that were asked for are judged)."""
    view = p.view
    if view is None or view.why is None:
        return None
    if not view.whole:  # the luck at least is not judged
        return view.why
    missed = any(p.wanted(settings, d.seat) and d.chosen is not None and not view.judged(d)
                 for d in p.facts.decisions)
    return view.why if missed else None
