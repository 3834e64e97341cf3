"""The rules player (engine/rulesplayer.py; the policy spec ``rules:FILE``): a decision list of rules of play read
before the heuristic's card, in the heuristic's parameter row.

Read again slowly: on random positions of several presets (test_playrules' ``Position``), the kernel's card for
a row with a random decision list is the first rule whose tests hold (``position_features``) and whose action
applies (``action_card`` != -1), else the heuristic's card with the row without the list; and in the trick loop
itself (``playout``: a whole deal, rules seats beside heuristic and random ones, lists that read the voids shown
and lists that do not), every card a rules seat plays is that reading's. An empty list is the heuristic; the spec
runs end to end through the CLI, the same seed giving the same answer; bad files are one line and exit 2.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from typer.testing import CliRunner

from test_playrules import CONFIGS, Position

from analyser.cli import app
from analyser.engine.heuristic import heuristic_play
from analyser.engine.layout import (
    E_PLAY, I_EVENTS, I_OVERFLOW, K_HEURISTIC, K_RANDOM, N_INFO, N_PARAMS, OP_EQ, OP_GE, OP_LE, PS_TO_PLAY, RL_COUNT, RL_MAX, RL_RULE,
    RL_STRIDE, RULE_OPS, X_NODES,
)
from analyser.engine.playout import playout
from analyser.engine.playrules import (
    ACTIONS, FEATURES, N_ACTIONS, N_FEATURES, PF_OPPS_NO_TRUMP, action_card, position_features,
)
from analyser.engine.policies import choose_card, choose_card_plain
from analyser.engine.playrules import feature as rule_feature
from analyser.engine.rulesplayer import row_rules, rules_play, set_rules
from analyser.engine.state import apply, is_over, legal
from analyser.game.rules import make_rules
from analyser.players.policy import PolicyError, default_row, parse_policy, policy_label, stored_row

runner = CliRunner()
POSITIONS = 250


def features_of(state: np.ndarray) -> np.ndarray:
    out = np.zeros(N_FEATURES, dtype=np.int64)
    position_features(state, out)
    return out


def slow_card(rules: list, plain: np.ndarray, state: np.ndarray) -> int:
    """The decision list read in plain Python: the first rule whose tests all hold and whose action applies picks the
    card; else the heuristic's, with the row without the list."""
    mask = legal(state)
    f = features_of(state)
    for tests, action in rules:
        held = True
        for feature, op, value in tests:
            x = int(f[feature])
            held = held and (x == value if op == OP_EQ else x >= value if op == OP_GE else x <= value)
        if held:
            card = int(action_card(state, mask, action))
            if card >= 0:
                return card
    return int(heuristic_play(plain, state, mask))


def random_rules(rnd: random.Random, f: np.ndarray | None, count: int | None = None) -> list:
    """A random decision list; its tests' values are near the position's own features `f` where given (so that
    they hold about half the time), else small numbers."""
    rules = []
    for _ in range(rnd.randint(1, RL_MAX) if count is None else count):
        tests = []
        for _ in range(rnd.choice((1, 2))):
            feature = rnd.randrange(N_FEATURES)
            op = rnd.randrange(3)
            base = int(f[feature]) if f is not None else rnd.randint(0, 3)
            tests.append((feature, op, base + rnd.choice((-1, 0, 0, 1))))
        rules.append((tests, rnd.randrange(N_ACTIONS)))
    return rules


