"""Plain words in what a newcomer meets: hand classes and the report's table headers in words, rates and
probabilities in percent with one decimal in every text output, no interval outside its range, no doubled words."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.engine.evaluator import class_key, possible_classes
from analyser.record.hand_text import class_words
from conftest import TYPED

HAND = "AS JS 4H 7D 9C TC"
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--max-deals", "200", "--threads", "1"]
PERCENT = r"\d+\.\d%"
runner = CliRunner()


def test_every_hand_class_has_words():
    words = {class_key(c): class_words(class_key(c)) for c in possible_classes()}
    assert len(set(words.values())) == len(words) == 28
    assert words["T2:J,lo"].startswith("two trumps including the jack and a low trump (2-5)")
    with pytest.raises(ValueError):
        class_words("T1:A,J")


def test_report_tables_have_plain_headers():
    from analyser.report.build import shift_view, strength_view

    shifts = pd.DataFrame([{"seat": "eldest", "situation": "s", "score": "0:0", "score_label": "level at 0",
                            "first": "stand", "second": "beg", "deals": 2000, "win_first": 0.5, "win_second": 0.4,
                            "win_diff": 0.1, "win_diff_lo": 0.05, "win_diff_hi": 0.15, "favours": "stand"}])
    strength = pd.DataFrame([{"a": "heuristic", "b": "random", "matches": 200, "a_win_rate": 0.8, "ci_lo": 0.74,
                              "ci_hi": 0.85, "a_minus_b_points_per_deal": 1.2, "points_ci_lo": 1.0,
                              "points_ci_hi": 1.4}])
    for view in (shift_view(shifts), strength_view(strength)):
        assert not [c for c in view.columns if "_" in c], list(view.columns)
    assert shift_view(shifts)["95% CI"].tolist() == ["[+0.0500, +0.1500]"]


@pytest.mark.parametrize("deals", [10, 200])
def test_a_small_simulate_prints_no_interval_outside_its_range(deals):
    result = runner.invoke(app, ["simulate", "--deals", str(deals), "--seed", "3", "--threads", "1"])
    assert result.exit_code == 0, result.output
    found = 0
    for line in result.stdout.splitlines():
        match = re.search(r"95% CI \[(-?[\d.]+)(%?), (-?[\d.]+)%?\]", line)
        if match:
            found += 1
            scale = 100 if match[2] else 1  # a rate is printed in percent
            lo, hi = float(match[1]) / scale, float(match[3]) / scale
            assert lo >= 0.0 or line.startswith("net points"), line
            if "rate" in line:
                assert 0.0 <= lo <= hi <= 1.0, line
    assert found >= 2


def test_tournament_prints_its_win_rate_in_percent():
    """It printed "win rate 0.8000 (se 0.0816, 95% CI [0.6400, 0.9600])"."""
    result = runner.invoke(app, ["tournament", "--matches", "20", "--threads", "1"])
    assert result.exit_code == 0, result.output
    assert re.search(rf"A wins \d+: win rate {PERCENT} \(se {PERCENT}, 95% CI \[{PERCENT}, {PERCENT}\]\)",
                     result.stdout), result.stdout


def test_simulate_and_whatif_print_rates_in_percent():
    sim = runner.invoke(app, ["simulate", "--deals", "200", "--threads", "1"])
    rates = [line for line in sim.stdout.splitlines() if " rate " in line]
    assert len(rates) == 2
    for line in rates:
        assert re.search(rf" {PERCENT} ± {PERCENT}   95% CI \[{PERCENT}, {PERCENT}\]$", line), line
    what = runner.invoke(app, WHATIF)
    rows = what.stdout.splitlines()[4:7]
    for row in rows:
        assert re.search(rf"  [+]?{PERCENT}  \[[+]?{PERCENT}, [+]?{PERCENT}\]$", row), row
    assert not re.search(r"\b0\.\d{4}\b", "\n".join(rows))


def test_the_bidding_tables_print_probabilities_in_percent():
    from analyser.cli.advice import format_by_score
    from analyser.cli.equilibrium import format_classes

    rows = [{"class": "T0", "deals": 181, "p_beg": 1.0, "ci95": [0.9, 1.0], "heuristic_p_beg": 0.5, "action": "beg"}]
    lines = format_classes(rows, "eldest")
    assert "P(beg)" in lines[1] and lines[2].split()[2:6] == ["100.0%", "[90.0%,", "100.0%]", "50.0%"]
    by = format_by_score({"deals": 1000, "at_0_0": 0.75, "threshold": 0.1,
                          "moves": [{"score": [3, 12], "estimate": 0.5, "ci95": [0.4, 0.6], "verdict": "moved"}]})
    assert by == ["  by score (match-win probability, 1,000 deals): P(beg) at 0:0 75.0%",
                  "  at 3:12: 50.0%, 95% CI [40.0%, 60.0%]: moved"]


def test_no_doubled_words_in_what_a_newcomer_meets(tmp_path):
    """"at at" and its kind, in the outputs and error lines of a first hour."""
    runs = [["--help"], ["whatif", "--help"], [*WHATIF, "--explain"], ["tournament", "--matches", "4", "--threads", "1"],
            ["replay", str(TYPED)], ["replay", str(tmp_path)], ["solve", str(TYPED)],
            ["whatif", "--log", str(TYPED), "--event", "8"], ["whatif", "--log", str(TYPED), "--seat", "dealer",
                                                              "--event", "2"],
            ["simulate", "--deals", "0"], [*WHATIF, "--plot", "x.txt"]]
    for args in runs:
        result = runner.invoke(app, args)
        text = result.stdout + result.stderr
        doubled = re.findall(r"\b([A-Za-z]+) \1\b", text)
        assert not doubled, (args, doubled, text)
