"""check-advice: the verdict logic, the share bootstrap, the claims on synthetic sums, the classings, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.claims import CONTRADICTED, INCONCLUSIVE, SUPPORTED
from analyser.analysis.bidding.advice import (
    EQUILIBRIUM, SHARE_READINGS, advice_sums, best_response_claims, check_advice, claim_give_strong,
    claim_missing_ace_or_jack, claim_run_strong_side, claim_zero_trump, equilibrium_claims, holds_ace_and_jack, pooled,
    share_positive, share_reading, side_subclass_key, trump_strength_of, verdict_above, verdict_positive,
    verdict_within, weighted_p, weighted_p_ci,
)
from analyser.analysis.bidding.equilibrium import Bootstrap, Tensor, scheme_codes, scheme_key
from analyser.engine.bidding import N_TS, TS_N
from analyser.game.cards import mask_of, parse_cards
from analyser.cli import app
from analyser.engine.decisions import (
    CLASSING_DEALER_ADVICE, CLASSING_ELDEST_ADVICE, CLASSING_HAND, CS_D, CS_DD, CS_N, N_CLASS_SUMS,
    N_SIDE_SUBCLASSES, deal_class, side_subclass, strong_side_suit,
)
from analyser.engine.evaluator import N_HAND_CLASSES, class_key, hand_class, possible_classes, trump_strength
from analyser.game.rules import make_rules

CLAIM_KEYS = {"claim", "test", "estimate", "ci95", "verdict", "n"}


def rng() -> np.random.Generator:
    return np.random.default_rng(11)


@pytest.mark.parametrize("ci, verdict", [
    ((0.71, 0.79), SUPPORTED), ((0.70, 0.80), SUPPORTED), ((0.81, 0.95), CONTRADICTED), ((0.2, 0.69), CONTRADICTED),
    ((0.65, 0.75), INCONCLUSIVE), ((0.75, 0.85), INCONCLUSIVE), ((0.6, 0.9), INCONCLUSIVE),
    ((math.nan, math.nan), INCONCLUSIVE),
])
def test_interval_verdicts(ci: tuple[float, float], verdict: str) -> None:
    assert verdict_within(ci, 0.70, 0.80) == verdict


@pytest.mark.parametrize("ci, verdict", [
    ((0.01, 0.2), SUPPORTED), ((-0.2, -0.01), CONTRADICTED), ((-0.1, 0.1), INCONCLUSIVE), ((0.0, 0.1), INCONCLUSIVE),
    ((math.nan, math.nan), INCONCLUSIVE),
])
def test_sign_verdicts(ci: tuple[float, float], verdict: str) -> None:
    assert verdict_positive(ci) == verdict


def test_share_positive_weights_by_frequency_and_widens_with_noise() -> None:
    counts = np.array([700, 200, 100, 0])
    sure = share_positive(np.array([1.0, -1.0, 2.0, 5.0]), np.full(4, 1e-3), counts, rng())
    assert sure[0] == pytest.approx(0.8) and sure[1][0] < 0.8 < sure[1][1] and sure[1][1] - sure[1][0] < 0.06
    # A class of few deals whose mean is far below the others' may well be positive: the interval says so.
    noisy = share_positive(np.array([1.0, -1.0, 2.0, 5.0]), np.array([0.01, 1.0, 0.01, 0.01]), counts, rng())
    assert noisy[1][0] <= 0.8 <= noisy[0] <= noisy[1][1] and noisy[1][1] == 1.0
    assert noisy[1][1] - noisy[1][0] > sure[1][1] - sure[1][0]
    assert share_positive(np.ones(3), np.ones(3), np.zeros(3, dtype=np.int64), rng())[0] != 0.5  # nan: no deals
    assert share_positive(np.array([1.0]), np.array([0.1]), np.array([5]), rng()) == share_positive(
        np.array([1.0]), np.array([0.1]), np.array([5]), rng())


def synthetic_replications(seed: int, replications: int = 200, classes: int = 60, deals: int = 4000,
                           draws: int = 1000) -> tuple[float, list[tuple[float, float, float]]]:
    """The true share and (estimate, lo, hi) of share_positive over replications of a known model: the classes'
    true means from N(0.4, 0.3^2) and their frequencies from a Dirichlet, drawn once; each replication deals
    `deals` hands to the classes and observes each class's mean with SE 3/sqrt(n) (a sub-class of check-advice at
    20,000 deals holds about as few)."""
    g = np.random.default_rng(seed)
    truth_means = 0.4 + 0.3 * g.standard_normal(classes)
    freq = g.dirichlet(np.full(classes, 0.7))
    found = []
    for _ in range(replications):
        n = g.multinomial(deals, freq)
        se = 3.0 / np.sqrt(np.maximum(n, 1))
        estimate, (lo, hi) = share_positive(truth_means + se * g.standard_normal(classes), se, n, g, draws=draws)
        found.append((estimate, lo, hi))
    return float(freq[truth_means > 0].sum()), found


@pytest.mark.parametrize("seed", [0, 3])
def test_share_interval_covers_the_true_share(seed: int) -> None:
    # The share of hands in classes with a positive true mean, from noisy class means: counting the classes whose
    # observed mean is positive, with a bootstrap of the observed means around it (the estimator before), covered
    # the truth in 0% (seed 0, true share 0.999) and 2.5% (seed 3, 0.920) of these replications, its estimate
    # outside its own interval in 8% and 4.5%; the hierarchical posterior covers it in about 95%.
    truth, found = synthetic_replications(seed)
    covered = sum(lo <= truth <= hi for _, lo, hi in found)
    assert covered >= 0.88 * len(found)
    assert all(lo <= estimate <= hi for estimate, lo, hi in found)


def test_share_estimate_inside_its_interval_at_check_advice_sizes() -> None:
    # Seeds 1 to 6 at 20,000 deals of trinidad with 4 players: the shipped claim 1 read 0.937 [0.770, 0.934] on
    # seed 3 (the estimate outside its own interval), and no interval reached the 2,000,000-deal share 0.998.
    rules = make_rules("trinidad", players=4)
    for seed in range(1, 7):
        claims = {c.id: c.to_json() for c in best_response_claims(*advice_sums(rules, deals=20_000, seed=seed,
                                                                                 threads=1), seed)}
        for ident, key in SHARE_READINGS.values():
            estimate, (lo, hi) = share_reading(claims[ident], key)
            assert 0.0 <= lo <= estimate <= hi <= 1.0, (seed, ident)


def synthetic_sums(rows: int, per_row: dict[int, tuple[int, float]], sd: float = 1.0) -> np.ndarray:
    """Sums for rows with (n, mean of d) each and a given spread."""
    sums = np.zeros((rows, N_CLASS_SUMS), dtype=np.int64)
    for row, (n, mean) in per_row.items():
        sums[row, CS_N] = n
        sums[row, CS_D] = round(n * mean)
        sums[row, CS_DD] = round(n * (mean * mean + sd * sd))
    return sums


def test_pooled_is_the_mean_over_the_deals_of_the_rows() -> None:
    sums = synthetic_sums(3, {0: (100, 1.0), 1: (300, -1.0), 2: (50, 9.0)})
    mean, se, n = pooled(sums, [0, 1])
    assert n == 400 and mean == pytest.approx(-0.5) and 0 < se < 0.1
    assert pooled(sums, [0, 1], sign=-1.0)[0] == pytest.approx(0.5)


@pytest.mark.parametrize("positive_share, verdict", [(0.75, SUPPORTED), (1.0, CONTRADICTED), (0.5, CONTRADICTED)])
def test_the_zero_trump_claim_on_synthetic_subclasses(positive_share: float, verdict: str) -> None:
    # 100 sub-classes of 1,000 hands each, clearly separated: the share is exact.
    k = round(100 * positive_share)
    per_row = {N_HAND_CLASSES + s: (1000, 0.5 if s < k else -0.5) for s in range(100)}
    claim = claim_zero_trump(synthetic_sums(N_HAND_CLASSES + N_SIDE_SUBCLASSES, per_row), np.array([0, 0, 0, 10**5]),
                             rng())
    assert claim.estimate == pytest.approx(positive_share) and claim.verdict == verdict
    assert claim.ci95[0] <= claim.estimate <= claim.ci95[1] and claim.n == 100_000


def test_the_trump_claims_pick_the_right_classes() -> None:
    # The eldest: beg better everywhere except with both the ace and the jack.
    per_row = {c: (500, -1.0 if holds_ace_and_jack(c) else 0.5) for c in possible_classes() if c > 0}
    claim = claim_missing_ace_or_jack(synthetic_sums(N_HAND_CLASSES + N_SIDE_SUBCLASSES, per_row), rng())
    assert claim.estimate == pytest.approx(0.5, abs=1e-3) and claim.verdict == SUPPORTED
    assert claim.details["share_where_beg_better"]["estimate"] == pytest.approx(1.0)
    # The dealer: give better with strong trump, run better with a strong side suit and weak trump.
    per_row = {}
    for c in possible_classes():
        strong = trump_strength_of(c) >= 3
        per_row[c] = (400, 1.0 if strong else -0.2)
        per_row[N_HAND_CLASSES + c] = (400, 0.3 if strong else -2.0)
    sums = synthetic_sums(2 * N_HAND_CLASSES, per_row)
    give = claim_give_strong(sums, rng())
    assert give.estimate == pytest.approx(0.65, abs=1e-3) and give.verdict == SUPPORTED
    run = claim_run_strong_side(sums, rng())
    assert run.verdict == SUPPORTED and run.details["share_where_run_better"]["estimate"] < 1.0


def test_class_strength_matches_the_evaluator() -> None:
    for hand, trump in (("AS JS 3S KH 9D 2C", "S"), ("AS KS QS JS TS 9S", "S"), ("2H 3D 4C 5C 6C 7C", "S"),
                        ("AS KS QS JS 4H 7D", "S"),
                        ("JH 9D 8D 2C 3C 4C", "H")):
        mask = mask_of(parse_cards(hand))
        code = [c for c in possible_classes() if class_key(c) == hand_class(hand, trump)][0]
        strength = trump_strength(np.uint64(mask), "SHDC".index(trump))
        if code < 25:  # fewer than four trumps: the class knows the strength exactly
            assert trump_strength_of(code) == strength
        else:  # T4+: at least 4, and at least the heuristic's give threshold
            assert 4 <= trump_strength_of(code) <= strength


def test_side_subclasses_and_strong_side_suits() -> None:
    hand = np.uint64(mask_of(parse_cards("AH KH QH TH 2D 3C")))
    sub = side_subclass(hand, 0)
    assert side_subclass_key(sub) == "T0 long 4, top A, tens 1, honours 8+"
    assert strong_side_suit(hand, 0) == 1 and strong_side_suit(hand, 1) == 0  # hearts are trump: no side suit of 3
    assert strong_side_suit(np.uint64(mask_of(parse_cards("9H 8H 7H 2D 3C 4C"))), 0) == 0
    assert deal_class(CLASSING_ELDEST_ADVICE, hand, 0) == N_HAND_CLASSES + sub
    assert deal_class(CLASSING_HAND, hand, 0) == 0
    assert deal_class(CLASSING_DEALER_ADVICE, hand, 0) == N_HAND_CLASSES
    trumps = np.uint64(mask_of(parse_cards("AS JS 3S KH 9D 2C")))
    assert deal_class(CLASSING_ELDEST_ADVICE, trumps, 0) == deal_class(CLASSING_HAND, trumps, 0) > 0
    assert len({side_subclass_key(s) for s in range(N_SIDE_SUBCLASSES)}) == N_SIDE_SUBCLASSES


def test_check_advice_end_to_end_is_reproducible() -> None:
    rules = make_rules("classic", players=3, settings=["target=5"])
    first = check_advice(rules, deals=2000, seed=4, threads=2, chunk_deals=400)
    again = check_advice(rules, deals=2000, seed=4, threads=1, chunk_deals=400)
    assert [c.to_json() for c in first.claims] == [c.to_json() for c in again.claims]
    for claim in first.to_json():
        assert CLAIM_KEYS <= set(claim) and claim["verdict"] in (SUPPORTED, CONTRADICTED, INCONCLUSIVE)
        assert len(claim["ci95"]) == 2 and claim["n"] > 0


def test_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    args = ["check-advice", "--set", "target=5", "--deals", "1500", "--seed", "2", "--play-deals", "0"]  # play tips:
    # tests/analysis/play/test_play_advice.py
    result = runner.invoke(app, [*args, "--json", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.stderr
    claims = json.loads(result.stdout)
    assert isinstance(claims, list) and len(claims) == 6
    assert all(CLAIM_KEYS <= set(c) for c in claims)
    assert [c.get("method") for c in claims] == [None] * 4 + [EQUILIBRIUM] * 2  # the first four's keys unchanged
    assert [c["id"] for c in claims[4:]] == [f"{c['id']}-equilibrium" for c in claims[:2]]
    for eq, best in zip(claims[4:], claims[:2]):
        assert eq["claim"] == best["claim"] and eq["best_response_verdict"] == best["verdict"]
        assert 0 <= eq["ci95"][0] <= eq["estimate"] <= eq["ci95"][1] <= 1 and eq["n"] > 0
        assert eq["verdict"] in (SUPPORTED, CONTRADICTED, INCONCLUSIVE) and eq["equilibrium_deals"] == 1500
    assert list(claims[4]["p_beg_by_class"]) == ["T0"]
    skipped = runner.invoke(app, [*args, "--json", "--no-equilibrium"])
    assert skipped.exit_code == 0 and json.loads(skipped.stdout) == claims[:4]
    assert json.loads((tmp_path / "advice.json").read_text()) == claims
    assert (tmp_path / "advice-eldest-classes.parquet").exists() and (tmp_path / "advice.csv").exists()
    text = runner.invoke(app, args)
    assert text.exit_code == 0 and text.stdout.count("95% CI") >= 6 and "70-80%" in text.stdout
    # the conditions every best-response number assumes: the other role's bids and the card player
    assert "assumes: the other role bids as heuristic does (the eldest's claims: the dealer answers a beg" in text.stdout
    lines = text.stdout.splitlines()
    for claim in claims[:2]:  # the equilibrium's reading first, the best response's after it
        eq_line = f"[{claims[4 + claims.index(claim)]['verdict']}] (equilibrium) {claim['claim']}"
        assert lines.index(eq_line) < lines.index(f"[{claim['verdict']}] (best response) {claim['claim']}")
    bad = runner.invoke(app, [*args, "--policy", "random:beg=0"])
    assert bad.exit_code != 0 and "never begged" in bad.stderr


@pytest.mark.parametrize("ci, verdict", [
    ((0.51, 0.9), SUPPORTED), ((0.1, 0.49), CONTRADICTED), ((0.4, 0.6), INCONCLUSIVE), ((0.5, 0.7), INCONCLUSIVE),
    ((math.nan, math.nan), INCONCLUSIVE),
])
def test_above_verdicts(ci: tuple[float, float], verdict: str) -> None:
    assert verdict_above(ci, 0.5) == verdict


def test_weighted_p_weights_by_deals_and_skips_classes_without() -> None:
    assert weighted_p(np.array([1.0, 0.0, np.nan]), np.array([3, 1, 5])) == pytest.approx(0.75)
    assert math.isnan(weighted_p(np.array([np.nan]), np.array([4])))
    boot = np.array([[1.0, 0.0], [0.5, 0.5], [1.0, 1.0]])
    est, ci = weighted_p_ci(np.array([1.0, 0.0]), np.array([3, 1]), boot, np.array([[3, 1], [3, 1], [1, 1]]))
    assert est == pytest.approx(0.75) and 0.5 <= ci[0] <= ci[1] <= 1.0


class HandMadeEquilibrium:
    """What equilibrium_claims reads: scheme, tensor codes, game deals per class, b, the bootstrap."""

    def __init__(self, p_beg: dict[str, tuple[float, float]], resamples: int = 50, scheme: str = "coarse") -> None:
        codes = scheme_codes(scheme)
        names = [scheme_key(scheme, c) for c in codes]
        chunks = np.zeros((1, len(codes), len(codes), N_TS))
        self.b = np.full(len(codes), np.nan)
        spread = np.zeros(len(codes))
        for key, (p, noise) in p_beg.items():
            i = names.index(key)
            chunks[0, i, 0, TS_N] = 1000
            self.b[i], spread[i] = p, noise
        self.scheme, self.deals, self.zero_sum, self.value = scheme, 1000 * len(p_beg), True, (0.01, -0.01)
        self.tensor = Tensor(scheme, codes, chunks, np.zeros(8, dtype=np.int64), False)
        draws = np.clip(self.b + spread * np.linspace(-1, 1, resamples)[:, None], 0, 1)
        deals = np.tile(chunks[0, :, :, TS_N].sum(axis=1), (resamples, 1))
        self.boot = Bootstrap(np.zeros((resamples, 2)), draws, np.zeros((resamples, len(codes))), deals)

    @property
    def game(self):  # noqa: ANN201
        from analyser.analysis.bidding.equilibrium import Game

        return Game.from_sums(self.tensor.total, False)


@pytest.mark.parametrize("t0, verdict", [((0.75, 0.02), SUPPORTED), ((1.0, 0.0), CONTRADICTED),
                                         ((0.2, 0.05), CONTRADICTED), ((0.75, 0.2), INCONCLUSIVE)])
def test_the_equilibrium_zero_trump_reading(t0: tuple[float, float], verdict: str) -> None:
    claim = equilibrium_claims(HandMadeEquilibrium({"T0": t0, "T1": (0.0, 0.0)}))[0]
    assert claim.id == "eldest-zero-trump-begs-70-80-equilibrium" and claim.method == EQUILIBRIUM
    assert claim.estimate == pytest.approx(t0[0]) and claim.verdict == verdict and claim.n == 1000
    assert list(claim.details["p_beg_by_class"]) == ["T0"]


@pytest.mark.parametrize("classes, estimate, verdict", [
    ({"T1": (1.0, 0.0), "T2:A": (0.6, 0.05), "T2:A,J": (0.0, 0.0)}, 0.8, SUPPORTED),     # both ace and jack: left out
    ({"T1": (0.0, 0.0), "T2:J": (0.2, 0.1), "T0": (1.0, 0.0)}, 0.1, CONTRADICTED),      # no trump: left out
    ({"T1": (0.5, 0.3), "T3:lo": (0.5, 0.3)}, 0.5, INCONCLUSIVE),
])
def test_the_equilibrium_missing_ace_or_jack_reading(classes: dict[str, tuple[float, float]], estimate: float,
                                                     verdict: str) -> None:
    claim = equilibrium_claims(HandMadeEquilibrium(classes))[1]
    assert claim.id == "eldest-beg-missing-ace-or-jack-equilibrium"
    assert claim.estimate == pytest.approx(estimate) and claim.verdict == verdict
    assert "T2:A,J" not in claim.details["p_beg_by_class"] and "T0" not in claim.details["p_beg_by_class"]


def test_the_equilibrium_readings_pool_the_fine_subclasses() -> None:
    # Fine classes: T0 and T0/side are both zero-trump hands, T1/side holds trump without ace and jack.
    eq = HandMadeEquilibrium({"T0": (1.0, 0.0), "T0/side": (0.5, 0.0), "T1/side": (0.9, 0.0), "T1": (0.7, 0.0)},
                             scheme="fine")
    zero, missing = equilibrium_claims(eq)
    assert zero.estimate == pytest.approx(0.75) and zero.verdict == SUPPORTED and zero.n == 2000
    assert set(zero.details["p_beg_by_class"]) == {"T0", "T0/side"} and zero.details["classes"] == "fine"
    assert missing.estimate == pytest.approx(0.8) and missing.verdict == SUPPORTED


def test_the_equilibrium_readings_at_every_score() -> None:
    from analyser.analysis.bidding.advice import BY_SCORE_MOVES, READINGS, add_by_score, equilibrium_claims, weighted_by_score
    from analyser.analysis.bidding.equilibrium import run_all_scores, run_equilibrium
    from analyser.analysis.bidding.equity import EquityTable
    from analyser.work.executor import LocalExecutor

    rules = make_rules("trinidad", players=2, settings=["target=4"])
    p = np.random.default_rng(1).uniform(0.2, 0.8, size=(4, 4))
    equity = EquityTable(rules, "heuristic", 1, 1, p, np.zeros((4, 4)))
    executor = LocalExecutor(2)
    eq = run_equilibrium(rules, "heuristic", 3000, 2, resamples=20, executor=executor, net_points=True)
    claims = equilibrium_claims(eq)
    add_by_score(claims, rules, "heuristic", 3000, 2, equity, executor)
    cells = run_all_scores(rules, "heuristic", 3000, 2, "coarse", equity, executor=executor, resamples=0).cells
    for claim in claims:
        want, verdict = READINGS[claim.details["best_response_claim"]]
        by = claim.details["by_score"]
        expected = weighted_by_score(cells, want)
        assert by["measure"] == "match-win probability" and by["deals"] == 3000
        assert by["at_0_0"] == expected[(0, 0)]
        assert len(by["p_beg"]) == 4 and all(len(row) == 4 for row in by["p_beg"])
        assert all(by["p_beg"][a][b] == v for (a, b), v in expected.items())
        assert len(by["moves"]) <= 3
        for move in by["moves"]:
            a, b = move["score"]
            assert abs(expected[(a, b)] - expected[(0, 0)]) >= BY_SCORE_MOVES
            assert move["ci95"][0] <= move["ci95"][1] and move["verdict"] == verdict(tuple(move["ci95"]))


def test_cli_by_score_needs_two_sides_and_the_equilibrium() -> None:
    runner = CliRunner()
    base = ["check-advice", "--set", "target=5", "--deals", "1500", "--play-deals", "0", "--by-score"]
    for extra, message in ((["--rules", "classic", "--players", "3"], "--by-score reads the equilibrium"),
                           (["--no-equilibrium"], "leave --no-equilibrium out")):
        result = runner.invoke(app, [*base, *extra])
        assert result.exit_code == 2 and message in result.stderr and len(result.stderr.splitlines()) == 1
