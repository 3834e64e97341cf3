"""The equilibrium at every score, one part of ``equilibrium`` (its docstring: "At every score"): the LP with the
match-win probability at every score a:b below the target from one set of sampled deals, and its by-score
heatmaps."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ...engine.bidding import BC_DEALS, N_BC, N_TS, score_tensors as scores_kernel
from ...work.executor import Executor, LocalExecutor, Task
from ...players.policy import EQUILIBRIUM_FORMAT, parse_policy, policy_label
from ...game.rules import R_TARGET, RuleSet
from .equity import EquityTable
from .equilibrium_game import (
    CHUNK_MIN, SCHEMES, SETTLED, EquilibriumError, Game, Progress, Tensor, check_inputs, chunk_rngs,
    heuristic_strategy, meta_fields, reference_row, scheme_codes, scheme_key, scheme_size, solve_lp,
)
from ...record.vocabulary import ROLE

SCORES_STREAM = 2003         # all-scores runs: SeedSequence(seed, spawn_key=(SCORES_STREAM, chunk)), every score
OPEN_TARGET = 1 << 30        # all-scores runs play each line once with the match open (no score reaches this)
HEATMAP_FILE = "scores-{role}.png"
SCORES_CHUNKS = 16           # all-scores runs: chunks a run is cut into (no bootstrap: few, large ones) ...
SCORES_CHUNK_MAX = 500_000   # ... of at most this many deals
HEATMAP_CLASSES = 6          # classes per role in the by-score heatmaps: those met most often
SCORES_FILE = "scores"


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