def test_layout_slots_follow_the_row_and_round_trip():
    assert RL_COUNT == X_NODES + 1 and RL_RULE == RL_COUNT + 1 and N_PARAMS == RL_RULE + RL_MAX * RL_STRIDE
    rules = [([(3, OP_LE, 0)], 5), ([(0, OP_GE, 2), (PF_OPPS_NO_TRUMP, OP_EQ, 1)], 11)]
    row = set_rules(default_row(K_HEURISTIC), rules)
    assert row_rules(row) == rules and row[RL_COUNT] == 2
    assert row_rules(default_row(K_HEURISTIC)) == [] and default_row(K_HEURISTIC)[RL_COUNT] == 0
    with pytest.raises(ValueError):
        set_rules(default_row(K_HEURISTIC), rules * 5)
    # A row without a list is stored as rows were before the list's slots: old equity tables are still found.
    assert len(stored_row(default_row(K_HEURISTIC))) == RL_COUNT and len(stored_row(row)) == N_PARAMS


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_each_feature_alone_is_position_features_slot(preset, players, settings):
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(f"feature {preset} {players} {settings}")
    for _ in range(POSITIONS):
        pos = Position(rnd, rules)
        mask = legal(pos.state)
        f = features_of(pos.state)
        assert [int(rule_feature(pos.state, mask, k)) for k in range(N_FEATURES)] == f.tolist()


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_kernel_card_is_the_list_read_slowly(preset, players, settings):
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(f"card {preset} {players} {settings}")
    plain = default_row(K_HEURISTIC)
    rng = np.ones(4, dtype=np.uint64)
    moved = 0
    for _ in range(POSITIONS):
        pos = Position(rnd, rules)
        state, mask = pos.state, legal(pos.state)
        decision = random_rules(rnd, features_of(state))
        row = set_rules(default_row(K_HEURISTIC), decision)
        want = slow_card(decision, plain, state)
        assert int(rules_play(row, state, mask)) == want
        assert int(choose_card_plain(K_HEURISTIC, row, state, mask, rules.as_array(), rng)) == want
        assert int(choose_card(K_HEURISTIC, row, state, mask, rules.as_array(), rng)) == want
        moved += want != int(heuristic_play(plain, state, mask))
    assert moved > POSITIONS // 10  # the lists do change cards: the check is not the heuristic against itself


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
@pytest.mark.parametrize("voids", [False, True])
def test_trick_loop_plays_the_list(preset, players, settings, voids):
    """Whole deals (from the first lead, or a few cards on) in ``playout``: every card of a rules seat is the slow
    reading's, the heuristic's seats play the heuristic's, random seats draw; with a list that tests
    ``opps_no_trump`` the loop must keep the voids the others show."""
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(f"loop {preset} {players} {settings} {voids}")
    plain = default_row(K_HEURISTIC)
    checked = moved = 0
    for deal in range(40):
        pos = Position(rnd, rules, steps=rnd.choice((0, 0, 1, 3)))
        seats = rnd.choice(("all", "mixed"))
        kinds = np.full(4, K_HEURISTIC, dtype=np.int64)
        params = np.stack([plain] * 4)
        lists: dict[int, list] = {}
        for s in range(players):
            if seats == "all" or s % 2 == deal % 2:
                decision = random_rules(rnd, None, count=rnd.randint(3, RL_MAX))
                if voids:
                    decision[0] = ([(PF_OPPS_NO_TRUMP, OP_GE, 1)], rnd.randrange(N_ACTIONS))
                lists[s] = decision
                params[s] = set_rules(plain.copy(), decision)
            elif seats == "mixed" and s % 3 == 2:
                kinds[s] = K_RANDOM
        fast = pos.state.copy()
        ev = np.zeros((128, 4), dtype=np.int64)
        info = np.zeros(N_INFO, dtype=np.int64)
        stream = np.array([rnd.getrandbits(63) | 1 for _ in range(4)], dtype=np.uint64)
        playout(fast, rules.as_array(), kinds, params, stream, ev, info)
        assert info[I_OVERFLOW] == 0
        slow = pos.state.copy()
        for typ, seat, card, _ in ev[:info[I_EVENTS]]:
            if typ != E_PLAY:
                continue
            assert seat == slow[PS_TO_PLAY]
            if seat in lists:
                assert card == slow_card(lists[seat], plain, slow)
                checked += 1
                moved += card != int(heuristic_play(plain, slow, legal(slow)))
            elif kinds[seat] == K_HEURISTIC:
                assert card == int(heuristic_play(plain, slow, legal(slow)))
            apply(slow, int(card))
        assert is_over(slow)
    assert checked > 100 and moved > 10


def write(tmp_path, doc, name="rules.json"):
    path = tmp_path / name
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


GOOD = {"rules": [{"tests": [["leading", "==", 1], ["jack_out", "==", 1]], "action": "lead_low_trump", "saved": 0.1},
                  {"tests": [["partner_winning", "==", 1]], "action": "give_partner"},
                  {"tests": [["opps_no_trump", ">=", 1]], "action": "lead_high_side"},
                  {"tests": [["trick", "<=", 2]], "action": "duck"}],
        "command": "ignored"}


def test_spec_reads_the_file_into_a_heuristic_row(tmp_path):
    path = write(tmp_path, GOOD)
    kind, row = parse_policy(f"rules:{path}")
    assert kind == K_HEURISTIC
    assert row_rules(row) == [([(FEATURES.index("leading"), 0, 1), (FEATURES.index("jack_out"), 0, 1)], 0),
                              ([(FEATURES.index("partner_winning"), 0, 1)], ACTIONS.index("give_partner")),
                              ([(PF_OPPS_NO_TRUMP, 1, 1)], ACTIONS.index("lead_high_side")),
                              ([(0, 2, 2)], ACTIONS.index("duck"))]
    assert np.array_equal(row[:RL_COUNT], parse_policy("heuristic")[1][:RL_COUNT])  # the heuristic's parameters
    assert np.array_equal(parse_policy(f"rules:{tmp_path}")[1], row)  # a folder holding rules.json
    assert policy_label(f"rules:{path}") == f"rules:{tmp_path.name}"
    assert RULE_OPS == ("==", ">=", "<=")


