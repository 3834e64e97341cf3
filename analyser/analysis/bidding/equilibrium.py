"""The bidding game solved: stand/beg and give/run by hand class as an equilibrium of both players.

The game. Chance deals; the eldest, seeing its hand class and the turn-up, stands or begs;
the dealer, seeing its own hand class and knowing the eldest begged, gives one or runs.
Everything after is the play policy's (``play``, every seat). A behavioural strategy is
P(beg) per eldest class (b) and P(give) per dealer class (g).

Payoff tensor (``payoff_tensor``; kernel ``engine.bidding.payoff_tensor``). Every sampled
deal is played three ways on the same cards and choice streams (stand, beg -> give,
beg -> run), and per pair of classes (eldest e, dealer d) the deals, the sums and the sums
of squares of each line's payoff are kept: for the eldest's side, its net points at the
default score 0:0, or its match-win probability at a given score (from the equity table);
with 3 players also the dealer's own net points. The work is cut into seeded chunks
(``SeedSequence(seed, spawn_key=(EQUILIBRIUM_STREAM, chunk))``) run on the executor; every
chunk's tensor is kept (for the bootstrap) and the total is summed in chunk order, so a seed
gives the same tensor on any number of threads or workers.

Solution with two sides (zero-sum). With A_x(e, d) = sum of line x's payoff over the deals
of (e, d) divided by all decision deals, the eldest's value is

    V(b, g) = sum_e (1 - b_e) s_e + sum_d sum_e b_e (g_d A_give(e, d) + (1 - g_d) A_run(e, d)),

with s_e = sum_d A_stand(e, d). Against b the dealer's best answer is, per class d, the
smaller of sum_e b_e A_give(e, d) and sum_e b_e A_run(e, d), so the eldest's maximin is the
linear program

    maximise sum_e (1 - b_e) s_e + sum_d w_d
    subject to w_d <= sum_e b_e A_give(e, d), w_d <= sum_e b_e A_run(e, d), 0 <= b_e <= 1,

solved by HiGHS (``scipy.optimize.linprog``). Its dual is the dealer's minimax (the dual
variables of each class's two constraints add up to 1, and the first is P(give)), so one
solve gives the value and both strategies. Classes never sampled are left out (NaN).

Without two sides (3 players, each alone) the game is not zero-sum: CFR+ (regret matching,
``engine.bidding.cfr_plus``) on the eldest's and the dealer's own payoffs gives an
approximate equilibrium; each player's gain from deviating is reported at checkpoints.

Exploitability (``gains``): each side's best-response gain against the other's strategy,
exact on the tensor, per decision deal in the payoff's unit; for the equilibrium it is 0 up
to the solver's tolerance. It is reported for the heuristic's own choices (its beg and give
share per class, recorded on every sampled deal), a tuned run's tables and the equilibrium.

Classes (``--classes``): coarse, the hand classes (``evaluator.class_key``); fine, each hand
class also split by a strong side suit (``/side``: three or more of a non-trump suit with
its ace or ten). The equilibrium of a coarse run is a policy, ``equilibrium:RUN_DIR``
(``policy.read_equilibrium``: mixed entries drawn from the choice stream).

Exploitability ``simulated`` (``exploit_deals`` > 0; net points at 0:0, coarse classes, the
heuristic's card play): each pair played as a policy (the heuristic's rules, the tuned run's
tables, the equilibrium's probabilities drawn from the choice stream) on fresh deals, one eldest
and one dealer best-response round of ``strategy`` against it (``exploit.simulated_exploitability``),
their gains added per eldest decision deal with a 95% CI; streams
``SeedSequence(seed, spawn_key=(EXPLOIT_STREAM + 2k (+1), chunk))`` for the k-th pair.

At every score (``run_all_scores``): the LP with the match-win probability at every score a:b below
the target, from one set of ``deals`` sampled deals on streams ``SeedSequence(seed, spawn_key=(SCORES_STREAM,
chunk))``: the cards do not know the score, so each deal's three lines are played once with the match left
open and their points walked from every score in the order they are scored (exact: see
``engine.bidding``'s note; a redealt line is replayed where the gift rule could change a later decision). A
deal counts at a score unless its first kick ends the match there. No bootstrap. Heatmaps of the main classes'
P(beg) and P(give) by score (``scores-eldest.png``, ``scores-dealer.png``).

How sure (``bootstrap``): the chunks are resampled with replacement (seeded:
``SeedSequence(seed, spawn_key=(BOOTSTRAP_STREAM,))``) and the game re-solved; the 2.5% and
97.5% quantiles are the 95% intervals of the value and of every class's probability. A
class's action is settled when its interval lies within [0, 0.05] or [0.95, 1].
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
import time
import warnings
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..defaults import EQUILIBRIUM_DEALS, EQUILIBRIUM_RESAMPLES
from ... import __version__
from ...engine.bidding import (
    BC_DEALS, BC_KICK_ENDED, BC_TRIES, LINES, MEASURE_POINTS, MEASURE_WIN, N_BC, N_TS, SCHEME_CLASSES, SCHEME_COARSE,
    SCHEME_FINE, TS_DEALER_SQ,
    TS_DEALER_SUM, TS_N, TS_REF_BEG, TS_REF_GIVE, TS_SQ, TS_SUM, cfr_plus, payoff_tensor as tensor_kernel,
    score_tensors as scores_kernel,
)
from ...engine.bits import rng_state
from ...engine.evaluator import N_HAND_CLASSES, class_key, decode_class, possible_classes
from ...engine.layout import K_HEURISTIC, K_TUNED, T_BEG, T_GIVE
from ...executor import Executor, LocalExecutor, Task, source_fingerprint
from ...policy import (
    EQUILIBRIUM_FILE, EQUILIBRIUM_FORMAT, HEURISTIC_PARAMS, parse_policy, policy_label, read_tuned, tuned_row,
)
from ...rules import R_TARGET, RuleSet
from .. import AnalysisError
from .equity import EquityTable
from ...vocabulary import ROLE

SCHEMES = {"coarse": SCHEME_COARSE, "fine": SCHEME_FINE}
STRONG_SIDE = "/side"        # the fine scheme's mark of a strong side suit (three or more with its ace or ten)
EQUILIBRIUM_STREAM = 2000
BOOTSTRAP_STREAM = 2001
SCORES_STREAM = 2003         # all-scores runs: SeedSequence(seed, spawn_key=(SCORES_STREAM, chunk)), every score
OPEN_TARGET = 1 << 30        # all-scores runs play each line once with the match open (no score reaches this)
HEATMAP_FILE = "scores-{role}.png"
SCORES_CHUNKS = 16           # all-scores runs: chunks a run is cut into (no bootstrap: few, large ones) ...
SCORES_CHUNK_MAX = 500_000   # ... of at most this many deals
EXPLOIT_STREAM = 3000        # simulated exploitability: pair k's eldest round 3000 + 2k, its dealer round + 1
SIM_NOTE = ("one eldest and one dealer best-response round against each unchanged strategy pair, on fresh deals; "
            "the gain is measured on the deals that chose the best response (an upper estimate, slightly "
            "optimistic where a class is nearly indifferent), net points per eldest decision deal")
HEATMAP_CLASSES = 6          # classes per role in the by-score heatmaps: those met most often
SCORES_FILE = "scores"
DEFAULT_DEALS = EQUILIBRIUM_DEALS
DEFAULT_RESAMPLES = EQUILIBRIUM_RESAMPLES
CFR_ITERATIONS = 10_000
CFR_CHECKPOINTS = (10, 100, 1000, 10_000)
BOOTSTRAP_CFR_ITERATIONS = 3000  # per resample: the deviation gains are ~1e-7 of a point by then
TARGET_CHUNKS = 200          # chunks a run is cut into (the bootstrap's resampling units) ...
CHUNK_MIN, CHUNK_MAX = 250, 50_000  # ... within these sizes
MAX_TRIES_PER_DEAL = 50      # deck samples per wanted deal before decisions are called too rare
SETTLED = 0.05               # an interval within [0, SETTLED] or [1 - SETTLED, 1] settles the action
TENSOR_FILE = "tensor"
RESULT_FILE = EQUILIBRIUM_FILE
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


# ---- the whole analysis ----------------------------------------------------------------------------


@dataclasses.dataclass
class EquilibriumResult:
    rules: RuleSet
    play: str
    scheme: str
    score: tuple[int, ...]
    measure: str              # "net points" or "match-win probability"
    deals: int
    seed: int
    tensor: Tensor
    b: np.ndarray             # P(beg) per eldest class (NaN: never sampled)
    g: np.ndarray             # P(give) per dealer class
    value: tuple[float, float]  # the eldest's and the dealer's value per decision deal
    boot: Bootstrap
    strategies: dict[str, tuple[np.ndarray, np.ndarray] | None]  # heuristic, tuned, equilibrium
    cfr_history: list[dict[str, float]] | None
    seconds: dict[str, float]
    heuristic_row: np.ndarray  # the heuristic's parameters (of the play policy): equilibrium:RUN_DIR plays with them
    out_dir: Path | None = None
    tuned_from: str | None = None
    simulated: dict[str, dict[str, Any]] | None = None  # per strategy: exploit.simulated_exploitability's dict
    simulated_skipped: str | None = None                # why the simulated exploitability was not computed

    @property
    def game(self) -> Game:
        return Game.from_sums(self.tensor.total, self.tensor.three)

    @property
    def zero_sum(self) -> bool:
        return self.rules.sides == 2

    def exploitability(self) -> dict[str, dict[str, Any] | None]:
        game = self.game
        out: dict[str, dict[str, Any] | None] = {}
        for name, pair in self.strategies.items():
            if pair is None:
                out[name] = None
                continue
            ge, gd = game.gains(*pair)
            v, dv = game.values(*pair)
            sim = (self.simulated or {}).get(name)
            out[name] = {"exact": ge + gd, "eldest_gain": ge, "dealer_gain": gd, "value": v,
                         "dealer_value": dv, "simulated": None if sim is None else sim["simulated"],
                         "simulated_ci95": None if sim is None else sim["simulated_ci95"],
                         "simulated_detail": sim}
        return out

    def class_rows(self, role: str) -> list[dict[str, Any]]:
        """One entry per class with deals: its probability, 95% CI, whether it is settled, the heuristic's."""
        game = self.game
        deals = game.eldest_deals if role == "eldest" else game.dealer_deals
        p = self.b if role == "eldest" else self.g
        lo, hi = self.boot.ci(self.boot.b if role == "eldest" else self.boot.g)
        ref = self.strategies["heuristic"]
        assert ref is not None
        href = ref[0] if role == "eldest" else ref[1]
        words = ROLE[role]
        key = f"p_{words.option1}"
        rows = []
        for i, code in enumerate(self.tensor.codes):
            if deals[i] <= 0:
                continue
            ci = [float(lo[i]), float(hi[i])]
            settled = bool((ci[1] <= SETTLED) or (ci[0] >= 1 - SETTLED))
            action = words.option1 if ci[0] >= 1 - SETTLED else words.option0 if ci[1] <= SETTLED else "unsettled"
            rows.append({"class": scheme_key(self.scheme, code), "deals": int(deals[i]), key: float(p[i]),
                         "ci95": ci, "settled": settled, "action": action,
                         f"heuristic_{key}": float(href[i])})
        return rows

    def to_json(self) -> dict[str, Any]:
        vlo, vhi = self.boot.ci(self.boot.values)
        eldest, dealer = self.class_rows("eldest"), self.class_rows("dealer")
        out: dict[str, Any] = {
            "format": EQUILIBRIUM_FORMAT,
            "value": self.value[0], "value_ci95": [float(vlo[0]), float(vhi[0])],
            "eldest": eldest, "dealer": dealer,
            "unsettled": {"eldest": [r["class"] for r in eldest if not r["settled"]],
                          "dealer": [r["class"] for r in dealer if not r["settled"]]},
            "exploitability": self.exploitability(),
            "simulated_exploitability": ({"deals": next(iter(self.simulated.values()))["deals"], "note": SIM_NOTE}
                                         if self.simulated else {"skipped": self.simulated_skipped}),
            "tensor": None if self.out_dir is None else str(self.out_dir / f"{TENSOR_FILE}.parquet"),
            "rules": self.rules.as_log_dict(), "score": list(self.score), "play": self.play, "seed": self.seed,
            "deals": self.deals, "classes": self.scheme, "measure": self.measure,
            "method": "linear program (HiGHS)" if self.zero_sum else "CFR+ (regret matching)",
            "bootstrap": {"resamples": int(self.boot.values.shape[0]), "chunks": int(self.tensor.chunks.shape[0])},
            "tuned": self.tuned_from,
            "heuristic": {name: float(self.heuristic_row[index]) for name, (index, _) in HEURISTIC_PARAMS.items()},
            "counts": {"tries": int(self.tensor.counts[BC_TRIES]), "kick_ended": int(self.tensor.counts[BC_KICK_ENDED]),
                       "deals": int(self.tensor.counts[BC_DEALS])},
            "seconds": {k: round(v, 3) for k, v in self.seconds.items()},
        }
        if not self.zero_sum:
            out["dealer_value"] = self.value[1]
            out["dealer_value_ci95"] = [float(vlo[1]), float(vhi[1])]
            out["cfr"] = {"iterations": CFR_ITERATIONS, "gains": self.cfr_history}
        return out

    def meta(self) -> dict[str, Any]:
        return {"format": EQUILIBRIUM_FORMAT, **meta_fields()}


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


