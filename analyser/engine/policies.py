"""Decision policies: who begs, gives, bunches, discards and which card is played.

Each seat has a policy kind (``K_*`` in ``layout.py``, named by ``POLICY_KINDS``)
and a float64 parameter row. The five dispatchers below are the one policy
interface: every kind has a branch in each, and an unknown kind raises instead of
falling through to another player. ``random`` is the reference policy (uniform
among legal cards, decisions with the probabilities ``P_BEG``, ``P_GIVE``,
``P_BUNCH``); ``heuristic`` (engine/heuristic.py) plays by named rules on the
evaluator's features (a row with a decision list of rules of play, ``rules:FILE``, reads
that first: engine/rulesplayer.py); ``tuned`` (engine/tuned.py) is the heuristic with beg/stand
and give/run taken from per-hand-class tables (``allfours strategy``); ``oracle`` and
``pimc`` (engine/search.py) choose cards with the open-hand solver (oracle seeing every
hand, pimc over sampled worlds) and decide the rest as ``tuned`` does (its tables all
-1 by default: the heuristic's rules; ``allfours strategy --policy pimc`` fills them). Their
``state`` is a play buffer with the search area (``search.new_play_buffer``): the
callers allocate it with ``needs_search(kinds)``.

The signatures every policy implements:

* ``beg(params, hand, turnup, seat, dealer, scores, rules, rng) -> bool`` (eldest)
* ``give(params, hand, turnup, seat, dealer, scores, rules, rng) -> bool`` (dealer)
* ``bunch(params, hand, trump, seat, dealer, scores, rules, rng) -> bool``
* ``discard(params, hand, trump, keep, rng) -> mask`` of the cards thrown
* ``card(params, state, legal, rules, rng) -> card``: the seat to play in the play
  state (``engine/state.py``, read-only: hands, the trick by seat, history, voids,
  scores) picks from the non-empty mask ``legal``.

Adding a policy, the checklist:

1. ``layout.py``: ``K_NAME = <next int>`` and its name at that index of ``POLICY_KINDS``;
   parameter slots it needs in the row (``N_PARAMS`` grows if they do not fit).
2. ``engine/NAME.py``: its kernels with the signatures above (``@njit(cache=True, _nrt=False)``);
   a policy may reuse another's for some decisions, as ``tuned`` does.
3. Here: one branch for ``K_NAME`` in each of ``decide_beg``, ``decide_give``, ``decide_bunch``,
   ``choose_discard`` and ``choose_card_plain`` (or, for a player that searches and needs the play
   buffer's work area, in ``choose_card`` and ``search.SEARCH_KINDS``/``is_search_kind``). The
   trick loop of the players that do not search plays a forced card (one legal card) itself,
   without calling ``choose_card_plain``: such a player must play it drawing nothing, as
   ``heuristic`` and ``tuned`` do (``random`` draws, and keeps its own branch in the loop).
4. ``policy.py``: its named parameters and defaults in ``PARAMS_BY_KIND`` (and, if its spec
   names a file as ``tuned:RUN_DIR`` does, the reading of it in ``parse_policy``).
5. Tests: ``tests/engine/test_policy_interface.py`` checks 1, 3 and 4 for every kind by itself;
   add golden tests of the new player's rules and a legality run (tests/engine/test_heuristic.py
   shows both).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import bit, popcount, rand_unit, random_card
from .heuristic import heuristic_beg, heuristic_bunch, heuristic_discard, heuristic_give, heuristic_play
from .layout import K_HEURISTIC, K_ORACLE, K_PIMC, K_RANDOM, K_TUNED, P_BEG, P_BUNCH, P_GIVE
from .rulesplayer import has_rules, rules_play
from .search import search_card
from .tuned import tuned_beg, tuned_give


@njit(cache=True, _nrt=False)
def decide_beg(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the eldest begs."""
    if kind == K_HEURISTIC:
        return heuristic_beg(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_TUNED or kind == K_ORACLE or kind == K_PIMC:
        return tuned_beg(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_RANDOM:
        return rand_unit(rng) < params[P_BEG]
    raise ValueError("unknown policy kind")


@njit(cache=True, _nrt=False)
def decide_give(kind, params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the dealer gives one (keeps the turn-up suit), False to run the cards."""
    if kind == K_HEURISTIC:
        return heuristic_give(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_TUNED or kind == K_ORACLE or kind == K_PIMC:
        return tuned_give(params, hand, turnup, seat, dealer, scores, rules, rng)
    if kind == K_RANDOM:
        return rand_unit(rng) < params[P_GIVE]
    raise ValueError("unknown policy kind")


@njit(cache=True, _nrt=False)
def decide_bunch(kind, params, hand, trump, seat, dealer, scores, rules, rng):
    """True if this player agrees to bunch (redeal after a run fixed a new trump)."""
    if kind == K_HEURISTIC or kind == K_TUNED or kind == K_ORACLE or kind == K_PIMC:
        return heuristic_bunch(params, hand, trump, seat, dealer, scores, rules, rng)
    if kind == K_RANDOM:
        return rand_unit(rng) < params[P_BUNCH]
    raise ValueError("unknown policy kind")


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
    if kind == K_HEURISTIC or kind == K_TUNED or kind == K_ORACLE or kind == K_PIMC:
        return heuristic_discard(params, hand, trump, keep)
    if kind == K_RANDOM:
        return random_subset(hand, popcount(hand) - keep, rng)
    raise ValueError("unknown policy kind")


@njit(cache=True, _nrt=False)
def choose_card(kind, params, state, legal, rules, rng):
    """The card the seat to play in `state` (read-only: engine/state.py) plays, from the non-empty mask `legal`."""
    if kind == K_ORACLE or kind == K_PIMC:
        return search_card(kind, params, state, legal, rules, rng)
    return choose_card_plain(kind, params, state, legal, rules, rng)


@njit(cache=True, _nrt=False)
def choose_card_plain(kind, params, state, legal, rules, rng):
    """choose_card for the players that do not search. The trick loop calls this one when no seat
    searches: with the search's call in it, the heuristic's loop ran about 15% slower."""
    if kind == K_HEURISTIC or kind == K_TUNED:
        if has_rules(params):  # a decision list of rules of play before the heuristic's card (engine/rulesplayer.py)
            return rules_play(params, state, legal)
        return heuristic_play(params, state, legal)
    if kind == K_RANDOM:
        return random_card(rng, legal)
    raise ValueError("unknown policy kind (or a search player outside choose_card)")
