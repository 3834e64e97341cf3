"""Keep only the fitted rules of play that pay at the table: the carried list measured on duplicated deals, the
rule that costs most dropped while some rule's worth has its whole 95% CI below zero, then the kept list judged
against the heuristic's card play.

    .venv/bin/python scripts/play_rules_prune.py --folder results/play-rules/classic-4p [--matches 4000]
                                                 [--seed 1] [--final-seed 2] [--threads N]

The fit (scripts/fit_play_rules.py) chooses rules by the points they save against the search player's values of
single positions; a rule can save points there and lose them in play (pimc's values are its own estimates, and a
rule changes the positions that follow). Each step is ``scripts/play_rules_worth.py`` on the list as it stands
(``--seed``; the list against the heuristic and each rule against the list without it, ``--matches`` matches each),
kept under ``FOLDER/prune/step-K/``. When a rule was dropped, the kept list is measured again on fresh deals
(``--final-seed``), since the deals that chose it flatter it; when none was, the first measurement stands. The kept
list is carried (``carried.json``: the rules, ``carry``, and ``pruned``: each dropped rule with the worth that
dropped it) when it beats the heuristic with its CI above zero; otherwise ``carry`` is 0 and ``tested`` keeps the
list's result against the heuristic, and the card says that no fitted rule beat the heuristic's play. The carried
list's worth file (``worth-top-N.json``, N its length) is written beside it, from the measurement that stands.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import play_rules_worth  # noqa: E402  (the scripts folder is on the path)
from fit_play_rules import CARRIED_FILE, shown  # noqa: E402


def measure(folder: Path, step: int, kept: list[dict[str, Any]], matches: int, seed: int,
            threads: int) -> dict[str, Any]:
    """scripts/play_rules_worth.py on `kept`, in FOLDER/prune/step-`step`/; its worth-top-N.json."""
    where = folder / "prune" / f"step-{step}"
    where.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(folder / "positions.json", where / "positions.json")  # (the rules it was fitted for)
    (where / "list.json").write_text(json.dumps({"carry": len(kept), "rules": kept}, indent=1) + "\n")
    play_rules_worth.main(["--rules", str(where / "list.json"), "--matches", str(matches), "--seed", str(seed),
                           "--threads", str(threads)])
    return json.loads((where / f"worth-top-{len(kept)}.json").read_text(encoding="utf-8"))


def dropped_rule(worth: dict[str, Any]) -> int | None:
    """The index (from 0) of the rule to drop: the lowest worth among those whose 95% CI lies below zero."""
    costly = [(p["diff_points_per_deal"]["value"], int(p["b"].rsplit(" ", 1)[1]) - 1) for p in worth["pairings"]
              if p["b"].startswith("without rule ") and p["diff_points_per_deal"]["ci95"][1] < 0]
    return min(costly)[1] if costly else None


def versus_heuristic(worth: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in worth["pairings"] if p["b"] == "heuristic")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", type=Path, required=True, help="a fitted folder (positions.json, carried.json)")
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--final-seed", type=int, default=2)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    folder = args.folder
    carried = json.loads((folder / CARRIED_FILE).read_text(encoding="utf-8"))
    kept = list(carried.get("fitted_carry_rules", carried["rules"]))  # (a second run starts from the fit again)
    pruned: list[dict[str, Any]] = []
    step = 0
    worth = measure(folder, step, kept, args.matches, args.seed, args.threads)
    while kept and (k := dropped_rule(worth)) is not None:
        d = next(p for p in worth["pairings"] if p["b"] == f"without rule {k + 1}")["diff_points_per_deal"]
        pruned.append({"words": kept[k].get("words", ""), "step": step, "worth": d["value"], "worth_ci95": d["ci95"]})
        print(f"step {step}: dropped rule {k + 1} (worth {d['value']:+.4f}, CI [{d['ci95'][0]:+.4f}, "
              f"{d['ci95'][1]:+.4f}]): {kept[k].get('words', '')}", flush=True)
        kept = kept[:k] + kept[k + 1:]
        step += 1
        if kept:
            worth = measure(folder, step, kept, args.matches, args.seed, args.threads)
    if kept and pruned:  # the deals that chose the list flatter it: measured again on fresh ones
        step += 1
        worth = measure(folder, step, kept, args.matches, args.final_seed, args.threads)
    standing = versus_heuristic(worth)["diff_points_per_deal"] if kept else None
    beats = standing is not None and standing["ci95"][0] > 0
    out = {"positions": carried["positions"], "carry": len(kept) if beats else 0, "rules": kept if beats else [],
           "fitted_carry_rules": carried.get("fitted_carry_rules", carried["rules"]), "pruned": pruned,
           "tested": {"rules": len(kept), "versus_heuristic": standing,
                      "matches": versus_heuristic(worth)["matches"] if kept else args.matches,  # (None: 3 players)
                      "deals": versus_heuristic(worth)["deals"] if kept else 0, "seed": int(worth["seed"])},
           "command": f"python scripts/play_rules_prune.py --folder {shown(folder)} --matches {args.matches} "
                      f"--seed {args.seed} --final-seed {args.final_seed}"}
    if beats:
        doc = dict(worth)
        doc["rules"] = f"{shown(folder)}/{CARRIED_FILE}"
        doc["command"] = f"{out['command']} (its step {step}: {doc['command']})"
        (folder / f"worth-top-{len(kept)}.json").write_text(json.dumps(doc, indent=1) + "\n")
    (folder / CARRIED_FILE).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps({"carry": out["carry"], "dropped": len(pruned), "versus_heuristic": standing}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
