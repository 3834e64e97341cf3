"""A deal as a player enters it: an ``allfours-log/1`` line from the hand, the turn-ups, the bids and the cards
played so far, each one checked the moment it is given.

What a player types is an `Entry`: the rules, the dealer, the score, whose view it is (or every hand, when all
are known), the cards each known seat was dealt (its first six, then ``run_cards`` per run), the turn-ups, the
bids, the discards and every card played, in order from the first lead. `build` turns it into the line
(docs/game-log.md): a full log when every hand is known, else the seat's view, where every card the seat did
not see is ``??``. It works out whose turn each card was (the eldest leads; each trick's winner leads the
next), the trick winners, every point (kicks, the gift, the jack bonus, and High, Low, Jack and Game once the
last card is played, in the referee's own words and order) and what is due next: a bid, a card, or something
still to be entered. Bad input is an `EntryError` naming the card or the event and why; nothing is built.

`PlayWalk` is the walk over the plays the hint, the recorder and the player share: whose turn, the led suit,
the trick winners, the card points each side captured, and what each seat has shown it cannot hold (a void it
showed by not following, not trumping, or undertrumping where that is forbidden).

`entry_line` is the one-line form (``allfours hint --rules ... --hand ... --played ...``), `decision_due` the
decision a line stops at, `append_line` adds a line to a log file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..cards import RANK_JACK, SUIT_WORDS, SUITS, CardError, card_name, parse_card, parse_suit, rank_of, suit_of
from ..engine.bits import game_points
from ..engine.deal import HAND_SIZE, kick_points, legal_mask, trick_winner
from ..errors import AllFoursError
from ..gamelog import FORMAT, dumps
from ..referee.play import illegal_reason
from ..referee.reading import EventReader
from ..referee.scoring import MatchOver, Scoring
from ..rules import KICKS, RuleSet
from ..vocabulary import ASKED, BID_EVENTS, ELDEST

HIDDEN = "??"
ALL_CARDS = (1 << 52) - 1
EXHAUSTED, BUNCHED = "exhausted", "bunched"


class EntryError(AllFoursError):
    """A deal that cannot be as entered: a card twice or not in the deck, the wrong number of cards, a play out
    of turn, illegal or against a void the seat showed, a line where no decision is due."""


def suit_cards(suit: int) -> int:
    return ((1 << 13) - 1) << (13 * suit)


def mask_of(cards: Sequence[int] | set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def names(cards: Sequence[int] | set[int]) -> list[str]:
    """Canonical names, as the simulator writes a hand: by suit (S H D C), high card first."""
    return [card_name(c) for c in sorted(cards, key=lambda c: (suit_of(c), -rank_of(c)))]


def plural(suit: int) -> str:
    return SUIT_WORDS[suit] + "s"


# --- the plays ---------------------------------------------------------------------------------------------------


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


# --- an entry and the line it builds -------------------------------------------------------------------------------


@dataclasses.dataclass
class Entry:
    """What is known of one deal, as entered (cards as ints).

    `hands` maps each known seat to every card it was dealt, in order: its first six, then `run_cards` per run.
    `seat` is whose view the line is; None when every hand is known (a full log). `bunch` is the bunching vote
    after a run (partnership-seven). `earlier` holds the events of void deals before this one in the same line
    (each ends with its ``redeal``), as built before.
    """

    rules: RuleSet
    dealer: int
    score_before: list[int]
    seat: int | None = None
    hands: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    turnups: list[int] = dataclasses.field(default_factory=list)
    bids: list[str] = dataclasses.field(default_factory=list)
    bunch: bool | None = None
    discards: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    played: list[int] = dataclasses.field(default_factory=list)
    earlier: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.n

    @property
    def known(self) -> list[int]:
        """The seats whose cards are known."""
        return list(range(self.n)) if self.seat is None else [self.seat]


@dataclasses.dataclass
class Due:
    """What comes next in an entry: `kind` is one of ``hand`` (a known seat's six cards), ``turnup`` (number
    `run`: 0 the first), ``bid`` (`role` eldest or dealer, at `seat`), ``more`` (`seat`'s cards from run `run`),
    ``bunch`` (the vote), ``discard`` (`seat`), ``card`` (`seat` to play), ``redeal`` (the deal is void:
    `role` is the reason) or ``over`` (the deal is played out, or the match won); `text` says it in words."""

    kind: str
    text: str
    seat: int | None = None
    role: str | None = None
    run: int = 0

    @property
    def decision(self) -> bool:
        """A bid or a card: what a hint answers."""
        return self.kind in ("bid", "card")


@dataclasses.dataclass
class Built:
    """An entry built: the `line` (with ``score_after`` and ``winner`` once the deal is over), what is `due`,
    the plays walked (None before trick play), trump (None before it is fixed), the points so far and the
    score by side."""

    line: dict[str, Any]
    due: Due
    walk: PlayWalk | None
    trump: int | None
    points: list[tuple[int, int, str]]
    score: list[int]
    winner: int | None
    hand_size: int = 0      # cards each seat plays (0 before trick play)
    new_points: int = 0     # how many of `points` this deal scored (the rest: void deals before it)

    @property
    def finished(self) -> bool:
        """The line is complete: the deal played out, or the match won (or the deal void: see due.kind)."""
        return self.due.kind == "over"


class _Stop(Exception):
    def __init__(self, due: Due):
        super().__init__(due.text)
        self.due = due


class _Builder:
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
        except _Stop:
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
            raise _Stop(Due("over", f"side {side} reaches the target {self.r.target} ({n} for {why}): the match "
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

    # the deal, step by step

    def run(self) -> Due:
        try:
            self.deal()
        except _Stop as stop:
            return stop.due
        raise AssertionError("the build ended without saying what is due")

    def deal(self) -> None:
        e, r, n = self.e, self.r, self.n
        for s in e.known:
            if len(e.hands.get(s, [])) < HAND_SIZE:
                raise _Stop(Due("hand", f"seat {s}'s hand (six cards) is missing", seat=s))
        for s in e.known:
            for c in e.hands[s][:HAND_SIZE]:
                self.place(c, f"seat {s}'s hand")
                self.owner[c] = s
            self.dealt[s] = HAND_SIZE
        self.events.append({"event": "deal", "hands": [
            names(e.hands[s][:HAND_SIZE]) if s in e.known else [HIDDEN] * HAND_SIZE for s in range(n)]})
        turnup = first = self.turnup(0)
        trump = suit_of(first)
        bid = self.bid(ASKED["eldest"], "eldest", self.eldest)
        if bid == "beg":
            answer = self.bid(ASKED["dealer"], "dealer", e.dealer)
            if answer == "give":
                self.award(self.eside, r.gift, "gift")
            else:
                turnup = self.run_cards(trump)
                trump = suit_of(turnup)
                if r.bunching:
                    if e.bunch is None:
                        raise _Stop(Due("bunch", "the bunching vote is due (do all four agree to bunch?)"))
                    self.events.append({"event": "bunch", "agreed": bool(e.bunch)})
                    if e.bunch:
                        self.events.append({"event": "redeal", "reason": BUNCHED})
                        raise _Stop(Due("redeal", "all four agreed to bunch: the same dealer deals again",
                                        role=BUNCHED))
        self.trump = trump
        self.events.append({"event": "trump", "suit": SUITS[trump]})
        if r.kick == "final-jack" and rank_of(turnup) == RANK_JACK:
            self.award(self.dside, 1, "jack-bonus")
        hands = {s: list(e.hands[s][:self.dealt[s]]) for s in e.known}
        if r.discard:
            self.discards(hands)
        self.play(hands)

    def turnup(self, k: int) -> int:
        e = self.e
        if len(e.turnups) <= k:
            text = "the turn-up is missing" if k == 0 else f"the turn-up after run {k} is missing"
            raise _Stop(Due("turnup", text, run=k))
        card = e.turnups[k]
        self.place(card, "the turn-up" if k == 0 else f"the turn-up after run {k}")
        self.turned.add(card)
        self.turnups_used = k + 1
        self.events.append({"event": "turnup", "card": card_name(card)})
        self.award(self.dside, kick_points(KICKS.index(self.r.kick), card), "kick")
        return card

    def bid(self, options: tuple[str, ...], role: str, seat: int) -> str:
        e = self.e
        k = self.bids_used
        if len(e.bids) <= k:
            what = " or ".join(options)
            raise _Stop(Due("bid", f"the {role} (seat {seat}) is to {what}", seat=seat, role=role))
        bid = e.bids[k]
        if bid not in options:
            raise EntryError(f"the {role} (seat {seat}) may {' or '.join(options)} here, not {bid!r}")
        self.bids_used = k + 1
        self.events.append({"event": bid, "seat": seat})
        return bid

    def run_cards(self, trump: int) -> int:
        """The runs after a beg, until a turn-up of another suit; the turn-up that fixes trump."""
        e, n, rc = self.e, self.n, self.r.run_cards
        k = 0
        while True:
            k += 1
            used = HAND_SIZE * n + 1 + (k - 1) * (rc * n + 1)
            if 52 - used < rc * n + 1:
                self.events.append({"event": "redeal", "reason": EXHAUSTED})
                raise _Stop(Due("redeal", f"the pack is exhausted after {k - 1} runs ({52 - used} left, a run "
                                          f"needs {rc * n + 1} cards): the deal is void and the same dealer deals again",
                                role=EXHAUSTED))
            need = HAND_SIZE + rc * k
            for s in e.known:
                if len(e.hands[s]) < need:
                    raise _Stop(Due("more", f"seat {s}'s {rc} cards from run {k} are missing", seat=s, run=k))
            for s in e.known:
                for c in e.hands[s][need - rc:need]:
                    self.place(c, f"seat {s}'s cards from run {k}")
                    self.owner[c] = s
                self.dealt[s] = need
            self.runs = k
            self.events.append({"event": "more", "hands": [
                names(e.hands[s][need - rc:need]) if s in e.known else [HIDDEN] * rc for s in range(n)]})
            turnup = self.turnup(k)
            if suit_of(turnup) != trump:
                return turnup

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
                raise _Stop(Due("discard", f"seat {s} is to discard {size - HAND_SIZE} of its {size} cards", seat=s))
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
            raise _Stop(Due("card", f"seat {to} is to {what} (trick {walk.number})", seat=to))
        self.score_play(walk, by)
        raise _Stop(Due("over", "every card has been played: the deal is over"))

    def fits(self, walk: PlayWalk, card: int, seat: int, by: dict[int, tuple[int, int]]) -> None:
        """Some dealing of the unseen cards still gives every hidden hand its cards, each outside what the seat
        showed it does not hold (Hall's condition over the hidden seats)."""
        unseen = ALL_CARDS & ~mask_of(set(self.places) | set(by))
        hidden = [s for s in range(self.n) if s not in self.e.known]
        left = {s: self.hand_size - walk.seats.count(s) for s in hidden}
        allowed = {s: unseen & ~walk.lacks(s) for s in hidden}
        for pick in range(1, 1 << len(hidden)):
            group = [s for i, s in enumerate(hidden) if pick >> i & 1]
            room = 0
            for s in group:
                room |= allowed[s]
            need = sum(left[s] for s in group)
            if bin(room).count("1") < need:
                who = " and ".join(f"seat {s}" for s in group)
                they = "it" if len(group) == 1 else "they"
                raise EntryError(f"seat {seat} plays {card_name(card)}: then no dealing of the unseen cards fits the "
                                 f"plays: {who} must still hold {need} cards, and only {bin(room).count('1')} unseen "
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

    def leftovers(self, due: Due) -> None:
        """Nothing given beyond where the entry stops."""
        e, r = self.e, self.r
        if due.kind in ("hand", "more"):
            return
        if due.kind in ("over", "redeal") and self.walk is None:
            given = [what for what, extra in (
                ("a turn-up", len(e.turnups) > self.turnups_used), ("a bid", len(e.bids) > self.bids_used),
                ("a discard", any(s not in self.discards_used for s in e.discards)), ("a card played", e.played),
                ("a card of the hand", any(len(e.hands.get(s, [])) > self.dealt[s] for s in e.known))) if extra]
            if given:
                raise EntryError(f"{due.text}: nothing follows, but {given[0]} is given")
        if len(e.turnups) > self.turnups_used:
            extra = card_name(e.turnups[self.turnups_used])
            if self.turnups_used == 1 and not self.runs:
                why = "the cards were not run (--bids beg,run): one turn-up"
            elif due.kind == "redeal":
                why = due.text
            elif self.trump is not None or due.kind in ("bunch", "discard", "card", "over"):
                why = f"the turn-up after run {self.runs} fixed trump (a new suit): nothing is turned after it"
            else:
                why = due.text
            raise EntryError(f"turn-up {extra} is one too many: {why}")
        for s in e.known:
            count, used = len(e.hands.get(s, [])), self.dealt[s]
            if count > used:
                how = "no run" if not self.runs else f"6 + {r.run_cards} per run, {self.runs} run" + (
                    "s" if self.runs > 1 else "")
                raise EntryError(f"seat {s}'s hand has {count} cards, but {used} are dealt ({how})")
        if len(e.bids) > self.bids_used:
            last = e.bids[self.bids_used - 1] if self.bids_used else None
            why = f"nothing is bid after {last!r}" if last in BID_EVENTS and last != ELDEST.option1 else due.text
            raise EntryError(f"bid {e.bids[self.bids_used]!r} is one too many: {why}")
        for s in sorted(e.discards):
            if s not in self.discards_used:
                if not r.discard:
                    why = f"the rules ({r.preset}) do not discard: every card is played"
                elif s not in e.known:
                    why = f"the line is seat {e.seat}'s view: other seats' discards are unseen"
                elif self.trump is not None and not self.runs:
                    why = "no cards were run: every seat holds six"
                else:
                    why = due.text
                raise EntryError(f"seat {s}'s discard is given, but {why}")
        if e.played and self.walk is None:
            raise EntryError(f"cards are played, but {due.text}")

    def built(self, due: Due) -> Built:
        e = self.e
        line: dict[str, Any] = {"format": FORMAT, "rules": self.r.as_log_dict(), "dealer": e.dealer,
                                "score_before": list(e.score_before), "events": self.events}
        winner = self.scorer.verdict.winner
        if due.kind == "over":
            line["score_after"] = list(self.scorer.score)
            line["winner"] = winner
        return Built(line, due, self.walk, self.trump, list(self.scorer.verdict.points), list(self.scorer.score),
                     winner, self.hand_size, len(self.scorer.verdict.points) - self.earlier_points)


def build(entry: Entry) -> Built:
    """The line `entry` gives and what is due next; an `EntryError` for anything that cannot be."""
    builder = _Builder(entry)
    due = builder.run()
    builder.leftovers(due)
    return builder.built(due)


# --- the one-line form -------------------------------------------------------------------------------------------


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


BID_WORDS = {"stand": "stand", "s": "stand", "beg": "beg", "b": "beg", "give": "give", "g": "give", "run": "run",
             "r": "run"}
BID_FORMS = (*ELDEST.options, *(f"{ELDEST.option1},{answer}" for answer in ASKED["dealer"]))


def read_bids(text: str | None) -> list[str]:
    """``stand``, ``beg``, ``beg,give`` or ``beg,run`` (the eldest's bid, then the dealer's answer)."""
    if text is None or not text.strip():
        return []
    words = text.replace(",", " ").lower().split()
    bids = [BID_WORDS.get(w, w) for w in words]
    if ",".join(bids) not in BID_FORMS:
        raise EntryError(f"--bids {text!r}: give one of {', '.join(BID_FORMS[:-1])} or {BID_FORMS[-1]} (the eldest's "
                         "bid, then the dealer's answer to a beg)")
    return bids


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
    from ..analysis.bidding.strategy import parse_side_score

    try:
        return side_scores(rules, dealer, parse_side_score(text, rules))
    except AllFoursError as err:
        raise EntryError(str(err)) from None


def check_seat(rules: RuleSet, seat: int, option: str) -> None:
    n = rules.players
    if not 0 <= seat < n:
        raise EntryError(f"{option} {seat}: the rules have seats 0 to {n - 1} ({n} players)")


def entry_line(rules: RuleSet, dealer: int, seat: int, hand: str | Sequence[str], turnups: Sequence[str] | str,
               bids: str | None = None, played: str | Sequence[str] | None = None, score: str | None = None,
               discard: str | Sequence[str] | None = None) -> tuple[dict[str, Any], int]:
    """The one-line form: seat `seat`'s view of the deal up to the decision due now, and that seat.

    `hand` holds every card the seat was dealt (with runs, the run's cards too: the first six in ``deal``, then
    ``run_cards`` per run in ``more``); `turnups` every turn-up, in order (more than one only after a run);
    `bids` as `read_bids`; `played` every card played so far, from the first lead; `score` eldest's side first;
    `discard` the seat's own discards (rules that discard down to six after a run). The decision due must be
    the seat's own bid or card.
    """
    check_seat(rules, dealer, "--dealer")
    check_seat(rules, seat, "--seat")
    cards = read_cards(hand, "--hand")
    ups = read_cards([turnups] if isinstance(turnups, str) else list(turnups), "--turnup")
    bid_list = read_bids(bids)
    plays = read_cards(played, "--played")
    gone = read_cards(discard, "--discard") if discard is not None else None
    score_before = read_score(rules, dealer, score)
    if not ups:
        raise EntryError("--turnup: give the turn-up")
    ran = bid_list[-1:] == ["run"]
    if ran and len(ups) == 1:
        raise EntryError("--bids beg,run: give the turn-up after the run too (repeat --turnup: the first one, then "
                         "each one after a run)")
    if not ran and len(ups) > 1:
        raise EntryError(f"{len(ups)} turn-ups, but the cards were not run: one --turnup unless --bids beg,run")
    runs = len(ups) - 1
    rc = rules.run_cards
    want = HAND_SIZE + rc * runs
    if len(cards) != want:
        how = "six are dealt" if not runs else f"seat {seat} was dealt {want}: 6 + {rc} for " + (
            "the run" if runs == 1 else f"each of the {runs} runs")
        raise EntryError(f"--hand has {len(cards)} cards, but {how} (--hand holds every card the seat was dealt)")
    entry = Entry(rules, dealer, score_before, seat=seat, hands={seat: cards}, turnups=ups, bids=bid_list,
                  bunch=False if rules.bunching else None, discards={} if gone is None else {seat: gone},
                  played=plays)
    built = build(entry)
    due = built.due
    if due.kind in ("turnup", "more"):
        last = ups[-1]
        raise EntryError(f"turn-up {card_name(last)} is a {SUIT_WORDS[suit_of(last)]} again, so the cards are run "
                         "again: give the next turn-up (--turnup) and the run's cards in --hand")
    if due.kind == "discard":
        raise EntryError(f"{due.text} before play: give them with --discard")
    if not due.decision:
        raise EntryError(f"no decision is due: {due.text}")
    if due.seat != seat:
        if due.kind == "card":
            raise EntryError(f"seat {due.seat} is to play, not seat {seat}")
        raise EntryError(f"seat {due.seat} (the {due.role}) is to bid, not seat {seat}")
    return built.line, seat


# --- reading a line back ---------------------------------------------------------------------------------------


def _card_or_hidden(token: Any, where: str) -> int | None:
    if token == HIDDEN:
        return None
    try:
        return parse_card(token)
    except CardError as err:
        raise EntryError(f"{where}: {err}") from None


def entry_from_line(line: Any) -> tuple[Entry, list[dict[str, Any]]]:
    """The entry a line (a full log or a seat's view, possibly stopping at a decision) was built from, and the
    line's events of its last deal (from its ``deal`` on, to compare with what the entry builds)."""
    reader = EventReader(line)  # the header: format, rules, dealer, score_before, events
    rules, n, events = reader.rules, reader.n, reader.events
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or "event" not in ev:
            raise EntryError(f"event {i}: an event must be an object with an 'event' name")
    start = max((i + 1 for i, ev in enumerate(events) if ev["event"] == "redeal"), default=0)
    earlier, current = events[:start], events[start:]
    if not current or current[0]["event"] != "deal":
        raise EntryError("the line stops before a deal: no decision is due" if not current
                         else f"event {start}: expected a deal, not {current[0]['event']!r}")
    hands: dict[int, list[int]] = {}
    seen: list[int | None] = []
    deal = current[0].get("hands")
    if not isinstance(deal, list) or len(deal) != n or not all(isinstance(h, list) for h in deal):
        raise EntryError(f"event {start}: deal must list {n} hands, one per seat")
    for s, hand in enumerate(deal):
        cards = [_card_or_hidden(t, f"event {start}, seat {s}'s hand") for t in hand]
        if all(c is not None for c in cards):
            hands[s] = [c for c in cards if c is not None]
        elif any(c is not None for c in cards):
            raise EntryError(f"event {start}: seat {s}'s hand mixes seen cards and ??: a view hides a whole hand")
        seen.append(s if s in hands else None)
    known = sorted(hands)
    if not known:
        raise EntryError(f"event {start}: every hand is hidden (??): a seat's view shows the seat's own cards")
    if len(known) not in (1, n):
        raise EntryError(f"event {start}: seats {', '.join(map(str, known))} are shown: a seat's view shows one "
                         "hand, a full log every hand")
    seat = known[0] if len(known) == 1 else None
    entry = Entry(rules, reader.dealer, list(line["score_before"]), seat=seat, hands=hands, earlier=earlier)
    for i, ev in enumerate(current[1:], start=start + 1):
        name = ev["event"]
        if name == "turnup":
            card = _card_or_hidden(ev.get("card"), f"event {i}")
            if card is None:
                raise EntryError(f"event {i}: a turn-up is seen by every seat, never ??")
            entry.turnups.append(card)
        elif name in BID_EVENTS:
            entry.bids.append(name)
        elif name == "more":
            more = ev.get("hands")
            if not isinstance(more, list) or len(more) != n:
                raise EntryError(f"event {i}: more must list {n} hands, one per seat")
            for s in known:
                if not isinstance(more[s], list):
                    raise EntryError(f"event {i}: more must list {n} hands, one per seat")
                cards = [_card_or_hidden(t, f"event {i}, seat {s}'s cards") for t in more[s]]
                if any(c is None for c in cards):
                    raise EntryError(f"event {i}: seat {s}'s own cards are hidden (??) in its view")
                hands[s].extend(c for c in cards if c is not None)
        elif name == "bunch":
            entry.bunch = bool(ev.get("agreed"))
        elif name == "discard":
            s = ev.get("seat")
            if s in known:
                cards = [_card_or_hidden(t, f"event {i}") for t in ev.get("cards") or []]
                if any(c is None for c in cards):
                    raise EntryError(f"event {i}: seat {s}'s own discard is hidden (??) in its view")
                entry.discards[s] = [c for c in cards if c is not None]
        elif name == "play":
            card = _card_or_hidden(ev.get("card"), f"event {i}")
            if card is None:
                raise EntryError(f"event {i}: a play of ??: every played card is seen by every seat")
            entry.played.append(card)
        elif name in ("points", "trick", "trump", "deal", "redeal"):
            if name == "deal":
                raise EntryError(f"event {i}: a new deal without a redeal before it")
        else:
            raise EntryError(f"event {i}: unknown event {name!r}")
    return entry, current


def _normal(ev: dict[str, Any], points: bool) -> Any:
    """An event as compared: canonical card names, hands as sets, only the fields the format names."""
    name = ev.get("event")

    def cards(tokens: Any) -> Any:
        if not isinstance(tokens, list):
            return tokens
        return sorted(t if t == HIDDEN else card_name(parse_card(t)) for t in tokens)

    if name in ("deal", "more"):
        return name, tuple(tuple(cards(h)) for h in ev.get("hands", []))
    if name == "turnup" or name == "play":
        return name, ev.get("seat"), card_name(parse_card(str(ev.get("card"))))
    if name in BID_EVENTS:
        return name, ev.get("seat")
    if name == "trump":
        try:
            return name, parse_suit(str(ev.get("suit")))
        except CardError:
            return name, ev.get("suit")
    if name == "discard":
        return name, ev.get("seat"), tuple(cards(ev.get("cards")))
    if name == "trick":
        return name, ev.get("winner")
    if name == "points":
        return (name, ev.get("side"), ev.get("n"), ev.get("why")) if points else None
    if name == "bunch":
        return name, ev.get("agreed")
    if name == "redeal":
        return name, ev.get("reason")
    return name


def check_line(line: Any) -> Built:
    """A line read back into its entry and built again: the build, after checking that the line's last deal
    says what the build says (seats, trick winners, points where the line has them)."""
    entry, current = entry_from_line(line)
    built = build(entry)
    start = len(entry.earlier)
    ours = built.line["events"][start:]
    points = any(ev["event"] == "points" for ev in line["events"])
    theirs_n = [(start + i, x) for i, x in enumerate(_normal(ev, points) for ev in current) if x is not None]
    ours_n = [x for x in (_normal(ev, points) for ev in ours) if x is not None]
    for (at, a), b in zip(theirs_n, ours_n):
        if a != b:
            raise EntryError(f"event {at}: the line has {a}, the rules give {b}")
    if len(theirs_n) > len(ours_n):
        at, a = theirs_n[len(ours_n)]
        raise EntryError(f"event {at}: the line goes on where the entry stops ({built.due.text}): {a}")
    extra = ours_n[len(theirs_n):]
    if extra and built.due.kind == "card" and extra[-1][0] == "trick":
        extra = extra[:-1]  # a line may stop before the trick event of its last full trick
    if built.due.kind == "over" and all(x[0] in ("trick", "points") for x in extra):
        extra = []  # a deal played out: the build says so
    if extra:
        raise EntryError(f"the line stops where no decision is due: next comes {extra[0][0]!r}")
    return built


def decision_due(line: Any) -> tuple[str, str | int]:
    """The decision a line (a full log or a seat's view) stops at: ``("bid", "eldest" | "dealer")`` or
    ``("card", seat)``; an `EntryError` when none is due (the deal over, the match won, a run still to turn)."""
    built = check_line(line)
    due = built.due
    if not due.decision:
        raise EntryError(f"the line stops where no decision is due: {due.text}")
    return ("bid", due.role) if due.kind == "bid" else ("card", due.seat)  # type: ignore[return-value]


# --- writing -----------------------------------------------------------------------------------------------------


def check_appendable(path: str | Path) -> Path:
    """`path` can take appended lines (a file, or a new file in a folder that exists); nothing is created."""
    p = Path(path)
    if p.is_dir():
        raise EntryError(f"{p} is a folder, not a file: give a file to append the deal to")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise EntryError(f"cannot write {p}: permission denied")
        return p
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise EntryError(f"cannot write {p}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise EntryError(f"cannot write {p}: permission denied in {folder}")
    return p


def append_line(path: str | Path, line: dict[str, Any]) -> None:
    """Append one line to a log file (created if missing), in one write, after a newline if the file lacks
    its last one; never overwrites. A folder or an unwritable path is an `EntryError`."""
    p = check_appendable(path)
    text = dumps(line) + "\n"
    try:
        with open(p, "a+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    text = "\n" + text
            handle.write(text.encode("utf-8"))
    except OSError as err:
        raise EntryError(f"cannot write {p}: {err.strerror or err}") from None
