"""The solver's node limit: a caller may try an exact solve and give up (``C_NODE_LIMIT``, ``C_ABORTED``)."""

from __future__ import annotations

import numpy as np

from analyser.engine.solver import C_ABORTED, C_NODE_LIMIT, C_NODES, NO_VALUE, solve_cards, solve_value
from analyser.game.rules import make_rules
from analyser.players.solve import Position, Solver, dealt_positions


def deals(players: int, cards: int, count: int, seed: int, preset: str = "trinidad") -> list[Position]:
    return dealt_positions(make_rules(preset, players=players), cards, count, np.random.default_rng(seed))


def run(solver: Solver, pos: Position, limit: int, cards: bool) -> tuple[int, list[int]]:
    w = solver.work
    w.node_limit = limit
    args = (pos.state, pos.rules.as_array(), w.states, w.moves, w.frames, w.tt, w.ctx)
    if cards:
        best = int(solve_cards(*args, w.values))
        return best, [int(v) for v in w.values]
    return int(solve_value(*args)), []


GENEROUS = 1 << 40


def test_a_limit_aborts_and_a_later_solve_is_exact() -> None:
    """A small limit stops the solve (at most the limit's nodes, C_ABORTED set); the same table then
    solves every position exactly as a fresh solver does; a generous limit changes nothing."""
    fresh = Solver(tt_bits=14)
    reused = Solver(tt_bits=14)
    aborted = 0
    for preset, players, cards, seed in (("trinidad", 4, 5, 1), ("trinidad", 2, 7, 2), ("classic", 3, 5, 3)):
        for pos in deals(players, cards, 12, seed, preset):
            for as_cards in (False, True):
                want = run(fresh, pos, 0, as_cards)
                assert fresh.work.ctx[C_ABORTED] == 0
                full = int(fresh.work.ctx[C_NODES])
                for limit in (1, 7, full // 3, full // 2):
                    if 0 < limit < full:
                        run(reused, pos, limit, as_cards)
                        assert reused.work.ctx[C_ABORTED] == 1 and reused.work.ctx[C_NODES] <= limit
                        aborted += 1
                # After the aborted tries, the table they filled answers exactly.
                assert run(reused, pos, 0, as_cards) == want and reused.work.ctx[C_ABORTED] == 0
                # A limit it does not reach: the limited search (its own move order, no endings in one call)
                # gives the same answer. Not a multiple of `full`: the exact solve counts fewer nodes.
                assert run(reused, pos, GENEROUS, as_cards) == want and not reused.work.aborted
                assert reused.work.ctx[C_NODE_LIMIT] == GENEROUS
                if as_cards:
                    assert any(v != NO_VALUE for v in want[1])
    assert aborted > 100


def test_nodes_are_counted_per_call() -> None:
    """Each solve counts its own nodes from 0: the same position solved twice in a row by fresh tables
    counts the same."""
    pos = deals(4, 5, 1, 9)[0]
    a, b = Solver(tt_bits=14), Solver(tt_bits=14)
    a.value(deals(4, 6, 1, 8)[0])  # a has searched something else first
    a.value(pos)
    b.value(pos)
    assert a.nodes > 0 and a.nodes == b.nodes


def test_a_node_cap_stops_the_exact_search_without_changing_it() -> None:
    """``node_cap`` (benchmarks that must end) stops an exact solve like a limit, but below the cap it
    searches exactly as without one: the same nodes and values, the endings and move order of exact solves
    (a node limit would switch to the limited search's own order)."""
    for pos in deals(4, 7, 6, 11):
        plain = Solver(tt_bits=16)
        want = plain.value(pos)
        full = plain.nodes
        capped = Solver(tt_bits=16)
        capped.work.node_cap = full  # reached only after the last node: the solve finishes
        assert capped.value(pos) == want and capped.nodes == full and not capped.work.aborted
        if full > 2:
            capped.work.node_cap = full // 2
            capped.value(pos)
            assert capped.work.aborted and capped.nodes <= full // 2
            capped.work.node_cap = 0
            assert capped.value(pos) == want and not capped.work.aborted


def test_prepare_maps_the_rows_a_search_uses_without_changing_the_table() -> None:
    """Solver.prepare (the table's memory mapped before the clock) writes every row a position's search may
    use, once, and changes no entry: solves after it count the same nodes and give the same values."""
    small, big = deals(4, 3, 1, 5)[0], deals(4, 6, 3, 6)
    plain, prepared = Solver(tt_bits=16), Solver(tt_bits=16)
    values = []
    prepared.prepare(small)
    assert prepared._rows_touched == 1 << (2 + 12 // 2)  # 12 cards out: 2**8 rows of the 2**16
    for pos in big:
        want = plain.value(pos), plain.nodes
        values.append(want[0])
        before = prepared.work.tt.copy()
        prepared.prepare(pos)  # 24 cards out: 2**14 rows, entries of the earlier solves among them
        assert prepared._rows_touched == 1 << 14
        assert np.array_equal(prepared.work.tt, before)
        assert (prepared.value(pos), prepared.nodes) == want
    whole = deals(4, 12, 1, 7)[0]  # 48 cards out: 2**26 rows wanted, the whole table mapped
    prepared.prepare(whole)
    assert prepared._rows_touched == 1 << 16
    solution = prepared.solve(big[0])  # solve() prepares too, before its clock
    assert solution.value == values[0] and solution.nodes > 0


def test_a_stopped_solve_says_what_it_proved() -> None:
    """A solve stopped before its end (here by a node cap, deterministically) answers with ranges that hold:
    each card's exact value lies in its range, the cards it reports solved have their exact value, and the
    position's range holds its value; every preset's player counts, at several points of the search."""
    stopped = 0
    for preset, players, cards, seed in (("trinidad", 4, 7, 21), ("trinidad", 2, 8, 22), ("classic", 3, 6, 23),
                                         ("partnership-seven", 4, 6, 24)):
        for pos in deals(players, cards, 4, seed, preset):
            exact = Solver(tt_bits=16).solve(pos)
            assert exact.finished and exact.value_range == (0, 0) and exact.card_ranges is None
            for fraction in (0.02, 0.3, 0.7, 0.95):
                capped = Solver(tt_bits=16)
                capped.work.node_cap = max(1, int(exact.nodes * fraction))
                got = capped.solve(pos)
                if got.finished:  # the cap fell after the last node: the whole answer
                    assert got.value == exact.value and got.cards == exact.cards
                    continue
                stopped += 1
                assert got.value is None and got.card_ranges is not None
                assert list(got.card_ranges) == list(exact.cards)  # every legal card, in hand order
                for name, (lo, hi) in got.card_ranges.items():
                    assert lo <= exact.cards[name] <= hi
                assert got.cards == {name: v for name, (v, hi) in got.card_ranges.items() if v == hi}
                assert all(exact.cards[name] == v for name, v in got.cards.items())
                lo, hi = got.value_range
                assert lo <= exact.value <= hi
                answer = got.to_json()
                assert answer["stopped"] is True and answer["value"] is None
                assert answer["value_range"] == [lo, hi] and set(answer["card_ranges"]) == set(exact.cards)
    assert stopped > 40


def test_seconds_stop_a_big_solve_with_what_it_proved() -> None:
    """`Solver.solve(..., seconds=S)` stops a search that would take hours (12 cards in each of four hands) after
    about S seconds of search and answers with proved ranges; one that finishes in time answers in full."""
    pos = deals(4, 12, 1, 5)[0]
    solver = Solver.for_position(pos)
    got = solver.solve(pos, seconds=0.5)
    assert not got.finished and got.value is None and got.card_ranges is not None
    assert 0.5 <= got.seconds < 10 and got.nodes > 0
    lo, hi = got.value_range
    assert lo <= hi and all(a <= b <= hi for a, b in got.card_ranges.values())
    small = deals(4, 4, 1, 5)[0]
    quick = Solver().solve(small, seconds=30)
    plain = Solver().solve(small)
    assert quick.finished and (quick.value, quick.cards) == (plain.value, plain.cards)
