"""One voice: whatif, the bid hint and the coach say where playing this hand out differs from the shipped
strategy's table and card; scores named by side; who is who; probabilities never in exponent form."""

from __future__ import annotations

import json
import re

import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.shipped import class_words, disagreement, hand_class_of, lookup
from analyser.analysis.stats import probability
from analyser.game.cards import parse_card, parse_cards
from analyser.cli import app
from analyser.game.rules import make_rules
from analyser.table.coach import Coach
from analyser.table.entry import Entry, build, read_cards
from analyser.table.hint import who_is_who

runner = CliRunner()
TRINIDAD = make_rules("trinidad")
# The two hands: J♥ alone with 3♥ turned up (class T1:J), 4♠ alone with J♠ turned up (class T1:lo).
JACK_ALONE = ("JH 9S 8S KD 4C 2C", "3H")
FOUR_ALONE = ("4S AH KH QD JD 2C", "JS")


def whatif(hand: str, turnup: str, *extra: str) -> str:
    result = runner.invoke(app, ["whatif", "--rules", "trinidad", "--players", "4", "--hand", hand, "--turnup", turnup,
                                 "--threads", "1", *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


# ---- the probability wording ----------------------------------------------------------------------------------


def test_a_probability_is_never_in_exponent_form_and_its_extremes_are_said_in_words():
    assert probability(0.995) == "99.5%" and probability(0.9996) == "99.96%"  # .2g gave "1e+02%"
    assert probability(0.99995) == probability(1.0) == "above 99.99%"
    assert probability(0.00004) == probability(0.0) == "below 0.01%"
    assert probability(0.0004) == "0.04%" and probability(0.48) == "48%" and probability(0.05) == "5%"
    for k in range(0, 100_001):
        text = probability(k / 100_000)
        assert re.fullmatch(r"(above |below )?\d+(\.\d+)?%", text), text
        assert not text.startswith("100") and text not in ("0%", "0.0%", "0.00%"), (k, text)


def test_whatif_says_a_near_certain_answer_in_digits_not_1e02():
    out = whatif(*JACK_ALONE)
    assert "e+" not in out and "1e" not in out
    assert re.search(r"beg is better \(by match-win chance\) with probability 99\.\d+%", out), out
    assert "with probability above 99.99%" in whatif(*FOUR_ALONE)


# ---- the shipped table ---------------------------------------------------------------------------------------------


def test_the_shipped_table_classes_the_hand_as_the_strategy_tables_do():
    hand = tuple(parse_cards(JACK_ALONE[0]))
    assert hand_class_of(hand, 1) == ("T1:J", False)
    assert hand_class_of(tuple(parse_cards("AS TS 5S 9D 8D 2C")), 2) == ("T2", True)  # A♠ 10♠ 5♠: a strong side suit
    answer = lookup(TRINIDAD, "eldest", hand, parse_card("3H"), (0, 0))
    assert answer is not None
    assert (answer.cls, answer.action, answer.p, answer.settled) == ("T1:J", "stand", 1.0, False)
    assert answer.card_action == "stand" and answer.source == "results/trinidad-4p/equilibrium/equilibrium.json"
    four = lookup(TRINIDAD, "eldest", tuple(parse_cards(FOUR_ALONE[0])), parse_card("JS"), (0, 0))
    assert four is not None and (four.cls, four.action, four.settled) == ("T1:lo", "stand", True)
    assert class_words("T1:lo") == "one trump, a low one (2 to 5)"


def test_the_table_is_read_at_the_score_where_the_edition_has_it_else_at_0_0():
    hand, up = tuple(parse_cards(JACK_ALONE[0])), parse_card("3H")
    near = lookup(TRINIDAD, "eldest", hand, up, (12, 3))  # the equilibrium at every score: near the target, beg
    assert near is not None and near.at_hand_score and near.score == (12, 3) and near.action == "beg"
    assert near.source.endswith("equilibrium-scores/scores.csv")
    three = make_rules("classic", 3)  # no equilibrium at every score with three players: 0:0, and said so
    alone = lookup(three, "eldest", hand, up, (3, 5, 1))
    assert alone is not None and not alone.at_hand_score and alone.score == (0, 0, 0)
    said = disagreement(alone, "stand" if alone.action == "beg" else "beg", hand, up, three, "you 3, seat 1 5")
    assert said is not None and "the table is for 0:0:0 and this hand is at you 3, seat 1 5" in said
    assert lookup(make_rules("trinidad", settings={"target": 21}), "eldest", hand, up, (0, 0)) is None


@pytest.mark.parametrize("hand,turnup,cls,why", [
    (*JACK_ALONE, "T1:J", "the equilibrium has not settled this class (its P(beg) lies anywhere from 0% to 90%"),
    (*FOUR_ALONE, "T1:lo", "the turn-up J♠ is the jack of trump (no one can hold it) and kicks 3 to the dealer's side"),
])
def test_whatif_says_where_this_hand_played_out_leaves_the_card(hand, turnup, cls, why):
    out = whatif(hand, turnup).splitlines()
    assert out[1].startswith("Beg: ")
    assert out[2].startswith("The strategy card says stand for one trump, ") and f"(class {cls}); this hand, " \
        "played out, begs: the card is a rule for the whole class, and what sets this hand apart is: " in out[2]
    assert why in out[2]
    data = json.loads(whatif(hand, turnup, "--json"))
    assert data["best"] == "beg"
    assert {k: data["table"][k] for k in ("class", "action", "p")} == {"class": cls, "action": "stand", "p": 1.0}
    assert data["table"]["source"] == "results/trinidad-4p/equilibrium/equilibrium.json"


def test_whatif_says_nothing_more_where_the_hand_follows_the_card():
    out = whatif("AS KS QS JS 4H 7D", "9S", "--max-deals", "2000")
    assert "The strategy card says" not in out and out.splitlines()[1].startswith("Stand: ")
    data = json.loads(whatif("AS KS QS JS 4H 7D", "9S", "--max-deals", "2000", "--json"))
    assert data["table"]["class"] == "T4+:A,J" and data["table"]["action"] == "stand"


def test_no_shipped_strategy_gives_a_null_table():
    result = runner.invoke(app, ["whatif", "--hand", FOUR_ALONE[0], "--turnup", "JS", "--set", "target=21",
                                 "--max-deals", "1000", "--threads", "1", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["table"] is None


# ---- scores by side, who is who ----------------------------------------------------------------------------------


def test_whatif_names_the_score_by_side_from_the_deciders_chair():
    eldest = whatif(*JACK_ALONE, "--score", "6:11", "--max-deals", "1000")
    assert "score: your side 6, theirs 11 (to 14)" in eldest.splitlines()[0]
    dealer = whatif(*JACK_ALONE, "--seat", "dealer", "--score", "6:11", "--max-deals", "1000")
    assert "score: your side 11, theirs 6 (to 14)" in dealer.splitlines()[0]  # --score: the eldest's side first
    assert "eldest's side first" not in eldest + dealer


def test_who_is_who_with_two_three_and_four_players():
    assert who_is_who(TRINIDAD, 1) == ("you are seat 1, play passes to your left: seat 2, on your left, plays after "
                                       "you; seat 3, opposite, is your partner; seat 0, on your right, plays before "
                                       "you")
    assert "(no partners: each seat scores alone)" in who_is_who(make_rules("classic", 3), 0)
    assert who_is_who(make_rules("trinidad", 2), 0).endswith("(no partners: each of you scores alone)")


def test_a_bid_hint_names_the_score_by_side_says_who_is_who_and_where_it_leaves_the_card():
    args = ["hint", "--dealer", "0", "--seat", "1", "--hand", FOUR_ALONE[0], "--turnup", "JS", "--score", "6:10",
            "--threads", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Beg: ")
    assert lines[1].startswith("The strategy card says stand for one trump, a low one (2 to 5) (class T1:lo)")
    assert lines[2].endswith("score: your side 6, theirs 10 (to 14)")  # seat 1 is the eldest: 6 is its side's
    assert lines[3] == who_is_who(TRINIDAD, 1)
    data = json.loads(runner.invoke(app, args + ["--json"]).stdout)
    assert data["kind"] == "bid" and data["table"]["class"] == "T1:lo" and data["table"]["action"] == "stand"
    assert data["table"]["score_eldest_first"] == [6, 10] and data["table"]["at_hand_score"] is True


def test_a_card_hint_names_the_score_by_side_and_says_who_is_who():
    result = runner.invoke(app, ["hint", "--rules", "trinidad", "--players", "2", "--dealer", "1", "--seat", "0",
                                 "--hand", "JH 9S 8S KD 4C 2C", "--turnup", "3H", "--bids", "stand", "--score", "3:9",
                                 "--threads", "1"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[1].endswith("score as play began: you 3, seat 1 9 (to 14)")
    assert lines[2] == "you are seat 0; seat 1, opposite, plays after you (no partners: each of you scores alone)"


# ---- the coach ---------------------------------------------------------------------------------------------------


def test_the_coach_says_why_the_cards_stand_was_wrong_for_this_hand():
    rules = TRINIDAD
    entry = Entry(rules, 3, [0, 0], hands={0: read_cards(FOUR_ALONE[0], ""), 1: read_cards("2S 3S 5S 6S 7S 8S", ""),
                                           2: read_cards("9S TS QS KS AS 2H", ""), 3: read_cards("3H 4H 5H 6H 7H 8H", "")},
                  turnups=[parse_card("JS")])
    built = build(entry)
    assert built.due.kind == "bid" and built.due.seat == 0
    coach = Coach(rules, 0, 1, "all")
    stood = coach.judge(built.line, 1, "stand")
    assert stood is not None and stood.best == "beg" and stood.loss_ci95 is not None and stood.loss_ci95[0] > 0
    words = coach.comment(stood)
    assert words is not None and words.startswith("beg was better; stand gave up ")
    assert ("The strategy card says stand for one trump, a low one (2 to 5) (class T1:lo); this hand, played out, "
            "begs: ") in words and "the turn-up J♠ is the jack of trump" in words
    begged = coach.judge(built.line, 1, "beg")
    assert coach.comment(begged) == "beg was the best bid."  # the better bid, taken: nothing about the card


def test_whatif_log_at_a_card_names_the_score_by_side_from_the_seats_chair(tmp_path):
    log = tmp_path / "deal.jsonl"
    made = runner.invoke(app, ["simulate", "--rules", "trinidad", "--players", "2", "--deals", "1", "--seed", "3",
                               "--log", str(log)])
    assert made.exit_code == 0, made.output
    line = json.loads(log.read_text().splitlines()[0])
    plays = [k for k, e in enumerate(line["events"]) if e["event"] == "play"]
    result = runner.invoke(app, ["whatif", "--log", str(log), "--event", str(plays[-2]), "--worlds", "20"])
    assert result.exit_code == 0, result.output
    seat = line["events"][plays[-2]]["seat"]
    assert re.search(rf"score as play started, from seat {seat}'s chair: you \d+, seat {1 - seat} \d+ \(to 14\)$",
                     result.stdout.splitlines()[1]), result.stdout
    assert "eldest's side first" not in result.stdout


def test_a_situation_names_the_score_from_the_deciders_chair_with_two_three_and_four_players():
    from analyser.analysis.bidding.whatif import make_situation

    hand = JACK_ALONE[0]
    assert make_situation(TRINIDAD, hand, "3H", "dealer", "11:6").score_words() == "your side 11, theirs 6"
    assert make_situation(make_rules("trinidad", 2), hand, "3H", "eldest", "6:11").score_words() == \
        "you 6, the dealer 11"
    three = make_rules("classic", 3)
    assert make_situation(three, hand, "3H", "eldest", "3:5:1").score_words() == \
        "you 3, the player after you 5, the dealer 1"
    assert make_situation(three, hand, "3H", "dealer", "1:3:5").score_words() == \
        "you 1, the eldest 3, the player after the eldest 5"


def test_where_the_equilibrium_agrees_with_the_hand_the_card_is_called_the_simpler_rule():
    hand, up = tuple(parse_cards("JD 9D AS KS QS 2C")), parse_card("5D")  # the dealer, two trumps with the jack
    answer = lookup(TRINIDAD, "dealer", hand, up, (0, 0))
    assert answer is not None and (answer.cls, answer.action, answer.card_action) == ("T2:J", "give", "run")
    assert disagreement(answer, "give", hand, up, TRINIDAD, "your side 0, theirs 0") == (
        "The strategy card says run for two trumps with the jack (class T2:J); the equilibrium at 0:0 says give; "
        "this hand, played out, gives one: the card's rule is the simpler one, and it leaves the equilibrium on "
        "this class (the card says what that costs).")
    assert disagreement(answer, "run", hand, up, TRINIDAD, "your side 0, theirs 0") is not None  # leaves the table
    near = lookup(TRINIDAD, "eldest", tuple(parse_cards(JACK_ALONE[0])), parse_card("3H"), (12, 3))
    said = disagreement(near, "beg", tuple(parse_cards(JACK_ALONE[0])), parse_card("3H"), TRINIDAD,
                        "your side 12, theirs 3")
    assert said is not None and said.endswith("the card is the rule at 0:0, and at this score the equilibrium "
                                              "itself moves to beg with this class.")
    assert disagreement(answer, "give", hand, up, TRINIDAD, "x") is not None
    four = lookup(TRINIDAD, "eldest", tuple(parse_cards(FOUR_ALONE[0])), parse_card("JS"), (0, 0))
    assert disagreement(four, "stand", tuple(parse_cards(FOUR_ALONE[0])), parse_card("JS"), TRINIDAD, "x") is None
