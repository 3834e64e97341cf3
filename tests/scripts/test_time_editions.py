"""scripts/time_editions.py: its table of recorded runs and the committed record (the timing itself takes hours
and is run by hand: docs/speed.md)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "time_editions.py"


def load():
    spec = importlib.util.spec_from_file_location("time_editions", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(edition, commit, wall, warm_up=False, rc=0):
    return {"edition": edition, "commit": commit, "scale": 0.002 if warm_up else 1.0, "warm_up": warm_up,
            "wall_s": wall, "rc": rc}


def test_table_takes_the_latest_finished_full_run_and_sums_editions_timed_at_both():
    records = [run("classic-2p", "aaaaaaa", 100.0), run("classic-2p", "bbbbbbb", 80.0),
               run("classic-2p", "bbbbbbb", 70.0),                # the latest of a commit counts
               run("classic-2p", "bbbbbbb", 5.0, warm_up=True),   # warm-ups never do
               run("classic-2p", "aaaaaaa", 1.0, rc=1),           # nor a failed run
               run("trinidad-2p", "aaaaaaa", 300.0)]              # timed at one commit only: not summed
    rows = load().table(records, "aaaaaaa", "bbbbbbb").splitlines()
    assert "| classic-2p | 100.0 | 70.0 | 0.70 |" in rows
    assert "| trinidad-2p | 300.0 | not timed | |" in rows
    assert "| trinidad-4p | not timed | not timed | |" in rows
    assert rows[-1] == "| editions timed at both, summed | 100.0 | 70.0 | 0.70 |"


def test_committed_record_is_valid():
    module = load()
    records = module.read_records(module.RECORD)
    assert records, "results/edition-times.jsonl is empty"
    for r in records:
        assert r["edition"] in module.EDITIONS
        assert r["wall_s"] > 0 and isinstance(r["rc"], int) and isinstance(r["warm_up"], bool)
        # A run that failed or was stopped stays in the record (the table leaves it out): it says why.
        assert r["rc"] == 0 or "stopped" in r["how"] or "fail" in r["how"]


def test_unknown_edition_is_one_clear_error():
    done = subprocess.run([sys.executable, str(SCRIPT), "HEAD", "HEAD", "trinidad-9p"], capture_output=True,
                          text=True)
    assert done.returncode == 2
    assert "unknown edition 'trinidad-9p'" in done.stderr
    assert "Traceback" not in done.stderr
