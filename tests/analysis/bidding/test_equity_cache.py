"""Equity tables live in the user's cache, not in the working folder or the source tree; the
tables shipped under results/equity are still found, and never written."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import analyser
from analyser.analysis.bidding import equity
from analyser.analysis.bidding.equity import cached_table, equity_folder, equity_table, estimate_equity, save_table
from analyser.cli import app
from analyser.game.rules import make_rules

REPOSITORY = Path(analyser.__file__).resolve().parent.parent
TINY = make_rules("trinidad", settings=["target=3"])


def files_under(folder: Path) -> dict[str, float]:
    return {p.relative_to(folder).as_posix(): p.stat().st_mtime for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty user cache (ALLFOURS_CACHE_DIR) and an empty working folder to run from."""
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path / "cache"


def kernel_cache_folder(tmp_path: Path, **env: str | None) -> str:
    """numba's cache folder as a fresh interpreter that imports the engine sees it, with `env` set on top of
    ours (None: the variable unset), so neither this process's imports nor the caller's variables decide it."""
    environment = {**os.environ, **{k: v for k, v in env.items() if v is not None}}
    for name in (k for k, v in env.items() if v is None):
        environment.pop(name, None)
    script = "import numba, analyser.engine; print(numba.config.CACHE_DIR)"
    result = subprocess.run([sys.executable, "-c", script], env=environment, cwd=tmp_path, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_cache_folder_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The kernels' cache: under the same root as the equity tables, unless the caller names numba's own folder.
    mine = kernel_cache_folder(tmp_path, ALLFOURS_CACHE_DIR=str(tmp_path / "root"), NUMBA_CACHE_DIR=None)
    assert Path(mine).parent == tmp_path / "root" and Path(mine).name.startswith("numba-")
    assert kernel_cache_folder(tmp_path, ALLFOURS_CACHE_DIR=str(tmp_path / "root"),
                               NUMBA_CACHE_DIR=str(tmp_path / "numba")) == str(tmp_path / "numba")  # respected
    monkeypatch.delenv("ALLFOURS_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert equity_folder() == tmp_path / "xdg" / "allfours" / "equity"
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(tmp_path / "mine"))
    assert equity_folder() == tmp_path / "mine" / "equity" and equity_folder(tmp_path / "x") == tmp_path / "x"


def test_the_cache_tests_hold_whatever_the_caller_sets(tmp_path: Path) -> None:
    """The test above run by a caller that set NUMBA_CACHE_DIR (or ALLFOURS_CACHE_DIR, XDG_CACHE_HOME): it still
    passes (issue 28, item 13: it failed wherever NUMBA_CACHE_DIR was set)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "callers-numba"), "ALLFOURS_CACHE_DIR": str(tmp_path / "a"),
           "XDG_CACHE_HOME": str(tmp_path / "x")}
    test = f"{Path(__file__).resolve()}::test_the_cache_folder_follows_the_environment"
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test], env=env,
                            cwd=REPOSITORY, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-3000:]


def test_a_whatif_writes_its_equity_table_to_the_cache_and_nothing_to_the_repository(cache: Path) -> None:
    results = REPOSITORY / "results"
    before = files_under(results) if results.is_dir() else {}
    args = ["whatif", "--rules", "trinidad", "--set", "target=3", "--hand", "AS JS 4H 7D 9C TC", "--turnup", "KS",
            "--max-deals", "2000", "--threads", "1", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.stderr
    table = Path(json.loads(result.stdout)["equity_table"])
    assert table.parent == cache / "equity" and table.is_file()  # estimated once, kept in the user's cache
    assert not any(Path.cwd().iterdir())  # nothing in the working folder
    assert (files_under(results) if results.is_dir() else {}) == before  # nor in the source tree
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 0 and json.loads(again.stdout)["equity_table"] == str(table)  # read back


def test_a_shipped_table_is_found_when_the_cache_lacks_it_and_never_written(
        cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shipped = tmp_path / "shipped"
    monkeypatch.setattr(equity, "SHIPPED_DIR", shipped)
    made = estimate_equity(TINY, "random", 500, 3, threads=1)
    path = save_table(made, shipped)
    before = files_under(shipped)
    found = cached_table(TINY, "random")
    assert found is not None and found[1] == path
    table, where, cached = equity_table(TINY, "random", 500, 3)
    assert cached and where == path and (table.p == made.p).all()
    # The command draws the heatmap into the cache folder, not beside the shipped table.
    result = CliRunner().invoke(app, ["equity", "--set", "target=3", "--policy", "random", "--deals-per-cell", "500",
                                      "--seed", "3", "--json"])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["cached"] and Path(out["file"]) == path and Path(out["heatmap"]).parent == cache / "equity"
    assert files_under(shipped) == before
    # A table in the cache comes first; a table no folder has is estimated into the cache.
    _, mine, cached = equity_table(TINY, "random", 500, 4)
    assert not cached and mine.parent == cache / "equity"
    assert cached_table(TINY, "random", deals_per_cell=500)[1] == mine  # type: ignore[index]
    assert files_under(shipped) == before


def test_the_shipped_table_is_found_from_an_empty_cache(tmp_path: Path) -> None:
    """results/equity is found from the module's own place, and the engine's digest reads the engine's files (both
    were off by a folder when analysis/ was split, and the shipped table was never used)."""
    assert equity.SHIPPED_DIR.is_dir() and any(equity.SHIPPED_DIR.glob("*.parquet"))
    assert equity.engine_digest() != hashlib.sha256().hexdigest()[:16]  # the digest of no file at all
    found = cached_table(make_rules("trinidad"), "heuristic", tmp_path / "empty")
    assert found is not None and found[1].parent == equity.SHIPPED_DIR
