"""Partition search (``engine/partition.py``): a table entry holds for every position that differs only in
low cards that did not matter, and such positions find it.

The values themselves are checked against a brute-force minimax in ``test_solver.py`` (every preset and
player count, undertrump rules included), the table shared by every position there."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyser.engine.layout import N_STATE, PS_HAND, PS_LEADER, PS_TO_PLAY
from analyser.engine.partition import K_ALL, K_ONE, shape_key
from analyser.engine.solver import (
    C_GEN, C_MODE, C_W, GEN_SHIFT, K_SHIFT, SIZE_MASK, TT_OFFSET, W_MASK, W_OFFSET, W_SHIFT, _tt_find, _tt_index,
    holders_key, prepare,
)
from analyser.engine.state import init_state
from analyser.rules import make_rules
from analyser.solve import Position, Solver
from test_solver import _points_line


def deal(rules, rnd: random.Random, cards: int) -> np.ndarray:
    n = rules.players
    pack = rnd.sample(range(52), cards * n)
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(n):
        hands[s] = np.uint64(sum(1 << c for c in pack[s * cards:(s + 1) * cards]))
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, rnd.randrange(4), -1, n - 1, np.zeros(4, dtype=np.int64))
    leader = rnd.randrange(n)
    state[PS_TO_PLAY] = state[PS_LEADER] = leader
    return state


def root_entry(solver: Solver, state: np.ndarray) -> int:
    """The slot of the entry the last solve stored for its root (the only node with every card out), or -1."""
    tt, ctx = solver.work.tt, solver.work.ctx
    out = sum(int(np.uint64(state[PS_HAND + s])) for s in range(4))
    extra = int(state[PS_TO_PLAY]) | 1 << 24 | int(ctx[C_GEN]) << GEN_SHIFT
    rows = np.nonzero((tt[:, 1] == extra) & ((tt[:, 3] & SIZE_MASK) == bin(out).count("1")))[0]
    return int(rows[0]) if len(rows) else -1


def swaps(state: np.ndarray, n: int, k: int) -> list[tuple[int, int, int, int]]:
    """Pairs of low cards of one suit in two hands, both below the top k_s low cards out of their suit."""
    out = 0
    for s in range(n):
        out |= int(np.uint64(state[PS_HAND + s]))
    found = []
    for suit in range(4):
        low = [c for c in range(suit * 13 + 7, suit * 13 - 1, -1) if out >> c & 1]
        small = low[(k >> (4 * suit)) & 15:]
        holder = {c: next(s for s in range(n) if int(np.uint64(state[PS_HAND + s])) >> c & 1) for c in small}
        found += [(a, holder[a], b, holder[b]) for a in small for b in small if a < b and holder[a] != holder[b]]
    return found


@pytest.mark.parametrize("preset,players,settings", [
    ("trinidad", 4, []), ("classic", 4, ["undertrump=forbidden"]), ("trinidad", 2, []),
])
def test_positions_differing_in_irrelevant_low_cards_hit_the_same_entry(preset: str, players: int,
                                                                        settings: list[str]) -> None:
    """Solve a small deal; take the entry stored for its root; swap two low cards of one suit between two hands,
    both below the ranks the entry keeps: the new position is another position for the old table (another
    exact key), finds the same entry in the same bucket, and the entry's bounds hold for it (brute force
    of the objective the entry was found for)."""
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(11)
    solver = Solver(tt_bits=12)
    hits = 0
    for _ in range(150):
        state = deal(rules, rnd, 3 if players == 4 else 6)
        solver.value(Position(rules, state))
        slot = root_entry(solver, state)
        if slot < 0:
            continue
        tt, ctx = solver.work.tt, solver.work.ctx
        k = int(tt[slot, 3]) >> K_SHIFT & 0xFFFF
        for a, sa, b, sb in swaps(state, players, k)[:2]:
            other = state.copy()
            other[PS_HAND + sa] ^= (1 << a) | (1 << b)
            other[PS_HAND + sb] ^= (1 << a) | (1 << b)
            out = np.uint64(sum(int(np.uint64(other[PS_HAND + s])) for s in range(players)))
            shape = shape_key(other[PS_HAND:PS_HAND + players], players)
            exact = shape ^ holders_key(other, out, K_ALL)  # what the table keyed positions by before
            assert exact != shape_key(state[PS_HAND:PS_HAND + players], players) ^ holders_key(state, out, K_ALL)
            extra = tt[slot, 1]
            bucket = _tt_index(shape ^ holders_key(other, out, K_ONE), extra, ctx) & ~1
            found = _tt_find(tt, bucket, shape, extra, other, out)
            assert found >= 0 and tt[found, 0] == tt[slot, 0] and tt[found, 2] == tt[slot, 2]
            # The entry's bounds (on the card points to come, the jack worth its w) hold for both positions.
            lo = int(tt[slot, 2] & 4095) - TT_OFFSET
            hi = int(tt[slot, 2] >> 12 & 4095) - TT_OFFSET
            w = int(tt[slot, 3] >> W_SHIFT & W_MASK) - W_OFFSET
            for pos in (state, other):
                prepare(pos, rules.as_array(), ctx)
                ctx[C_MODE], ctx[C_W] = 1, w
                assert lo <= _points_line(pos, ctx, w, {}) <= hi
            hits += 1
    assert hits >= 10
