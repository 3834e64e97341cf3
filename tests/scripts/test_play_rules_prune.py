"""scripts/play_rules_prune.py: the rule whose worth costs most (its whole 95% CI below zero) is dropped and the list
measured again until none does; a list that lost a rule is judged on fresh deals; it is carried only if it beats the
heuristic there. Scripted measurements for the logic, and one run at the smallest size."""

from __future__ import annotations

import json
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import play_rules_prune  # noqa: E402

RULES = [{"tests": [["leading", "==", 1]], "action": "lead_low_trump", "words": w} for w in ("A", "B", "C")]


def worth(seed: int, versus: tuple[float, float, float], rules: dict[str, tuple[float, float, float]]) -> dict:
    def d(v):
        return {"value": v[0], "se": 0.001, "ci95": [v[1], v[2]]}

    pairs = [{"a": "list", "b": "heuristic", "matches": 10, "deals": 50, "diff_points_per_deal": d(versus)}]
    pairs += [{"a": "list", "b": f"without rule {k}", "matches": 10, "deals": 50, "rule": w,
               "diff_points_per_deal": d(v)} for k, (w, v) in enumerate(rules.items(), 1)]
    return {"seed": seed, "pairings": pairs, "command": "python scripts/play_rules_worth.py ..."}


def scripted(monkeypatch, steps):
    calls = []

    def measure(folder, step, kept, matches, seed, threads):
        calls.append(([r["words"] for r in kept], seed))
        return steps[len(calls) - 1]

    monkeypatch.setattr(play_rules_prune, "measure", measure)
    return calls


def fitted(tmp_path):
    (tmp_path / "carried.json").write_text(json.dumps({"positions": "p", "carry": 3, "rules": RULES}))
    return tmp_path


def test_the_costliest_rule_goes_first_and_the_kept_list_is_judged_on_fresh_deals(tmp_path, monkeypatch):
    calls = scripted(monkeypatch, [
        worth(1, (-0.01, -0.02, 0.0), {"A": (0.01, 0.0, 0.02), "B": (-0.03, -0.04, -0.02), "C": (-0.01, -0.02, -0.001)}),
        worth(1, (0.01, 0.0, 0.02), {"A": (0.01, 0.0, 0.02), "C": (-0.01, -0.02, -0.001)}),
        worth(1, (0.02, 0.01, 0.03), {"A": (0.01, 0.0, 0.02)}),
        worth(2, (0.015, 0.005, 0.025), {"A": (0.012, 0.002, 0.022)})])
    folder = fitted(tmp_path)
    assert play_rules_prune.main(["--folder", str(folder), "--threads", "1"]) == 0
    assert calls == [(["A", "B", "C"], 1), (["A", "C"], 1), (["A"], 1), (["A"], 2)]
    carried = json.loads((folder / "carried.json").read_text())
    assert carried["carry"] == 1 and [r["words"] for r in carried["rules"]] == ["A"]
    assert [(p["words"], p["step"]) for p in carried["pruned"]] == [("B", 0), ("C", 1)]
    assert carried["tested"]["seed"] == 2 and carried["tested"]["versus_heuristic"]["value"] == 0.015
    assert [r["words"] for r in carried["fitted_carry_rules"]] == ["A", "B", "C"]
    written = json.loads((folder / "worth-top-1.json").read_text())
    assert written["seed"] == 2 and "play_rules_prune.py" in written["command"]
    calls.clear()  # a second run starts from the fit's list again
    scripted(monkeypatch, [worth(1, (0.02, 0.01, 0.03), {w: (0.01, 0.0, 0.02) for w in "ABC"})])
    assert play_rules_prune.main(["--folder", str(folder), "--threads", "1"]) == 0
    again = json.loads((folder / "carried.json").read_text())
    assert again["carry"] == 3 and again["pruned"] == [] and again["tested"]["seed"] == 1  # nothing dropped: seed 1


def test_a_list_that_does_not_beat_the_heuristic_is_not_carried(tmp_path, monkeypatch):
    scripted(monkeypatch, [
        worth(1, (-0.01, -0.02, 0.0), {"A": (0.0, -0.01, 0.01), "B": (-0.03, -0.04, -0.02), "C": (0.0, -0.01, 0.01)}),
        worth(1, (0.0, -0.01, 0.01), {"A": (0.0, -0.01, 0.01), "C": (0.0, -0.01, 0.01)}),
        worth(2, (0.004, -0.004, 0.012), {"A": (0.0, -0.01, 0.01), "C": (0.0, -0.01, 0.01)})])
    folder = fitted(tmp_path)
    assert play_rules_prune.main(["--folder", str(folder), "--threads", "1"]) == 0
    carried = json.loads((folder / "carried.json").read_text())
    assert carried["carry"] == 0 and carried["rules"] == []
    assert carried["tested"] == {"rules": 2, "versus_heuristic": {"value": 0.004, "se": 0.001, "ci95": [-0.004, 0.012]},
                                 "matches": 10, "deals": 50, "seed": 2}
    assert not list(folder.glob("worth-top-*.json"))


def test_a_run_at_the_smallest_size_keeps_its_steps(tmp_path):
    folder = fitted(tmp_path)
    (folder / "positions.json").write_text(json.dumps({"rules": "trinidad", "players": 4}))
    assert play_rules_prune.main(["--folder", str(folder), "--matches", "4", "--threads", "1"]) == 0
    step = json.loads((folder / "prune" / "step-0" / "worth-top-3.json").read_text())
    assert [p["b"] for p in step["pairings"]] == ["heuristic", "without rule 1", "without rule 2", "without rule 3"]
    carried = json.loads((folder / "carried.json").read_text())
    assert carried["carry"] in (0, len(carried["rules"])) and "tested" in carried
