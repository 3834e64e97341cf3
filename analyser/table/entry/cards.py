"""The cards of a deal as entered: `PlayWalk`, the walk over the plays the hint, the recorder and the player
share (whose turn, the led suit, the trick winners, the card points each side captured, and what each seat has
shown it cannot hold: a void it showed by not following, not trumping, or undertrumping where that is
forbidden); `CardPhase`, each card played checked (held, legal, not against a void shown, and, in a seat's
view, that the view referee can still deal the hidden cards); the cards as a player types them."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from ...game.cards import RANK_JACK, SUIT_WORDS, CardError, card_name, parse_card, suit_of
from ...engine.bits import game_points
from ...engine.deal import HAND_SIZE, legal_mask, trick_winner
from ...referee.play import illegal_reason
from ...referee.views import dealing_shortfall
from ...game.rules import RuleSet
from .base import ALL_CARDS, Due, EntryError, Stop, mask_of, plural, suit_cards
from .setup import SetUp


@dataclasses.dataclass
class Trick:
    leader: int
    cards: list[int] = dataclasses.field(default_factory=list)
    winner: int | None = None  # None while the trick is open

    def seat(self, k: int, n: int) -> int:
        """The seat that played the trick's k-th card."""
        return (self.leader + k) % n


@dataclasses.dataclass
class Shown:
    """Cards a seat has shown it does not hold: `cards` (a mask), in words `what`, and how it showed it."""

    cards: int
    what: str
    how: str


class PlayWalk:
    """The plays of one deal, card by card: `to_play` is the seat whose turn it is, `play(card)` plays the next
    card (the caller checks it first, with `legal` for a known hand or `contradiction` for a hidden one)."""

    def __init__(self, rules: RuleSet, eldest: int, trump: int):
        self.rules = rules
        self.n = rules.players
        self.trump = trump
        self.tricks: list[Trick] = [Trick(eldest)]
        self.seats: list[int] = []   # who played each card, in order
        self.cards: list[int] = []
        self.captured = [0] * rules.sides  # the cards each side took, as masks
        self.shown: list[list[Shown]] = [[] for _ in range(self.n)]

    @property
    def trick(self) -> Trick:
        """The trick being played (the last one, open)."""
        return self.tricks[-1]

    @property
    def done(self) -> list[Trick]:
        return [t for t in self.tricks if t.winner is not None]

    @property
    def number(self) -> int:
        """The current trick's number, from 1."""
        return len(self.tricks)

    @property
    def to_play(self) -> int:
        return self.trick.seat(len(self.trick.cards), self.n)

    @property
    def led(self) -> int:
        """The suit led to the current trick, -1 at a lead."""
        return suit_of(self.trick.cards[0]) if self.trick.cards else -1

    @property
    def top_trump(self) -> int:
        """The highest trump in the current trick, -1 if none."""
        return max((c for c in self.trick.cards if suit_of(c) == self.trump), default=-1)

    def lacks(self, seat: int) -> int:
        """Every card `seat` has shown it does not hold, as a mask."""
        m = 0
        for s in self.shown[seat]:
            m |= s.cards
        return m

    def legal(self, hand: set[int] | Sequence[int]) -> int:
        """The cards of `hand` the seat to play may play now, as a mask."""
        r = self.rules
        return int(legal_mask(np.uint64(mask_of(hand)), self.led, self.trump, self.top_trump,
                              r.undertrump == "forbidden", r.void_play == "trump"))

    def illegal(self, hand: set[int], card: int) -> str | None:
        """The referee's reason why the seat to play may not play `card` from `hand`, or None when it may."""
        if self.legal(hand) >> card & 1:
            return None
        return illegal_reason(self.to_play, card, set(hand), self.led, self.trump, self.top_trump)

    def contradiction(self, card: int) -> str | None:
        """Why the seat to play cannot hold `card` after what its earlier plays showed, or None."""
        seat = self.to_play
        for s in self.shown[seat]:
            if s.cards >> card & 1:
                return f"seat {seat} plays {card_name(card)}, but it showed it has no {s.what}: {s.how}"
        return None

    def play(self, card: int) -> int:
        """Play `card` for the seat to play; its seat."""
        seat, trick, trump, n = self.to_play, self.trick, self.trump, self.n
        self._infer(seat, card)
        trick.cards.append(card)
        self.seats.append(seat)
        self.cards.append(card)
        if len(trick.cards) == n:
            trick.winner = trick.seat(int(trick_winner(np.array(trick.cards, dtype=np.int64), trump)), n)
            self.captured[self.rules.side_of(trick.winner)] |= mask_of(trick.cards)
            self.tricks.append(Trick(trick.winner))
        return seat

    def _infer(self, seat: int, card: int) -> None:
        """What playing `card` now shows about the rest of `seat`'s hand (the rules' legal moves, read back)."""
        led, trump, name, k = self.led, self.trump, card_name(card), self.number
        if led < 0:
            return
        tmask = suit_cards(trump)
        if led == trump:
            if suit_of(card) != trump:
                self.shown[seat].append(Shown(tmask, "trumps", f"it played {name} on a trump lead in trick {k}"))
            return
        top = self.top_trump
        below = tmask & ((1 << top) - 1) if self.rules.undertrump == "forbidden" and top >= 0 else 0
        if below >> card & 1:  # an undertrump is legal only from a hand of nothing but trumps
            self.shown[seat].append(Shown(ALL_CARDS & ~tmask, "card but trumps",
                                          f"it undertrumped {card_name(top)} with {name} in trick {k} "
                                          "(undertrump=forbidden)"))
        elif suit_of(card) not in (led, trump):
            self.shown[seat].append(Shown(suit_cards(led), plural(led),
                                          f"it played {name} on a {SUIT_WORDS[led]} lead in trick {k}"))
            if self.rules.void_play == "trump":
                what = f"trump above {card_name(top)}" if below else "trumps"
                self.shown[seat].append(Shown(tmask & ~below, what, f"it played {name} without trumping in trick "
                                                                     f"{k} (void_play=trump)"))

    def card_points(self) -> list[int]:
        """Card points for Game each side has captured so far."""
        return [int(game_points(np.uint64(m))) for m in self.captured]

    def complete(self, hand_size: int) -> bool:
        return len(self.cards) == hand_size * self.n


