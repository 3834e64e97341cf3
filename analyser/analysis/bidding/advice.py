"""Check the published advice of a Spanish-language All Fours guide ("Consejos y estrategias") by paired Monte Carlo.

Each claim is stated as it is tested, with an estimate, a 95% CI and a verdict:
``supported``, ``contradicted`` or ``inconclusive``. Both passes sample deals from the
natural distribution at one score and play both options of one decision on each deal
(common random numbers), as the strategy tables do (``analysis.strategy``; kernel
``engine.decisions.paired_class_sums``), with ``policy`` for every seat. The measure is
net points per deal for the decider's side: its points minus the other sides'
together (with 3 players the eldest against both opponents), first kick excluded.

1. "With no trump support, the eldest should beg 70-80% of the time." Whether begging
   is better is a question about each hand, so the eldest's hands without trump (T0)
   are split into 108 sub-classes by their side suits (``decisions.side_subclass``:
   the longest side suit's length 2/3/4/5+ and top card A / K-Q / J or lower, tens
   0/1/2+, A-K-Q-J Game points 0-3/4-7/8+). The reading: the share of T0 hands
   (weighted by frequency) in sub-classes whose true mean beg - stand is positive
   (``share_positive``, below). (A sub-class is treated as one hand: the share is of
   hands in sub-classes where begging pays on average; hands within a sub-class still
   differ.) Verdict: supported if the CI lies inside [70%, 80%], contradicted if it
   lies wholly outside, else inconclusive.
2. "Beg when missing the ace or the jack of trump": the eldest's hands holding trump
   but not both the ace and the jack of trump; the pooled mean beg - stand with its
   CI: supported if the CI is above 0, contradicted if below, else inconclusive.
3. "As dealer, refuse the beg and run when strong in a non-trump suit": the dealer's
   hands facing a beg (the eldest's policy begged) with a strong side suit (three or
   more cards of a non-trump suit including its ace or ten: ``strong_side_suit``); the
   pooled mean run - give, verdict by its sign as in 2.
4. "Giving one is often wise when the dealer's hand is strong": the dealer's hands
   facing a beg with trump strength >= 3 (trumps held, the ace and the jack of trump
   counting twice: the heuristic's GIVE_STRONG threshold); the pooled mean
   give - run, verdict by its sign; for "often", also the share of such hands (by hand
   class and strong-side flag) where giving is better, read as in 1 (claims 2 and 3 give
   theirs too: ``SHARE_READINGS``).

The shares of hands (``share_positive``). Counting the classes whose *observed* mean is
positive is biased towards the middle when classes hold few deals: a class whose true
mean is clearly positive shows a negative mean in a fair share of small samples, and a
parametric bootstrap of the observed means (what this check did before) adds the same
bias again instead of undoing it. At 20,000 deals, trinidad with 4 players, claim 1 read
0.86-0.94 with intervals that never reached the 2,000,000-deal share 0.998, on one seed
with the estimate outside its own interval. Now the class means are read through a
normal hierarchical model (empirical Bayes made fully Bayesian over its two
hyperparameters): each class's true mean is drawn from N(x.beta, tau^2), its observed
mean from N(true mean, SE^2), with flat priors on beta and tau; the posterior is drawn
exactly (tau on a grid weighed by its marginal likelihood, beta given tau, each true
mean given both: a class of few deals leans towards what the others say, a class of
many keeps its own mean). x is a one for claim 1's side sub-classes (all without trump,
one common mean) and, for the hand classes of claims 2-4, also the trumps held, the
ace, jack and low-trump flags and the dealer's strong-side flag (``class_covariates``:
there the means follow the trumps, and the strong-trump classes, few deals each, would
otherwise lean towards the weak-trump ones). Each of BOOTSTRAP_DRAWS draws takes the
true means from that posterior and the class weights from a multinomial with the
observed frequencies; the interval is the 2.5% and 97.5% quantiles of the drawn shares,
the estimate their median at the observed weights, kept inside the interval. A class's
SE uses its own variance pooled with the rows' within-class variance as if that were
SE_PRIOR_DEALS deals more (two deals can show a variance of 0). Coverage is checked by
``scripts/share_coverage.py`` (the table: docs/findings.md, "How far the share readings
can be trusted").

Equilibrium readings of claims 1 and 2 (``equilibrium_claims``; ``--no-equilibrium`` skips
them). The bidding game's equilibrium (``analysis.equilibrium``: the payoff tensor of
stand, beg -> give and beg -> run per pair of coarse hand classes, solved exactly by LP
with two sides or by CFR+ with three; net points at the same score; as many decision
deals as the paired passes, on the equilibrium's own streams) gives P(beg) per eldest
class with a bootstrap 95% CI (chunks resampled, the game re-solved). It answers what
the claims say about how often to beg when the dealer answers as well as it can, where
claims 1 and 2 above are best responses to the policy's dealer.

1e. "Beg 70-80% of the time with no trump": the equilibrium P(beg) over the eldest's
    zero-trump classes (T0; with fine classes every T0 sub-class), weighted by their
    deals; CI: the same weighted mean in each bootstrap resample (its own weights),
    2.5% and 97.5% quantiles. Verdict as in 1: supported if the CI lies inside
    [70%, 80%], contradicted if wholly outside, else inconclusive.
2e. "Beg when missing the ace or the jack of trump", read as "beg more often than not":
    the equilibrium P(beg) over the eldest's classes holding trump but not both the ace
    and the jack, weighted as in 1e; supported if the CI lies above 0.5, contradicted if
    below 0.5, else inconclusive.

These claims carry ``"method": "equilibrium"``; the four above are best responses and
keep their keys as before.

The play advice of the same list (``analysis.play_advice``): each tip a switch of the
card player, measured on duplicated deals and matches with the switch on and off for
one side (``"method": "duplicated deals"``, in ``AdviceResult.play``; ``--json`` lists
them after the claims above, with the same keys and more).

The eldest's pass uses the streams ``SeedSequence(seed, spawn_key=(1000, chunk))``, the
dealer's ``(1001, chunk)``, the bootstraps ``(1010 + claim,)``.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..defaults import ADVICE_DEALS, ADVICE_METHODS
from ...engine.decisions import (
    CLASSING_DEALER_ADVICE, CLASSING_ELDEST_ADVICE, CS_D, CS_DD, CS_N, CT_DEALS, CT_TRIES, N_SIDE_SUBCLASSES,
)
from ...engine.evaluator import CLASS_ACE, CLASS_JACK, CLASS_LOW, N_HAND_CLASSES, class_code, class_key, decode_class, possible_classes
from ...work.executor import Executor, LocalExecutor
from ...players.policy import PolicyError, seat_policies
from ...game.rules import RuleSet
from ..stats import Z95
from ..claims import Claim, verdict_above, verdict_positive, verdict_within
from .strategy import CHUNK_DEALS, class_sums, mean_se, side_scores
from ...record.vocabulary import DEALER, ELDEST, ROLE

DEFAULT_DEALS = ADVICE_DEALS
BOOTSTRAP_DRAWS = 4000
TAU_GRID = 400           # values of the between-class spread tried by share_positive
TAU_SPAN = 2.0           # ... from 0 to this times the spread of the class means (plus the largest SE)
SE_PRIOR_DEALS = 10      # a class's variance pooled with the rows' as if this many deals more
# How a share's CI is drawn, in the check's words and in a player's (the report spells out the first as the second).
SHARE_CI_WORDS = "CI from a hierarchical model of the sub-class means"
SHARE_CI_PLAIN = (f"95% CI: the share worked out {BOOTSTRAP_DRAWS:,} times, each time with every sub-class's true "
                  "mean drawn from what its own deals and all the sub-classes' deals together say about it (a "
                  "sub-class of few deals leans towards the others) and the sub-classes' deal counts redrawn, the "
                  "middle 95% of those shares")
ADVICE_STREAM = 1000
BEG_SHARE_CLAIMED = (0.70, 0.80)
GIVE_STRENGTH = 3
SOURCE = "a Spanish-language All Fours guide (Consejos y estrategias, translated)"
BEST_RESPONSE, EQUILIBRIUM, DUPLICATED = ADVICE_METHODS
BEG_MORE_OFTEN = 0.5           # claim 2e: beg more often than not
EQUILIBRIUM_RESAMPLES = 200    # bootstrap re-solves of the equilibrium readings
Progress = Callable[[int], None]


# ---- estimates from per-class sums -----------------------------------------------------------------


def pooled(sums: np.ndarray, rows: list[int], sign: float = 1.0) -> tuple[float, float, int]:
    """(mean, SE, n) of sign * d over the deals of the classes `rows` (frequency-weighted by construction)."""
    s = sums[rows].astype(np.float64).sum(axis=0)
    n = int(s[CS_N])
    if n < 2:
        return math.nan, math.nan, n
    mean = s[CS_D] / n
    var = (s[CS_DD] - n * mean * mean) / (n - 1)
    return sign * mean, math.sqrt(max(var, 0.0) / n), n


def design(covariates: np.ndarray | None, k: int) -> np.ndarray:
    """The hierarchical model's design matrix: a column of ones and the covariates (standardised), leaving out
    constant columns and columns that add nothing, and all of them where the classes are too few to fit them."""
    columns = [np.ones(k)]
    if covariates is not None:
        for x in np.asarray(covariates, dtype=np.float64).reshape(k, -1).T:
            if x.std() == 0:
                continue
            trial = np.column_stack([*columns, (x - x.mean()) / x.std()])
            if np.linalg.matrix_rank(trial) == trial.shape[1] and k >= trial.shape[1] + 3:
                columns = list(trial.T)
    return np.column_stack(columns)


def hierarchical_draws(means: np.ndarray, ses: np.ndarray, draws: int, rng: np.random.Generator,
                       covariates: np.ndarray | None = None) -> np.ndarray:
    """Draws (draws x classes) of the classes' true means from the posterior of the normal hierarchical model
    mean_k ~ N(true_k, se_k^2), true_k ~ N(x_k . beta, tau^2) with x_k a one and the class's `covariates`
    (classes x covariates; none: a common mean), flat priors on beta and on tau: tau from a grid of TAU_GRID
    values from 0 to TAU_SPAN times the spread of the means, weighed by its marginal likelihood; beta given tau
    normal; each true_k given beta and tau normal (Gelman et al., Bayesian Data Analysis, 5.4 and 15).

    >>> rng = np.random.default_rng(0)
    >>> d = hierarchical_draws(np.array([1.0, 1.2, 0.8, -5.0]), np.array([0.1, 0.1, 0.1, 50.0]), 2000, rng)
    >>> bool((d[:, 3] > 0).mean() > 0.9), bool(abs(np.median(d[:, 0]) - 1.0) < 0.1)
    (True, True)
    """
    k = len(means)
    x = design(covariates, k)
    p = x.shape[1]
    v = ses * ses
    spread = float(means.max() - means.min()) if k > 1 else 0.0
    tau = np.linspace(0.0, TAU_SPAN * spread + float(ses.max()), TAU_GRID)
    w = 1.0 / (v[None, :] + tau[:, None] ** 2)                            # (grid, classes)
    info = np.einsum("gk,ki,kj->gij", w, x, x)                            # X'WX per tau
    beta_hat = np.linalg.solve(info, np.einsum("gk,ki,k->gi", w, x, means)[:, :, None])[:, :, 0]
    resid = means[None, :] - beta_hat @ x.T
    log_p = (-0.5 * np.linalg.slogdet(info)[1] + 0.5 * np.log(w).sum(axis=1) - 0.5 * (w * resid ** 2).sum(axis=1))
    weight = np.exp(log_p - log_p.max())
    pick = rng.choice(TAU_GRID, size=draws, p=weight / weight.sum())
    chol = np.linalg.cholesky(np.linalg.inv(info))[pick]                  # (draws, p, p)
    beta = beta_hat[pick] + (chol @ rng.standard_normal((draws, p, 1)))[:, :, 0]
    prior = beta @ x.T                                                    # (draws, classes)
    t2 = (tau[pick] ** 2)[:, None]
    shrink = t2 / (t2 + v[None, :])                                       # weight of the class's own mean
    centre = prior + shrink * (means[None, :] - prior)
    return centre + np.sqrt(shrink * v[None, :]) * rng.standard_normal((draws, k))


def share_positive(means: np.ndarray, ses: np.ndarray, counts: np.ndarray, rng: np.random.Generator,
                   draws: int = BOOTSTRAP_DRAWS,
                   covariates: np.ndarray | None = None) -> tuple[float, tuple[float, float]]:
    """Share of the deals (weights `counts`) in classes whose true mean is positive, and its 95% interval.

    Each draw takes the classes' true means from the hierarchical model of ``hierarchical_draws`` (each class's
    mean pulled towards the common mean as far as its standard error says it should be) and the classes' weights
    from a multinomial with the observed frequencies; the 2.5% and 97.5% quantiles of the drawn shares are the
    interval. The estimate is the median of the drawn shares at the observed weights, kept inside the interval
    (it lies there anyway but for the rarest draws). Counting the classes whose *observed* mean is positive
    instead is biased towards the middle when classes hold few deals (a class whose true mean is clearly
    positive shows a negative mean in a fair share of small samples), and redrawing each observed mean within
    its standard error adds the same bias again: such intervals missed the large-sample share at the sizes
    people run (scripts/share_coverage.py; docs/findings.md, "How far the share readings can be trusted").

    >>> rng = np.random.default_rng(0)
    >>> share_positive(np.array([1.0, -1.0]), np.array([0.01, 0.01]), np.array([30, 10]), rng)[0]
    0.75
    """
    keep = counts > 0
    means, ses, counts = means[keep], ses[keep], counts[keep]
    total = int(counts.sum())
    if total == 0:
        return math.nan, (math.nan, math.nan)
    covariates = None if covariates is None else np.asarray(covariates, dtype=np.float64)[keep]
    positive = hierarchical_draws(means, ses, draws, rng, covariates) > 0
    drawn_counts = rng.multinomial(total, counts / total, size=draws)
    lo, hi = np.quantile((drawn_counts * positive).sum(axis=1) / total, [0.025, 0.975])
    estimate = float(np.median((counts * positive).sum(axis=1) / total))
    return min(max(estimate, float(lo)), float(hi)), (float(lo), float(hi))


def class_estimates(sums: np.ndarray, rows: list[int], sign: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-class (mean, SE, n) of sign * d. Each class's variance is its own pooled with the rows' within-class
    variance as if that were SE_PRIOR_DEALS deals more (a class of a few deals can show a variance of 0);
    classes without deals get SE inf."""
    s = sums[rows].astype(np.float64)
    n = s[:, CS_N]
    mean, _ = mean_se(s[:, CS_D], s[:, CS_DD], n)
    with np.errstate(invalid="ignore", divide="ignore"):
        within = np.where(n > 0, s[:, CS_DD] - s[:, CS_D] ** 2 / np.maximum(n, 1), 0.0)  # sum of squares about the mean
    dof = float(np.maximum(n - 1, 0).sum())
    if dof > 0:
        pooled_var = float(np.maximum(within, 0).sum()) / dof
    else:  # no class with two deals: the variance over all the rows' deals
        _, pooled_se, total = pooled(sums, rows)
        pooled_var = pooled_se * pooled_se * total if total >= 2 else math.nan
    if not pooled_var > 0:
        pooled_var = 1.0
    var = (np.maximum(within, 0) + SE_PRIOR_DEALS * pooled_var) / (np.maximum(n - 1, 0) + SE_PRIOR_DEALS)
    with np.errstate(divide="ignore"):
        se = np.where(n > 0, np.sqrt(var / np.maximum(n, 1)), np.inf)
    return sign * np.nan_to_num(mean), se, n.astype(np.int64)


