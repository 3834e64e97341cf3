"""A fixed seed's outputs, pinned: refactors must leave every number byte-identical.

Each case runs one command through the CLI (one thread, small sizes) and hashes its
JSON output (and the tables it writes) with the volatile fields (timings, paths,
versions, dates) removed. `python tests/test_pinned_outputs.py --write` records the
digests in tests/golden/pins.json; only do that when a change is *meant* to change
numbers, and say so in the commit.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

PINS = Path(__file__).parent / "golden" / "pins.json"
VOLATILE = {"seconds", "deals_per_s", "version", "engine", "command", "created", "out", "equity_table", "tensor",
            "elapsed", "wall_s", "file", "heatmap", "plot", "path"}
HAND = "AS JS 4H 7D 9C TC"


def cases(tmp: Path) -> dict[str, tuple[list[str], list[str]]]:
    """name -> (command arguments, files under tmp whose bytes join the digest)."""
    return {
        "simulate-trinidad-heuristic": (["simulate", "--rules", "trinidad", "--deals", "20000", "--seed", "3",
                                         "--policy", "heuristic", "--threads", "1", "--json"], []),
        "simulate-partnership-random": (["simulate", "--rules", "partnership-seven", "--deals", "20000", "--seed", "4",
                                         "--threads", "1", "--json"], []),
        "simulate-classic3-mixed": (["simulate", "--rules", "classic", "--players", "3", "--deals", "5000",
                                     "--seed", "5", "--policy", "heuristic", "--policy", "random",
                                     "--policy", "heuristic:smear=0", "--threads", "1", "--json"], []),
        "whatif-classic3": (["whatif", "--rules", "classic", "--players", "3", "--hand", HAND, "--turnup", "KS",
                             "--score", "1:2:3", "--max-deals", "2000", "--threads", "1", "--json"], []),
        "whatif-trinidad2-dealer": (["whatif", "--rules", "trinidad", "--players", "2", "--hand", HAND,
                                     "--turnup", "KH", "--seat", "dealer", "--win-by", "playout",
                                     "--max-deals", "1000", "--threads", "1", "--json"], []),
        "strategy-trinidad": (["strategy", "--rules", "trinidad", "--deals", "2000", "--rounds", "2",
                               "--out", str(tmp / "st"), "--threads", "1", "--json"],
                              ["st/eldest.csv", "st/dealer.csv", "st/rounds.csv", "st/tuned.json"]),
        "equity-trinidad2": (["equity", "--rules", "trinidad", "--players", "2", "--deals-per-cell", "100",
                              "--out", str(tmp / "eq"), "--threads", "1", "--json"], []),
        "check-advice-trinidad": (["check-advice", "--rules", "trinidad", "--deals", "2000", "--threads", "1",
                                   "--play-deals", "2000", "--play-matches", "200", "--json"], []),
        "tournament-trinidad": (["tournament", "--rules", "trinidad", "--a", "heuristic", "--b", "random",
                                 "--matches", "40", "--seed", "1", "--json"], []),
        # Every seat random (the benchmark's case, and logs of it): the engine's all-random loop.
        "simulate-trinidad-random-beg0": (["simulate", "--rules", "trinidad", "--deals", "50000", "--seed", "9",
                                           "--policy", "random:beg=0", "--threads", "1", "--json"], []),
        "simulate-classic3-random-forbid": (["simulate", "--rules", "classic", "--players", "3", "--set",
                                             "undertrump=forbidden", "--deals", "20000", "--seed", "10", "--policy",
                                             "random", "--threads", "1", "--json"], []),
        "simulate-trinidad2-random-log": (["simulate", "--rules", "trinidad", "--players", "2", "--deals", "300",
                                           "--seed", "11", "--policy", "random", "--log", str(tmp / "r.jsonl"),
                                           "--threads", "1", "--json"], ["r.jsonl"]),
    }


def scrub(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def digest(name: str, tmp: Path) -> str:
    from typer.testing import CliRunner

    from analyser.cli import app

    args, files = cases(tmp)[name]
    result = CliRunner().invoke(app, args, catch_exceptions=False)
    assert result.exit_code == 0, (name, result.output)
    text = result.stdout
    start = min(i for i in (text.find("{"), text.find("["), len(text)) if i >= 0)  # an object or a list
    output, _ = json.JSONDecoder().raw_decode(text[start:])
    h = hashlib.sha256(json.dumps(scrub(output), sort_keys=True).encode())
    for rel in files:
        data = (tmp / rel).read_bytes()
        if rel.endswith(".json"):
            data = json.dumps(scrub(json.loads(data)), sort_keys=True).encode()
        elif rel.endswith(".csv"):  # drop timing columns
            import pandas as pd

            table = pd.read_csv(tmp / rel)
            data = table.drop(columns=[c for c in table.columns if c in VOLATILE]).to_csv(index=False).encode()
        h.update(data)
    return h.hexdigest()


@pytest.mark.parametrize("name", sorted(json.loads(PINS.read_text())) if PINS.exists() else [])
def test_pinned_output(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # default folders (equity cache, runs/) land in the temporary folder
    assert digest(name, tmp_path) == json.loads(PINS.read_text())[name], f"{name}: numbers changed"


def test_every_case_is_pinned():
    assert PINS.exists() and set(json.loads(PINS.read_text())) == set(cases(Path("."))), "re-record the pins"


if __name__ == "__main__" and "--write" in sys.argv:
    import os
    import tempfile

    pins = {}
    for case in cases(Path(".")):
        with tempfile.TemporaryDirectory() as folder:
            os.chdir(folder)
            pins[case] = digest(case, Path(folder))
            print(case, pins[case], flush=True)
    os.chdir(PINS.parent.parent.parent)
    PINS.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n")
