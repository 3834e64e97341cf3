"""A seat's view, up to trick play: every card the seat did not see is a stand-in (a negative int, one per
``??`` of a hand), so the bidding phase referees a view as it does a full log: the seat's own cards and the
turn-ups are checked, and the other hands are counted. `HiddenDeal` also builds the *witness* (the line with a
card for every ``??``) (module ``views``)."""

from __future__ import annotations

import copy
from typing import Any

from ..game.cards import N_CARDS, card_name
from ..record.vocabulary import BID_EVENTS
from .line import Referee
from .reading import HIDDEN, LogError, card_mask

ALL_CARDS = (1 << N_CARDS) - 1
BIDS = tuple(BID_EVENTS)


def seats_text(seats: list[int]) -> str:
    """``seat 2``, ``seats 1 and 3``, ``seats 1, 2 and 3``."""
    if len(seats) == 1:
        return f"seat {seats[0]}"
    return "seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def suit_mask(suit: int) -> int:
    return ((1 << 13) - 1) << (13 * suit)


def cards_in(mask: int) -> list[int]:
    return [c for c in range(N_CARDS) if mask >> c & 1]


def hidden_dealing(pool: int, need: dict[int, int], allowed: dict[int, int]) -> dict[int, list[int]] | None:
    """Give each seat `need[seat]` cards of `pool & allowed[seat]`, none twice (augmenting paths); None if
    no such dealing exists. Deterministic: lowest cards first."""
    slots = [seat for seat in sorted(need) for _ in range(need[seat])]
    options = [cards_in(pool & allowed[seat]) for seat in slots]
    slot_of: dict[int, int] = {}

    def place(i: int, tried: set[int]) -> bool:
        for c in options[i]:
            if c in tried:
                continue
            tried.add(c)
            if c not in slot_of or place(slot_of[c], tried):
                slot_of[c] = i
                return True
        return False

    for i in range(len(slots)):
        if not place(i, set()):
            return None
    out: dict[int, list[int]] = {seat: [] for seat in need}
    for c, i in sorted(slot_of.items()):
        out[slots[i]].append(c)
    return out