def class_covariates(role: str, rows: list[int]) -> np.ndarray:
    """What the hierarchical model of ``share_positive`` lets a hand class's mean follow (rows x covariates): the
    trumps held and the ace, jack and low-trump flags, and for the dealer also the strong-side flag (codes from
    N_HAND_CLASSES)."""
    out = []
    for code in rows:
        trumps, flags = decode_class(code % N_HAND_CLASSES)
        row = [trumps, bool(flags & CLASS_ACE), bool(flags & CLASS_JACK), bool(flags & CLASS_LOW)]
        out.append(row + ([code >= N_HAND_CLASSES] if role == "dealer" else []))
    return np.array(out, dtype=np.float64)


def trump_strength_of(code: int) -> int:
    """Trump strength of a hand class (trumps + ace + jack; 4+ trumps count as 4)."""
    trumps, flags = decode_class(code)
    return trumps + bool(flags & CLASS_ACE) + bool(flags & CLASS_JACK)


def holds_ace_and_jack(code: int) -> bool:
    """True if a hand class holds both the ace and the jack of trump."""
    both = CLASS_ACE | CLASS_JACK
    return decode_class(code)[1] & both == both


def side_subclass_key(sub: int) -> str:
    """Readable key of a T0 side sub-class, e.g. ``T0 long 4, top A, tens 1, honours 4-7``."""
    honours, tens, top, length = sub % 3, sub // 3 % 3, sub // 9 % 3, sub // 27
    return (f"T0 long {('2', '3', '4', '5+')[length]}, top {('A', 'K/Q', 'J-')[top]}, "
            f"tens {('0', '1', '2+')[tens]}, honours {('0-3', '4-7', '8+')[honours]}")


