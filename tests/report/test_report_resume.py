"""An interrupted report, and one replaced: the report is written into a marked partial folder, finished by the
same command (its finished parts read back, not run again), refused with other options; `--force` removes exactly
what the earlier report wrote."""

from __future__ import annotations

import json
import shutil

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.report import folder as report_folder
from conftest import error_lines

runner = CliRunner()

REPORT = ["report", "--rules", "classic", "--players", "3", "--set", "target=5", "--deals", "2000", "--seed", "3",
          "--threads", "2", "--pimc", "pimc:worlds=6"]


def refuse(*names: str):
    def work(*args, **kwargs):
        pytest.fail(f"{', '.join(names)} ran again: the finished part was not kept")
    return work


def test_an_interrupted_report_is_no_report_and_the_same_command_finishes_it(tmp_path, monkeypatch):
    out = tmp_path / "report"
    import analyser.report.build as build

    shifts = build.score_shifts

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "score_shifts", interrupt)
    first = runner.invoke(app, [*REPORT, "--out", str(out)])
    assert first.exit_code == 130, first.output
    partial = tmp_path / "report.partial"
    assert error_lines(first)[-1] == (f"interrupted: the report is not finished; its finished parts (strategy, advice, "
                                      f"equilibrium, equilibrium-fine, rules-of-thumb) are kept in {partial}; run the same command again "
                                      "to finish it")
    assert not out.exists()  # nothing at --out looks like a report
    assert (partial / "PARTIAL.json").is_file() and not list(tmp_path.rglob("REPORT.md"))

    # the same command: the finished parts are read back, not run again
    monkeypatch.setattr(build, "score_shifts", shifts)
    for name in ("run_strategy", "check_advice", "run_equilibrium"):
        monkeypatch.setattr(build, name, refuse(name))
    snapshot = tmp_path / "snapshot"  # the complete partial folder, to finish it once more below
    finish = report_folder.Partial.finish

    def keep_a_copy(self):
        shutil.copytree(self.folder, snapshot)
        return finish(self)

    monkeypatch.setattr(report_folder.Partial, "finish", keep_a_copy)
    second = runner.invoke(app, [*REPORT, "--out", str(out)])
    assert second.exit_code == 0, second.output
    assert "report: strategy tables: kept from the unfinished run" in second.stderr
    assert not partial.exists() and (out / "REPORT.md").is_file()
    manifest = json.loads((out / "manifest.json").read_text())
    files = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert set(manifest["files"]) == files and "strategy/tuned.json" in files
    assert not [p for p in out.rglob("*.json") if "report.partial" in p.read_text()]  # paths name the report

    # --force over it: exactly what the earlier report wrote goes, a file of the user's stays
    (out / "notes.txt").write_text("mine\n")
    (out / "old-chart.png").write_bytes(b"stale")
    (out / "tables" / "old-table.csv").write_text("stale\n")
    manifest["files"] += ["old-chart.png", "tables/old-table.csv", "../outside.txt"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "outside.txt").write_text("not the report's\n")
    shutil.copytree(snapshot, partial)  # every part done: the --force run only writes the files
    monkeypatch.setattr(report_folder.Partial, "finish", finish)
    monkeypatch.setattr(build, "score_shifts", refuse("score_shifts"))
    third = runner.invoke(app, [*REPORT, "--out", str(out), "--force"])
    assert third.exit_code == 0, third.output
    assert (out / "notes.txt").read_text() == "mine\n" and (tmp_path / "outside.txt").is_file()
    assert not (out / "old-chart.png").exists() and not (out / "tables" / "old-table.csv").exists()
    assert (out / "REPORT.md").is_file() and not partial.exists()
    assert "notes.txt" not in json.loads((out / "manifest.json").read_text())["files"]


def test_an_unfinished_report_with_other_options_is_refused_before_any_work(tmp_path, monkeypatch):
    out = tmp_path / "report"
    partial = tmp_path / "report.partial"
    partial.mkdir()
    (partial / "PARTIAL.json").write_text(json.dumps({"format": report_folder.FORMAT, "key": {"deals": 5000},
                                                      "done": []}))
    monkeypatch.setattr("analyser.report.build.run_strategy", refuse("run_strategy"))
    result = runner.invoke(app, [*REPORT, "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert error_lines(result) == [f"error: {partial} holds an unfinished report made with other options or another "
                                   "engine: run "
                                   "its own command again to finish it, or add --force to start this one over"]
    assert (partial / "PARTIAL.json").is_file()
