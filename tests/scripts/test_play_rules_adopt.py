"""scripts/play_rules_adopt.py at a small size: the equilibrium with the rules player's card play against the one
with the heuristic's, on the same deals, every class compared; the heuristic against itself moves nothing."""

from __future__ import annotations

import json

import pandas as pd
from conftest import load_script

play_rules_adopt = load_script("play_rules_adopt")


def test_every_class_is_compared_and_a_player_against_itself_moves_nothing(tmp_path):
    args = ["--deals", "3000", "--threads", "1", "--out", str(tmp_path)]
    empty = tmp_path / "empty.json"
    empty.write_text(json.dumps({"rules": []}))  # no rule: the heuristic itself, under another name
    assert play_rules_adopt.main(["--policy", f"rules:{empty}", *args]) == 0
    doc = json.loads((tmp_path / "adopt.json").read_text())
    table = pd.read_csv(tmp_path / "adopt.csv")
    assert doc["moves"] == [] and not table["moves"].any()  # the same player on the same deals: the same tables
    assert doc["value"][f"rules:{empty}"] == doc["value"]["heuristic"]
    assert table[f"P(beg or give) rules:{empty}"].equals(table["P(beg or give) heuristic"])
    assert set(table["role"]) == {"eldest", "dealer"} and table["deals"].gt(0).all()
    assert play_rules_adopt.main(["--policy", "rules:trinidad-4p", *args]) == 0
    doc = json.loads((tmp_path / "adopt.json").read_text())
    table = pd.read_csv(tmp_path / "adopt.csv")
    moved = table[table["action rules:trinidad-4p"] != table["action heuristic"]]
    assert [m["class"] for m in doc["moves"]] == list(moved["class"])
    assert "--policy rules:trinidad-4p" in doc["command"] and "--deals 3000" in doc["command"]