def advice_class_key(role: str, code: int) -> str:
    if role == "eldest":
        return class_key(code) if code < N_HAND_CLASSES else side_subclass_key(code - N_HAND_CLASSES)
    return class_key(code % N_HAND_CLASSES) + (" strong-side" if code >= N_HAND_CLASSES else "")


# ---- the claims -----------------------------------------------------------------------------------


def estimate_dict(mean: float, se: float, n: int) -> dict[str, Any]:
    return {"estimate": mean, "ci95": [mean - Z95 * se, mean + Z95 * se], "n": n}


def claim_zero_trump(sums: np.ndarray, counts: np.ndarray, rng: np.random.Generator) -> Claim:
    rows = list(range(N_HAND_CLASSES, N_HAND_CLASSES + N_SIDE_SUBCLASSES))
    means, ses, n = class_estimates(sums, rows)
    share, ci = share_positive(means, ses, n, rng)
    mean, se, total = pooled(sums, rows)
    separated = (np.abs(means) > Z95 * ses) & (n > 0)
    lo, hi = BEG_SHARE_CLAIMED
    return Claim(
        "eldest-zero-trump-begs-70-80", "With no trump support, the eldest should beg 70-80% of the time.",
        f"{SOURCE}: \"la mano mayor con 0 apoyo de triunfo deberia pedir el 70-80 % de las veces\"",
        "share of the eldest's hands without trump (weighted by frequency, over 108 side-suit sub-classes) whose "
        f"true mean {ELDEST.diff} net points is positive; {SHARE_CI_WORDS}; "
        f"supported if the CI lies inside [{lo:.0%}, {hi:.0%}], contradicted if wholly outside",
        share, ci, verdict_within(ci, lo, hi), total, "share of hands",
        {ELDEST.diff_key: estimate_dict(mean, se, total),
         "zero_trump_share_of_deals": total / max(1, int(counts[CT_DEALS])),
         "subclasses_sampled": int((n > 0).sum()),
         "share_in_separated_subclasses": float(n[separated].sum() / max(1, n.sum()))})


