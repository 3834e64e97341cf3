"""The decisions of a game log line: where each one is, who made it and what it could see.

A line is refereed (``replay.py``) exactly as ``allfours replay`` does, so a malformed or
illegal line is refused with the same ``LogError`` (its event named). On the way the
referee notes every decision:

* **bids**: the eldest's ``stand``/``beg`` after the first turn-up of each deal (again
  after a redeal), and the dealer's ``give``/``run`` after a beg. What the decider knew:
  its six cards, the turn-up, the score when that deal was dealt (the what-if adds the
  turn-up's kick itself) and, for the dealer, that the eldest begged;
* **cards**: every ``play`` event, as a play state (``solve.Position``) just before it.

A line may also be *cut*: it stops where a decision is due (what ``whatif --log``
reads); ``due`` then says which.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from ...game.cards import parse_card
from ...engine.state import apply, is_over
from ...referee import LogError, MatchOver, ReachedPlay, Referee, UpToPlay, Verdict
from ...game.rules import RuleSet
from ...record.vocabulary import BID_EVENTS
from ...players.solve import Position, SolveError, note_out_of_play, position_from_line



@dataclasses.dataclass
class Bid:
    """A stand/beg or give/run decision: `event` its index in the line (or the length of a cut
    line), `chosen` the option taken (None in a cut line)."""

    event: int
    seat: int
    role: str                # "eldest" or "dealer"
    hand: tuple[int, ...]    # the decider's six cards
    turnup: int
    score: tuple[int, ...]   # by side, when the deal was dealt (before the turn-up's kick)
    chosen: str | None


@dataclasses.dataclass
class Play:
    """A card decision: the position before event `event`, and the card played (None in a cut line)."""

    event: int
    position: Position
    chosen: int | None

    @property
    def seat(self) -> int:
        return self.position.seat


@dataclasses.dataclass
class LineDecisions:
    """A refereed line's decisions, in order, and what the referee found."""

    rules: RuleSet
    dealer: int
    score_before: list[int]
    bids: list[Bid]
    plays: list[Play]
    start: Position | None    # the position at the first lead (None: no trick play)
    verdict: Verdict | None   # None for a cut line
    due: str | None = None    # a cut line: "bid" or "card", the decision due after its last event
    events: int = 0

    @property
    def decisions(self) -> list[Bid | Play]:
        return sorted([*self.bids, *self.plays], key=lambda d: d.event)


class _Recorder(Referee):
    """The referee, noting each bid and the position of the first lead; `due` when the line stops early."""

    def __init__(self, obj: Any):
        super().__init__(obj)
        self.bids: list[Bid] = []
        self.deal_at = -1
        self.deal_score: list[int] = list(self.score)
        self.play_at = -1
        self.due: tuple[str, ...] | None = None

    def take(self, *names: str) -> dict[str, Any]:
        if self.pos >= len(self.events):
            self.due = names
        if "deal" in names:
            self.deal_score = list(self.score)
        if "stand" in names or "give" in names:
            self._note_bid(names)
        event = super().take(*names)
        if event["event"] == "deal":
            self.deal_at = self.pos - 1
        return event

    def _note_bid(self, names: tuple[str, ...]) -> None:
        role = "eldest" if "stand" in names else "dealer"
        seat = self.eldest if role == "eldest" else self.dealer
        deal = self.events[self.deal_at]
        hand = tuple(parse_card(c) for c in deal["hands"][seat])
        turnup = parse_card(self.events[self.deal_at + 1]["card"])
        chosen = None
        if self.pos < len(self.events) and isinstance(self.events[self.pos], dict):
            chosen = self.events[self.pos].get("event")
        self.bids.append(Bid(self.pos, seat, role, hand, turnup, tuple(self.deal_score), chosen))

    def play_phase(self, hands: list[set[int]], trump: int) -> None:
        self.play_at = self.pos
        super().play_phase(hands, trump)


def line_decisions(obj: Any, cut: bool = False, partial: bool = False) -> LineDecisions:
    """Referee a line and list its decisions. With `cut`, the line may stop where a decision is due
    (a stand/beg, give/run or card): `due` says which, and the last bid or play (chosen None) is it.
    With `partial` (a deal in progress), it may stop anywhere: `due` is None where no decision is due."""
    ref = _Recorder(obj)
    verdict = None
    try:
        verdict = ref.run()
    except LogError as err:
        if not ((cut or partial) and ref.due is not None and err.event >= len(ref.events)
                and err.reason.startswith("the log ends early")):
            raise
    bids = [b for b in ref.bids if b.chosen in BID_EVENTS or b.event >= len(ref.events)]
    events = ref.events
    plays: list[Play] = []
    start = None
    if ref.play_at >= 0 and (ref.play_at < len(events) or ref.due in (("play",), ("trick",))):
        start = _position(obj, events, ref.play_at)
        state = start.state.copy()
        for i in range(ref.play_at, len(events)):
            event = events[i]
            if event.get("event") != "play":
                continue
            card = parse_card(event["card"])
            plays.append(Play(i, Position(start.rules, state.copy()), card))
            apply(state, card)
        if verdict is None and ref.due in (("play",), ("trick",)):
            if is_over(state):
                raise LogError(len(events), "the deal is complete: no card is left to play")
            plays.append(Play(len(events), Position(start.rules, state.copy()), None))
    due = None
    if verdict is None:
        due = "bid" if ref.due and ("stand" in ref.due or "give" in ref.due) else (
            "card" if ref.due in (("play",), ("trick",)) else None)
        if due is None and not partial:
            want = " or ".join(ref.due or ())
            raise LogError(len(events), f"the line stops where no decision is due (next: {want}); cut it before a "
                                        "stand, beg, give, run or play event")
    return LineDecisions(ref.rules, ref.dealer, list(obj["score_before"]), bids, plays, start, verdict, due,
                         len(events))


def _position(obj: dict[str, Any], events: list[Any], play_at: int) -> Position:
    """The position at the first lead (the line is known to be legal up to there)."""
    try:
        return position_from_line({**obj, "events": events[:play_at]})
    except SolveError as err:
        if "match was won" in err.reason:
            # a scored line that goes on after the target: play on from the referee's hands anyway
            return _position_after_target(obj, events, play_at)
        raise LogError(err.event, err.reason) from None


def _position_after_target(obj: dict[str, Any], events: list[Any], play_at: int) -> Position:
    """As position_from_line, for a scored line whose match was won before play and goes on."""
    from ...engine.layout import N_STATE
    from ...engine.state import init_state

    ref = UpToPlay({**obj, "events": events[:play_at] + [{"event": "play"}]})
    try:
        ref.line()
    except (ReachedPlay, MatchOver):
        pass
    rules = ref.rules
    turnup = next(parse_card(e["card"]) for e in reversed(events[:play_at]) if e.get("event") == "turnup")
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(rules.players):
        hands[s] = np.uint64(sum(1 << c for c in ref.start_hands[s]))
    scores = np.zeros(4, dtype=np.int64)
    scores[: len(ref.score)] = ref.score
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, ref.trump, turnup, ref.dealer, scores)
    note_out_of_play(state, events[:play_at])
    return Position(rules, state)


def cut_line(obj: Any, event: int) -> dict[str, Any]:
    """The line with only its events before `event` (the decision at `event` is then the one due)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("events"), list):
        raise LogError(-1, "events must be a list")
    if not 0 <= event < len(obj["events"]):
        raise LogError(-1, f"--event {event}: the line has events 0..{len(obj['events']) - 1}")
    return {**obj, "events": obj["events"][:event]}
