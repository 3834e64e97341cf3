"""pimc's inference from the others' cards: the trick loop records the order of play, and a world is
weighed by how many of the opponents' cards the heuristic would not have played holding its hands
(compared with a slow replay from the deal), so the worlds pimc keeps agree with the opponents' play."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.engine.bits import popcount
from analyser.engine.heuristic import heuristic_card
from analyser.engine.layout import (
    E_PLAY, EV_B, EV_TYPE, I_EVENTS, N_INFO, N_STATE, PS_DEALER, PS_HAND, PS_PLAYED, PS_PLAYERS, PS_SCORE,
    PS_START, PS_TO_PLAY, PS_TRICK_MASK, PS_TRUMP, PS_TURNUP, X_DOUBT, X_TRIES,
)
from analyser.engine.playout import playout
from analyser.engine.search import (
    SB_HIST, SB_HIST_N, history_ok, mismatches, new_play_buffer, record_play, sample_likely, sample_world,
    start_history, start_replay,
)
from analyser.engine.state import apply, init_state, is_over, legal
from analyser.players.policy import parse_policy, seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs

PRESETS = [("trinidad", 4), ("trinidad", 2), ("trinidad-tobago", 4), ("partnership-seven", 4), ("classic", 3),
           ("classic", 2)]
HEURISTIC = parse_policy("heuristic")[1]
MODEL = parse_policy("pimc")[1]  # pimc models the others with its own row: the heuristic's rules, its tables


def heuristic_positions(preset: str, players: int, count: int, seed: int):
    """Deals of 6 cards each played by the heuristic, recorded as the trick loop records them,
    cut at a random card decision (with the true hands, for the checks)."""
    from test_search import random_positions  # the deals, dealt at the first lead
    rng = chunk_rngs(seed, 0)[1]
    r = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        rules, state = random_positions(preset, players, 1, seed=int(r.integers(1 << 30)), cut=False)[0]
        state[SB_HIST_N] = 99  # a stale record from an earlier deal: start_history must clear it
        start_history(state)
        for _ in range(int(r.integers(1, 6 * players))):
            card = heuristic_card(HEURISTIC, state, legal(state), rules.as_array(), rng)
            record_play(state, card)
            apply(state, card)
        if not is_over(state):
            out.append((rules, state))
    return out


def slow_mismatches(rules, state, world, seat) -> int:
    """The opponents' cards the heuristic would not have played: the deal replayed from the start
    with the world's hands as dealt (every hand whole, not only what was seen)."""
    n = int(state[PS_PLAYERS])
    side = (lambda s: s % 2) if n == 4 else (lambda s: s)
    hands = np.array([world[PS_START + s] if s < n else 0 for s in range(4)], dtype=np.int64).view(np.uint64)
    replay = np.zeros(N_STATE, dtype=np.int64)
    init_state(replay, rules.as_array(), hands, int(state[PS_TRUMP]), int(state[PS_TURNUP]), int(state[PS_DEALER]),
               state[PS_SCORE:PS_SCORE + 4].copy())
    count = 0
    rng = chunk_rngs(0, 0)[1]
    for card in state[SB_HIST:SB_HIST + state[SB_HIST_N]]:
        mover = int(replay[PS_TO_PLAY])
        options = int(np.uint64(legal(replay)))
        if side(mover) != side(seat):
            if not options >> int(card) & 1:
                count += 1
            elif options & (options - 1) and heuristic_card(HEURISTIC, replay, np.uint64(options),
                                                            rules.as_array(), rng) != card:
                count += 1
        apply(replay, int(card))
    return count


@pytest.mark.parametrize("preset,players", PRESETS)
def test_mismatches_agree_with_a_replay_from_the_deal(preset, players):
    rng = chunk_rngs(7, 0)[1]
    world = np.zeros(N_STATE, dtype=np.int64)
    nonzero = 0
    for rules, state in heuristic_positions(preset, players, 40, seed=players):
        seat = int(state[PS_TO_PLAY])
        assert history_ok(state)
        start_replay(state)
        # The true deal: every opponent's card is the heuristic's.
        assert mismatches(state, state, seat, HEURISTIC, rules.as_array(), rng, 99) == 0
        for _ in range(5):
            sample_world(state, seat, rng, world)
            got = mismatches(state, world, seat, HEURISTIC, rules.as_array(), rng, 99)
            assert got == slow_mismatches(rules, state, world, seat)
            nonzero += got > 0
            # Counting stops at the cap.
            assert mismatches(state, world, seat, HEURISTIC, rules.as_array(), rng, 1) == min(got, 1)
    assert nonzero > 0, "some random worlds disagree with the opponents' play"


