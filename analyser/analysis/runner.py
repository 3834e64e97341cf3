"""Parallel, reproducible, resumable simulation runs.

A run of N deals is cut into chunks (``simulate.chunk_sizes``); chunk k plays from its
own streams (``simulate.chunk_rngs(seed, k)``) and starts a fresh match, so chunks are
independent and a seed gives the same counters on any number of threads or cluster
workers (``executor``: local threads call the nogil kernel; a Dask cluster runs chunks
as tasks). Each finished chunk is written here, on the client, atomically (temp file +
rename) as one Parquet row, ``RUN_DIR/chunks/chunk-KKKKKK.parquet``, so an interrupted run keeps
every finished chunk and a resumed run plays only the missing ones. Totals are integer
sums, exact in any order, so the summary is byte-identical whatever the thread count
or however often the run was interrupted.

Standard errors come from batch means: a chunk is played in batches of
``batch_lines`` lines, and beside each counter it keeps the sum of squared batch
totals and of batch totals times batch lines. A per-deal rate then gets the ratio
estimator's standard error, which also allows for deals of one match being related.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import math
import os
import threading
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from .. import __version__
from ..engine.bits import private_zeros
from ..engine.deal import (
    N_STATS, S_BEGS, S_BUNCH_VOTES, S_BUNCHED, S_DEALER_POINTS, S_DEALS, S_EXHAUSTED, S_GIVES, S_LINES, S_MATCHES,
    S_NET_SQ, S_NET_SUM, S_OTHER_POINTS, S_PLAYED, S_RUNS, S_RUNS_HIST, S_TRICKS, new_match_state, simulate_lines,
)
from ..engine.layout import N_WHY, WHY
from ..game.errors import AllFoursError
from ..work.executor import Executor, LocalExecutor, Task, source_fingerprint
from ..players.policy import seat_policies
from ..game.rules import RuleSet, rules_from_log
from ..players.simulate import NO_EVENTS, NO_META, chunk_rngs, chunk_sizes
from .stats import Z95, percent, percent_ci, wilson_ci
from ..record.vocabulary import ELDEST

META_FORMAT = "allfours-run/1"
SUMMARY_FORMAT = "allfours-summary/1"


class RunError(AllFoursError):
    """A run folder that cannot be created, read or resumed as asked."""


def _why(w: int) -> str:
    return WHY[w].replace("-", "_")


def _counter_names() -> list[str]:
    names = [f"reserved_{i}" for i in range(N_STATS)]  # slots the kernel leaves free; kept so nothing is lost
    for index, name in ((S_LINES, "lines"), (S_DEALS, "deals"), (S_RUNS, "runs"), (S_EXHAUSTED, "exhausted"),
                        (S_BUNCH_VOTES, "bunch_votes"), (S_BUNCHED, "bunched"), (S_BEGS, "begs"), (S_GIVES, "gives"),
                        (S_TRICKS, "tricks"), (S_MATCHES, "matches"), (S_PLAYED, "played"), (S_NET_SUM, "net_sum"),
                        (S_NET_SQ, "net_sq")):
        names[index] = name
    for w in range(N_WHY):
        names[S_DEALER_POINTS + w] = f"dealer_points_{_why(w)}"
        names[S_OTHER_POINTS + w] = f"other_points_{_why(w)}"
    for k in range(N_STATS - S_RUNS_HIST):
        names[S_RUNS_HIST + k] = f"runs_hist_{k}"
    return names


# Per-batch series: the kernel's counters, then each side's points over all categories.
COUNTERS = _counter_names()
SERIES = COUNTERS + ["dealer_points", "other_points"]
DEALER_TOTAL, OTHER_TOTAL = N_STATS, N_STATS + 1
N_SERIES = len(SERIES)


def batch_lines_for(deals: int) -> int:
    """Lines per batch for the standard errors: 1000, fewer for small runs (about 32 batches)."""
    return max(50, min(1000, deals // 32))


def engine_fingerprint() -> str:
    """Hash of the sources that decide what a chunk plays (a changed engine plays other deals)."""
    return source_fingerprint()


@dataclasses.dataclass(frozen=True)
class RunSpec:
    """Everything that decides a run's results (and nothing that does not, like threads)."""

    rules: RuleSet
    policies: tuple[str, ...]
    seed: int
    deals: int
    chunk_size: int
    batch_lines: int

    @classmethod
    def new(cls, rules: RuleSet, policies: Iterable[str], seed: int, deals: int, chunk_size: int) -> RunSpec:
        spec = cls(rules, tuple(policies), seed, deals, chunk_size, batch_lines_for(deals))
        spec.policy_arrays()  # fail early on a bad policy
        return spec

    def sizes(self) -> list[int]:
        return chunk_sizes(self.deals, self.chunk_size)

    def policy_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        return seat_policies(list(self.policies), self.rules.players)

    def describe(self) -> dict[str, Any]:
        return {"rules": self.rules.as_log_dict(), "policies": list(self.policies), "seed": self.seed,
                "deals": self.deals, "chunk_size": self.chunk_size, "batch_lines": self.batch_lines}

    def to_meta(self) -> dict[str, Any]:
        return {"format": META_FORMAT, **self.describe(), "chunks": len(self.sizes()), "version": __version__,
                "engine": engine_fingerprint(), "created": datetime.now(UTC).isoformat(timespec="seconds")}

    @classmethod
    def from_meta(cls, meta: dict[str, Any]) -> RunSpec:
        if meta.get("format") != META_FORMAT:
            raise RunError(f"meta.json is not {META_FORMAT}")
        try:
            spec = cls(rules_from_log(meta["rules"]), tuple(str(p) for p in meta["policies"]), int(meta["seed"]),
                       int(meta["deals"]), int(meta["chunk_size"]), int(meta["batch_lines"]))
            spec.policy_arrays()
        except KeyError as err:
            raise RunError(f"meta.json lacks {err}") from None
        except (TypeError, ValueError) as err:  # RulesError and PolicyError are ValueErrors
            raise RunError(f"meta.json: {err}") from None
        if spec.deals < 1 or spec.chunk_size < 1 or spec.batch_lines < 1 or spec.seed < 0:
            raise RunError("meta.json has out-of-range deals, chunk_size, batch_lines or seed")
        return spec


