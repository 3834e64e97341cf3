"""Benchmark of the search players: card decisions per second on one thread, 6-card deals.

    .venv/bin/python scripts/pimc_bench.py [--deals 40] [--players 4] [--policy pimc:model=heuristic] [--seed 1]
                                           [--json]

Each deal is dealt at random (6 cards each, a random trump suit and no card turned up, the
last seat dealing, trinidad rules: ``solve.dealt_play_buffer``, as the solver's benchmark
deals; earlier versions turned the next card up as trump, so figures taken before differ by
their deals) and played
to the end by the heuristic; at every card decision with more than one legal card the
search player (`--policy`, default `pimc:model=heuristic` with pimc's default worlds: the
pimc the figures in docs/solver.md and docs/speed.md were taken with, pimc's default then;
`--policy pimc` is today's default, `model=full`; `oracle` too) is
asked for its card, and that call is timed (compilation excluded: one decision first).
Forced plays (one legal card) cost nothing and are not counted. The order of play is
recorded as the trick loop records it, so pimc infers from the others' cards as in a
game (`--policy pimc:doubt=1` infers nothing). Target: pimc with its default
worlds at least 20 card decisions per second per core.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from analyser.engine.layout import PS_TO_PLAY
from analyser.engine.policies import choose_card
from analyser.engine.search import record_play
from analyser.engine.state import apply, is_over, legal
from analyser.players.policy import parse_policy
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs
from analyser.players.solve import dealt_play_buffer

TARGET = 20.0  # decisions per second per core
POLICY = "pimc:model=heuristic"  # the pimc the docs' figures were measured with (pimc's default model then)


def measure(policy: str, players: int, deals: int, seed: int) -> dict[str, str | int | float]:
    table = make_rules("trinidad", players=players)
    rules = table.as_array()
    kind, params = parse_policy(policy)
    hkind, hparams = parse_policy("heuristic")
    rng = np.random.default_rng(seed)
    choice = chunk_rngs(seed, 0)[1]
    warm = dealt_play_buffer(table, 6, np.random.default_rng(0))
    choose_card(kind, params, warm, legal(warm), rules, choice)  # compile or load the cache first
    seconds = []
    for _ in range(deals):
        state = dealt_play_buffer(table, 6, rng)
        while not is_over(state):
            mask = legal(state)
            if int(mask) & (int(mask) - 1):
                start = time.perf_counter()
                choose_card(kind, params, state, mask, rules, choice)
                seconds.append(time.perf_counter() - start)
            card = choose_card(hkind, hparams, state, mask, rules, choice)
            record_play(state, card)
            apply(state, card)
            assert state[PS_TO_PLAY] >= 0
    ms = np.array(seconds) * 1e3
    return {"policy": policy, "players": players, "deals": deals, "decisions": len(ms),
            "decisions_per_s": float(len(ms) / (ms.sum() / 1e3)), "median_ms": float(np.median(ms)),
            "p99_ms": float(np.percentile(ms, 99)), "max_ms": float(ms.max())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument("--policy", default=POLICY,
                        help=f"a search player's spec (default {POLICY}): pimc, pimc:worlds=40, pimc:doubt=1, oracle")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    r = measure(opts.policy, opts.players, opts.deals, opts.seed)
    if opts.json:
        print(json.dumps(r, indent=1))
        return
    print(f"{r['policy']}, {r['players']} players, trinidad, 6-card deals played by the heuristic, one thread")
    print(f"{r['decisions']} card decisions (forced plays excluded): {r['decisions_per_s']:.1f} per second, "
          f"median {r['median_ms']:.2f} ms, p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms "
          f"(target: pimc >= {TARGET:.0f} per second)")


if __name__ == "__main__":
    main()