def claim_missing_ace_or_jack(sums: np.ndarray, rng: np.random.Generator) -> Claim:
    rows = [c for c in possible_classes() if c > 0 and not holds_ace_and_jack(c)]
    mean, se, total = pooled(sums, rows)
    ci = (mean - Z95 * se, mean + Z95 * se)
    means, ses, n = class_estimates(sums, rows)
    share, share_ci = share_positive(means, ses, n, rng, covariates=class_covariates("eldest", rows))
    by_trumps = {}
    for t in range(1, 5):
        group = [c for c in rows if decode_class(c)[0] == t]
        by_trumps[class_key(class_code(t, 0))] = estimate_dict(*pooled(sums, group))
    return Claim(
        "eldest-beg-missing-ace-or-jack", "Beg when missing the ace or the jack of trump.",
        f"{SOURCE}: \"Pida agresivamente cuando le falte el As o la Jota de triunfo\"",
        f"mean {ELDEST.diff} net points over the eldest's hands holding trump but not both the ace and the jack of "
        "trump (frequency-weighted); supported if the CI is above 0, contradicted if below",
        mean, ci, verdict_positive(ci), total, "net points per deal",
        {"share_where_beg_better": {"estimate": share, "ci95": list(share_ci), "over": "hand classes"},
         "by_trumps_held": by_trumps})


