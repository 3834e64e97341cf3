"""scripts/play_rules_worth.py at the smallest size: the list against the heuristic and against itself less each
rule, written beside the rules file."""

from __future__ import annotations

import json
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import play_rules_worth  # noqa: E402


def test_each_rule_is_played_against_the_list_without_it(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"rules": [
        {"tests": [["leading", "==", 1], ["jack_out", "==", 1]], "action": "lead_low_trump", "words": "first"},
        {"tests": [["partner_winning", "==", 1]], "action": "give_partner", "words": "second"}]}))
    assert play_rules_worth.main(["--rules", str(rules), "--matches", "4", "--threads", "1"]) == 0
    worth = json.loads((tmp_path / "worth-top-2.json").read_text())
    rows = worth["pairings"]
    assert [r["b"] for r in rows] == ["heuristic", "without rule 1", "without rule 2"]
    assert [r.get("rule") for r in rows] == [None, "first", "second"]
    assert all(r["a"] == "the top 2 rules" and r["matches"] == 4 for r in rows)
    assert "--matches 4 --seed 1 --top 2" in worth["command"]
    assert play_rules_worth.main(["--rules", str(rules), "--matches", "2", "--threads", "1", "--top", "1"]) == 0
    one = json.loads((tmp_path / "worth-top-1.json").read_text())["pairings"]
    assert [r["b"] for r in one] == ["heuristic", "without rule 1"]


def test_versus_plays_the_list_and_the_heuristic_against_another_player(tmp_path):
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"rules": [
        {"tests": [["partner_winning", "==", 1]], "action": "give_partner", "words": "first"}]}))
    assert play_rules_worth.main(["--rules", str(rules), "--matches", "4", "--threads", "1", "--versus",
                                  "random"]) == 0
    doc = json.loads((tmp_path / "worth-top-1-versus-random.json").read_text())
    a, b = doc["pairings"]
    assert (a["a"], a["b"], b["a"], b["b"]) == ("the top 1 rules", "random", "heuristic", "random")
    edge = doc["edge_over_heuristic"]
    assert edge["value"] == a["diff_points_per_deal"]["value"] - b["diff_points_per_deal"]["value"]
    assert edge["ci95"][0] < edge["value"] < edge["ci95"][1] and "--versus random" in doc["command"]


def test_three_players_switch_one_player_on_duplicated_deals(tmp_path):
    """No sides for a tournament: each pairing plays one player switched, the others the heuristic, on 5 x
    --matches duplicated deals; a list against itself differs by nothing on every deal."""
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"rules": [
        {"tests": [["partner_winning", "==", 1]], "action": "give_partner", "words": "first"},
        {"tests": [["leading", "==", 1]], "action": "lead_high_trump", "words": "second"}]}))
    (tmp_path / "positions.json").write_text(json.dumps({"rules": "classic", "players": 3}))
    assert play_rules_worth.main(["--rules", str(rules), "--matches", "4", "--threads", "1"]) == 0
    rows = json.loads((tmp_path / "worth-top-2.json").read_text())["pairings"]
    assert [r["b"] for r in rows] == ["heuristic", "without rule 1", "without rule 2"]
    assert all(r["deals"] == 20 and r["matches"] is None and "one player switched" in r["method"] for r in rows)
    # with three players nobody has a partner, so rule 1 never speaks: dropping it changes nothing
    assert rows[1]["diff_points_per_deal"]["value"] == 0.0 and rows[1]["diff_points_per_deal"]["se"] == 0.0