class HiddenDeal(Referee):
    """The referee of one seat's view up to trick play (the module docstring); `ViewReferee` (``view_play``)
    adds the tricks. `assign` gives each stand-in the card the witness puts there."""

    def __init__(self, obj: Any, seat: int):
        super().__init__(obj)
        self.seat = seat
        self.verdict.seat = seat
        self.wanted: tuple[str, ...] | None = None  # what `take` wanted when the events ran out
        self.hidden_slots = 0
        self.slots: list[tuple[int, str, int, int, int]] = []  # (event, key, seat, index, stand-in) per ??
        self.assign: dict[int, int] = {}
        self.deal_hidden: list[list[int]] = []  # per deal of the line, its stand-ins
        self.deal_visible: list[int] = []       # per deal, the cards the seat saw dealt or turned up
        self.turnups: list[int] = []
        self.bids: list[tuple[str, int]] = []
        self.runs = 0
        self.discarded: dict[int, list[int]] = {}
        self.sizes = [0] * self.n
        self.trump: int | None = None
        self.hands: list[set[int]] | None = None  # from the first lead on
        self.own_start: set[int] = set()
        self.plays: list[tuple[int, int]] = []
        self.played_at: dict[int, tuple[int, int]] = {}  # card -> (seat, event)
        self.lacks = [0] * self.n
        self.shown: list[list[tuple[int, str]]] = [[] for _ in range(self.n)]  # (mask, what showed it)
        self.pool = 0
        self.to_play: int | None = None

    # --- the cursor and the cards -------------------------------------------------------------

    def take(self, *names: str) -> dict[str, Any]:
        if self.pos >= len(self.events):
            self.wanted = names
        event = super().take(*names)
        name = event["event"]
        if name == "deal":
            self.deal_hidden.append([])
            self.deal_visible.append(0)
            self.turnups, self.bids, self.discarded, self.runs = [], [], {}, 0
            self.sizes = [0] * self.n
        elif name in BIDS:
            self.bids.append((name, self.seat_of(event)))
        elif name == "more":
            self.runs += 1
        return event

    def fresh(self, card: int, used: set[int]) -> None:
        super().fresh(card, used)
        if card >= 0:
            self.deal_visible[-1] |= 1 << card
            if self.events[self.pos - 1].get("event") == "turnup":
                self.turnups.append(card)

    def hand_cards(self, tokens: object, count: int, seat: int, what: str) -> list[int]:
        if not isinstance(tokens, list) or len(tokens) != count:
            raise LogError(self.pos - 1, f"{what} must be a list of {count} cards")
        hidden = [token == HIDDEN for token in tokens]
        if seat == self.seat:
            if any(hidden):
                raise LogError(self.pos - 1, f"{what} is hidden (??) in seat {seat}'s own view: a view shows every "
                                             "card its seat holds")
            cards = [self.card(token) for token in tokens]
        elif not all(hidden):
            raise LogError(self.pos - 1, f"{what} is shown in seat {self.seat}'s view: a view hides every card of "
                                         "another seat (??)")
        else:
            cards = []
            for k in range(count):
                self.hidden_slots += 1
                p = -self.hidden_slots
                self.slots.append((self.pos - 1, "hands", seat, k, p))
                self.deal_hidden[-1].append(p)
                cards.append(p)
        self.sizes[seat] += count
        return cards

    def discard_cards(self, tokens: object, count: int, seat: int, hand: set[int]) -> list[int]:
        if seat == self.seat:
            if isinstance(tokens, list) and HIDDEN in tokens:
                raise LogError(self.pos - 1, f"discard of seat {seat} is hidden (??) in its own view: a view shows "
                                             "every card its seat holds")
            cards = super().discard_cards(tokens, count, seat, hand)
        else:
            if not isinstance(tokens, list) or len(tokens) != count:
                raise LogError(self.pos - 1, f"discard of seat {seat} must be a list of {count} cards")
            if any(token != HIDDEN for token in tokens):
                raise LogError(self.pos - 1, f"discard of seat {seat} is shown in seat {self.seat}'s view: a view "
                                             "hides the other seats' discards (??)")
            cards = sorted(c for c in hand if c < 0)[:count]  # any of its hidden cards: the last dealt
            for k, p in enumerate(cards):
                self.slots.append((self.pos - 1, "cards", seat, k, p))
        self.discarded[seat] = list(cards)
        self.sizes[seat] -= count
        return cards

    def remaining(self) -> dict[int, int]:
        """How many hidden cards each other seat still holds (in trick play)."""
        assert self.hands is not None
        return {s: len(self.hands[s]) for s in range(self.n) if s != self.seat}

    def witness(self) -> dict[str, Any]:
        """The line with a card for every ??: what each hidden card was played as, a dealing of the unseen
        cards for the hands still held (one that fits every void shown), and any unseen cards for the rest."""
        assign = dict(self.assign)
        last = len(self.deal_hidden) - 1
        for d, hidden in enumerate(self.deal_hidden):
            free = ALL_CARDS & ~self.deal_visible[d]
            if d == last and self.hands is not None:
                free = self.pool
                need = self.remaining()
                dealing = hidden_dealing(free, need, {o: ALL_CARDS & ~self.lacks[o] for o in need})
                assert dealing is not None, "infeasible() let an impossible view through"
                for o, cards in dealing.items():
                    for p, c in zip(sorted(c for c in self.hands[o] if c < 0), cards):
                        assign[p] = c
                        free &= ~(1 << c)
            else:
                free &= ~card_mask({assign[p] for p in hidden if p in assign})
            spare = iter(cards_in(free))
            for p in sorted(hidden, reverse=True):
                if p not in assign:
                    assign[p] = next(spare)
        out = copy.deepcopy(self.obj)
        for event, key, seat, index, p in self.slots:
            target = out["events"][event][key]
            (target[seat] if key == "hands" else target)[index] = card_name(assign[p])
        return out