def claim_run_strong_side(sums: np.ndarray, rng: np.random.Generator) -> Claim:
    strong = [N_HAND_CLASSES + c for c in possible_classes()]
    mean, se, total = pooled(sums, strong, sign=-1.0)
    ci = (mean - Z95 * se, mean + Z95 * se)
    means, ses, n = class_estimates(sums, strong, sign=-1.0)
    share, share_ci = share_positive(means, ses, n, rng, covariates=class_covariates("dealer", strong))
    weak_trump = [N_HAND_CLASSES + c for c in possible_classes() if trump_strength_of(c) < GIVE_STRENGTH]
    return Claim(
        "dealer-run-strong-side-suit", "As dealer, refuse the beg and run when strong in a non-trump suit.",
        f"{SOURCE}: \"Como repartidor, rechace la peticion y corra las cartas cuando su mano sea fuerte en un palo "
        "que no es triunfo\"",
        f"mean {DEALER.option0} - {DEALER.option1} net points over the dealer's hands facing a beg with a strong side suit (3+ cards of a "
        "non-trump suit including its ace or ten); supported if the CI is above 0, contradicted if below",
        mean, ci, verdict_positive(ci), total, "net points per deal",
        {"share_where_run_better": {"estimate": share, "ci95": list(share_ci), "over": "hand classes"},
         "strong_side_weak_trump": estimate_dict(*pooled(sums, weak_trump, sign=-1.0)),
         "no_strong_side": estimate_dict(*pooled(sums, possible_classes(), sign=-1.0))})


def claim_give_strong(sums: np.ndarray, rng: np.random.Generator) -> Claim:
    strong = [c for c in possible_classes() if trump_strength_of(c) >= GIVE_STRENGTH]
    rows = strong + [N_HAND_CLASSES + c for c in strong]
    mean, se, total = pooled(sums, rows)
    ci = (mean - Z95 * se, mean + Z95 * se)
    means, ses, n = class_estimates(sums, rows)
    share, share_ci = share_positive(means, ses, n, rng, covariates=class_covariates("dealer", rows))
    weak = [c for c in possible_classes() if trump_strength_of(c) < GIVE_STRENGTH]
    return Claim(
        "dealer-give-when-strong", "Giving one is often wise when the dealer's hand is strong.",
        f"{SOURCE}: \"Regalo ... Suele ser la eleccion mas inteligente cuando la mano del repartidor es fuerte\"",
        f"mean {DEALER.diff} net points over the dealer's hands facing a beg with trump strength >= {GIVE_STRENGTH} "
        "(trumps, the ace and the jack of trump counting twice); supported if the CI is above 0, contradicted if "
        "below; 'often': the share of such hands (by hand class and strong-side flag) where giving is better",
        mean, ci, verdict_positive(ci), total, "net points per deal",
        {"share_where_give_better": {"estimate": share, "ci95": list(share_ci), "over": "hand classes"},
         "weak_trump": estimate_dict(*pooled(sums, weak + [N_HAND_CLASSES + c for c in weak]))})


# The shares of hands the best-response claims print (reading -> (claim id, details key; None: the estimate)).
SHARE_READINGS: dict[str, tuple[str, str | None]] = {
    "claim 1: zero trump, beg better": ("eldest-zero-trump-begs-70-80", None),
    "claim 2: missing ace or jack, beg better": ("eldest-beg-missing-ace-or-jack", "share_where_beg_better"),
    "claim 3: strong side suit, run better": ("dealer-run-strong-side-suit", "share_where_run_better"),
    "claim 4: strong trump, give better": ("dealer-give-when-strong", "share_where_give_better"),
}


def share_reading(claim: dict[str, Any], key: str | None) -> tuple[float, tuple[float, float]]:
    """(estimate, 95% CI) of a share reading from a claim's JSON (``Claim.to_json``)."""
    found = claim if key is None else claim[key]
    lo, hi = found["ci95"]
    return float(found["estimate"]), (float(lo), float(hi))


