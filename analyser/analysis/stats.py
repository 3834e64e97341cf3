"""Confidence-interval arithmetic for Monte Carlo estimates.

Every estimate is a mean of independent per-deal values, reported with its standard
error and a normal 95% interval. Options judged on the same deals are compared by the
mean and standard error of their per-deal *difference* (common random numbers).

>>> est = estimate([1.0, 2.0, 3.0, 4.0])
>>> est.mean, round(est.se, 6), [round(x, 4) for x in est.ci95]
(2.5, 0.645497, [1.2348, 3.7652])
>>> round(normal_cdf(1.959963984540054), 6)
0.975
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


@dataclass(frozen=True)
class Estimate:
    """A mean with its standard error, from `n` values."""

    mean: float
    se: float
    n: int

    @property
    def ci95(self) -> tuple[float, float]:
        return ci95(self.mean, self.se)

    def clipped_ci95(self, lo: float, hi: float) -> tuple[float, float]:
        """The 95% interval cut to [lo, hi] (e.g. [0, 1] for a probability)."""
        a, b = self.ci95
        return max(lo, a), min(hi, b)


def percent(x: float, signed: bool = False) -> str:
    """A rate, share or probability as every text output prints it: percent, one decimal.

    >>> percent(0.8), percent(0.14834, signed=True), percent(-0.0004, signed=True)
    ('80.0%', '+14.8%', '-0.0%')
    """
    return f"{100 * x:+.1f}%" if signed else f"{100 * x:.1f}%"


def probability(p: float) -> str:
    """A probability for people, never in exponent form: 48%, 5%, 99.5%, 0.4%; past 99.99% "above 99.99%",
    under 0.01% "below 0.01%" (near 0% or 100% with the first digit that tells it from them).

    >>> [probability(p) for p in (0.48, 0.05, 0.96, 0.995, 0.9999, 0.99995, 1.0, 0.0036, 0.0001, 0.00004, 0.0)]
    ['48%', '5%', '96%', '99.5%', '99.99%', 'above 99.99%', 'above 99.99%', '0.4%', '0.01%', 'below 0.01%', 'below 0.01%']
    """
    if p > 0.9999:
        return "above 99.99%"
    if p < 0.0001:
        return "below 0.01%"
    if 0.1 <= p <= 0.9:
        return f"{100 * p:.0f}%"
    near = 100 * min(p, 1 - p)  # the distance from 0% or 100%, in percent: its first significant digit
    decimals = min(2, max(0, -math.floor(math.log10(near))))
    return f"{100 * p:.{decimals}f}%"


def percent_ci(low: float, high: float, signed: bool = False) -> str:
    """A rate's 95% CI in the style of `percent`: ``[64.0%, 96.0%]``."""
    return f"[{percent(low, signed)}, {percent(high, signed)}]"


def ci95(mean: float, se: float) -> tuple[float, float]:
    """Normal 95% confidence interval."""
    return mean - Z95 * se, mean + Z95 * se


def wilson_ci(successes: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion: `successes` of `n` trials.

    Unlike the normal interval it stays inside [0, 1], and it is not empty when no trial
    (or every trial) succeeded; with no trial it is the whole of [0, 1].

    >>> [round(x, 4) for x in wilson_ci(4, 10)]
    [0.1682, 0.6873]
    >>> [round(x, 4) for x in wilson_ci(0, 10)], [round(x, 4) for x in wilson_ci(10, 10)]
    ([0.0, 0.2775], [0.7225, 1.0])
    >>> wilson_ci(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    z2 = Z95 * Z95
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = Z95 * math.sqrt(max(p * (1 - p), 0.0) / n + z2 / (4 * n * n)) / denom
    # With no success (or every one) the interval reaches 0 (or 1) exactly, not a rounding short of it.
    return (0.0 if p <= 0 else max(0.0, centre - half), 1.0 if p >= 1 else min(1.0, centre + half))


def estimate(values: Sequence[float] | np.ndarray) -> Estimate:
    """Mean and standard error (sample standard deviation / sqrt(n)) of per-deal values."""
    x = np.asarray(values, dtype=np.float64)
    n = x.shape[0]
    if n == 0:
        raise ValueError("no values to estimate from")
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    return Estimate(mean, se, n)


def paired_difference(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Estimate:
    """Estimate of mean(a - b) when a[i] and b[i] come from the same deal."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError("paired values need the same number of deals")
    return estimate(x - y)


def normal_cdf(z: float) -> float:
    """Standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def prob_better(diff: Estimate) -> float:
    """Probability that the option ahead by `diff` is really the better one (normal
    approximation): Phi(|mean| / se); 0.5 when nothing separates them.

    >>> prob_better(Estimate(0.2, 0.1, 100)) > 0.97
    True
    """
    if diff.se == 0:
        return 1.0 if diff.mean != 0 else 0.5
    if not math.isfinite(diff.se):
        return 0.5
    return normal_cdf(abs(diff.mean) / diff.se)


def separated(diff: Estimate, z: float) -> bool:
    """True when the difference is more than `z` standard errors away from zero."""
    return abs(diff.mean) > z * diff.se


def running_estimates(values: np.ndarray, every: int = 1) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(deals, mean, se) after the first k values, for k = every, 2 * every, ... (k >= 2).

    >>> n, m, s = running_estimates(np.array([1.0, 3.0, 2.0]))
    >>> n.tolist(), m.tolist(), s.round(4).tolist()
    ([2, 3], [2.0, 2.0], [1.0, 0.5774])
    """
    x = np.asarray(values, dtype=np.float64)
    k = np.arange(max(2, every), x.shape[0] + 1, every)
    if k.size == 0:
        return k, np.zeros(0), np.zeros(0)
    # Shifted sums keep the variance accurate when the mean is far from zero.
    y = x - x[0]
    s1 = np.cumsum(y)[k - 1]
    s2 = np.cumsum(y * y)[k - 1]
    mean = s1 / k
    var = np.maximum(s2 - k * mean * mean, 0.0) / (k - 1)
    return k, mean + x[0], np.sqrt(var / k)
