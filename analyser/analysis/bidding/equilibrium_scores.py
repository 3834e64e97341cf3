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
    CHUNK_MIN, SCHEMES, SETTLED, Bootstrap, EquilibriumError, Game, Progress, Tensor, check_inputs, chunk_rngs,
    heuristic_strategy, meta_fields, reference_row, scheme_codes, scheme_key, scheme_size, solve_lp,
)
from ...record.vocabulary import ROLE

SCORES_STREAM = 2003         # all-scores runs: SeedSequence(seed, spawn_key=(SCORES_STREAM, chunk)), every score
SCORES_BOOTSTRAP_STREAM = 2004  # their bootstrap: SeedSequence(seed, spawn_key=(2004,)), one draw per resample
SCORES_RESAMPLES = 200       # bootstrap re-solves at every score (each resample's chunk weights shared by all)
BOOTSTRAP_MIN_CHUNKS = 8     # fewer chunks than this (runs under 2,000 deals) are too few to resample: no CIs
OPEN_TARGET = 1 << 30        # all-scores runs play each line once with the match open (no score reaches this)
HEATMAP_FILE = "scores-{role}.png"
SCORES_CHUNKS = 16           # all-scores runs: chunks a run is cut into (the bootstrap's units: few, large) ...
SCORES_CHUNK_MAX = 500_000   # ... of at most this many deals
HEATMAP_CLASSES = 6          # classes per role in the by-score heatmaps: those met most often
SCORES_FILE = "scores"


