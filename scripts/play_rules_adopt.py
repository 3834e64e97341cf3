"""What adopting a rules player as the card player would change in the bidding equilibrium: the equilibrium solved
twice on the same decision deals, once with the heuristic's card play and once with the rules player's, and every
hand class compared.

    .venv/bin/python scripts/play_rules_adopt.py [--policy rules:trinidad-4p] [--rules trinidad] [--players 4]
                                                 [--deals 1000000] [--seed 1] [--threads N]

Both solves are ``allfours equilibrium --play POLICY`` (coarse classes, net points at 0:0, the bootstrap's 95% CIs
with the default 200 resamples) on the same seed, so the deals and the streams are the same and only the card
play differs. A class *moves* when its action (beg or stand, give or run, or unsettled: the CI spans the
middle) differs between the two. Writes ``adopt.json`` and ``adopt.csv`` beside the policy's rules (for
``rules:NAME``, in results/play-rules/NAME), or in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ROLE_P = {"eldest": "p_beg", "dealer": "p_give"}


def solve(rules: Any, play: str, deals: int, seed: int, threads: int | None) -> dict[str, Any]:
    from analyser.analysis.bidding.equilibrium import run_equilibrium

    return run_equilibrium(rules, play, deals, seed, "coarse", threads=threads).to_json()


def compare(new: dict[str, Any], old: dict[str, Any], policy: str) -> pd.DataFrame:
    """One row per role and hand class: the deals, P(beg) (the eldest) or P(give) (the dealer) with its CI and
    the action under each player."""
    rows = []
    for role, key in ROLE_P.items():
        for a, b in zip(new[role], old[role]):
            assert a["class"] == b["class"]
            rows.append({"role": role, "class": a["class"], "deals": a["deals"],
                         f"P(beg or give) {policy}": round(a[key], 4), f"95% CI {policy}": a["ci95"],
                         f"action {policy}": a["action"], "P(beg or give) heuristic": round(b[key], 4),
                         "95% CI heuristic": b["ci95"], "action heuristic": b["action"],
                         "moves": a["action"] != b["action"]})
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> int:
    from analyser.game.rules import make_rules

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--policy", default="rules:trinidad-4p")
    ap.add_argument("--rules", default="trinidad")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=None, help="folder for adopt.json and adopt.csv")
    args = ap.parse_args(argv)
    rules = make_rules(args.rules, players=args.players)
    name = args.policy.split(":", 1)[1] if args.policy.startswith("rules:") else ""
    out = args.out or (ROOT / "results" / "play-rules" / name if name and "/" not in name else Path("."))
    began = time.perf_counter()
    new = solve(rules, args.policy, args.deals, args.seed, args.threads)
    old = solve(rules, "heuristic", args.deals, args.seed, args.threads)
    table = compare(new, old, args.policy)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "adopt.csv", index=False)
    moved = table[table["moves"]]
    doc = {"policy": args.policy, "rules": args.rules, "players": args.players, "deals": args.deals, "seed": args.seed,
           "value": {args.policy: [new["value"], new["value_ci95"]], "heuristic": [old["value"], old["value_ci95"]]},
           "moves": moved[["role", "class", "deals", f"action {args.policy}", "action heuristic"]].to_dict("records"),
           "seconds": round(time.perf_counter() - began, 1),
           "command": f"python scripts/play_rules_adopt.py --policy {args.policy} --rules {args.rules} "
                      f"--players {args.players} --deals {args.deals} --seed {args.seed}"}
    (out / "adopt.json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"value (eldest's side, net points a deal): {args.policy} {new['value']:+.4f} "
          f"[{new['value_ci95'][0]:+.4f}, {new['value_ci95'][1]:+.4f}], heuristic {old['value']:+.4f} "
          f"[{old['value_ci95'][0]:+.4f}, {old['value_ci95'][1]:+.4f}]")
    print(moved.to_string(index=False) if len(moved) else "no class moves")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
