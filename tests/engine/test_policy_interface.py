"""Every registered policy kind is dispatched everywhere; none falls through to another player."""

from __future__ import annotations

import ast
import inspect

import numpy as np
import pytest

from analyser.engine import layout, policies
from analyser.engine.layout import N_STATE, POLICY_KINDS
from analyser.players.policy import PARAMS_BY_KIND, parse_policy
from analyser.game.rules import make_rules

DISPATCHERS = ("decide_beg", "decide_give", "decide_bunch", "choose_discard", "choose_card")


def kind_constants() -> dict[int, str]:
    """Kind number -> the name of its ``K_*`` constant in layout.py."""
    found = {getattr(layout, n): n for n in dir(layout) if n.startswith("K_")}
    assert sorted(found) == list(range(len(POLICY_KINDS))), "one K_* constant per name of POLICY_KINDS"
    for kind, name in found.items():
        assert name == "K_" + POLICY_KINDS[kind].upper().replace("-", "_")
    return found


@pytest.mark.parametrize("dispatcher", DISPATCHERS)
def test_every_kind_has_a_branch_in_every_dispatcher(dispatcher):
    # choose_card dispatches the search players itself and the others through choose_card_plain
    parts = [dispatcher] + (["choose_card_plain"] if dispatcher == "choose_card" else [])
    named = set()
    for part in parts:
        tree = ast.parse(inspect.getsource(getattr(policies, part).py_func))
        named |= {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    missing = [name for name in kind_constants().values() if name not in named]
    assert not missing, f"{dispatcher} has no branch for {missing}"


def test_every_kind_has_parameters_and_a_spec():
    assert set(PARAMS_BY_KIND) == set(range(len(POLICY_KINDS)))
    for kind, name in enumerate(POLICY_KINDS):
        if name == "tuned":
            continue  # tuned:RUN_DIR reads a file (tests/engine/test_tuned.py)
        assert parse_policy(name)[0] == kind


def test_an_unknown_kind_raises_instead_of_playing_random():
    rules = make_rules("trinidad").as_array()
    kind = len(POLICY_KINDS)
    params = np.zeros(128)
    rng = np.ones(4, dtype=np.uint64)
    hand = np.uint64(0b111111)
    scores = np.zeros(4, dtype=np.int64)
    calls = [
        lambda: policies.decide_beg(kind, params, hand, 13, 1, 0, scores, rules, rng),
        lambda: policies.decide_give(kind, params, hand, 13, 0, 0, scores, rules, rng),
        lambda: policies.decide_bunch(kind, params, hand, 1, 0, 0, scores, rules, rng),
        lambda: policies.choose_discard(kind, params, hand, 1, 3, rng),
        lambda: policies.choose_card(kind, params, np.zeros(N_STATE, dtype=np.int64), hand, rules, rng),
        lambda: policies.choose_card_plain(kind, params, np.zeros(N_STATE, dtype=np.int64), hand, rules, rng),
    ]
    for call in calls:
        with pytest.raises(ValueError, match="unknown policy kind"):
            call()


def test_a_forced_card_is_played_drawing_nothing_by_every_plain_player():
    # The plain trick loop (engine/playout.py) plays a forced card without calling the policy:
    # that is only the same game if every non-random player that does not search plays it so.
    from analyser.engine.search import is_search_kind

    rules = make_rules("trinidad").as_array()
    state = np.zeros(N_STATE, dtype=np.int64)
    for kind, name in enumerate(POLICY_KINDS):
        if name == "random" or is_search_kind(kind):
            continue
        params = parse_policy(name)[1] if name != "tuned" else parse_policy("heuristic")[1]
        for card in (0, 22, 51):
            rng = np.array([1, 2, 3, 4], dtype=np.uint64)
            got = policies.choose_card_plain(kind, params, state, np.uint64(1 << card), rules, rng)
            assert got == card, name
            assert rng.tolist() == [1, 2, 3, 4], f"{name} drew a random number for a forced card"