def test_a_shipped_name_reads_the_list_a_player_carries(tmp_path, monkeypatch):
    """rules:trinidad-4p, from any working folder, is results/play-rules/trinidad-4p/carried.json: the fit's top
    `carry` rules; a name with no shipped list is one line naming the shipped ones."""
    from analyser.players.policy import CARRIED_FILE, SHIPPED_PLAY_RULES

    carried = SHIPPED_PLAY_RULES / "trinidad-4p" / CARRIED_FILE
    doc = json.loads(carried.read_text(encoding="utf-8"))
    fitted = json.loads((carried.parent / "rules.json").read_text(encoding="utf-8"))
    assert doc["carry"] == fitted["carry"] == len(doc["rules"])
    assert [(r["tests"], r["action"]) for r in doc["rules"]] == [(r["tests"], r["action"])
                                                                 for r in fitted["rules"][: fitted["carry"]]]
    monkeypatch.chdir(tmp_path)
    kind, row = parse_policy("rules:trinidad-4p")
    assert kind == K_HEURISTIC and np.array_equal(row, parse_policy(f"rules:{carried}")[1])
    assert len(row_rules(row)) == doc["carry"]
    assert policy_label("rules:trinidad-4p") == "rules:trinidad-4p"
    result = runner.invoke(app, ["simulate", "--policy", "rules:nosuch-4p", "--deals", "5"])
    assert result.exit_code == 2 and "rules:trinidad-4p" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("doc,message", [
    (None, "no "),
    ("{not json", "cannot read"),
    ({"rule": []}, "holds no list of rules"),
    ({"rules": [{"tests": [["trick", "==", 1]], "action": "duck"}] * 9}, "9 rules"),
    ({"rules": [{"tests": [["trick", "==", 1]] * 3, "action": "duck"}]}, "1 or 2 tests"),
    ({"rules": [{"tests": [], "action": "duck"}]}, "1 or 2 tests"),
    ({"rules": [{"tests": [["tricks", "==", 1]], "action": "duck"}]}, "unknown feature 'tricks'"),
    ({"rules": [{"tests": [["trick", "!=", 1]], "action": "duck"}]}, "bad op '!='"),
    ({"rules": [{"tests": [["trick", "==", 1.5]], "action": "duck"}]}, "not a whole number"),
    ({"rules": [{"tests": [["trick", "=="]], "action": "duck"}]}, "a test is [FEATURE, OP, VALUE]"),
    ({"rules": [{"tests": [["trick", "==", 1]], "action": "ducks"}]}, "unknown action 'ducks'"),
    ({"rules": [{"tests": [["trick", "==", 1]]}]}, "unknown action None"),
])
def test_bad_rules_files_are_one_line_and_exit_2(tmp_path, doc, message):
    path = tmp_path / "missing.json" if doc is None else write(tmp_path, doc)
    with pytest.raises(PolicyError, match=None):
        parse_policy(f"rules:{path}")
    result = runner.invoke(app, ["simulate", "--policy", f"rules:{path}", "--deals", "5"])
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and "Traceback" not in result.output, result.stderr


def test_empty_spec_is_an_error():
    result = runner.invoke(app, ["simulate", "--policy", "rules:", "--deals", "5"])
    assert result.exit_code == 2 and "rules needs a file" in result.stderr


def summary(args: list[str]) -> dict:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    doc.pop("policies")
    return doc


def test_empty_list_plays_as_the_heuristic(tmp_path):
    path = write(tmp_path, {"rules": []})
    assert np.array_equal(parse_policy(f"rules:{path}")[1], parse_policy("heuristic")[1])
    common = ["--deals", "300", "--seed", "5"]
    assert summary(["--policy", f"rules:{path}", *common]) == summary(["--policy", "heuristic", *common])


def test_rules_spec_end_to_end(tmp_path):
    path = write(tmp_path, GOOD)
    common = ["--deals", "200", "--seed", "7"]
    first = summary(["--policy", f"rules:{path}", *common])
    assert first["totals"]["lines"] == 200
    assert summary(["--policy", f"rules:{path}", *common]) == first  # the same seed, the same answer
    assert summary(["--policy", "heuristic", *common]) != first  # the rules play other cards
    mixed = summary(["--policy", f"rules:{path}", "--policy", "heuristic", "--policy", "random", "--policy",
                     "heuristic", *common])
    assert mixed == summary(["--policy", f"rules:{path}", "--policy", "heuristic", "--policy", "random",
                             "--policy", "heuristic", *common])
