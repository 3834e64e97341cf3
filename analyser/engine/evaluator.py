"""Hand evaluator: the facts of a hand for a given trump suit, and its hand class.

The same features serve every seat (eldest, dealer, partners): they describe only
the cards held and the trump suit. Ranks are rank indices, 0 = 2 .. 12 = A.

Features (``F_*`` in layout.py): trumps held, highest and lowest trump held,
jack / ace / ten of trump held, Game points in the hand, the longest side suit's
length and top card (ties go to the suit with the higher top card), side tens.

Hand class (``F_CLASS``): a small code for strategy tables, one value per class
per preset. It keeps what decides High, Low and Jack and how much trump there is:

* ``T0``: no trump;
* ``T1`` .. ``T3``, ``T4+``: that many trumps, followed by the flags held among
  ``A`` (ace of trump), ``J`` (jack of trump) and ``lo`` (a low trump: 2, 3, 4 or 5).

So ``T3:A,J,lo`` is three trumps with the ace, the jack and a low one, and ``T2``
is two middling trumps. The code is ``1 + 8 * (min(trumps, 4) - 1) + 4 A + 2 J + lo``
(0 for ``T0``): 33 codes, 28 of them possible (one trump carries at most one flag,
two trumps at most two). ``class_code`` makes a code, ``decode_class`` is the one
place that takes one apart.

>>> hand_class(["AS", "JS", "3S", "KH", "9D", "2C"], "S")
'T3:A,J,lo'
>>> hand_features("TS 7S KH QH 4H 9D", "S")["side_len"]
3
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numba import njit

from .bits import (
    RANK_ACE, RANK_JACK, RANK_MASKS, RANK_TEN, SUIT_BITS, U1, game_points, highest_card, lowest_card, popcount,
    suit_mask,
)
from .layout import (
    F_CLASS, F_GAME_POINTS, F_HIGH_TRUMP, F_LOW_TRUMP, F_SIDE_LEN, F_SIDE_TENS, F_SIDE_TOP, F_TRUMP_ACE, F_TRUMP_JACK,
    F_TRUMP_TEN, F_TRUMPS, N_FEATURES,
)

LOW_TRUMP_MAX_RANK = 3   # 2, 3, 4 and 5 of trump count as "lo" in the hand class
MAX_CLASS_TRUMPS = 4     # four or more trumps share a class
# Flag bits of a hand class: the ace of trump, the jack of trump, a low trump; 8 combinations.
CLASS_ACE = 4
CLASS_JACK = 2
CLASS_LOW = 1
N_CLASS_FLAGS = 8
N_HAND_CLASSES = 1 + N_CLASS_FLAGS * MAX_CLASS_TRUMPS
LOW_RANKS = np.uint64((1 << (LOW_TRUMP_MAX_RANK + 1)) - 1)


@njit(cache=True, inline="always")
def suit_ranks(hand, suit):
    """The hand's cards of one suit as a 13-bit rank mask (bit r = rank r)."""
    return (np.uint64(hand) >> np.uint64(13 * suit)) & SUIT_BITS


@njit(cache=True, _nrt=False)
def class_code(trumps, flags):
    """The hand class code of `trumps` trumps held (4 or more share one) with the flag bits `flags` (CLASS_*)."""
    if trumps == 0:
        return 0
    return 1 + N_CLASS_FLAGS * (min(trumps, MAX_CLASS_TRUMPS) - 1) + flags


@njit(cache=True, _nrt=False)
def hand_class_code(hand, trump):
    """The hand class (see the module docstring) of `hand` with `trump`."""
    t = suit_ranks(hand, trump)
    n = popcount(t)
    if n == 0:
        return 0
    ace = CLASS_ACE if t & (U1 << np.uint64(RANK_ACE)) else 0
    jack = CLASS_JACK if t & (U1 << np.uint64(RANK_JACK)) else 0
    lo = CLASS_LOW if t & LOW_RANKS else 0
    return class_code(n, ace | jack | lo)


@njit(cache=True, _nrt=False)
def trump_strength(hand, trump):
    """Trumps held, the ace and the jack of trump each counting once more."""
    t = suit_ranks(hand, trump)
    return popcount(t) + (1 if t & (U1 << np.uint64(RANK_ACE)) else 0) + (1 if t & (U1 << np.uint64(RANK_JACK)) else 0)


@njit(cache=True, _nrt=False)
def longest_side_suit(hand, trump):
    """(length, top rank) of the longest non-trump suit; ties go to the higher top card; (0, -1) if none."""
    best_len = 0
    best_top = -1
    for s in range(4):
        if s == trump:
            continue
        bits = suit_ranks(hand, s)
        if not bits:
            continue
        length = popcount(bits)
        top = highest_card(bits)
        if length > best_len or (length == best_len and top > best_top):
            best_len = length
            best_top = top
    return best_len, best_top


@njit(cache=True, _nrt=False)
def strong_side_suit(hand, trump):
    """1 if some non-trump suit has three or more cards including its ace or ten, else 0."""
    hand = np.uint64(hand)
    for s in range(4):
        if s == trump:
            continue
        bits = (hand >> np.uint64(13 * s)) & SUIT_BITS
        if popcount(bits) >= 3 and bits & ((U1 << np.uint64(RANK_ACE)) | (U1 << np.uint64(RANK_TEN))):
            return 1
    return 0