# ---- the equilibrium's readings ---------------------------------------------------------------------


def weighted_p(p: np.ndarray, deals: np.ndarray) -> float:
    """Mean of `p` weighted by `deals` (classes without deals, or with NaN, left out); NaN if none."""
    p = np.asarray(p, dtype=np.float64)
    w = np.where(np.isfinite(p), np.asarray(deals, dtype=np.float64), 0.0)
    total = float(w.sum())
    return float((w * np.nan_to_num(p)).sum() / total) if total > 0 else math.nan


def weighted_p_ci(p: np.ndarray, deals: np.ndarray, boot_p: np.ndarray,
                  boot_deals: np.ndarray) -> tuple[float, tuple[float, float]]:
    """The weighted P of rows `p` (weights `deals`) and its 95% CI from the bootstrap's rows (resample, class)
    with each resample's own weights."""
    estimate = weighted_p(p, deals)
    draws = np.array([weighted_p(boot_p[r], boot_deals[r]) for r in range(boot_p.shape[0])])
    draws = draws[np.isfinite(draws)]
    if not math.isfinite(estimate) or draws.size == 0:
        return estimate, (math.nan, math.nan)
    lo, hi = np.quantile(draws, [0.025, 0.975])
    return estimate, (float(lo), float(hi))


def equilibrium_rows(codes: list[int], want: Callable[[int], bool]) -> list[int]:
    """Indices of the class codes (coarse or fine: ``code % N_HAND_CLASSES`` is the hand class) wanted."""
    return [i for i, code in enumerate(codes) if want(code % N_HAND_CLASSES)]


def zero_trump(code: int) -> bool:
    return decode_class(code)[0] == 0


def missing_ace_or_jack(code: int) -> bool:
    return decode_class(code)[0] > 0 and not holds_ace_and_jack(code)


def equilibrium_estimate(eq: Any, want: Callable[[int], bool]) -> tuple[float, tuple[float, float], int,
                                                                          dict[str, Any]]:
    """(weighted P(beg), 95% CI, deals, per class P(beg) and CI) over the eldest's classes `want` picks."""
    from .equilibrium import scheme_key

    game = eq.game
    rows = equilibrium_rows(eq.tensor.codes, want)
    deals = game.eldest_deals[rows]
    boot_deals = eq.boot.eldest_deals
    if boot_deals is None:
        raise ValueError("the equilibrium's bootstrap lacks its per-resample deals")
    estimate, ci = weighted_p_ci(eq.b[rows], deals, eq.boot.b[:, rows], boot_deals[:, rows])
    lo, hi = eq.boot.ci(eq.boot.b)
    by_class = {scheme_key(eq.scheme, eq.tensor.codes[i]): {"estimate": float(eq.b[i]),
                                                            "ci95": [float(lo[i]), float(hi[i])],
                                                            "deals": int(game.eldest_deals[i])}
                for i in rows if game.eldest_deals[i] > 0}
    return estimate, ci, int(deals.sum()), by_class


# The eldest's claims read against the equilibrium: the classes each one names, and its verdict on a 95% CI.
READINGS: dict[str, tuple[Callable[[int], bool], Callable[[tuple[float, float]], str]]] = {
    "eldest-zero-trump-begs-70-80": (zero_trump, lambda ci: verdict_within(ci, *BEG_SHARE_CLAIMED)),
    "eldest-beg-missing-ace-or-jack": (missing_ace_or_jack, lambda ci: verdict_above(ci, BEG_MORE_OFTEN)),
}
BY_SCORE_CHECKS = 3      # scores where a reading moves most from 0:0 that get a bootstrap CI of their own
BY_SCORE_MOVES = 0.05    # ... if it moves at least this much


def weighted_by_score(cells: list[dict[str, Any]], want: Callable[[int], bool]) -> dict[tuple[int, int], float]:
    """The equilibrium's P(beg) over the eldest's classes `want` picks, weighted by their deals, at every score of
    an all-scores run (``equilibrium.ScoresResult.cells``; point estimates)."""
    codes = {class_key(c): c for c in possible_classes()}
    out = {}
    for cell in cells:
        rows = [r for r in cell["eldest"] if want(codes[r["class"]])]
        deals = sum(r["deals"] for r in rows)
        if deals > 0:
            out[(int(cell["score"][0]), int(cell["score"][1]))] = sum(r["p_beg"] * r["deals"] for r in rows) / deals
    return out


