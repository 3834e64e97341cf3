"""The player's answers in ``allfours play``, read and checked: a card, a bid, a bunching vote, the discards.

Each reader takes the answer's text and gives the choice, or raises `PlayError` saying, in a player's words,
why the answer does not fit (the game asks again). A card is any spelling ``hint`` and ``record`` read
(``10h``, ``th``, ``t♥``, ``♥10``: `entry.read_card`) or its number in the hand as shown.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..game.cards import SUIT_SYMBOLS, CardError, suit_of
from .entry import EntryError, PlayWalk, read_card
from .hint import pretty
from ..record.vocabulary import ASKED

BIDS = ASKED


class PlayError(EntryError):
    """An answer refused: it is asked again."""


def one_card(token: str, hand: Sequence[int]) -> int:
    """A card of `hand` by its spelling or its number (from 1) in `hand`."""
    if token.isdigit():
        k = int(token)
        if not 1 <= k <= len(hand):
            raise PlayError(f"there is no card {k}: your hand holds {len(hand)}")
        return hand[k - 1]
    try:
        card = read_card(token)
    except CardError:
        raise PlayError(f"{token!r} is not a card: give one such as 10h, th or t♥, or its number 1 to "
                        f"{len(hand)}") from None
    if card not in hand:
        raise PlayError(f"{pretty(card)} is not in your hand")
    return card


def illegal_words(walk: PlayWalk, hand: set[int], card: int) -> str | None:
    """Why the player may not play `card` from `hand` now, in a player's words; None when they may."""
    if walk.legal(hand) >> card & 1:
        return None
    led, trump = walk.led, walk.trump
    if led == trump:
        return f"trumps ({SUIT_SYMBOLS[trump]}) were led and you hold trump: play a trump"
    holds_led = any(suit_of(c) == led for c in hand)
    if suit_of(card) not in (led, trump) and holds_led:
        return f"you must follow {SUIT_SYMBOLS[led]} or trump"
    if suit_of(card) != trump and not holds_led:
        return f"you have no {SUIT_SYMBOLS[led]}, so you must trump (void_play=trump)"
    return (f"you may not undertrump {pretty(walk.top_trump)} while you hold a card of another suit "
            "(undertrump=forbidden)")


def card_reader(hand: Sequence[int], walk: PlayWalk) -> Callable[[str], int]:
    """A card the player may play now from `hand`."""
    def read(text: str) -> int:
        card = one_card(text, hand)
        why = illegal_words(walk, set(hand), card)
        if why:
            raise PlayError(why)
        return card
    return read


def bid_reader(role: str) -> Callable[[str], str]:
    """The eldest's stand or beg, the dealer's give or run (a word or its first letter)."""
    options = BIDS[role]

    def read(text: str) -> str:
        word = text.lower()
        for o in options:
            if word in (o, o[0]):
                return o
        other = next(r for r in BIDS if r != role)
        if word in BIDS[other] or word in [o[0] for o in BIDS[other]]:
            raise PlayError(f"you are the {role}: {options[0]} or {options[1]} ({' and '.join(BIDS[other])} are "
                            f"the {other}'s)")
        raise PlayError(f"{text!r}: answer {options[0]} or {options[1]} ({options[0][0]} or {options[1][0]})")
    return read


def read_vote(text: str) -> bool:
    """Yes or no to bunching."""
    word = text.lower()
    if word in ("y", "yes", "n", "no"):
        return word.startswith("y")
    raise PlayError(f"{text!r}: answer y (bunch: the same dealer deals again) or n (play this deal)")


def discard_reader(hand: Sequence[int], count: int) -> Callable[[str], list[int]]:
    """`count` different cards of `hand` (spellings or numbers, spaces or commas between them)."""
    def read(text: str) -> list[int]:
        picked: list[int] = []
        for token in text.replace(",", " ").split():
            card = one_card(token, hand)
            if card in picked:
                raise PlayError(f"{pretty(card)} is given twice")
            picked.append(card)
        if len(picked) != count:
            raise PlayError(f"discard {count} cards, not {len(picked)}")
        return picked
    return read


__all__ = ["PlayError", "bid_reader", "card_reader", "discard_reader", "illegal_words", "one_card", "read_vote"]