@njit(cache=True, _nrt=False)
def evaluate_hand(hand, trump, out):
    """Fill `out` (int64[N_FEATURES]) with the features of `hand` for `trump`."""
    hand = np.uint64(hand)
    t = suit_ranks(hand, trump)
    out[F_TRUMPS] = popcount(t)
    out[F_HIGH_TRUMP] = highest_card(t) if t else -1
    out[F_LOW_TRUMP] = lowest_card(t) if t else -1
    out[F_TRUMP_JACK] = 1 if t & (U1 << np.uint64(RANK_JACK)) else 0
    out[F_TRUMP_ACE] = 1 if t & (U1 << np.uint64(RANK_ACE)) else 0
    out[F_TRUMP_TEN] = 1 if t & (U1 << np.uint64(RANK_TEN)) else 0
    out[F_GAME_POINTS] = game_points(hand)
    out[F_SIDE_LEN], out[F_SIDE_TOP] = longest_side_suit(hand, trump)
    out[F_SIDE_TENS] = popcount(hand & RANK_MASKS[RANK_TEN] & ~suit_mask(trump))
    out[F_CLASS] = hand_class_code(hand, trump)


# --- Python edge ---------------------------------------------------------------

RANK_NAMES = "23456789TJQKA"


def decode_class(code: int) -> tuple[int, int]:
    """(trumps, flags) of a hand class code: trumps 0..4 (4 meaning 4 or more), the flag bits CLASS_*.

    >>> [decode_class(c) for c in (0, 1, 2, 24, 32)]
    [(0, 0), (1, 0), (1, 1), (3, 7), (4, 7)]
    >>> all(class_code(*decode_class(c)) == c for c in range(N_HAND_CLASSES))
    True
    """
    if not 0 <= code < N_HAND_CLASSES:
        raise ValueError(f"hand class code {code} out of range 0..{N_HAND_CLASSES - 1}")
    if code == 0:
        return 0, 0
    n, flags = divmod(code - 1, N_CLASS_FLAGS)
    return n + 1, flags


def class_key(code: int) -> str:
    """Readable key of a hand class code, e.g. ``T3:A,J,lo``.

    >>> [class_key(c) for c in (0, 1, 2, 24, 32)]
    ['T0', 'T1', 'T1:lo', 'T3:A,J,lo', 'T4+:A,J,lo']
    """
    trumps, flags = decode_class(code)
    if trumps == 0:
        return "T0"
    name = f"T{trumps}" + ("+" if trumps == MAX_CLASS_TRUMPS else "")
    held = [label for bit_, label in ((CLASS_ACE, "A"), (CLASS_JACK, "J"), (CLASS_LOW, "lo")) if flags & bit_]
    return name + (":" + ",".join(held) if held else "")


def possible_classes() -> list[int]:
    """The class codes a real hand can have (28 of the 33)."""
    out = [0]
    for code in range(1, N_HAND_CLASSES):
        trumps, flags = decode_class(code)
        if flags.bit_count() <= trumps:
            out.append(code)
    return out


def _mask_and_trump(cards_or_mask: int | str | Iterable[Any], trump: int | str) -> tuple[int, int]:
    from ..game.cards import parse_cards, parse_suit

    if isinstance(cards_or_mask, (int, np.integer)):
        mask = int(cards_or_mask)
        if not 0 <= mask < 1 << 52:
            raise ValueError(f"hand mask {mask:#x} has bits outside the 52 cards")
    else:
        items = list(cards_or_mask.replace(",", " ").split()) if isinstance(cards_or_mask, str) else list(cards_or_mask)
        mask = 0
        for card in (c if isinstance(c, (int, np.integer)) else parse_cards([c])[0] for c in items):
            if not 0 <= card < 52:
                raise ValueError(f"card index {card} out of range 0..51")
            mask |= 1 << int(card)
    suit = parse_suit(trump) if isinstance(trump, str) else int(trump)
    if not 0 <= suit < 4:
        raise ValueError(f"trump suit {trump!r} out of range 0..3")
    return mask, suit


def hand_features(cards_or_mask: int | str | Iterable[Any], trump: int | str) -> dict[str, Any]:
    """Features of a hand (a mask, card ints or names) for a trump suit (0..3 or ``S H D C``)."""
    mask, suit = _mask_and_trump(cards_or_mask, trump)
    out = np.zeros(N_FEATURES, dtype=np.int64)
    evaluate_hand(np.uint64(mask), suit, out)

    def rank(value: int) -> str | None:
        return None if value < 0 else RANK_NAMES[value]

    return {
        "trumps": int(out[F_TRUMPS]),
        "high_trump": rank(int(out[F_HIGH_TRUMP])),
        "low_trump": rank(int(out[F_LOW_TRUMP])),
        "trump_jack": bool(out[F_TRUMP_JACK]),
        "trump_ace": bool(out[F_TRUMP_ACE]),
        "trump_ten": bool(out[F_TRUMP_TEN]),
        "game_points": int(out[F_GAME_POINTS]),
        "side_len": int(out[F_SIDE_LEN]),
        "side_top": rank(int(out[F_SIDE_TOP])),
        "side_tens": int(out[F_SIDE_TENS]),
        "hand_class": int(out[F_CLASS]),
        "hand_class_key": class_key(int(out[F_CLASS])),
    }


def hand_class(mask: int | str | Iterable[Any], trump: int | str) -> str:
    """Readable hand class key of a hand for a trump suit, e.g. ``T3:A,J,lo``."""
    m, suit = _mask_and_trump(mask, trump)
    return class_key(int(hand_class_code(np.uint64(m), suit)))
