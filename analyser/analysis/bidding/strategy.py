"""Strategy tables: stand or beg, give or run, for every hand class, by iterated best responses.

Sampling. Deals come from the natural distribution (a uniformly shuffled deck),
dealt by the last seat, at one score before the deal (``score``: by side, the
eldest's side first and the dealer's side last; with 3 players eldest, next,
dealer; default all zero). A deal whose first turn-up kick ends the match has no
decision and is skipped. For the eldest's table every other deal counts: both
options (stand, beg, the dealer answering a beg with its current policy) are played
on the same deal with the same card and choice streams. For the dealer's table a
deal counts only when the eldest's current policy begs with its hand (rejection
sampling), and both answers (run, give) are played the same way. Each deal is
classed by the decider's hand class (``evaluator.hand_class_code``) for the turn-up
suit. Kernel: ``engine.decisions.paired_class_sums``.

Measure. The value of an option is the net points of the line for the decider's
side: its points minus the other sides' together (with 3 players, minus both
opponents), from the decision to the end of the hand finally played (gift, kicks of
runs and redeals, High, Low, Jack, Game), without the first turn-up's kick, which
came before the decision. Recommendations use this mean (net points per deal, not
match-win probability: at the default score 0:0 one point is worth about the same
to either side). Per class: n, share (n over all deck samples of the round, so the
share of dealt deals that are this decision with this class), each option's mean
and SE, the paired difference (beg - stand, give - run) with SE and 95% CI, and the
recommendation: the option with the better mean (ties keep the current choice);
``ci_includes_zero`` flags the classes the sample does not separate.

Best responses. The policy starts as ``--policy`` (the heuristic, or a tuned
policy) for every seat. Round 1 estimates the eldest's table against the current
dealer and makes the eldest's choices the recommendations (a tuned policy, see
engine/tuned.py); round 2 the dealer's table against that eldest; round 3 the
eldest's again, and so on. A round reports the classes whose recommendation differs
from the current policy's choice (its choice on most of the class's deals) and the
gain: the mean per decision deal of the round of (value of the new choice - value of
the choice the current policy made on that deal), with its SE. The gain is measured
on the sample that chose the new choices, so it is slightly optimistic where a
difference is near zero. It stops after the first round (from round 2 on) that
changes nothing, or after ``rounds`` rounds. Classes never sampled keep their
previous entry (for the heuristic: its rule). Round r uses the streams
``SeedSequence(seed, spawn_key=(r, chunk))``.

Parallel and reproducible. A round is split into chunks of CHUNK_DEALS decision deals;
each chunk (``class_sums_chunk``, a module-level pure function) returns integer sums
per class, which are added up; integer sums do not depend on the order chunks finish
in, so a seed gives the same tables on any number of threads or Dask workers.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..defaults import STRATEGY_DEALS, STRATEGY_ROUNDS
from ... import __version__
from ...engine.bits import rng_state
from ...engine.decisions import (
    CLASSING_HAND, CS_A, CS_AA, CS_B, CS_BB, CS_D, CS_D_POLICY_B, CS_DD, CS_DD_POLICY_B, CS_N, CS_POLICY_B, CT_DEALS,
    CT_KICK_ENDED, CT_TRIES, N_CLASS_SUMS, N_COUNTS, n_classes, paired_class_sums,
)
from ...engine.evaluator import N_HAND_CLASSES, class_key, possible_classes
from ...engine.layout import K_HEURISTIC, K_ORACLE, K_PIMC, K_TUNED, P_BEG, P_GIVE
from ...work.executor import Executor, LocalExecutor, Task, source_fingerprint
from ...players.policy import TUNED_FILE, PolicyError, parse_policy, tuned_document, tuned_row, tuned_tables
from ...game.rules import RuleSet
from .. import AnalysisError
from ..stats import Z95
from ...record.vocabulary import ROLE, ROLE_NAMES

STRATEGY_FORMAT = "allfours-strategy/1"
ROLES = ROLE_NAMES  # the options, their difference and the chart's file: vocabulary.ROLE[role]
CHUNK_DEALS = 10_000
DEFAULT_DEALS = STRATEGY_DEALS
DEFAULT_ROUNDS = STRATEGY_ROUNDS
MAX_TRIES_PER_DEAL = 50  # dealer rounds: deck samples per wanted deal before a beg is called too rare
Progress = Callable[[int], None]


# ---- paired per-class sums, in seeded chunks ---------------------------------------------------


def chunk_rngs(seed: int, stream: int, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card, choice and beg-filter streams of chunk `index` of stream `stream` (a round)."""
    cards, choices, begs = np.random.SeedSequence(seed, spawn_key=(stream, index)).spawn(3)
    return rng_state(cards), rng_state(choices), rng_state(begs)


