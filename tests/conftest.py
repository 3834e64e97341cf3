"""Fixtures and helpers shared by test files (in any folder under tests/, which is on pytest's path): the
repository's folders, a small finished report built once per test run, a command's error lines."""

from __future__ import annotations

import errno
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

from analyser.cli import app

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent  # the repository: analyser/, docs/, scripts/, results/
TYPED = TESTS / "logs" / "typed-trinidad.jsonl"  # a trinidad match typed in by hand
SMALL_REPORT_PIMC = "pimc:worlds=6"


@pytest.fixture(scope="session")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classic 2-player report of 2,000 deals (seed 4, pimc at 6 worlds): tests copy it before changing it."""
    out = tmp_path_factory.mktemp("report") / "classic-2p"
    result = CliRunner().invoke(app, ["report", "--rules", "classic", "--players", "2", "--deals", "2000", "--seed",
                                      "4", "--threads", "2", "--out", str(out), "--pimc", SMALL_REPORT_PIMC])
    assert result.exit_code == 0, result.output
    return out


def load_script(name: str) -> ModuleType:
    """scripts/NAME.py as a module (the scripts folder on the path while it loads, for its own imports)."""
    scripts = ROOT / "scripts"
    sys.path.insert(0, str(scripts))
    try:
        spec = importlib.util.spec_from_file_location(name, scripts / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(scripts))
    return module


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (its path inside it) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def error_lines(result) -> list[str]:
    """A command's stderr without the first-compile notice (a cold kernel cache may print it before anything)."""
    return [line for line in result.stderr.splitlines() if not line.startswith("compiling the engine")]


def disk_full(path: Path):
    """A stand-in for a function that writes `path`: it fails as a full disk does."""
    def write(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))
    return write
