"""The engine's side of ``allfours play``: the cards, dealt as the engine deals a match, and the computer's seats,
played by the engine's own players one decision at a time.

`Shoe` is the pack of one match as ``engine.matches.play_match_in`` deals it: a cut for the first dealer from
the card stream, then for every dealer's turn a stream of its own (``substream``) and a fresh deck, drawn card
by card with ``engine.deal.draw`` in the order ``play_line_in`` draws them (six to each seat from the eldest,
the turn-up, then each run's cards from the eldest and its turn-up; a redeal reshuffles the same deck).

`Computer` makes the computer seats' decisions with the kernels ``play_line_in`` and the trick loop call:
``decide_beg``, ``decide_give``, ``decide_bunch``, ``choose_discard`` and ``choose_card``, on the choice stream,
in the order the engine calls them. A card is chosen on the true play state, as in the engine: the players read
only their own hand there and what every seat has seen (``engine/heuristic.py``; ``pimc`` deals the cards its
seat has not seen into sampled worlds, ``engine/search.py``); the order of play and the bidding are recorded in
the play buffer (``record_play``, ``record_bid``) for pimc to infer from, as the trick loop records them. With
every seat a computer seat, a match played through these two is the engine's ``play_match`` (tests).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from ..engine.bits import rand_below, rng_state
from ..engine.deal import HAND_SIZE, SHUFFLED, draw
from ..engine.layout import PS_TO_PLAY
from ..engine.matches import substream
from ..engine.policies import choose_card, choose_discard, decide_beg, decide_bunch, decide_give
from ..engine.search import BID_GIVEN, BID_STOOD, BID_UNKNOWN, new_play_buffer, needs_search, record_bid, record_play
from ..engine.search import start_history
from ..engine.state import apply, init_state, legal, set_out_of_play
from ..players.policy import parse_policy
from ..game.rules import RuleSet

OPPONENTS = ("pimc", "heuristic")


def streams(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The match's card stream and choice stream: ``SeedSequence(seed).spawn(2)``."""
    cards, choices = np.random.SeedSequence(seed).spawn(2)
    return rng_state(cards), rng_state(choices)


def mask(cards: Iterable[int]) -> np.uint64:
    m = 0
    for c in cards:
        m |= 1 << c
    return np.uint64(m)


def cards_in(m: int) -> list[int]:
    return [c for c in range(52) if int(m) >> c & 1]


class Shoe:
    """The pack of one match, dealt as the engine deals it (module docstring)."""

    def __init__(self, deck_rng: np.ndarray):
        self.deck_rng = deck_rng
        self.line_rng = np.zeros(4, dtype=np.uint64)
        self.deck = np.arange(52, dtype=np.int64)
        self.pos = 0

    def cut(self, players: int) -> int:
        """The first dealer."""
        return int(rand_below(self.deck_rng, players))

    def new_line(self) -> None:
        """A dealer's turn: its own card stream and a fresh deck."""
        substream(self.deck_rng, self.line_rng)
        self.deck[:] = np.arange(52, dtype=np.int64)
        self.pos = 0

    def redeal(self) -> None:
        """The same dealer deals again: the deck is shuffled again as it is dealt."""
        self.pos = 0

    def next(self) -> int:
        card = int(draw(self.deck, self.pos, SHUFFLED, self.line_rng))
        self.pos += 1
        return card

    def hands(self, players: int, eldest: int, count: int = HAND_SIZE) -> dict[int, list[int]]:
        """`count` cards to every seat, the eldest's first."""
        out: dict[int, list[int]] = {}
        for k in range(players):
            out[(eldest + k) % players] = [self.next() for _ in range(count)]
        return out


class Computer:
    """The computer seats' players (`spec`: a policy, ``pimc`` or ``heuristic``) and the play state they see."""

    def __init__(self, rules: RuleSet, spec: str, choice_rng: np.ndarray, human: int | None = None):
        self.rules = rules
        self.rules_array = rules.as_array()
        kind, row = parse_policy(spec)
        self.kinds = np.full(4, kind, dtype=np.int64)
        self.params = np.tile(row, (4, 1))
        self.rng = choice_rng
        self.human = human
        self.state = new_play_buffer(bool(needs_search(self.kinds)))

    def scores(self, score: list[int]) -> np.ndarray:
        out = np.zeros(4, dtype=np.int64)
        out[:len(score)] = score
        return out

    # before play

    def beg(self, seat: int, hand: list[int], turnup: int, dealer: int, score: list[int]) -> bool:
        return bool(decide_beg(self.kinds[seat], self.params[seat], mask(hand), turnup, seat, dealer,
                               self.scores(score), self.rules_array, self.rng))

    def give(self, seat: int, hand: list[int], turnup: int, dealer: int, score: list[int]) -> bool:
        return bool(decide_give(self.kinds[seat], self.params[seat], mask(hand), turnup, seat, dealer,
                                self.scores(score), self.rules_array, self.rng))

    def bunch(self, seat: int, hand: list[int], trump: int, dealer: int, score: list[int]) -> bool:
        return bool(decide_bunch(self.kinds[seat], self.params[seat], mask(hand), trump, seat, dealer,
                                 self.scores(score), self.rules_array, self.rng))

    def discard(self, seat: int, hand: list[int], trump: int) -> list[int]:
        return cards_in(choose_discard(self.kinds[seat], self.params[seat], mask(hand), trump, HAND_SIZE, self.rng))

    def note_bids(self, bids: list[str], turnup: int, score: list[int]) -> None:
        """What pimc may infer from the bidding of the deal to be played (as play_line_in records it)."""
        bid = BID_STOOD if bids == ["stand"] else BID_GIVEN if bids == ["beg", "give"] else BID_UNKNOWN
        record_bid(self.state, bid, turnup, self.scores(score))

    # trick play

    def start_play(self, hands: dict[int, list[int]], trump: int, turnup: int, dealer: int, score: list[int],
                   turnups: list[int], discards: dict[int, list[int]]) -> None:
        """The play state as the eldest leads: `hands` after the discards; what each seat knows is out of play."""
        held = np.zeros(4, dtype=np.uint64)
        gone = np.zeros(4, dtype=np.uint64)
        for s, cards in hands.items():
            held[s] = mask(cards)
        for s, cards in discards.items():
            gone[s] = mask(cards)
        init_state(self.state, self.rules_array, held, trump, turnup, dealer, self.scores(score))
        set_out_of_play(self.state, mask(turnups), gone)
        start_history(self.state)

    def card(self, seat: int) -> int:
        """The card computer seat `seat` plays now (it must be its turn)."""
        if int(self.state[PS_TO_PLAY]) != seat:
            raise AssertionError(f"seat {seat} is not to play")
        return int(choose_card(self.kinds[seat], self.params[seat], self.state, legal(self.state), self.rules_array,
                               self.rng))

    def play(self, card: int) -> None:
        """Whoever is to play plays `card` (checked by the caller)."""
        record_play(self.state, card)
        apply(self.state, card)


__all__ = ["Computer", "OPPONENTS", "Shoe", "streams"]