@dataclasses.dataclass
class ChunkResult:
    """One chunk's counters, with the batch sums the standard errors need."""

    index: int
    deals_asked: int
    batches: int
    counts: np.ndarray        # int64[N_SERIES]
    batch_sq: np.ndarray      # sum over batches of batch total squared
    batch_lines_x: np.ndarray  # sum over batches of batch lines times batch total


@dataclasses.dataclass
class Totals:
    """Exact integer sums over chunks (order does not matter)."""

    chunks: int = 0
    batches: int = 0
    counts: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(N_SERIES, dtype=np.int64))
    batch_sq: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(N_SERIES, dtype=np.int64))
    batch_lines_x: np.ndarray = dataclasses.field(default_factory=lambda: np.zeros(N_SERIES, dtype=np.int64))

    def add(self, chunk: ChunkResult) -> None:
        self.chunks += 1
        self.batches += chunk.batches
        self.counts += chunk.counts
        self.batch_sq += chunk.batch_sq
        self.batch_lines_x += chunk.batch_lines_x


def play_chunk(spec: RunSpec, index: int, size: int, kinds: np.ndarray, params: np.ndarray,
               stop: threading.Event | None = None, progress: Callable[[int], None] | None = None) -> ChunkResult | None:
    """Play chunk `index` (`size` lines) in batches; None if `stop` was set before it finished."""
    rules_array = spec.rules.as_array()
    deck_rng, rng = chunk_rngs(spec.seed, index)
    mstate = new_match_state(spec.rules.players)
    batch = private_zeros(N_STATS, np.int64)  # written at every line: on cache lines of its own (threads)
    series = np.zeros(N_SERIES, dtype=np.int64)
    counts = np.zeros(N_SERIES, dtype=np.int64)
    batch_sq = np.zeros(N_SERIES, dtype=np.int64)
    batch_lines_x = np.zeros(N_SERIES, dtype=np.int64)
    batches = 0
    left = size
    while left:
        if stop is not None and stop.is_set():
            return None
        batch[:] = 0
        done = simulate_lines(rules_array, min(left, spec.batch_lines), mstate, kinds, params, deck_rng, rng,
                              NO_EVENTS, NO_META, batch)
        if done <= 0:
            raise RuntimeError("the kernel played no line")
        series[:N_STATS] = batch
        series[DEALER_TOTAL] = batch[S_DEALER_POINTS:S_DEALER_POINTS + N_WHY].sum()
        series[OTHER_TOTAL] = batch[S_OTHER_POINTS:S_OTHER_POINTS + N_WHY].sum()
        counts += series
        batch_sq += series * series
        batch_lines_x += done * series
        batches += 1
        left -= done
        if progress is not None:
            progress(done)
    return ChunkResult(index, size, batches, counts, batch_sq, batch_lines_x)


