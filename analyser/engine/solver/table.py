"""The transposition table: what earlier searches proved of a position, probed and stored at trick boundaries.

Within one deal the cards still out determine every hand (each card's holder is fixed by ``PS_START``); the
key goes further and counts the 2s to 9s of each hand only by their order among the low cards out
(``canonical_key``: positions that differ in which low cards were played, but not in who holds what in what
order, are the same position), plus the seat to lead (and, with three players, the captured points and the
jack's captor: ``_tt_extra``). The key is a 64-bit hash (with the rest compared exactly): two positions would
have to agree on 64 random bits to be confused.

A row (``TT_WORDS`` int64, 32 bytes) holds the key, the rest of the key, the bounds and best lead, and the cards
out with the w the bounds were found with; a bucket of two rows is one cache line, the first kept for the bigger
subtree (``_tt_store``). An entry holds a lower and an upper bound on what is still to come: while the jack is
still to be captured they bound a test with another w too, moved by the difference one way (``_w_shift``).
Entries are tagged with a generation, so a new position needs no clearing (``_new_generation``), and a search
uses only as many rows as its position needs (``table_rows``).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..bits import game_points, pext, popcount, suit_mask
from ..layout import PS_CAPTURED, PS_HAND, PS_JACK_CAPTOR, PS_PLAYERS, PS_TO_PLAY
from .context import C_GEN, C_MODE, C_TT_MASK, LOW_CARDS
from .value import _out_mask

TT_WORDS = 4      # words per table entry: a bucket of two entries is one cache line
GEN_SHIFT = 32
GEN_LIMIT = 1 << 30
DEFAULT_TT_BITS = 20
TT_OFFSET = 2048  # table bounds are packed in 12 bits each
# An entry's last word: the cards out (the subtree's size) and the w its bounds were found with.
SIZE_MASK = 255
W_SHIFT = 8
W_OFFSET = 1024


@njit(cache=True, _nrt=False, inline="always")
def _tt_extra(state, ctx):
    """The table key besides the cards out: the seat to lead and what the rest of the deal is
    worth with (mode 0: the jack's captor and the card points of sides 0 and 1), the mode and the
    generation."""
    x = state[PS_TO_PLAY]
    if ctx[C_MODE] == 1:
        # Not w: an entry holds the w it was found with, and serves tests with any other (`_w_shift`).
        x |= 1 << 24
    else:
        x |= (state[PS_JACK_CAPTOR] + 1) << 2
        x |= game_points(np.uint64(state[PS_CAPTURED])) << 4
        x |= game_points(np.uint64(state[PS_CAPTURED + 1])) << 11
    return x | (ctx[C_GEN] << GEN_SHIFT)



@intrinsic
def _prefetch_row(typingctx, arr, row):
    """Hint the processor to fetch arr[row, 0]'s cache line (llvm.prefetch): the table is probed a
    little later, after the static bounds, and a probe is usually a cache miss."""

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(arr, row), codegen


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, x):
    h = (h ^ np.uint64(x)) * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(31))


@njit(cache=True, _nrt=False)
def canonical_key(state):
    """A 64-bit hash of the position at a trick boundary up to which 2s-9s are out: each hand's
    cards of ten and above as they are, its low cards by their order among the low cards out."""
    out = np.uint64(0)
    for s in range(state[PS_PLAYERS]):
        out |= np.uint64(state[PS_HAND + s])
    low = out & LOW_CARDS
    h = np.uint64(0x2545F4914F6CDD1D)
    for suit in range(4):
        h = _mix(h, np.uint64(popcount(low & suit_mask(suit))))
    for s in range(state[PS_PLAYERS]):
        hand = np.uint64(state[PS_HAND + s])
        h = _mix(h, hand & ~LOW_CARDS)
        h = _mix(h, pext(hand, low))
    return np.int64(h)


@njit(cache=True, _nrt=False, inline="always")
def _tt_find(tt, idx, out, extra):
    """The slot of the bucket at `idx` (two entries) holding this key, or -1."""
    if tt[idx, 0] == out and tt[idx, 1] == extra:
        return idx
    if tt[idx + 1, 0] == out and tt[idx + 1, 1] == extra:
        return idx + 1
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _tt_index(out, extra, ctx):
    h = np.uint64(out) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(extra) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(ctx[C_TT_MASK]))



@njit(cache=True, _nrt=False, inline="always")
def _w_shift(word, w):
    """How far bounds found with the entry's w move for this w while the jack is still to be captured:
    the value never falls as w grows (the jack adds w once, if at all), and grows by at most the
    difference; so (lower, upper) change by (min(0, dw), max(0, dw))."""
    dw = w - ((word >> W_SHIFT) - W_OFFSET)
    return min(0, dw), max(0, dw)


@njit(cache=True, _nrt=False, inline="always")
def _entry_bounds(tt, slot, pending, w):
    """The (lower, upper) bounds a table entry holds on what is still to come, moved for this w while
    the jack is still to be captured (`pending`)."""
    packed = tt[slot, 2]
    lo = (packed & 4095) - TT_OFFSET
    hi = ((packed >> 12) & 4095) - TT_OFFSET
    if pending:
        dlo, dhi = _w_shift(tt[slot, 3], w)
        lo += dlo
        hi += dhi
    return lo, hi



@njit(cache=True, _nrt=False, inline="always")
def _tt_store(tt, idx, out, extra, lo, hi, best_move, size, pending, w):
    """Store the bounds (lo, hi) on what is still to come, and the best lead, of the position keyed (out, extra)
    in the bucket at `idx`: narrowed by what its entry there already holds (moved for this w while the jack is
    still to be captured, `pending`); else into the bucket's first row if this search has not used it or this
    subtree is no smaller than its entry's (that entry moves to the second row), else into the second."""
    slot = _tt_find(tt, idx, out, extra)
    if slot >= 0:
        olo, ohi = _entry_bounds(tt, slot, pending, w)
        if olo > lo:
            lo = olo
        if ohi < hi:
            hi = ohi
    elif (tt[idx, 1] >> GEN_SHIFT) != (extra >> GEN_SHIFT) or size >= (tt[idx, 3] & SIZE_MASK):
        for k in range(TT_WORDS):
            tt[idx + 1, k] = tt[idx, k]
        slot = idx
    else:
        slot = idx + 1
    tt[slot, 0] = out
    tt[slot, 1] = extra
    tt[slot, 2] = (lo + TT_OFFSET) | ((hi + TT_OFFSET) << 12) | ((best_move + 1) << 24)
    tt[slot, 3] = size | ((w + W_OFFSET) << W_SHIFT)


@njit(cache=True, _nrt=False, inline="always")
def table_rows(state, size):
    """Rows of a table of `size` a search of `state` uses (a small one stays in the processor's cache):
    2**(2 + cards out / 2), at most all of them."""
    bits = 2 + popcount(_out_mask(state)) // 2
    return size if bits >= 62 or (1 << bits) >= size else (1 << bits)


@njit(cache=True, _nrt=False)
def _use_table(tt, ctx, state):
    """Use as much of the table as the position needs (``table_rows``)."""
    ctx[C_TT_MASK] = table_rows(state, tt.shape[0]) - 1


@njit(cache=True, _nrt=False)
def _new_generation(tt, ctx):
    if ctx[C_GEN] >= GEN_LIMIT:
        for i in range(tt.shape[0]):
            tt[i, 1] = 0
        ctx[C_GEN] = 1

