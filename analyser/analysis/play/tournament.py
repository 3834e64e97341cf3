"""Tournaments: policy A against policy B over whole matches, deals duplicated.

With 4 players A holds the even seats (side 0) and B the odd ones; with 2 players
seat 0 plays seat 1. Three players are refused: each plays alone, so there are no
two sides to compare. Every match is played twice from the same card stream with
A and B swapping seats (a duplicate pair), so luck of the cards cancels out.

Matches come in pairs, and pairs are the independent units of the statistics:
the win rate is A's wins over all matches played (two per pair), its standard
error comes from the spread of the per-pair win fractions. Points per deal are
ratio estimates (points over dealer turns) with a delta-method standard error.

Pair i draws its card and choice streams from the seed and i alone (``bits.unit_stream`` under the keys
``unit_keys(seed, TOURNAMENT_STREAM)``), so a seed gives the same pairs, and the same result, whatever
tasks, threads or Dask workers the tournament is cut into. The pairs are cut by the work
(``executor.work_chunks``): at least a few tasks per worker thread, none of more than ``CHUNK_PAIRS`` pairs
of cheap players (the heuristic plays a pair in tens of microseconds) or ``SEARCH_CHUNK_PAIRS`` where a
search player (pimc, oracle) sits (pimc: up to seconds a pair); each task's rows are placed by their index,
so the order tasks finish in does not matter either. A run-deal duel (``run_deal_duel``) is cut the same
way, deal by deal.
"""

from __future__ import annotations

import dataclasses
import math
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ...engine.bits import unit_keys
from ...engine.matches import M_A_POINTS, M_A_WINS, M_B_POINTS, M_DEALS, M_UNFINISHED, N_PAIR_COLS, play_pairs
from ...engine.layout import K_ORACLE, K_PIMC, K_TUNED
from ...engine.rundeals import N_RD_COLS, RD_A_AB, RD_A_BA, RD_RUNS, run_deal_pairs
from ...game.errors import AllFoursError
from ...work.executor import Executor, LocalExecutor, Task, work_chunks
from ...players.policy import parse_policy
from ...game.rules import RuleSet
from ..stats import Z95, Estimate, wilson_ci

TOURNAMENT_STREAM = 0  # a tournament's keys: unit_keys(seed, TOURNAMENT_STREAM), the cards' then the choices'
RUN_DEAL_STREAM = 1   # a run-deal duel's
SEARCH_KINDS = (K_ORACLE, K_PIMC)  # players that search (engine/search.py): a task holds few of their pairs
CHUNK_PAIRS = 5000       # most pairs in a task of players that do not search (the heuristic: ~20 us a pair)
SEARCH_CHUNK_PAIRS = 4   # most pairs in a task where a search player sits (pimc in trinidad: seconds a pair)
CHUNK_RUN_DEALS = 5000   # most deals in a task of a run-deal duel of players that do not search
SEARCH_CHUNK_RUN_DEALS = 10  # ... where a search player sits (seconds a deal with runs)


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


def searches(*kinds: np.ndarray) -> bool:
    """True if a search player (pimc, oracle) sits in any of the seatings `kinds`."""
    return any(bool(np.isin(k, SEARCH_KINDS).any()) for k in kinds)


