"""scripts/fit_inference.py and scripts/holders_calibration.py: the fit recovers a known model from data drawn from
it, the Brier score of a hand-made example, and both scripts end to end at a tiny size (their logs simulated into a
temporary folder)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from analyser.engine.inference import rank_probability
from conftest import ROOT, load_script

SCRIPTS = ROOT / "scripts"


fit = load_script("fit_inference")
calibration = load_script("holders_calibration")


def synthetic_cards(temperature, floor, decisions, seed):
    """(deal, rank, n) rows drawn from the model: n legal cards uniform in 2..6, the rank by rank_probability."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(decisions):
        n = int(rng.integers(2, 7))
        p = np.array([rank_probability(r, n, temperature, floor) for r in range(n)])
        rows.append((i // 10, int(rng.choice(n, p=p / p.sum())), n))
    return np.array(rows, dtype=np.int64)


def test_vectorised_card_probability_is_the_kernels():
    for n in (2, 3, 6, 9):
        for r in range(n):
            for t, f in ((0.7, 0.05), (0.2, 0.0), (5.0, 0.5), (0.0, 0.1)):
                got = float(fit.card_probability(np.array([r]), np.array([n]), t, f)[0])
                assert got == pytest.approx(rank_probability(r, n, t, f), rel=1e-12)


@pytest.mark.parametrize("temperature, floor", [(0.7, 0.05), (0.35, 0.15)])
def test_fit_recovers_the_temperature_and_floor_it_was_drawn_with(temperature, floor):
    data = synthetic_cards(temperature, floor, 6000, seed=1)
    t, f, nll = fit.fit_cards(fit.card_counts(data))
    assert t == pytest.approx(temperature, rel=0.12)
    assert f == pytest.approx(floor, abs=0.04)
    # the maximum: every nearby model is less likely
    counts = fit.card_counts(data)
    for dt, df in ((0.05, 0), (-0.05, 0), (0, 0.01), (0, -0.01)):
        assert fit.card_nll(counts, t + dt, max(0.0, f + df)) >= nll - 1e-9


def test_fit_recovers_the_bid_floor():
    rng = np.random.default_rng(2)
    p = rng.choice([0.0, 1.0, 0.3, 0.8], size=5000)  # the model's probability of the bid it would make
    made = rng.random(5000) < 0.9 * p + 0.1 / 2  # a bid drawn with floor 0.1: the one made has probability q or 1-q
    q = 0.9 * p + 0.05
    probs = np.where(made, p, 1.0 - p)
    floor, nll = fit.fit_bids(probs)
    assert floor == pytest.approx(0.1, abs=0.03)
    assert nll == pytest.approx(-np.log(np.where(made, q, 1 - q)).sum(), rel=0.01)
    assert fit.fit_bids(np.ones(100))[0] == pytest.approx(0.0, abs=1e-6)  # a model never wrong needs no floor


def test_bootstrap_interval_covers_the_fit():
    data = synthetic_cards(0.7, 0.05, 2000, seed=3)
    t, f, _ = fit.fit_cards(fit.card_counts(data))
    boot = fit.bootstrap_cards(data, 40, seed=4, start=(t, f))
    lo, hi = fit.interval(boot[:, 0])
    assert lo < t < hi and hi - lo < 0.5


def test_brier_of_a_hand_made_example():
    held = {5: {"1": 0.5, "2": 0.25, "3": 0.0, "out": 0.25}, 7: {"1": 0.0, "2": 0.0, "3": 1.0, "out": 0.0}}
    truth = {5: "2", 7: "3"}
    # card 5: (0.5)^2 + (0.25 - 1)^2 + 0 + (0.25)^2 = 0.875; card 7: certain and right, 0
    assert calibration.brier(held, truth) == pytest.approx(0.875 / 2)
    assert calibration.brier(held, truth, cards=[5]) == pytest.approx(0.875)
    assert math.isnan(calibration.brier(held, truth, cards=[9]))


def test_clustered_mean_takes_its_error_over_clusters():
    values = np.array([1.0, 1.0, 3.0, 3.0])
    mean, se = calibration.clustered_mean(values, np.array([0, 0, 1, 1]))
    # two clusters of residual sums -2 and 2: sqrt(2/1 * 8) / 4 = 1
    assert mean == 2.0 and se == pytest.approx(1.0)
    _, se_apart = calibration.clustered_mean(values, np.array([0, 1, 2, 3]))
    assert se_apart < se


def test_reliability_bands_leave_out_certain_predictions():
    rows = calibration.reliability([(0.0, 0.0), (1.0, 1.0), (0.05, 0.0), (0.15, 1.0), (0.12, 0.0), (0.95, 1.0)])
    assert [r["count"] for r in rows] == [1, 2, 0, 0, 0, 0, 0, 0, 0, 1]
    assert rows[1]["predicted"] == pytest.approx(0.135) and rows[1]["observed"] == 0.5


@pytest.mark.parametrize("script", ["fit_inference.py", "holders_calibration.py"])
def test_help(script):
    done = subprocess.run([sys.executable, str(SCRIPTS / script), "--help"], capture_output=True, text=True)
    assert done.returncode == 0 and "usage:" in done.stdout and "--seed" in done.stdout


def test_scripts_end_to_end_at_a_tiny_size(tmp_path):
    logs = tmp_path / "logs"
    out = tmp_path / "fit.json"
    assert fit.main(["--pimc-deals", "2", "--bid-deals", "20", "--chunk", "10", "--bootstrap", "5",
                     "--logs", str(logs), "--out", str(out), "--seed", "7"]) == 0
    doc = json.loads(out.read_text())
    assert doc["seed"] == 7 and "--seed 7" in doc["command"]
    assert doc["cards"]["decisions"] > 10 and doc["cards"]["temperature"] > 0
    assert 0 <= doc["cards"]["card_floor"] <= 1 and 0 <= doc["bids"]["bid_floor"] <= 1
    assert doc["bids"]["bids"] >= 20  # every deal has the eldest's stand or beg
    assert sorted(p.name for p in (logs / "pimc").iterdir()) == ["seed-7-2.jsonl"]
    cal = tmp_path / "cal"
    assert calibration.main(["--deals", "2", "--pimc-deals", "2", "--worlds", "30", "--chunk", "10", "--sources",
                             "pimc,heuristic", "--logs", str(logs), "--out", str(cal), "--seed", "7"]) == 0
    doc = json.loads(cal.with_suffix(".json").read_text())
    assert set(doc["sources"]) == {"pimc", "heuristic"}
    pimc = doc["sources"]["pimc"]
    assert pimc["deals"] == 2 and pimc["decisions"] >= 2 * 12
    assert pimc["all"]["none"] > 0 and pimc["all"]["ci95"][0] <= pimc["all"]["full_minus_none"] <= pimc["all"]["ci95"][1]
    rows = cal.with_suffix(".csv").read_text().splitlines()
    assert rows[0].startswith("source,deal,decision,seat") and len(rows) == 1 + sum(
        s["decisions"] for s in doc["sources"].values())


def test_unknown_source_is_one_clear_error():
    done = subprocess.run([sys.executable, str(SCRIPTS / "holders_calibration.py"), "--sources", "oracle"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "unknown oracle" in done.stderr and "Traceback" not in done.stderr