@dataclasses.dataclass
class ScoresResult:
    """The equilibrium at every score a:b below the target (eldest's side first), each class's P with its
    bootstrap 95% CI (``ci95``, ``settled``) when `resamples` > 0."""

    rules: RuleSet
    play: str
    scheme: str
    deals: int                    # deals sampled (each score's decision deals are among them)
    seed: int
    cells: list[dict[str, Any]]   # per score: score, value, exploitabilities, deals, classes' P
    seconds: float
    out_dir: Path | None = None
    seconds_by_step: dict[str, float] | None = None
    resamples: int = 0            # bootstrap re-solves per score (0: none, so no cell is shown settled)
    chunks: int = 0               # the chunks they resample

    def value_matrix(self) -> np.ndarray:
        t = self.rules.target
        out = np.full((t, t), np.nan)
        for cell in self.cells:
            a, b = cell["score"]
            out[a, b] = cell["value"]
        return out

    def settled_cells(self) -> tuple[int, int]:
        """(class-score cells the bootstrap settles, class-score cells): every role's class met at every score."""
        rows = [r for cell in self.cells for role in ("eldest", "dealer") for r in cell[role]]
        return sum(bool(r.get("settled", False)) for r in rows), len(rows)

    def frame(self) -> pd.DataFrame:
        """One row per score, role and class: deals, the equilibrium's and the heuristic's probability."""
        rows = []
        for cell in self.cells:
            a, b = cell["score"]
            for role in ("eldest", "dealer"):
                key = f"p_{ROLE[role].option1}"
                for r in cell[role]:
                    lo, hi = r.get("ci95", (np.nan, np.nan))
                    rows.append({"eldest_score": a, "dealer_score": b, "role": role, "class": r["class"],
                                 "deals": r["deals"], "p": r[key], "p_low": lo, "p_high": hi,
                                 "settled": r.get("settled", False), "heuristic_p": r[f"heuristic_{key}"]})
        return pd.DataFrame(rows)

    def to_json(self) -> dict[str, Any]:
        return {"format": EQUILIBRIUM_FORMAT + "+scores", "rules": self.rules.as_log_dict(), "play": self.play,
                "classes": self.scheme, "measure": "match-win probability", "deals_sampled": self.deals,
                "seed": self.seed, "bootstrap": {"resamples": self.resamples, "chunks": self.chunks},
                "scores": self.cells,
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
                  executor: Executor, progress: Progress | None = None,
                  keep: list[np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(tensors[score, e, d, TS_*], counts[score, BC_*]) at every score a:b (index a * target + b) from the same
    `deals` sampled deals (``engine.bidding.score_tensors``), summed in chunk order. With `keep` (a list) each
    chunk's own tensors[score, e, d, TS_*] are put in it, in chunk order (the bootstrap's units)."""
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
    codes = np.array(scheme_codes(scheme))
    kept: dict[int, np.ndarray] = {}

    def finished(task: Task, result: tuple[int, np.ndarray, np.ndarray]) -> None:
        index, tensors, c = result
        np.add(counts, c, out=counts)
        pending[index] = tensors
        if keep is not None:  # only the scheme's classes, score first, as the total is returned
            kept[index] = np.ascontiguousarray(np.moveaxis(tensors[np.ix_(codes, codes)], 2, 0))
        while next_index[0] in pending:  # float sums in chunk order: the same on any number of threads
            np.add(total, pending.pop(next_index[0]), out=total)
            next_index[0] += 1

    tasks = (Task(f"scores-{k:05d}", (rules_array, open_array, kinds, params, ref_kind, ref_row, table, scheme, seed,
                                      k, n), n) for k, n in enumerate(sizes))
    executor.run(scores_chunk, tasks, finished, progress)
    if keep is not None:
        keep.extend(kept[k] for k in range(len(sizes)))
    return np.ascontiguousarray(np.moveaxis(total[np.ix_(codes, codes)], 2, 0)), counts


def run_all_scores(rules: RuleSet, play: str, deals: int, seed: int, scheme: str, equity: EquityTable,
                   out_dir: Path | None = None, threads: int | None = None, executor: Executor | None = None,
                   progress: Progress | None = None, resamples: int = SCORES_RESAMPLES) -> ScoresResult:
    """The equilibrium (LP, match-win probability from `equity`) at every score below the target, from the
    same `deals` sampled deals (a deal counts at a score unless its first kick ends the match there; see
    ``engine.bidding``'s note on scores), each class's P with a bootstrap 95% CI from `resamples` re-solves at
    every score (``scores_bootstrap``; none with 0, or with fewer than BOOTSTRAP_MIN_CHUNKS chunks). Writes
    scores.parquet/.csv, score-values.csv, scores.json and the heatmaps if `out_dir` is given."""
    check_inputs(rules, scheme, None)
    if rules.sides != 2:
        raise EquilibriumError(f"--all-scores needs two sides (match-win probability), not {rules.players} players")
    if equity.target != rules.target:
        raise ValueError("the equity table does not match these rules")
    if deals < 1:
        raise ValueError("deals must be at least 1")
    if resamples < 0:
        raise ValueError("resamples must be at least 0")
    executor = executor if executor is not None else LocalExecutor(threads)
    start = time.perf_counter()
    chunks: list[np.ndarray] = []
    totals, counts = score_tensors(rules, play, equity, scheme, deals, seed, executor, progress,
                                   keep=chunks if resamples > 0 else None)
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
    solved = time.perf_counter()
    seconds = {"simulate": simulated, "solve": solved - start - simulated}
    if len(chunks) < BOOTSTRAP_MIN_CHUNKS:  # (a percentile interval from a handful of chunks would be too narrow)
        resamples, chunks = 0, []
    if resamples > 0:
        scores_bootstrap(cells, np.stack(chunks), codes, scheme, t, resamples, seed)
        seconds["bootstrap"] = time.perf_counter() - solved
    result = ScoresResult(rules, play, scheme, deals, seed, cells, time.perf_counter() - start,
                         seconds_by_step=seconds, resamples=resamples, chunks=len(chunks))
    if out_dir is not None:
        write_scores(result, Path(out_dir))
    return result


def scores_bootstrap(cells: list[dict[str, Any]], chunks: np.ndarray, codes: list[int], scheme: str, target: int,
                     resamples: int, seed: int) -> None:
    """Each cell's classes get ``ci95`` (2.5% and 97.5% quantiles of P over `resamples` re-solves, widened to
    hold the point estimate if it falls outside) and ``settled`` (the interval within SETTLED of never or
    always). `chunks`[chunk, score, e, d, TS_*]; each resample draws the chunks with replacement once (seeded:
    SeedSequence(seed, spawn_key=(2004,))) and uses those weights at every score, as the main equilibrium's
    bootstrap resamples its chunks."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(SCORES_BOOTSTRAP_STREAM,)))
    n_chunks = chunks.shape[0]
    weights = rng.multinomial(n_chunks, np.full(n_chunks, 1.0 / n_chunks), size=resamples).astype(np.float64)
    index = {scheme_key(scheme, code): i for i, code in enumerate(codes)}
    for entry in cells:
        a, b = entry["score"]
        flat = chunks[:, a * target + b].reshape(n_chunks, -1)
        shape = chunks.shape[2:]
        bs = np.zeros((resamples, shape[0]))
        gs = np.zeros((resamples, shape[1]))
        for r in range(resamples):
            _, bs[r], gs[r] = solve_lp(Game.from_sums((weights[r] @ flat).reshape(shape), False))
        for role, draws in (("eldest", bs), ("dealer", gs)):
            lo, hi = Bootstrap(np.zeros((resamples, 2)), bs, gs).ci(draws)
            key = f"p_{ROLE[role].option1}"
            for row in entry[role]:
                i = index[row["class"]]
                p = float(row[key])  # the interval widened to hold the estimate: never outside its own CI
                ci = [min(float(lo[i]), p), max(float(hi[i]), p)]
                row["ci95"] = ci
                row["settled"] = bool(ci[1] <= SETTLED or ci[0] >= 1 - SETTLED)


def main_classes(frame: pd.DataFrame, role: str, k: int = HEATMAP_CLASSES) -> list[str]:
    """The `k` classes of `role` met most often over all scores (the heatmaps' classes)."""
    rows = frame[frame["role"] == role]
    return rows.groupby("class")["deals"].sum().sort_values(ascending=False).index[:k].tolist()


def score_matrix(frame: pd.DataFrame, role: str, cls: str, target: int, column: str = "p") -> np.ndarray:
    """P(beg) or P(give) of one class by score (or another column of the frame, as floats): [eldest's side's
    score, dealer's side's score], NaN where the class was not met."""
    out = np.full((target, target), np.nan)
    rows = frame[(frame["role"] == role) & (frame["class"] == cls)]
    out[rows["eldest_score"].to_numpy(), rows["dealer_score"].to_numpy()] = rows[column].to_numpy(dtype=np.float64)
    return out


SCORES_MARK = (f"Hatched, \"?\" after the value: not settled (the 95% CI of the equilibrium's P there, from "
               "{resamples} bootstrap resamples of {chunks} chunks of the deals, reaches further than "
               f"{SETTLED:.0%} from never or always). A cell not hatched is settled.")
SCORES_MARK_MIXING = (f"Hatched, \"?\" after the value: not settled (the equilibrium mixes there: P between "
                      f"{SETTLED:.0%} and {1 - SETTLED:.0%}). No 95% CI was kept per score (no bootstrap), so a "
                      "cell not hatched is not shown to be settled either.")


def unsettled_by_score(matrix: np.ndarray, settled: np.ndarray | None = None) -> np.ndarray:
    """The cells of a by-score table (P(beg) or P(give)) not shown to be settled. With `settled` (the
    bootstrap's verdict per cell, False where the class was not met): every met cell it does not settle.
    Without: only those where the equilibrium mixes, its probability strictly between SETTLED and
    1 - SETTLED (an interval around it cannot lie within SETTLED of always or never)."""
    met = np.isfinite(matrix)
    if settled is not None:
        return met & ~settled
    with np.errstate(invalid="ignore"):
        return (matrix > SETTLED) & (matrix < 1 - SETTLED)


def has_bootstrap(frame: pd.DataFrame) -> bool:
    """Whether a per-score frame carries the bootstrap's intervals (a run with resamples > 0)."""
    return "p_low" in frame and bool(frame["p_low"].notna().any())


def draw_score_heatmaps(frame: pd.DataFrame, rules: RuleSet, play: str, deals: int, out_dir: Path,
                        resamples: int = 0, chunks: int = 0) -> list[Path]:
    """The by-score heatmaps (``scores-eldest.png``, ``scores-dealer.png``) from the per-score frame
    (``ScoresResult.frame()``, or ``scores.parquet`` read back): the main classes' probability by score, the
    cells not shown to be settled hatched (by the bootstrap's CI where the frame has it, else where the
    equilibrium mixes)."""
    from ..charts import score_strategy_heatmaps

    boot = has_bootstrap(frame)
    legend = SCORES_MARK.format(resamples=resamples, chunks=chunks) if boot else SCORES_MARK_MIXING
    paths = []
    for role in ("eldest", "dealer"):
        classes = main_classes(frame, role)
        matrices = [score_matrix(frame, role, cls, rules.target) for cls in classes]
        marks = [unsettled_by_score(m, score_matrix(frame, role, cls, rules.target, "settled") == 1 if boot else None)
                 for m, cls in zip(matrices, classes)]
        words = ROLE[role]
        paths.append(score_strategy_heatmaps(
            matrices, classes, Path(out_dir) / HEATMAP_FILE.format(role=role),
            f"P({words.option1}) at the equilibrium by score, {role}: {rules.preset}, {rules.players} players, "
            f"play {policy_label(play)}, {deals:,} deals", marks, legend))
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
    draw_score_heatmaps(frame, result.rules, result.play, result.deals, out_dir, result.resamples, result.chunks)
    (out_dir / f"{SCORES_FILE}.json").write_text(json.dumps({**result.to_json(), **meta_fields()}, indent=1)
                                                 + "\n", encoding="utf-8")
    return out_dir
