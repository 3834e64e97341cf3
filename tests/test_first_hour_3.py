"""Issue 28, the first hour (second pass), items 6 to 8.

6. `make run` shows a what-if sentence and a heuristic deal, each labelled, then where to go next.
7. First-use messages tell the truth: what compiles and for about how long, per command; an unwritable
   cache folder is named with the variable that moves it.
8. Interrupted and replaced output: a report is written into a marked partial folder, resumed by the same
   command, and `--force` removes exactly what the earlier report wrote; `simulate --log` interrupted keeps
   its finished deals and says how many.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser import first_use
from analyser.cli import app, options
from analyser.errors import AllFoursError
from analyser.report import folder as report_folder

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def errors(result) -> list[str]:
    """stderr without the first-compile notice (a cold cache may print it first)."""
    return [line for line in result.stderr.splitlines() if not line.startswith("compiling the engine")]


# --- 6. make run: what a player wants to see first -------------------------------------------


@pytest.mark.skipif(shutil.which("make") is None or not (Path(sys.executable).parent / "allfours").exists(),
                    reason="needs make and the allfours console script beside this python")
def test_make_run_shows_a_what_if_and_a_heuristic_deal_labelled_then_where_next(tmp_path):
    stamp = tmp_path / "installed"  # newer than pyproject.toml: make installs nothing
    stamp.touch()
    runs = tmp_path / "runs"
    done = subprocess.run(["make", "-s", "run", f"BIN={Path(sys.executable).parent}", f"STAMP={stamp}",
                           f"RUNS={runs}"], cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    heads = [line for line in out.splitlines() if line.startswith("==")]
    assert heads[0].startswith("== 1/2  A what-if") and heads[1].startswith("== 2/2  One deal")
    assert "heuristic player" in heads[1] + out.split(heads[1])[1].splitlines()[0]
    assert heads[2].startswith("== Where next")
    what_if = out.split(heads[0])[1].split(heads[1])[0]
    assert re.search(r"^(Stand|Beg): .*% of the time", what_if, re.M), what_if  # the answer in a sentence
    deal = out.split(heads[1])[1].split(heads[2])[0]
    assert "trick 1:" in deal and "score after:" in deal and "random" not in out  # a deal, told; no random play
    assert '"format"' not in out  # no raw log lines
    assert all(command in out for command in ("allfours whatif", "allfours strategy", "allfours report",
                                              "allfours analyse"))
    assert [p.name for p in runs.iterdir()] == ["one-deal.jsonl"]


# --- 7. first-use messages tell the truth --------------------------------------------------

HAND = "AS JS 4H 7D 9C TC"
SOLVE = ["solve", "--hands", "AS JS 4H / KD 2D 9C / QH TH 3S / 5C 6C 7C", "--trump", "S"]
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--threads", "1"]


class Stopped(AllFoursError):
    pass


def stop(*args, **kwargs):
    raise Stopped("stopped after the notice")


@pytest.fixture
def kernel_cache(tmp_path, monkeypatch):
    """A kernel cache holding what `replay` compiled (a few kernels of the rules: not empty, and none of the
    solver's or the players'). Yields a function that adds kernels to it."""
    folder = tmp_path / "kernels" / "engine_0123"
    folder.mkdir(parents=True)

    def add(*names: str) -> None:
        for name in names:
            (folder / f"{name}-10.py311.nbi").write_bytes(b"x")

    add("deal.kick_points", "bits.game_points", "state.legal_mask")
    monkeypatch.setattr("analyser.engine.cache_folder", lambda: tmp_path / "kernels")
    monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
    yield add


def test_each_command_says_what_its_own_first_run_compiles(kernel_cache, monkeypatch):
    """A cache that is not empty but lacks the solver's kernels: solve says so (it used to stay silent)."""
    monkeypatch.setattr("analyser.solve.Solver.for_position", stop)
    result = runner.invoke(app, SOLVE)
    assert result.stderr.splitlines() == ["compiling the engine for solve (about 10-35 s, depending on the machine; "
                                          "only its first run waits)", "error: stopped after the notice"]
    kernel_cache("solver.solve_cards")  # now it is compiled: nothing to say
    monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
    assert runner.invoke(app, SOLVE).stderr.splitlines() == ["error: stopped after the notice"]