def pairs_chunk(rules_array: np.ndarray, kinds_ab: np.ndarray, params_ab: np.ndarray, kinds_ba: np.ndarray,
                params_ba: np.ndarray, seed: int, first: int, size: int, stop: threading.Event | None = None,
                progress: Callable[[int], None] | None = None) -> tuple[int, np.ndarray] | None:
    """Pairs first .. first + size - 1 of the tournament of `seed`: (first, their M_* rows), each pair from
    its own streams (``engine.matches.play_pairs``); None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    cards, choices = unit_keys(seed, TOURNAMENT_STREAM)
    rows = np.zeros((size, N_PAIR_COLS), dtype=np.int64)
    play_pairs(rules_array, first, size, kinds_ab, params_ab, kinds_ba, params_ba, cards, choices, rows)
    if progress is not None:
        progress(size)
    return first, rows


def run_tournament(
    rules: RuleSet,
    a: str,
    b: str,
    matches: int,
    seed: int,
    threads: int | None = None,
    on_chunk: Callable[[int], None] | None = None,
    executor: Executor | None = None,
    chunk: int | None = None,
) -> TournamentResult:
    """Play `matches` matches (rounded up to whole duplicate pairs) of A against B on `executor` (default:
    `threads` local threads, all cores if None), cut by the work (module docstring; `chunk`: at most this
    many pairs a task instead of the players' own size).

    `on_chunk(pairs_done)` is called as pairs finish, for progress bars.
    """
    return run_tournaments(rules, [(a, b, seed)], matches, threads, on_chunk, executor, chunk)[0]


def run_tournaments(rules: RuleSet, games: list[tuple[str, str, int]], matches: int, threads: int | None = None,
                    on_chunk: Callable[[int], None] | None = None, executor: Executor | None = None,
                    chunk: int | None = None) -> list[TournamentResult]:
    """``run_tournament`` of each (A, B, seed) of `games`, all on one executor at once: the tasks of one
    tournament are queued behind the last ones of the one before, so no worker waits for a tournament's
    slowest task. Each result is the one ``run_tournament`` gives alone."""
    if matches < 2:
        raise TournamentError(f"matches={matches}: play at least 2 (one duplicate pair)")
    seatings = [seat_arrangements(rules, a, b) for a, b, _ in games]
    rules_array = rules.as_array()
    pairs = (matches + 1) // 2
    executor = executor if executor is not None else LocalExecutor(threads)
    outs = [np.zeros((pairs, N_PAIR_COLS), dtype=np.int64) for _ in games]
    owner: dict[str, int] = {}

    def tasks() -> Iterator[Task]:
        for g, ((_, _, seed), seating) in enumerate(zip(games, seatings)):
            most = chunk or (SEARCH_CHUNK_PAIRS if searches(seating[0], seating[2]) else CHUNK_PAIRS)
            for first, size in work_chunks(pairs, executor.parallelism, most):
                key = f"pairs-{g:02d}-{first:09d}"
                owner[key] = g
                yield Task(key, (rules_array, *seating, seed, first, size), size)

    def finished(task: Task, result: tuple[int, np.ndarray]) -> None:
        first, rows = result
        outs[owner[task.key]][first:first + rows.shape[0]] = rows  # placed by index: any finishing order

    executor.run(pairs_chunk, tasks(), finished, on_chunk)
    return [summary(rules, a, b, seed, out) for (a, b, seed), out in zip(games, outs)]


def summary(rules: RuleSet, a: str, b: str, seed: int, out: np.ndarray) -> TournamentResult:
    """A tournament's result from its pairs' M_* rows."""
    deals = out[:, M_DEALS].astype(np.float64)
    a_pts = out[:, M_A_POINTS].astype(np.float64)
    b_pts = out[:, M_B_POINTS].astype(np.float64)
    rate, ci = win_rate(out[:, M_A_WINS].astype(np.float64))
    return TournamentResult(
        rules=rules, a=a, b=b, seed=seed, matches=2 * out.shape[0],
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


def run_deals_chunk(rules_array: np.ndarray, arrangement: tuple[np.ndarray, ...], seed: int, first: int,
                    size: int, stop: threading.Event | None = None,
                    progress: Callable[[int], None] | None = None) -> tuple[int, np.ndarray] | None:
    """Deals first .. first + size - 1 of the run-deal duel of `seed`: (first, their RD_* rows), each deal from
    its own streams (``engine.rundeals.run_deal_pairs``); None if stopped before it began."""
    if stop is not None and stop.is_set():
        return None
    cards, choices = unit_keys(seed, RUN_DEAL_STREAM)
    rows = np.zeros((size, N_RD_COLS), dtype=np.int64)
    run_deal_pairs(rules_array, first, size, *arrangement, cards, choices, rows)  # type: ignore[call-arg]
    if progress is not None:
        progress(size)
    return first, rows


def run_deal_duel(rules: RuleSet, a: str, b: str, deals: int, seed: int, threads: int | None = None,
                  on_chunk: Callable[[int], None] | None = None, executor: Executor | None = None,
                  chunk: int | None = None) -> RunDealResult:
    """Deal `deals` deals from a zero score; play those with a run twice, A and B swapping sides (module
    docstring of engine/rundeals.py), on `executor` (default `threads` threads), cut by the work (at most
    `chunk` deals a task if given, else SEARCH_CHUNK_RUN_DEALS where a search player sits, CHUNK_RUN_DEALS
    where none does); deal i from its own streams, so the cut changes nothing."""
    if deals < 1:
        raise TournamentError(f"run deals={deals}: deal at least 1")
    kinds_ab, params_ab, kinds_ba, params_ba = seat_arrangements(rules, a, b)
    # The run check: each seat bids as in the first copy (a search player's row bids by its tables as the tuned
    # player does) and plays the heuristic's cards, which cost nothing.
    kinds_check = np.array([K_TUNED if k in (K_ORACLE, K_PIMC) else k for k in kinds_ab], dtype=np.int64)
    arrangement = (kinds_ab, params_ab, kinds_ba, params_ba, kinds_check, params_ab)
    rules_array = rules.as_array()
    executor = executor if executor is not None else LocalExecutor(threads)
    most = chunk or (SEARCH_CHUNK_RUN_DEALS if searches(kinds_ab, kinds_ba) else CHUNK_RUN_DEALS)
    out = np.zeros((deals, N_RD_COLS), dtype=np.int64)

    def finished(task: Task, result: tuple[int, np.ndarray]) -> None:
        first, rows = result
        out[first:first + rows.shape[0]] = rows

    tasks = (Task(f"run-deals-{first:09d}", (rules_array, arrangement, seed, first, size), size)
             for first, size in work_chunks(deals, executor.parallelism, most))
    executor.run(run_deals_chunk, tasks, finished, on_chunk)
    ran = out[out[:, RD_RUNS] > 0]
    net = (ran[:, RD_A_AB] + ran[:, RD_A_BA]).astype(np.float64) / 2.0
    if net.shape[0] > 1:
        est = Estimate(float(net.mean()), float(net.std(ddof=1) / math.sqrt(net.shape[0])), int(net.shape[0]))
    else:
        est = Estimate(float(net.mean()) if net.shape[0] else math.nan, math.nan, int(net.shape[0]))
    return RunDealResult(rules, a, b, seed, deals, int(ran.shape[0]), int((ran[:, RD_RUNS] >= 2).sum()), est)