def tuned_strategy(where: str, tensor: Tensor, heuristic: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray,
                                                                                                  np.ndarray]:
    """A tuned run's tables (``strategy --out RUN_DIR``) per class (a fine class by its hand class); classes it
    leaves to the heuristic's rule take the heuristic's choice."""
    row = read_tuned(where)
    codes = np.array(tensor.codes) % N_HAND_CLASSES
    beg = row[T_BEG + codes]
    give = row[T_GIVE + codes]
    b = np.where(beg >= 0, (beg > 0.5).astype(np.float64), heuristic[0])
    g = np.where(give >= 0, (give > 0.5).astype(np.float64), heuristic[1])
    return np.where(np.isnan(heuristic[0]), np.nan, b), np.where(np.isnan(heuristic[1]), np.nan, g)


def simulation_skipped(play: str, scheme: str, score: tuple[int, ...] | None) -> str | None:
    """Why the exploitability of a run cannot be simulated (None: it can); `score` None is net points at 0:0."""
    if score is not None:
        return "simulated only for net points at 0:0 (the best-response rounds' measure)"
    if scheme != "coarse":
        return "simulated only with --classes coarse (a policy plays by hand class)"
    if parse_policy(play)[0] not in (K_HEURISTIC, K_TUNED):
        return "simulated only with the heuristic's card play (--play heuristic or tuned:RUN_DIR)"
    return None


