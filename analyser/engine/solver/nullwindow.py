"""The value of a position by null-window searches of ``search.search``.

* **two sides** (``value_of``): the value is found by tests "is it at least t?" (``value_at_least``), the
  first one below the value of a quick playout (``playout_guess``), then one up after a success and two down
  after a failure: a failing test (a proof that the side cannot reach t) is the costly kind, and only the one
  at the value + 1 is needed. Each test is turned into a question of card points alone: "can this side capture
  at least theta of the card points still out, counting the jack of trump as w more?" (mode 1: theta and w
  follow from t, the points captured so far and the jack's worth to each side). That objective adds up trick
  by trick, so what a table entry says about the rest of the deal holds however the position was reached;
* **three players** (``mtdf``): MTD(f) on the net points themselves (mode 0), with the captured card points and
  the jack's captor in the table key.

Each keeps ``ctx[C_RANGE_LO]``, ``ctx[C_RANGE_HI]``: what it has proved of the value so far.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import game_points
from ..layout import PS_CAPTURED, PS_JACK_CAPTOR, PS_N_TRICKS, PS_TRICK_NO
from ..state import apply_open, copy_play
from .bounds import bounds
from .context import C_ABORTED, C_FIXED, C_JACK, C_MODE, C_NSIDES, C_PERSP_SIDE, C_RANGE_HI, C_RANGE_LO, C_W, INF
from .moves import order_moves
from .search import search
from .value import _game_term, _jack_term, _out_mask, final_value


@njit(cache=True, _nrt=False)
def mtdf(states, moves, frames, tt, ctx, d, guess):
    """Mode 0: the exact value of states[d] by null-window searches (MTD(f)), from `guess`."""
    ctx[C_MODE] = 0
    lo = np.int64(-INF)
    hi = np.int64(INF)
    ctx[C_RANGE_LO], ctx[C_RANGE_HI] = bounds(states[d], ctx)
    g = np.int64(guess)
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(states, moves, frames, tt, ctx, d, beta - 1, beta)
        if ctx[C_ABORTED]:
            return np.int64(0)
        if g < beta:
            hi = g
            ctx[C_RANGE_HI] = min(ctx[C_RANGE_HI], g)
        else:
            lo = g
            ctx[C_RANGE_LO] = max(ctx[C_RANGE_LO], g)
    return g


@njit(cache=True, _nrt=False)
def _points_needed(need, ca, cb, rest, ctx):
    """Two sides: the fewest of the `rest` card points still out the perspective side must
    capture for a Game term of at least `need` (it has `ca` captured, the other side `cb`);
    -1 if no share is enough."""
    ps = ctx[C_PERSP_SIDE]
    for f in range(rest + 1):
        a = ca + f
        b = cb + rest - f
        g = _game_term(a, b, 0, ctx) if ps == 0 else _game_term(b, a, 0, ctx)
        if g >= need:
            return f
    return -1


@njit(cache=True, _nrt=False)
def value_at_least(states, moves, frames, tt, ctx, d, t):
    """Two sides: is the value of states[d] (net points, the perspective side's) at least t?
    One null-window search of mode 1."""
    state = states[d]
    ps = ctx[C_PERSP_SIDE]
    ca = game_points(np.uint64(state[PS_CAPTURED + ps]))
    cb = game_points(np.uint64(state[PS_CAPTURED + 1 - ps]))
    rest = game_points(_out_mask(state))
    base = t - ctx[C_FIXED]
    jack = ctx[C_JACK]
    captor = state[PS_JACK_CAPTOR]
    if jack < 0 or captor >= 0:
        x = _points_needed(base - (_jack_term(captor, ctx) if jack >= 0 else 0), ca, cb, rest, ctx)
        if x <= 0:
            return x == 0
        w = 0
        theta = x
    else:
        # The jack still to be captured: the points needed if this side takes it (xa) or the
        # other does (xb); w makes one count of points say both.
        xa = _points_needed(base - _jack_term(ps, ctx), ca, cb, rest, ctx)
        xb = _points_needed(base - _jack_term(1 - ps, ctx), ca, cb, rest, ctx)
        big = rest + 1
        if xa < 0 and xb < 0:
            return False
        if xa == 0 and xb == 0:
            return True
        if xa < 0:
            w, theta = -big, xb
        elif xb < 0:
            w, theta = big, xa + big
        else:
            w, theta = xb - xa, xb
    ctx[C_MODE] = 1
    ctx[C_W] = w
    return search(states, moves, frames, tt, ctx, d, theta - 1, theta) >= theta


@njit(cache=True, _nrt=False)
def playout_guess(states, moves, ctx, d):
    """A first guess at the value of states[d]: the deal played out by every seat taking the card
    `order_moves` puts first (the last ply of `states` and `moves` is the scratch)."""
    k = states.shape[0] - 1
    st = states[k]
    copy_play(st, states[d])
    while st[PS_TRICK_NO] < st[PS_N_TRICKS]:
        order_moves(st, moves, k, -1, ctx[C_JACK], ctx, False)
        apply_open(st, moves[k, 0])
    return final_value(st, ctx)


@njit(cache=True, _nrt=False)
def value_of(states, moves, frames, tt, ctx, d, guess):
    """The exact value of states[d] for the perspective side: with two sides by tests of
    `value_at_least` (the first just below `guess`, then climbing), with three by `mtdf`."""
    if ctx[C_NSIDES] == 3:
        return mtdf(states, moves, frames, tt, ctx, d, guess)
    ctx[C_MODE] = 0
    lo, hi = bounds(states[d], ctx)
    ctx[C_RANGE_LO] = lo
    ctx[C_RANGE_HI] = hi
    # Tests that fail (the value is below t) are the costly ones, and only the one at the value + 1 is
    # needed: start just below the guess and climb; after a failure drop by two and climb again.
    t = min(max(guess - 1, lo + 1), hi)
    while lo < hi:
        ok = value_at_least(states, moves, frames, tt, ctx, d, t)
        if ctx[C_ABORTED]:
            ctx[C_MODE] = 0
            return np.int64(0)
        if ok:
            lo = t
            t = t + 1
        else:
            hi = t - 1
            t = t - 2
        ctx[C_RANGE_LO] = lo
        ctx[C_RANGE_HI] = hi
        ctx[C_MODE] = 0
        t = min(max(t, lo + 1), hi)
    return lo
