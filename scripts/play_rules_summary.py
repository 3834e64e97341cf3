"""The shipped rules of play of every rule set, as the Markdown docs/rules-of-thumb.md shows (its section "Every rule
set"): per folder of results/play-rules, the decisions fitted, the rules the fit would carry, those pruned for
costing points in play, and the carried list with its worth against the heuristic's card play.

    .venv/bin/python scripts/play_rules_summary.py

Nothing is measured: it reads positions.json, carried.json and worth-top-N.json (tests/scripts/test_shipped_play_rules.py
checks that the docs hold exactly this text).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ROOT / "results" / "play-rules"


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _ci(d: dict[str, Any]) -> str:
    return f"{d['value']:+.3f} ({d['ci95'][0]:+.3f} to {d['ci95'][1]:+.3f})"


def summary(shipped: Path = SHIPPED) -> str:
    """The table, then each carried list in words with each rule's worth."""
    lines = ["| rule set | card decisions (deals) | the fit's list | dropped in play | carried | carried list minus the "
             "heuristic, net points a deal (95% CI) | measured on |",
             "|---|---|---|---|---|---|---|"]
    words: list[str] = []
    for folder in sorted(p.parent for p in shipped.glob("*/carried.json")):
        carried, positions = _read(folder / "carried.json"), _read(folder / "positions.json")
        fitted = len(carried.get("fitted_carry_rules", carried["rules"]))
        pruned = len(carried.get("pruned", []))
        if carried["carry"]:
            worth = _read(folder / f"worth-top-{carried['carry']}.json")
            versus = next(p for p in worth["pairings"] if p["b"] == "heuristic")
            result, matches, seed = _ci(versus["diff_points_per_deal"]), versus["matches"], worth["seed"]
            words.append(f"**{folder.name}** (`--policy rules:{folder.name}`):")
            words.append("")
            for k, rule in enumerate(carried["rules"], 1):
                d = next(p for p in worth["pairings"] if p["b"] == f"without rule {k}")["diff_points_per_deal"]
                words.append(f"{k}. {rule['words']} Worth {_ci(d)}.")
            words.append("")
        else:
            tested = carried["tested"]
            result, matches, seed = _ci(tested["versus_heuristic"]) + ", none carried", tested["matches"], tested["seed"]
            versus = {"matches": matches, "deals": tested["deals"]}
        played = f"{matches:,} matches" if matches is not None else f"{versus['deals']:,} deals, one player switched"
        lines.append(f"| {folder.name} | {positions['decisions']:,} ({2 * positions['deals']:,}) | {fitted} | {pruned} "
                     f"| {carried['carry']} | {result} | {played}; seed {seed} |")
    return "\n".join(lines + [""] + words).rstrip() + "\n"


if __name__ == "__main__":
    print(summary(), end="")