# ---- the run folder -------------------------------------------------------------------------

def chunk_path(run_dir: Path, index: int) -> Path:
    return run_dir / "chunks" / f"chunk-{index:06d}.parquet"


def _write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that it is either complete or absent, even after a kill."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def write_chunk(run_dir: Path, chunk: ChunkResult) -> None:
    columns: dict[str, Any] = {"chunk": [chunk.index], "deals_asked": [chunk.deals_asked], "batches": [chunk.batches]}
    for prefix, values in (("", chunk.counts), ("batch_sq_", chunk.batch_sq), ("batch_lines_x_", chunk.batch_lines_x)):
        for name, value in zip(SERIES, values.tolist()):
            columns[prefix + name] = [value]
    table = pa.table({name: pa.array(v, type=pa.int64()) for name, v in columns.items()})
    sink = pa.BufferOutputStream()
    # One row of ints: statistics, dictionaries and compression would only add bytes.
    pq.write_table(table, sink, compression="none", use_dictionary=False, write_statistics=False,
                   write_page_index=False, store_schema=False)
    _write_atomic(chunk_path(run_dir, chunk.index), sink.getvalue().to_pybytes())


def read_chunk(path: Path) -> ChunkResult:
    try:
        rows = pq.read_table(path).to_pylist()
        row = rows[0]
        if len(rows) != 1:
            raise KeyError("one row")
        return ChunkResult(
            int(row["chunk"]), int(row["deals_asked"]), int(row["batches"]),
            np.array([row[n] for n in SERIES], dtype=np.int64),
            np.array([row["batch_sq_" + n] for n in SERIES], dtype=np.int64),
            np.array([row["batch_lines_x_" + n] for n in SERIES], dtype=np.int64),
        )
    except (OSError, pa.ArrowException, KeyError, IndexError) as err:
        raise RunError(f"{path}: not a readable chunk file ({err}); delete it and resume") from None


def clear_run(run_dir: Path) -> None:
    """Remove what a run writes in `run_dir` (meta.json, summary, chunk files); other files stay."""
    for name in ("meta.json", "summary.json", "summary.csv"):
        (run_dir / name).unlink(missing_ok=True)
    folder = run_dir / "chunks"
    if folder.is_dir():
        for path in [*folder.glob("chunk-*.parquet"), *folder.glob(".*.tmp")]:
            path.unlink()


def create_run(run_dir: Path, spec: RunSpec, replace: bool = False) -> None:
    """Make a new run folder with its meta.json; refuses a non-empty folder, unless `replace`
    (the files of an earlier run there are removed first)."""
    if replace and run_dir.is_dir():
        clear_run(run_dir)
    if run_dir.exists() and (not run_dir.is_dir() or any(p.name != "chunks" or any(p.iterdir())
                                                          for p in run_dir.iterdir())):
        if replace and run_dir.is_dir():
            others = sorted(str(p.relative_to(run_dir)) for p in run_dir.rglob("*") if p.is_file())
            raise RunError(f"{run_dir} holds files that are not a run's ({', '.join(others[:3])}): "
                           "move them or give another --out")
        raise RunError(f"{run_dir} already exists and is not empty: use --resume {run_dir} or another --out")
    (run_dir / "chunks").mkdir(parents=True, exist_ok=True)
    _write_atomic(run_dir / "meta.json", (json.dumps(spec.to_meta(), indent=2) + "\n").encode())