def class_sums_chunk(rules_array: np.ndarray, role: int, scores: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                     classing: int, seed: int, stream: int, index: int, size: int,
                     stop: threading.Event | None = None,
                     progress: Progress | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """One chunk: (sums[class, CS_*], counts[CT_*]) of `size` paired decision deals; None if stopped."""
    if stop is not None and stop.is_set():
        return None
    deck_rng, rng, beg_rng = chunk_rngs(seed, stream, index)
    sums = np.zeros((n_classes(classing), N_CLASS_SUMS), dtype=np.int64)
    counts = np.zeros(N_COUNTS, dtype=np.int64)
    paired_class_sums(rules_array, role, scores, kinds, params, classing, deck_rng, rng, beg_rng, size,
                      MAX_TRIES_PER_DEAL * size, sums, counts)
    if progress is not None:
        progress(size)
    return sums, counts


def class_sums(rules: RuleSet, role: str, scores: np.ndarray, kinds: np.ndarray, params: np.ndarray, classing: int,
               deals: int, seed: int, stream: int, executor: Executor, progress: Progress | None = None,
               chunk_deals: int = CHUNK_DEALS) -> tuple[np.ndarray, np.ndarray]:
    """Sums and counts of `deals` paired decision deals of `role`, in chunks of `chunk_deals` on `executor`
    (the chunk size decides the streams, so it is part of what a seed means)."""
    total_sums = np.zeros((n_classes(classing), N_CLASS_SUMS), dtype=np.int64)
    total_counts = np.zeros(N_COUNTS, dtype=np.int64)

    def finished(task: Task, result: tuple[np.ndarray, np.ndarray]) -> None:
        np.add(total_sums, result[0], out=total_sums)  # integer sums: the order chunks finish in does not matter
        np.add(total_counts, result[1], out=total_counts)

    rules_array = rules.as_array()
    kernel_role = ROLE[role].kernel
    tasks = (Task(f"{role}-{stream}-{k:05d}", (rules_array, kernel_role, scores, kinds, params, classing, seed,
                                                stream, k, min(chunk_deals, deals - lo)), min(chunk_deals, deals - lo))
             for k, lo in enumerate(range(0, deals, chunk_deals)))
    executor.run(class_sums_chunk, tasks, finished, progress)
    return total_sums, total_counts


def mean_se(total: np.ndarray, squares: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Means and standard errors from sums, sums of squares and counts (NaN where n is too small)."""
    n = n.astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, total / n, np.nan)
        var = np.where(n > 1, (squares - total * total / np.maximum(n, 1)) / (n - 1), np.nan)
        se = np.sqrt(np.maximum(var, 0.0) / n)
    return mean, np.where(n > 1, se, np.nan)


# ---- one round's table ----------------------------------------------------------------------------


def round_table(sums: np.ndarray, counts: np.ndarray, role: str, round_no: int) -> pd.DataFrame:
    """The per-class table of one round (every possible hand class, sampled or not)."""
    a_name, b_name = ROLE[role].options
    codes = possible_classes()
    s = sums[codes].astype(np.float64)
    n = sums[codes, CS_N]
    a_mean, a_se = mean_se(s[:, CS_A], s[:, CS_AA], n)
    b_mean, b_se = mean_se(s[:, CS_B], s[:, CS_BB], n)
    d_mean, d_se = mean_se(s[:, CS_D], s[:, CS_DD], n)
    with np.errstate(invalid="ignore", divide="ignore"):
        policy_b = np.where(n > 0, sums[codes, CS_POLICY_B] / np.maximum(n, 1), np.nan)
    current = np.where(policy_b >= 0.5, b_name, a_name)
    recommend = np.where(d_mean > 0, b_name, np.where(d_mean < 0, a_name, current))
    lo, hi = d_mean - Z95 * d_se, d_mean + Z95 * d_se
    tries = max(int(counts[CT_TRIES]), 1)
    return pd.DataFrame({
        "round": round_no, "role": role, "class_code": codes, "class_key": [class_key(c) for c in codes],
        "n": n, "share": n / tries,
        f"{a_name}_mean": a_mean, f"{a_name}_se": a_se, f"{b_name}_mean": b_mean, f"{b_name}_se": b_se,
        "diff_mean": d_mean, "diff_se": d_se, "diff_ci_lo": lo, "diff_ci_hi": hi,
        "ci_includes_zero": ~((lo > 0) | (hi < 0)),
        f"policy_{b_name}_share": policy_b, "current": np.where(n > 0, current, ""),
        "recommend": np.where(n > 0, recommend, ""), "changed": (n > 0) & (recommend != current),
        "final": False,
    })


def round_gain(sums: np.ndarray, table: pd.DataFrame, role: str) -> tuple[float, float, float, float]:
    """(gain mean, gain SE, value of the current policy, value of the new choices) per decision deal."""
    b_name = ROLE[role].option1
    codes = table["class_code"].to_numpy()
    s = sums[codes].astype(np.float64)
    new_b = (table["recommend"] == b_name).to_numpy()
    gain = np.where(new_b, s[:, CS_D] - s[:, CS_D_POLICY_B], -s[:, CS_D_POLICY_B]).sum()
    gain_sq = np.where(new_b, s[:, CS_DD] - s[:, CS_DD_POLICY_B], s[:, CS_DD_POLICY_B]).sum()
    total = s[:, CS_N].sum()
    if total < 2:
        return math.nan, math.nan, math.nan, math.nan
    mean = gain / total
    se = math.sqrt(max(gain_sq - total * mean * mean, 0.0) / (total - 1) / total)
    before = (s[:, CS_A].sum() + s[:, CS_D_POLICY_B].sum()) / total
    return mean, se, before, before + mean


# ---- the iteration -----------------------------------------------------------------------------


@dataclasses.dataclass
class StrategyResult:
    rules: RuleSet
    policy: str
    deals: int
    seed: int
    rounds_asked: int
    score: tuple[int, ...]
    eldest: pd.DataFrame       # every eldest round's rows; the last eldest round's have final=True
    dealer: pd.DataFrame
    rounds: pd.DataFrame       # one row per round
    tuned_row: np.ndarray      # the tuned policy's parameter row after the last round
    converged: bool
    seconds: float
    chunk_deals: int = CHUNK_DEALS
    out_dir: Path | None = None

    def table(self, role: str) -> pd.DataFrame:
        return self.eldest if role == "eldest" else self.dealer

    def final(self, role: str) -> pd.DataFrame:
        frame = self.table(role)
        return frame[frame["final"]].reset_index(drop=True)

    @property
    def deals_per_s(self) -> float:
        played = float(self.rounds["deals"].sum()) if len(self.rounds) else 0.0
        return played / self.seconds if self.seconds > 0 else math.nan

    def meta(self) -> dict[str, Any]:
        return {"format": STRATEGY_FORMAT, "rules": self.rules.as_log_dict(), "policy": self.policy,
                "deals": self.deals, "chunk_deals": self.chunk_deals, "seed": self.seed, "rounds": self.rounds_asked,
                "rounds_run": int(len(self.rounds)), "converged": self.converged, "score": list(self.score),
                "measure": "net points per deal: the decider's side minus the others, first kick excluded",
                "seconds": round(self.seconds, 3), "deals_per_s": round(self.deals_per_s, 1),
                "version": __version__, "engine": source_fingerprint(), "command": " ".join(sys.argv),
                "created": datetime.now(UTC).isoformat(timespec="seconds")}

    def to_json(self) -> dict[str, Any]:
        def rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
            return json.loads(frame.to_json(orient="records"))

        return {**self.meta(), "out": None if self.out_dir is None else str(self.out_dir),
                "rounds_table": rows(self.rounds), "eldest": rows(self.final("eldest")),
                "dealer": rows(self.final("dealer")),
                "tuned": tuned_document(self.tuned_row)}


def check_base_policy(policy: str) -> tuple[int, np.ndarray]:
    kind, row = parse_policy(policy)
    if kind not in (K_HEURISTIC, K_TUNED, K_PIMC, K_ORACLE):
        raise PolicyError(f"strategy tunes the heuristic player's decisions: --policy must be heuristic[:key=value], "
                          f"tuned:RUN_DIR, or pimc[:key=value] / oracle to play the cards by search, not {policy!r}")
    if row[P_BEG] >= 0 or row[P_GIVE] >= 0:
        raise PolicyError(f"{policy!r} fixes the beg or give probability, so no table could change it: "
                          "leave beg= and give= out of the policy")
    return kind, row


def parse_side_score(text: str, rules: RuleSet) -> tuple[int, ...]:
    """``ELDEST:DEALER`` (sides; with 3 players ``ELDEST:NEXT:DEALER``), every score below the target."""
    shape = "ELDEST:DEALER" if rules.sides == 2 else "ELDEST:NEXT:DEALER"
    parts = text.replace(" ", "").split(":")
    if len(parts) != rules.sides or not all(p.isdigit() for p in parts):
        raise AnalysisError(f"bad score {text!r}: expected {shape} with {rules.sides} whole numbers, the eldest's side first")
    score = tuple(int(p) for p in parts)
    if any(s >= rules.target for s in score):
        raise AnalysisError(f"bad score {text!r}: every score must be below the target {rules.target}")
    return score


def side_scores(rules: RuleSet, score: tuple[int, ...] | None) -> np.ndarray:
    """int64[4] by side from a score given eldest's side first (the dealer is the last seat)."""
    out = np.zeros(4, dtype=np.int64)
    if score is not None:
        if len(score) != rules.sides or any(not 0 <= s < rules.target for s in score):
            raise ValueError(f"score {score}: give {rules.sides} scores below the target {rules.target}")
        out[:rules.sides] = score
    return out


def run_strategy(rules: RuleSet, policy: str = "heuristic", deals: int = DEFAULT_DEALS, seed: int = 1,
                 rounds: int = DEFAULT_ROUNDS, score: tuple[int, ...] | None = None, out_dir: Path | None = None,
                 threads: int | None = None, executor: Executor | None = None,
                 progress: Progress | None = None, chunk_deals: int = CHUNK_DEALS) -> StrategyResult:
    """Iterate best responses (eldest, dealer, eldest, ...) for up to `rounds` rounds of `deals`
    paired decision deals each; write the run folder if `out_dir` is given."""
    if deals < 1 or rounds < 1 or chunk_deals < 1:
        raise ValueError("deals, rounds and chunk_deals must be at least 1")
    kind, base = check_base_policy(policy)
    scores = side_scores(rules, score)
    tables = dict(zip(ROLES, tuned_tables(kind, base)))
    executor = executor if executor is not None else LocalExecutor(threads)
    frames: dict[str, list[pd.DataFrame]] = {"eldest": [], "dealer": []}
    summary: list[dict[str, Any]] = []
    converged = False
    start = time.perf_counter()
    for r in range(rounds):
        role = ROLES[r % 2]
        row = tuned_row(base, tables["eldest"], tables["dealer"])
        # The tables in the row, the cards played by the tuned (heuristic) player or by a search player.
        kinds = np.full(rules.players, kind if kind in (K_PIMC, K_ORACLE) else K_TUNED, dtype=np.int64)
        params = np.tile(row, (rules.players, 1))
        began = time.perf_counter()
        sums, counts = class_sums(rules, role, scores, kinds, params, CLASSING_HAND, deals, seed, r, executor,
                                  progress, chunk_deals)
        seconds = time.perf_counter() - began
        table = round_table(sums, counts, role, r + 1)
        gain, gain_se, before, after = round_gain(sums, table, role)
        changed = table[table["changed"]]["class_key"].tolist()
        sampled = table["n"].to_numpy() > 0
        flags = tables[role]
        flags[table["class_code"].to_numpy()[sampled]] = (table["recommend"] == ROLE[role].option1).to_numpy()[sampled]
        frames[role].append(table)
        summary.append({
            "round": r + 1, "role": role, "deals": int(counts[CT_DEALS]), "tries": int(counts[CT_TRIES]),
            "kick_ended": int(counts[CT_KICK_ENDED]), "decision_share": counts[CT_DEALS] / max(1, counts[CT_TRIES]),
            "classes_changed": len(changed), "changed": " ".join(changed), "gain_mean": gain, "gain_se": gain_se,
            "gain_ci_lo": gain - Z95 * gain_se, "gain_ci_hi": gain + Z95 * gain_se,
            "value_before": before, "value_after": after, "seconds": seconds,
            "deals_per_s": counts[CT_DEALS] / seconds if seconds > 0 else math.nan})
        if r >= 1 and not changed:
            converged = True
            break
    for role in ROLES:
        if frames[role]:
            frames[role][-1]["final"] = True
    empty = round_table(np.zeros((N_HAND_CLASSES, N_CLASS_SUMS), np.int64), np.zeros(N_COUNTS, np.int64), "dealer",
                        0).iloc[0:0]
    result = StrategyResult(
        rules, policy, deals, seed, rounds, tuple(int(x) for x in scores[:rules.sides]),
        pd.concat(frames["eldest"], ignore_index=True),
        pd.concat(frames["dealer"], ignore_index=True) if frames["dealer"] else empty,
        pd.DataFrame(summary), tuned_row(base, tables["eldest"], tables["dealer"]), converged,
        time.perf_counter() - start, chunk_deals)
    if out_dir is not None:
        write_run(result, out_dir)
    return result


def default_out_dir(rules: RuleSet, seed: int) -> Path:
    return Path("runs") / f"strategy-{rules.preset}-{rules.players}p-seed{seed}"


def draw_class_charts(finals: dict[str, pd.DataFrame], rules: RuleSet, score: tuple[int, ...] | list[int], deals: int,
                      seed: int, out_dir: Path) -> list[Path]:
    """The two class charts (beg - stand, give - run) from each role's final round (``StrategyResult.final``,
    or the run folder's table read back, its ``final`` rows)."""
    from ..charts import class_difference_heatmap, score_order

    paths = []
    for role in ROLES:
        final = finals[role]
        if len(final):
            paths.append(class_difference_heatmap(
                final, role, Path(out_dir) / ROLE[role].chart_file,
                f"{ROLE[role].diff} by {role}'s hand class: {rules.preset}, {rules.players} players, score "
                f"{':'.join(map(str, score))} ({score_order(len(score))}), round {int(final['round'].iloc[0])}, "
                f"{deals:,} decision deals per round, seed {seed}"))
    return paths


def write_run(result: StrategyResult, out_dir: Path) -> Path:
    """meta.json, eldest/dealer .parquet and .csv, rounds.csv, tuned.json and the two charts."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    result.out_dir = out_dir
    for role in ROLES:
        frame = result.table(role)
        frame.to_parquet(out_dir / f"{role}.parquet", index=False)
        frame.to_csv(out_dir / f"{role}.csv", index=False)
    result.rounds.to_csv(out_dir / "rounds.csv", index=False)
    extra = {"rules": result.rules.as_log_dict(), "score": list(result.score), "base_policy": result.policy,
             "seed": result.seed, "deals": result.deals, "rounds_run": int(len(result.rounds)),
             "converged": result.converged, "note": "stand/beg and give/run by hand class; classes not listed "
                                                   "follow the heuristic's rules"}
    (out_dir / TUNED_FILE).write_text(json.dumps(tuned_document(result.tuned_row, extra), indent=1) + "\n",
                                      encoding="utf-8")
    draw_class_charts({role: result.final(role) for role in ROLES}, result.rules, result.score, result.deals,
                      result.seed, out_dir)
    (out_dir / "meta.json").write_text(json.dumps(result.meta(), indent=1) + "\n", encoding="utf-8")
    return out_dir


def read_run(out_dir: Path) -> dict[str, Any]:
    """A strategy run folder as {"meta", "eldest", "dealer", "rounds", "tuned"} (frames for the tables)."""
    out_dir = Path(out_dir)
    meta_path = out_dir / "meta.json"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AnalysisError(f"{out_dir} is not a strategy run folder: no meta.json") from None
    if meta.get("format") != STRATEGY_FORMAT:
        raise AnalysisError(f"{meta_path} is not an {STRATEGY_FORMAT} file")
    return {"meta": meta, "eldest": pd.read_parquet(out_dir / "eldest.parquet"),
            "dealer": pd.read_parquet(out_dir / "dealer.parquet"), "rounds": pd.read_csv(out_dir / "rounds.csv"),
            "tuned": json.loads((out_dir / TUNED_FILE).read_text(encoding="utf-8"))}
