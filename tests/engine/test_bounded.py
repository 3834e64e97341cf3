"""pimc's bounded search (engine/bounded.py): legal cards only, the solver's values wherever both reach the end,
the same answer from the same seed, and pimc of before with ``max_cards=24``."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.engine.bounded import bounded_cards, cards_in_hands, world_cards
from analyser.engine.layout import K_PIMC, N_STATE, PS_TO_PLAY, X_HORIZON, X_MAX_CARDS, X_NODES
from analyser.engine.policies import choose_card
from analyser.engine.search import (
    SB_BEST, SB_CTX, SB_END, SB_EXACT, SB_FRAMES, SB_MOVES, SB_SCRATCH, SB_STATES, SB_SUMS, SB_TT, SB_VALUES, SB_WORLD,
    bounded_world_values, record_play, sample_world,
)
from analyser.engine.solver import (
    C_ABORTED, C_NODE_CAP, C_NODE_LIMIT, C_NODES, MOVE_SLOTS, N_FRAME, NO_VALUE, TT_WORDS, solve_cards,
)
from analyser.engine.state import apply, is_over, legal
from analyser.players.policy import parse_policy
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs
from analyser.players.solve import dealt_play_buffer


def deal(players: int, cards: int, seed: int, plies: int = 0):
    """A play buffer: `cards` cards dealt to each seat (trinidad), then `plies` cards played by the heuristic
    (``solve.dealt_play_buffer``, as scripts/bounded_bench.py builds its positions)."""
    rules = make_rules("trinidad", players=players)
    state = dealt_play_buffer(rules, cards, np.random.default_rng(seed), plies=plies,
                              heuristic=parse_policy("heuristic")[1])
    return rules, state


def _solver_views(buf):
    """The solver's work arrays in a play buffer's search area (as search._solver_views cuts them)."""
    rows = (SB_MOVES - SB_STATES) // N_STATE
    return (buf[SB_STATES:SB_MOVES].reshape((rows, N_STATE)), buf[SB_MOVES:SB_FRAMES].reshape((rows, MOVE_SLOTS)),
            buf[SB_FRAMES:SB_CTX].reshape((rows, N_FRAME)), buf[SB_TT:SB_END].reshape((-1, TT_WORDS)),
            buf[SB_CTX:SB_VALUES], buf[SB_VALUES:SB_SUMS])


def legal_list(state) -> list[int]:
    m = int(np.uint64(legal(state)))
    return [c for c in range(52) if m >> c & 1]


def exact_values(state, rules) -> np.ndarray:
    """Each legal card's value by the solver alone (no limit), in the buffer's own work area."""
    states, moves, frames, tt, ctx, values = _solver_views(state)
    world = state[:N_STATE].copy()
    solve_cards(world, rules.as_array(), states, moves, frames, tt, ctx, values)
    assert ctx[C_ABORTED] == 0
    return values.copy()


@pytest.mark.parametrize("players,cards,plies", [(4, 6, 3), (2, 9, 5), (4, 9, 0)])
def test_bounded_values_are_the_solvers_when_the_horizon_reaches_the_end(players, cards, plies):
    """With a horizon of every card left, the continuation plays nothing: each card's value is the solver's
    value of the position after it, seen from the mover's side (negated when the other side moves next)."""
    for seed in range(4):
        rules, state = deal(players, cards, seed, plies)
        if is_over(state):
            continue
        want = exact_values(state, rules)
        states, moves, frames, tt, ctx, _ = _solver_views(state)
        got = np.zeros(52, dtype=np.int64)
        _, params = parse_policy("pimc")
        line = state[SB_SCRATCH:SB_BEST]
        world = state[:N_STATE].copy()
        bounded_cards(world, rules.as_array(), params, chunk_rngs(1, 0)[1], cards_in_hands(world), states, moves, frames,
                      tt, ctx, got, line)
        assert list(got) == list(want)


def world_of_27_cards():
    """A 27-card world (9 dealt each, 9 plies played), its exact card values, and `world_cards(horizon, limit)`
    on it, writing the values into `got` (in the buffer's own work area, pimc's parameter row)."""
    rules, state = deal(4, 9, 0, plies=9)
    _, params = parse_policy("pimc")
    states, moves, frames, tt, ctx, _ = _solver_views(state)
    want = exact_values(state, rules)
    world = state[:N_STATE].copy()
    got = np.zeros(52, dtype=np.int64)
    rng = chunk_rngs(1, 0)[1]
    line = state[SB_SCRATCH:SB_BEST]

    def values(horizon: int, limit: int) -> int:
        return world_cards(world, rules.as_array(), params, rng, horizon, limit, states, moves, frames, tt, ctx, got,
                           line)

    return rules, state, params, ctx, want, got, values


