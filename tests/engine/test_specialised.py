"""The trick loops specialised for speed (``playout.random_tricks``, ``playout.rules_tricks``,
``playout.play_cards`` with the legal rule compiled in and ``state.step_play``) play card for card as the general
kernels (``state.legal``, the policy, ``state.apply``): the same cards from the same streams, the same final position
(but for the voids and lacks a play shows, which the specialised loops do not keep), on random deals of every preset
and player count, from the first lead or a few cards on, with the undertrump and void-play rules switched both ways,
and seats of every kind the loop calls apart (random, the heuristic with and without tip switches, and `tuned`, whose
card play is the heuristic's)."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from analyser.engine.layout import E_PLAY, K_RANDOM, K_TUNED, N_INFO, N_STATE, PS_LACKS, PS_TO_PLAY, PS_VOIDS
from analyser.engine.bits import lowest_card, random_card
from analyser.engine.playout import playout
from analyser.engine.policies import choose_card_plain
from analyser.engine.state import apply, init_state, is_over, legal
from analyser.players.policy import seat_policies
from analyser.game.rules import PRESET_PLAYERS, PRESETS, make_rules

POLICIES = (["random"], ["heuristic"], ["heuristic", "random"],
            ["heuristic:tip_trump_ace=on,tip_keep_game_cards=off,tip_capture_jack=on"],
            ["tuned", "heuristic:tip_trump_ace=on"])  # "tuned": the heuristic's row played as K_TUNED (its card play)
VARIANTS = ([], ["undertrump=forbidden"], ["void_play=trump"], ["undertrump=forbidden", "void_play=trump"],
            ["void_play=any"])
SHOWN = [PS_VOIDS + s for s in range(4)] + [PS_LACKS + s for s in range(4)]


@njit
def general_play(state, rules, kinds, params, rng, cards):
    """Every card by the general kernels: the legal mask from the state, the seat's policy, apply."""
    k = 0
    while not is_over(state):
        seat = state[PS_TO_PLAY]
        mask = legal(state)
        if kinds[seat] == K_RANDOM:
            card = random_card(rng, mask)
        elif (mask & (mask - np.uint64(1))) == 0:
            card = lowest_card(mask)
        else:
            card = choose_card_plain(kinds[seat], params[seat], state, mask, rules, rng)
        cards[k] = card
        k += 1
        apply(state, card)
    return k


@pytest.mark.parametrize("preset", list(PRESETS))
def test_specialised_loops_play_as_the_general_kernels(preset):
    gen = np.random.default_rng(sum(map(ord, preset)))
    for players in PRESET_PLAYERS[preset]:
        for variant in VARIANTS:
            ruleset = make_rules(preset, players=players, settings=variant)
            rules = ruleset.as_array()
            for spec in POLICIES:
                seats = [("heuristic" if p == "tuned" else p) for p in spec]
                kinds, params = seat_policies(seats if len(seats) == 1 else (seats * 4)[:players], players)
                kinds[[s for s in range(players) if (spec * 4)[s] == "tuned"]] = K_TUNED  # tuned plays as the heuristic
                for _ in range(15):
                    deck = gen.permutation(52)
                    hands = np.zeros(4, dtype=np.uint64)
                    for s in range(players):
                        for c in deck[6 * s:6 * s + 6]:
                            hands[s] |= np.uint64(1) << np.uint64(c)
                    turnup = int(deck[6 * players])
                    dealer = int(gen.integers(players))
                    scores = np.zeros(4, dtype=np.int64)
                    fast = np.zeros(N_STATE, dtype=np.int64)
                    init_state(fast, rules, hands, turnup // 13, turnup, dealer, scores)
                    before = int(gen.integers(0, 6))  # the loops may start in the middle of a trick, or later
                    for _ in range(before):
                        apply(fast, lowest_card(legal(fast)))
                    slow = fast.copy()
                    rng_fast = gen.integers(1, 2**63, size=4, dtype=np.uint64)
                    rng_slow = rng_fast.copy()
                    ev = np.zeros((64, 4), dtype=np.int64)
                    info = np.zeros(N_INFO, dtype=np.int64)
                    playout(fast, rules, kinds, params, rng_fast, ev, info)
                    played = [int(row[2]) for row in ev[:info[0]] if row[0] == E_PLAY]
                    cards = np.zeros(64, dtype=np.int64)
                    k = general_play(slow, rules, kinds, params, rng_slow, cards)
                    assert played == list(cards[:k]) and k == 6 * players - before, (preset, players, variant, spec)
                    assert np.array_equal(rng_fast, rng_slow)  # the same draws
                    keep = [i for i in range(N_STATE) if i not in SHOWN]
                    assert np.array_equal(fast[keep], slow[keep]), (preset, players, variant, spec)
