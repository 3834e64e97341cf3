"""The search: fail-soft alpha-beta on the play state's own kernels (``legal``, ``apply_open``: ``apply``
without the voids and lacks nobody reads here, ``copy_play``), on an explicit stack (numba's cache cannot
reload a self-recursive kernel): a node is opened by ``_enter`` (settled at once by the end of the deal, the
static bounds, the table or the endings, or given its moves), told of each child's value by ``_child_done``,
and closed by ``_leave``, which stores what it proved in the table.

Two objectives share one search. Mode 0 values a node in net points (``final_value``) and keys the table on
the history the rest depends on (captured card points, the jack's captor): the three-player search. Mode 1 is
the two-sided one: a question "is the value at least t?" is turned into "can the perspective side capture at
least theta card points from here, counting the jack of trump as w more?" (``nullwindow.value_at_least``),
whose objective adds up trick by trick. Its table entries hold bounds on what is still to come, so they depend
on nothing but the cards out, the seat to lead and w, whatever was captured on the way.

Near-equivalent cards (mode 1, solves without a node limit): two cards of one suit with no card out between
them but of different Game points lead to positions that differ only in which of them is captured in which
trick, so their values differ by at most the difference of their points; a card whose bound from a searched
one (``_near_bound``, ``_near_u``) lies outside the window is passed over, the quasi-symmetry of Kupferschmid
and Helmert's Skat solver.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import GAME_VALUE, bit, cards_above, game_points, highest_card, lowest_card, popcount, side_of, suit_mask
from ..layout import PS_HAND, PS_JACK_CAPTOR, PS_LED, PS_N_TRICKS, PS_PLAYERS, PS_TO_PLAY, PS_TRICK_MASK, PS_TRICK_NO
from ..state import apply_open, copy_play
from .bounds import _node_bounds
from .context import (
    C_ABORTED, C_HIST, C_JACK, C_KILLER, C_KILLER2, C_MODE, C_NODE_CAP, C_NODE_LIMIT, C_NODES, C_PERSP_SIDE, C_STOP,
    C_W, INF, MAX_PLIES, STOP_EVERY,
)
from .endings import _ending3, _ending4, _last_trick
from .moves import order_moves
from .table import (
    SIZE_MASK, _entry_bounds, _prefetch_row, _tt_extra, _tt_find, _tt_index, _tt_store, canonical_key,
)
from .value import _out_mask, final_value


# A frame of the explicit search stack (int64 row per ply, `frames`).
F_ALPHA = 0      # the window as narrowed by the node's bounds (what the table entry is judged against)
F_BETA = 1
F_A = 2          # the window as the children have narrowed it
F_B = 3
F_BEST = 4
F_BEST_MOVE = 5
F_COUNT = 6      # moves in moves[d]
F_NEXT = 7       # index of the next move to try
F_MAX = 8        # 1: the perspective side moves (maximises)
F_IDX = 9        # table slot, -1 mid-trick (nothing stored)
F_OUT = 10       # table key: the cards out
F_EXTRA = 11     # table key: the rest
F_LO = 12        # the node's lower and upper bounds (static and table)
F_HI = 13
F_ACC = 14       # mode 1: the objective gained between the search's root and this node
F_SIZE = 15      # cards out (how big the subtree is, for the table's replacement)
F_DONE = 16      # mode 1: the cards searched (or passed over as near-equivalent) at this node, a mask
F_VALS = 17      # mode 1: + card, for each of those, a bound on its value (upper if maximising, else lower)
N_FRAME = F_VALS + 52
SIZE_W_DEPENDS = 256  # in a frame's F_SIZE: the jack is still to be captured, so the value depends on w


@njit(cache=True, _nrt=False, inline="always")
def _enter(states, moves, frames, tt, ctx, d, alpha, beta):
    """Open the node states[d] with the window (alpha, beta): (value, True) when it is settled
    at once (end of the deal, bounds, the table), else (0, False) with its frame and moves set."""
    state = states[d]
    ctx[C_NODES] += 1
    acc = frames[d, F_ACC]
    if state[PS_TRICK_NO] >= state[PS_N_TRICKS]:
        return (np.int64(acc) if ctx[C_MODE] == 1 else np.int64(final_value(state, ctx))), True
    if ctx[C_MODE] == 1 and state[PS_LED] < 0:
        held = popcount(np.uint64(state[PS_HAND + state[PS_TO_PLAY]]))
        if held == 1:
            return _last_trick(state, ctx, acc), True
        if held == 2 and state[PS_PLAYERS] == 4 and ctx[C_NODE_LIMIT] == 0:
            # Only without a node limit: a limited solve (pimc's try at an exact answer) keeps the nodes it
            # always had, so where it gives up, and every answer the search players gave, stay the same.
            return _ending4(state, ctx, acc, alpha, beta), True
    first = -1
    idx = -1
    if state[PS_LED] < 0:
        out = canonical_key(state)
        extra = _tt_extra(state, ctx)
        idx = _tt_index(out, extra, ctx) & ~1
        _prefetch_row(tt, idx)
        lo, hi = _node_bounds(state, ctx, acc)
        if lo >= beta or lo == hi:
            return np.int64(lo), True
        if hi <= alpha:
            return np.int64(hi), True
        frames[d, F_OUT] = out
        frames[d, F_EXTRA] = extra
        pending = ctx[C_MODE] == 1 and ctx[C_JACK] >= 0 and state[PS_JACK_CAPTOR] < 0
        frames[d, F_SIZE] = popcount(_out_mask(state)) | (SIZE_W_DEPENDS if pending else 0)
        slot = _tt_find(tt, idx, out, extra)
        if slot >= 0:
            tlo, thi = _entry_bounds(tt, slot, pending, ctx[C_W])
            tlo += acc
            thi += acc
            first = ((tt[slot, 2] >> 24) & 63) - 1
            if tlo > lo:
                lo = tlo
            if thi < hi:
                hi = thi
            if lo >= beta or lo == hi:
                return np.int64(lo), True
            if hi <= alpha:
                return np.int64(hi), True
    else:
        lo, hi = np.int64(-INF), np.int64(INF)
    if lo > alpha:
        alpha = lo
    if hi < beta:
        beta = hi
    if (idx >= 0 and ctx[C_MODE] == 1 and state[PS_PLAYERS] == 4 and ctx[C_NODE_LIMIT] == 0
            and popcount(np.uint64(state[PS_HAND + state[PS_TO_PLAY]])) == 3):
        # Three cards each: the last three tricks by `_ending3`, stored in the table as a searched node's.
        v, lead = _ending3(state, ctx, acc, alpha, beta, first)
        frames[d, F_ALPHA] = alpha
        frames[d, F_BETA] = beta
        frames[d, F_BEST] = v
        frames[d, F_BEST_MOVE] = lead
        frames[d, F_IDX] = idx
        frames[d, F_LO] = lo
        frames[d, F_HI] = hi
        return _leave(frames, tt, d, ctx), True
    maximise = side_of(state[PS_TO_PLAY], state[PS_PLAYERS]) == ctx[C_PERSP_SIDE]
    frames[d, F_ALPHA] = alpha
    frames[d, F_BETA] = beta
    frames[d, F_A] = alpha
    frames[d, F_B] = beta
    frames[d, F_BEST] = -INF if maximise else INF
    frames[d, F_BEST_MOVE] = -1
    frames[d, F_COUNT] = order_moves(state, moves, d, first, ctx[C_JACK], ctx, ctx[C_NODE_LIMIT] == 0)
    frames[d, F_NEXT] = 0
    frames[d, F_MAX] = 1 if maximise else 0
    frames[d, F_IDX] = idx
    frames[d, F_LO] = lo
    frames[d, F_HI] = hi
    frames[d, F_DONE] = 0
    return np.int64(0), False


@njit(cache=True, _nrt=False, inline="always")
def _near_u(x, p, u, out, jack, up):
    """A bound on the value (mode 1) of playing card x from card p of the same hand, worth u (an upper
    bound if `up`, else a lower one; -1 for p: none), when nothing of `out` lies between them in their
    suit and neither is the jack of trump: the positions after them are the same but for which of the two
    cards is captured in which trick, so their values differ by at most the difference of their Game
    points. INF (or -INF) when there is none."""
    none = np.int64(INF) if up else np.int64(-INF)
    if p < 0 or x == jack or p == jack or x // 13 != p // 13:
        return none
    lo = min(x, p)
    hi = max(x, p)
    if out & cards_above(lo) & ~cards_above(hi) & ~bit(hi):
        return none
    gap = abs(GAME_VALUE[x % 13] - GAME_VALUE[p % 13])
    return np.int64(u + gap) if up else np.int64(u - gap)


@njit(cache=True, _nrt=False, inline="always")
def _near_bound(state, frames, d, card, jack):
    """Mode 1: a bound on the value of playing `card` at node d (`_near_u`) from the next card out above or
    below it in its suit, if the mover holds it and it was searched (or passed over) there: upper if the
    node maximises, lower if not; INF (or -INF) when there is none."""
    maximise = frames[d, F_MAX] == 1
    none = np.int64(INF) if maximise else np.int64(-INF)
    done = np.uint64(frames[d, F_DONE])
    if card == jack or not done:
        return none
    out = _out_mask(state)
    suit_out = out & suit_mask(card // 13)
    best = none
    above = suit_out & cards_above(card)
    if above:
        h = lowest_card(above)
        if done & bit(h):
            best = _near_u(card, h, frames[d, F_VALS + h], out, jack, maximise)
    below = suit_out & ~cards_above(card) & ~bit(card)
    if below:
        h = highest_card(below)
        if done & bit(h):
            b = _near_u(card, h, frames[d, F_VALS + h], out, jack, maximise)
            if (maximise and b < best) or (not maximise and b > best):
                best = b
    return best


@njit(cache=True, _nrt=False, inline="always")
def _child_done(states, frames, moves, d, v, ctx):
    """A child of node d is worth v: update the node; True when it is finished (a cut-off or
    no move left). In mode 1 the moves next in line that a searched card of the same hand bounds
    (`_near_bound`) out of the window are passed over, their bounds counted in the node's value."""
    card = moves[d, frames[d, F_NEXT] - 1]
    if frames[d, F_MAX]:
        if v > frames[d, F_BEST]:
            frames[d, F_BEST] = v
            frames[d, F_BEST_MOVE] = card
            if v > frames[d, F_A]:
                frames[d, F_A] = v
    else:
        if v < frames[d, F_BEST]:
            frames[d, F_BEST] = v
            frames[d, F_BEST_MOVE] = card
            if v < frames[d, F_B]:
                frames[d, F_B] = v
    if frames[d, F_A] >= frames[d, F_B]:
        ctx[C_HIST + card] += MAX_PLIES - d  # a cut-off near the root counts more
        if frames[d, F_IDX] >= 0 and ctx[C_KILLER + d] != card:
            ctx[C_KILLER2 + d] = ctx[C_KILLER + d]
            ctx[C_KILLER + d] = card
        return True
    if ctx[C_MODE] == 1 and ctx[C_NODE_LIMIT] == 0:
        # Exact solves only (a limited solve keeps its nodes, as for `_ending4`). v bounds the card's
        # value the way the node needs (no cut-off: above alpha only if exact).
        frames[d, F_VALS + card] = v
        frames[d, F_DONE] |= np.int64(bit(card))
        jack = ctx[C_JACK]
        while frames[d, F_NEXT] < frames[d, F_COUNT]:
            nxt = moves[d, frames[d, F_NEXT]]
            b = _near_bound(states[d], frames, d, nxt, jack)
            if frames[d, F_MAX]:
                if b > frames[d, F_A]:
                    break
                if b > frames[d, F_BEST]:
                    frames[d, F_BEST] = b
            else:
                if b < frames[d, F_B]:
                    break
                if b < frames[d, F_BEST]:
                    frames[d, F_BEST] = b
            frames[d, F_VALS + nxt] = b
            frames[d, F_DONE] |= np.int64(bit(nxt))
            frames[d, F_NEXT] += 1
    return frames[d, F_NEXT] >= frames[d, F_COUNT]



