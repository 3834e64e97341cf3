"""scripts/reference_edition.py --tournaments: every tournament of a finished report played again, its section
written again, and nothing else in the report changed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conftest import SMALL_REPORT_PIMC, folder_files
from analyser.report import strength_redo
from analyser.report.strength_redo import KEPT, redo_strength
from analyser.game.rules import make_rules

PIMC = SMALL_REPORT_PIMC  # the pimc the shared report (conftest.report_dir) was built with
MOVED = {"REPORT.md", "report.html", "report.json", "tournaments.png", "tables/tournaments.csv",
         "tables/tournaments.parquet"}


files = folder_files  # every file under a folder with its bytes


def test_the_redo_plays_every_tournament_again_and_changes_nothing_else(report_dir: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Spoilt tournaments come back as the full report wrote them (the same calls, sizes and seeds); every other
    file is byte for byte as it was; interrupted, it changes nothing and the next call goes on after the steps it
    finished."""
    copy = tmp_path / "classic-2p"
    shutil.copytree(report_dir, copy)
    numbers = json.loads((copy / "report.json").read_text())
    assert [row["a"] for row in numbers["tournaments"]] == ["heuristic", "tuned", "equilibrium", PIMC, "oracle", PIMC]
    for row in numbers["tournaments"]:
        row["a_win_rate"] = 2.0  # spoilt: every row must be played again
    numbers["run_deals"]["run_deals"] = -1
    (copy / "report.json").write_text(json.dumps(numbers))
    md = (copy / "REPORT.md").read_text()
    (copy / "REPORT.md").write_text(md.replace("## How strong are the simulated players?\n",
                                               "## How strong are the simulated players?\n\nstale words\n\n"))
    for name in ("tables/tournaments.csv", "tournaments.png"):
        (copy / name).write_bytes(b"stale\n")
    assert {k for k, v in files(copy).items() if files(report_dir)[k] != v} <= MOVED
    before = files(copy)
    rules = make_rules("classic", 2)

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(strength_redo, "run_deal_row", interrupted)
        with pytest.raises(KeyboardInterrupt):
            redo_strength(rules, copy, threads=2)
    assert (copy / KEPT).is_file()
    assert {k: v for k, v in files(copy).items() if k != KEPT} == before  # nothing touched but the kept steps
    monkeypatch.setattr(strength_redo, "player_strength", interrupted)  # finished before: not played again
    monkeypatch.setattr(strength_redo, "search_strength", interrupted)
    redo_strength(rules, copy, threads=1)
    assert not (copy / KEPT).exists()
    assert files(copy) == files(report_dir)  # every file: the moved ones as the report wrote them, the rest as is
    with pytest.raises(ValueError, match="other rules"):
        redo_strength(make_rules("trinidad"), copy)


def test_a_report_without_tournaments_is_left_as_it_is(tmp_path: Path) -> None:
    rules = make_rules("classic", 3)
    (tmp_path / "report.json").write_text(json.dumps({"rules": rules.as_log_dict(), "seed": 1, "deals": 2000}))
    assert redo_strength(rules, tmp_path)["deals"] == 2000
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]
