"""The bounded search: each legal card of one world valued within a budget, at any number of cards.

The open-hand solver (``solver/``) values a world exactly, but its work grows about
tenfold with each card per seat: a 4-player world of 6 cards each (24 in the hands)
takes well under a millisecond, one of 9 each (36) some 60 ms and up to seconds, one
of 12 each (a trinidad deal after two runs) far more. So a world is valued

* **exactly** (``solve_cards``) when at most ``horizon`` cards are left in the hands,
  or when the solve finishes within ``|limit|`` nodes (a solve that reaches them gives up and sets
  ``ctx[C_ABORTED]``). ``limit > 0`` is the solver's node limit (``ctx[C_NODE_LIMIT]``): the limited
  search pimc's answers were pinned with (its old move order, no endings searched in one call);
  ``limit < 0`` is the exact search stopped at ``-limit`` nodes (``ctx[C_NODE_CAP]``): its move order
  and endings finish more worlds in the same budget (hint and analyse ask for it);
* otherwise **bounded**: each legal card is played, then every seat plays the
  heuristic's card (``heuristic_card``, with the searcher's parameter row) until
  ``horizon`` cards are left, and that position is solved exactly (``solve_value``).

The solver's value of a position counts the whole deal's points of play (High and Low
fixed as play started, the jack's captor once captured, Game from every card captured
so far), so the value of the horizon's position is already the card's total: nothing
taken on the way needs adding. It is counted for the side to move there; with two
sides it is negated when that is the other side; with three (each seat its own side,
the solver paranoid) the heuristic plays on until the root's seat is to move.

A bounded value is what the card makes if everyone plays the heuristic's card for the
next tricks and perfectly after: it errs where the heuristic errs, the same way for
every card (each continuation is played by the same rules), so the cards' differences
keep most of their sense. Cards the solver counts as equivalent (``representative``:
neighbours in a suit, same Game points) are valued once.

Every kernel runs without numba's runtime and allocates nothing: the solver's work
arrays and a scratch state (``line``) come from the caller (``search.py``'s play buffer).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import RANK_JACK, U1, bit, lowest_card, popcount, side_of
from .heuristic import heuristic_card
from .layout import PS_HAND, PS_IN_PLAY, PS_N_TRICKS, PS_PLAYERS, PS_TO_PLAY, PS_TRICK_NO, PS_TRUMP
from .solver import C_ABORTED, C_NODE_CAP, C_NODE_LIMIT, NO_VALUE, solve_cards, solve_value
from .solver.moves import representative
from .solver.value import _out_mask
from .state import apply, copy_state, legal

BOUNDED_HORIZON = 24   # default: worlds with at most this many cards in the hands are solved exactly
BOUNDED_NODES = 500_000  # default: above it, an exact solve is tried within this many nodes (docs/search.md)


@njit(cache=True, _nrt=False)
def cards_in_hands(state):
    """Cards in the hands."""
    total = 0
    for s in range(state[PS_PLAYERS]):
        total += popcount(np.uint64(state[PS_HAND + s]))
    return total


@njit(cache=True, _nrt=False)
def _heuristic_move(line, params, rules, rng):
    apply(line, heuristic_card(params, line, legal(line), rules, rng))


@njit(cache=True, _nrt=False)
def bounded_cards(world, rules, params, rng, horizon, states, moves, frames, tt, ctx, values, line):
    """values[card]: each legal card of the seat to move in `world`, for its side, by the heuristic's
    continuation to `horizon` cards and the solver from there (module docstring); NO_VALUE for the others.
    `line` is a scratch play state."""
    n = world[PS_PLAYERS]
    root = world[PS_TO_PLAY]
    root_side = side_of(root, n)
    horizon = max(horizon, n)  # the root's side still has a card to play at the horizon
    for c in range(52):
        values[c] = NO_VALUE
    options = legal(world)
    out = _out_mask(world)
    jack = world[PS_TRUMP] * 13 + RANK_JACK
    if not (np.uint64(world[PS_IN_PLAY]) & bit(jack)):
        jack = -1
    ctx[C_NODE_LIMIT] = 0
    ctx[C_NODE_CAP] = 0
    m = options
    while m:
        c = lowest_card(m)
        m &= m - U1
        if representative(c, options, out, jack) != c:
            continue
        copy_state(line, world)
        apply(line, c)
        while cards_in_hands(line) > horizon:
            _heuristic_move(line, params, rules, rng)
        if n == 3:
            while line[PS_TO_PLAY] != root and line[PS_TRICK_NO] < line[PS_N_TRICKS]:
                _heuristic_move(line, params, rules, rng)
        v = solve_value(line, rules, states, moves, frames, tt, ctx)
        if side_of(line[PS_TO_PLAY], n) != root_side:
            v = -v
        values[c] = v
    m = options
    while m:
        c = lowest_card(m)
        m &= m - U1
        values[c] = values[representative(c, options, out, jack)]


@njit(cache=True, _nrt=False)
def world_cards(world, rules, params, rng, horizon, limit, states, moves, frames, tt, ctx, values, line):
    """values[card] for the legal cards of one world: exact (returns 1) when at most `horizon` cards are
    in the hands, or when the solver finishes within |limit| nodes (limit != 0: > 0 the limited search, < 0 the
    exact search stopped there; the module's docstring); else bounded (returns 0)."""
    left = cards_in_hands(world)
    if left <= horizon or limit != 0:
        ctx[C_NODE_LIMIT] = limit if left > horizon and limit > 0 else 0
        ctx[C_NODE_CAP] = -limit if left > horizon and limit < 0 else 0
        solve_cards(world, rules, states, moves, frames, tt, ctx, values)
        ctx[C_NODE_LIMIT] = 0
        ctx[C_NODE_CAP] = 0
        if ctx[C_ABORTED] == 0:
            return 1
    bounded_cards(world, rules, params, rng, horizon, states, moves, frames, tt, ctx, values, line)
    return 0
