"""The solver's face: the memory one solver needs (``SolverWork``), and the kernels a caller runs on it: the
value of a position (``solve_value``), the value of each card the seat to move may play (``solve_cards``), and
what a stopped ``solve_cards`` had proved of each (``proved_ranges``)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import U1, lowest_card
from ..layout import N_STATE
from ..state import apply_open, copy_state, legal
from .context import (
    C_ABORTED, C_CARD, C_CARD_HI, C_CARD_LO, C_JACK, C_NODE_CAP, C_NODE_LIMIT, C_NODES, C_RANGE_HI, C_RANGE_LO, INF,
    MAX_PLIES, MOVE_SLOTS, N_CTX, NO_VALUE,
)
from .bounds import bounds
from .moves import representative, searched_cards
from .nullwindow import playout_guess, value_of
from .search import N_FRAME
from .table import DEFAULT_TT_BITS, TT_WORDS, _new_generation, _use_table
from .value import _out_mask, prepare


def _ctx_word(slot: int, doc: str) -> property:
    """A word of the search context that the caller sets: an int property."""

    def get(work: SolverWork) -> int:
        return int(work.ctx[slot])

    def put(work: SolverWork, value: int) -> None:
        work.ctx[slot] = value

    return property(get, put, doc=doc)


class SolverWork:
    """The memory one solver needs, allocated once and reused for every position.

    ``states``: a play state per ply; ``moves``: the ordered moves per ply; the
    transposition table ``tt`` (``tt_bits`` bits of index; a row is the key, the rest of the
    key, the bounds and best lead, the cards out: 32 bytes; buckets of two rows, one cache
    line, the first kept for the bigger subtree); ``ctx``.
    Not to be shared by two threads at once.
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS) -> None:
        size = 1 << tt_bits
        self.states = np.zeros((MAX_PLIES + 1, N_STATE), dtype=np.int64)
        self.moves = np.zeros((MAX_PLIES + 1, MOVE_SLOTS), dtype=np.int64)
        self.frames = np.zeros((MAX_PLIES + 1, N_FRAME), dtype=np.int64)
        self.tt = np.zeros((size, TT_WORDS), dtype=np.int64)
        self.ctx = np.zeros(N_CTX, dtype=np.int64)
        self.values = np.zeros(52, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes visited by the last solve."""
        return int(self.ctx[C_NODES])

    node_limit = _ctx_word(C_NODE_LIMIT, "Nodes a solve may visit before it gives up (0: no limit).")
    node_cap = _ctx_word(C_NODE_CAP, "Nodes an exact solve (no node limit) may visit before it gives up, searching "
                         "as without it (0: no cap); for benchmarks that must end.")

    @property
    def aborted(self) -> bool:
        """The last solve gave up at the node limit or cap (its values are not to be used)."""
        return bool(self.ctx[C_ABORTED])


@njit(cache=True, nogil=True, _nrt=False)
def solve_value(state, rules, states, moves, frames, tt, ctx):
    """The value of `state` for the side of the seat to move (net points of High, Low, Jack and
    Game under perfect play; see the package's docstring). ctx[C_NODES] counts the nodes of this
    call (from 0); with ctx[C_NODE_LIMIT] > 0 the call gives up on reaching it and sets
    ctx[C_ABORTED] to 1 (0 when it finished): the value returned is then meaningless."""
    _new_generation(tt, ctx)
    _use_table(tt, ctx, state)
    prepare(state, rules, ctx)
    copy_state(states[0], state)
    # np.int64(0), not 0: a literal argument makes numba compile the search again for each constant
    return value_of(states, moves, frames, tt, ctx, np.int64(0), playout_guess(states, moves, ctx, np.int64(0)))


@njit(cache=True, nogil=True, _nrt=False)
def solve_cards(state, rules, states, moves, frames, tt, ctx, values):
    """The value, for the side of the seat to move, of each legal card it may play (values[card];
    NO_VALUE for a card it may not play), and the position's value (the best of them). Nodes, the
    node limit and ctx[C_ABORTED] as for `solve_value`: after an aborted call `values` is meaningless."""
    _new_generation(tt, ctx)
    _use_table(tt, ctx, state)
    prepare(state, rules, ctx)
    copy_state(states[0], state)
    for c in range(52):
        values[c] = NO_VALUE
    legal_cards = legal(state)
    out = _out_mask(state)
    jack = ctx[C_JACK]
    # What is proved of each card's value, for a caller that stops the search (`proved_ranges`): its
    # static bounds until it is searched.
    ctx[C_CARD] = -1
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        copy_state(states[1], state)
        apply_open(states[1], c)
        ctx[C_CARD_LO + c], ctx[C_CARD_HI + c] = bounds(states[1], ctx)
    guess = playout_guess(states, moves, ctx, np.int64(0))
    best = np.int64(-INF)
    m = searched_cards(legal_cards, out, jack)
    while m:
        c = lowest_card(m)
        m &= m - U1
        copy_state(states[1], state)
        apply_open(states[1], c)
        ctx[C_CARD] = c
        v = value_of(states, moves, frames, tt, ctx, np.int64(1), guess)
        if ctx[C_ABORTED]:
            return np.int64(0)
        ctx[C_CARD_LO + c] = v
        ctx[C_CARD_HI + c] = v
        ctx[C_CARD] = -1
        values[c] = v
        guess = v
        if v > best:
            best = v
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        values[c] = values[representative(c, legal_cards, out, jack)]
    return best


@njit(cache=True, _nrt=False)
def proved_ranges(state, ctx, lo, hi):
    """After `solve_cards` on `state` was stopped (ctx[C_STOP], a node cap): what it proved of each legal
    card's value, at least lo[card] and at most hi[card] (equal for a card it solved; NO_VALUE for a card
    that may not be played). Cards searched as one share the range of the one searched."""
    legal_cards = legal(state)
    out = _out_mask(state)
    jack = ctx[C_JACK]
    for c in range(52):
        lo[c] = NO_VALUE
        hi[c] = NO_VALUE
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        r = representative(c, legal_cards, out, jack)
        lo[c] = ctx[C_CARD_LO + r]
        hi[c] = ctx[C_CARD_HI + r]
        if r == ctx[C_CARD]:
            lo[c] = max(lo[c], ctx[C_RANGE_LO])
            hi[c] = min(hi[c], ctx[C_RANGE_HI])
