"""pimc's model of the other players: ``pimc:model=heuristic`` (its own rules, doubt ** mismatches) or
``pimc:model=full`` (the shared model of engine/inference.py, worlds kept by likelihood: search.sample_weighted).

* the policy words: model=full and model=heuristic set the row, a bad model is one clear error;
* sample_weighted draws worlds in proportion to the shared model's likelihood: over many draws, where the unseen
  cards lie matches the exact weighted enumeration of every consistent deal;
* a pimc:model=full match plays legal cards and the same seed gives the same match.
"""

from __future__ import annotations

import numpy as np
import pytest

from analyser.analysis.play.inference import Model, holders, log_weights, normalised
from analyser.engine.bits import rng_state
from analyser.engine.inference import MODEL_BID_FLOOR, MODEL_CARD_FLOOR, MODEL_FULL, MODEL_TEMPERATURE
from analyser.engine.layout import N_STATE, PS_HAND, X_DOUBT
from analyser.engine.search import PIMC_DOUBT, sample_weighted, start_replay
from analyser.engine.worlds import consistent_worlds
from analyser.players.policy import PolicyError, parse_policy, seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.table.hint import decision_of, evidence_of, view_state
from analyser.analysis.play.inference import evidence_buffer
from test_hint import cut_at_play, lines_of


def test_the_model_words_set_the_row():
    assert parse_policy("pimc:model=full")[1][X_DOUBT] == MODEL_FULL
    assert parse_policy("pimc:model=heuristic")[1][X_DOUBT] == PIMC_DOUBT
    assert parse_policy("pimc")[1][X_DOUBT] == MODEL_FULL  # the default: the shared model won head to head
    assert parse_policy("pimc:doubt=0.2")[1][X_DOUBT] == 0.2  # a doubt picks the heuristic's model
    with pytest.raises(PolicyError, match="pimc's model is one of heuristic, full"):
        parse_policy("pimc:model=psychic")
    with pytest.raises(PolicyError, match="known are"):
        parse_policy("heuristic:model=full")


def test_sample_weighted_draws_in_proportion_to_the_likelihood():
    """Where the unseen cards lie, over 3,000 worlds drawn by sample_weighted (400 tries each), matches the exact
    weighted enumeration of every consistent deal under the same model to within 0.04 for every card and seat."""
    rules = make_rules("trinidad", players=4)
    line = next(x for x in lines_of("trinidad", 4, 20, 6) if not any(e["event"] in ("more", "redeal")
                                                                      for e in x["events"]))
    for k in range(14, 23):  # the first cut where the consistent deals can all be listed
        decision = decision_of(cut_at_play(line, k))
        state = view_state(decision).state
        seat = decision.seat
        found = consistent_worlds(state, seat, 50_000)
        if found.hands is not None:
            break
    assert found.hands is not None and found.total > 20
    row = parse_policy("pimc:model=full,tries=400")[1]
    model = Model("pimc", row, MODEL_TEMPERATURE, MODEL_CARD_FLOOR, MODEL_BID_FLOOR)
    evidence = evidence_of(decision)
    exact = holders(state, seat, found.hands, normalised(log_weights(rules, state, seat, found.hands, model, "full",
                                                                     evidence)))
    buf = evidence_buffer(state, evidence)
    start_replay(buf)
    world = np.zeros(N_STATE, dtype=np.int64)
    rng = rng_state(np.random.SeedSequence(5))
    draws = 3000
    hands = np.zeros((draws, 4), dtype=np.int64)
    r = rules.as_array()
    for k in range(draws):
        sample_weighted(buf, seat, row, r, rng, world)
        hands[k] = world[PS_HAND:PS_HAND + 4]
    drawn = holders(state, seat, hands.view(np.uint64), np.full(draws, 1.0 / draws))
    assert drawn.keys() == exact.keys()
    worst = max(abs(drawn[c][s] - exact[c][s]) for c in exact for s in exact[c])
    assert worst < 0.04, worst
    uniform = holders(state, seat, found.hands, np.full(found.total, 1.0 / found.total))
    assert max(abs(uniform[c][s] - exact[c][s]) for c in exact for s in exact[c]) > 0.08  # the model says something


def test_a_full_model_match_is_legal_and_repeatable():
    rules = make_rules("trinidad", players=4)
    kinds, params = seat_policies(["pimc:model=full,worlds=8", "heuristic", "pimc:model=full,worlds=8", "heuristic"],
                                  4)
    first = list(iter_log_lines(rules, 3, 4, kinds, params))
    again = list(iter_log_lines(rules, 3, 4, kinds, params))
    assert first == again
    from analyser.referee import referee_line

    for line in first:
        assert referee_line(line) is not None
