"""Tournaments: policy A against policy B over whole matches, deals duplicated.

With 4 players A holds the even seats (side 0) and B the odd ones; with 2 players
seat 0 plays seat 1. Three players are refused: each plays alone, so there are no
two sides to compare. Every match is played twice from the same card stream with
A and B swapping seats (a duplicate pair), so luck of the cards cancels out.

Matches come in pairs, and pairs are the independent units of the statistics:
the win rate is A's wins over all matches played (two per pair), its standard
error comes from the spread of the per-pair win fractions. Points per deal are
ratio estimates (points over dealer turns) with a delta-method standard error.

Pairs are cut into chunks of ``CHUNK_PAIRS``, played as tasks on an executor (local
threads or a Dask cluster, ``analyser.executor``); chunk k draws its card and choice
streams from ``SeedSequence(seed).spawn(...)[k]`` and its pairs are placed by index, so
results do not depend on the number of threads or workers, nor on the order chunks
finish in.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ...engine.bits import rng_state
from ...engine.matches import M_A_POINTS, M_A_WINS, M_B_POINTS, M_DEALS, M_UNFINISHED, N_PAIR_COLS, play_pairs
from ...engine.layout import K_ORACLE, K_PIMC, K_TUNED
from ...engine.rundeals import N_RD_COLS, RD_A_AB, RD_A_BA, RD_RUNS, run_deal_pairs
from ...errors import AllFoursError
from ...executor import Executor, LocalExecutor, Task
from ...policy import parse_policy
from ...rules import RuleSet
from ..stats import Z95, Estimate, wilson_ci

CHUNK_PAIRS = 500
CHUNK_RUN_DEALS = 25  # deals per task of a run-deal duel (a search player takes seconds per deal with runs)


class TournamentError(AllFoursError):
    """A tournament that cannot be played as asked."""


@dataclasses.dataclass(frozen=True)
class TournamentResult:
    rules: RuleSet
    a: str
    b: str
    seed: int
    matches: int        # matches played (two per duplicate pair)
    a_wins: int
    unfinished: int     # matches given up without a winner (counted as not won by A)
    deals: int          # dealer turns played, all matches
    a_win_rate: Estimate
    a_win_rate_ci95: tuple[float, float]
    a_points_per_deal: Estimate
    b_points_per_deal: Estimate
    diff_points_per_deal: Estimate  # A minus B

    def as_dict(self) -> dict[str, Any]:
        def est(e: Estimate, ci: tuple[float, float] | None = None) -> dict[str, Any]:
            lo, hi = ci or e.ci95
            return {"value": e.mean, "se": e.se, "ci95": [lo, hi]}

        return {
            "rules": self.rules.as_log_dict(),
            "a": self.a,
            "b": self.b,
            "seed": self.seed,
            "matches": self.matches,
            "pairs": self.matches // 2,
            "a_wins": self.a_wins,
            "unfinished": self.unfinished,
            "deals": self.deals,
            "deals_per_match": self.deals / self.matches,
            "a_win_rate": self.a_win_rate.mean,
            "a_win_rate_se": self.a_win_rate.se,
            "a_win_rate_ci95": list(self.a_win_rate_ci95),
            "a_points_per_deal": est(self.a_points_per_deal),
            "b_points_per_deal": est(self.b_points_per_deal),
            "diff_points_per_deal": est(self.diff_points_per_deal),
        }


def wilson_interval(p: float, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a proportion `p` observed on `n` trials (``stats.wilson_ci``)."""
    return wilson_ci(p * n, n)


def win_rate(wins_per_pair: np.ndarray) -> tuple[Estimate, tuple[float, float]]:
    """A's win rate over all matches, with the standard error over pairs.

    When every pair has the same result (or there is one pair) the spread says
    nothing, so the interval is Wilson's on the pairs, which is wider.
    """
    pairs = len(wins_per_pair)
    frac = wins_per_pair / 2.0
    value = float(frac.mean())
    se = float(frac.std(ddof=1) / math.sqrt(pairs)) if pairs > 1 else math.nan
    if pairs > 1 and se > 0:
        lo, hi = value - Z95 * se, value + Z95 * se
        return Estimate(value, se, pairs), (max(0.0, lo), min(1.0, hi))
    return Estimate(value, se, pairs), wilson_interval(value, pairs)


