"""Parsing at the edge and rule sets."""

from __future__ import annotations

import pytest

from analyser.game.cards import CardError, card_name, parse_card, parse_cards, parse_suit
from analyser.game.rules import PRESETS, RulesError, make_rules, rules_from_log


@pytest.mark.parametrize("token", ["AS", "as", "A♠", "a♠", " AS "])
def test_ace_of_spades_forms(token):
    assert card_name(parse_card(token)) == "AS"


@pytest.mark.parametrize("token", ["10S", "TS", "ts", "10♠", "10s"])
def test_ten_forms(token):
    assert card_name(parse_card(token)) == "TS"


@pytest.mark.parametrize("token", ["1S", "AX", "11H", "", "S", "A", "AS♠", "10"])
def test_bad_card_names_the_token(token):
    with pytest.raises(CardError) as err:
        parse_card(token)
    assert repr(token) in str(err.value)


def test_every_card_round_trips():
    for card in range(52):
        assert parse_card(card_name(card)) == card


def test_parse_cards_counts_and_duplicates():
    assert len(parse_cards("AS JS 4H 7D 9C TC", count=6)) == 6
    with pytest.raises(CardError, match="duplicate card 'as'"):
        parse_cards("AS as")
    with pytest.raises(CardError, match="expected 6 cards, got 7"):
        parse_cards("AS JS 4H 7D 9C TC 2C", count=6)
    assert parse_suit("♥") == 1 and parse_suit("d") == 2
    with pytest.raises(CardError, match="bad suit"):
        parse_suit("X")


def test_presets_and_their_defaults():
    assert make_rules("trinidad").as_log_dict() == {
        "preset": "trinidad", "players": 4, "target": 14, "kick": "trinidad", "discard": False, "bunching": False,
        "hang_jack": True, "game_tie": "none", "undertrump": "allowed", "void_play": "any", "gift": 1,
        "run_cards": 3}
    assert make_rules("trinidad-tobago").kick == "tobago"
    # Document 003: without the led suit, a classic player holding a trump must trump; elsewhere any card.
    assert [make_rules(p).void_play for p in PRESETS] == ["any", "any", "any", "trump"]
    assert make_rules("classic", settings=["void_play=any"]).void_play == "any"
    assert make_rules("trinidad", settings=["void-play=TRUMP"]).void_play == "trump"
    p7 = make_rules("partnership-seven")
    assert (p7.target, p7.kick, p7.discard, p7.bunching, p7.game_tie) == (7, "final-jack", True, True,
                                                                           "dealer-opponents")
    classic = make_rules("classic", players=3, settings=["undertrump=forbidden", "target=7"])
    assert (classic.players, classic.target, classic.kick, classic.undertrump, classic.sides) == (3, 7, "heels",
                                                                                                 "forbidden", 3)
    assert set(PRESETS) == {"trinidad", "trinidad-tobago", "partnership-seven", "classic"}


@pytest.mark.parametrize("preset,players,settings,message", [
    ("nope", None, [], "unknown preset"),
    ("trinidad", 5, [], "players=5"),
    ("trinidad", 3, [], "players=3 is not allowed for trinidad"),
    ("partnership-seven", 2, [], "players=2"),
    ("classic", None, ["target=0"], "target=0 is out of range"),
    ("classic", 2, ["bunching=true"], "bunching needs 4 players"),
    ("classic", None, ["colour=red"], "unknown rule parameter 'colour'"),
    ("classic", None, ["target"], "expected KEY=VALUE"),
    ("classic", None, ["kick=sometimes"], "kick='sometimes'"),
    ("classic", None, ["hang_jack=maybe"], "expected true or false"),
    ("classic", None, ["gift=-1"], "gift=-1"),
    ("classic", None, ["run_cards=9"], "run_cards=9"),
    ("classic", None, ["target=ten"], "expected a whole number"),
    ("classic", None, ["void_play=sometimes"], "void_play=.sometimes.: expected one of any, trump"),
])
def test_rule_errors_are_clear(preset, players, settings, message):
    with pytest.raises(RulesError, match=message):
        make_rules(preset, players=players, settings=settings)


def test_settings_accept_dashes_and_log_rules():
    assert make_rules("classic", settings=["game-tie=non-dealer", "hang-jack=yes"]).hang_jack
    assert rules_from_log({"preset": "trinidad", "target": 7, "comment": "ignored"}).target == 7
    with pytest.raises(RulesError, match="preset"):
        rules_from_log({"target": 7})
