"""Small rule kernels against the slow reference, on many random inputs."""

from __future__ import annotations

import random

import numpy as np

from analyser.game.cards import card_name, mask_of, parse_card
from analyser.engine.bits import (
    game_points, highest_card, lowest_card, nth_card, nth_card_loop, nth_card_pdep, pdep_is_fast, popcount,
)
from analyser.engine.deal import kick_points, legal_mask, trick_winner
from analyser.game.rules import KICKS

try:
    import reference_rules as ref
except ImportError:  # tests/ is a package
    from tests import reference_rules as ref


def test_bit_helpers_match_python():
    rng = random.Random(1)
    for _ in range(2000):
        cards = rng.sample(range(52), rng.randrange(1, 20))
        m = np.uint64(mask_of(cards))
        assert popcount(m) == len(cards)
        assert lowest_card(m) == min(cards) and highest_card(m) == max(cards)
        k = rng.randrange(len(cards))
        assert nth_card(m, k) == nth_card_loop(m, k) == sorted(cards)[k]
        if pdep_is_fast():  # the PDEP kernel only compiles where the processor has it
            assert nth_card_pdep(m, k) == sorted(cards)[k]


def test_legal_mask_matches_reference():
    rng = random.Random(2)
    for _ in range(20000):
        hand = rng.sample(range(52), rng.randrange(1, 13))
        rest = [c for c in range(52) if c not in hand]
        trick = rng.sample(rest, rng.randrange(0, 4))
        trump = rng.randrange(4)
        forbid = rng.random() < 0.5
        void_trump = rng.random() < 0.5
        led = trick[0] // 13 if trick else -1
        trumps = [c for c in trick if c // 13 == trump]
        top = max(trumps) if trumps else -1
        got = int(legal_mask(np.uint64(mask_of(hand)), led, trump, top, forbid, void_trump))
        names = [card_name(c) for c in hand]
        want = ref.legal_plays(names, [card_name(c) for c in trick], "SHDC"[trump],
                               "forbidden" if forbid else "allowed", "trump" if void_trump else "any")
        assert got == mask_of(parse_card(c) for c in want), (names, trick, trump, forbid, void_trump)


def test_trick_winner_matches_reference():
    rng = random.Random(3)
    for _ in range(20000):
        n = rng.choice([2, 3, 4])
        cards = rng.sample(range(52), n)
        trump = rng.randrange(4)
        plays = [(seat, card_name(c)) for seat, c in enumerate(cards)]
        assert trick_winner(np.array(cards, dtype=np.int64), trump) == ref.trick_winner(plays, "SHDC"[trump])


def test_kick_and_game_points_match_reference():
    for card in range(52):
        for code, kick in enumerate(KICKS):
            want = 0 if kick == "final-jack" else ref.kick_value(card_name(card), kick)
            assert kick_points(code, card) == want
    rng = random.Random(4)
    for _ in range(5000):
        cards = rng.sample(range(52), rng.randrange(0, 30))
        assert game_points(np.uint64(mask_of(cards))) == sum(ref.card_points(card_name(c)) for c in cards)
    assert game_points(np.uint64((1 << 52) - 1)) == 4 * (10 + 4 + 3 + 2 + 1)


def test_rank_picks_match_a_loop_over_the_ranks():
    # heuristic.lowest_rank / highest_rank fold the four suits instead of looping over the ranks: the card of
    # lowest (highest) rank, ties to the lower suit, as the loops they replaced.
    from analyser.engine.bits import next_seat
    from analyser.engine.heuristic import highest_rank, lowest_rank

    def by_loop(cards, ranks):
        for r in ranks:
            hit = [c for c in cards if c % 13 == r]
            if hit:
                return min(hit)
        return None

    rng = random.Random(7)
    for _ in range(3000):
        cards = rng.sample(range(52), rng.randrange(1, 14))
        m = np.uint64(mask_of(cards))
        assert lowest_rank(m) == by_loop(cards, range(13))
        assert highest_rank(m) == by_loop(cards, range(12, -1, -1))
    for players in (2, 3, 4):
        assert [next_seat(s, players) for s in range(players)] == [(s + 1) % players for s in range(players)]


def test_simulate_lines_checks_its_arrays_and_counts_the_lines_it_played():
    # simulate_lines is the Python wrapper of the kernel simulate_lines_in (docs/speed.md, "The kernel as
    # compiled"): it checks the arrays the kernel cannot, and returns the lines played as an int.
    import pytest

    from analyser.engine.deal import N_STATS, S_LINES, new_match_state, simulate_lines
    from analyser.engine.layout import N_EV_COLS, N_LINE_META
    from analyser.players.policy import seat_policies
    from analyser.game.rules import make_rules
    from analyser.players.simulate import NO_EVENTS, NO_META, chunk_rngs

    rules = make_rules("trinidad").as_array()
    kinds, params = seat_policies(["random"], 4)
    stats = np.zeros(N_STATS, dtype=np.int64)
    done = simulate_lines(rules, 50, new_match_state(4), kinds, params, *chunk_rngs(1, 0), NO_EVENTS, NO_META, stats)
    assert isinstance(done, int) and done == 50 == stats[S_LINES]
    with pytest.raises(ValueError, match="stats N_STATS"):
        simulate_lines(rules, 5, new_match_state(4), kinds, params, *chunk_rngs(1, 0), NO_EVENTS, NO_META,
                       np.zeros(3, dtype=np.int64))
    events = np.zeros((100_000, N_EV_COLS), dtype=np.int64)
    with pytest.raises(ValueError, match="a row of N_LINE_META per line"):
        simulate_lines(rules, 5, new_match_state(4), kinds, params, *chunk_rngs(1, 0), events,
                       np.zeros((2, N_LINE_META), dtype=np.int64), stats)


def test_simulate_lines_starts_every_call_from_the_same_scratch_whatever_the_last_call_left_there():
    # simulate_lines keeps its scratch for the thread's next call (deal.line_scratch) and sets it back to zeros
    # and the deck in order: a call plays the same lines in a fresh thread as after other calls in this one.
    import threading

    from analyser.engine.deal import N_STATS, line_scratch, new_match_state, simulate_lines
    from analyser.engine.layout import N_EV_COLS, N_LINE_META
    from analyser.players.policy import seat_policies
    from analyser.game.rules import make_rules
    from analyser.players.simulate import chunk_rngs

    def play(rules_name: str, players: int, policy: str) -> tuple[list[int], list[int]]:
        rules = make_rules(rules_name, players=players).as_array()
        kinds, params = seat_policies([policy], players)
        stats = np.zeros(N_STATS, dtype=np.int64)
        events = np.zeros((40 * 200, N_EV_COLS), dtype=np.int64)
        meta = np.zeros((40, N_LINE_META), dtype=np.int64)
        simulate_lines(rules, 40, new_match_state(players), kinds, params, *chunk_rngs(3, 1), events, meta, stats)
        return stats.tolist(), events[:, :].ravel().tolist()

    cases = [("trinidad", 4, "heuristic"), ("classic", 3, "random"), ("trinidad", 4, "oracle"),
             ("trinidad-tobago", 4, "random:beg=0")]
    fresh: list[tuple[list[int], list[int]]] = []
    for case in cases:  # each in a thread of its own: scratch made for it
        worker = threading.Thread(target=lambda c=case: fresh.append(play(*c)))
        worker.start()
        worker.join()
    for case, expected in zip(cases + cases[::-1], fresh + fresh[::-1]):  # one thread, the scratch reused
        assert play(*case) == expected
    views = line_scratch(100)
    views[0][:] = 7
    views[-1][:] = 9
    again = line_scratch(100)
    assert again[0] is views[0] and again[0].tolist() == list(range(52)) and not again[-1].any()
    assert line_scratch(101)[-1].shape == (101,)  # another play buffer's size: a block made for it


def test_arrays_a_thread_writes_share_no_cache_line_with_other_arrays():
    # False sharing: numpy puts small arrays side by side, so two threads' streams or scores could share a line.
    from analyser.engine.bits import CACHE_LINE, private_zeros, rng_state
    from analyser.engine.deal import new_match_state
    from analyser.engine.search import play_buffer_for

    def lines(a: np.ndarray) -> range:
        return range(a.ctypes.data // CACHE_LINE, (a.ctypes.data + a.nbytes - 1) // CACHE_LINE + 1)

    private, others = [], []
    for size in range(1, 40):
        private += [private_zeros(size, np.int64), private_zeros((2, size), np.uint64),
                    rng_state(np.random.SeedSequence(size)), new_match_state(4),
                    play_buffer_for(np.zeros(4, dtype=np.int64))]
        others += [np.zeros(size % 7 + 1, dtype=np.int64), np.ones(3, dtype=np.uint8)]
    assert all(a.ctypes.data % CACHE_LINE == 0 and a.flags.c_contiguous and a.flags.writeable for a in private)
    owners: dict[int, int] = {}
    for k, a in enumerate(private + others):
        for line in lines(a):
            first = owners.setdefault(line, k)
            assert first == k or (k >= len(private) and first >= len(private))  # only the others share lines