def load_meta(run_dir: Path) -> dict[str, Any]:
    path = run_dir / "meta.json"
    if not path.is_file():
        raise RunError(f"{run_dir} is not a run folder (no meta.json)")
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise RunError(f"cannot read {path}: {err}") from None
    if not isinstance(meta, dict):
        raise RunError(f"{path}: expected a JSON object")
    return meta


def open_run(run_dir: Path) -> tuple[RunSpec, bool]:
    """The spec of an existing run folder, and whether the engine is still the one that started it."""
    meta = load_meta(run_dir)
    return RunSpec.from_meta(meta), meta.get("engine") == engine_fingerprint()


def load_done(run_dir: Path, spec: RunSpec) -> tuple[Totals, list[int]]:
    """Totals of the chunks already on disk, and the indices still to play."""
    sizes = spec.sizes()
    folder = run_dir / "chunks"
    folder.mkdir(exist_ok=True)
    for stale in folder.glob(".*.tmp"):  # left by a kill in the middle of a write
        stale.unlink()
    known = {chunk_path(run_dir, k).name for k in range(len(sizes))}
    strays = sorted(p.name for p in folder.iterdir() if p.name not in known)
    if strays:
        raise RunError(f"{folder} holds files that are not chunks of this run: {', '.join(strays[:3])}")
    totals = Totals()
    missing = []
    for index, size in enumerate(sizes):
        path = chunk_path(run_dir, index)
        if not path.exists():
            missing.append(index)
            continue
        chunk = read_chunk(path)
        if chunk.index != index or chunk.deals_asked != size or chunk.counts[S_LINES] != size:
            raise RunError(f"{path} does not belong to this run (chunk {chunk.index}, {chunk.deals_asked} deals)")
        totals.add(chunk)
    return totals, missing


# ---- playing chunks in parallel -------------------------------------------------------------

def play_chunks(spec: RunSpec, indices: list[int], executor: Executor | int, run_dir: Path | None = None,
                totals: Totals | None = None, progress: Callable[[int], None] | None = None,
                on_chunk: Callable[[ChunkResult], None] | None = None) -> Totals:
    """Play chunks `indices` on `executor` (or that many local threads), writing each to `run_dir`.

    Adds them into `totals`. Each chunk is written here, on the client, as it arrives, then
    `on_chunk` is called. On any exception (Ctrl-C, a failed task, or one raised by
    `on_chunk`) unfinished chunks are dropped and the exception propagates.
    """
    totals = totals if totals is not None else Totals()
    if isinstance(executor, int):
        executor = LocalExecutor(executor)
    kinds, params = spec.policy_arrays()
    sizes = spec.sizes()

    def finished(task: Task, chunk: ChunkResult) -> None:
        if run_dir is not None:
            write_chunk(run_dir, chunk)
        totals.add(chunk)
        if on_chunk is not None:
            on_chunk(chunk)

    tasks = (Task(f"chunk-{k:06d}", (spec, k, sizes[k], kinds, params), sizes[k]) for k in indices)
    executor.run(play_chunk, tasks, finished, progress)
    return totals


# ---- the summary ----------------------------------------------------------------------------

def _estimate(value: float, se: float | None, numerator: int, denominator: int, per: str) -> dict[str, Any]:
    ci = None if se is None else [value - Z95 * se, value + Z95 * se]
    return {"estimate": value, "se": se, "ci95": ci, "numerator": numerator, "denominator": denominator, "per": per}


def proportion(k: int, n: int, per: str) -> dict[str, Any] | None:
    """k of n with the binomial standard error; ``ci95_wilson`` is the Wilson interval (inside [0, 1])."""
    if n <= 0:
        return None
    p = k / n
    return {**_estimate(p, math.sqrt(p * (1 - p) / n), k, n, per), "ci95_wilson": list(wilson_ci(k, n))}


def per_line(totals: Totals, index: int) -> dict[str, Any] | None:
    """Series `index` per line, with the batch-means ratio estimator's standard error."""
    y, x = int(totals.counts[index]), int(totals.counts[S_LINES])
    if x <= 0:
        return None
    n = totals.batches
    se = None
    if n >= 2:
        # X^2 * sum (y_b - R x_b)^2 with R = Y/X, exactly in Python ints.
        scaled = (x * x * int(totals.batch_sq[index]) - 2 * x * y * int(totals.batch_lines_x[index])
                  + y * y * int(totals.batch_sq[S_LINES]))
        se = math.sqrt(n / (n - 1) * max(scaled, 0)) / (x * x)
    return _estimate(y / x, se, y, x, "deal")