@njit(cache=True, _nrt=False, inline="always")
def _leave(frames, tt, d, ctx):
    """Node d is finished: store what it learnt at a trick boundary (as bounds on what is still
    to come); its value (fail-soft)."""
    best = frames[d, F_BEST]
    idx = frames[d, F_IDX]
    if idx >= 0:
        # At or below alpha the result is an upper bound, at or above beta a lower one.
        if best <= frames[d, F_ALPHA]:
            lo, hi = frames[d, F_LO], best
        elif best >= frames[d, F_BETA]:
            lo, hi = best, frames[d, F_HI]
        else:
            lo, hi = best, best
        acc = frames[d, F_ACC]
        _tt_store(tt, idx, frames[d, F_OUT], frames[d, F_EXTRA], lo - acc, hi - acc, frames[d, F_BEST_MOVE],
                  frames[d, F_SIZE] & SIZE_MASK, (frames[d, F_SIZE] & SIZE_W_DEPENDS) != 0,
                  ctx[C_W] if ctx[C_MODE] == 1 else 0)
    return best


@njit(cache=True, _nrt=False)
def search(states, moves, frames, tt, ctx, root, alpha, beta):
    """Fail-soft alpha-beta on states[root] with the window (alpha, beta), in the objective of
    ctx's mode, for the perspective side (it maximises, every other side minimises), on an
    explicit stack: plies root, root+1, ... of `states`, `moves` and `frames` are its scratch.
    In mode 1 the value counts from 0 at the root."""
    d = root
    a = np.int64(alpha)
    b = np.int64(beta)
    frames[d, F_ACC] = 0
    mode = ctx[C_MODE]
    ps = ctx[C_PERSP_SIDE]
    jack_bit = bit(ctx[C_JACK]) if ctx[C_JACK] >= 0 else np.uint64(0)
    limit = ctx[C_NODE_LIMIT]
    if limit == 0:
        limit = ctx[C_NODE_CAP]  # stops the exact search where it stands; its moves stay the exact search's
    while True:
        if (limit > 0 and ctx[C_NODES] >= limit) or (ctx[C_NODES] % STOP_EVERY == 0 and ctx[C_STOP] != 0):
            # Out of budget (or told to stop): drop the whole stack. Nothing below the root is stored (only `_leave`
            # stores, and only for nodes whose children were all searched), so the table keeps
            # nothing but bounds that were proved.
            ctx[C_ABORTED] = 1
            return np.int64(0)
        v, settled = _enter(states, moves, frames, tt, ctx, d, a, b)
        if settled:
            # Hand the value up until a node has another move to try.
            while True:
                if d == root:
                    return v
                d -= 1
                if not _child_done(states, frames, moves, d, v, ctx):
                    break
                v = _leave(frames, tt, d, ctx)
        # Node d tries its next move.
        i = frames[d, F_NEXT]
        frames[d, F_NEXT] = i + 1
        card = moves[d, i]
        parent = states[d]
        child = states[d + 1]
        trick = np.uint64(parent[PS_TRICK_MASK]) | bit(card)
        copy_play(child, parent)  # the words play needs: the seats' knowledge is not read here
        winner = apply_open(child, card)
        acc = frames[d, F_ACC]
        if mode == 1 and winner >= 0 and side_of(winner, parent[PS_PLAYERS]) == ps:
            acc += game_points(trick)
            if trick & jack_bit:
                acc += ctx[C_W]
        frames[d + 1, F_ACC] = acc
        a = frames[d, F_A]
        b = frames[d, F_B]
        d += 1
