"""Match equity: the probability that a side wins the match from every score.

What is stored. For two sides (2 or 4 players; 3 players is rejected), the table is
``p[a, b]`` = P(the side about to deal wins the match | the dealer's side has ``a``
points, the other side ``b``, before the deal), for 0 <= a, b < target. Storing it
from the dealer's side's point of view uses two symmetries of a game where every
seat plays the same policy: the seat numbers themselves do not matter (with 4
players dealer seats d and d + 2 are the same situation), and swapping the sides is
the same as passing the deal. So P(side s wins | scores, dealer's side d) is
``p[s's score, other's]`` if s == d, else ``1 - p[other's score, s's]``.

How it is estimated (dynamic programming over one-deal transitions). From every
cell (a, b), ``deals_per_cell`` single deals are played (the dealer's side starts
with a, the other with b; points in strict order, a deal stopping the moment a side
reaches the target), and each deal's ending is counted: the dealer's side won in
the deal, the other side won, or the new score (a2, b2). Simulating from every cell
gets the score-dependence right (mid-deal wins, score-aware policies). After a deal
that does not end the match the deal passes to the other side, so

    p[a, b] = P(dealer wins in the deal) + sum P(a2, b2) * (1 - p[b2, a2]),

a linear system ``(I + M) p = c`` over the target**2 cells, solved exactly (a deal
that scores nothing links (a, b) and (b, a), so cells are not solved one by one).

Uncertainty (delta method). Each cell's counts are multinomial; to first order the
error of p[x] is sum over cells y of ((I + M)^-1)[x, y] times the error of cell y's
mean continuation value g (1 for a dealer win, 0 for a loss, 1 - p[b2, a2] for a new
score), whose variance is Var_y(g) / deals_per_cell. The reported 95% interval is
p +- 1.96 * sqrt(that sum), cut to [0, 1]. Every cell's estimate pools the deals of
all the cells a match from it passes through, so far fewer deals are needed than
playing whole matches from every cell; ``simulate_match_wins`` plays whole matches,
as the independent check the tests use.

Cache. A table is written to a cache folder, by default ``equity/`` in the user's cache
(``analyser.work.cache``: ``~/.cache/allfours/equity``, or under ``$ALLFOURS_CACHE_DIR``),
never into the working folder or the source tree: ``<preset>-<players>p-<policy>-<hash>``
``.parquet`` (one row per cell: scores, p, se, CI), the same as ``.csv``, and a ``.json``
of what it was made from: rules, the policy's parameters, deals per cell, seed and a
digest of the engine's sources. A table is reused only when all of these match (the
what-if takes the largest matching table of any size and seed), so a change to the
kernels or the policies never reads an out-of-date table. A table the cache folder lacks
is also looked for, read-only, among the tables shipped in the repository
(``SHIPPED_DIR``, ``results/equity``).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from ..defaults import EQUITY_DEALS_PER_CELL
from ...work.cache import cache_root
from ...engine.bits import rng_state
from ...engine.decisions import play_matches, sample_transitions
from ...work.executor import Executor, LocalExecutor, Task
from ...players.policy import parse_policy, stored_row
from ...game.rules import RuleSet
from .. import AnalysisError
from ..stats import Z95

EQUITY_FORMAT = 1  # bump when the method or the file layout changes: old caches are ignored
DEFAULT_DEALS_PER_CELL = EQUITY_DEALS_PER_CELL
# The tables shipped with the repository, looked in (never written) when the cache lacks one;
# absent from an installed package.
SHIPPED_DIR = Path(__file__).resolve().parents[3] / "results" / "equity"
TASK_DEALS = 250_000  # deals per task (a run of cells): large enough that scheduling costs little
Progress = Callable[[int], None]


@dataclasses.dataclass(frozen=True)
class EquityTable:
    """P(the dealer's side wins the match) by (dealer's side score, other side's score)."""

    rules: RuleSet
    policy: str
    deals_per_cell: int
    seed: int
    p: np.ndarray   # float64[target, target]
    se: np.ndarray  # its standard error, same shape

    @property
    def target(self) -> int:
        return self.rules.target

    def ci95(self) -> tuple[np.ndarray, np.ndarray]:
        return np.clip(self.p - Z95 * self.se, 0.0, 1.0), np.clip(self.p + Z95 * self.se, 0.0, 1.0)

    @property
    def max_half_width(self) -> float:
        return float(Z95 * self.se.max())

    def win_prob(self, scores: list[int], dealer_side: int, side: int) -> float:
        """P(`side` wins the match) with two-side `scores` before a deal by `dealer_side`."""
        other = 1 - side
        if side == dealer_side:
            return float(self.p[scores[side], scores[other]])
        return float(1.0 - self.p[scores[other], scores[side]])

    def to_frame(self) -> pd.DataFrame:
        t = self.target
        a, b = np.meshgrid(np.arange(t), np.arange(t), indexing="ij")
        lo, hi = self.ci95()
        return pd.DataFrame({
            "dealer_score": a.ravel(), "other_score": b.ravel(), "p_dealer_wins": self.p.ravel(),
            "se": self.se.ravel(), "ci95_lo": lo.ravel(), "ci95_hi": hi.ravel(),
        })

    def to_json(self) -> dict:
        lo, hi = self.ci95()
        return {
            "rules": self.rules.as_log_dict(), "policy": self.policy, "deals_per_cell": self.deals_per_cell,
            "seed": self.seed, "measure": "P(dealer's side wins the match)", "max_ci95_half_width": self.max_half_width,
            "table": [
                {"dealer_score": a, "other_score": b, "p": float(self.p[a, b]),
                 "ci95": [float(lo[a, b]), float(hi[a, b])]}
                for a in range(self.target) for b in range(self.target)
            ],
        }


def check_two_sides(rules: RuleSet) -> None:
    if rules.sides != 2:
        raise AnalysisError(f"match equity tables need two sides (2 or 4 players), not {rules.players} players")


def cell_rngs(seed: int, cells: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """Card and choice streams of one cell: its own child of SeedSequence(seed)."""
    cards, choices = np.random.SeedSequence(seed).spawn(cells)[index].spawn(2)
    return rng_state(cards), rng_state(choices)


def transition_counts(rules: RuleSet, kinds: np.ndarray, params: np.ndarray, deals_per_cell: int, seed: int,
                      first: int, last: int, stop: threading.Event | None = None,
                      progress: Progress | None = None) -> tuple[int, np.ndarray] | None:
    """(first, rows first..last-1 of the transition counts): one task, a run of cells, each on
    its own streams; None if `stop` was set before it finished."""
    t = rules.target
    rules_array = rules.as_array()
    counts = np.zeros((last - first, t * t + 2), dtype=np.int64)
    for x in range(first, last):
        if stop is not None and stop.is_set():
            return None
        deck_rng, rng = cell_rngs(seed, t * t, x)
        sample_transitions(rules_array, x // t, x % t, deals_per_cell, kinds, params, deck_rng, rng, counts[x - first])
        if progress is not None:
            progress(1)
    return first, counts


def cells_per_task(deals_per_cell: int, cells: int, parallelism: int) -> int:
    """Cells in one task: about TASK_DEALS deals (cheap to schedule on a cluster), yet at
    least four tasks per worker thread so that none is left idle at the end."""
    return max(1, min(-(-TASK_DEALS // deals_per_cell), cells // (4 * parallelism)))


def estimate_transitions(rules: RuleSet, policy: str, deals_per_cell: int, seed: int,
                         progress: Progress | None = None, threads: int | None = None,
                         executor: Executor | None = None) -> np.ndarray:
    """counts[x, y]: deals from cell x = a * T + b ending at cell y, or (y = T*T) won by
    the dealer's side, or (y = T*T + 1) won by the other side.

    Runs on `executor` (default: `threads` local threads); the same on any."""
    check_two_sides(rules)
    t = rules.target
    cells = t * t
    kind, row = parse_policy(policy)
    kinds = np.full(rules.players, kind, dtype=np.int64)
    params = np.tile(row, (rules.players, 1))
    executor = executor if executor is not None else LocalExecutor(threads)
    step = cells_per_task(deals_per_cell, cells, executor.parallelism)
    counts = np.zeros((cells, cells + 2), dtype=np.int64)

    def finished(task: Task, result: tuple[int, np.ndarray]) -> None:
        first, rows = result
        counts[first:first + len(rows)] = rows  # placed by cell: the order tasks finish in does not matter

    tasks = (Task(f"cells-{lo:05d}", (rules, kinds, params, deals_per_cell, seed, lo, min(lo + step, cells)),
                  min(lo + step, cells) - lo) for lo in range(0, cells, step))
    executor.run(transition_counts, tasks, finished, progress)
    return counts


def solve_equity(counts: np.ndarray, target: int) -> tuple[np.ndarray, np.ndarray]:
    """p[a, b] and its delta-method standard error from transition counts (module docstring)."""
    t = target
    cells = t * t
    n = counts.sum(axis=1).astype(np.float64)
    prob = counts / n[:, None]
    flip = np.arange(cells).reshape(t, t).T.ravel()  # cell (a, b) -> (b, a): the next dealer's view
    m = prob[:, :cells][:, flip]
    c = prob[:, cells] + prob[:, :cells].sum(axis=1)
    inverse = np.linalg.inv(np.eye(cells) + m)
    p = inverse @ c
    g = np.concatenate([1.0 - p[flip], [1.0, 0.0]])
    mean_g = prob @ g
    var_g = np.maximum(prob @ (g * g) - mean_g * mean_g, 0.0)
    var_p = (inverse * inverse) @ (var_g / n)
    return p.reshape(t, t), np.sqrt(var_p).reshape(t, t)


def estimate_equity(rules: RuleSet, policy: str, deals_per_cell: int = DEFAULT_DEALS_PER_CELL, seed: int = 1,
                    progress: Progress | None = None, threads: int | None = None,
                    executor: Executor | None = None) -> EquityTable:
    """The match-equity table of a rule set with every seat playing `policy`."""
    counts = estimate_transitions(rules, policy, deals_per_cell, seed, progress, threads, executor)
    p, se = solve_equity(counts, rules.target)
    return EquityTable(rules, policy, deals_per_cell, seed, p, se)


def simulate_match_wins(rules: RuleSet, policy: str, scores: list[int], dealer: int, matches: int,
                        seed: int) -> np.ndarray:
    """Matches won by each side, playing `matches` whole matches from `scores` with `dealer` to deal."""
    kind, row = parse_policy(policy)
    kinds = np.full(rules.players, kind, dtype=np.int64)
    params = np.tile(row, (rules.players, 1))
    deck_rng, rng = cell_rngs(seed, 1, 0)
    start = np.zeros(4, dtype=np.int64)
    start[: len(scores)] = scores
    wins = np.zeros(4, dtype=np.int64)
    play_matches(rules.as_array(), dealer, start, matches, kinds, params, deck_rng, rng, wins)
    return wins[: rules.sides]


# --- the cache ------------------------------------------------------------------


def equity_folder(out_dir: Path | None = None) -> Path:
    """The cache folder of equity tables: `out_dir` if given, else ``equity/`` in the user's cache."""
    return Path(out_dir) if out_dir is not None else cache_root() / "equity"


def engine_digest() -> str:
    """Hash of the engine's sources: a table made by other kernels or policies is not reused."""
    digest = hashlib.sha256()
    engine = Path(__file__).resolve().parents[2] / "engine"
    for path in sorted(engine.rglob("*.py")):  # the solver's package too
        digest.update(path.relative_to(engine).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cache_key(rules: RuleSet, policy: str) -> dict:
    """What a table depends on, apart from its sample size and seed."""
    kind, row = parse_policy(policy)
    return {"format": EQUITY_FORMAT, "engine": engine_digest(), "rules": rules.as_log_dict(), "policy_kind": kind,
            "policy_params": stored_row(row)}


def cache_stem(rules: RuleSet, policy: str, deals_per_cell: int, seed: int) -> str:
    """File name: preset, players, policy name and a hash of the parameters (not of the engine:
    a table re-estimated after an engine change replaces the old one)."""
    key = {**cache_key(rules, policy), "deals_per_cell": deals_per_cell, "seed": seed}
    del key["engine"]
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:12]
    name = policy.partition(":")[0].strip().lower()
    return f"{rules.preset}-{rules.players}p-{name}-{digest}"


def save_table(table: EquityTable, out_dir: Path) -> Path:
    """Write <stem>.parquet, .csv and the .json of its parameters; the parquet path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    stem = cache_stem(table.rules, table.policy, table.deals_per_cell, table.seed)
    frame = table.to_frame()
    path = out_dir / f"{stem}.parquet"
    frame.to_parquet(path, index=False)
    frame.to_csv(out_dir / f"{stem}.csv", index=False)
    meta = {**cache_key(table.rules, table.policy), "policy": table.policy,
            "deals_per_cell": table.deals_per_cell, "seed": table.seed, "max_ci95_half_width": table.max_half_width}
    (out_dir / f"{stem}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return path


def load_table(path: Path, rules: RuleSet, policy: str, deals_per_cell: int, seed: int) -> EquityTable:
    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError) as err:  # pyarrow's errors are one or the other
        raise AnalysisError(f"{path}: not a readable equity table ({err}); delete it to estimate it again") from None
    t = rules.target
    if len(frame) != t * t:
        raise AnalysisError(f"{path}: expected {t * t} cells, found {len(frame)}")
    frame = frame.sort_values(["dealer_score", "other_score"])
    # Copies (np.array): pandas may hand out read-only arrays, and numba compiles every kernel the table reaches
    # a second time for a read-only argument.
    p = np.array(frame["p_dealer_wins"], dtype=np.float64).reshape(t, t)
    se = np.array(frame["se"], dtype=np.float64).reshape(t, t)
    return EquityTable(rules, policy, deals_per_cell, seed, p, se)


def cached_table(rules: RuleSet, policy: str, out_dir: Path | None = None, deals_per_cell: int | None = None,
                 seed: int | None = None) -> tuple[EquityTable, Path] | None:
    """A cached table for these rules, policy and engine (with this size and seed if given;
    otherwise the one with the most deals per cell) from the cache folder (equity_folder), or
    else from the shipped tables (SHIPPED_DIR); None if neither has one."""
    folder = equity_folder(out_dir)
    for where in (folder, SHIPPED_DIR):
        found = _table_in(where, rules, policy, deals_per_cell, seed)
        if found is not None:
            return found
    return None


def _table_in(out_dir: Path, rules: RuleSet, policy: str, deals_per_cell: int | None,
              seed: int | None) -> tuple[EquityTable, Path] | None:
    key = cache_key(rules, policy)
    best: tuple[int, int, Path] | None = None
    for meta_path in sorted(out_dir.glob("*.json")) if out_dir.is_dir() else []:
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(meta, dict) or any(meta.get(k) != v for k, v in key.items()):
            continue
        size, made_with = int(meta.get("deals_per_cell", 0)), int(meta.get("seed", -1))
        if (deals_per_cell is not None and size != deals_per_cell) or (seed is not None and made_with != seed):
            continue
        path = meta_path.with_suffix(".parquet")
        if path.exists() and (best is None or size > best[0]):
            best = (size, made_with, path)
    if best is None:
        return None
    return load_table(best[2], rules, policy, best[0], best[1]), best[2]


def equity_table(rules: RuleSet, policy: str, deals_per_cell: int = DEFAULT_DEALS_PER_CELL, seed: int = 1,
                 out_dir: Path | None = None, progress: Progress | None = None, threads: int | None = None,
                 executor: Executor | None = None) -> tuple[EquityTable, Path, bool]:
    """The table from the cache (or the shipped tables), or estimated and written to the cache
    folder (equity_folder(out_dir)); (table, parquet path, from cache)."""
    check_two_sides(rules)
    found = cached_table(rules, policy, out_dir, deals_per_cell, seed)
    if found is not None:
        return found[0], found[1], True
    table = estimate_equity(rules, policy, deals_per_cell, seed, progress, threads, executor)
    return table, save_table(table, equity_folder(out_dir)), False


# One-deal transitions per second and thread with heuristic players (the 2-core development
# machine, trinidad with 4 players): only for telling the user roughly how long a table takes.
TRANSITIONS_PER_SECOND = 100_000


def build_notice(rules: RuleSet, deals_per_cell: int = DEFAULT_DEALS_PER_CELL, threads: int | None = None) -> str:
    """The line that says a table is being estimated (it is cached after), and for about how long.

    >>> from analyser.game.rules import make_rules
    >>> build_notice(make_rules("trinidad"), threads=2)
    'building the match-equity table for trinidad, 4 players (first use, about 20 s)'
    """
    workers = threads or os.cpu_count() or 1
    seconds = rules.target ** 2 * deals_per_cell / (TRANSITIONS_PER_SECOND * workers)
    about = f"about {max(10, round(seconds, -1)):.0f} s" if seconds < 90 else f"about {round(seconds / 60)} min"
    return f"building the match-equity table for {rules.preset}, {rules.players} players (first use, {about})"
