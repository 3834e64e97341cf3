"""The set-up of a deal as entered: the seats, the score, where each card is (a hand, a turn-up, a discard), the
turn-ups and their kicks, the discards, and the points in the referee's own words (`SetUp`, the base the bids
and the cards build on); the options that give them (``--dealer``, ``--seat``, ``--score``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...game.cards import card_name
from ...engine.deal import HAND_SIZE, kick_points
from ...game.errors import AllFoursError
from ...record.gamelog import FORMAT
from ...referee.scoring import MatchOver, Scoring
from ...game.rules import KICKS, RuleSet
from .base import HIDDEN, Due, Entry, EntryError, Stop, names

if TYPE_CHECKING:
    from .cards import PlayWalk


class SetUp:
    """The build of an entry's line, up to the bids: its seats checked, the events so far, the scorer, and where
    each card was given. `BidPhase` and `CardPhase` add the bids and the cards; `Builder` puts them together."""

    def __init__(self, entry: Entry):
        e = self.e = entry
        r = self.r = entry.rules
        self.n = r.players
        if not 0 <= e.dealer < self.n:
            raise EntryError(f"dealer {e.dealer}: the rules have seats 0 to {self.n - 1} ({self.n} players)")
        if e.seat is not None and not 0 <= e.seat < self.n:
            raise EntryError(f"seat {e.seat}: the rules have seats 0 to {self.n - 1} ({self.n} players)")
        for s in e.hands:
            if s not in e.known:
                raise EntryError(f"seat {s}'s hand is given, but the line is seat {e.seat}'s view")
        self.eldest = e.eldest
        self.dside, self.eside = r.side_of(e.dealer), r.side_of(self.eldest)
        self.events: list[dict[str, Any]] = [dict(ev) for ev in e.earlier]
        self.scorer = Scoring({"format": FORMAT, "rules": r.as_log_dict(), "dealer": e.dealer,
                               "score_before": list(e.score_before), "events": []})
        self.earlier_points = 0
        try:
            for ev in e.earlier:
                if ev.get("event") == "points":
                    self._score(lambda ev=ev: self.scorer.score_points(ev["side"], ev["n"], ev["why"]), emit=False)
        except Stop:
            raise EntryError("the match was won in a void deal earlier in the line: nothing follows") from None
        self.earlier_points = len(self.scorer.verdict.points)
        self.places: dict[int, str] = {}   # card -> where it was first given
        self.owner: dict[int, int] = {}    # a known hand's card -> its seat
        self.turned: set[int] = set()
        self.discarded: set[int] = set()
        self.dealt = {s: 0 for s in e.known}  # cards of each known hand used so far
        self.turnups_used = 0
        self.bids_used = 0
        self.discards_used: set[int] = set()
        self.runs = 0
        self.trump: int | None = None
        self.walk: PlayWalk | None = None
        self.hand_size = 0

    # the points, in the referee's own words

    def _score(self, fn: Any, emit: bool = True, totals: list[int] | None = None) -> None:
        points = self.scorer.verdict.points
        before = len(points)
        over = False
        try:
            fn()
        except MatchOver:
            over = True
        if emit:
            for side, n, why in points[before:]:
                event: dict[str, Any] = {"event": "points", "side": side, "n": n, "why": why}
                if why == "game" and totals is not None:
                    event["totals"] = totals
                self.events.append(event)
        if over:
            side, n, why = points[-1]
            raise Stop(Due("over", f"side {side} reaches the target {self.r.target} ({n} for {why}): the match "
                                   "is over"))

    def award(self, side: int, n: int, why: str) -> None:
        self._score(lambda: self.scorer.score_points(side, n, why))

    # where each card is

    def place(self, card: int, where: str) -> None:
        if card in self.places:
            first = self.places[card]
            name = card_name(card)
            if where.startswith("the turn-up") and card in self.owner:
                raise EntryError(f"the turn-up {name} is in seat {self.owner[card]}'s hand: a turned card is in "
                                 "no hand")
            if first.startswith("the turn-up") and where.startswith("seat"):
                raise EntryError(f"{name} in {where} is {first}: a turned card is in no hand")
            if first == where:
                raise EntryError(f"{name} is given twice in {where}")
            raise EntryError(f"{name} is given twice: in {first} and in {where}")
        self.places[card] = where

    # the turn-ups and the discards

    def turnup(self, k: int) -> int:
        e = self.e
        if len(e.turnups) <= k:
            text = "the turn-up is missing" if k == 0 else f"the turn-up after run {k} is missing"
            raise Stop(Due("turnup", text, run=k))
        card = e.turnups[k]
        self.place(card, "the turn-up" if k == 0 else f"the turn-up after run {k}")
        self.turned.add(card)
        self.turnups_used = k + 1
        self.events.append({"event": "turnup", "card": card_name(card)})
        self.award(self.dside, kick_points(KICKS.index(self.r.kick), card), "kick")
        return card


    def discards(self, hands: dict[int, list[int]]) -> None:
        """Every seat holding more than six discards down to six (the eldest first, as the simulator does)."""
        e, n = self.e, self.n
        size = HAND_SIZE + self.r.run_cards * self.runs
        if size == HAND_SIZE:
            return
        for k in range(n):
            s = (self.eldest + k) % n
            if s not in e.known:
                self.events.append({"event": "discard", "seat": s, "cards": [HIDDEN] * (size - HAND_SIZE)})
                continue
            gone = e.discards.get(s)
            if gone is None:
                raise Stop(Due("discard", f"seat {s} is to discard {size - HAND_SIZE} of its {size} cards", seat=s))
            if len(gone) != size - HAND_SIZE:
                raise EntryError(f"seat {s} discards {len(gone)} cards: it holds {size} and keeps six, so it "
                                 f"discards {size - HAND_SIZE}")
            for i, c in enumerate(gone):
                if c in gone[:i]:
                    raise EntryError(f"seat {s} discards {card_name(c)} twice")
                if c not in hands[s]:
                    raise EntryError(f"seat {s} discards {card_name(c)}, which it does not hold")
            for c in gone:
                hands[s].remove(c)
                self.discarded.add(c)
            self.discards_used.add(s)
            self.events.append({"event": "discard", "seat": s, "cards": names(gone)})


def side_scores(rules: RuleSet, dealer: int, score: Sequence[int] | None) -> list[int]:
    """A score given eldest's side first (as --score reads it) as ``score_before``, by side."""
    out = [0] * rules.sides
    if score is None:
        return out
    eldest = (dealer + 1) % rules.players
    for k, points in enumerate(score):
        out[rules.side_of((eldest + k) % rules.players)] = int(points)
    return out


def read_score(rules: RuleSet, dealer: int, text: str | None) -> list[int]:
    """``--score`` (eldest's side first, as every command reads it) as ``score_before`` by side."""
    if text is None:
        return [0] * rules.sides
    from ...analysis.bidding.strategy import parse_side_score

    try:
        return side_scores(rules, dealer, parse_side_score(text, rules))
    except AllFoursError as err:
        raise EntryError(str(err)) from None


def check_seat(rules: RuleSet, seat: int, option: str) -> None:
    n = rules.players
    if not 0 <= seat < n:
        raise EntryError(f"{option} {seat}: the rules have seats 0 to {n - 1} ({n} players)")
