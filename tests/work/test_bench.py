"""``allfours bench`` reports its documented keys (speed itself is never asserted)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from analyser.cli import app


def test_bench_json_has_the_documented_keys() -> None:
    result = CliRunner().invoke(app, ["bench", "--seconds", "0.2", "--threads", "2", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["peak_rss_mib"] > 0
    assert report["nth_card"]["kernel"] in ("PDEP", "portable loop") and report["nth_card"]["why"]
    for name in ("random", "heuristic"):
        item = report[name]
        if item["available"]:
            assert item["threads"] == 2 and item["deals_per_second"] > 0
            assert item["one_thread_deals_per_second"] > 0 and item["speedup"] > 0
        else:
            assert name == "heuristic" and item["reason"]


def test_a_policy_not_built_yet_is_reported_unavailable() -> None:
    from analyser.work.bench import bench_policy

    item = bench_policy("no-such-policy", 2, 0.01)
    assert item["available"] is False and "no-such-policy" in item["reason"]


def test_bench_takes_the_rules_like_every_command():
    runner = CliRunner()
    result = runner.invoke(app, ["bench", "--rules", "classic", "--players", "2", "--seconds", "0.05",
                                 "--threads", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rules"] == "classic, 2 players"
    bad = runner.invoke(app, ["bench", "--rules", "classic", "--set", "target=0"])
    assert bad.exit_code != 0 and "target=0" in bad.stderr
