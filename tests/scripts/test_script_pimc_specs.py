"""The scripts whose shipped figures were measured with pimc's default model of before (the heuristic's rules,
doubt 0.1) name that model, so their commands still give those figures now that a plain ``pimc`` reads the others
by the shared model (``model=full``)."""

from __future__ import annotations

import doctest

import pytest

from analyser.engine.inference import MODEL_FULL
from analyser.engine.layout import X_DOUBT
from analyser.engine.search import PIMC_DOUBT
from analyser.players.policy import parse_policy
from conftest import load_script



def doubt_of(spec: str) -> float:
    return float(parse_policy(spec)[1][X_DOUBT])


def test_a_plain_pimc_is_the_shared_model_so_the_scripts_must_say_heuristic():
    assert doubt_of("pimc") == MODEL_FULL


@pytest.mark.parametrize("name", ["pimc_bench", "bounded_bench"])
def test_the_benches_default_to_the_heuristic_model(name):
    module = load_script(name)
    assert module.POLICY == "pimc:model=heuristic" and doubt_of(module.POLICY) == PIMC_DOUBT


def test_the_fit_and_the_calibration_play_pimc_with_the_heuristic_model():
    spec = load_script("fit_inference").SOURCES["pimc"]
    assert spec == "pimc:tables=results/trinidad-4p/strategy,model=heuristic"
    assert doubt_of(spec) == PIMC_DOUBT
    assert load_script("holders_calibration").SOURCES["pimc"] == spec  # the same logs, one source


def test_sensitivity_plays_the_heuristic_model_unless_told():
    sensitivity = load_script("sensitivity")
    assert doctest.testmod(sensitivity).failed == 0
    assert doubt_of(sensitivity.pimc_spec(10)) == PIMC_DOUBT
    assert doubt_of(sensitivity.pimc_spec(10, doubt=1)) == 1.0
    assert doubt_of(sensitivity.pimc_spec(10, "full")) == MODEL_FULL
    with pytest.raises(ValueError, match="--doubt is the heuristic model's"):
        sensitivity.pimc_spec(10, "full", 0.2)
