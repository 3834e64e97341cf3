"""How often runs happen: the share of deals with at least one run, by the bidding played.

    .venv/bin/python scripts/run_frequency.py [--deals 200000] [--seed 1] [--out results/run-frequency]

A run ("running the cards") deals three more cards to everyone; in trinidad a deal with one
run is played with 9 cards a hand, with two runs 12 (more runs are possible, rarely). This
plays 4-player trinidad deals with the heuristic's bidding and with the reference edition's
equilibrium bidding (``equilibrium:results/trinidad-4p/equilibrium``) on the same seed and
counts, per deal, how many runs it saw (the simulator's ``runs_hist_k`` counters), with
Wilson 95% intervals. Writes ``run-frequency.json`` and ``README.md`` to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from analyser.analysis.bidding.run_frequency import percent, run_frequency
from analyser.game.rules import make_rules

ROOT = Path(__file__).resolve().parents[1]
RULES = make_rules("trinidad", 4)
BIDDINGS = {
    "heuristic": "heuristic",
    "equilibrium": "equilibrium:results/trinidad-4p/equilibrium",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "run-frequency")
    args = ap.parse_args()
    start = time.perf_counter()
    rows = {name: run_frequency(RULES, policy, args.deals, args.seed) for name, policy in BIDDINGS.items()}
    seconds = time.perf_counter() - start
    command = f"python scripts/run_frequency.py --deals {args.deals} --seed {args.seed}"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "run-frequency.json").write_text(
        json.dumps({"command": command, "rules": "trinidad", "players": 4, "seed": args.seed, "biddings": rows},
                   indent=1) + "\n")
    lines = ["# How often runs happen (trinidad, 4 players)", "",
             f"`{command}` ({seconds:.0f} s). A deal with one run is played with 9 cards a hand, with two 12.", "",
             "| bidding | deals | at least one run | two or more runs | runs per deal |", "|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(f"| {name} (`{r['policy']}`) | {r['deals']:,} | {percent(r['at_least_one_run'])} | "
                     f"{percent(r['at_least_two_runs'])} | {r['runs_per_deal']:.3f} |")
    (args.out / "README.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
