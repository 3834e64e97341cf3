"""Decision policies: who begs, gives, bunches, discards and which card is played.

Each seat has a policy kind (``K_*``) and a float64 parameter row. Every function
here dispatches on the kind; ``random`` is the reference policy (uniform among
legal cards, decisions with the probabilities ``P_BEG``, ``P_GIVE``, ``P_BUNCH``);
``heuristic`` (engine/heuristic.py) plays by named rules on the evaluator's features;
``tuned`` (engine/tuned.py) is the heuristic with beg/stand and give/run taken from
per-hand-class tables (``allfours strategy``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import bit, popcount, rand_unit, random_card
from .heuristic import heuristic_beg, heuristic_bunch, heuristic_card, heuristic_discard, heuristic_give
from .layout import K_HEURISTIC, K_TUNED, P_BEG, P_BUNCH, P_GIVE
from .tuned import tuned_beg, tuned_give


@njit(cache=True, _nrt=False)
def decide_beg(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the eldest begs."""
    if kind == K_HEURISTIC:
        return heuristic_beg(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_TUNED:
        return tuned_beg(params, hand, turnup, seat, dealer, scores, rules, rng)
    return rand_unit(rng) < params[P_BEG]


@njit(cache=True, _nrt=False)
def decide_give(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the dealer gives one (keeps the turn-up suit), False to run the cards."""
    if kind == K_HEURISTIC:
        return heuristic_give(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_TUNED:
        return tuned_give(params, hand, turnup, seat, dealer, scores, rules, rng)
    return rand_unit(rng) < params[P_GIVE]


@njit(cache=True, _nrt=False)
def decide_bunch(kind, params, hand, trump, seat, dealer, scores, rules, rng):
    """True if this player agrees to bunch (redeal after a run fixed a new trump)."""
    if kind == K_HEURISTIC or kind == K_TUNED:
        return heuristic_bunch(params, hand, trump, seat, dealer, scores, rules, rng)
    return rand_unit(rng) < params[P_BUNCH]


@njit(cache=True, _nrt=False)
def random_subset(mask, k, rng):
    """k cards drawn uniformly without replacement from mask."""
    out = np.uint64(0)
    left = np.uint64(mask)
    for _ in range(k):
        c = random_card(rng, left)
        out |= bit(c)
        left &= ~bit(c)
    return out


@njit(cache=True, _nrt=False)
def choose_discard(kind, params, hand, trump, keep, rng):
    """Mask of the cards to discard so that `keep` remain."""
    if kind == K_HEURISTIC or kind == K_TUNED:
        return heuristic_discard(params, hand, trump, keep)
    return random_subset(hand, popcount(hand) - keep, rng)


@njit(cache=True, _nrt=False)
def choose_card(kind, params, state, legal, rules, rng):
    """The card the seat to play in `state` (read-only: engine/state.py) plays, from the non-empty mask `legal`."""
    if kind == K_HEURISTIC or kind == K_TUNED:
        return heuristic_card(params, state, legal, rules, rng)
    return random_card(rng, legal)
