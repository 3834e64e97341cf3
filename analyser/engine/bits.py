"""Bit tricks and the random stream used by every kernel.

Cards are ints 0..51 (``suit * 13 + rank``), sets of cards are uint64 masks.
The random stream is xoshiro256** with its state in a uint64[4] array, so a
chunk's stream is fully determined by the four words its seed gives.
"""

from __future__ import annotations

import os
import platform

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

U1 = np.uint64(1)
SUIT_BITS = np.uint64(0x1FFF)
N_RANKS = 13
RANK_TEN, RANK_JACK, RANK_QUEEN, RANK_KING, RANK_ACE = 8, 9, 10, 11, 12
# Card points for Game, by rank index (2..A): 10=10, A=4, K=3, Q=2, J=1.
GAME_VALUE = np.array([0, 0, 0, 0, 0, 0, 0, 0, 10, 1, 2, 3, 4], dtype=np.int64)
# Masks of all four suits' cards of one rank, for counting Game points fast.
RANK_MASKS = np.array([sum(1 << (s * 13 + r) for s in range(4)) for r in range(13)], dtype=np.uint64)


@intrinsic
def _ctpop(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.uint64(types.uint64), codegen


@intrinsic
def _cttz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@intrinsic
def _ctlz(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))

    return types.uint64(types.uint64), codegen


@njit(cache=True, _nrt=False)
def popcount(mask):
    return np.int64(_ctpop(np.uint64(mask)))


@njit(cache=True, _nrt=False)
def lowest_card(mask):
    """Index of the lowest set bit (mask must be non-zero)."""
    return np.int64(_cttz(np.uint64(mask)))


@njit(cache=True, _nrt=False)
def highest_card(mask):
    """Index of the highest set bit (mask must be non-zero)."""
    return np.int64(63 - np.int64(_ctlz(np.uint64(mask))))


@njit(cache=True, _nrt=False)
def bit(card):
    return U1 << np.uint64(card)


@njit(cache=True, _nrt=False)
def cards_above(card):
    """Every card of a higher index than `card` (in its suit, the higher ranks; then the suits after it)."""
    return ~((bit(card) << U1) - U1)


@njit(cache=True, _nrt=False)
def suit_mask(suit):
    return SUIT_BITS << np.uint64(13 * suit)


def _bmi2(instruction):
    """The typing and code of an intrinsic that is the x86 BMI2 `instruction` on two uint64."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, instruction)
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def _pdep(typingctx, src, mask):
    """x86 BMI2 PDEP: deposit the low bits of src at the set bits of mask."""
    return _bmi2("llvm.x86.bmi.pdep.64")


@intrinsic
def _pext(typingctx, src, mask):
    """x86 BMI2 PEXT: the bits of src at the set bits of mask, packed at the bottom."""
    return _bmi2("llvm.x86.bmi.pext.64")


@njit(cache=True, _nrt=False)
def nth_card_pdep(mask, n):
    """The n-th lowest card in mask with one PDEP instruction (x86 with BMI2 only)."""
    return lowest_card(_pdep(U1 << np.uint64(n), np.uint64(mask)))


@njit(cache=True, _nrt=False)
def nth_card_loop(mask, n):
    """The n-th lowest card (0-based) in mask."""
    m = np.uint64(mask)
    for _ in range(n):
        m &= m - U1
    return lowest_card(m)


def pdep_is_fast() -> bool:
    """True where PDEP exists and is quick: x86-64 with BMI2, but not AMD Zen 1 and 2
    (microcoded there), and numba compiling for this very processor."""
    return pdep_choice()[0]


def pdep_choice() -> tuple[bool, str]:
    """(PDEP or not, why): the n-th card's kernel is chosen by the processor, as ``pdep_is_fast`` says."""
    if os.environ.get("ALLFOURS_NO_PDEP"):
        return False, "ALLFOURS_NO_PDEP is set"
    if os.environ.get("NUMBA_CPU_NAME"):
        return False, "NUMBA_CPU_NAME is set: kernels compiled for another processor"
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return False, f"{platform.machine()} is not x86-64"
    try:
        import llvmlite.binding as llvm

        name = llvm.get_host_cpu_name()
        bmi2 = bool(llvm.get_host_cpu_features().get("bmi2"))
    except Exception:  # no host information: take the portable loop
        return False, "no information on the processor"
    if not bmi2:
        return False, f"{name} has no BMI2"
    if name in ("znver1", "znver2"):
        return False, f"{name}: PDEP is microcoded there"
    return True, f"{name} has BMI2 with a fast PDEP"


def nth_card_choice() -> dict[str, str]:
    """Which n-th-card kernel this process runs, and why (``allfours bench`` says it)."""
    _, why = pdep_choice()
    return {"kernel": "PDEP" if nth_card is nth_card_pdep else "portable loop", "why": why}


# Picking the n-th legal card is a third of the random player's time; PDEP makes it
# one instruction. Both give the same card, so results do not depend on the choice.
nth_card = nth_card_pdep if pdep_is_fast() else nth_card_loop


@njit(cache=True, _nrt=False)
def _pext_fast(src, mask):
    return _pext(np.uint64(src), np.uint64(mask))


@njit(cache=True, _nrt=False)
def _pext_loop(src, mask):
    out = np.uint64(0)
    k = np.uint64(0)
    m = np.uint64(mask)
    while m:
        low = m & (~m + U1)
        if np.uint64(src) & low:
            out |= U1 << k
        k += U1
        m &= m - U1
    return out


