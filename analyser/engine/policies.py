"""Decision policies: who begs, gives, bunches, discards and which card is played.

Each seat has a policy kind (``K_*``) and a float64 parameter row. Every function
here dispatches on the kind; ``random`` is the reference policy (uniform among
legal cards, decisions with the probabilities ``P_BEG``, ``P_GIVE``, ``P_BUNCH``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import U1, bit, nth_card, popcount, rand_below, rand_unit, random_card
from .layout import K_RANDOM, P_BEG, P_BUNCH, P_GIVE


@njit(cache=True)
def decide_beg(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the eldest begs."""
    return rand_unit(rng) < params[P_BEG]


@njit(cache=True)
def decide_give(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the dealer gives one (keeps the turn-up suit), False to run the cards."""
    return rand_unit(rng) < params[P_GIVE]


@njit(cache=True)
def decide_bunch(kind, params, hand, trump, seat, dealer, scores, rules, rng):
    """True if this player agrees to bunch (redeal after a run fixed a new trump)."""
    return rand_unit(rng) < params[P_BUNCH]


@njit(cache=True)
def random_subset(mask, k, rng):
    """k cards drawn uniformly without replacement from mask."""
    out = np.uint64(0)
    left = np.uint64(mask)
    for _ in range(k):
        c = random_card(rng, left)
        out |= bit(c)
        left &= ~bit(c)
    return out


@njit(cache=True)
def choose_discard(kind, params, hand, trump, keep, rng):
    """Mask of the cards to discard so that `keep` remain."""
    return random_subset(hand, popcount(hand) - keep, rng)


@njit(cache=True)
def choose_card(kind, params, seat, hand, legal, ctx, rules, rng):
    """The card to play from the non-empty mask `legal`."""
    return random_card(rng, legal)
