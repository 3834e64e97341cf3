"""`make run`: what a player wants to see first, a what-if sentence and a heuristic deal, each labelled, then
where to go next."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT


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