def summarize(spec: RunSpec, totals: Totals) -> dict[str, Any]:
    """The run's totals and derived rates; depends only on the spec and the integer totals."""
    if totals.chunks != len(spec.sizes()) or int(totals.counts[S_LINES]) != spec.deals:
        raise RunError(f"the run is incomplete: {totals.chunks} of {len(spec.sizes())} chunks")
    c = totals.counts
    rates: dict[str, Any] = {
        "beg_rate": proportion(int(c[S_BEGS]), int(c[S_DEALS]), "hand dealt (redeals included)"),
        "give_rate": proportion(int(c[S_GIVES]), int(c[S_BEGS]), ELDEST.option1),
        "played_rate": proportion(int(c[S_PLAYED]), int(c[S_LINES]), "deal"),
        "match_end_rate": proportion(int(c[S_MATCHES]), int(c[S_LINES]), "deal"),
        "hands_dealt_per_deal": per_line(totals, S_DEALS),
        "runs_per_deal": per_line(totals, S_RUNS),
        "exhausted_per_deal": per_line(totals, S_EXHAUSTED),
        "net_points_per_deal": per_line(totals, S_NET_SUM),
        "dealer_points_per_deal": per_line(totals, DEALER_TOTAL),
        "other_points_per_deal": per_line(totals, OTHER_TOTAL),
    }
    lines = int(c[S_LINES])
    mean = int(c[S_NET_SUM]) / lines
    rates["net_points_per_deal"]["sd"] = math.sqrt(max(int(c[S_NET_SQ]) / lines - mean * mean, 0.0))
    for w in range(N_WHY):
        rates[f"dealer_points_{_why(w)}_per_deal"] = per_line(totals, S_DEALER_POINTS + w)
    for w in range(N_WHY):
        rates[f"other_points_{_why(w)}_per_deal"] = per_line(totals, S_OTHER_POINTS + w)
    return {
        "format": SUMMARY_FORMAT,
        **spec.describe(),
        "chunks": totals.chunks,
        "batches": totals.batches,
        "totals": {name: int(v) for name, v in zip(SERIES, c.tolist()) if not name.startswith("reserved_")},
        "rates": rates,
    }


def summary_json(summary: dict[str, Any]) -> str:
    return json.dumps(summary, indent=2) + "\n"


