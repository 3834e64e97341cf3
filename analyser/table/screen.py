"""What ``allfours play`` shows: seats, scores, cards and hands in a player's words, in colour at a terminal.

`Style` colours text only when asked to (a terminal, and no ``NO_COLOR``); through a pipe every piece is plain
text. `Names` says the seats and sides from the player's chair: ``you``, ``seat 2 (partner)``, ``your side``.
The pieces of the table (`hand_line`, `trick_text`, `score_text`) are put together by ``play.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game.cards import SUIT_SYMBOLS, rank_of, suit_of
from ..record.deal_account import WHY_WORDS
from ..game.rules import RuleSet
from .entry import Trick
from .hint import pretty
from ..record.seats import seating_text, side_scores

RED_SUITS = (1, 2)  # hearts, diamonds


class Style:
    """ANSI colours when `colour`, else the text as it is."""

    def __init__(self, colour: bool = False):
        self.colour = colour

    def _wrap(self, code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.colour else text

    def bold(self, text: str) -> str:
        return self._wrap("1", text)

    def dim(self, text: str) -> str:
        return self._wrap("2", text)

    def head(self, text: str) -> str:
        return self._wrap("1;36", text)

    def coach(self, text: str) -> str:
        return self._wrap("33", text)

    def refuse(self, text: str) -> str:
        return self._wrap("31", text)

    def card(self, card: int, dim: bool = False) -> str:
        text = pretty(card)
        if not self.colour:
            return text
        code = "31" if suit_of(card) in RED_SUITS else "39"
        return self._wrap(("2;" if dim else "1;") + code, text)

    def suit(self, suit: int) -> str:
        text = SUIT_SYMBOLS[suit]
        return self._wrap("1;31", text) if suit in RED_SUITS and self.colour else text


def sorted_hand(cards: Sequence[int]) -> list[int]:
    """A hand as it is shown: by suit (♠ ♥ ♦ ♣), high card first."""
    return sorted(cards, key=lambda c: (suit_of(c), -rank_of(c)))


class Names:
    """Seats and sides as the player at seat `me` says them."""

    def __init__(self, rules: RuleSet, me: int):
        self.rules = rules
        self.me = me
        self.n = rules.players

    def seat(self, s: int) -> str:
        if s == self.me:
            return "you"
        if self.n == 4 and s == (self.me + 2) % 4:
            return f"seat {s} (partner)"
        return f"seat {s}"

    def Seat(self, s: int) -> str:  # noqa: N802  (the same, at the start of a sentence)
        text = self.seat(s)
        return text[0].upper() + text[1:]

    def does(self, s: int, third: str, plain: str) -> str:
        """``seat 1 begs`` or ``you beg``: the verb in the third person, or plain for the player."""
        return f"you {plain}" if s == self.me else f"{self.seat(s)} {third}"

    def side(self, side: int) -> str:
        if self.n != 4:
            return self.seat(side)
        return "your side" if side == self.rules.side_of(self.me) else "the other side"

    def scores(self, side: int) -> str:
        """``your side scores`` / ``you score`` / ``seat 1 scores``."""
        if self.n != 4 and side == self.me:
            return "you score"
        return f"{self.side(side)} scores"


def score_text(names: Names, score: Sequence[int]) -> str:
    """``your side 4, the other side 6 (to 14)``; without partners, your score first."""
    rules = names.rules
    order = sorted(range(rules.sides), key=lambda s: (s != rules.side_of(names.me), s))
    return ", ".join(f"{names.side(s)} {score[s]}" for s in order) + f" (to {rules.target})"


def hand_line(style: Style, hand: Sequence[int], playable: int | None = None) -> str:
    """The hand numbered as the player may answer it, a gap between suits; cards that may not be played now
    (outside the mask `playable`) dimmed at a terminal."""
    parts: list[str] = []
    last = -1
    for k, card in enumerate(hand, start=1):
        gap = "   " if parts and suit_of(card) != last else (" " if parts else "")
        dim = playable is not None and not (playable >> card & 1)
        parts.append(f"{gap}{k} {style.card(card, dim)}")
        last = suit_of(card)
    return "".join(parts) if parts else "no cards"


def trick_text(style: Style, names: Names, trick: Trick) -> str:
    """``seat 1 9♠, seat 2 (partner) Q♠, you 3♠``: who played what, in order."""
    return ", ".join(f"{names.seat(trick.seat(k, names.n))} {style.card(c)}" for k, c in enumerate(trick.cards))


def upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def why_word(why: str) -> str:
    """``High``, ``Hang jack``, ``Kick``: a reason for points as a heading."""
    return upper(WHY_WORDS[why])


__all__ = ["Names", "Style", "hand_line", "score_text", "seating_text", "side_scores", "sorted_hand", "trick_text", "upper",
           "why_word"]