def test_replay_announces_no_compile(kernel_cache, tmp_path):
    """replay's few kernels compile in about a second: no notice, even with an empty cache."""
    for path in (tmp_path / "kernels").rglob("*.nbi"):
        path.unlink()
    result = runner.invoke(app, ["replay", str(ROOT / "tests" / "logs" / "typed-trinidad.jsonl")])
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.stderr


@pytest.mark.parametrize("command,seconds", [("whatif", 60), ("whatif", 111), ("solve", 14), ("solve", 31),
                                             ("simulate", 105)])
def test_the_estimate_covers_what_was_measured(command, seconds):
    """Cold runs timed: issue 28's machine (whatif 60 s, solve 14 s) and the development machine (CPU seconds
    with an empty NUMBA_CACHE_DIR: whatif 111, solve 31, simulate --policy heuristic 105)."""
    said = first_use.about(first_use.compile_seconds(command))
    lo, hi, unit = re.fullmatch(r"about ([\d.]+)-([\d.]+) (s|min)", said).groups()
    scale = 60 if unit == "min" else 1
    assert float(lo) * scale <= seconds <= float(hi) * scale, said


def test_an_unwritable_cache_is_named_with_what_moves_it(kernel_cache, tmp_path, monkeypatch):
    """Never --equity-dir (not typed): the folder, and ALLFOURS_CACHE_DIR."""
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", "/proc/nope")
    monkeypatch.setattr("analyser.analysis.bidding.equity.cached_table", lambda *a, **k: None)
    monkeypatch.setattr("analyser.analysis.bidding.equity.equity_table",
                        lambda *a, **k: pytest.fail("a table was built before the folder was checked"))
    kernel_cache("solver.solve_cards", "policies.choose_card", "decisions.evaluate_decision")
    result = runner.invoke(app, WHATIF)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        "error: cannot write the cache folder /proc/nope/equity (no such file or directory): set ALLFOURS_CACHE_DIR "
        "to a folder you can write, or give --equity-dir FOLDER"]
    # the kernels' cache: every run compiles, and the notice says so
    monkeypatch.setattr("analyser.engine.cache_folder", lambda: Path("/proc/nope/kernels"))
    monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
    monkeypatch.setattr("analyser.solve.Solver.for_position", stop)
    # What moves the folder: ALLFOURS_CACHE_DIR, unless the caller named numba's own folder (the variable is read,
    # not set here: numba reloads its settings, the cache folder among them, when a NUMBA_ variable changes).
    how = ("NUMBA_CACHE_DIR names it: set it to a folder you can write" if os.environ.get("NUMBA_CACHE_DIR")
           else "set ALLFOURS_CACHE_DIR to a folder you can write to move it")
    (notice, _) = runner.invoke(app, SOLVE).stderr.splitlines()
    assert notice == ("compiling the engine for solve (about 10-35 s, depending on the machine); it cannot be kept: "
                      "the cache folder /proc/nope/kernels cannot be written (no such file or directory), so every "
                      f"run compiles again ({how})")


# --- 8. interrupted and replaced output -------------------------------------------------------

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
    assert errors(first)[-1] == (f"interrupted: the report is not finished; its finished parts (strategy, advice, "
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
    assert errors(result) == [f"error: {partial} holds an unfinished report made with other options or another "
                              "engine: run "
                              "its own command again to finish it, or add --force to start this one over"]
    assert (partial / "PARTIAL.json").is_file()


def test_an_interrupted_log_keeps_its_finished_deals_and_says_how_many(tmp_path, monkeypatch):
    import analyser.simulate as simulate

    lines = simulate.iter_log_lines

    def three_then_stop(*args, **kwargs):
        for n, line in enumerate(lines(*args, **kwargs)):
            if n == 3:
                raise KeyboardInterrupt
            yield line

    monkeypatch.setattr(simulate, "iter_log_lines", three_then_stop)
    log = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["simulate", "--deals", "50", "--threads", "1", "--log", str(log)])
    assert result.exit_code == 130, result.output
    assert errors(result)[-1] == (f"interrupted: the 3 finished deals are kept in {log} (of 50 asked); "
                                  "`allfours replay` reads them")
    assert [json.loads(line)["format"] for line in log.read_text().splitlines()] == ["allfours-log/1"] * 3