def summary_csv(summary: dict[str, Any]) -> str:
    """One row per total and per rate: section, name, value, se, ci_low, ci_high, per."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["section", "name", "value", "se", "ci_low", "ci_high", "per"])
    for name, value in summary["totals"].items():
        writer.writerow(["total", name, value, "", "", "", ""])
    for name, rate in summary["rates"].items():
        if rate is None:
            writer.writerow(["rate", name, "", "", "", "", ""])
            continue
        ci = rate["ci95"] or ["", ""]
        se = "" if rate["se"] is None else repr(rate["se"])
        writer.writerow(["rate", name, repr(rate["estimate"]), se, *(repr(v) if v != "" else "" for v in ci),
                         rate["per"]])
    return buffer.getvalue()


def write_summary(run_dir: Path, summary: dict[str, Any]) -> None:
    _write_atomic(run_dir / "summary.json", summary_json(summary).encode())
    _write_atomic(run_dir / "summary.csv", summary_csv(summary).encode())


def run(spec: RunSpec, executor: Executor | int, run_dir: Path | None = None, resume: bool = False,
        progress: Callable[[int], None] | None = None, on_start: Callable[[int], None] | None = None,
        on_chunk: Callable[[ChunkResult], None] | None = None, replace: bool = False) -> dict[str, Any]:
    """Play a run (all of it, or with `resume` the chunks missing from `run_dir`) and summarize it.

    `executor` is where chunks run (``executor.open_executor``), or a number of local threads. A new
    run needs `run_dir` absent or empty, or `replace` (an earlier run's files there are removed).
    `on_start` gets the deals already done.
    """
    if resume:
        assert run_dir is not None
        totals, missing = load_done(run_dir, spec)
    else:
        if run_dir is not None:
            create_run(run_dir, spec, replace)
        totals, missing = Totals(), list(range(len(spec.sizes())))
    if on_start is not None:
        on_start(int(totals.counts[S_LINES]))
    play_chunks(spec, missing, executor, run_dir, totals, progress, on_chunk)
    summary = summarize(spec, totals)
    if run_dir is not None:
        write_summary(run_dir, summary)
    return summary


RATES = ("beg_rate", "give_rate")  # the summary's rates (the rest are points or counts per deal)


def summary_table(summary: dict[str, Any]) -> str:
    """A short human table of the main rates."""
    rules = summary["rules"]
    title = (f"{rules['preset']}, {rules['players']} players, policy {' / '.join(summary['policies'])}: "
             f"{summary['deals']:,} deals, seed {summary['seed']}")
    lines = [title]
    shown = [("beg_rate", "beg rate (per hand dealt)"), ("give_rate", "give rate (per beg)"),
             ("runs_per_deal", "runs per deal"), ("exhausted_per_deal", "exhausted packs per deal"),
             ("dealer_points_per_deal", "dealer's side points per deal"),
             ("other_points_per_deal", "other sides' points per deal"),
             ("net_points_per_deal", "net points per deal (dealer - others)")]
    shown += [(f"dealer_points_{_why(w)}_per_deal", f"  dealer {WHY[w]}") for w in range(N_WHY)]
    shown += [(f"other_points_{_why(w)}_per_deal", f"  others {WHY[w]}") for w in range(N_WHY)]
    for key, label in shown:
        rate = summary["rates"].get(key)
        if rate is None:
            lines.append(f"{label:<40} n/a")
        elif rate["se"] is None:
            lines.append(f"{label:<40} {rate['estimate']:9.4f}")
        else:
            # A proportion gets its Wilson interval; a count per deal cannot be below 0.
            low, high = rate.get("ci95_wilson") or rate["ci95"]
            if key != "net_points_per_deal":
                low = max(low, 0.0)
            if key in RATES:  # a rate: percent, one decimal, as every text output prints one
                lines.append(f"{label:<40} {percent(rate['estimate']):>9} ± {percent(rate['se'])}   95% CI "
                             f"{percent_ci(low, high)}")
            else:
                lines.append(f"{label:<40} {rate['estimate']:9.4f} ± {rate['se']:.4f}   95% CI [{low:.4f}, {high:.4f}]")
    return "\n".join(lines)


def resume_conflicts(spec: RunSpec, *, preset: str | None = None, players: int | None = None,
                     settings: list[str] | None = None, policies: list[str] | None = None, seed: int | None = None,
                     deals: int | None = None, chunk_size: int | None = None) -> list[str]:
    """What the options given with --resume contradict in the run's meta.json (None: not given)."""
    meta_rules = spec.rules.as_log_dict()
    problems = []
    if preset is not None and preset != spec.rules.preset:
        problems.append(f"--rules {preset} (run: {spec.rules.preset})")
    if players is not None and players != spec.rules.players:
        problems.append(f"--players {players} (run: {spec.rules.players})")
    if settings:
        from ..game.rules import make_rules, parse_settings

        base = {k: v for k, v in meta_rules.items() if k not in ("preset", "players")}
        wanted = parse_settings(settings)
        if make_rules(spec.rules.preset, spec.rules.players, {**base, **wanted}) != spec.rules:
            was = ", ".join(f"{k}={meta_rules[k]}" for k in wanted)
            problems.append(f"--set {' '.join(settings)} (run: {was})")
    if policies is not None:
        kinds, params = seat_policies(policies, spec.rules.players)
        run_kinds, run_params = spec.policy_arrays()
        if not (np.array_equal(kinds, run_kinds) and np.array_equal(params, run_params)):
            problems.append(f"--policy {' '.join(policies)} (run: {' '.join(spec.policies)})")
    for flag, given, stored in (("--seed", seed, spec.seed), ("--deals", deals, spec.deals),
                                ("--chunk-size", chunk_size, spec.chunk_size)):
        if given is not None and given != stored:
            problems.append(f"{flag} {given} (run: {stored})")
    return problems
