"""The shipped editions (results/*/) say what the advice check found as the report now writes it: written again
from each edition's report.json, their passages on the bidding advice come out byte for byte as shipped; the
verdicts say what to do ("contradicted: always beg", the README's words), and the check's jargon is gone."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from analyser.analysis.stats import percent
from analyser.report.advice import bullet, finding, measured, rewrite_advice_sections
from analyser.game.rules import make_rules
from conftest import ROOT

RESULTS = ROOT / "results"
EDITIONS = sorted(p.parent.name for p in RESULTS.glob("*/report.json"))
FILES = ("REPORT.md", "report.html", "report.json", "tables/advice.csv", "tables/advice.parquet",
         "tables/equilibrium-advice.csv", "tables/equilibrium-advice.parquet")


def test_there_are_editions() -> None:
    assert {"trinidad-4p", "trinidad-2p", "classic-3p"} <= set(EDITIONS)


@pytest.mark.parametrize("name", EDITIONS)
def test_a_shipped_edition_reads_as_the_report_writes_it_now(name: str, tmp_path: Path) -> None:
    shipped = RESULTS / name
    copy = tmp_path / name
    for file in FILES:
        (copy / file).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shipped / file, copy / file)
    numbers = json.loads((shipped / "report.json").read_text(encoding="utf-8"))
    rules = make_rules(numbers["rules"]["preset"], numbers["rules"]["players"])
    rewrite_advice_sections(rules, copy)
    for file in ("REPORT.md", "report.html", "tables/advice.csv", "tables/equilibrium-advice.csv"):
        assert (copy / file).read_bytes() == (shipped / file).read_bytes(), f"{name}/{file}"
    for file in ("tables/advice.parquet", "tables/equilibrium-advice.parquet"):
        pd.testing.assert_frame_equal(pd.read_parquet(copy / file), pd.read_parquet(shipped / file))
    for file in ("REPORT.md", "report.html"):
        text = (shipped / file).read_text(encoding="utf-8")
        assert "document 003" not in text.lower() and "parametric bootstrap" not in text, f"{name}/{file}"
    md = (shipped / "REPORT.md").read_text(encoding="utf-8")
    for claim in numbers["advice"]:
        assert f"- {bullet(claim)}\n" in md
    for claim in numbers["equilibrium_advice"]:
        assert f"- {bullet(claim, equilibrium=True)}\n" in md


def test_the_reference_edition_says_contradicted_always_beg_as_the_readme_does() -> None:
    # The share read through the hierarchical model of the sub-class means (0.998 [0.986, 1.000] before, with the
    # observed means' signs counted).
    md = (RESULTS / "trinidad-4p" / "REPORT.md").read_text(encoding="utf-8")
    assert ("- **contradicted: always beg**: \"With no trump support, the eldest should beg 70-80% of the time.\" "
            "Begging beats standing for 100.0% of the eldest's hands without trump (95% CI 99.3% to 100.0%).") in md
    assert "- **contradicted: always beg** (equilibrium): \"With no trump support" in md
    claim = json.loads((RESULTS / "trinidad-4p" / "report.json").read_text(encoding="utf-8"))["advice"][0]
    readme = " ".join((RESULTS.parent / "README.md").read_text(encoding="utf-8").split())
    assert "*contradicted*, twice: always beg" in readme
    assert f"{percent(claim['estimate'])} of zero-trump hands (95% CI {percent(claim['ci95'][0])} to" in readme


CLAIM = {"claim": "Beg when missing the ace or the jack of trump.", "verdict": "inconclusive",
         "id": "eldest-beg-missing-ace-or-jack", "unit": "net points per deal"}


@pytest.mark.parametrize("estimate, ci, said", [(0.2, [0.1, 0.3], "beg"), (-0.2, [-0.3, -0.1], "stand"),
                                                (0.01, [-0.02, 0.04], "too close to call"),
                                                (float("nan"), [float("nan")] * 2, "not measured")])
def test_a_difference_says_which_is_better_or_that_it_is_too_close(estimate, ci, said) -> None:
    assert finding({**CLAIM, "estimate": estimate, "ci95": ci}) == said


def test_the_losing_option_is_never_said_to_beat_the_other() -> None:
    claim = {**CLAIM, "estimate": -0.5, "ci95": [-0.6, -0.4]}
    assert measured(claim) == ("With trump but not both the ace and the jack of trump, standing beats begging by "
                               "0.500 net points per deal (95% CI 0.400 to 0.600).")


@pytest.mark.parametrize("p, said", [(1.0, "always beg"), (0.996, "always beg"), (0.0, "always stand"),
                                     (0.27, "mostly stand (beg 27.0%)"), (0.8, "mostly beg (beg 80.0%)")])
def test_a_probability_of_begging_in_words(p, said) -> None:
    claim = {**CLAIM, "id": CLAIM["id"] + "-equilibrium", "method": "equilibrium", "estimate": p, "ci95": [p, p]}
    assert finding(claim) == said
