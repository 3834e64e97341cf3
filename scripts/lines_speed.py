"""Lines per second of the engine's `simulate_lines` for one policy: best of 5 calls, one thread, trinidad, 4 players.

    .venv/bin/python scripts/lines_speed.py heuristic 100000
    .venv/bin/python scripts/lines_speed.py random:beg=0 200000

Prints one number. For an A/B against an older commit use ``scripts/ab_speed.py``, which runs both
engines alternately in one process (separate runs minutes apart differ by up to 15% on a shared machine).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from analyser.engine.deal import N_STATS, new_match_state, simulate_lines
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs


def main() -> None:
    policy, lines = sys.argv[1], int(sys.argv[2])
    rules = make_rules("trinidad").as_array()
    kinds, params = seat_policies([policy], 4)
    events = np.zeros((0, 4), dtype=np.int64)
    meta = np.zeros((0, 13), dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    deck_rng, rng = chunk_rngs(0, 0)
    mstate = new_match_state(4)
    simulate_lines(rules, 100, mstate, kinds, params, deck_rng, rng, events, meta, stats)  # compile
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        simulate_lines(rules, lines, mstate, kinds, params, deck_rng, rng, events, meta, stats)
        best = min(best, time.perf_counter() - start)
    print(round(lines / best))


if __name__ == "__main__":
    main()
