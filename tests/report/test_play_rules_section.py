"""The report's section "Rules for playing the cards" (report/play.py): added to a finished edition from the shipped
rules of play, placed before "Play advice", its table the card's rules with their worth, the card drawn again with
its second side; added twice, the same page. A rule set with no fitted rules says so."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pandas as pd

from analyser.game.rules import make_rules
from analyser.report.card import A5, RESULTS
from analyser.report.play import RULES_HEADING, add_play_rules_to_edition

EDITION_FILES = ["REPORT.md", "report.html", "report.json", "card.png", "rules-of-thumb/rules.json",
                 "tables/advice.csv", "tables/play-advice.csv", "equilibrium-scores/scores.csv",
                 "equilibrium-scores/scores.json"]


def copy_edition(name: str, to: Path) -> Path:
    folder = to / name
    for file in EDITION_FILES:
        if not (RESULTS / name / file).is_file():  # three players: no equilibrium at every score
            continue
        (folder / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(RESULTS / name / file, folder / file)
    return folder


def png_width(path: Path) -> int:
    return struct.unpack(">I", path.read_bytes()[16:20])[0]


def test_the_section_is_added_before_play_advice_with_the_cards_rules(tmp_path):
    folder = copy_edition("trinidad-4p", tmp_path)
    md_before = (folder / "REPORT.md").read_text(encoding="utf-8").replace(
        md_section(folder / "REPORT.md"), "")  # the edition as it was before the section, if it holds one
    (folder / "REPORT.md").write_text(md_before, encoding="utf-8")
    play = add_play_rules_to_edition(make_rules("trinidad", players=4), folder)
    md = (folder / "REPORT.md").read_text(encoding="utf-8")
    assert md.index(f"## {RULES_HEADING}\n") < md.index("## Play advice\n")
    carried = json.loads((RESULTS / "play-rules" / "trinidad-4p" / "carried.json").read_text(encoding="utf-8"))
    table = pd.read_csv(folder / "tables" / "play-rules.csv")
    assert list(table["in words"]) == [r["words"] for r in carried["rules"]] == [r["text"] for r in play.rules]
    assert "`--policy rules:trinidad-4p`" in md
    assert json.loads((folder / "report.json").read_text(encoding="utf-8"))["play_rules"]["policy"] == play.policy
    assert f"<h2>{RULES_HEADING}</h2>" in (folder / "report.html").read_text(encoding="utf-8")
    assert png_width(folder / "card.png") == round(2 * A5[0] * 200)  # two A5 sides at 200 dpi
    add_play_rules_to_edition(make_rules("trinidad", players=4), folder)  # again: replaced, not added twice
    assert (folder / "REPORT.md").read_text(encoding="utf-8") == md


def md_section(path: Path) -> str:
    md = path.read_text(encoding="utf-8")
    if f"## {RULES_HEADING}\n" not in md:
        return ""
    start = md.index(f"## {RULES_HEADING}\n")
    return md[start:md.index("\n## ", start) + 1]


def test_rules_with_none_fitted_say_so(tmp_path, monkeypatch):
    import analyser.report.card as card

    folder = copy_edition("classic-3p", tmp_path)
    monkeypatch.setattr(card, "RESULTS", tmp_path / "no-results")  # no shipped rules of play there
    play = add_play_rules_to_edition(make_rules("classic", players=3), folder)
    assert play.rules == [] and play.policy == "heuristic"
    md = (folder / "REPORT.md").read_text(encoding="utf-8")
    section = md[md.index(f"## {RULES_HEADING}\n"):md.index("## Play advice\n")]
    assert "none are fitted for these rules yet" in section and not (folder / "tables" / "play-rules.csv").exists()


def test_rules_fitted_but_none_paid_say_so_on_the_card_and_in_the_report(tmp_path, monkeypatch):
    """A play-rules folder whose pruning kept no rule that beats the heuristic (carry 0, its test kept): the card's
    second side and the report's section say so, with that test's figure, and the policy is the heuristic."""
    import analyser.report.card as card
    from analyser.report.card_play import edition_play, play_sections

    folder = copy_edition("classic-3p", tmp_path)
    shipped = tmp_path / "results" / "play-rules" / "classic-3p"
    shipped.mkdir(parents=True)
    (shipped / "positions.json").write_text(json.dumps({"rules": "classic", "players": 3, "seed": 64000,
                                                         "decisions": 1234}))
    (shipped / "carried.json").write_text(json.dumps({
        "positions": "results/play-rules/classic-3p", "carry": 0, "rules": [], "pruned": [],
        "tested": {"rules": 2, "versus_heuristic": {"value": -0.004, "se": 0.004, "ci95": [-0.012, 0.004]},
                   "matches": 4000, "deals": 20000, "seed": 2}}))
    monkeypatch.setattr(card, "RESULTS", tmp_path / "results")
    rules = make_rules("classic", players=3)
    play = edition_play(rules, folder)
    assert play.rules == [] and play.policy == "heuristic" and play.versus is not None
    assert play.versus["value"] == -0.004 and play.versus["deals"] == 20000
    lines = play_sections(play)[0][1]
    assert lines[0].startswith("None: the rules fitted to the search player's decisions did not beat the heuristic's "
                               "card play on duplicated deals. Play as the heuristic does.")
    assert "the 2 kept after pruning" in lines[0] and "seed 2: -0.004 net points a deal [-0.012, +0.004]; none carried" \
        in lines[0]
    add_play_rules_to_edition(rules, folder)
    section = md_section(folder / "REPORT.md")
    assert "what was left did not beat the heuristic, so none is carried" in section
    assert "-0.004 net points a deal" in section
    assert not (folder / "tables" / "play-rules.csv").exists()
