"""Every shipped folder of rules of play (results/play-rules/NAME, scripts/play_rules_prune.py): the list a player
carries is the one its worth file measured, rule for rule, and it beats the heuristic's card play with its 95% CI
above zero; a folder that carries none keeps the test that decided it. ``rules:NAME`` plays each."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from analyser.players.policy import parse_policy

SHIPPED = Path(__file__).resolve().parents[2] / "results" / "play-rules"
FOLDERS = sorted(p.parent for p in SHIPPED.glob("*/carried.json"))


def read(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_shipped_rules():
    assert [f.name for f in FOLDERS if f.name == "trinidad-4p"] == ["trinidad-4p"]


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_the_carried_list_is_the_one_measured_and_it_beats_the_heuristic(folder):
    carried = read(folder / "carried.json")
    positions = read(folder / "positions.json")
    assert folder.name == f"{positions['rules']}-{positions['players']}p"
    assert carried["carry"] == len(carried["rules"])
    if carried["carry"] == 0:
        tested = carried["tested"]
        assert tested["versus_heuristic"]["ci95"][0] <= 0 and tested["deals"] >= 20_000
        assert parse_policy(f"rules:{folder.name}")[0] == parse_policy("heuristic")[0]
        return
    worth = read(folder / f"worth-top-{carried['carry']}.json")
    pairs = worth["pairings"]
    versus = next(p for p in pairs if p["b"] == "heuristic")
    assert versus["diff_points_per_deal"]["ci95"][0] > 0 and versus["deals"] >= 20_000
    dropped = [p["rule"] for p in pairs if p["b"].startswith("without rule ")]
    assert dropped == [r["words"] for r in carried["rules"]]
    kind, row = parse_policy(f"rules:{folder.name}")
    assert kind != parse_policy("heuristic")[0] or not np.array_equal(row, parse_policy("heuristic")[1])


def test_the_docs_show_the_shipped_lists_as_the_files_hold_them():
    import sys

    sys.path.insert(0, str(SHIPPED.parents[1] / "scripts"))
    import play_rules_summary

    docs = (SHIPPED.parents[1] / "docs" / "rules-of-thumb.md").read_text(encoding="utf-8")
    assert play_rules_summary.summary(SHIPPED) in docs