def ratio(num: np.ndarray, den: np.ndarray) -> Estimate:
    """sum(num) / sum(den) over pairs, with its delta-method standard error."""
    r = float(num.sum() / den.sum())
    n = len(num)
    if n < 2:
        return Estimate(r, math.nan, n)
    resid = num - r * den
    se = math.sqrt(float((resid**2).sum()) / (n * (n - 1))) / float(den.mean())
    return Estimate(r, se, n)


def seat_arrangements(rules: RuleSet, a: str, b: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Kinds and parameter rows with A on side 0, then with A on side 1."""
    if rules.players == 3:
        raise TournamentError("tournament needs two sides: play it with 2 or 4 players (with 3 each plays alone)")
    ka, pa = parse_policy(a)
    kb, pb = parse_policy(b)
    n = rules.players
    kinds_ab = np.array([ka if s % 2 == 0 else kb for s in range(n)], dtype=np.int64)
    params_ab = np.stack([pa if s % 2 == 0 else pb for s in range(n)])
    kinds_ba = np.array([kb if s % 2 == 0 else ka for s in range(n)], dtype=np.int64)
    params_ba = np.stack([pb if s % 2 == 0 else pa for s in range(n)])
    return kinds_ab, params_ab, kinds_ba, params_ba


def pairs_chunk(rules_array: np.ndarray, kinds_ab: np.ndarray, params_ab: np.ndarray, kinds_ba: np.ndarray,
                params_ba: np.ndarray, seed: int, index: int, size: int, stop: threading.Event | None = None,
                progress: Callable[[int], None] | None = None) -> tuple[int, np.ndarray] | None:
    """Chunk `index`: (index, its `size` pairs' M_* rows), from the streams
    ``SeedSequence(seed).spawn(...)[index].spawn(2)``; None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    # SeedSequence(seed, spawn_key=(k,)) is SeedSequence(seed).spawn(k + 1)[k], without spawning the others.
    cards, choices = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(2)
    rows = np.zeros((size, N_PAIR_COLS), dtype=np.int64)
    play_pairs(rules_array, size, kinds_ab, params_ab, kinds_ba, params_ba, rng_state(cards), rng_state(choices),
               rows)
    if progress is not None:
        progress(size)
    return index, rows


def run_tournament(
    rules: RuleSet,
    a: str,
    b: str,
    matches: int,
    seed: int,
    threads: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> TournamentResult:
    """Play `matches` matches (rounded up to whole duplicate pairs) of A against B, in chunks of
    CHUNK_PAIRS pairs on `executor` (default: `threads` local threads, all cores if None).

    `on_chunk(pairs_done)` is called as pairs finish, for progress bars.
    """
    if matches < 2:
        raise TournamentError(f"matches={matches}: play at least 2 (one duplicate pair)")
    kinds_ab, params_ab, kinds_ba, params_ba = seat_arrangements(rules, a, b)
    rules_array = rules.as_array()
    pairs = (matches + 1) // 2
    sizes = [CHUNK_PAIRS] * (pairs // CHUNK_PAIRS) + ([pairs % CHUNK_PAIRS] if pairs % CHUNK_PAIRS else [])
    starts = np.cumsum([0] + sizes)
    out = np.zeros((pairs, N_PAIR_COLS), dtype=np.int64)

    def finished(task: Task, result: tuple[int, np.ndarray]) -> None:
        k, rows = result
        out[starts[k] : starts[k + 1]] = rows  # placed by index: the order chunks finish in does not matter

    tasks = (Task(f"pairs-{k:06d}", (rules_array, kinds_ab, params_ab, kinds_ba, params_ba, seed, k, size), size)
             for k, size in enumerate(sizes))
    (executor if executor is not None else LocalExecutor(threads)).run(pairs_chunk, tasks, finished, on_chunk)

    deals = out[:, M_DEALS].astype(np.float64)
    a_pts = out[:, M_A_POINTS].astype(np.float64)
    b_pts = out[:, M_B_POINTS].astype(np.float64)
    rate, ci = win_rate(out[:, M_A_WINS].astype(np.float64))
    return TournamentResult(
        rules=rules, a=a, b=b, seed=seed, matches=2 * pairs,
        a_wins=int(out[:, M_A_WINS].sum()), unfinished=int(out[:, M_UNFINISHED].sum()), deals=int(deals.sum()),
        a_win_rate=rate, a_win_rate_ci95=ci,
        a_points_per_deal=ratio(a_pts, deals), b_points_per_deal=ratio(b_pts, deals),
        diff_points_per_deal=ratio(a_pts - b_pts, deals),
    )


# --- duplicated deals with runs ---------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class RunDealResult:
    """A against B on the deals with runs (``engine/rundeals.py``): each such deal played twice, seats swapped."""

    rules: RuleSet
    a: str
    b: str
    seed: int
    deals: int              # deals dealt (most have no run and are not played)
    run_deals: int          # deals with at least one run, each played twice
    twice_run: int          # of them, deals run twice (12 cards each in trinidad)
    a_net_per_run_deal: Estimate  # A's side's net points per run deal, the mean of its two seatings

    @property
    def run_rate(self) -> float:
        return self.run_deals / self.deals if self.deals else math.nan

    def as_dict(self) -> dict[str, Any]:
        e = self.a_net_per_run_deal
        return {"rules": self.rules.as_log_dict(), "a": self.a, "b": self.b, "seed": self.seed, "deals": self.deals,
                "run_deals": self.run_deals, "run_rate": self.run_rate, "twice_run": self.twice_run,
                "a_net_per_run_deal": {"value": e.mean, "se": e.se, "ci95": list(e.ci95)}}


def run_deals_chunk(rules_array: np.ndarray, arrangement: tuple[np.ndarray, ...], seed: int, index: int,
                    size: int, stop: threading.Event | None = None,
                    progress: Callable[[int], None] | None = None) -> tuple[int, np.ndarray] | None:
    """Chunk `index` of a run-deal duel: (index, its `size` deals' RD_* rows), from the streams
    ``SeedSequence(seed, spawn_key=(index,)).spawn(2)``; None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    cards, choices = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(2)
    rows = np.zeros((size, N_RD_COLS), dtype=np.int64)
    run_deal_pairs(rules_array, size, *arrangement, rng_state(cards), rng_state(choices), rows)  # type: ignore[call-arg]
    if progress is not None:
        progress(size)
    return index, rows


def run_deal_duel(rules: RuleSet, a: str, b: str, deals: int, seed: int, threads: int | None = None,
                  on_chunk: Callable[[int], None] | None = None, executor: Executor | None = None) -> RunDealResult:
    """Deal `deals` deals from a zero score; play those with a run twice, A and B swapping sides (module
    docstring of engine/rundeals.py), in chunks of CHUNK_RUN_DEALS on `executor` (default `threads` threads)."""
    if deals < 1:
        raise TournamentError(f"run deals={deals}: deal at least 1")
    kinds_ab, params_ab, kinds_ba, params_ba = seat_arrangements(rules, a, b)
    # The run check: each seat bids as in the first copy (a search player's row bids by its tables as the tuned
    # player does) and plays the heuristic's cards, which cost nothing.
    kinds_check = np.array([K_TUNED if k in (K_ORACLE, K_PIMC) else k for k in kinds_ab], dtype=np.int64)
    arrangement = (kinds_ab, params_ab, kinds_ba, params_ba, kinds_check, params_ab)
    rules_array = rules.as_array()
    sizes = [CHUNK_RUN_DEALS] * (deals // CHUNK_RUN_DEALS) + ([deals % CHUNK_RUN_DEALS] if deals % CHUNK_RUN_DEALS
                                                              else [])
    starts = np.cumsum([0] + sizes)
    out = np.zeros((deals, N_RD_COLS), dtype=np.int64)

    def finished(task: Task, result: tuple[int, np.ndarray]) -> None:
        k, rows = result
        out[starts[k]: starts[k + 1]] = rows

    tasks = (Task(f"run-deals-{k:06d}", (rules_array, arrangement, seed, k, size), size)
             for k, size in enumerate(sizes))
    (executor if executor is not None else LocalExecutor(threads)).run(run_deals_chunk, tasks, finished, on_chunk)
    ran = out[out[:, RD_RUNS] > 0]
    net = (ran[:, RD_A_AB] + ran[:, RD_A_BA]).astype(np.float64) / 2.0
    if net.shape[0] > 1:
        est = Estimate(float(net.mean()), float(net.std(ddof=1) / math.sqrt(net.shape[0])), int(net.shape[0]))
    else:
        est = Estimate(float(net.mean()) if net.shape[0] else math.nan, math.nan, int(net.shape[0]))
    return RunDealResult(rules, a, b, seed, deals, int(ran.shape[0]), int((ran[:, RD_RUNS] >= 2).sum()), est)
