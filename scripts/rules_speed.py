"""Lines per second of policies against a baseline, alternately in one process: the rules player against the heuristic.

    .venv/bin/python scripts/rules_speed.py rules:results/play-rules/trinidad-4p/rules.json
    .venv/bin/python scripts/rules_speed.py rules:FILE heuristic:tip_trump_ace=on --base heuristic --rounds 30

Each round runs the engine's ``simulate_lines`` (trinidad, 4 players, one thread, every seat the policy; the same
seed for each policy) for the baseline (``--base``, default ``heuristic``) and each policy given, in an order that
turns round by round, so that a busy spell of the shared machine slows them alike. Every policy is first run
once (compiled, or loaded from numba's cache). Prints lines per second of each (the median over rounds) and, for
each policy, the median of the rounds' ratios policy / baseline with the middle half of those ratios. The rules
player's target is at least 0.8 of the heuristic (docs/speed.md).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from analyser.engine.deal import N_STATS, new_match_state, simulate_lines  # noqa: E402
from analyser.game.rules import make_rules  # noqa: E402
from analyser.players.policy import seat_policies  # noqa: E402
from analyser.players.simulate import chunk_rngs  # noqa: E402


class Runner:
    """``simulate_lines`` for one policy at every seat, with its own streams and match state."""

    def __init__(self, policy: str, seed: int) -> None:
        self.rules = make_rules("trinidad").as_array()
        self.kinds, self.params = seat_policies([policy], 4)
        self.events = np.zeros((0, 4), dtype=np.int64)
        self.meta = np.zeros((0, 13), dtype=np.int64)
        self.stats = np.zeros(N_STATS, dtype=np.int64)
        self.deck_rng, self.rng = chunk_rngs(seed, 0)
        self.mstate = new_match_state(4)
        self.run(100)  # compile or load from the cache

    def run(self, lines: int) -> float:
        start = time.perf_counter()
        simulate_lines(self.rules, lines, self.mstate, self.kinds, self.params, self.deck_rng, self.rng,
                       self.events, self.meta, self.stats)
        return lines / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("policies", nargs="+", help="policy specs to time against the baseline")
    parser.add_argument("--base", default="heuristic", help="the baseline policy (default heuristic)")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--lines", type=int, default=20_000, help="lines per call")
    parser.add_argument("--seed", type=int, default=1)
    opts = parser.parse_args(argv)
    specs = [opts.base, *opts.policies]
    runners = [Runner(spec, opts.seed) for spec in specs]
    rates: list[list[float]] = [[] for _ in specs]
    for r in range(opts.rounds):
        order = list(range(len(specs)))
        shift = r % len(order)
        order = order[shift:] + order[:shift]
        if r % 2:
            order.reverse()
        for i in order:
            rates[i].append(runners[i].run(opts.lines))
    print(f"{opts.base}: {statistics.median(rates[0]):,.0f} lines/s (median of {opts.rounds} rounds of "
          f"{opts.lines:,} lines)")
    for i, spec in enumerate(specs[1:], 1):
        ratios = [a / b for a, b in zip(rates[i], rates[0])]
        q = statistics.quantiles(ratios, n=4)
        print(f"{spec}: {statistics.median(rates[i]):,.0f} lines/s; / {opts.base}: {statistics.median(ratios):.3f}, "
              f"middle half [{q[0]:.3f}, {q[2]:.3f}]")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
