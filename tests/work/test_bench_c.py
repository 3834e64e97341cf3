"""The C reference (scripts/c_reference/) plays the engine's game; speed itself is never asserted."""

from __future__ import annotations

import pytest

from analyser.work import bench_c

needs_cc = pytest.mark.skipif(bench_c.find_compiler() is None,
                              reason="no C compiler (cc, gcc or clang) on PATH to build the C reference")


@needs_cc
def test_the_c_reference_scores_like_the_engine() -> None:
    # 150,000 deals each, independent streams: every category's points per deal (and
    # matches ended per deal) within 4 combined standard errors.
    result = bench_c.agreement(150_000, seed=3)
    assert result["available"], result
    assert result["agree"], bench_c.agreement_text(result)
    rows = result["categories"]
    assert rows["other kick"]["c"] == rows["other kick"]["engine"] == 0  # kick points go to the dealer's side
    assert 0.4 < rows["dealer kick"]["c"] < 0.52  # (1 + 2 + 3) / 13 = 0.46


@needs_cc
def test_the_c_reference_is_deterministic_and_counts_every_deal() -> None:
    a = bench_c.c_totals(5000, 11)
    assert a == bench_c.c_totals(5000, 11)
    assert a["deals"] == 5000 and 0 < a["matches"] < 5000
    for side in ("dealer", "other"):
        for name in bench_c.C_CATEGORIES:
            assert a[side + "_sq"][name] >= a[side][name] >= 0
    binary, built = bench_c.build_reference()
    assert binary.is_file() and "-O3" in built["flags"]
    assert bench_c.c_deals_per_second(binary, 0.05) > 0


def test_no_compiler_is_a_note_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench_c, "find_compiler", lambda: None)
    for result in (bench_c.run_against_c(0.01, 1), bench_c.agreement(10, 1)):
        assert result["available"] is False and "no C compiler" in result["reason"]
    text = bench_c.against_c_text(bench_c.run_against_c(0.01, 1))
    assert "\n" not in text and "no C compiler" in text


def test_the_text_shows_every_figure_and_ratio() -> None:
    rate = {"c": 2.5e6, "translation": 2.4e6, "random": 2.0e6, "random_no_pdep": 1.5e6, "heuristic": 0.8e6,
            "random_2_threads": 3.9e6}
    result = {
        "available": True, "rules": "trinidad", "policy": "random:beg=0", "seconds": 2.0, "rounds": 3,
        "deals_per_second": rate,
        "translation": {"deals_per_second": 2.4e6, "same_totals_as_c_over": 20000, "same_totals_as_c": True},
        "ratios": {"translation_over_c": 0.96, "random_over_translation": 0.833, "heuristic_over_translation": 0.333,
                   "random_over_c": 0.8, "random_no_pdep_over_c": 0.6, "heuristic_over_c": 0.32,
                   "two_threads_over_one_thread": 1.95},
        "engine_pdep": True, "c_pdep": True, "nth_card": {"kernel": "PDEP", "why": "znver4 has BMI2 with a fast PDEP"},
        "machine": {"cpu": "Some CPU", "cores": 2, "usable_cores": 2, "arch": "x86_64"},
        "compiler": {"compiler": "/usr/bin/cc", "version": "cc 12", "flags": ["-O3", "-march=native"]},
    }
    text = bench_c.against_c_text(result)
    for piece in ("2,500,000", "2,400,000", "x0.96 of C", "x0.83 of the translation", "x0.33 of the translation",
                  "x0.80 of C", "x0.60 of C", "x0.32 of C", "x1.95 of 1 thread", "Some CPU", "-O3 -march=native",
                  "n-th card: PDEP (znver4 has BMI2 with a fast PDEP)"):
        assert piece in text
    assert "differ" not in text and "per round" not in text  # no rounds' own ratios given: no line for them
    result["ratio_samples"] = {name: [value * 0.9, value, value * 1.1] for name, value in result["ratios"].items()}
    assert ("per round: translation 0.86-1.06 of C, random 0.75-0.92 and heuristic 0.30-0.37 of the translation, "
            "2 threads 1.75-2.15 of 1") in bench_c.against_c_text(result)
    result["ratio_samples"] = {name: [value] for name, value in result["ratios"].items()}
    assert "per round" not in bench_c.against_c_text(result)  # one round: its ratio is the figure
    result["translation"]["same_totals_as_c"] = False
    assert "its totals differ from the C program's" in bench_c.against_c_text(result)


@needs_cc
def test_the_numba_translation_gives_the_c_programs_totals_exactly() -> None:
    from analyser.engine.c_port import Port, same_as_c

    c = bench_c.c_totals(3000, 5)
    assert same_as_c(c, 3000, 5)
    assert not same_as_c(c, 3000, 6)  # another seed, other deals: the check can fail
    port = Port(5)
    port.play(3000)
    assert port.as_c_totals()["deals"] == 3000


def test_the_nth_card_choice_is_named() -> None:
    from analyser.engine import bits

    choice = bits.nth_card_choice()
    assert choice["kernel"] == ("PDEP" if bits.nth_card is bits.nth_card_pdep else "portable loop")
    assert choice["why"] and bits.pdep_choice()[0] == bits.pdep_is_fast()


def test_bench_against_c_option_is_wired(monkeypatch):
    """`allfours bench --against-c` prints run_against_c's figures (stubbed here: timing is never tested)."""
    import json

    from typer.testing import CliRunner

    import analyser.work.bench_c as bench_c
    from analyser.cli import app

    fake = {"available": False, "reason": "no C compiler (cc, gcc or clang) on PATH"}
    calls = []
    monkeypatch.setattr(bench_c, "run_against_c", lambda seconds, rounds: calls.append((seconds, rounds)) or fake)
    result = CliRunner().invoke(app, ["bench", "--against-c", "--seconds", "0.5", "--rounds", "4", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout) == fake and calls == [(0.5, 4)]
    text = CliRunner().invoke(app, ["bench", "--against-c"])
    assert text.exit_code == 0 and text.stdout.strip() == "C reference: " + fake["reason"]
    bad = CliRunner().invoke(app, ["bench", "--against-c", "--players", "2"])
    assert bad.exit_code == 2 and "--against-c measures the trinidad 4-player figures" in bad.stderr
