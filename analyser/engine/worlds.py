"""Every deal of the hidden cards consistent with what one seat has seen: counted, and listed when few.

A seat's knowledge is the play state (``layout.py``'s PS_*) seen from that seat: the
cards it has not seen (``search.unseen_by``: not its hand, not played, not a turn-up
of the deal, not its own discard) are the other seats' hands and the cards out of
play it cannot see (the stock, the others' discards). A *consistent deal* gives each
other seat as many of them as it holds (``PS_HAND``'s size), none it has shown it
lacks (``search.allowed_cards``: voids, must-trump, forbidden undertrumps); the rest
are out of play, in any order: two deals are the same when the other hands are.

* ``count_worlds(state, seat)``: how many consistent deals there are (float64: exact
  below 2**53), by dynamic programming over the classes of cards that the same seats
  may hold (at most 8 with 3 other seats; ``_completions``), never listing them.
* ``list_worlds(state, seat, out)``: every consistent deal, one row of 4 hand masks
  (int64, by seat; the seat's own hand as it is, empty seats 0) per deal, in a fixed
  order; -1 if `out` has too few rows. The search backtracks seat by seat and prunes
  with Hall's condition on the seats still to deal, so every branch it enters ends in
  a deal.
* ``draw_worlds(state, seat, rng, out)``: out's rows filled with deals drawn exactly
  uniformly among the consistent ones (the counting tables built once, then each deal
  drawn class by class in proportion to the deals each choice leaves); returns their
  number. ``search.sample_world`` draws by rejection, exact only while rejection works.
* ``fill_world(state, seat, hands, world)``: a listed deal as a play state (what
  ``search.sample_world`` makes from a drawn deal), to solve.
* ``world_mismatches(buf, seat, params, rules, rng, worlds, out)``: for each listed deal,
  the others' choices pimc's model would not have made there (``search.mismatches``);
  weigh a deal by ``doubt ** m`` to infer as pimc does.

The Python wrappers (``consistent_worlds``, ``sample_worlds``, ``world_states``,
``world_mismatch_counts``) validate their arguments and return numpy arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .bits import U1, popcount, rand_unit, rng_state
from .layout import N_STATE, PS_HAND, PS_PLAYERS
from .search import SB_END, _draw, allowed_cards, finish_world, mismatches, start_replay, unseen_by
from .search import SB_BEST, SB_BID, SB_BID_SCORES, SB_BID_TURNUP, SB_HIST, SB_HIST_N, SB_REPLAY, SB_SCRATCH
from .inference import world_log_weight
from .state import copy_state

WORLD_LIMIT = 10_000  # list every consistent deal when there are at most this many (exact enumeration)
MAX_OTHERS = 3

# Binomial coefficients C(n, k), n, k <= 52, as float64 (exact: the largest, C(52, 26), is below 2**53).
_BINOM = np.zeros((53, 53), dtype=np.float64)
for _n in range(53):
    _BINOM[_n, 0] = 1.0
    for _k in range(1, _n + 1):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + _BINOM[_n - 1, _k]


@njit(cache=True, _nrt=False)
def _others(state, seat, need, allowed, seats):
    """The other seats in play order after `seat`: need[i] cards each, from allowed[i]; returns how many."""
    n = state[PS_PLAYERS]
    unseen = unseen_by(state, seat)
    k = 0
    for j in range(1, n):
        o = (seat + j) % n
        seats[k] = o
        need[k] = popcount(np.uint64(state[PS_HAND + o]))
        allowed[k] = allowed_cards(state, o, unseen)
        k += 1
    for i in range(k, MAX_OTHERS):
        seats[i] = -1
        need[i] = 0
        allowed[i] = 0
    return k


@njit(cache=True)
def _classes(state, seat, need, allowed, seats, cards, size):
    """The other seats (``_others``), and the unseen cards by class: cards[p] the cards exactly the seats
    of bit set p may hold, size[p] how many."""
    k = _others(state, seat, need, allowed, seats)
    unseen = unseen_by(state, seat)
    for p in range(8):
        cards[p] = 0
        size[p] = 0
    m = unseen
    while m:
        c = m & (~m + U1)
        m &= m - U1
        p = 0
        for i in range(MAX_OTHERS):
            if allowed[i] & c:
                p |= 1 << i
        cards[p] |= c
        size[p] += 1
    return k


@njit(cache=True)
def _completions(need, size):
    """F[p, r0, r1, r2]: the ways to deal classes p..7 so that seat i gets exactly r_i more cards (F[8]: 1 at
    r = 0). F[1, need] is the number of consistent deals (class 0, cards nobody may hold, stays out)."""
    f = np.zeros((9, need[0] + 1, need[1] + 1, need[2] + 1), dtype=np.float64)
    f[8, 0, 0, 0] = 1.0
    for p in range(7, 0, -1):
        mp = size[p]
        if mp == 0:
            f[p] = f[p + 1]
            continue
        t0 = 52 if p & 1 else 0
        t1 = 52 if p & 2 else 0
        t2 = 52 if p & 4 else 0
        for r0 in range(need[0] + 1):
            for r1 in range(need[1] + 1):
                for r2 in range(need[2] + 1):
                    total = 0.0
                    for x0 in range(min(r0, t0, mp) + 1):
                        w0 = _BINOM[mp, x0]
                        for x1 in range(min(r1, t1, mp - x0) + 1):
                            w1 = w0 * _BINOM[mp - x0, x1]
                            for x2 in range(min(r2, t2, mp - x0 - x1) + 1):
                                total += w1 * _BINOM[mp - x0 - x1, x2] * f[p + 1, r0 - x0, r1 - x1, r2 - x2]
                    f[p, r0, r1, r2] = total
    return f


@njit(cache=True)
def _classes_of(state, seat):
    """``_classes`` into arrays of its own: (k, need, allowed, seats, cards, size)."""
    need = np.zeros(MAX_OTHERS, dtype=np.int64)
    allowed = np.zeros(MAX_OTHERS, dtype=np.uint64)
    seats = np.zeros(MAX_OTHERS, dtype=np.int64)
    cards = np.zeros(8, dtype=np.uint64)
    size = np.zeros(8, dtype=np.int64)
    k = _classes(state, seat, need, allowed, seats, cards, size)
    return k, need, allowed, seats, cards, size


@njit(cache=True)
def count_worlds(state, seat):
    """The number of consistent deals of the cards `seat` has not seen (module docstring), as a float64."""
    _, need, _, _, _, size = _classes_of(state, seat)
    return _completions(need, size)[1, need[0], need[1], need[2]]


@njit(cache=True)
def draw_worlds(state, seat, rng, out):
    """out[w, 0:4] for every row: a consistent deal drawn exactly uniformly (module docstring), hand masks by
    seat as ``list_worlds`` writes them. Returns the number of consistent deals (0: none, out untouched)."""
    k, need, allowed, seats, cards, size = _classes_of(state, seat)
    f = _completions(need, size)
    total = f[1, need[0], need[1], need[2]]
    if total == 0.0:
        return 0.0
    n = state[PS_PLAYERS]
    hands = np.zeros(MAX_OTHERS, dtype=np.uint64)
    for w in range(out.shape[0]):
        r0, r1, r2 = need[0], need[1], need[2]
        for i in range(MAX_OTHERS):
            hands[i] = 0
        for p in range(1, 8):
            mp = size[p]
            if mp == 0:
                continue
            t0 = 52 if p & 1 else 0
            t1 = 52 if p & 2 else 0
            t2 = 52 if p & 4 else 0
            # x, the cards of this class each seat gets, with probability mult(x) F[p+1, r - x] / F[p, r].
            u = rand_unit(rng) * f[p, r0, r1, r2]
            c0 = c1 = c2 = -1
            acc = 0.0
            for x0 in range(min(r0, t0, mp) + 1):
                w0 = _BINOM[mp, x0]
                for x1 in range(min(r1, t1, mp - x0) + 1):
                    w1 = w0 * _BINOM[mp - x0, x1]
                    for x2 in range(min(r2, t2, mp - x0 - x1) + 1):
                        v = w1 * _BINOM[mp - x0 - x1, x2] * f[p + 1, r0 - x0, r1 - x1, r2 - x2]
                        if v > 0.0:
                            c0, c1, c2 = x0, x1, x2  # the last choice of weight, should rounding leave u above
                            acc += v
                            if u < acc:
                                break
                    if u < acc:
                        break
                if u < acc:
                    break
            pool = cards[p]
            for i, x in ((0, c0), (1, c1), (2, c2)):
                if x > 0:
                    got = _draw(pool, x, rng)
                    pool &= ~got
                    hands[i] |= got
            r0 -= c0
            r1 -= c1
            r2 -= c2
        for s in range(4):
            out[w, s] = state[PS_HAND + s] if s < n else 0
        for i in range(k):
            out[w, seats[i]] = np.int64(hands[i])
    return total


@njit(cache=True, _nrt=False)
def _deposit(x, mask):
    """The cards of `mask` picked by the bits of `x` (bit i: the i-th lowest card of mask)."""
    out = np.uint64(0)
    m = np.uint64(mask)
    x = np.uint64(x)
    while x:
        if x & U1:
            out |= m & (~m + U1)
        m &= m - U1
        x >>= U1
    return out


@njit(cache=True, _nrt=False)
def _next_combination(x):
    """The next larger integer with as many bits set (Gosper's hack); x > 0."""
    c = x & (~x + U1)
    r = x + c
    return (((r ^ x) >> np.uint64(2)) // c) | r


@njit(cache=True, _nrt=False)
def _feasible(pool, need, allowed, first, k):
    """Hall's condition: seats first..k-1 can each get need[i] distinct cards of pool & allowed[i]."""
    for subset in range(1, 1 << (k - first)):
        union = np.uint64(0)
        total = 0
        for i in range(first, k):
            if (subset >> (i - first)) & 1:
                union |= allowed[i]
                total += need[i]
        if popcount(union & pool) < total:
            return False
    return True


@njit(cache=True)
def list_worlds(state, seat, out):
    """Every consistent deal into out[w, 0:4] (hand masks by seat; module docstring); returns how many, or -1
    if there are more than out's rows (the rows written then are a prefix of the list)."""
    need = np.zeros(MAX_OTHERS, dtype=np.int64)
    allowed = np.zeros(MAX_OTHERS, dtype=np.uint64)
    seats = np.zeros(MAX_OTHERS, dtype=np.int64)
    k = _others(state, seat, need, allowed, seats)
    n = state[PS_PLAYERS]
    unseen = unseen_by(state, seat)
    cand = np.zeros(MAX_OTHERS, dtype=np.uint64)
    end = np.zeros(MAX_OTHERS, dtype=np.uint64)   # 1 << (cards in cand): the first pick past the last
    pick = np.zeros(MAX_OTHERS, dtype=np.uint64)
    pool = np.zeros(MAX_OTHERS + 1, dtype=np.uint64)
    hands = np.zeros(MAX_OTHERS, dtype=np.uint64)
    count = 0
    if k == 0:
        return 0
    if not _feasible(unseen, need, allowed, 0, k):
        return 0
    pool[0] = unseen
    lvl = 0
    cand[0] = allowed[0] & unseen
    end[0] = U1 << np.uint64(popcount(cand[0]))
    pick[0] = (U1 << np.uint64(need[0])) - U1
    while True:
        if pick[lvl] >= end[lvl]:  # this seat's picks are done: back to the seat before
            lvl -= 1
            if lvl < 0:
                break
            pick[lvl] = _next_combination(pick[lvl]) if need[lvl] > 0 else end[lvl]
            continue
        hand = _deposit(pick[lvl], cand[lvl])
        rest = pool[lvl] & ~hand
        advance = True
        if lvl + 1 == k:
            if count >= out.shape[0]:
                return -1
            for s in range(4):
                out[count, s] = state[PS_HAND + s] if s < n else 0
            for i in range(lvl):
                out[count, seats[i]] = np.int64(hands[i])
            out[count, seats[lvl]] = np.int64(hand)
            count += 1
        elif _feasible(rest, need, allowed, lvl + 1, k):
            hands[lvl] = hand
            lvl += 1
            pool[lvl] = rest
            cand[lvl] = allowed[lvl] & rest
            end[lvl] = U1 << np.uint64(popcount(cand[lvl]))
            pick[lvl] = (U1 << np.uint64(need[lvl])) - U1
            advance = False
        if advance:
            pick[lvl] = _next_combination(pick[lvl]) if need[lvl] > 0 else end[lvl]
    return count


@njit(cache=True, _nrt=False)
def fill_world(state, seat, hands, world):
    """`world` (a play state) = `state` with the other seats' hands `hands` (4 masks by seat, a row of
    ``list_worlds``), as `seat` would believe it (``search.finish_world``)."""
    copy_state(world, state)
    for s in range(state[PS_PLAYERS]):
        if s != seat:
            world[PS_HAND + s] = hands[s]
    finish_world(state, seat, world)


@njit(cache=True, _nrt=False)
def world_mismatches(buf, seat, params, rules, rng, worlds, out, world):
    """out[w]: the others' choices (bids, opponents' cards) pimc's model `params` would not have made
    holding the hands of deal worlds[w] (``search.mismatches``, uncapped). `buf` is a play buffer with the
    search area and the deal's record of play (``search.history_ok``); `world` is N_STATE words of scratch."""
    start_replay(buf)
    for w in range(worlds.shape[0]):
        fill_world(buf, seat, worlds[w], world)
        out[w] = mismatches(buf, world, seat, params, rules, rng, 1 << 30)


@njit(cache=True, _nrt=False)
def world_log_weights(buf, seat, params, rules, rng, hands, out, world, level, temperature, card_floor, bid_floor):
    """out[w] = the log-likelihood of the others' choices (``inference.world_log_weight``: the model with these
    grades, reading the bids, or at `level` LEVEL_FULL the cards too) holding the hands of deal hands[w] (a row of
    ``list_worlds``); `buf` is a play buffer with the search area and the deal's record (its cards in order, its
    bidding); `world` is N_STATE words of scratch."""
    start_replay(buf)
    for w in range(hands.shape[0]):
        fill_world(buf, seat, hands[w], world)
        out[w] = world_log_weight(buf[SB_HIST:SB_HIST + 52], buf[SB_HIST_N], buf[SB_REPLAY:SB_SCRATCH],
                                  buf[SB_SCRATCH:SB_BEST], buf[SB_BID], buf[SB_BID_TURNUP],
                                  buf[SB_BID_SCORES:SB_BID_SCORES + 4], world, seat, params, rules, rng, level,
                                  temperature, card_floor, bid_floor)


# --- Python wrappers -----------------------------------------------------------------------------------


class WorldList(NamedTuple):
    """The consistent deals for one seat: `total` of them, and when `total` <= the limit asked for,
    `hands` (uint64 array, total x players: each deal's hands by seat, the seat's own included), else None."""

    total: int
    hands: np.ndarray | None


def _checked(state: np.ndarray, seat: int) -> np.ndarray:
    state = np.asarray(state)
    if state.dtype != np.int64 or state.ndim != 1 or state.shape[0] < N_STATE:
        raise ValueError(f"a play state is an int64 array of at least {N_STATE} words")
    players = int(state[PS_PLAYERS])
    if players not in (2, 3, 4):
        raise ValueError(f"the state's players must be 2, 3 or 4, not {players}")
    if not 0 <= seat < players:
        raise ValueError(f"seat {seat}: a seat 0..{players - 1} is needed")
    return state


def consistent_worlds(state: np.ndarray, seat: int, limit: int = WORLD_LIMIT) -> WorldList:
    """Count the deals of the cards `seat` has not seen consistent with what it has seen (module docstring)
    and, when they are at most `limit`, list them all (each to be weighed alike: ``--inference none``)."""
    state = _checked(state, seat)
    if limit < 0:
        raise ValueError(f"limit must be >= 0, not {limit}")
    total = float(count_worlds(state, seat))
    if total > limit:
        return WorldList(int(total), None)
    out = np.zeros((int(total), 4), dtype=np.int64)
    got = int(list_worlds(state, seat, out))
    if got != int(total):  # pragma: no cover - the count and the list are one enumeration's two views
        raise AssertionError(f"counted {int(total)} consistent deals, listed {got}")
    players = int(state[PS_PLAYERS])
    return WorldList(got, out[:, :players].view(np.uint64).copy())


def sample_worlds(state: np.ndarray, seat: int, worlds: int, seed: int) -> np.ndarray:
    """`worlds` deals of the cards `seat` has not seen, each drawn uniformly among the consistent ones
    (``draw_worlds``): a uint64 array (worlds, players) of hands by seat, the same for the same seed.
    Raises ValueError if no deal is consistent (a state no play could have reached)."""
    state = _checked(state, seat)
    if worlds < 0:
        raise ValueError(f"worlds must be >= 0, not {worlds}")
    out = np.zeros((worlds, 4), dtype=np.int64)
    rng = rng_state(np.random.SeedSequence(seed))
    if draw_worlds(state, seat, rng, out) == 0.0:
        raise ValueError("no deal of the unseen cards is consistent with this state")
    players = int(state[PS_PLAYERS])
    return out[:, :players].view(np.uint64).copy()


def world_states(state: np.ndarray, seat: int, hands: np.ndarray) -> np.ndarray:
    """Play states (one row of N_STATE words per deal of `hands`, as ``consistent_worlds`` lists them)."""
    state = _checked(state, seat)
    hands = np.asarray(hands, dtype=np.uint64)
    players = int(state[PS_PLAYERS])
    if hands.ndim != 2 or hands.shape[1] != players:
        raise ValueError(f"hands must be a (deals, {players}) array")
    rows = np.zeros((hands.shape[0], 4), dtype=np.int64)
    rows[:, :players] = hands.view(np.int64)
    out = np.zeros((hands.shape[0], N_STATE), dtype=np.int64)
    for w in range(hands.shape[0]):
        fill_world(state, seat, rows[w], out[w])
    return out


def world_mismatch_counts(buf: np.ndarray, seat: int, params: np.ndarray, rules: np.ndarray, rng: np.ndarray,
                          hands: np.ndarray) -> np.ndarray:
    """For each deal of `hands` (``consistent_worlds``), how many of the others' choices pimc's model would not
    have made there (int64 array); `buf` is a play buffer with the search area and the deal's record of play."""
    buf = np.asarray(buf)
    if buf.dtype != np.int64 or buf.shape[0] < SB_END:
        raise ValueError("world_mismatch_counts needs a play buffer with the search area (search.new_play_buffer)")
    _checked(buf, seat)
    players = int(buf[PS_PLAYERS])
    hands = np.asarray(hands, dtype=np.uint64)
    rows = np.zeros((hands.shape[0], 4), dtype=np.int64)
    rows[:, :players] = hands.view(np.int64)
    out = np.zeros(hands.shape[0], dtype=np.int64)
    world = np.zeros(N_STATE, dtype=np.int64)
    world_mismatches(buf, seat, params, rules, rng, rows, out, world)
    return out
