"""Fixtures shared by test files: a small finished report, built once per test run."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app

SMALL_REPORT_PIMC = "pimc:worlds=6"


@pytest.fixture(scope="session")
def report_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A classic 2-player report of 2,000 deals (seed 4, pimc at 6 worlds): tests copy it before changing it."""
    out = tmp_path_factory.mktemp("report") / "classic-2p"
    result = CliRunner().invoke(app, ["report", "--rules", "classic", "--players", "2", "--deals", "2000", "--seed",
                                      "4", "--threads", "2", "--out", str(out), "--pimc", SMALL_REPORT_PIMC])
    assert result.exit_code == 0, result.output
    return out


def folder_files(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (its path inside it) with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}
