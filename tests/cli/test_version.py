"""`allfours --version` and the version in the --json of a run, both pyproject.toml's."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest
from typer.testing import CliRunner

from analyser import __version__
from analyser.cli import app
from conftest import ROOT, TYPED

HAND = "AS JS 4H 7D 9C TC"
WHATIF = ["whatif", "--hand", HAND, "--turnup", "KS", "--win-by", "playout", "--max-deals", "200", "--threads", "1"]
runner = CliRunner()


def test_version():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == pyproject
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"allfours {pyproject}\n")
    proc = subprocess.run([sys.executable, "-m", "analyser", "--version"], capture_output=True, text=True, timeout=300)
    assert (proc.returncode, proc.stdout) == (0, f"allfours {pyproject}\n")


@pytest.mark.parametrize("args", [["simulate", "--deals", "10", "--threads", "1"],
                                  ["tournament", "--matches", "2", "--threads", "1"], WHATIF,
                                  ["whatif", "--log", str(TYPED), "--event", "2", "--max-deals", "200",
                                   "--threads", "1"],
                                  ["analyse", str(TYPED), "--no-win-prob", "--worlds", "2", "--bid-deals", "100",
                                   "--max-cards", "2", "--threads", "1"]],
                         ids=["simulate", "tournament", "whatif", "whatif --log", "analyse"])
def test_a_runs_json_carries_the_version(args):
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["version"] == __version__