def test_likely_worlds_agree_with_the_opponents_play_more_often_than_uniform_ones():
    kind, params = parse_policy("pimc:doubt=0,tries=400")
    assert params[X_DOUBT] == 0 and params[X_TRIES] == 400
    rng = chunk_rngs(3, 0)[1]
    world = np.zeros(N_STATE, dtype=np.int64)
    uniform = likely = total = 0
    for rules, state in heuristic_positions("trinidad", 4, 60, seed=11):
        seat = int(state[PS_TO_PLAY])
        start_replay(state)
        for _ in range(4):
            sample_world(state, seat, rng, world)
            uniform += mismatches(state, world, seat, params, rules.as_array(), rng, 99) == 0
            sample_likely(state, seat, params, rules.as_array(), rng, world)
            likely += mismatches(state, world, seat, params, rules.as_array(), rng, 99) == 0
            total += 1
            # still a world the seat may believe: its hand, the hand sizes, no card it has seen
            assert world[PS_HAND + seat] == state[PS_HAND + seat]
            for o in range(4):
                assert popcount(np.uint64(world[PS_HAND + o])) == popcount(np.uint64(state[PS_HAND + o]))
            assert world[PS_PLAYED] == state[PS_PLAYED] and world[PS_TRICK_MASK] == state[PS_TRICK_MASK]
    # With doubt 0 a world is kept only if consistent (the true one always is), or after 400 draws
    # the likeliest of them: late in a deal few deals are consistent (often 1% of them).
    assert likely >= 0.9 * total
    assert uniform < 0.5 * likely


