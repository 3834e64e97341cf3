"""How often the cards are run (``analysis.bidding.run_frequency``): counts that add up, and words that say
their interval as the report says its others (``stats.percent`` for every figure, "95% CI a% to b%")."""

from __future__ import annotations

from analyser.analysis.bidding.run_frequency import percent, run_frequency
from analyser.game.rules import make_rules


def test_a_share_and_its_interval_are_said_as_the_report_says_the_others() -> None:
    share = {"deals": 74_600, "share": 0.373, "ci95": [0.37088, 0.37512]}
    assert percent(share) == "37.3% (95% CI 37.1% to 37.5%)"
    assert percent({"deals": 0, "share": 0.0, "ci95": [0.0, 0.00037]}) == "0.0% (95% CI 0.0% to 0.0%)"


def test_the_counts_add_up_and_each_interval_holds_its_share() -> None:
    got = run_frequency(make_rules("trinidad", 4), "heuristic", 2_000, 7)
    assert got["deals"] == 2_000 and sum(got["runs_hist"].values()) == 2_000
    hist = {int(k): v for k, v in got["runs_hist"].items()}
    one, two = got["at_least_one_run"], got["at_least_two_runs"]
    assert one["deals"] == sum(v for k, v in hist.items() if k >= 1) > two["deals"] == sum(
        v for k, v in hist.items() if k >= 2) > 0
    assert got["runs_per_deal"] == sum(k * v for k, v in hist.items()) / 2_000
    for share in (one, two):
        assert share["share"] == share["deals"] / 2_000
        assert share["ci95"][0] < share["share"] < share["ci95"][1]
    assert run_frequency(make_rules("trinidad", 4), "heuristic", 2_000, 7, executor=2) == got  # threads change nothing
