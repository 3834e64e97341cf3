"""scripts/fit_play_rules.py on a made table whose best rule is known, and the rules' words for every test it can
write."""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd
import pytest

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import fit_play_rules  # noqa: E402

from analyser.engine.playrules import ACTIONS, FEATURES  # noqa: E402
from analyser.players.rule_words import RuleWordsError, condition_words, rule_words  # noqa: E402


def made_table(rng: np.random.Generator, n: int = 600) -> pd.DataFrame:
    """Decisions of two legal cards, 10 (the heuristic's) and 20: card 20 is worth 1 point more exactly when the
    seat leads with the jack of trump out, and 1 point less elsewhere; only lead_low_trump picks card 20."""
    rows = []
    for i in range(n):
        f = {f"f_{name}": int(rng.integers(0, 3)) for name in FEATURES}
        f["f_leading"], f["f_jack_out"] = int(rng.integers(0, 2)), int(rng.integers(0, 2))
        good = f["f_leading"] == 1 and f["f_jack_out"] == 1
        acts = {f"a_{a}": -1 for a in ACTIONS}
        acts["a_lead_low_trump"] = 20
        acts["a_duck"] = 10
        rows.append({"table": "self", "deal": i // 4, "event": i % 4, **f, **acts, "legal": [10, 20],
                     "value": [0.0, 1.0 if good else -1.0], "heuristic": 10})
    return pd.DataFrame(rows)


def test_the_fit_finds_the_rule_that_saves_points_and_stops():
    table = made_table(np.random.default_rng(1))
    fitting = (table["deal"].to_numpy() % 2) == 0
    rules = fit_play_rules.fit(table, FEATURES, ACTIONS, 8, 5, fitting)
    assert len(rules) == 1, rules
    assert sorted(map(tuple, rules[0]["tests"])) == [("jack_out", "==", 1), ("leading", "==", 1)]
    assert rules[0]["action"] == "lead_low_trump"
    picked = fit_play_rules.apply_rules(table, rules, ACTIONS)
    good = (table["f_leading"] == 1) & (table["f_jack_out"] == 1)
    assert (picked == np.where(good, 1.0, 0.0)).all()  # the rule plays card 20 where it is better, nowhere else
    assert fit_play_rules.fit(table, FEATURES, ACTIONS, 8, 10_000, fitting) == []  # no rule changes 10,000


@pytest.mark.parametrize("feature", FEATURES)
def test_every_test_the_fit_can_write_has_words(feature):
    table = pd.DataFrame({f"f_{feature}": [-1, 0, 1, 2, 3] if feature in ("low_trump", "high_trump") else [0, 1]})
    for name, op, value in fit_play_rules.candidate_tests(table, (feature,)):
        words = condition_words(name, op, value)
        assert words and "{" not in words
    assert rule_words([[feature, "==", 1]], "duck").endswith(": duck: play your smallest card that does not win "
                                                             "the trick.")


def test_unknown_words_are_refused():
    with pytest.raises(RuleWordsError, match="unknown feature"):
        condition_words("nonsense", "==", 1)
    with pytest.raises(RuleWordsError, match="unknown action"):
        rule_words([["leading", "==", 1]], "nonsense")
    with pytest.raises(RuleWordsError, match="flag"):
        condition_words("leading", "==", 2)