def test_world_cards_is_exact_within_the_budget_and_bounded_beyond_it():
    _, state, _, _, want, got, values = world_of_27_cards()
    assert values(24, 0) == 0
    assert values(24, 10) == 0
    assert all((got[c] != NO_VALUE) == (c in legal_list(state)) for c in range(52))
    # a budget the solve fits in (none), or a horizon of every card: the solver's values
    assert values(24, 10**12) == 1
    assert list(got) == list(want)
    assert values(27, 0) == 1
    assert list(got) == list(want)


def test_a_negative_budget_is_the_exact_search_stopped_there_and_finishes_where_the_limited_one_cannot():
    # limit < 0 (hint, analyse): the exact search (its move order, its endings) stopped at -limit nodes; limit > 0
    # (pimc): the limited search its answers were pinned with. Issue 32: the search that answers big positions
    # solves exactly wherever the exact search finishes within the budget.
    rules, state, params, ctx, want, got, values = world_of_27_cards()
    assert values(27, 0) == 1
    nodes = int(ctx[C_NODES])  # the exact search's own count (15,053 nodes here)
    assert values(24, -nodes) == 1
    assert list(got) == list(want) and int(ctx[C_NODES]) == nodes
    assert ctx[C_NODE_CAP] == 0 and ctx[C_NODE_LIMIT] == 0  # nothing left set for the next solve
    assert values(24, nodes) == 0  # the limited search gives up within the same budget
    assert values(24, -(nodes // 2)) == 0
    assert all((got[c] != NO_VALUE) == (c in legal_list(state)) for c in range(52))  # bounded values instead
    exact = bounded_world_values(state, rules.as_array(), 1, chunk_rngs(5, 0)[1], np.zeros((1, 52), dtype=np.int64),
                                 params, 24, -(10**12))
    assert exact == 1


def test_pimc_plays_legal_cards_in_twelve_card_deals_and_reports_its_method():
    kind, params = parse_policy("pimc:worlds=4")
    assert kind == K_PIMC and params[X_MAX_CARDS] == 52 and params[X_HORIZON] == 24 and params[X_NODES] > 0
    rules, state = deal(4, 12, 1)
    hkind, hparams = parse_policy("heuristic")
    rng = chunk_rngs(2, 0)[1]
    seen_bounded = False
    while not is_over(state):
        m = np.uint64(legal(state))
        card = choose_card(kind, params, state, m, rules.as_array(), rng)
        assert int(m) >> int(card) & 1
        if int(m) & (int(m) - 1) and cards_in_hands(state) > 24:
            seen_bounded = seen_bounded or state[SB_EXACT] < 4
        played = choose_card(hkind, hparams, state, m, rules.as_array(), rng)
        record_play(state, played)
        apply(state, played)
    assert seen_bounded


def test_same_seed_same_answer():
    kind, params = parse_policy("pimc:worlds=6")
    for seed in range(3):
        rules, state = deal(4, 12, seed, plies=seed)
        m = np.uint64(legal(state))
        a = choose_card(kind, params, state, m, rules.as_array(), chunk_rngs(7, 0)[1])
        sums = state[SB_SUMS:SB_WORLD].copy()
        b = choose_card(kind, params, state, m, rules.as_array(), chunk_rngs(7, 0)[1])
        assert a == b and list(sums) == list(state[SB_SUMS:SB_WORLD])
        rows = [np.zeros((6, 52), dtype=np.int64) for _ in range(2)]
        for out in rows:
            bounded_world_values(state, rules.as_array(), 6, chunk_rngs(5, 0)[1], out, params, 24, 0)
        assert (rows[0] == rows[1]).all()


def test_max_cards_24_is_the_pimc_of_before():
    """Above 24 cards pimc:max_cards=24 plays the heuristic's card."""
    kind, params = parse_policy("pimc:worlds=4,max_cards=24")
    hkind, hparams = parse_policy("heuristic")
    for seed in range(4):
        rules, state = deal(4, 9, seed, plies=seed)
        m = np.uint64(legal(state))
        rng = chunk_rngs(1, 0)[1]
        assert choose_card(kind, params, state, m, rules.as_array(), rng) == \
            choose_card(hkind, hparams, state, m, rules.as_array(), rng)


def test_bounded_world_values_uses_the_worlds_pimc_draws():
    """The same stream draws the same worlds for the bounded search as for the exact one."""
    rules, state = deal(4, 9, 2)
    _, params = parse_policy("pimc")
    seat = int(state[PS_TO_PLAY])
    world = np.zeros(N_STATE, dtype=np.int64)
    rng = chunk_rngs(3, 0)[1]
    sample_world(state, seat, rng, world)
    out = np.zeros((1, 52), dtype=np.int64)
    rng = chunk_rngs(3, 0)[1]
    exact = bounded_world_values(state, rules.as_array(), 1, rng, out, params, 24, 0)
    assert exact == 0 and (state[SB_WORLD:SB_WORLD + N_STATE] == world).all()