def add_by_score(claims: list[Claim], rules: RuleSet, policy: str, deals: int, seed: int, equity: Any,
                 executor: Executor, progress: Progress | None = None) -> None:
    """Each equilibrium reading at every score (the match-win probability from `equity` as the payoff; two sides):
    details["by_score"] gets the weighted P(beg) by score from one all-scores run of `deals` deals, and, at the
    up to BY_SCORE_CHECKS scores where it moves furthest from its 0:0 value (by at least BY_SCORE_MOVES), the
    estimate, bootstrap 95% CI and verdict of an equilibrium run of `deals` decision deals at that score."""
    from .equilibrium import run_all_scores, run_equilibrium

    scores_run = run_all_scores(rules, policy, deals, seed, "coarse", equity, executor=executor, progress=progress,
                                resamples=0)  # point estimates only: the CIs come from the runs at single scores
    runs: dict[tuple[int, int], Any] = {}
    for claim in claims:
        ident = claim.details.get("best_response_claim")
        if claim.method != EQUILIBRIUM or ident not in READINGS:
            continue
        want, verdict = READINGS[ident]
        by_score = weighted_by_score(scores_run.cells, want)
        base = by_score.get((0, 0), math.nan)
        moved = sorted((s for s, p in by_score.items() if abs(p - base) >= BY_SCORE_MOVES),
                       key=lambda s: -abs(by_score[s] - base))[:BY_SCORE_CHECKS]
        checked = []
        for score in sorted(moved):
            if score not in runs:
                runs[score] = run_equilibrium(rules, policy, deals, seed, "coarse", score, equity,
                                              resamples=EQUILIBRIUM_RESAMPLES, executor=executor, progress=progress)
            estimate, ci, n, _ = equilibrium_estimate(runs[score], want)
            checked.append({"score": list(score), "estimate": estimate, "ci95": list(ci), "verdict": verdict(ci),
                            "deals": n})
        t = rules.target
        claim.details["by_score"] = {
            "measure": "match-win probability", "deals": deals, "at_0_0": base, "threshold": BY_SCORE_MOVES,
            "p_beg": [[by_score.get((a, b)) for b in range(t)] for a in range(t)],
            "moves": checked,
            "note": "p_beg[a][b]: point estimates, the eldest's side at a, the dealer's at b; 'moves': the scores "
                    f"where it moves most from 0:0 (at least {BY_SCORE_MOVES}), each with a bootstrap CI from its "
                    "own run"}


def equilibrium_claims(eq: Any, best_response: dict[str, Claim] | None = None) -> list[Claim]:
    """Claims 1e and 2e (module docstring) from an equilibrium run (``analysis.equilibrium.EquilibriumResult``);
    `best_response`: the best-response claims by id, whose verdicts are quoted beside."""
    best_response = best_response or {}
    lo, hi = BEG_SHARE_CLAIMED
    common = {"method": EQUILIBRIUM, "classes": eq.scheme, "equilibrium_deals": eq.deals,
              "solved_by": "linear program (HiGHS)" if eq.zero_sum else "CFR+ (regret matching)",
              "game_value": float(eq.value[0])}
    out = []
    for ident, claim, source, test, want, verdict in (
        ("eldest-zero-trump-begs-70-80", "With no trump support, the eldest should beg 70-80% of the time.",
         f"{SOURCE}: \"la mano mayor con 0 apoyo de triunfo deberia pedir el 70-80 % de las veces\"",
         "equilibrium P(beg) of the bidding game over the eldest's zero-trump classes (T0), weighted by their deals; "
         "95% CI from the bootstrap (chunks resampled, game re-solved); supported if the CI lies inside "
         f"[{lo:.0%}, {hi:.0%}], contradicted if wholly outside",
         *READINGS["eldest-zero-trump-begs-70-80"]),
        ("eldest-beg-missing-ace-or-jack", "Beg when missing the ace or the jack of trump.",
         f"{SOURCE}: \"Pida agresivamente cuando le falte el As o la Jota de triunfo\"",
         "equilibrium P(beg) of the bidding game over the eldest's classes holding trump but not both the ace and "
         "the jack of trump, weighted by their deals; read as 'beg more often than not': supported if the 95% "
         f"bootstrap CI lies above {BEG_MORE_OFTEN}, contradicted if below",
         *READINGS["eldest-beg-missing-ace-or-jack"]),
    ):
        estimate, ci, deals, by_class = equilibrium_estimate(eq, want)
        details: dict[str, Any] = {**common, "best_response_claim": ident}
        if ident in best_response:
            details["best_response_verdict"] = best_response[ident].verdict
        details["p_beg_by_class"] = by_class
        out.append(Claim(f"{ident}-equilibrium", claim, source, test, estimate, ci, verdict(ci), deals,
                         "P(beg)", details))
    return out


# ---- the run ----------------------------------------------------------------------------------------


@dataclasses.dataclass
class AdviceResult:
    rules: RuleSet
    policy: str
    deals: int
    seed: int
    score: tuple[int, ...]
    claims: list[Claim]
    eldest: pd.DataFrame   # per advice class: n, share, beg - stand
    dealer: pd.DataFrame
    seconds: float
    equilibrium_deals: int = 0  # decision deals of the equilibrium readings (0: not run)
    play: list[Claim] = dataclasses.field(default_factory=list)  # the play tips (play.play_advice.add_play_tips)
    play_deals: int = 0         # duplicated deals per play tip (0: not run)
    play_matches: int = 0       # duplicated matches per play tip
    play_observer: str = ""     # the player whose habits the play tips' observation reads
    play_skipped: str = ""      # why the play tips were not measured, if they were asked for and were not

    def to_json(self) -> list[dict[str, Any]]:
        return [c.to_json() for c in self.claims + self.play]


