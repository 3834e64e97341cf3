"""How much pimc gains from each model of the other players, on duplicated deals (trinidad, 4 players).

    .venv/bin/python scripts/pimc_models.py [--matches 400] [--seed 1] [--threads N]
                                            [--out results/inference/strength.json] [--only A~B]

pimc reads the others' bids and cards through a model (engine/search.py, engine/inference.py):

* ``pimc:model=full`` (pimc's default): the shared model of the other players (the hint's: graded card
  preferences with a floor, bids by pimc's own tables with a floor), worlds kept by likelihood;
* ``pimc:model=heuristic``: the others play by pimc's own rules, a world weighing
  doubt ** mismatches; against the heuristic that model is exact;
* ``pimc:doubt=1``: every consistent world alike (no inference).

Each pairing is a duplicate tournament (``allfours tournament``: every deal played twice, seats swapped;
A's net points a deal minus B's, with its 95% CI). Against the heuristic the three say how much of pimc's
edge came from knowing the heuristic's rules. Each finished pairing is kept in the output file, so the same
command after an interruption plays only the others. About 400 matches (some 2,200 deals) a pairing; a
pimc-against-pimc pairing costs about twice one against the heuristic.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAIRINGS = [
    ("pimc:model=full", "pimc:doubt=1"),
    ("pimc:model=full", "pimc:model=heuristic"),
    ("pimc:doubt=1", "pimc:model=heuristic"),
    ("pimc:model=full", "heuristic"),
    ("pimc:doubt=1", "heuristic"),
    ("pimc:model=heuristic", "heuristic"),
]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--matches", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "inference" / "strength.json")
    ap.add_argument("--only", help="one pairing, A~B (e.g. 'pimc:model=full~heuristic')")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from analyser.analysis.play.tournament import run_tournament
    from analyser.game.rules import make_rules

    rules = make_rules("trinidad", players=4)
    key = {"matches": args.matches, "seed": args.seed}
    kept = json.loads(args.out.read_text(encoding="utf-8")) if args.out.is_file() else {}
    if kept.get("key") != key:
        kept = {"key": key, "command": f"python scripts/pimc_models.py --matches {args.matches} --seed {args.seed}",
                "pairings": {}}
    pairings = [p for p in PAIRINGS if not args.only or f"{p[0]}~{p[1]}" == args.only]
    if not pairings:
        ap.error(f"--only {args.only!r}: pairings are {', '.join(f'{a}~{b}' for a, b in PAIRINGS)}")
    for a, b in pairings:
        name = f"{a}~{b}"
        if name not in kept["pairings"]:
            began = time.perf_counter()
            result = run_tournament(rules, a, b, args.matches, args.seed, args.threads).as_dict()
            result["seconds"] = round(time.perf_counter() - began, 1)
            kept["pairings"][name] = result
            args.out.parent.mkdir(parents=True, exist_ok=True)
            temp = args.out.with_name(args.out.name + ".tmp")
            temp.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
            os.replace(temp, args.out)
        r = kept["pairings"][name]
        d = r["diff_points_per_deal"]
        print(f"{a:>18} against {b:<14} {r['deals']:>6,} deals  net points a deal {d['value']:+.3f} "
              f"(95% CI {d['ci95'][0]:+.3f} to {d['ci95'][1]:+.3f}); A wins {100 * r['a_win_rate']:.1f}% of "
              f"{r['matches']} matches; {r.get('seconds', 0):.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
