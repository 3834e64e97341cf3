"""scripts/pimc_models.py at the smallest size: one pairing played, kept, and read back without playing again."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT


def test_a_pairing_is_played_kept_and_read_back(tmp_path: Path) -> None:
    out = tmp_path / "strength.json"
    command = [sys.executable, str(ROOT / "scripts" / "pimc_models.py"), "--matches", "2", "--threads", "1",
               "--only", "pimc:model=full~heuristic", "--out", str(out)]
    first = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr
    kept = json.loads(out.read_text())
    row = kept["pairings"]["pimc:model=full~heuristic"]
    assert kept["key"] == {"matches": 2, "seed": 1} and row["a"] == "pimc:model=full" and row["matches"] == 2
    assert "net points a deal" in first.stdout
    again = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and json.loads(out.read_text()) == kept  # read back, not played again
    bad = subprocess.run([*command[:-3], "pimc~nobody", "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "pairings are" in bad.stderr
