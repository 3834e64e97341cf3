"""First use, announced truthfully: the first compile of the engine (once, only for a cold kernel cache, what each
command compiles and for about how long), the first equity table, and an unwritable cache folder named with the
variable that moves it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.work import first_use
from analyser.cli import app, options
from analyser.engine import cache_is_cold
from analyser.game.errors import AllFoursError
from conftest import TYPED, error_lines

HAND = "AS JS 4H 7D 9C TC"
COMPILING = "compiling the engine for simulate (about 1-2 min, depending on the machine; only its first run waits)"
SOLVE = ["solve", "--hands", "AS JS 4H / KD 2D 9C / QH TH 3S / 5C 6C 7C", "--trump", "S"]
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--threads", "1"]
runner = CliRunner()


def test_a_cold_cache_is_a_missing_or_empty_folder(tmp_path):
    assert cache_is_cold(tmp_path / "missing") and cache_is_cold(tmp_path)
    (tmp_path / "sub").mkdir()
    assert cache_is_cold(tmp_path)
    (tmp_path / "sub" / "kernel.nbi").write_bytes(b"x")
    assert not cache_is_cold(tmp_path)


def test_the_announcement_is_made_once_and_only_for_a_cold_cache(monkeypatch, capsys):
    for cold, said in ((False, ""), (True, COMPILING + "\n")):
        monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
        monkeypatch.setattr("analyser.engine.missing_kernels", lambda names: list(names) if cold else [])
        options.announce_engine("simulate")
        options.announce_engine("simulate")
        assert capsys.readouterr().err == said


def test_a_first_run_says_it_compiles(tmp_path):
    """One real cold start: the line comes before any kernel compiles (the run is stopped there)."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ALLFOURS_CACHE_DIR"] = str(tmp_path / "cache")
    proc = subprocess.Popen([sys.executable, "-m", "analyser", "simulate", "--deals", "10", "--threads", "1"],
                            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        first = proc.stderr.readline()
    finally:
        proc.kill()
        proc.wait()
    assert first == COMPILING + "\n"


def test_building_an_equity_table_is_announced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def stop(*args, **kwargs):
        raise AllFoursError("stopped before the table")

    monkeypatch.setattr("analyser.analysis.bidding.equity.cached_table", lambda *a, **k: None)
    monkeypatch.setattr("analyser.analysis.bidding.equity.equity_table", stop)
    result = runner.invoke(app, ["whatif", "--hand", HAND, "--turnup", "KS", "--threads", "2"])
    notice, last = error_lines(result)
    assert notice == ("building the match-equity table for trinidad, 4 players (first use, about 20 s); it is kept "
                      f"in {Path('results') / 'equity'} for next time") or notice.startswith(
                          "building the match-equity table for trinidad, 4 players (first use, about ")
    assert last == "error: stopped before the table"


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
    monkeypatch.setattr("analyser.players.solve.Solver.for_position", stop)
    result = runner.invoke(app, SOLVE)
    assert result.stderr.splitlines() == ["compiling the engine for solve (about 10-35 s, depending on the machine; "
                                          "only its first run waits)", "error: stopped after the notice"]
    kernel_cache("solve.solve_cards")  # now it is compiled: nothing to say
    monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
    assert runner.invoke(app, SOLVE).stderr.splitlines() == ["error: stopped after the notice"]


def test_replay_announces_no_compile(kernel_cache, tmp_path):
    """replay's few kernels compile in about a second: no notice, even with an empty cache."""
    for path in (tmp_path / "kernels").rglob("*.nbi"):
        path.unlink()
    result = runner.invoke(app, ["replay", str(TYPED)])
    assert result.exit_code == 0, result.output
    assert "compiling" not in result.stderr


@pytest.mark.parametrize("command,seconds", [("whatif", 60), ("whatif", 111), ("solve", 14), ("solve", 31),
                                             ("simulate", 105)])
def test_the_estimate_covers_what_was_measured(command, seconds):
    """Cold runs timed: a slower machine (whatif 60 s, solve 14 s) and the development machine (CPU seconds
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
    kernel_cache("solve.solve_cards", "policies.choose_card", "decisions.evaluate_decision")
    result = runner.invoke(app, WHATIF)
    assert result.exit_code == 2, result.output
    assert result.stderr.splitlines() == [
        "error: cannot write the cache folder /proc/nope/equity (no such file or directory): set ALLFOURS_CACHE_DIR "
        "to a folder you can write, or give --equity-dir FOLDER"]
    # the kernels' cache: every run compiles, and the notice says so
    monkeypatch.setattr("analyser.engine.cache_folder", lambda: Path("/proc/nope/kernels"))
    monkeypatch.setattr(options, "_ANNOUNCED", type(options._ANNOUNCED)())
    monkeypatch.setattr("analyser.players.solve.Solver.for_position", stop)
    # What moves the folder: ALLFOURS_CACHE_DIR, unless the caller named numba's own folder (the variable is read,
    # not set here: numba reloads its settings, the cache folder among them, when a NUMBA_ variable changes).
    how = ("NUMBA_CACHE_DIR names it: set it to a folder you can write" if os.environ.get("NUMBA_CACHE_DIR")
           else "set ALLFOURS_CACHE_DIR to a folder you can write to move it")
    (notice, _) = runner.invoke(app, SOLVE).stderr.splitlines()
    assert notice == ("compiling the engine for solve (about 10-35 s, depending on the machine); it cannot be kept: "
                      "the cache folder /proc/nope/kernels cannot be written (no such file or directory), so every "
                      f"run compiles again ({how})")