# The bits of src at the set bits of mask, packed at the bottom: one PEXT where PDEP is quick (the same
# processors), else a loop.
pext = _pext_fast if pdep_is_fast() else _pext_loop


@njit(cache=True, _nrt=False)
def game_points(mask):
    """Card points for Game in a set of cards."""
    total = 0
    for r in range(RANK_TEN, 13):
        total += GAME_VALUE[r] * popcount(np.uint64(mask) & RANK_MASKS[r])
    return total


# --- random stream -----------------------------------------------------------


@njit(cache=True, _nrt=False)
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True, _nrt=False, inline="always")
def next_held(s0, s1, s2, s3):
    """xoshiro256**'s step (``next_u64``) on the stream's four words held by the caller (in registers, not an
    array): the 64 bits and the words after them."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, _nrt=False, inline="always")
def mix64(z):
    """splitmix64's finaliser: 64 well-mixed bits from `z` (a bijection)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, _nrt=False)
def unit_stream(key, index, out):
    """Seed `out` (4 words) with the stream of unit `index` (a duplicate pair, a deal, a match) of a run whose
    streams are keyed by `key` (4 words, ``unit_key``): a function of the key and the index alone, so a run gives
    the same units whatever chunks, threads or workers it is cut into. Never all zero."""
    z = np.uint64(index)
    for k in range(4):
        z += np.uint64(0x9E3779B97F4A7C15)
        out[k] = mix64(key[k] ^ mix64(z))
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = 1


@njit(cache=True, _nrt=False)
def next_u64(s):
    """xoshiro256**: next 64 random bits, advancing state s (uint64[4])."""
    result, s[0], s[1], s[2], s[3] = next_held(s[0], s[1], s[2], s[3])
    return result


@njit(cache=True, _nrt=False, inline="always")
def below(bits64, n):
    """``rand_below``'s number in [0, n) from 64 random bits."""
    return np.int64(((bits64 >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, _nrt=False)
def rand_below(s, n):
    """Uniform int in [0, n) for n < 2**32 (Lemire's multiply-shift; bias < n / 2**32)."""
    return below(next_u64(s), n)


@njit(cache=True, _nrt=False)
def shuffle_deck(deck, s):
    """Shuffle the 52 positions of `deck` in place (Fisher-Yates: any order in, a uniform order out)."""
    for i in range(51, 0, -1):
        j = rand_below(s, i + 1)
        c = deck[i]
        deck[i] = deck[j]
        deck[j] = c


@njit(cache=True, _nrt=False)
def rand_unit(s):
    """Uniform float in [0, 1)."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, _nrt=False)
def random_card(s, mask):
    """A card drawn uniformly from a non-empty mask."""
    return nth_card(mask, rand_below(s, popcount(mask)))


CACHE_LINE = 64  # bytes


def private_zeros(shape: int | tuple[int, ...], dtype: type | np.dtype) -> np.ndarray:
    """Zeros on cache lines of their own: 64-byte aligned, the last line not shared with any other array.

    For the arrays a thread writes at every card (its random streams, play state, deck, scores, sums): numpy's
    small arrays are allocated side by side, so one thread's could share a cache line with another's, and the
    two cores would pass that line back and forth at every write (false sharing). `allfours bench`'s random
    player on 2 threads: a median 1.82 times one thread so, 2.00 apart (docs/speed.md, "Two threads").

    >>> a = private_zeros((4, 3), np.int64)
    >>> a.shape, a.dtype, a.ctypes.data % CACHE_LINE, int(a.sum())
    ((4, 3), dtype('int64'), 0, 0)
    """
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    size = int(np.prod(shape)) * dtype.itemsize
    raw = np.zeros(size + 2 * CACHE_LINE, dtype=np.uint8)  # room to align the start and round the end up
    start = -raw.ctypes.data % CACHE_LINE
    return raw[start:start + size].view(dtype).reshape(shape)


def unit_keys(seed: int, stream: int, count: int = 2) -> list[np.ndarray]:
    """`count` stream keys (4 words each) of a run's units: ``SeedSequence(seed, spawn_key=(stream,)).spawn(count)``;
    unit i's stream under key k is ``unit_stream(k, i, out)`` (cards, then the players' choices, ...)."""
    return [rng_state(s) for s in np.random.SeedSequence(seed, spawn_key=(stream,)).spawn(count)]


def rng_state(seed_sequence: np.random.SeedSequence) -> np.ndarray:
    """Four state words for the stream of one chunk (never all zero), on cache lines of their own."""
    state = private_zeros(4, np.uint64)
    state[:] = seed_sequence.generate_state(4, dtype=np.uint64)
    if not state.any():
        state[0] = 1
    return state


@njit(cache=True, inline="always")
def next_seat(seat, players):
    """The seat after `seat` (0 .. players - 1) in play order: (seat + 1) % players without a division (numba's
    signed `%` by a value known only at run time is a division with a zero check and a sign correction)."""
    return seat + 1 if seat + 1 < players else 0


@njit(cache=True, inline="always")
def side_of(seat, players):
    """Scoring side of a seat: partners (seats 0 and 2, 1 and 3) with 4 players, else the seat itself."""
    return seat % 2 if players == 4 else seat
