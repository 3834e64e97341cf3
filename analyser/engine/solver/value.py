"""The value of a position once play is over, and the context a solve of a deal starts from.

``final_value``: the net points (High, Low, Jack, Game) of the perspective side when every card has been
played; ``game_winner`` settles Game as ``state.score_game`` does; ``prepare`` fills the context (``ctx``)
for a deal: the perspective side, High and Low (fixed when play started), the jack of trump and what it can
still be worth.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...game.rules import R_GAME_TIE, R_HANG_JACK
from ..bits import RANK_JACK, bit, game_points, highest_card, lowest_card, side_of
from ..layout import PS_CAPTURED, PS_DEALER, PS_HAND, PS_IN_PLAY, PS_JACK_CAPTOR, PS_PLAYERS, PS_START, PS_TO_PLAY, PS_TRICK_MASK, PS_TRUMP
from .context import (
    C_ABORTED, C_DEALER_SIDE, C_FIXED, C_GEN, C_HANG, C_HIST, C_JACK, C_JACK_HI, C_JACK_LO, C_JACK_SIDE, C_KILLER,
    C_KILLER2, C_NODES, C_NSIDES, C_PERSP_SIDE, C_TIE, INF, MAX_PLIES,
)


@njit(cache=True, _nrt=False, inline="always")
def _sign(side, pside):
    return 1 if side == pside else -1


@njit(cache=True, _nrt=False)
def game_winner(t0, t1, t2, nsides, dside, tie):
    """Side that scores Game for captured card points t0, t1 (t2 with three sides), or -1.
    A tie goes as ``state.score_game`` rules it: with a tie rule, to the one tied side that is
    not the dealer's, if there is exactly one."""
    best = t0
    w = 0
    tied = 1
    if t1 > best:
        best, w, tied = t1, 1, 1
    elif t1 == best:
        tied += 1
    if nsides == 3:
        if t2 > best:
            best, w, tied = t2, 2, 1
        elif t2 == best:
            tied += 1
    if tied == 1:
        return w
    if tie == 0:
        return -1
    cand = -1
    count = 0
    if t0 == best and dside != 0:
        cand, count = 0, count + 1
    if t1 == best and dside != 1:
        cand, count = 1, count + 1
    if nsides == 3 and t2 == best and dside != 2:
        cand, count = 2, count + 1
    return cand if count == 1 else -1


@njit(cache=True, _nrt=False, inline="always")
def _game_term(t0, t1, t2, ctx):
    w = game_winner(t0, t1, t2, ctx[C_NSIDES], ctx[C_DEALER_SIDE], ctx[C_TIE])
    return 0 if w < 0 else _sign(w, ctx[C_PERSP_SIDE])


@njit(cache=True, _nrt=False, inline="always")
def _jack_term(captor, ctx):
    n = 3 if ctx[C_HANG] != 0 and captor != ctx[C_JACK_SIDE] else 1
    return n * _sign(captor, ctx[C_PERSP_SIDE])


@njit(cache=True, _nrt=False)
def final_value(state, ctx):
    """Net points of the perspective side once every card is played (High, Low, Jack, Game)."""
    v = ctx[C_FIXED]
    if ctx[C_JACK] >= 0:
        v += _jack_term(state[PS_JACK_CAPTOR], ctx)
    t0 = game_points(np.uint64(state[PS_CAPTURED]))
    t1 = game_points(np.uint64(state[PS_CAPTURED + 1]))
    t2 = game_points(np.uint64(state[PS_CAPTURED + 2])) if ctx[C_NSIDES] == 3 else 0
    return v + _game_term(t0, t1, t2, ctx)


@njit(cache=True, _nrt=False, inline="always")
def _out_mask(state):
    """Cards not yet in a completed trick: every hand and the trick being played."""
    out = np.uint64(state[PS_TRICK_MASK])
    for s in range(state[PS_PLAYERS]):
        out |= np.uint64(state[PS_HAND + s])
    return out



@njit(cache=True, _nrt=False)
def prepare(state, rules, ctx):
    """Set up `ctx` for positions of `state`'s deal, valued for the side of the seat to move now;
    starts a new table generation."""
    n = state[PS_PLAYERS]
    nsides = 2 if n == 4 else n
    ps = side_of(state[PS_TO_PLAY], n)
    ctx[C_PERSP_SIDE] = ps
    ctx[C_NSIDES] = nsides
    ctx[C_HANG] = 1 if rules[R_HANG_JACK] != 0 else 0
    ctx[C_TIE] = rules[R_GAME_TIE]
    ctx[C_DEALER_SIDE] = side_of(state[PS_DEALER], n)
    fixed = 0
    in_play = np.uint64(state[PS_IN_PLAY])
    jack = state[PS_TRUMP] * 13 + RANK_JACK
    ctx[C_JACK] = -1
    if in_play:
        for which in range(2):
            card = highest_card(in_play) if which == 0 else lowest_card(in_play)
            for s in range(n):
                if np.uint64(state[PS_START + s]) & bit(card):
                    fixed += _sign(side_of(s, n), ps)
        if in_play & bit(jack):
            ctx[C_JACK] = jack
            for s in range(n):
                if np.uint64(state[PS_START + s]) & bit(jack):
                    ctx[C_JACK_SIDE] = side_of(s, n)
    ctx[C_FIXED] = fixed
    jlo = INF
    jhi = -INF
    for c in range(nsides):
        j = _jack_term(c, ctx)
        jlo = min(jlo, j)
        jhi = max(jhi, j)
    ctx[C_JACK_LO] = jlo
    ctx[C_JACK_HI] = jhi
    ctx[C_NODES] = 0
    ctx[C_ABORTED] = 0
    for i in range(52):
        ctx[C_HIST + i] = 0
    for i in range(MAX_PLIES + 1):
        ctx[C_KILLER + i] = -1
        ctx[C_KILLER2 + i] = -1
    ctx[C_GEN] += 1
