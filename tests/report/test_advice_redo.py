"""scripts/reference_edition.py --advice: the best-response advice claims of a finished report measured again by
the call its build made (its own policy, advice deals and seed), report.json's "advice" and the passages on the
advice written again, the card where a verdict changed, and nothing else in the report changed."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, SMALL_REPORT_PIMC, folder_files
from analyser.analysis.play import play_advice
from analyser.report.advice import HEADING, redo_advice
from analyser.game.rules import make_rules

PIMC = SMALL_REPORT_PIMC  # the pimc the shared report (conftest.report_dir) was built with
MOVED = {"REPORT.md", "report.html", "report.json", "card.png", "tables/advice.csv", "tables/advice.parquet",
         "tables/equilibrium-advice.csv", "tables/equilibrium-advice.parquet"}


files = folder_files  # every file under a folder with its bytes


def spoil(folder: Path) -> None:
    """Claims as another estimator would have read them, a verdict among them, and their passages and tables."""
    numbers = json.loads((folder / "report.json").read_text())
    for claim in numbers["advice"]:
        claim["estimate"], claim["ci95"] = 0.75, [0.71, 0.79]
    numbers["advice"][0]["verdict"] = "supported"
    for reading in numbers["equilibrium_advice"]:
        reading["best_response_verdict"] = "supported"
    (folder / "report.json").write_text(json.dumps(numbers, indent=1) + "\n")
    md = (folder / "REPORT.md").read_text()
    (folder / "REPORT.md").write_text(md.replace(f"## {HEADING}\n", f"## {HEADING}\n\nstale words\n\n"))
    for name in ("tables/advice.csv", "tables/equilibrium-advice.csv", "card.png"):
        (folder / name).write_bytes(b"stale\n")


def test_the_redo_measures_the_claims_again_and_changes_nothing_else(report_dir: Path, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    copy = tmp_path / "classic-2p"
    shutil.copytree(report_dir, copy)
    spoil(copy)
    assert {k for k, v in files(copy).items() if files(report_dir)[k] != v} <= MOVED

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("the play tips are not played again")

    monkeypatch.setattr(play_advice, "add_play_tips", played)
    said: list[str] = []
    numbers = redo_advice(make_rules("classic", 2), copy, threads=1, say=said.append)
    assert "2,000 deals per role, seed 4" in said[0] and any("card.png drawn again" in s for s in said)
    # The same numbers, words and tables as the full report wrote (the same call, sizes and seed), byte for byte.
    for name in sorted(MOVED - {"card.png"}):
        assert (copy / name).read_bytes() == (report_dir / name).read_bytes(), name
    assert numbers == json.loads((report_dir / "report.json").read_text())
    # The card shows the verdicts: drawn again because one changed (from the edition's own rules of thumb).
    assert (copy / "card.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert {k for k, v in files(copy).items() if files(report_dir)[k] != v} <= {"card.png"}
    # Verdicts as they were: the card is left alone.
    (copy / "card.png").write_bytes(b"kept\n")
    redo_advice(make_rules("classic", 2), copy, threads=1)
    assert (copy / "card.png").read_bytes() == b"kept\n"
    with pytest.raises(ValueError, match="other rules"):
        redo_advice(make_rules("trinidad", 4), copy)


def test_the_script_mode_redoes_the_named_edition(report_dir: Path, tmp_path: Path) -> None:
    results = tmp_path / "results"
    copy = results / "classic-2p"
    shutil.copytree(report_dir, copy)
    spoil(copy)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "reference_edition.py"), "--advice", "--only",
                           "classic-2p", "--threads", "1", "--out", str(results)], capture_output=True, text=True,
                          cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "classic-2p: the advice claims measured again" in done.stdout
    for name in sorted(MOVED - {"card.png"}):
        assert (copy / name).read_bytes() == (report_dir / name).read_bytes(), name