def walk_plays(rules: RuleSet, eldest: int, trump: int, cards: Sequence[int]) -> PlayWalk:
    """The plays `cards` (in order from the first lead) walked without checks: whose turn each was, the tricks."""
    walk = PlayWalk(rules, eldest, trump)
    for card in cards:
        walk.play(card)
    return walk


class CardPhase(SetUp):
    """The tricks: every card played checked and walked, then High, Low, Jack and Game (`SetUp` holds the rest
    of the build)."""

    def play(self, hands: dict[int, list[int]]) -> None:
        e, r, n = self.e, self.r, self.n
        assert self.trump is not None
        size = self.hand_size = HAND_SIZE if r.discard else HAND_SIZE + r.run_cards * self.runs
        total = size * n
        if len(e.played) > total:
            raise EntryError(f"{len(e.played)} cards are played, but the deal has {total} "
                             f"({n} seats × {size} cards)")
        walk = self.walk = PlayWalk(r, self.eldest, self.trump)
        left = {s: set(h) for s, h in hands.items()}
        by: dict[int, tuple[int, int]] = {}  # a played card -> (seat, trick)
        for card in e.played:
            seat, k = walk.to_play, walk.number
            name = card_name(card)
            if card in by:
                s0, k0 = by[card]
                raise EntryError(f"{name} is played twice: by seat {s0} in trick {k0} and by seat {seat} in trick {k}")
            if card in self.turned:
                raise EntryError(f"seat {seat} plays {name}, which was turned up: a turned card is in no hand")
            o = self.owner.get(card)
            if o is not None and o != seat:
                raise EntryError(f"seat {seat} plays {name}, which seat {o} discarded" if card in self.discarded
                                 else f"seat {seat} plays {name}, which is in seat {o}'s hand")
            if seat in left:
                if card not in left[seat]:
                    why = "which it discarded" if card in self.discarded else (
                        "which it does not hold" if e.seat is None else "which is not in its hand")
                    raise EntryError(f"seat {seat} plays {name}, {why}")
                reason = walk.illegal(left[seat], card)
                if reason is not None:
                    raise EntryError(reason)
                left[seat].remove(card)
            else:
                reason = walk.contradiction(card)
                if reason is not None:
                    raise EntryError(reason)
            by[card] = (seat, k)
            walk.play(card)
            self.events.append({"event": "play", "seat": seat, "card": name})
            if walk.trick.cards == [] and walk.done:
                self.events.append({"event": "trick", "winner": walk.done[-1].winner})
            if seat not in left:
                self.fits(walk, card, seat, by)
        if not walk.complete(size):
            to = walk.to_play
            what = "lead" if not walk.trick.cards else "play"
            raise Stop(Due("card", f"seat {to} is to {what} (trick {walk.number})", seat=to))
        self.score_play(walk, by)
        raise Stop(Due("over", "every card has been played: the deal is over"))

    def fits(self, walk: PlayWalk, card: int, seat: int, by: dict[int, tuple[int, int]]) -> None:
        """Some dealing of the unseen cards still gives every hidden hand its cards, each outside what the seat
        showed it does not hold: the view referee's decision (`dealing_shortfall`)."""
        unseen = ALL_CARDS & ~mask_of(set(self.places) | set(by))
        hidden = [s for s in range(self.n) if s not in self.e.known]
        left = {s: self.hand_size - walk.seats.count(s) for s in hidden}
        short = dealing_shortfall(unseen, left, {s: walk.lacks(s) for s in hidden})
        if short is not None:
            who = " and ".join(f"seat {s}" for s in short.seats)
            they = "it" if len(short.seats) == 1 else "they"
            raise EntryError(f"seat {seat} plays {card_name(card)}: then no dealing of the unseen cards fits the "
                             f"plays: {who} must still hold {short.need} cards, and only {short.room} unseen "
                             f"cards are left that the voids {they} showed allow")

    def score_play(self, walk: PlayWalk, by: dict[int, tuple[int, int]]) -> None:
        """High, Low, Jack (or hang-jack) and Game by the referee's own rules: every card held as play started
        has been played, so who held it is known."""
        trump = walk.trump
        holder = {c: s for c, (s, _) in by.items()}
        in_play = {c for c in by if suit_of(c) == trump}
        jack = trump * 13 + RANK_JACK
        captor = -1
        for t in walk.done:
            if jack in t.cards:
                captor = self.r.side_of(t.winner)  # type: ignore[arg-type]
        totals = walk.card_points()
        self._score(lambda: self.scorer.score_play(holder, in_play, jack, captor, list(walk.captured)),
                    totals=totals)


def read_card(token: str) -> int:
    """One card in any spelling a player types: rank first (``10h``, ``th``, ``TH``, ``10♥``) or suit first
    (``♥10``, ``h10``, ``♠A``); a `CardError` as parse_card words it."""
    try:
        return parse_card(token)
    except CardError:
        text = token.strip().replace("\ufe0f", "") if isinstance(token, str) else ""
        if len(text) >= 2:
            try:
                return parse_card(text[1:] + text[0])
            except CardError:
                pass
        raise


def read_cards(text: str | Sequence[str] | None, option: str) -> list[int]:
    """Cards from an option's text (spaces or commas between them; loose spellings), in order, as given."""
    if text is None:
        return []
    tokens = text.replace(",", " ").split() if isinstance(text, str) else [t for t in text]
    out = []
    for token in tokens:
        try:
            out.append(read_card(token))
        except CardError as err:
            raise EntryError(f"{option}: {err}" if option else str(err)) from None
    return out
