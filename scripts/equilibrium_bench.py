"""Benchmark of the bidding equilibrium: one score with 10 million deals, and every score.

    .venv/bin/python scripts/equilibrium_bench.py [--deals 10000000] [--scores-deals 1000000] [--threads 2] [--json]

Part 1, trinidad with 4 players at 0:0, coarse classes: the payoff tensor of `--deals` decision
deals (each played three ways), the LP solve, and 200 bootstrap re-solves, each timed alone
(targets: tensor <= 60 s on 2 cores, LP <= 1 s, bootstrap <= 30 s). The simulated
exploitability is not part of it (``--exploit-deals 0``).
Part 2, trinidad with 2 players (two sides: the match-win payoff): the equilibrium at one score
(10:10, `--scores-deals` deals) against all 196 scores from the same number of deals, in one run
(target: all scores <= 10 x one score). Compilation is excluded (a small run of each first). The
machine may be shared: the figures are wall-clock seconds of this run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from analyser.analysis.bidding.equilibrium import run_all_scores, run_equilibrium
from analyser.analysis.bidding.equity import equity_table
from analyser.work.executor import LocalExecutor
from analyser.game.rules import make_rules


def one_score(deals: int, threads: int) -> dict[str, float]:
    rules = make_rules("trinidad", 4)
    executor = LocalExecutor(threads)
    run_equilibrium(rules, "heuristic", 2000, 1, executor=executor, resamples=5)  # compile
    res = run_equilibrium(rules, "heuristic", deals, 1, executor=executor, resamples=200)
    return {"deals": deals, **{k: round(v, 3) for k, v in res.seconds.items()},
            "deals_per_s": round(deals / res.seconds["tensor"], 1), "value": res.value[0]}


def every_score(deals: int, threads: int) -> dict[str, float]:
    rules = make_rules("trinidad", 2)
    table = equity_table(rules, "heuristic", threads=threads)[0]  # the cached (or shipped) table, else built
    executor = LocalExecutor(threads)
    with tempfile.TemporaryDirectory() as tmp:
        run_equilibrium(rules, "heuristic", 2000, 1, score=(10, 10), equity=table, executor=executor, resamples=1)
        run_all_scores(rules, "heuristic", 500, 1, "coarse", table, executor=executor)  # compile
        start = time.perf_counter()
        run_equilibrium(rules, "heuristic", deals, 1, score=(10, 10), equity=table, executor=executor, resamples=1)
        one = time.perf_counter() - start
        start = time.perf_counter()
        res = run_all_scores(rules, "heuristic", deals, 1, "coarse", table, Path(tmp) / "scores", executor=executor)
        every = time.perf_counter() - start
    return {"deals": deals, "one_score_s": round(one, 3), "all_scores_s": round(every, 3), "scores": len(res.cells),
            "ratio": round(every / one, 2), **{f"all_{k}_s": round(v, 3) for k, v in (res.seconds_by_step or {}).items()}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000_000, help="decision deals of part 1")
    parser.add_argument("--scores-deals", type=int, default=1_000_000, help="deals of part 2 (one score and all)")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    out = {"machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs", "threads": args.threads,
           "one_score": one_score(args.deals, args.threads), "every_score": every_score(args.scores_deals, args.threads)}
    if args.json:
        print(json.dumps(out))
        return
    o, e = out["one_score"], out["every_score"]
    print(f"trinidad 4 players, 0:0, {o['deals']:,} deals on {args.threads} threads: tensor {o['tensor']:.1f} s "
          f"({o['deals_per_s']:,.0f} deals/s; target <= 60 s), LP {o['solve']:.3f} s (<= 1 s), bootstrap "
          f"{o['bootstrap']:.1f} s (<= 30 s)")
    print(f"trinidad 2 players, {e['deals']:,} deals: one score {e['one_score_s']:.1f} s, all {e['scores']} scores "
          f"{e['all_scores_s']:.1f} s: {e['ratio']:.2f} x (target <= 10 x)")


if __name__ == "__main__":
    main()
