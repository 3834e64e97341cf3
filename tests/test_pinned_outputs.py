"""A fixed seed's outputs, pinned: refactors must leave every number byte-identical.

Each case runs one command through the CLI (one thread, small sizes) and hashes its
JSON output (and the tables it writes) with the volatile fields (timings, paths,
versions, dates) removed. `python tests/test_pinned_outputs.py --write` records the
digests in tests/golden/pins.json; only do that when a change is *meant* to change
numbers, and say so in the commit.

What is pinned is what the machine cannot change: integers (counts, points, cards) as
they are, floats rounded to 10 significant digits (`exact`; those within 1e-12 of zero
taken as zero). The last bits of a float may differ from one CPU to another of the same
kind: the equity table goes through ``np.linalg.inv``, whose OpenBLAS kernel is chosen by
the processor (``OPENBLAS_CORETYPE`` picks another), and what is computed from it (the
what-ifs, the equilibrium's game value) inherits those bits. The rounding goes up from
0.618 of a unit in the 10th digit, not from one half: many outputs are terminating
decimals (the equity table's transition probabilities are counts / 100), and one of
them, 0.029933675865, lies exactly on a half, where the last bits decided its 10th digit.
"""

from __future__ import annotations

import hashlib
import json
import math
from decimal import ROUND_FLOOR, Decimal
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


SIGNIFICANT = 10  # digits of a float that are pinned
ZERO = 1e-12       # floats nearer zero than this are pinned as 0 (a cancellation's leftover bits)
UP_FROM = Decimal("0.6180339887498949")  # of a unit in the last digit kept: no terminating decimal's tie


def exact(x: float) -> float:
    """`x` rounded to SIGNIFICANT digits, up from UP_FROM of a unit in the last one (module docstring): the same
    on every CPU unless a difference reaches that digit. Just below a power of ten the unit is the finer one, so
    0.09999999999999999 and 0.1 both give 0.1."""
    if not math.isfinite(x):
        return x
    if abs(x) < ZERO:
        return 0.0
    d = Decimal(x)  # the float's exact value
    unit = Decimal(1).scaleb(d.adjusted() - SIGNIFICANT + 1)
    units = (abs(d) / unit + 1 - UP_FROM).to_integral_value(rounding=ROUND_FLOOR)
    return math.copysign(float(units * unit), x)


def scrub(value: Any) -> Any:
    """What is pinned of an output: the volatile fields dropped, every float made exact, at any depth."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    if isinstance(value, float):
        return exact(value)
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
            table = table.drop(columns=[c for c in table.columns if c in VOLATILE])
            for column in table.select_dtypes("float").columns:
                table[column] = table[column].map(exact)
            data = table.to_csv(index=False).encode()
        h.update(data)
    return h.hexdigest()


def test_floats_that_differ_in_their_last_bits_are_pinned_alike():
    """The same equity-trinidad2 values with OpenBLAS's SkylakeX and Prescott kernels (issue 28, item 13)."""
    skylake = {"p": 0.5149523194977986, "ci95": [0.48163624480185857, 0.5482683941937386],
               "tie": 0.029933675864999898,  # 0.029933675865 (a terminating decimal) less a few bits
               "check": {"game_value": 0.02215384615384619, "leftover": 1e-17, "deals": 100}}
    prescott = {"p": 0.5149523194977988, "ci95": [0.48163624480185874, 0.548268394193739],
                "tie": 0.02993367586500003,
                "check": {"game_value": 0.022153846153846274, "leftover": -2.5e-17, "deals": 100}}
    assert json.dumps(scrub(skylake), sort_keys=True) == json.dumps(scrub(prescott), sort_keys=True)
    for x in (0.1, 1.0, 0.5, 0.25, 1e-3, 7.0, 100.0):  # round values, and their neighbours a bit away
        assert exact(x) == exact(math.nextafter(x, 0)) == exact(math.nextafter(x, 2 * x)) == x
        assert exact(-x) == -x
    # What a reader could see still counts: a difference in the 10th digit, integers and flags as they are.
    assert scrub({"p": 0.5149523194}) != scrub({"p": 0.5149523195})
    assert exact(0.51495231941) == 0.5149523194 and exact(0.51495231947) == 0.5149523195
    assert scrub([[{"n": 3, "on": True, "x": 0.1 + 0.2}]]) == [[{"n": 3, "on": True, "x": 0.3}]]
    assert type(scrub(3)) is int and scrub(True) is True and exact(-0.0) == 0.0 and math.isnan(exact(math.nan))


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
