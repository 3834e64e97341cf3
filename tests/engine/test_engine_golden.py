"""Hand-built deals through the numba kernel: the worked examples and every special path.

Each deal is also refereed by both referees, so a kernel bug cannot hide behind
a log the referees would reject.
"""

from __future__ import annotations

import json

from analyser.engine.layout import I_EXHAUSTED, I_RUNS, I_TRICKS, I_WINNER
from analyser.referee import referee_line
from analyser.game.rules import make_rules

from engine_fixtures import fixed_deck, play_fixed, points_of

try:
    import reference_rules as ref
except ImportError:  # tests/ is a package
    from tests import reference_rules as ref

TRINIDAD = make_rules("trinidad")


def refereed(line: dict) -> dict:
    line = json.loads(json.dumps(line))
    referee_line(line)
    ref.referee_line(line)
    return line


def test_small_trump_keeps_its_point_and_captured_jack_is_hung():
    """Documents 000/004 §05: side 0 holds A♠ 2♠ J♠; whoever captures them, High and Low stay with side 0."""
    hands = {0: "AS 2S JS 3H 3D 4C", 1: "KS QS 4H 9H 7C 8C", 2: "5H TH 9C TC 5C 6C", 3: "7H 8H 4D 5D 6D 7D"}
    for seed in range(40):
        line, info, pts = play_fixed(TRINIDAD, 3, [0, 0], fixed_deck(TRINIDAD, 3, hands, "9S"), beg=0, seed=seed)
        line = refereed(line)
        got = points_of(line)
        assert got[0] == (0, 1, "high") and got[1] == (0, 1, "low")
        jack = [p for p in got if p[2] in ("jack", "hang-jack")]
        captor = jack[0][0]
        assert jack == [(captor, 1 if captor == 0 else 3, "jack" if captor == 0 else "hang-jack")]


def test_game_tie_goes_to_dealers_opponents_and_wins_from_six():
    """Document 002 §06 through the referee (the kernel's tie rule is covered by simulation)."""
    from test_reference_rules import golden2

    verdict = referee_line(json.loads(json.dumps(golden2())))
    assert verdict.points[-1] == (1, 1, "game") and verdict.winner == 1 and verdict.score_after == [5, 7]


def test_strict_order_stops_at_the_target():
    # 13-13: side 0 holds every trump in play, so High ends the match; nothing else is scored.
    hands = {0: "AS 2S 3H 3D 4C 5C", 1: "4H 9H 7C 8C 6H 2H", 2: "5H TH 9C TC 6C 7H", 3: "8H 4D 5D 6D 7D 8D"}
    line, info, _ = play_fixed(TRINIDAD, 3, [13, 13], fixed_deck(TRINIDAD, 3, hands, "9S"), beg=0)
    line = refereed(line)
    assert points_of(line) == [(0, 1, "high")] and info[I_WINNER] == 0
    assert line["events"][-1]["why"] == "high" and line["score_after"] == [14, 13]


def test_one_trump_in_play_is_high_and_low():
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    for seed in range(10):
        line, *_ = play_fixed(TRINIDAD, 0, [0, 0], fixed_deck(TRINIDAD, 0, hands, "2S"), beg=0, seed=seed)
        got = points_of(refereed(line))
        assert got[:2] == [(1, 1, "high"), (1, 1, "low")]  # seat 3 holds the only trump, 7♠
        assert not [p for p in got if p[2] in ("jack", "hang-jack")]  # J♠ is in the stock


def test_kick_wins_mid_deal_and_the_log_ends_there():
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    line, info, _ = play_fixed(TRINIDAD, 1, [0, 11], fixed_deck(TRINIDAD, 1, hands, "JS"), beg=0)
    line = refereed(line)
    assert [e["event"] for e in line["events"]] == ["deal", "turnup", "points"]
    assert points_of(line) == [(1, 3, "kick")] and line["winner"] == 1 and info[I_TRICKS] == 0


def test_gift_wins_mid_deal():
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    line, info, _ = play_fixed(TRINIDAD, 0, [3, 13], fixed_deck(TRINIDAD, 0, hands, "9S"), beg=1, give=1)
    line = refereed(line)
    assert [e["event"] for e in line["events"]][-3:] == ["beg", "give", "points"]
    assert points_of(line) == [(1, 1, "gift")] and line["winner"] == 1


def test_tobago_two_is_a_kick():
    rules = make_rules("trinidad-tobago")
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    for turnup, kick in [("2S", 2), ("6S", 0), ("AS", 1), ("JS", 3)]:
        line, *_ = play_fixed(rules, 0, [0, 0], fixed_deck(rules, 0, hands, turnup), beg=0)
        got = points_of(refereed(line))
        assert ([p for p in got if p[2] == "kick"] == [(0, kick, "kick")]) if kick else not got[0][2] == "kick"


def test_double_run_then_a_new_suit():
    # Turn-up 9♠, the eldest begs, the dealer runs: 6♠ (kick 2, spades again) then K♥ fixes hearts.
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    run1 = "AD KD QD JD TD 2D 3C 2C TS QS KS AS"  # 12 run cards, eldest first
    run2 = "AC KC QC JC 8S 5S 4S 3S JH QH AH JS"
    deck = fixed_deck(TRINIDAD, 0, hands, "9S", run1 + " 6S " + run2 + " KH")
    line, info, _ = play_fixed(TRINIDAD, 0, [0, 0], deck, beg=1, give=0)
    line = refereed(line)
    kinds = [e["event"] for e in line["events"]]
    assert kinds[:11] == ["deal", "turnup", "beg", "run", "more", "turnup", "points", "more", "turnup", "trump", "play"]
    assert line["events"][9] == {"event": "trump", "suit": "H"}
    assert info[I_RUNS] == 2 and info[I_EXHAUSTED] == 0 and info[I_TRICKS] == 12  # all 12 cards are played


def test_third_same_suit_turnup_exhausts_the_pack():
    hands = {0: "3H 3D 4C 5C 6C 7C", 1: "4H 9H 8C 9C 6H 2H", 2: "5H TH TC 7H 8H 4D", 3: "7S 5D 6D 7D 8D 9D"}
    run1 = "AD KD QD JD TD 2D 3C 2C TS QS KS AS"
    run2 = "AC KC QC JC 8S 5S 4S 3S JH QH AH JS"
    deck = fixed_deck(TRINIDAD, 0, hands, "9S", run1 + " 2S " + run2 + " 6S")
    line, info, pts = play_fixed(TRINIDAD, 0, [0, 0], deck, beg=1, give=0)
    line = refereed(line)
    kinds = [e["event"] for e in line["events"]]
    first_redeal = kinds.index("redeal")
    assert kinds[:first_redeal] == ["deal", "turnup", "beg", "run", "more", "turnup", "more", "turnup", "points"]
    assert line["events"][first_redeal] == {"event": "redeal", "reason": "exhausted"}
    assert kinds[first_redeal + 1] == "deal"
    assert info[I_EXHAUSTED] >= 1 and (0, 2, "kick") in points_of(line)  # the 6♠ kick of the void deal stands
