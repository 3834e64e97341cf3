"""Trick play: whose turn it is, which cards are legal, who wins each trick, what each side captures."""

from __future__ import annotations

import numpy as np

from ..game.cards import SUIT_WORDS, SUITS, card_name, suit_of
from ..engine.deal import legal_mask, trick_winner
from .reading import LogError, card_mask
from .scoring import Scoring


class PlayPhase(Scoring):
    def play_phase(self, hands: list[set[int]], trump: int) -> None:
        """Referee every trick from the first lead (`hands` as play starts), then score High, Low, Jack, Game."""
        r, n = self.rules, self.n
        side = r.side_of
        sizes = {len(h) for h in hands}
        if len(sizes) != 1:
            raise LogError(self.pos, f"hands must be equal before play, not of sizes {sorted(sizes)}")
        holder = self.start_play(hands, trump)
        jack = trump * 13 + 9
        captured = [0] * r.sides
        jack_captor = -1
        leader = self.eldest
        forbid = r.undertrump == "forbidden"
        void_trump = r.void_play == "trump"
        for _ in range(sizes.pop()):
            trick: list[int] = []
            top_trump = -1
            for k in range(n):
                seat = (leader + k) % n
                self.turn(seat)
                event = self.take("play")
                played_by = self.seat_of(event)
                if played_by != seat:
                    raise LogError(self.pos - 1, f"play by seat {played_by} out of turn: seat {seat} is to play")
                card = self.card(event.get("card"))
                led = suit_of(trick[0]) if trick else -1
                self.check_play(seat, card, hands, led, trump, top_trump, forbid, void_trump)
                holder[card] = seat
                trick.append(card)
                if suit_of(card) == trump:
                    top_trump = max(top_trump, card)
            winner = (leader + trick_winner(np.array(trick, dtype=np.int64), trump)) % n
            self.turn(winner)
            event = self.take("trick")
            if event.get("winner") != winner:
                raise LogError(self.pos - 1, f"wrong trick winner: log says {event.get('winner')}, seat {winner} wins")
            captured[side(winner)] |= card_mask(set(trick))
            if jack in trick:
                jack_captor = side(winner)
            leader = winner
        self.turn(None)
        # Every card in play has been played by the end: the trumps in play are the trumps of the holders.
        in_play = {c for c in holder if suit_of(c) == trump}
        self.score_play(holder, in_play, jack, jack_captor, captured)

    # --- hooks: a seat's view (views.py) sees only its own hand --------------------------------------------

    def start_play(self, hands: list[set[int]], trump: int) -> dict[int, int]:
        """Play starts: the holder of every card known to be held (here, every card of every hand)."""
        return {c: s for s, h in enumerate(hands) for c in h}

    def turn(self, seat: int | None) -> None:
        """`seat` is to play next (None: the deal is played out)."""

    def check_play(self, seat: int, card: int, hands: list[set[int]], led: int, trump: int, top_trump: int,
                   forbid: bool, void_trump: bool) -> None:
        """`seat` plays `card` from `hands[seat]`: held and legal, or a LogError naming why not; then it is gone."""
        hand = hands[seat]
        if card not in hand:
            raise LogError(self.pos - 1, f"seat {seat} plays {card_name(card)}, which it does not hold")
        legal = int(legal_mask(np.uint64(card_mask(hand)), led, trump, top_trump, forbid, void_trump))
        if not legal >> card & 1:
            raise LogError(self.pos - 1, illegal_reason(seat, card, hand, led, trump, top_trump))
        hand.remove(card)


def illegal_reason(seat: int, card: int, hand: set[int], led: int, trump: int, top_trump: int) -> str:
    """Why `card` (known to be illegal) may not be played by `seat` holding `hand`."""
    name = card_name(card)
    if led == trump:
        return f"illegal play: seat {seat} plays {name} on a trump lead while holding trump"
    if suit_of(card) not in (led, trump) and any(suit_of(c) == led for c in hand):
        return f"illegal play: seat {seat} plays {name} holding {SUITS[led]}: must follow suit or trump"
    if suit_of(card) != trump and not any(suit_of(c) == led for c in hand):
        held = " ".join(card_name(c) for c in sorted(hand, reverse=True) if suit_of(c) == trump)
        return (f"illegal play: seat {seat} must trump: holds {held}, no {SUIT_WORDS[led]} "
                f"(void_play=trump)")
    return f"illegal play: seat {seat} undertrumps with {name} below {card_name(top_trump)}"
