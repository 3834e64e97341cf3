"""Match equity: the backward recursion on known transitions, agreement with whole matches,
monotonicity within the CIs, the cache and the command."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.equity import (
    cached_table,
    equity_table,
    estimate_equity,
    estimate_transitions,
    simulate_match_wins,
    solve_equity,
)
from analyser.analysis.stats import Z95
from analyser.cli import app
from analyser.game.rules import make_rules

TINY = make_rules("trinidad", settings=["target=3"])


def test_solve_equity_on_transitions_with_known_answers() -> None:
    # target 1, one cell: the dealer's side wins w, loses l, or nothing happens (s)
    # and the deal passes: p = w + s (1 - p), so p = (w + s) / (1 + s).
    counts = np.array([[20, 50, 30]])
    p, se = solve_equity(counts, 1)
    assert p[0, 0] == pytest.approx((0.5 + 0.2) / 1.2)
    assert se[0, 0] > 0
    # target 2, every deal certain: from (0, 0) the dealer scores 1 -> (1, 0); from any
    # other cell the dealer's side wins at once. So every cell is 1, except (0, 0) where
    # the opponents then deal from (0, 1) and win: p[0, 0] = 1 - p[0, 1] = 0.
    counts = np.zeros((4, 6), dtype=np.int64)
    counts[0, 1 * 2 + 0] = 7
    counts[1:, 4] = 7
    p, se = solve_equity(counts, 2)
    assert p.tolist() == [[0.0, 1.0], [1.0, 1.0]]
    assert se.max() == 0.0  # nothing random, nothing uncertain


def test_table_agrees_with_whole_matches_within_its_ci() -> None:
    rules = make_rules("trinidad", players=2, settings=["target=4"])
    table = estimate_equity(rules, "random", deals_per_cell=20_000, seed=2)
    for a, b in [(0, 0), (2, 1), (1, 3)]:
        n = 20_000
        q = simulate_match_wins(rules, "random", [a, b], 0, n, seed=9)[0] / n
        assert abs(table.p[a, b] - q) < 4 * np.hypot(table.se[a, b], np.sqrt(q * (1 - q) / n))


def test_equity_is_monotone_in_each_side_score_within_the_cis() -> None:
    table = estimate_equity(TINY, "random", deals_per_cell=20_000, seed=1)
    p, se = table.p, table.se

    def slack(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return Z95 * np.hypot(x, y)

    assert (p[1:, :] >= p[:-1, :] - slack(se[1:, :], se[:-1, :])).all()  # more for the dealer's side: better
    assert (p[:, 1:] <= p[:, :-1] + slack(se[:, 1:], se[:, :-1])).all()  # more for the opponents: worse
    assert table.max_half_width <= 0.01
    # the side about to deal: P(side wins) by the two symmetric readings of the table
    assert table.win_prob([1, 2], dealer_side=0, side=0) == pytest.approx(p[1, 2])
    assert table.win_prob([1, 2], dealer_side=1, side=0) == pytest.approx(1 - p[2, 1])


def test_same_seed_same_table_on_one_or_two_threads() -> None:
    a = estimate_transitions(TINY, "random", 500, 7, threads=1)
    b = estimate_transitions(TINY, "random", 500, 7, threads=2)
    assert np.array_equal(a, b) and a.sum() == 9 * 500


def test_cache_is_reused_with_the_same_parameters(tmp_path: Path) -> None:
    first, path, cached = equity_table(TINY, "random", 1000, 3, tmp_path)
    assert not cached and path.exists() and path.with_suffix(".csv").exists()
    again, path2, cached = equity_table(TINY, "random", 1000, 3, tmp_path)
    assert cached and path2 == path and np.array_equal(again.p, first.p) and np.array_equal(again.se, first.se)
    assert cached_table(TINY, "random:beg=0", tmp_path) is None  # another policy: another table
    assert cached_table(make_rules("trinidad", settings=["target=4"]), "random", tmp_path) is None


def test_equity_command_json_heatmap_and_errors(tmp_path: Path) -> None:
    args = ["equity", "--rules", "trinidad", "--set", "target=3", "--policy", "random", "--matches-per-cell", "2000",
            "--out", str(tmp_path), "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert len(out["table"]) == 9 and not out["cached"]
    for cell in out["table"]:
        assert 0 <= cell["ci95"][0] <= cell["p"] <= cell["ci95"][1] <= 1
    assert Path(out["heatmap"]).stat().st_size > 0
    assert json.loads(CliRunner().invoke(app, args).stdout)["cached"]
    three = CliRunner().invoke(app, ["equity", "--rules", "classic", "--players", "3", "--out", str(tmp_path)])
    assert three.exit_code != 0 and "two sides" in three.stderr and "Traceback" not in three.stderr