def test_the_trick_loop_records_the_order_of_play():
    rules = make_rules("trinidad", players=4)
    # a searching seat (playing the heuristic's cards): the record is kept
    kinds, params = seat_policies(["oracle:max_cards=0", "heuristic"] * 2, 4)
    r = np.random.default_rng(5)
    for _ in range(20):
        deck = r.permutation(52)
        hands = np.array([sum(1 << int(c) for c in deck[6 * s:6 * s + 6]) for s in range(4)], dtype=np.uint64)
        state = new_play_buffer(True)
        init_state(state, rules.as_array(), hands, int(deck[30]) // 13, int(deck[30]), 0, np.zeros(4, dtype=np.int64))
        ev = np.zeros((64, 4), dtype=np.int64)
        info = np.zeros(N_INFO, dtype=np.int64)
        playout(state, rules.as_array(), kinds, params, chunk_rngs(1, 0)[1], ev, info)
        plays = [int(row[EV_B]) for row in ev[:info[I_EVENTS]] if row[EV_TYPE] == E_PLAY]
        assert list(state[SB_HIST:SB_HIST + state[SB_HIST_N]]) == plays and len(plays) == 24
        assert history_ok(state)


def test_a_position_without_its_record_infers_nothing():
    rules, state = heuristic_positions("trinidad", 4, 1, seed=2)[0]
    state[SB_HIST_N] -= 1
    assert not history_ok(state)
    kind, params = parse_policy("pimc:worlds=4")
    assert params[X_DOUBT] < 1  # inference is the default


def test_pimc_with_inference_is_reproducible_and_legal():
    from analyser.engine.policies import choose_card
    kind, params = parse_policy("pimc:worlds=6")
    for rules, state in heuristic_positions("trinidad", 4, 15, seed=4):
        m = np.uint64(legal(state))
        a = choose_card(kind, params, state, m, rules.as_array(), chunk_rngs(9, 0)[1])
        b = choose_card(kind, params, state, m, rules.as_array(), chunk_rngs(9, 0)[1])
        assert a == b and int(np.uint64(m)) >> a & 1


def test_the_deal_records_the_bidding_pimc_infers_from():
    from analyser.engine.deal import LINE_WORK, play_line_in
    from analyser.engine.layout import E_BEG, E_DEAL, E_GIVE, E_RUN, E_STAND, N_WHY
    from analyser.engine.search import BID_GIVEN, BID_STOOD, BID_UNKNOWN, SB_BID, SB_BID_SCORES, SB_BID_TURNUP
    rules = make_rules("trinidad", players=4)
    kinds, params = seat_policies(["oracle:max_cards=0"], 4)
    seen = set()
    for line in range(60):
        deck_rng, rng = chunk_rngs(line, 0)
        state = new_play_buffer(True)
        ev = np.zeros((512, 4), dtype=np.int64)
        info = np.zeros(N_INFO, dtype=np.int64)
        force_beg = 1 if line % 3 == 2 else -1  # a study's forced beg says nothing about the hand
        play_line_in(rules.as_array(), line % 4, np.zeros(4, dtype=np.int64), np.arange(52, dtype=np.int64), 0,
                     force_beg, -1, kinds, params, deck_rng, rng, ev, info, np.zeros((4, N_WHY), dtype=np.int64),
                     np.zeros(LINE_WORK, dtype=np.uint64), state)
        types = [int(t) for t in ev[:info[I_EVENTS], EV_TYPE]]
        if E_PLAY not in types:
            continue
        last_deal = len(types) - 1 - types[::-1].index(E_DEAL)  # a redeal bids again, unforced
        bids = [t for t in types[last_deal:] if t in (E_STAND, E_BEG, E_GIVE, E_RUN)]
        if E_RUN in bids or (force_beg == 1 and last_deal == 0):
            want = BID_UNKNOWN
        else:
            want = BID_GIVEN if E_GIVE in bids else BID_STOOD
        assert state[SB_BID] == want, (bids, force_beg)
        seen.add(want)
        if want != BID_UNKNOWN:
            assert state[SB_BID_TURNUP] == state[PS_TURNUP]
            # the scores the bidding saw: before a gift, after the kick
            gift = 1 if want == BID_GIVEN else 0  # trinidad's gift is one point
            eside = (line % 4 + 1) % 2
            expect = state[PS_SCORE:PS_SCORE + 4].copy()
            expect[eside] -= gift
            assert list(state[SB_BID_SCORES:SB_BID_SCORES + 4]) == list(expect)
    assert seen == {BID_UNKNOWN, BID_STOOD, BID_GIVEN}


@pytest.mark.parametrize("preset,players", [("trinidad", 4), ("classic", 2)])
def test_bid_mismatches_are_the_others_bids_pimc_would_not_have_made(preset, players):
    from analyser.engine.heuristic import heuristic_beg, heuristic_give
    from analyser.engine.search import BID_GIVEN, BID_STOOD, SB_BID, bid_mismatches, record_bid
    rng = chunk_rngs(5, 0)[1]
    world = np.zeros(N_STATE, dtype=np.int64)
    scores = np.array([3, 5, 0, 0], dtype=np.int64)
    for rules, state in heuristic_positions(preset, players, 30, seed=8):
        seat = int(state[PS_TO_PLAY])
        dealer = int(state[PS_DEALER])
        eldest = (dealer + 1) % players
        for bid in (BID_STOOD, BID_GIVEN):
            record_bid(state, bid, int(state[PS_TURNUP]), scores)
            for _ in range(3):
                sample_world(state, seat, rng, world)
                want = 0
                if eldest != seat:
                    begs = heuristic_beg(HEURISTIC, np.uint64(world[PS_START + eldest]), int(state[PS_TURNUP]), eldest,
                                         dealer, scores, rules.as_array(), rng)
                    want += begs != (bid == BID_GIVEN)
                if bid == BID_GIVEN and dealer != seat:
                    want += not heuristic_give(HEURISTIC, np.uint64(world[PS_START + dealer]), int(state[PS_TURNUP]),
                                               dealer, dealer, scores, rules.as_array(), rng)
                assert bid_mismatches(state, world, seat, MODEL, rules.as_array(), rng) == want
        state[SB_BID] = 0
        assert bid_mismatches(state, world, seat, MODEL, rules.as_array(), rng) == 0
