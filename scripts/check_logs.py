"""Issue-2 acceptance check: simulate 5,000 deals per preset, referee them twice, count the paths.

    .venv/bin/python scripts/check_logs.py [--deals 5000] [--seed 1]

For each preset and player count it runs `allfours simulate --log`, `allfours replay`,
and the independent reference referee (tests/reference_rules.py) line by line, and
prints how often each special path occurred (single and double runs, exhausted-pack
redeals, gifts, hang jacks, bunching votes and bunched redeals, discards, mid-deal
match ends).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import reference_rules  # noqa: E402

CONFIGS = [("classic", 2), ("classic", 3), ("classic", 4), ("trinidad", 2), ("trinidad", 4),
           ("trinidad-tobago", 4), ("partnership-seven", 4)]


def paths(line: dict) -> Counter:
    events = line["events"]
    kinds = [e["event"] for e in events]
    found: Counter = Counter()
    runs_per_deal, runs = [], 0
    for kind in kinds:
        if kind == "deal":
            if runs:
                runs_per_deal.append(runs)
            runs = 0
        elif kind == "more":
            runs += 1
    runs_per_deal.append(runs)
    found["single run"] += any(r == 1 for r in runs_per_deal)
    found["double run"] += any(r >= 2 for r in runs_per_deal)
    found["exhausted redeal"] += any(e.get("reason") == "exhausted" for e in events)
    found["gift"] += "give" in kinds
    found["hang jack"] += any(e.get("why") == "hang-jack" for e in events)
    found["bunch vote"] += "bunch" in kinds
    found["bunched redeal"] += any(e.get("reason") == "bunched" for e in events)
    found["discard"] += "discard" in kinds
    last_points = next((e for e in reversed(events) if e["event"] == "points"), None)
    why = (last_points or {}).get("why")
    ended = line["winner"] is not None
    found["match end before play (kick, gift, bonus)"] += ended and why in ("kick", "gift", "jack-bonus")
    found["match end before Game (strict order)"] += ended and why in ("high", "low", "jack", "hang-jack")
    found["match end"] += line["winner"] is not None
    return found


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--deals", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    allfours = [sys.executable, "-m", "analyser"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for preset, players in CONFIGS:
            log = Path(tmp) / f"{preset}-{players}.jsonl"
            subprocess.run([*allfours, "simulate", "--rules", preset, "--players", str(players), "--deals",
                            str(args.deals), "--seed", str(args.seed), "--log", str(log)],
                           check=True, capture_output=True)
            replay = subprocess.run([*allfours, "replay", str(log)], capture_output=True, text=True)
            total: Counter = Counter()
            lines = log.read_text().splitlines()
            for number, text in enumerate(lines, start=1):
                obj = json.loads(text)
                try:
                    reference_rules.referee_line(obj)
                except reference_rules.RefereeError as err:
                    print(f"{preset} {players}p line {number}: reference rejects: {err}")
                    ok = False
                    break
                total += paths(obj)
            ok &= replay.returncode == 0
            verdict = "replay ok" if replay.returncode == 0 else f"replay FAILED: {replay.stderr.strip()}"
            print(f"{preset:18} {players}p  {len(lines)} lines, {verdict}, reference ok")
            print("    " + ", ".join(f"{k}: {v}" for k, v in sorted(total.items())))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
