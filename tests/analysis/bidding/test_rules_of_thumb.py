"""Rules of thumb: the printed rule is the applied rule; the search finds the best list; the costs are
reproducible with a seed and measured on other deals than the fitting ones."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from analyser.analysis.bidding import rules_of_thumb as rot
from analyser.analysis.bidding.equilibrium import payoff_tensor, run_equilibrium
from analyser.analysis.bidding.strategy import side_scores
from analyser.engine.evaluator import class_key
from analyser.work.executor import LocalExecutor
from analyser.game.rules import make_rules
from conftest import ROOT

# The printed words, read back by a reader of our own: each phrase and what it says of a hand.
PHRASES = {
    "no trump": lambda h: h.trumps == 0,
    "exactly one trump": lambda h: h.trumps == 1,
    "exactly 2 trumps": lambda h: h.trumps == 2,
    "exactly 3 trumps": lambda h: h.trumps == 3,
    "4 or more trumps": lambda h: h.trumps >= 4,
    "any trump": lambda h: h.trumps >= 1,
    "2 or more trumps": lambda h: h.trumps >= 2,
    "3 or more trumps": lambda h: h.trumps >= 3,
    "at most one trump": lambda h: h.trumps <= 1,
    "at most 2 trumps": lambda h: h.trumps <= 2,
    "at most 3 trumps": lambda h: h.trumps <= 3,
    "the ace of trump": lambda h: h.ace,
    "the jack of trump": lambda h: h.jack,
    "a low trump (2 to 5)": lambda h: h.low,
    "no ace of trump": lambda h: not h.ace,
    "no jack of trump": lambda h: not h.jack,
    "no low trump": lambda h: not h.low,
}


def condition_holds(words: str, hand: rot.Hand) -> bool:
    """One phrase, or two joined by "and" / "or" (split where both sides are phrases: "2 or more trumps or the
    jack of trump" has one such place)."""
    if words in PHRASES:
        return PHRASES[words](hand)
    readings = [(join, words[:i], words[i + len(join):]) for join in (" and ", " or ")
                for i in [m.start() for m in re.finditer(join, words)]
                if words[:i] in PHRASES and words[i + len(join):] in PHRASES]
    assert len(readings) == 1, f"cannot read {words!r} one way: {readings}"
    join, left, right = readings[0]
    a, b = PHRASES[left](hand), PHRASES[right](hand)
    return (a and b) if join == " and " else (a or b)


def read_printed(lines: list[str], hand: rot.Hand) -> str:
    """The decision the printed lines give for `hand`, read from the words alone."""
    for line in lines:
        always = re.fullmatch(r"Always (\w+)\.", line)
        if always:
            return always.group(1)
        otherwise = re.fullmatch(r"Otherwise: (\w+)\.", line)
        if otherwise:
            return otherwise.group(1)
        cond, action = re.fullmatch(r"With (.+): (\w+)\.", line).groups()
        if condition_holds(cond, hand):
            return action
    raise AssertionError(f"no line decides {hand}: {lines}")


HANDS = [rot.Hand.of_class(code) for code in rot.CLASSES]


def test_every_condition_prints_what_it_tests():
    conds, masks = rot.conditions()
    assert len(conds) > 50
    for cond, mask in zip(conds, masks):
        rule = rot.RuleList("eldest", ((cond, "beg"),), "stand")
        for hand, held in zip(HANDS, mask):
            assert rule.apply(hand) == read_printed(rule.describe(), hand) == ("beg" if held else "stand")


def test_fitted_rules_print_what_they_apply():
    rng = np.random.default_rng(5)
    for role in ("eldest", "dealer"):
        for _ in range(3):
            lists = rot.search(rng.normal(size=len(rot.CLASSES)), role)
            for rule in lists.values():
                again = rot.RuleList.from_json(rule.to_json())  # the rule as stored in rules.json
                assert again == rule
                for hand in HANDS:
                    assert rule.apply(hand) == read_printed(rule.describe(), hand)
                assert rule.table() == {class_key(c): rule.apply(rot.Hand.of_class(c)) for c in rot.CLASSES}


def test_a_real_hand():
    hand = rot.Hand.of_cards("AS JS 3S KH 8D QC", "S")
    assert hand == rot.Hand(3, True, True, True)
    rule = rot.RuleList("eldest", ((rot.Condition((rot.Atom("trumps", "==", 0),)), "beg"),), "stand")
    assert rule.apply(rot.Hand.of_cards("KH 8H 5D 3D QC 7C", "S")) == "beg"
    assert rule.apply(hand) == "stand"
    assert rule.describe() == ["With no trump: beg.", "Otherwise: stand."]
    with pytest.raises(ValueError):
        rot.RuleList("dealer", (), "beg")


def test_search_is_the_best_list_of_each_size():
    """Against brute force: every list of at most two lines (one condition and a default)."""
    conds, masks = rot.conditions()
    rng = np.random.default_rng(11)
    w = rng.normal(size=len(rot.CLASSES))
    lists = rot.search(w, "eldest", max_lines=2)

    def value(rule: rot.RuleList) -> float:
        return float((rule.flags() * w).sum())

    assert value(lists[1]) == pytest.approx(max(0.0, w.sum()))
    best = max(float(((np.where(m, a, d)) * w).sum()) for m in masks for a, d in itertools.product((0, 1), repeat=2))
    assert value(lists[2]) == pytest.approx(max(best, value(lists[1])))
    bigger = rot.search(w, "eldest")
    assert [value(bigger[k]) for k in rot.SIZES] == sorted(value(bigger[k]) for k in rot.SIZES)
    # A game the equilibrium of which is one line: begging pays exactly with no trump.
    w = np.where([h.trumps == 0 for h in HANDS], 1.0, -1.0)
    exact = rot.search(w, "eldest")
    assert exact[2].describe() == ["With no trump: beg.", "Otherwise: stand."]
    assert exact[4] == exact[2]


@pytest.fixture(scope="module")
def small_fit():
    rules = make_rules("trinidad", players=4)
    eq = run_equilibrium(rules, "heuristic", 6000, seed=3, resamples=2, executor=LocalExecutor(2))
    return rules, eq


def test_costs_are_reproducible_and_measured_on_other_deals(small_fit):
    rules, eq = small_fit
    fit = rot.FitInput.of_result(eq)
    one = rot.fit_and_measure(rules, fit, deals=6000, executor=LocalExecutor(2))
    two = rot.fit_and_measure(rules, fit, deals=6000, executor=LocalExecutor(1))
    assert one.to_json()["sizes"] == two.to_json()["sizes"]
    for row in one.rows:
        lo, hi = row["cost_points"]["ci95"]
        assert lo <= row["cost_points"]["mean"] <= hi
        assert 0.0 <= row["agreement"]["mean"] <= 1.0
    # The measuring deals are not the fitting deals: another seed, so another tensor; the fitting seed
    # would give the fitting tensor back exactly.
    assert rot.measure_seed(eq.seed) != eq.seed
    assert all(rot.measure_seed(s) != s for s in range(50))
    ex = LocalExecutor(2)
    again = payoff_tensor(rules, eq.play, side_scores(rules, None), None, "coarse", 6000, eq.seed, ex)
    fresh = rot.fresh_tensor(rules, eq.play, eq.seed, 6000, None, ex, None)
    assert np.array_equal(again.chunks, eq.tensor.chunks)
    assert not np.array_equal(fresh.chunks, eq.tensor.chunks)
    # Another seed, other costs.
    other = rot.fit_and_measure(rules, rot.FitInput.of_result(eq), deals=6000, executor=ex)
    eq.seed += 1
    try:
        moved = rot.fit_and_measure(rules, rot.FitInput.of_result(eq), deals=6000, executor=ex)
    finally:
        eq.seed -= 1
    assert [r["cost_points"] for r in other.rows] != [r["cost_points"] for r in moved.rows]


def test_costs_against_the_equilibrium_itself_are_zero(small_fit):
    """A rule taking the equilibrium's (pure) action everywhere costs nothing and agrees everywhere."""
    rules, eq = small_fit
    tensor = rot.fresh_tensor(rules, eq.play, eq.seed, 4000, None, LocalExecutor(2), None)
    b = np.where(np.isnan(eq.b), 0.0, np.round(eq.b))
    g = np.where(np.isnan(eq.g), 0.0, np.round(eq.g))
    for role, flags in (("eldest", b), ("dealer", g)):
        agreement, cost = rot.paired_costs(tensor, b, g, role, flags)
        assert agreement["mean"] == pytest.approx(1.0) and cost["mean"] == pytest.approx(0.0, abs=1e-12)
        flipped = rot.paired_costs(tensor, b, g, role, 1 - flags)[0]
        assert flipped["mean"] == pytest.approx(0.0, abs=1e-12)


def test_shipped_edition_is_read_back(tmp_path):
    """A written result reads back as the same rules; the chosen size is the smallest close enough."""
    rules = make_rules("classic", players=3)

    run = ROOT / "results" / "classic-3p" / "equilibrium"
    fit = rot.FitInput.of_run(run)
    result = rot.fit_and_measure(rules, fit, deals=4000, executor=LocalExecutor(2))
    path = rot.write(result, tmp_path / "rot")
    import json

    doc = json.loads(path.read_text())
    assert doc["measure"]["seed"] != doc["fit"]["seed"]
    for row in doc["sizes"]:
        rule = rot.RuleList.from_json(row["rule"])
        assert rule.describe() == row["text"] and rule.table() == row["table"]
    for role in ("eldest", "dealer"):
        rows = sorted((r for r in doc["sizes"] if r["role"] == role), key=lambda r: r["size"])
        close = [r["size"] for r in rows if r["cost_points"]["mean"] <= rot.CLOSE_ENOUGH]
        assert doc["chosen"][role] == (close[0] if close else rot.CARD_FALLBACK)
    assert (tmp_path / "rot" / "rules.csv").is_file()
