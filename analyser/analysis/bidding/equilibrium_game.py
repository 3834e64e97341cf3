"""The bidding game on a payoff tensor, one part of ``equilibrium`` (whose docstring gives the method): the hand
classes of a scheme, the tensor in seeded chunks, the game it defines (`Game`), its solution (the LP with two
sides, CFR+ without), the bootstrap over the chunks, and what the whole analysis and the equilibrium at every
score share."""

from __future__ import annotations

import dataclasses
import sys
import threading
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import numpy as np
import pandas as pd

from ... import __version__
from ...engine.bidding import (
    BC_DEALS, BC_KICK_ENDED, LINES, MEASURE_POINTS, MEASURE_WIN, N_BC, N_TS, SCHEME_CLASSES, SCHEME_COARSE,
    SCHEME_FINE, TS_DEALER_SQ, TS_DEALER_SUM, TS_N, TS_REF_BEG, TS_REF_GIVE, TS_SQ, TS_SUM, cfr_plus,
    payoff_tensor as tensor_kernel,
)
from ...engine.bits import rng_state
from ...engine.evaluator import N_HAND_CLASSES, class_key, decode_class, possible_classes
from ...engine.layout import K_HEURISTIC, K_TUNED
from ...work.executor import Executor, Task, source_fingerprint
from ...players.policy import parse_policy
from ...game.rules import RuleSet
from .. import AnalysisError
from .equity import EquityTable

SCHEMES = {"coarse": SCHEME_COARSE, "fine": SCHEME_FINE}
STRONG_SIDE = "/side"        # the fine scheme's mark of a strong side suit (three or more with its ace or ten)
EQUILIBRIUM_STREAM = 2000
BOOTSTRAP_STREAM = 2001
CFR_ITERATIONS = 10_000
CFR_CHECKPOINTS = (10, 100, 1000, 10_000)
BOOTSTRAP_CFR_ITERATIONS = 3000  # per resample: the deviation gains are ~1e-7 of a point by then
TARGET_CHUNKS = 200          # chunks a run is cut into (the bootstrap's resampling units) ...
CHUNK_MIN, CHUNK_MAX = 250, 50_000  # ... within these sizes
MAX_TRIES_PER_DEAL = 50      # deck samples per wanted deal before decisions are called too rare
SETTLED = 0.05               # an interval within [0, SETTLED] or [1 - SETTLED, 1] settles the action
PURE = 1e-9                  # an LP probability this close to 0 or 1 is that pure choice (solver tolerance)
Progress = Callable[[int], None]


class EquilibriumError(AnalysisError):
    """Bad input to the equilibrium: a class scheme, an out folder, a score with three players."""


# ---- classes -----------------------------------------------------------------------------------


def scheme_codes(scheme: str) -> list[int]:
    """The class codes a real hand can have under `scheme`, in table order. coarse: the hand classes;
    fine: each hand class without, then with a strong side suit (which leaves room for at most 3 trumps)."""
    if scheme not in SCHEMES:
        raise EquilibriumError(f"unknown class scheme {scheme!r}: choose {', '.join(SCHEMES)}")
    codes = possible_classes()
    if scheme == "fine":
        codes = codes + [N_HAND_CLASSES + c for c in codes if decode_class(c)[0] <= 3]  # T0 .. T3 (T4+: no room)
    return codes


def scheme_size(scheme: str) -> int:
    """Rows of the kernel's tensor for `scheme` (every code, possible or not)."""
    scheme_codes(scheme)
    return SCHEME_CLASSES[SCHEMES[scheme]]


def scheme_key(scheme: str, code: int) -> str:
    """A class's name: the hand class (``T2:A``), in the fine scheme marked ``/side`` with a strong side suit."""
    coarse, side = divmod(code, N_HAND_CLASSES)[::-1]
    return class_key(coarse) + (STRONG_SIDE if side else "")


# ---- the tensor, in seeded chunks ---------------------------------------------------------------


