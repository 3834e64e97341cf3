"""Benchmark: deals per second (``allfours bench``) and the peak memory of a long ``simulate``.

    .venv/bin/python scripts/bench.py [--deals 100000000] [--threads T] [--seconds 3]

The long run streams its counters to a temporary run folder; memory should stay flat
however many deals it plays, so its peak RSS is printed next to the deal count.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ALLFOURS = str(Path(sys.executable).with_name("allfours"))


def run_measured(args: list[str]) -> tuple[str, float, float]:
    """Run a command; its stdout, wall seconds and peak RSS in MiB (Linux: ru_maxrss is KiB)."""
    start = time.perf_counter()
    child = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode:
        sys.exit(f"{' '.join(args)} failed with exit code {child.returncode}")
    return out, time.perf_counter() - start, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100_000_000, help="deals for the memory run")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per bench figure")
    opts = parser.parse_args()

    out, _, _ = run_measured([ALLFOURS, "bench", "--threads", str(opts.threads), "--seconds", str(opts.seconds)])
    print(out.rstrip())
    for deals in (opts.deals // 100, opts.deals):  # flat memory: the two peaks should be about the same
        with tempfile.TemporaryDirectory() as folder:
            out, wall, rss = run_measured([ALLFOURS, "simulate", "--deals", str(deals), "--seed", "1", "--threads",
                                           str(opts.threads), "--out", str(Path(folder) / "run"), "--json"])
        lines = json.loads(out)["totals"]["lines"]
        print(f"simulate --deals {deals:,}: {lines:,} deals in {wall:.1f} s ({lines / wall:,.0f}/s), "
              f"peak memory {rss:.0f} MiB")


if __name__ == "__main__":
    main()
