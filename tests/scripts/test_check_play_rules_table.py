"""scripts/check_play_rules_table.py on a table made at the smallest size: dealt again, every position has the
table's features, and the rules player's kernel plays the card the list's words pick (the shipped trinidad-4p list,
and one rule of each class); a row whose class card is changed is caught."""

from __future__ import annotations

import json
import sys

import pandas as pd

from conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import check_play_rules_table  # noqa: E402
import play_positions  # noqa: E402

from analyser.engine.playrules import ACTIONS  # noqa: E402

SHIPPED = ROOT / "results" / "play-rules" / "trinidad-4p" / "rules.json"


def test_the_kernel_plays_the_words_on_every_position_of_a_table(tmp_path, capsys):
    out = tmp_path / "table"
    assert play_positions.main(["--deals", "2", "--worlds", "3", "--threads", "1", "--out", str(out)]) == 0
    assert check_play_rules_table.main(["--folder", str(out), "--rules", str(SHIPPED)]) == 0
    assert " positions checked in " in capsys.readouterr().out
    # one rule per class, each with a test that holds often: the list's order decides which class speaks
    for half in (ACTIONS[:6], ACTIONS[6:][::-1]):  # (a player takes at most 8 rules)
        each = tmp_path / "each.json"
        each.write_text(json.dumps({"rules": [{"tests": [["trumps", ">=", k % 3]], "action": a, "words": a}
                                              for k, a in enumerate(half)]}))
        assert check_play_rules_table.main(["--folder", str(out), "--rules", str(each)]) == 0
    table = pd.read_parquet(out / "positions.parquet")
    fitted = json.loads(SHIPPED.read_text())["rules"]
    hit = next(i for i, row in enumerate(table.itertuples())
               if check_play_rules_table.words_card(row, fitted) != int(row.heuristic))
    action = next(r["action"] for r in fitted
                  if int(getattr(table.iloc[hit], f"a_{r['action']}")) == check_play_rules_table.words_card(
                      next(table.iloc[[hit]].itertuples()), fitted))
    legal = [int(c) for c in table.at[hit, "legal"]]
    table.at[hit, f"a_{action}"] = next(c for c in legal if c != int(table.at[hit, f"a_{action}"]))
    table.to_parquet(out / "positions.parquet", index=False)
    assert check_play_rules_table.main(["--folder", str(out), "--rules", str(SHIPPED)]) == 1
    assert "the kernel plays card" in capsys.readouterr().out