def chunk_deals(deals: int) -> int:
    """Deals per chunk: about TARGET_CHUNKS chunks (the bootstrap's units), within CHUNK_MIN..CHUNK_MAX.
    Part of what a seed means: the same deals and seed give the same chunks."""
    return int(min(CHUNK_MAX, max(CHUNK_MIN, -(-deals // TARGET_CHUNKS))))


def chunk_rngs(seed: int, index: int, stream: int = EQUILIBRIUM_STREAM) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card, choice and reference-policy streams of chunk `index` of a run (`stream`: EQUILIBRIUM_STREAM, or
    SCORES_STREAM for an all-scores run)."""
    cards, choices, ref = np.random.SeedSequence(seed, spawn_key=(stream, index)).spawn(3)
    return rng_state(cards), rng_state(choices), rng_state(ref)


def tensor_chunk(rules_array: np.ndarray, scores: np.ndarray, kinds: np.ndarray, params: np.ndarray, ref_kind: int,
                 ref_row: np.ndarray, measure: int, equity: np.ndarray, scheme: str, seed: int, index: int, size: int,
                 stop: threading.Event | None = None,
                 progress: Progress | None = None) -> tuple[int, np.ndarray, np.ndarray] | None:
    """One chunk: (index, tensor[e, d, TS_*] over the scheme's possible classes, counts[BC_*]); None if stopped."""
    if stop is not None and stop.is_set():
        return None
    deck_rng, rng, ref_rng = chunk_rngs(seed, index)
    full = np.zeros((scheme_size(scheme), scheme_size(scheme), N_TS), dtype=np.float64)
    counts = np.zeros(N_BC, dtype=np.int64)
    tensor_kernel(rules_array, scores, kinds, params, ref_kind, ref_row, measure, equity, SCHEMES[scheme], deck_rng,
                  rng, ref_rng, size, MAX_TRIES_PER_DEAL * size, full, counts)
    codes = scheme_codes(scheme)
    if progress is not None:
        progress(size)
    return index, np.ascontiguousarray(full[np.ix_(codes, codes)]), counts


@dataclasses.dataclass
class Tensor:
    """The payoff tensor: per-chunk and total sums over the scheme's possible classes."""

    scheme: str
    codes: list[int]          # class codes of rows and columns
    chunks: np.ndarray        # float64[chunk, e, d, TS_*]
    counts: np.ndarray        # int64[BC_*], all chunks
    three: bool               # 3 players: the dealer's own payoff is in TS_DEALER_*

    @property
    def total(self) -> np.ndarray:
        return self.chunks.sum(axis=0)  # in chunk order: the same on any thread count

    @property
    def deals(self) -> int:
        return int(self.counts[BC_DEALS])

    def to_frame(self, unit: str) -> pd.DataFrame:
        """One row per pair of classes with deals: counts, each line's mean and SE, the heuristic's shares."""
        t = self.total
        names = [scheme_key(self.scheme, c) for c in self.codes]
        e_idx, d_idx = np.nonzero(t[:, :, TS_N] > 0)
        sel = t[e_idx, d_idx]
        n = sel[:, TS_N]
        data: dict[str, Any] = {"eldest_class": [names[i] for i in e_idx], "dealer_class": [names[j] for j in d_idx],
                                "deals": n.astype(np.int64)}
        for k, line in enumerate(LINES):
            mean, se = mean_se(sel[:, TS_SUM + k], sel[:, TS_SQ + k], n)
            data[line], data[f"{line}_se"] = mean, se
        if self.three:
            for k, line in enumerate(LINES):
                mean, se = mean_se(sel[:, TS_DEALER_SUM + k], sel[:, TS_DEALER_SQ + k], n)
                data[f"dealer_{line}"], data[f"dealer_{line}_se"] = mean, se
        data["heuristic_beg"] = sel[:, TS_REF_BEG] / n
        data["heuristic_give"] = sel[:, TS_REF_GIVE] / n
        data["share"] = n / max(self.deals, 1)
        data["unit"] = unit
        return pd.DataFrame(data)


def mean_se(total: np.ndarray, squares: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Means and standard errors from sums, sums of squares and counts (NaN where n is too small)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / np.maximum(n, 1), np.nan)
        var = np.where(n > 1, (squares - total * total / np.maximum(n, 1)) / np.maximum(n - 1, 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / np.maximum(n, 1))
    return mean, np.where(n > 1, se, np.nan)


def reference_row(play: str) -> tuple[int, np.ndarray]:
    """The heuristic whose own beg/give choices are recorded: the play policy's heuristic parameters
    (heuristic or tuned), else the default heuristic."""
    kind, row = parse_policy(play)
    if kind in (K_HEURISTIC, K_TUNED):
        return K_HEURISTIC, row
    return parse_policy("heuristic")


def payoff_tensor(rules: RuleSet, play: str, scores: np.ndarray, equity: EquityTable | None, scheme: str, deals: int,
                  seed: int, executor: Executor, progress: Progress | None = None) -> Tensor:
    """The tensor of `deals` decision deals (module docstring), on `executor`."""
    codes = scheme_codes(scheme)
    kind, row = parse_policy(play)
    kinds = np.full(rules.players, kind, dtype=np.int64)
    params = np.tile(row, (rules.players, 1))
    ref_kind, ref_row = reference_row(play)
    if equity is not None:
        measure, table = MEASURE_WIN, np.ascontiguousarray(equity.p, dtype=np.float64)
    else:
        measure, table = MEASURE_POINTS, np.zeros((1, 1), dtype=np.float64)
    size = chunk_deals(deals)
    sizes = [min(size, deals - lo) for lo in range(0, deals, size)]
    chunks = np.zeros((len(sizes), len(codes), len(codes), N_TS), dtype=np.float64)
    counts = np.zeros(N_BC, dtype=np.int64)

    def finished(task: Task, result: tuple[int, np.ndarray, np.ndarray]) -> None:
        index, tensor, c = result
        chunks[index] = tensor  # placed by index: the order chunks finish in does not matter
        np.add(counts, c, out=counts)

    rules_array = rules.as_array()
    tasks = (Task(f"equilibrium-{k:05d}", (rules_array, scores, kinds, params, ref_kind, ref_row, measure,
                                            table, scheme, seed, k, n), n) for k, n in enumerate(sizes))
    executor.run(tensor_chunk, tasks, finished, progress)
    if counts[BC_DEALS] < deals:
        raise EquilibriumError(f"only {int(counts[BC_DEALS])} of {deals} sampled deals had a decision "
                               f"({int(counts[BC_KICK_ENDED])} turn-up kicks ended the match): choose another score")
    return Tensor(scheme, codes, chunks, counts, rules.sides == 3)


# ---- the game on a tensor ------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Game:
    """Payoff masses per pair (e, d): P(e, d) times each line's mean payoff (float64[E, D] each), for the
    eldest's side and for the dealer (its own payoff: minus the eldest's with two sides)."""

    stand: np.ndarray
    give: np.ndarray
    run: np.ndarray
    d_stand: np.ndarray
    d_give: np.ndarray
    d_run: np.ndarray
    eldest_deals: np.ndarray  # deals per eldest class
    dealer_deals: np.ndarray

    @classmethod
    def from_sums(cls, total: np.ndarray, three: bool) -> Game:
        """The game of a summed tensor[e, d, TS_*]."""
        n = total[:, :, TS_N]
        scale = 1.0 / max(float(n.sum()), 1.0)
        a = [total[:, :, TS_SUM + k] * scale for k in range(3)]
        d = [total[:, :, TS_DEALER_SUM + k] * scale for k in range(3)] if three else [-x for x in a]
        return cls(a[0], a[1], a[2], d[0], d[1], d[2], n.sum(axis=1), n.sum(axis=0))

    @classmethod
    def from_means(cls, prob: np.ndarray, stand: np.ndarray, give: np.ndarray, run: np.ndarray,
                   dealer: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> Game:
        """A game from P(e, d) and mean payoffs per pair (tests, hand-made games)."""
        prob = np.asarray(prob, dtype=np.float64)
        a = [prob * np.asarray(x, dtype=np.float64) for x in (stand, give, run)]
        d = [prob * np.asarray(x, dtype=np.float64) for x in dealer] if dealer is not None else [-x for x in a]
        return cls(a[0], a[1], a[2], d[0], d[1], d[2], prob.sum(axis=1), prob.sum(axis=0))

    def values(self, b: np.ndarray, g: np.ndarray) -> tuple[float, float]:
        """(eldest's value, dealer's value) of the strategy pair, per decision deal."""
        b = np.nan_to_num(b)
        g = np.nan_to_num(g)
        beg = self.give * g + self.run * (1 - g)
        d_beg = self.d_give * g + self.d_run * (1 - g)
        v = float(((1 - b) @ self.stand).sum() + (b @ beg).sum())
        dv = float(((1 - b) @ self.d_stand).sum() + (b @ d_beg).sum())
        return v, dv

    def gains(self, b: np.ndarray, g: np.ndarray) -> tuple[float, float]:
        """(eldest's, dealer's) best-response gain against the other's strategy (>= 0)."""
        b = np.nan_to_num(b)
        g = np.nan_to_num(g)
        v, dv = self.values(b, g)
        stand_e = self.stand.sum(axis=1)
        beg_e = (self.give * g + self.run * (1 - g)).sum(axis=1)
        best_e = float(np.maximum(stand_e, beg_e).sum())
        d_stand = float(((1 - b) @ self.d_stand).sum())
        best_d = d_stand + float(np.maximum(b @ self.d_give, b @ self.d_run).sum())
        return max(best_e - v, 0.0), max(best_d - dv, 0.0)


def solve_lp(game: Game) -> tuple[float, np.ndarray, np.ndarray]:
    """(value, b, g) of the zero-sum game: the eldest's LP by HiGHS, the dealer's strategy from its duals.
    Classes without deals get NaN."""
    from scipy.optimize import linprog

    e_live = game.eldest_deals > 0
    d_live = game.dealer_deals > 0
    stand = game.stand[np.ix_(e_live, d_live)]
    give = game.give[np.ix_(e_live, d_live)]
    run = game.run[np.ix_(e_live, d_live)]
    n_e, n_d = stand.shape
    s = stand.sum(axis=1)
    # Variables [b (n_e), w (n_d)]; minimise -(sum s - s.b + sum w) = s.b - sum w - sum s.
    c = np.concatenate([s, -np.ones(n_d)])
    eye = np.eye(n_d)
    a_ub = np.block([[-give.T, eye], [-run.T, eye]])
    b_ub = np.zeros(2 * n_d)
    bounds = [(0.0, 1.0)] * n_e + [(None, None)] * n_d
    res = linprog(c, A_ub=a_ub, b_ub=b_ub, bounds=bounds, method="highs",
                  options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10})
    if res.status != 0:
        raise RuntimeError(f"the equilibrium LP failed: {res.message}")
    b = np.full(game.stand.shape[0], np.nan)
    g = np.full(game.stand.shape[1], np.nan)
    b[e_live] = snap(res.x[:n_e])
    duals = -np.asarray(res.ineqlin.marginals)
    y_give, y_run = duals[:n_d], duals[n_d:]
    total = y_give + y_run
    g[d_live] = snap(np.where(total > 0, y_give / np.where(total > 0, total, 1.0), 0.5))
    return float(s.sum() - res.fun), b, g


def snap(p: np.ndarray) -> np.ndarray:
    """Probabilities in [0, 1], those within PURE of 0 or 1 made exactly pure (a policy then draws nothing)."""
    p = np.clip(p, 0.0, 1.0)
    return np.where(p < PURE, 0.0, np.where(p > 1.0 - PURE, 1.0, p))


@dataclasses.dataclass(frozen=True)
class CfrResult:
    b: np.ndarray
    g: np.ndarray
    history: list[dict[str, float]]  # per checkpoint: iteration, the eldest's and the dealer's gains


def solve_cfr(game: Game, iterations: int = CFR_ITERATIONS,
              checkpoints: tuple[int, ...] = CFR_CHECKPOINTS) -> CfrResult:
    """An approximate equilibrium by CFR+ (any game, for the one that is not zero-sum): the average
    strategies, or the last iterate if its largest deviation gain is smaller."""
    marks = np.array(sorted({c for c in checkpoints if c < iterations} | {iterations}), dtype=np.int64)
    n_e, n_d = game.stand.shape
    b_hist = np.zeros((len(marks), n_e))
    g_hist = np.zeros((len(marks), n_d))
    b_now = np.zeros(n_e)
    g_now = np.zeros(n_d)
    cfr_plus(game.stand, game.give, game.run, game.d_give, game.d_run, iterations, marks, b_hist, g_hist, b_now,
             g_now)
    history = []
    for k, t in enumerate(marks):
        ge, gd = game.gains(b_hist[k], g_hist[k])
        history.append({"iteration": int(t), "eldest_gain": ge, "dealer_gain": gd})
    b, g = b_hist[-1], g_hist[-1]
    if max(game.gains(b_now, g_now)) < max(game.gains(b, g)):
        b, g = b_now, g_now
    b = np.where(game.eldest_deals > 0, b, np.nan)
    g = np.where(game.dealer_deals > 0, g, np.nan)
    return CfrResult(b, g, history)


def solve(game: Game, zero_sum: bool, iterations: int = CFR_ITERATIONS) -> tuple[np.ndarray, np.ndarray]:
    """(b, g): the LP's with two sides, else CFR+'s."""
    if zero_sum:
        _, b, g = solve_lp(game)
        return b, g
    res = solve_cfr(game, iterations)
    return res.b, res.g


# ---- the bootstrap -------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Bootstrap:
    values: np.ndarray         # float64[resample, 2]: the eldest's and the dealer's value
    b: np.ndarray              # float64[resample, E]
    g: np.ndarray              # float64[resample, D]
    eldest_deals: np.ndarray | None = None  # float64[resample, E]: each resample's deals per eldest class

    def ci(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """2.5% and 97.5% quantiles per column (resamples where a class was not dealt left out)."""
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)  # a column that is NaN in every resample
            return np.nanpercentile(x, 2.5, axis=0), np.nanpercentile(x, 97.5, axis=0)


def bootstrap(tensor: Tensor, resamples: int, seed: int, zero_sum: bool,
              iterations: int = BOOTSTRAP_CFR_ITERATIONS) -> Bootstrap:
    """Resample the chunks with replacement `resamples` times and re-solve (seeded by `seed`)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(BOOTSTRAP_STREAM,)))
    n_chunks = tensor.chunks.shape[0]
    flat = tensor.chunks.reshape(n_chunks, -1)
    shape = tensor.chunks.shape[1:]
    values = np.zeros((resamples, 2))
    bs = np.zeros((resamples, shape[0]))
    gs = np.zeros((resamples, shape[1]))
    e_deals = np.zeros((resamples, shape[0]))
    for r in range(resamples):
        weights = rng.multinomial(n_chunks, np.full(n_chunks, 1.0 / n_chunks)).astype(np.float64)
        game = Game.from_sums((weights @ flat).reshape(shape), tensor.three)
        b, g = solve(game, zero_sum, iterations)
        values[r] = game.values(b, g)
        bs[r], gs[r] = b, g
        e_deals[r] = game.eldest_deals
    return Bootstrap(values, bs, gs, e_deals)


# ---- shared by the whole analysis and the equilibrium at every score ----------------------------------


def meta_fields() -> dict[str, Any]:
    """What made a run folder: version, engine sources, command line, time."""
    return {"version": __version__, "engine": source_fingerprint(), "command": " ".join(sys.argv),
            "created": datetime.now(UTC).isoformat(timespec="seconds")}


def heuristic_strategy(tensor: Tensor) -> tuple[np.ndarray, np.ndarray]:
    """The heuristic's own choices as a behavioural strategy: its beg (give) share per class."""
    t = tensor.total
    n_e = t[:, :, TS_N].sum(axis=1)
    n_d = t[:, :, TS_N].sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        b = np.where(n_e > 0, t[:, :, TS_REF_BEG].sum(axis=1) / np.maximum(n_e, 1), np.nan)
        g = np.where(n_d > 0, t[:, :, TS_REF_GIVE].sum(axis=0) / np.maximum(n_d, 1), np.nan)
    return b, g


def check_inputs(rules: RuleSet, scheme: str, score: tuple[int, ...] | None) -> None:
    scheme_codes(scheme)
    if score is not None and rules.sides != 2:
        raise EquilibriumError(f"match-win probability (--score) needs two sides, not {rules.players} players: "
                               "leave --score out for net points")