def strategy_row(result: EquilibriumResult, pair: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """A tuned policy row playing the strategy pair (P(beg), P(give) per class; NaN: the heuristic's rule)."""
    row = tuned_row(result.heuristic_row, np.full(N_HAND_CLASSES, -1.0), np.full(N_HAND_CLASSES, -1.0))
    codes = np.array(result.tensor.codes)
    b, g = pair
    row[T_BEG + codes] = np.where(np.isnan(b), -1.0, np.clip(b, 0.0, 1.0))
    row[T_GIVE + codes] = np.where(np.isnan(g), -1.0, np.clip(g, 0.0, 1.0))
    return row


def simulate_exploitability(result: EquilibriumResult, deals: int, executor: Executor,
                            progress: Progress | None = None) -> None:
    """Each strategy pair's exploitability by simulation (``exploit.simulated_exploitability``: one eldest and
    one dealer best-response round against the unchanged policy, `deals` decision deals each, streams
    EXPLOIT_STREAM + 2k for the k-th pair), into result.simulated; or the reason it is skipped."""
    from .exploit import simulated_exploitability

    result.simulated_skipped = simulation_skipped(result.play, result.scheme,
                                                  None if result.measure == "net points" and not any(result.score)
                                                  else result.score)
    if result.simulated_skipped is not None:
        return
    result.simulated = {}
    heuristic = tuned_row(result.heuristic_row, np.full(N_HAND_CLASSES, -1.0), np.full(N_HAND_CLASSES, -1.0))
    for k, (name, pair) in enumerate(result.strategies.items()):
        if pair is None:
            continue
        # The policies themselves: the heuristic's rules, the tuned run's tables, the equilibrium's probabilities.
        row = (heuristic if name == "heuristic" else read_tuned(result.tuned_from or "") if name == "tuned"
               else strategy_row(result, pair))
        result.simulated[name] = simulated_exploitability(result.rules, row, deals, result.seed,
                                                          EXPLOIT_STREAM + 2 * k, executor=executor,
                                                          progress=progress)


def check_inputs(rules: RuleSet, scheme: str, score: tuple[int, ...] | None) -> None:
    scheme_codes(scheme)
    if score is not None and rules.sides != 2:
        raise EquilibriumError(f"match-win probability (--score) needs two sides, not {rules.players} players: "
                               "leave --score out for net points")


def run_equilibrium(rules: RuleSet, play: str = "heuristic", deals: int = DEFAULT_DEALS, seed: int = 1,
                    scheme: str = "coarse", score: tuple[int, ...] | None = None, equity: EquityTable | None = None,
                    tuned: str | None = None, resamples: int = DEFAULT_RESAMPLES, out_dir: Path | None = None,
                    threads: int | None = None, executor: Executor | None = None,
                    progress: Progress | None = None, net_points: bool = False,
                    exploit_deals: int = 0) -> EquilibriumResult:
    """Tensor, solution, exploitabilities and bootstrap; the out folder written if given.

    With `exploit_deals` > 0 the exploitability of each strategy pair is also simulated (net points at 0:0,
    ``simulate_exploitability``), on that many decision deals per best-response round.

    With `score` the payoff is the match-win probability from `equity` (two sides only);
    without it, net points at 0:0. With `net_points` the payoff is net points at `score`
    (any number of sides, no equity table: check-advice's measure)."""
    from .strategy import side_scores

    if deals < 1 or resamples < 1:
        raise ValueError("deals and resamples must be at least 1")
    check_inputs(rules, scheme, None if net_points else score)
    win = score is not None and not net_points
    if win and equity is None:
        raise ValueError("a score needs the equity table")
    if equity is not None and equity.target != rules.target:
        raise ValueError("the equity table does not match these rules")
    scores = side_scores(rules, score)
    executor = executor if executor is not None else LocalExecutor(threads)
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    tensor = payoff_tensor(rules, play, scores, equity if win else None, scheme, deals, seed, executor, progress)
    seconds["tensor"] = time.perf_counter() - start
    game = Game.from_sums(tensor.total, tensor.three)
    zero_sum = rules.sides == 2
    import scipy.optimize  # noqa: F401  (imported before the clock starts: the solve is timed alone)

    start = time.perf_counter()
    history = None
    if zero_sum:
        _, b, g = solve_lp(game)
    else:
        cfr = solve_cfr(game)
        b, g, history = cfr.b, cfr.g, cfr.history
    seconds["solve"] = time.perf_counter() - start
    heuristic = heuristic_strategy(tensor)
    strategies: dict[str, tuple[np.ndarray, np.ndarray] | None] = {
        "heuristic": heuristic, "tuned": tuned_strategy(tuned, tensor, heuristic) if tuned else None,
        "equilibrium": (b, g)}
    start = time.perf_counter()
    boot = bootstrap(tensor, resamples, seed, zero_sum)
    seconds["bootstrap"] = time.perf_counter() - start
    result = EquilibriumResult(rules, play, scheme, tuple(int(x) for x in scores[:rules.sides]),
                               "match-win probability" if win else "net points", deals, seed, tensor,
                               b, g, game.values(b, g), boot, strategies, history, seconds, reference_row(play)[1],
                               tuned_from=tuned)
    if exploit_deals > 0:
        start = time.perf_counter()
        simulate_exploitability(result, exploit_deals, executor, progress)
        seconds["simulated"] = time.perf_counter() - start
    if out_dir is not None:
        write_run(result, out_dir)
    return result


def compare_schemes(coarse: EquilibriumResult, fine: EquilibriumResult) -> dict[str, Any]:
    """How much the value and the strategies move from the coarse classes to the fine ones, on the same deals
    (two runs of one seed and size share their deals and their bootstrap's chunk draws, so the difference of
    the values has a paired 95% CI). Per hand class and role: the coarse P and action beside the fine
    sub-classes' (without and with a strong side suit); ``verdict``: "holds" when every fine sub-class is settled
    on the coarse class's action, "moves" when one is settled on another, else "unsettled"."""
    if ((coarse.scheme, fine.scheme) != ("coarse", "fine") or (coarse.deals, coarse.seed) != (fine.deals, fine.seed)
            or coarse.boot.values.shape != fine.boot.values.shape):
        raise ValueError("compare a coarse and a fine run of the same deals, seed and bootstrap resamples")
    diff = fine.boot.values[:, 0] - coarse.boot.values[:, 0]
    out: dict[str, Any] = {"value": {"coarse": coarse.value[0], "fine": fine.value[0],
                                     "difference": fine.value[0] - coarse.value[0],
                                     "difference_ci95": [float(np.percentile(diff, 2.5)),
                                                         float(np.percentile(diff, 97.5))]}}
    for role in ("eldest", "dealer"):
        key = f"p_{ROLE[role].option1}"
        fine_rows = {r["class"]: r for r in fine.class_rows(role)}
        rows = []
        for r in coarse.class_rows(role):
            subs = [fine_rows[name] for name in (r["class"], r["class"] + STRONG_SIDE) if name in fine_rows]
            actions = {sub["action"] for sub in subs}
            if r["action"] != "unsettled" and actions == {r["action"]}:
                verdict = "holds"
            elif r["action"] != "unsettled" and any(a not in (r["action"], "unsettled") for a in actions):
                verdict = "moves"
            else:
                verdict = "unsettled"
            rows.append({"class": r["class"], "deals": r["deals"], key: r[key], "ci95": r["ci95"],
                         "action": r["action"],
                         "fine": [{"class": sub["class"], "deals": sub["deals"], key: sub[key], "ci95": sub["ci95"],
                                   "action": sub["action"]} for sub in subs],
                         "verdict": verdict})
        out[role] = rows
    return out


def write_run(result: EquilibriumResult, out_dir: Path) -> Path:
    """tensor.parquet/.csv, eldest.csv, dealer.csv and equilibrium.json in `out_dir`."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    result.out_dir = out_dir
    unit = "match-win probability" if result.measure != "net points" else "net points per deal"
    frame = result.tensor.to_frame(unit)
    frame.to_parquet(out_dir / f"{TENSOR_FILE}.parquet", index=False)
    frame.to_csv(out_dir / f"{TENSOR_FILE}.csv", index=False)
    doc = result.to_json()
    for role in ("eldest", "dealer"):
        rows = [{**{k: v for k, v in r.items() if k != "ci95"}, "ci95_lo": r["ci95"][0], "ci95_hi": r["ci95"][1]}
                for r in doc[role]]
        pd.DataFrame(rows).to_csv(out_dir / f"{role}.csv", index=False)
    (out_dir / RESULT_FILE).write_text(json.dumps({**doc, **result.meta()}, indent=1) + "\n", encoding="utf-8")
    return out_dir


# ---- the equilibrium at every score ------------------------------------------------------------------


@dataclasses.dataclass
class ScoresResult:
    """The equilibrium at every score a:b below the target (eldest's side first): no bootstrap."""

    rules: RuleSet
    play: str
    scheme: str
    deals: int                    # deals sampled (each score's decision deals are among them)
    seed: int
    cells: list[dict[str, Any]]   # per score: score, value, exploitabilities, deals, classes' P
    seconds: float
    out_dir: Path | None = None
    seconds_by_step: dict[str, float] | None = None

    def value_matrix(self) -> np.ndarray:
        t = self.rules.target
        out = np.full((t, t), np.nan)
        for cell in self.cells:
            a, b = cell["score"]
            out[a, b] = cell["value"]
        return out

    def frame(self) -> pd.DataFrame:
        """One row per score, role and class: deals, the equilibrium's and the heuristic's probability."""
        rows = []
        for cell in self.cells:
            a, b = cell["score"]
            for role in ("eldest", "dealer"):
                key = f"p_{ROLE[role].option1}"
                for r in cell[role]:
                    rows.append({"eldest_score": a, "dealer_score": b, "role": role, "class": r["class"],
                                 "deals": r["deals"], "p": r[key], "heuristic_p": r[f"heuristic_{key}"]})
        return pd.DataFrame(rows)

    def to_json(self) -> dict[str, Any]:
        return {"format": EQUILIBRIUM_FORMAT + "+scores", "rules": self.rules.as_log_dict(), "play": self.play,
                "classes": self.scheme, "measure": "match-win probability", "deals_sampled": self.deals,
                "seed": self.seed, "scores": self.cells,
                "files": None if self.out_dir is None else {
                    "scores": str(self.out_dir / f"{SCORES_FILE}.parquet"),
                    "values": str(self.out_dir / "score-values.csv"),
                    "heatmaps": [str(self.out_dir / HEATMAP_FILE.format(role=role)) for role in ("eldest", "dealer")]},
                "seconds_by_step": {k: round(v, 3) for k, v in (self.seconds_by_step or {}).items()},
                "seconds": round(self.seconds, 3)}


def scores_chunk(rules_array: np.ndarray, open_array: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                 ref_kind: int, ref_row: np.ndarray, equity: np.ndarray, scheme: str, seed: int, index: int, size: int,
                 stop: threading.Event | None = None,
                 progress: Progress | None = None) -> tuple[int, np.ndarray, np.ndarray] | None:
    """One chunk of an all-scores run: (index, tensors[score, e, d, TS_*] over the scheme's possible classes,
    counts[score, BC_*]); None if stopped."""
    if stop is not None and stop.is_set():
        return None
    deck_rng, rng, ref_rng = chunk_rngs(seed, index, SCORES_STREAM)
    target = int(rules_array[R_TARGET])
    n_codes = scheme_size(scheme)
    full = np.zeros((n_codes, n_codes, target * target, N_TS), dtype=np.float64)
    counts = np.zeros((target * target, N_BC), dtype=np.int64)
    scores_kernel(rules_array, open_array, kinds, params, ref_kind, ref_row, equity, SCHEMES[scheme],
                  deck_rng, rng, ref_rng, size, full, counts)
    if progress is not None:
        progress(size)
    return index, full, counts


def scores_chunk_deals(deals: int) -> int:
    """Deals per chunk of an all-scores run: about SCORES_CHUNKS chunks (each adds a tensor per score, so few and
    large), within CHUNK_MIN..SCORES_CHUNK_MAX. Part of what a seed means."""
    return int(min(SCORES_CHUNK_MAX, max(CHUNK_MIN, -(-deals // SCORES_CHUNKS))))


def score_tensors(rules: RuleSet, play: str, equity: EquityTable, scheme: str, deals: int, seed: int,
                  executor: Executor, progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(tensors[score, e, d, TS_*], counts[score, BC_*]) at every score a:b (index a * target + b) from the same
    `deals` sampled deals (``engine.bidding.score_tensors``), summed in chunk order."""
    kind, row = parse_policy(play)
    kinds = np.full(rules.players, kind, dtype=np.int64)
    params = np.tile(row, (rules.players, 1))
    ref_kind, ref_row = reference_row(play)
    rules_array = rules.as_array()
    open_array = rules_array.copy()
    open_array[R_TARGET] = OPEN_TARGET
    table = np.ascontiguousarray(equity.p, dtype=np.float64)
    size = scores_chunk_deals(deals)
    sizes = [min(size, deals - lo) for lo in range(0, deals, size)]
    n_codes = scheme_size(scheme)
    t = rules.target
    total = np.zeros((n_codes, n_codes, t * t, N_TS), dtype=np.float64)
    counts = np.zeros((t * t, N_BC), dtype=np.int64)
    pending: dict[int, np.ndarray] = {}
    next_index = [0]

    def finished(task: Task, result: tuple[int, np.ndarray, np.ndarray]) -> None:
        index, tensors, c = result
        np.add(counts, c, out=counts)
        pending[index] = tensors
        while next_index[0] in pending:  # float sums in chunk order: the same on any number of threads
            np.add(total, pending.pop(next_index[0]), out=total)
            next_index[0] += 1

    tasks = (Task(f"scores-{k:05d}", (rules_array, open_array, kinds, params, ref_kind, ref_row, table, scheme, seed,
                                      k, n), n) for k, n in enumerate(sizes))
    executor.run(scores_chunk, tasks, finished, progress)
    codes = np.array(scheme_codes(scheme))
    return np.ascontiguousarray(np.moveaxis(total[np.ix_(codes, codes)], 2, 0)), counts


def run_all_scores(rules: RuleSet, play: str, deals: int, seed: int, scheme: str, equity: EquityTable,
                   out_dir: Path | None = None, threads: int | None = None, executor: Executor | None = None,
                   progress: Progress | None = None) -> ScoresResult:
    """The equilibrium (LP, match-win probability from `equity`) at every score below the target, from the
    same `deals` sampled deals (a deal counts at a score unless its first kick ends the match there; see
    ``engine.bidding``'s note on scores). Writes scores.parquet/.csv, score-values.csv, scores.json and the
    heatmaps if `out_dir` is given."""
    check_inputs(rules, scheme, None)
    if rules.sides != 2:
        raise EquilibriumError(f"--all-scores needs two sides (match-win probability), not {rules.players} players")
    if equity.target != rules.target:
        raise ValueError("the equity table does not match these rules")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    executor = executor if executor is not None else LocalExecutor(threads)
    start = time.perf_counter()
    totals, counts = score_tensors(rules, play, equity, scheme, deals, seed, executor, progress)
    simulated = time.perf_counter() - start
    codes = scheme_codes(scheme)
    cells: list[dict[str, Any]] = []
    t = rules.target
    for cell, (a, b) in enumerate((a, b) for a in range(t) for b in range(t)):
        if counts[cell, BC_DEALS] < 1:
            continue
        tensor = Tensor(scheme, codes, totals[cell][None], counts[cell], False)
        game = Game.from_sums(tensor.total, False)
        value, b_eq, g_eq = solve_lp(game)
        h_b, h_g = heuristic_strategy(tensor)
        entry: dict[str, Any] = {"score": [a, b], "value": value, "deals": tensor.deals,
                                 "exploitability": {"heuristic": sum(game.gains(h_b, h_g)),
                                                    "equilibrium": sum(game.gains(b_eq, g_eq))},
                                 "heuristic_value": game.values(h_b, h_g)[0]}
        for role, p, href, deals_by in (("eldest", b_eq, h_b, game.eldest_deals),
                                        ("dealer", g_eq, h_g, game.dealer_deals)):
            key = f"p_{ROLE[role].option1}"
            entry[role] = [{"class": scheme_key(scheme, code), "deals": int(deals_by[i]), key: float(p[i]),
                            f"heuristic_{key}": float(href[i])}
                           for i, code in enumerate(tensor.codes) if deals_by[i] > 0]
        cells.append(entry)
    seconds = {"simulate": simulated, "solve": time.perf_counter() - start - simulated}
    result = ScoresResult(rules, play, scheme, deals, seed, cells, time.perf_counter() - start,
                         seconds_by_step=seconds)
    if out_dir is not None:
        write_scores(result, Path(out_dir))
    return result


def main_classes(frame: pd.DataFrame, role: str, k: int = HEATMAP_CLASSES) -> list[str]:
    """The `k` classes of `role` met most often over all scores (the heatmaps' classes)."""
    rows = frame[frame["role"] == role]
    return rows.groupby("class")["deals"].sum().sort_values(ascending=False).index[:k].tolist()


def score_matrix(frame: pd.DataFrame, role: str, cls: str, target: int) -> np.ndarray:
    """P(beg) or P(give) of one class by score: [eldest's side's score, dealer's side's score]."""
    out = np.full((target, target), np.nan)
    rows = frame[(frame["role"] == role) & (frame["class"] == cls)]
    out[rows["eldest_score"].to_numpy(), rows["dealer_score"].to_numpy()] = rows["p"].to_numpy()
    return out


SCORES_MARK = (f"Hatched, \"?\" after the value: not settled (the equilibrium mixes there: P between {SETTLED:.0%} "
               f"and {1 - SETTLED:.0%}). No 95% CI is kept per score (one solve per score, no bootstrap), "
               "so a cell not hatched is not shown to be settled either.")


def unsettled_by_score(matrix: np.ndarray) -> np.ndarray:
    """The cells of a by-score table (P(beg) or P(give)) known not to be settled: those where the equilibrium
    mixes, its probability strictly between SETTLED and 1 - SETTLED (an interval around it cannot lie within
    SETTLED of always or never). Without an interval per score no cell is known to be settled."""
    with np.errstate(invalid="ignore"):
        return (matrix > SETTLED) & (matrix < 1 - SETTLED)


def draw_score_heatmaps(frame: pd.DataFrame, rules: RuleSet, play: str, deals: int, out_dir: Path) -> list[Path]:
    """The by-score heatmaps (``scores-eldest.png``, ``scores-dealer.png``) from the per-score frame
    (``ScoresResult.frame()``, or ``scores.parquet`` read back): the main classes' probability by score, the
    cells known not to be settled hatched."""
    from ..charts import score_strategy_heatmaps

    paths = []
    for role in ("eldest", "dealer"):
        classes = main_classes(frame, role)
        matrices = [score_matrix(frame, role, cls, rules.target) for cls in classes]
        words = ROLE[role]
        paths.append(score_strategy_heatmaps(
            matrices, classes, Path(out_dir) / HEATMAP_FILE.format(role=role),
            f"P({words.option1}) at the equilibrium by score, {role}: {rules.preset}, {rules.players} players, "
            f"play {policy_label(play)}, {deals:,} deals",
            [unsettled_by_score(m) for m in matrices], SCORES_MARK))
    return paths


def write_scores(result: ScoresResult, out_dir: Path) -> Path:
    """scores.parquet/.csv (per score, role and class), score-values.csv, scores.json and one heatmap per role
    (``scores-eldest.png``, ``scores-dealer.png``: the main classes' probability by score)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    result.out_dir = out_dir
    frame = result.frame()
    frame.to_parquet(out_dir / f"{SCORES_FILE}.parquet", index=False)
    frame.to_csv(out_dir / f"{SCORES_FILE}.csv", index=False)
    pd.DataFrame([{"eldest_score": c["score"][0], "dealer_score": c["score"][1], "deals": c["deals"],
                   "value": c["value"], "heuristic_value": c["heuristic_value"],
                   "heuristic_exploitability": c["exploitability"]["heuristic"],
                   "equilibrium_exploitability": c["exploitability"]["equilibrium"]} for c in result.cells]
                 ).to_csv(out_dir / "score-values.csv", index=False)
    draw_score_heatmaps(frame, result.rules, result.play, result.deals, out_dir)
    (out_dir / f"{SCORES_FILE}.json").write_text(json.dumps({**result.to_json(), **meta_fields()}, indent=1)
                                                 + "\n", encoding="utf-8")
    return out_dir
