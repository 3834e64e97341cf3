"""The rules player's kernel against the fitted rules' words, on the positions they were fitted to.

    .venv/bin/python scripts/check_play_rules_table.py --folder results/play-rules/trinidad-4p [--deals N]
                                                       [--rules FILE]

Each deal of a play-rules folder's table is dealt again from its own seed, as scripts/play_positions.py dealt it,
and at every decision the table records: (1) the features the kernel reads at the position are the table's
columns, and (2) the card the rules player's kernel plays with the list (engine/rulesplayer.rules_play; default the
folder's rules.json, all the fit's rules) is the card the list's words pick on the table's row: the first rule whose
tests hold on the row's features and whose class has a card there, else the heuristic's card. ``--deals N``
checks the first N deals of each table (dealing again costs about as much as the table's pimc players did).
Exit 0 when every position agrees; each disagreement is printed, and the exit is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

import play_positions  # noqa: E402  (the scripts folder is on the path)

HOLDS = {"==": lambda x, v: x == v, ">=": lambda x, v: x >= v, "<=": lambda x, v: x <= v}


def words_card(row: Any, rules: list[dict[str, Any]]) -> int:
    """The card the list's words pick on a table row (module docstring)."""
    for rule in rules:
        if all(HOLDS[op](int(getattr(row, f"f_{feature}")), int(value)) for feature, op, value in rule["tests"]):
            card = int(getattr(row, f"a_{rule['action']}"))
            if card >= 0:
                return card
    return int(row.heuristic)


def check(folder: Path, rules_file: Path, deals: int | None) -> list[str]:
    """Every disagreement, in words (none: the kernel and the words agree on every position checked)."""
    from analyser.analysis.play.logcuts import line_decisions
    from analyser.engine.playrules import FEATURES, N_FEATURES, position_features
    from analyser.engine.rulesplayer import rules_play
    from analyser.game.rules import make_rules
    from analyser.players.policy import parse_policy

    made = json.loads((folder / "positions.json").read_text(encoding="utf-8"))
    rules = make_rules(made["rules"], players=int(made["players"]))
    fitted = json.loads(rules_file.read_text(encoding="utf-8"))["rules"]
    _, row_params = parse_policy(f"rules:{rules_file}")
    table = pd.read_parquet(folder / "positions.parquet")
    features = np.zeros(N_FEATURES, dtype=np.int64)
    wrong: list[str] = []
    checked = 0
    for (name, deal), rows in table.groupby(["table", "deal"], sort=True):
        if deals is not None and deal >= deals:
            continue
        line = play_positions.deal_lines(rules, str(name), int(deal), 1, int(made["seed"]))[0]
        plays = {play.event: play for play in line_decisions(line).plays}
        for row in rows.itertuples():
            play = plays.get(int(row.event))
            where = f"{name} deal {deal} event {row.event}"
            if play is None:
                wrong.append(f"{where}: no such decision when dealt again")
                continue
            position = play.position
            position_features(position.state, features)
            moved = [f for k, f in enumerate(FEATURES) if int(features[k]) != int(getattr(row, f"f_{f}"))]
            if moved:
                wrong.append(f"{where}: features {moved} differ from the table's")
            legal = np.uint64(sum(1 << c for c in position.legal_cards()))
            kernel = int(rules_play(row_params, position.state, legal))
            words = words_card(row, fitted)
            if kernel != words:
                wrong.append(f"{where}: the kernel plays card {kernel}, the words card {words}")
            checked += 1
    print(f"{checked:,} positions checked in {folder}: {len(wrong)} disagreements", flush=True)
    return wrong


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--folder", type=Path, required=True)
    ap.add_argument("--rules", type=Path, default=None, help="the list (default: FOLDER/rules.json)")
    ap.add_argument("--deals", type=int, default=None, help="only the first N deals of each table")
    args = ap.parse_args(argv)
    wrong = check(args.folder, args.rules or args.folder / "rules.json", args.deals)
    for line in wrong:
        print(line)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
