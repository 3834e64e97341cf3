"""Deals per second on local threads and on a Dask LocalCluster, and the scheduling overhead.

    .venv/bin/python scripts/cluster_bench.py [--deals 20000000] [--workers 2] [--repeat 2]

The same run (trinidad, random policy, seed 1, default chunk size) is played once on
one thread (the baseline of the speed-ups), then on ``--workers`` local threads and on a
LocalCluster of ``--workers`` processes (one thread each), alternately, ``--repeat``
times; the summaries must be byte-identical. For each run it prints the wall time,
deals/s, the speed-up over one thread and the overhead: the share of the workers' time
not spent inside chunk tasks, 1 - sum(task seconds) / (wall * workers), which counts
scheduling, transfers, writing chunk files and the idle tail of the last chunks. The
cluster's start-up, and its first task per worker (imports and loading numba's cached
kernels) against later ones, are printed separately. The load average (other jobs on
the machine) is printed before each run.
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import tempfile
import time
from pathlib import Path

from analyser.analysis import runner
from analyser.work.executor import DaskExecutor, LocalExecutor, Timing, overhead
from analyser.game.rules import make_rules
from analyser.players.simulate import CHUNK_DEALS


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def timed_run(spec: runner.RunSpec, executor: LocalExecutor | DaskExecutor, parallelism: int, label: str,
              baseline: float | None = None) -> tuple[str, list[Timing], float]:
    """Play `spec` into a temporary run folder; its summary, task timings and wall seconds."""
    before = load()
    executor.timings.clear()
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        summary = runner.run(spec, executor, Path(folder) / "run")
        wall = time.perf_counter() - start
    timings = list(executor.timings)
    speedup = f"  speed-up x{baseline / wall:.2f}" if baseline else ""
    print(f"{label:<22} {wall:7.2f} s  {spec.deals / wall:12,.0f} deals/s  overhead "
          f"{100 * overhead(timings, wall, parallelism):5.1f}%{speedup}  (load average before: {before})", flush=True)
    return runner.summary_json(summary), timings, wall


def first_and_later(timings: list[Timing]) -> str:
    first = [t.seconds for t in timings if t.first]
    later = [t.seconds for t in timings if not t.first]
    return (f"first task per worker {statistics.mean(first):.3f} s (n={len(first)}), "
            f"later tasks {statistics.mean(later):.3f} s (median {statistics.median(later):.3f}, n={len(later)})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20_000_000)
    parser.add_argument("--chunk-size", type=int, default=CHUNK_DEALS)
    parser.add_argument("--workers", type=int, default=2, help="local threads, and cluster worker processes")
    parser.add_argument("--repeat", type=int, default=2)
    opts = parser.parse_args()
    spec = runner.RunSpec.new(make_rules("trinidad"), ["random"], 1, opts.deals, opts.chunk_size)
    print(f"simulate --rules trinidad --policy random --seed 1 --deals {opts.deals:,} --chunk-size {opts.chunk_size:,}"
          f" ({len(spec.sizes())} chunks); {os.cpu_count()} cores; load average {load()}")
    runner.run(runner.RunSpec.new(spec.rules, ["random"], 1, 1000, 1000), 1)  # load the kernels here first
    summary, _, baseline = timed_run(spec, LocalExecutor(1), 1, "threads 1 (baseline)")
    summaries = {summary}

    from distributed import Client, LocalCluster

    start = time.perf_counter()
    with (LocalCluster(n_workers=opts.workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                       dashboard_address=":0", silence_logs=logging.ERROR) as cluster,
          Client(cluster, set_as_default=False) as client):
        client.wait_for_workers(opts.workers)
        print(f"LocalCluster of {opts.workers} workers started in {time.perf_counter() - start:.2f} s")
        local, cluster_executor = LocalExecutor(opts.workers), DaskExecutor(client=client)
        for attempt in range(1, opts.repeat + 1):
            summary, _, _ = timed_run(spec, local, opts.workers, f"threads {opts.workers}, run {attempt}", baseline)
            summaries.add(summary)
            summary, timings, _ = timed_run(spec, cluster_executor, opts.workers,
                                            f"cluster local:{opts.workers}, run {attempt}", baseline)
            summaries.add(summary)
            if attempt == 1:
                print(f"  cluster: {first_and_later(timings)}")
    print("summaries byte-identical:", len(summaries) == 1)
    if len(summaries) != 1:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
