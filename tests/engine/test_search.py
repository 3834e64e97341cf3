"""The search players: pimc's worlds are consistent with what its seat has seen, the oracle plays
the solver's best card, and both play only legal cards (refereed logs, every preset)."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.game.cards import card_name
from analyser.engine.bits import popcount
from analyser.engine.layout import (
    K_ORACLE, K_PIMC, N_STATE, PS_HAND, PS_IN_PLAY, PS_PLAYED, PS_PLAYERS, PS_START, PS_TO_PLAY, PS_TRICK_MASK,
    PS_TRUMP, PS_TURNUP, PS_VOIDS, X_MAX_CARDS, X_WORLDS,
)
from analyser.engine.policies import choose_card
from analyser.engine.search import (
    SB_END, SB_SUMS, SB_WORLD, new_play_buffer, play_buffer_for, sample_world, search_values, unseen_by,
)
from analyser.engine.state import apply, init_state, is_over, legal
from analyser.players.policy import parse_policy, seat_policies
from analyser.referee import referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs, iter_log_lines
from analyser.players.solve import Position, Solver

FULL = (1 << 52) - 1


def random_positions(preset: str, players: int, count: int, seed: int, settings: tuple[str, ...] = (),
                     cut: bool = True):
    """Play states of random deals (6 cards each), cut at a random card decision (random players),
    or at the first lead (`cut` False)."""
    rules = make_rules(preset, players=players, settings=list(settings))
    r = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        deck = r.permutation(52)
        hands = np.zeros(4, dtype=np.uint64)
        for s in range(players):
            hands[s] = np.uint64(sum(1 << int(c) for c in deck[6 * s:6 * s + 6]))
        turnup = int(deck[6 * players])
        state = new_play_buffer(True)
        init_state(state, rules.as_array(), hands, turnup // 13, turnup, int(r.integers(players)),
                   np.zeros(4, dtype=np.int64))
        for _ in range(int(r.integers(0, 6 * players)) if cut else 0):
            cards = [c for c in range(52) if int(legal(state)) >> c & 1]
            apply(state, int(r.choice(cards)))
        if not is_over(state):
            out.append((rules, state))
    return out


def mask(x) -> int:
    return int(np.uint64(x))


@pytest.mark.parametrize("preset,players", [("trinidad", 4), ("classic", 3), ("classic", 2),
                                            ("classic", 4)])
def test_worlds_are_consistent_with_what_the_seat_has_seen(preset, players):
    rng = chunk_rngs(11, 0)[1]
    exact = 0
    tried = 0
    for rules, state in random_positions(preset, players, 60, seed=players):
        seat = int(state[PS_TO_PLAY])
        unseen = mask(unseen_by(state, seat))
        world = np.zeros(N_STATE, dtype=np.int64)
        for _ in range(5):
            exact += sample_world(state, seat, rng, world)
            tried += 1
            assert mask(world[PS_HAND + seat]) == mask(state[PS_HAND + seat])
            dealt = 0
            for o in range(players):
                hand = mask(world[PS_HAND + o])
                assert popcount(np.uint64(hand)) == popcount(np.uint64(state[PS_HAND + o])), "hand sizes are known"
                assert dealt & hand == 0, "a card dealt twice"
                dealt |= hand
                played = mask(state[PS_START + o]) & ~mask(state[PS_HAND + o])
                assert mask(world[PS_START + o]) == played | hand
                if o != seat:
                    assert hand & ~unseen == 0, "a world deals a card the seat has seen"
                    for suit in range(4):
                        if state[PS_VOIDS + o] >> suit & 1:
                            assert hand >> (13 * suit) & 0x1FFF == 0, "a world breaks a shown void"
            trumps = 0x1FFF << (13 * int(state[PS_TRUMP]))
            starts = 0
            for o in range(players):
                starts |= mask(world[PS_START + o])
            assert mask(world[PS_IN_PLAY]) == starts & trumps
            # the public part of the position is untouched
            for i in (PS_PLAYED, PS_TRICK_MASK, PS_TRUMP, PS_TURNUP, PS_TO_PLAY, PS_PLAYERS):
                assert world[i] == state[i]
    assert exact >= 0.9 * tried, "nearly every world is drawn exactly (by rejection)"


def test_worlds_deal_the_unseen_cards_uniformly():
    # At the first lead (no voids yet), each unseen card is in a given other seat's hand with
    # probability (its hand size) / (cards unseen): 6/45 with four players.
    rules, state = random_positions("trinidad", 4, 1, seed=7, cut=False)[0]
    seat = int(state[PS_TO_PLAY])
    other = (seat + 1) % 4
    unseen = [c for c in range(52) if mask(unseen_by(state, seat)) >> c & 1]
    assert len(unseen) == 45
    rng = chunk_rngs(3, 0)[1]
    world = np.zeros(N_STATE, dtype=np.int64)
    n = 9000
    counts = np.zeros(52)
    for _ in range(n):
        sample_world(state, seat, rng, world)
        h = mask(world[PS_HAND + other])
        counts += [(h >> c) & 1 for c in range(52)]
    p = 6 / 45
    se = np.sqrt(p * (1 - p) / n)
    freq = counts[unseen] / n
    assert np.all(np.abs(freq - p) < 5 * se)


def test_oracle_values_are_the_solvers():
    solver = Solver()
    sums = np.zeros(52, dtype=np.int64)
    for rules, state in random_positions("classic", 4, 25, seed=5):
        solution = solver.solve(Position(rules, state[:N_STATE].copy()))
        search_values(state, rules.as_array(), 0, chunk_rngs(1, 0)[1], sums)
        got = {card_name(c): int(sums[c]) for c in range(52) if mask(legal(state)) >> c & 1}
        assert got == solution.cards


def test_oracle_plays_a_card_of_best_value():
    kind, params = parse_policy("oracle")
    solver = Solver()
    for rules, state in random_positions("trinidad", 4, 40, seed=9):
        card = choose_card(kind, params, state, np.uint64(legal(state)), rules.as_array(), chunk_rngs(1, 0)[1])
        solution = solver.solve(Position(rules, state[:N_STATE].copy()))
        assert solution.cards[card_name(card)] == solution.value


def test_pimc_chooses_the_best_mean_over_its_worlds_and_is_reproducible():
    kind, params = parse_policy("pimc:worlds=8")
    assert kind == K_PIMC and params[X_WORLDS] == 8
    for rules, state in random_positions("trinidad", 2, 20, seed=2):
        legal_cards = mask(legal(state))
        a = choose_card(kind, params, state, np.uint64(legal_cards), rules.as_array(), chunk_rngs(4, 0)[1])
        sums = state[SB_SUMS:SB_WORLD].copy()
        b = choose_card(kind, params, state, np.uint64(legal_cards), rules.as_array(), chunk_rngs(4, 0)[1])
        assert a == b and legal_cards >> a & 1
        if legal_cards & (legal_cards - 1):
            best = max(sums[c] for c in range(52) if legal_cards >> c & 1)
            assert sums[a] == best


def test_search_players_refuse_a_state_without_the_search_area():
    rules, state = random_positions("trinidad", 4, 1, seed=1)[0]
    kind, params = parse_policy("oracle:max_cards=52")
    small = state[:N_STATE].copy()
    m = np.uint64(legal(small))  # a uint64, as the engine passes it (else choose_card compiles again)
    if popcount(m) > 1:
        with pytest.raises(ValueError, match="play buffer"):
            choose_card(kind, params, small, m, rules.as_array(), chunk_rngs(1, 0)[1])
    assert len(play_buffer_for(np.array([K_ORACLE, 0]))) == SB_END
    assert len(play_buffer_for(np.array([0, 1]))) == N_STATE


def test_max_cards_hands_big_positions_to_the_heuristic():
    kind, params = parse_policy("oracle:max_cards=0")
    assert params[X_MAX_CARDS] == 0
    hkind, hparams = parse_policy("heuristic")
    for rules, state in random_positions("trinidad", 4, 20, seed=4):
        m = np.uint64(legal(state))
        rng = chunk_rngs(1, 0)[1]
        assert choose_card(kind, params, state, m, rules.as_array(), rng) == \
            choose_card(hkind, hparams, state, m, rules.as_array(), rng)


@pytest.mark.parametrize("preset,players,spec", [
    ("trinidad", 4, "pimc:worlds=4"), ("trinidad", 2, "oracle"), ("trinidad-tobago", 4, "oracle"),
    ("partnership-seven", 4, "pimc:worlds=3"), ("classic", 3, "pimc:worlds=3"), ("classic", 2, "pimc:worlds=3"),
])
def test_search_players_play_legal_deals_every_preset(preset, players, spec):
    settings = ["undertrump=forbidden"] if preset == "classic" else []
    rules = make_rules(preset, players=players, settings=settings)
    kinds, params = seat_policies([spec, "heuristic"] * (players // 2) + [spec] * (players % 2), players)
    lines = list(iter_log_lines(rules, 12, 5, kinds, params))
    assert any(e["event"] == "play" for line in lines for e in line["events"])
    for line in lines:
        verdict = referee_line(line)  # raises LogError on an illegal card
        assert not verdict.scored, "the log carries its own points, and the referee agrees with them"


def test_tip_switches_bind_the_search_players_and_take_words():
    from analyser.engine.tips import tip_allowed
    kind, on = parse_policy("oracle:tip_trump_ace=on,tip_keep_game_cards=on,tip_capture_jack=off")
    assert (on[15], on[16], on[13]) == (1.0, 1.0, 0.0)
    assert parse_policy("pimc:tip_trump_ace=auto")[1][15] == -1.0
    narrowed = 0
    for rules, state in random_positions("classic", 4, 60, seed=12):
        m = np.uint64(legal(state))
        allowed = mask(tip_allowed(on, state, m))
        narrowed += allowed != mask(m)
        card = choose_card(kind, on, state, m, rules.as_array(), chunk_rngs(1, 0)[1])
        assert allowed >> card & 1, "the search plays only cards the switches allow"
    assert narrowed > 0, "some position is one of the tips' situations"


def test_search_players_bid_by_the_tuned_tables_the_heuristics_rules_by_default():
    from analyser.engine.layout import T_BEG
    from analyser.engine.policies import decide_beg
    rules = make_rules("trinidad").as_array()
    kind, row = parse_policy("pimc")
    hkind, hrow = parse_policy("heuristic")
    always = row.copy()
    always[T_BEG:T_BEG + 33] = 1.0
    r = np.random.default_rng(1)
    scores = np.zeros(4, dtype=np.int64)
    for _ in range(200):
        cards = r.choice(52, 7, replace=False)
        hand = np.uint64(sum(1 << int(c) for c in cards[:6]))
        rng = chunk_rngs(1, 0)[1]
        args = (hand, int(cards[6]), 0, 3, scores, rules, rng)
        assert decide_beg(kind, row, *args) == decide_beg(hkind, hrow, *args)
        assert decide_beg(kind, always, *args)


def test_strategy_tables_with_pimc_playing_the_cards():
    from analyser.analysis.bidding.strategy import run_strategy
    result = run_strategy(make_rules("trinidad", players=2), "pimc:worlds=2", deals=60, seed=2, rounds=1, threads=1)
    eldest = result.final("eldest")
    assert eldest["n"].sum() == 60 and set(eldest["recommend"]) <= {"stand", "beg", ""}  # "": a class never dealt


def test_search_players_take_a_runs_tables(tmp_path):
    import json

    from analyser.engine.layout import T_BEG, T_GIVE
    from analyser.players.policy import PolicyError

    st = tmp_path / "st"
    st.mkdir()
    (st / "tuned.json").write_text(json.dumps({"format": "allfours-tuned/1", "eldest": {"T0": "beg", "T1": "stand"},
                                               "dealer": {"T3": "give"}}))
    kind, row = parse_policy(f"pimc:worlds=5,tables={st}")
    _, tuned = parse_policy(f"tuned:{st}")
    assert row[T_BEG] == 1.0 and row[T_BEG + 1] == 0.0 and row[T_BEG + 2] == -1.0  # T0 beg, T1 stand, else the rule
    np.testing.assert_array_equal(row[T_BEG:T_GIVE + 33], tuned[T_BEG:T_GIVE + 33])
    assert parse_policy(f"oracle:tables={st / 'tuned.json'}")[1][T_BEG] == 1.0
    eq = tmp_path / "eq"
    eq.mkdir()
    (eq / "equilibrium.json").write_text(json.dumps({"format": "allfours-equilibrium/1", "classes": "coarse",
                                                     "eldest": [{"class": "T0", "p_beg": 0.25}], "dealer": []}))
    assert parse_policy(f"pimc:tables={eq}")[1][T_BEG] == 0.25
    for spec, message in ((f"pimc:tables={tmp_path}", "no tuned.json or equilibrium.json"),
                          (f"heuristic:tables={st}", "known are"), ("pimc:tablez=1", "tables")):
        with pytest.raises(PolicyError, match=message):
            parse_policy(spec)
