"""One --score convention in every command (the eldest's side first, the dealer's side last): the same help, the
same points on the same sides in whatif (either seat) and strategy, and the score printed back in those words."""

from __future__ import annotations

import json
import re

import pytest
import typer
from typer.testing import CliRunner

from analyser.analysis.bidding.strategy import parse_side_score, side_scores
from analyser.analysis.bidding.whatif import decider_score, make_situation
from analyser.cli import app, options
from analyser.game.rules import make_rules

HAND = "AS JS 4H 7D 9C TC"
runner = CliRunner()


def test_every_score_option_says_the_same():
    group = typer.main.get_command(app)
    helps = {name: param.help for name, command in group.commands.items()  # type: ignore[attr-defined]
             for param in command.params if "--score" in getattr(param, "opts", [])}
    assert {"whatif", "strategy", "check-advice"} <= set(helps)
    assert set(helps.values()) == {options.SCORE_HELP}
    assert "the eldest's side first, the dealer's side last, in every command" in options.SCORE_HELP


@pytest.mark.parametrize("preset,players,score", [("trinidad", 4, "3:9"), ("trinidad", 2, "9:3"),
                                                  ("classic", 3, "1:4:7")])
@pytest.mark.parametrize("seat", ["eldest", "dealer"])
def test_whatif_and_strategy_read_a_score_alike(preset, players, score, seat):
    """The same --score puts the same points on the same sides in whatif (either seat) and strategy."""
    rules = make_rules(preset, players=players)
    given = parse_side_score(score, rules)
    sit = make_situation(rules, HAND, "KH", seat, ":".join(map(str, decider_score(given, rules, seat))))
    assert sit.side_scores().tolist() == side_scores(rules, given).tolist()
    assert sit.eldest_first() == given


def test_whatif_prints_the_score_back_and_answers_in_a_sentence():
    args = ["whatif", "--rules", "trinidad", "--players", "2", "--hand", HAND, "--turnup", "KH", "--seat", "dealer",
            "--score", "10:12", "--win-by", "playout", "--max-deals", "1000", "--threads", "1"]
    text = runner.invoke(app, args + ["--explain"])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert "score: you 12, the eldest 10 (to 14)" in lines[0]  # --score 10:12 is the eldest's side first
    assert re.fullmatch(r"(Give|Run): with this hand (giving one|running the cards) wins the match about \d+\.\d% of "
                        r"the time, (giving one|running the cards) \d+\.\d%\.|Too close to call: .*", lines[1])
    assert "P(really best)" not in text.stdout and " SE" not in text.stdout and "How: 1,000 deals" in text.stdout
    data = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert data["score"] == [12, 10] and data["score_eldest_first"] == [10, 12]
