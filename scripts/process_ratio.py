"""A policy's deals a second over the numba translation of the C program's, in this process: the check of a speed
change in separate processes, beside `scripts/ab_speed.py`'s two engines in one.

    .venv/bin/python scripts/process_ratio.py heuristic
    PYTHONPATH=/tmp/before .venv/bin/python scripts/process_ratio.py heuristic   (a worktree of another commit)

Each round times the translation (`c_port.port_deals_per_second`) and the policy (`bench.deals_per_second`, trinidad,
4 players, one thread) for `--seconds` each, one after the other; prints the median of the rounds' ratios (what
`allfours bench --against-c` prints as "of the translation"). Run it alternately for two commits, several times each
(the kernels loaded from each one's numba cache: run each once first if its cache is cold), and compare the lists:
the same code gives ratios some 5-10% apart from one process to the next on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics

from analyser.work.bench import deals_per_second
from analyser.engine.c_port import port_deals_per_second


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", help="policy spec of every seat, e.g. heuristic or random:beg=0")
    parser.add_argument("--rounds", type=int, default=6, help="rounds (default 6)")
    parser.add_argument("--seconds", type=float, default=0.7, help="seconds of each figure a round (default 0.7)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    deals_per_second(args.policy, 1, 0.3)  # both loaded (or compiled) and warm before the rounds
    port_deals_per_second(0.3)
    ratios = []
    for _ in range(args.rounds):
        translation = port_deals_per_second(args.seconds)
        ratios.append(deals_per_second(args.policy, 1, args.seconds) / translation)
    print(f"{args.policy}: {statistics.median(ratios):.3f} of the translation "
          f"(median of {args.rounds} rounds; {min(ratios):.3f}-{max(ratios):.3f})")


if __name__ == "__main__":
    main()
