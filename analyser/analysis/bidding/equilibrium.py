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
deal counts at a score unless its first kick ends the match there. Its bootstrap (``scores_bootstrap``) resamples
the chunks as below, one draw per resample shared by every score (``SeedSequence(seed,
spawn_key=(SCORES_BOOTSTRAP_STREAM,))``), and re-solves each score. Heatmaps of the main classes' P(beg) and
P(give) by score (``scores-eldest.png``, ``scores-dealer.png``), the cells not settled hatched.

How sure (``bootstrap``): the chunks are resampled with replacement (seeded:
``SeedSequence(seed, spawn_key=(BOOTSTRAP_STREAM,))``) and the game re-solved; the 2.5% and
97.5% quantiles are the 95% intervals of the value and of every class's probability. A
class's action is settled when its interval lies within [0, 0.05] or [0.95, 1].

The parts: ``equilibrium_game`` (the classes, the tensor, the game, its solution and the bootstrap),
``equilibrium_scores`` (at every score, and its heatmaps) and this module (the whole analysis, its
exploitabilities and its out folder); every name of the parts is importable from here.
"""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..defaults import EQUILIBRIUM_DEALS, EQUILIBRIUM_RESAMPLES
from ...engine.bidding import BC_DEALS, BC_KICK_ENDED, BC_TRIES
from ...engine.evaluator import N_HAND_CLASSES
from ...engine.layout import K_HEURISTIC, K_TUNED, T_BEG, T_GIVE
from ...work.executor import Executor, LocalExecutor
from ...players.policy import EQUILIBRIUM_FILE, EQUILIBRIUM_FORMAT, HEURISTIC_PARAMS, parse_policy, read_tuned, tuned_row
from ...game.rules import RuleSet
from .equity import EquityTable
from .equilibrium_game import (
    BOOTSTRAP_CFR_ITERATIONS, BOOTSTRAP_STREAM, CFR_CHECKPOINTS, CFR_ITERATIONS, CHUNK_MAX, CHUNK_MIN,
    EQUILIBRIUM_STREAM, MAX_TRIES_PER_DEAL, PURE, SCHEMES, SETTLED, STRONG_SIDE, TARGET_CHUNKS, Bootstrap,
    CfrResult, EquilibriumError, Game, Progress, Tensor, bootstrap, check_inputs, chunk_deals, chunk_rngs,
    heuristic_strategy, mean_se, meta_fields, payoff_tensor, reference_row, scheme_codes, scheme_key, scheme_size,
    snap, solve, solve_cfr, solve_lp, tensor_chunk,
)
from .equilibrium_scores import (
    HEATMAP_CLASSES, HEATMAP_FILE, OPEN_TARGET, SCORES_BOOTSTRAP_STREAM, SCORES_CHUNKS, SCORES_CHUNK_MAX,
    SCORES_FILE, SCORES_MARK, SCORES_MARK_MIXING, SCORES_RESAMPLES, SCORES_STREAM, ScoresResult,
    draw_score_heatmaps, has_bootstrap, main_classes, run_all_scores, score_matrix, score_tensors, scores_bootstrap,
    scores_chunk, scores_chunk_deals, unsettled_by_score, write_scores,
)
from ...record.vocabulary import ROLE

EXPLOIT_STREAM = 3000        # simulated exploitability: pair k's eldest round 3000 + 2k, its dealer round + 1
SIM_NOTE = ("one eldest and one dealer best-response round against each unchanged strategy pair, on fresh deals; "
            "the gain is measured on the deals that chose the best response (an upper estimate, slightly "
            "optimistic where a class is nearly indifferent), net points per eldest decision deal")
DEFAULT_DEALS = EQUILIBRIUM_DEALS
DEFAULT_RESAMPLES = EQUILIBRIUM_RESAMPLES
TENSOR_FILE = "tensor"
RESULT_FILE = EQUILIBRIUM_FILE

__all__ = [
    "BOOTSTRAP_CFR_ITERATIONS", "BOOTSTRAP_STREAM", "CFR_CHECKPOINTS", "CFR_ITERATIONS", "CHUNK_MAX", "CHUNK_MIN",
    "DEFAULT_DEALS", "DEFAULT_RESAMPLES", "EQUILIBRIUM_STREAM", "EXPLOIT_STREAM", "HEATMAP_CLASSES", "HEATMAP_FILE",
    "MAX_TRIES_PER_DEAL", "OPEN_TARGET", "PURE", "RESULT_FILE", "SCHEMES", "SCORES_BOOTSTRAP_STREAM",
    "SCORES_CHUNKS", "SCORES_CHUNK_MAX", "SCORES_FILE", "SCORES_MARK", "SCORES_MARK_MIXING", "SCORES_RESAMPLES",
    "SCORES_STREAM", "SETTLED", "SIM_NOTE", "STRONG_SIDE", "TARGET_CHUNKS",
    "TENSOR_FILE", "Bootstrap", "CfrResult", "EquilibriumError", "EquilibriumResult", "Game", "Progress",
    "ScoresResult", "Tensor", "bootstrap", "check_inputs", "chunk_deals", "chunk_rngs", "compare_schemes",
    "draw_score_heatmaps", "heuristic_strategy", "main_classes", "mean_se", "meta_fields", "payoff_tensor",
    "reference_row", "run_all_scores", "run_equilibrium", "scheme_codes", "scheme_key", "scheme_size",
    "score_matrix", "score_tensors", "scores_chunk", "scores_chunk_deals", "simulate_exploitability",
    "simulation_skipped", "snap", "solve", "solve_cfr", "solve_lp", "strategy_row", "tensor_chunk",
    "tuned_strategy", "has_bootstrap", "scores_bootstrap", "unsettled_by_score", "write_run", "write_scores",
]


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