def class_frame(sums: np.ndarray, counts: np.ndarray, role: str) -> pd.DataFrame:
    codes = [c for c in range(sums.shape[0]) if sums[c, CS_N] > 0]
    s = sums[codes].astype(np.float64)
    mean, se = mean_se(s[:, CS_D], s[:, CS_DD], s[:, CS_N])
    return pd.DataFrame({"role": role, "class_code": codes, "class_key": [advice_class_key(role, c) for c in codes],
                         "n": sums[codes, CS_N], "share": sums[codes, CS_N] / max(1, int(counts[CT_TRIES])),
                         "diff": ROLE[role].diff, "diff_mean": mean,
                         "diff_se": se, "diff_ci_lo": mean - Z95 * se, "diff_ci_hi": mean + Z95 * se})


def advice_sums(rules: RuleSet, policy: str = "heuristic", deals: int = DEFAULT_DEALS, seed: int = 1,
                score: tuple[int, ...] | None = None, threads: int | None = None, executor: Executor | None = None,
                progress: Progress | None = None,
                chunk_deals: int = CHUNK_DEALS) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The paired passes of the best-response claims: (eldest sums, eldest counts, dealer sums, dealer counts) of
    `deals` decision deals each, on the streams of the module docstring."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    kinds, params = seat_policies([policy], rules.players)
    scores = side_scores(rules, score)
    executor = executor if executor is not None else LocalExecutor(threads)
    eldest, e_counts = class_sums(rules, "eldest", scores, kinds, params, CLASSING_ELDEST_ADVICE, deals, seed,
                                  ADVICE_STREAM, executor, progress, chunk_deals)
    dealer, d_counts = class_sums(rules, "dealer", scores, kinds, params, CLASSING_DEALER_ADVICE, deals, seed,
                                  ADVICE_STREAM + 1, executor, progress, chunk_deals)
    if int(d_counts[CT_DEALS]) == 0:
        raise PolicyError(f"the policy {policy!r} never begged in {int(d_counts[CT_TRIES]):,} deals: "
                          "the dealer's claims cannot be tested")
    return eldest, e_counts, dealer, d_counts


def best_response_claims(eldest: np.ndarray, e_counts: np.ndarray, dealer: np.ndarray, d_counts: np.ndarray,
                         seed: int) -> list[Claim]:
    """Claims 1-4 (module docstring) from the sums of ``advice_sums``; `seed` seeds their share intervals."""

    def rng(k: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(ADVICE_STREAM + 10 + k,)))

    return [claim_zero_trump(eldest, e_counts, rng(1)), claim_missing_ace_or_jack(eldest, rng(2)),
            claim_run_strong_side(dealer, rng(3)), claim_give_strong(dealer, rng(4))]


def check_advice(rules: RuleSet, policy: str = "heuristic", deals: int = DEFAULT_DEALS, seed: int = 1,
                 score: tuple[int, ...] | None = None, threads: int | None = None, executor: Executor | None = None,
                 progress: Progress | None = None, chunk_deals: int = CHUNK_DEALS,
                 equilibrium_deals: int = 0, by_score_equity: Any = None) -> AdviceResult:
    """Test the four claims with `deals` paired decision deals for the eldest and as many for the dealer;
    with `equilibrium_deals`, also the equilibrium readings of claims 1 and 2 on that many decision deals (and,
    with `by_score_equity`, an equity table of these rules, those readings at every score: add_by_score).
    The play tips are a card-play question: ``play.play_advice.add_play_tips`` adds them to the result."""
    import time

    start = time.perf_counter()
    scores = side_scores(rules, score)
    executor = executor if executor is not None else LocalExecutor(threads)
    sums = advice_sums(rules, policy, deals, seed, score, executor=executor, progress=progress,
                       chunk_deals=chunk_deals)
    eldest, e_counts, dealer, d_counts = sums
    claims = best_response_claims(*sums, seed)
    if equilibrium_deals > 0:
        from .equilibrium import run_equilibrium

        eq = run_equilibrium(rules, policy, equilibrium_deals, seed, "coarse", score, None,
                             resamples=EQUILIBRIUM_RESAMPLES, executor=executor, progress=progress, net_points=True)
        claims += equilibrium_claims(eq, {c.id: c for c in claims})
        if by_score_equity is not None:
            add_by_score(claims, rules, policy, equilibrium_deals, seed, by_score_equity, executor, progress)
    return AdviceResult(rules, policy, deals, seed, tuple(int(x) for x in scores[:rules.sides]), claims,
                        class_frame(eldest, e_counts, "eldest"), class_frame(dealer, d_counts, "dealer"),
                        time.perf_counter() - start, equilibrium_deals)
