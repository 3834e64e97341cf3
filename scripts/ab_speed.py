"""Lines per second of an older commit's engine against the working tree's, alternately in one process.

    .venv/bin/python scripts/ab_speed.py 8dba31f heuristic
    .venv/bin/python scripts/ab_speed.py HEAD random:beg=0 --rounds 40 --lines 20000
    .venv/bin/python scripts/ab_speed.py 8dba31f heuristic --new 0bbd75f   (two commits)

The commit's ``analyser`` package is exported (``git archive``) into a cache folder as a package of
another name (every import inside the package is relative), so both engines load side by side. Each
round runs ``simulate_lines`` once with each engine (trinidad, 4 players, one thread, the same seed),
in alternating order; a busy spell of the machine then slows both alike, where separate processes
minutes apart can differ by 15%. Both engines are first compiled (or found in numba's cache) by a child
process, so that the rounds time the code as loaded from the cache, as every command runs it: a kernel compiled
in the process that runs it was measured up to 15% faster or slower than the same kernel loaded from the cache
(docs/speed.md, "The kernel as compiled"). Prints lines per second of each (median over rounds) and the median
of the per-round ratios working tree (or ``--new``) / commit, with the range of the middle half of the ratios.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def export_commit(commit: str, cache: Path) -> str:
    """Export `commit`'s package as ``analyser_<sha>`` under `cache` (once); returns the module name."""
    sha = subprocess.run(["git", "rev-parse", "--short=12", commit], cwd=ROOT, check=True, capture_output=True,
                         text=True).stdout.strip()
    name = f"analyser_{sha}"
    target = cache / name
    if not target.exists():
        tmp = cache / f"{name}.tmp"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", "--format=tar", sha, "analyser"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        tar_path = tmp / "src.tar"
        tar_path.write_bytes(archive)
        with tarfile.open(tar_path) as tar:
            tar.extractall(tmp, filter="data")
        (tmp / "analyser").rename(target)
        shutil.rmtree(tmp)
    return name


def first_module(package: str, *names: str) -> ModuleType:
    """The first of `names` the package has: a module's place today, then where an older commit kept it (the
    loose modules at the package's top moved into game/, record/, players/ and work/)."""
    for name in names:
        try:
            return importlib.import_module(f"{package}.{name}")
        except ModuleNotFoundError:
            continue
    raise ModuleNotFoundError(f"{package} has none of {', '.join(names)}")


class Engine:
    """One engine's simulate_lines, set up for `policy` with its own streams and match state."""

    def __init__(self, package: str, policy: str) -> None:
        deal: Any = importlib.import_module(f"{package}.engine.deal")
        policy_mod: Any = first_module(package, "players.policy", "policy")
        rules_mod: Any = first_module(package, "game.rules", "rules")
        simulate: ModuleType = first_module(package, "players.simulate", "simulate")
        self.simulate_lines = deal.simulate_lines
        self.rules = rules_mod.make_rules("trinidad").as_array()
        self.kinds, self.params = policy_mod.seat_policies([policy], 4)
        self.events = np.zeros((0, 4), dtype=np.int64)
        self.meta = np.zeros((0, 13), dtype=np.int64)
        self.stats = np.zeros(deal.N_STATS, dtype=np.int64)
        self.deck_rng, self.rng = simulate.chunk_rngs(0, 0)  # type: ignore[attr-defined]
        self.mstate = deal.new_match_state(4)
        self.run(100)  # compile or load from the cache

    def run(self, lines: int) -> float:
        start = time.perf_counter()
        self.simulate_lines(self.rules, lines, self.mstate, self.kinds, self.params, self.deck_rng, self.rng,
                            self.events, self.meta, self.stats)
        return lines / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("commit", help="the older commit (anything git rev-parse reads)")
    parser.add_argument("policy", help="policy spec of all four seats, e.g. heuristic or random:beg=0")
    parser.add_argument("--new", help="a second commit in place of the working tree")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--lines", type=int, default=20_000, help="lines per call")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "allfours" / "ab-speed")
    parser.add_argument("--compile-only", action="store_true", help=argparse.SUPPRESS)  # the child's job
    opts = parser.parse_args()
    sys.path.insert(0, str(opts.cache))
    sys.path.insert(0, str(ROOT))
    old_package = export_commit(opts.commit, opts.cache)
    new_package = export_commit(opts.new, opts.cache) if opts.new else "analyser"
    if not opts.compile_only:
        subprocess.run([sys.executable, *sys.argv, "--compile-only"], check=True)
    old = Engine(old_package, opts.policy)
    new = Engine(new_package, opts.policy)
    if opts.compile_only:
        return
    new_name = opts.new or "working tree"
    old_rates, new_rates, ratios = [], [], []
    for r in range(opts.rounds):
        if r % 2:
            b, a = new.run(opts.lines), old.run(opts.lines)
        else:
            a, b = old.run(opts.lines), new.run(opts.lines)
        old_rates.append(a)
        new_rates.append(b)
        ratios.append(b / a)
    q = statistics.quantiles(ratios, n=4)
    print(f"{opts.policy}: {opts.commit} {statistics.median(old_rates):,.0f} lines/s, {new_name} "
          f"{statistics.median(new_rates):,.0f} lines/s; ratio (median of {opts.rounds} alternating rounds) "
          f"{statistics.median(ratios):.3f}, middle half [{q[0]:.3f}, {q[2]:.3f}]")


if __name__ == "__main__":
    main()
