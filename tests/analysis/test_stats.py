"""Confidence-interval arithmetic on inputs whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyser.analysis.stats import (
    Z95,
    Estimate,
    ci95,
    estimate,
    normal_cdf,
    paired_difference,
    prob_better,
    running_estimates,
    separated,
    wilson_ci,
)


def test_estimate_mean_and_standard_error() -> None:
    est = estimate([2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0])
    assert est.mean == 5.0
    assert est.n == 8
    assert est.se == pytest.approx(math.sqrt(32 / 7) / math.sqrt(8))
    lo, hi = est.ci95
    assert (lo, hi) == pytest.approx((5.0 - Z95 * est.se, 5.0 + Z95 * est.se))


def test_ci95_and_normal_quantile() -> None:
    assert ci95(1.0, 0.5) == pytest.approx((1.0 - 0.979982, 1.0 + 0.979982), abs=1e-6)
    assert normal_cdf(0.0) == 0.5
    assert normal_cdf(Z95) == pytest.approx(0.975, abs=1e-12)
    assert normal_cdf(-1.0) == pytest.approx(0.158655254, abs=1e-9)


def test_constant_values_have_zero_error_and_one_value_has_none() -> None:
    assert estimate([3.0] * 10).se == 0.0
    assert estimate([3.0]).se == math.inf
    with pytest.raises(ValueError):
        estimate([])


def test_paired_difference_uses_the_per_deal_differences() -> None:
    # a and b swing together: their difference is constant, so its error is zero
    a = np.array([1.0, 5.0, -3.0, 8.0])
    d = paired_difference(a + 0.25, a)
    assert d.mean == pytest.approx(0.25)
    assert d.se == pytest.approx(0.0, abs=1e-15)
    assert prob_better(d) == 1.0
    # unpaired errors would be large: the pairing is what removes them
    assert estimate(a).se > 1.0
    with pytest.raises(ValueError):
        paired_difference([1.0, 2.0], [1.0])


def test_probability_best_and_separation() -> None:
    assert prob_better(Estimate(0.0, 0.0, 5)) == 0.5
    assert prob_better(Estimate(0.3, 0.1, 100)) == pytest.approx(normal_cdf(3.0))
    assert prob_better(Estimate(-0.3, 0.1, 100)) == pytest.approx(normal_cdf(3.0))
    assert separated(Estimate(0.31, 0.1, 100), 3.0)
    assert not separated(Estimate(0.29, 0.1, 100), 3.0)
    assert not separated(Estimate(0.0, 0.0, 100), 3.0)


def test_running_estimates_agree_with_direct_computation() -> None:
    x = np.random.default_rng(3).normal(100.0, 2.0, size=1000)
    deals, mean, se = running_estimates(x, every=100)
    assert deals.tolist() == list(range(100, 1001, 100))
    for k, m, s in zip(deals, mean, se):
        direct = estimate(x[:k])
        assert m == pytest.approx(direct.mean, rel=1e-12)
        assert s == pytest.approx(direct.se, rel=1e-9)


def test_wilson_intervals_stay_inside_0_1():
    for n in (1, 2, 10, 1000):
        for k in range(0, n + 1, max(1, n // 7)):
            lo, hi = wilson_ci(k, n)
            assert 0.0 <= lo <= k / n <= hi <= 1.0
