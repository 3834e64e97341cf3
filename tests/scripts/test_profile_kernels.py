"""scripts/profile_kernels.py: the parts that need neither perf nor a fresh compile (the profile itself
takes minutes and perf, so it is run by hand: docs/speed.md)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "scripts" / "profile_kernels.py"


def load():
    spec = importlib.util.spec_from_file_location("profile_kernels", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_short_names_of_numba_symbols():
    short_name = load().short_name
    mangled = ("_ZN8analyser6engine4deal12play_line_inB3v29B48c8tJTIeFIjxB2IKSgI4CrvSCKg1MMYiAhicRsBpNAA_3d_3dE5Array"
               "IxLi1E1C7mutable7alignedE")
    assert short_name(mangled) == "deal.play_line_in"
    assert short_name("_ZN8analyser6engine7playout7playoutB3v99B40c8tE5ArrayIxLi1E") == "playout.playout"
    assert short_name("_ZN5numba7cpython7helpersE") == "numba.cpython.helpers"
    assert short_name("memset") == "memset"


def test_says_what_is_missing_without_perf(tmp_path):
    # An empty PATH: perf is "not installed" whether or not this machine has it.
    done = subprocess.run([sys.executable, str(SCRIPT), "random:beg=0"], capture_output=True, text=True,
                          env={"PATH": str(tmp_path)})
    assert done.returncode != 0
    assert "is not installed" in done.stderr


def test_workloads_run_and_count_their_units():
    # The child's two workloads without perf: playouts count lines, solves count the solver's nodes.
    module = load()
    kernel, step = module.playouts("random:beg=0")
    assert kernel.__name__ == "simulate_lines_in" and step() == 20_000
    kernel, step = module.solves(6)
    assert kernel.__name__ == "solve_value"
    first, second = step(), step()
    assert first > 0 and second > 0
