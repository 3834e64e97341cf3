"""The referee's cursor over a line's events: take the next one, check its seat and cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..game.cards import CardError, card_name, parse_card
from ..game.errors import AllFoursError
from ..record.gamelog import FORMAT
from ..game.rules import RuleSet, RulesError, rules_from_log

HIDDEN = "??"  # a card the seat whose view a line is did not see (docs/game-log.md, "A seat's view")


class LogError(AllFoursError):
    """A line that breaks the rules or the format: `event` is the event index (-1: the line itself)."""

    def __init__(self, event: int, reason: str):
        super().__init__(reason)
        self.event = event
        self.reason = reason


@dataclass
class Verdict:
    points: list[tuple[int, int, str]] = field(default_factory=list)
    score_after: list[int] = field(default_factory=list)
    winner: int | None = None
    scored: bool = False  # True when the line had no points events and was scored here
    where: list[int] = field(default_factory=list)  # for each point, the event it stands before (or is)
    seat: int | None = None  # a seat's view: that seat (None: a full log)
    unchecked: list[str] = field(default_factory=list)  # a view: what it could not check, in words


def card_mask(cards: set[int]) -> int:
    """The bitmask of a set of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def whole(value: Any, what: str, lo: int, hi: int, event: int = -1) -> int:
    """`value` as a whole number in lo..hi, or a LogError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise LogError(event, f"{what} must be a whole number, not {value!r}")
    if not lo <= value <= hi:
        raise LogError(event, f"{what}={value} is out of range {lo}..{hi}")
    return value


def points_text(event: dict[str, Any]) -> str:
    return f"side {event.get('side')} {event.get('n')} {event.get('why')}"


class EventReader:
    """The line's header (rules, dealer, score) and a cursor `pos` over its events."""

    def __init__(self, obj: dict[str, Any]):
        if not isinstance(obj, dict):
            raise LogError(-1, "a line must be a JSON object")
        if obj.get("format") != FORMAT:
            raise LogError(-1, f"format must be {FORMAT!r}, not {obj.get('format')!r}")
        try:
            self.rules: RuleSet = rules_from_log(obj.get("rules"))
        except RulesError as err:
            reason = str(err)
            raise LogError(-1, reason if reason.startswith("rules") else f"rules: {reason}") from None
        r = self.rules
        self.n = r.players
        self.dealer = whole(obj.get("dealer"), "dealer", 0, self.n - 1)
        self.eldest = (self.dealer + 1) % self.n
        before = obj.get("score_before")
        if not isinstance(before, list) or len(before) != r.sides:
            raise LogError(-1, f"score_before must list {r.sides} scores, one per side")
        self.score = [whole(s, "score_before", 0, r.target - 1) for s in before]
        events = obj.get("events")
        if not isinstance(events, list):
            raise LogError(-1, "events must be a list")
        self.events: list[Any] = events
        self.check = any(isinstance(e, dict) and e.get("event") == "points" for e in self.events)
        self.pos = 0
        self.verdict = Verdict(scored=not self.check)
        self.obj = obj

    def take(self, *names: str) -> dict[str, Any]:
        """The next event, which must be one of `names`."""
        want = " or ".join(names)
        if self.pos >= len(self.events):
            raise LogError(self.pos, f"the log ends early: expected {want}")
        event = self.events[self.pos]
        if not isinstance(event, dict) or "event" not in event:
            raise LogError(self.pos, "an event must be an object with an 'event' name")
        name = event["event"]
        if name not in names:
            if name == "points":
                raise LogError(self.pos, f"extra points event ({points_text(event)}): expected {want}")
            raise LogError(self.pos, f"unexpected event {name!r}: expected {want}")
        self.pos += 1
        return event

    def peek(self) -> str | None:
        """The name of the next event (None at the end)."""
        if self.pos < len(self.events) and isinstance(self.events[self.pos], dict):
            return self.events[self.pos].get("event")
        return None

    def seat_of(self, event: dict[str, Any]) -> int:
        return whole(event.get("seat"), "seat", 0, self.n - 1, self.pos - 1)

    def expect_seat(self, event: dict[str, Any], expected: int, role: str) -> None:
        seat = self.seat_of(event)
        if seat != expected:
            raise LogError(self.pos - 1, f"{event['event']} by seat {seat} out of turn: the {role} is seat {expected}")

    def card(self, token: Any) -> int:
        if token == HIDDEN:
            raise LogError(self.pos - 1, self.hidden_here())
        try:
            return parse_card(token)
        except CardError as err:
            raise LogError(self.pos - 1, str(err)) from None

    def hidden_here(self) -> str:
        """Why a hidden card (??) may not stand in the event just taken."""
        name = self.events[self.pos - 1].get("event") if self.pos > 0 else None
        if name == "play":
            return "a play cannot be hidden (??): every seat sees every card played"
        if name == "turnup":
            return "a turn-up cannot be hidden (??): every seat sees it"
        first = next((e for e in self.events if isinstance(e, dict) and e.get("event") == "deal"), {})
        if any(isinstance(h, list) and h and all(t == HIDDEN for t in h) for h in first.get("hands") or []):
            return "a seat's view (other hands hidden as ??) where a full log is needed: every hand shown"
        return ("a hidden card (??) in a full log: the deal shows every hand, so every card must be shown "
                "(a seat's view shows its own hand and hides every other hand)")

    def cards(self, tokens: Any, count: int, what: str) -> list[int]:
        if not isinstance(tokens, list) or len(tokens) != count:
            raise LogError(self.pos - 1, f"{what} must be a list of {count} cards")
        return [self.card(t) for t in tokens]

    def fresh(self, card: int, used: set[int]) -> None:
        """`card` not seen before in this deal (then it is)."""
        if card in used:
            raise LogError(self.pos - 1, f"card {card_name(card)} dealt twice")
        used.add(card)
