"""Self-tests of the pure-Python reference rules (tests/reference_rules.py) alone."""

from __future__ import annotations

import copy
import json
import random

import pytest

try:
    import reference_rules as ref
except ImportError:  # tests/ is a package
    from tests import reference_rules as ref

RefereeError = ref.RefereeError


# --------------------------------------------------------------------------- helpers

def line(rules, dealer, score_before, events, score_after=None, winner=None):
    return {"format": "allfours-log/1", "rules": rules, "dealer": dealer,
            "score_before": score_before, "events": events,
            "score_after": score_after, "winner": winner}


def tricks_events(tricks):
    """tricks: [(leader, [cards in play order], winner)] -> play/trick events."""
    out = []
    for leader, cards, winner in tricks:
        for k, c in enumerate(cards):
            out.append({"event": "play", "seat": (leader + k) % 4, "card": c})
        out.append({"event": "trick", "winner": winner})
    return out


def pts(side, n, why, **kw):
    return {"event": "points", "side": side, "n": n, "why": why, **kw}


def expect_error(obj, index, fragment=""):
    with pytest.raises(RefereeError) as info:
        ref.referee_line(obj)
    assert info.value.event_index == index, str(info.value)
    assert fragment in info.value.message, str(info.value)
    return info.value


def index_of(events, pred, start=0):
    return next(i for i in range(start, len(events)) if pred(events[i]))


# --------------------------------------------------------------------------- golden 1
# Documents 000/004 section 05: spades trump; our partnership (side 0) held A♠ and 2♠.
# We win the ace, an opponent captures the two; High and Low are still ours.  The same
# opponent captures our J♠: hang-jack, 3 points, under trinidad.
# Dealer 3 (side 1), eldest 0 (side 0).  Turn-up 9♠ (no kick), eldest stands.

G1_HANDS = [
    ["AS", "3H", "3D", "4C", "5C", "6C"],  # seat 0, side 0: A♠
    ["KS", "QS", "4H", "9H", "7C", "8C"],  # seat 1, side 1
    ["JS", "2S", "5H", "TH", "9C", "TC"],  # seat 2, side 0: J♠ 2♠
    ["7H", "8H", "4D", "5D", "6D", "7D"],  # seat 3, side 1: no trump
]
G1_TRICKS = [
    (0, ["3H", "4H", "5H", "7H"], 3),
    (3, ["8H", "AS", "9H", "TH"], 0),   # we win the ace (trumping the heart lead)
    (0, ["3D", "KS", "2S", "4D"], 1),   # opponent seat 1 captures our 2♠
    (1, ["QS", "JS", "5D", "4C"], 1),   # ... and our J♠: hang-jack
    (1, ["7C", "9C", "6D", "5C"], 2),
    (2, ["TC", "7D", "6C", "8C"], 2),
]
# card points: side 0: 8H AS(4) 9H TH(10) + 7C 9C 6D 5C + TC(10) = 24; side 1: KS(3) + QS(2) JS(1) = 6


def golden1_events():
    return ([{"event": "deal", "hands": copy.deepcopy(G1_HANDS)},
             {"event": "turnup", "card": "9S"},
             {"event": "stand", "seat": 0},
             {"event": "trump", "suit": "S"}]
            + tricks_events(G1_TRICKS))


def golden1(score_before=(0, 0), rules=None):
    rules = rules or {"preset": "trinidad", "players": 4, "target": 14, "kick": "trinidad",
                      "discard": False, "bunching": False, "hang_jack": True, "game_tie": "none",
                      "undertrump": "allowed", "void_play": "any", "gift": 1, "run_cards": 3}
    ev = golden1_events() + [pts(0, 1, "high"), pts(0, 1, "low"), pts(1, 3, "hang-jack"),
                             pts(0, 1, "game", totals=[24, 6])]
    sb = list(score_before)
    return line(rules, 3, sb, ev, [sb[0] + 3, sb[1] + 3], None)


def test_golden1_high_low_stay_with_holders_hang_jack():
    obj = golden1()
    obj["score_after"] = [3, 3]
    res = ref.referee_line(obj)
    assert res == {"points": [(0, 1, "high"), (0, 1, "low"), (1, 3, "hang-jack"), (0, 1, "game")],
                   "score_after": [3, 3], "winner": None}


def test_golden1_round_trips_json_and_input_forms():
    obj = golden1()
    obj["score_after"] = [3, 3]
    obj = json.loads(json.dumps(obj))
    # 10 and suit symbols are accepted on input
    obj["events"][0]["hands"][2] = ["J♠", "2♠", "5♥", "10♥", "9♣", "10♣"]
    obj["events"][3]["suit"] = "♠"
    assert ref.referee_line(obj)["score_after"] == [3, 3]


def test_golden1_hang_jack_wins_and_log_ends_there():
    obj = golden1(score_before=(5, 11))
    # hang-jack takes side 1 from 11 to 14: Game is not scored
    obj["events"].pop()  # drop the game event
    obj["score_after"], obj["winner"] = [7, 14], 1
    res = ref.referee_line(obj)
    assert res["winner"] == 1 and res["points"][-1] == (1, 3, "hang-jack")
    # a log that continues after the target was reached
    bad = golden1(score_before=(5, 11))
    bad["score_after"], bad["winner"] = [8, 14], 1
    expect_error(bad, len(bad["events"]) - 1, "must end")
    # the right events but a wrong winner / score_after
    obj2 = copy.deepcopy(obj)
    obj2["winner"] = None
    expect_error(obj2, -1, "winner")
    obj3 = copy.deepcopy(obj)
    obj3["score_after"] = [7, 13]
    expect_error(obj3, -1, "score_after")


def test_golden1_without_hang_jack_scores_plain_jack():
    obj = golden1(rules={"preset": "trinidad", "hang_jack": False, "unknown_key": 3})
    obj["events"][-2] = pts(1, 1, "jack")
    obj["score_after"] = [3, 1]
    assert ref.referee_line(obj)["points"][2] == (1, 1, "jack")
    # the hang-jack the default trinidad would give is now wrong
    obj2 = golden1(rules={"preset": "trinidad", "hang_jack": False})
    expect_error(obj2, len(obj2["events"]) - 2, "wrong points")


def test_golden1_scored_when_no_points_events():
    obj = golden1()
    obj["events"] = golden1_events()
    del obj["score_after"], obj["winner"]
    res = ref.referee_line(obj)
    assert res["points"] == [(0, 1, "high"), (0, 1, "low"), (1, 3, "hang-jack"), (0, 1, "game")]
    assert res["score_after"] == [3, 3] and res["winner"] is None
    obj["score_before"] = [12, 12]
    res = ref.referee_line(obj)
    assert res["points"] == [(0, 1, "high"), (0, 1, "low")] and res["winner"] == 0


# --------------------------------------------------------------------------- golden 2
# Document 002 section 06 (partnership-seven): each partnership captures 18 card points;
# North-South (side 0) dealt, so East-West (side 1) scores Game.  Side 1 started at 6
# and High, Low, Jack (all side 0, from 2 to 5) did not end the match: Game wins at 7.
# Dealer 0, eldest 1.  Hearts trump (turn-up 9♥, eldest stands).

G2_HANDS = [
    ["5S", "8S", "5D", "8D", "4C", "AH"],  # seat 0, side 0: A♥
    ["TS", "KS", "QD", "KD", "2C", "KC"],  # seat 1, side 1
    ["3S", "6S", "3D", "6D", "JH", "2H"],  # seat 2, side 0: J♥ 2♥
    ["4S", "7S", "4D", "7D", "3C", "TC"],  # seat 3, side 1
]
G2_TRICKS = [
    (1, ["TS", "3S", "4S", "5S"], 1),   # side 1: 10
    (1, ["KS", "6S", "7S", "8S"], 1),   # 3
    (1, ["QD", "3D", "4D", "5D"], 1),   # 2
    (1, ["KD", "6D", "7D", "8D"], 1),   # 3  -> 18
    (1, ["2C", "JH", "3C", "4C"], 2),   # side 0: 1 (own jack)
    (2, ["2H", "TC", "AH", "KC"], 0),   # 10 + 4 + 3 -> 18
]


def golden2_events():
    return ([{"event": "deal", "hands": copy.deepcopy(G2_HANDS)},
             {"event": "turnup", "card": "9H"},
             {"event": "stand", "seat": 1},
             {"event": "trump", "suit": "H"}]
            + tricks_events(G2_TRICKS))


def golden2(score_before=(2, 6)):
    ev = golden2_events() + [pts(0, 1, "high"), pts(0, 1, "low"), pts(0, 1, "jack"),
                             pts(1, 1, "game", totals=[18, 18])]
    sb = list(score_before)
    return line({"preset": "partnership-seven"}, 0, sb, ev, [sb[0] + 3, sb[1] + 1],
                1 if sb[1] + 1 >= 7 else None)


def test_golden2_game_tie_goes_to_dealers_opponents_and_wins():
    res = ref.referee_line(golden2())
    assert res == {"points": [(0, 1, "high"), (0, 1, "low"), (0, 1, "jack"), (1, 1, "game")],
                   "score_after": [5, 7], "winner": 1}


def test_golden2_tie_details():
    # wrong totals on the game event
    obj = golden2()
    obj["events"][-1]["totals"] = [19, 17]
    expect_error(obj, len(obj["events"]) - 1, "totals")
    # game to the dealer's side is wrong
    obj = golden2(score_before=(0, 0))
    obj["events"][-1] = pts(0, 1, "game")
    obj["score_after"] = [4, 0]
    expect_error(obj, len(obj["events"]) - 1, "wrong points")
    # with game_tie none nobody scores Game: the game event is extra
    obj = golden2(score_before=(0, 0))
    obj["rules"] = {"preset": "partnership-seven", "game_tie": "none"}
    obj["score_after"] = [3, 0]
    expect_error(obj, len(obj["events"]) - 1, "extra points")
    obj["events"].pop()
    assert ref.referee_line(obj)["points"][-1] == (0, 1, "jack")
    # non-dealer behaves like dealer-opponents
    obj = golden2()
    obj["rules"] = {"preset": "partnership-seven", "game_tie": "non-dealer"}
    assert ref.referee_line(obj)["winner"] == 1
    # scored mode computes the same points
    obj = golden2()
    obj["events"] = golden2_events()
    assert ref.referee_line(obj)["points"][-1] == (1, 1, "game")


def test_golden2_a_run_bunch_discards_and_jack_bonus():
    """Hand-built partnership-seven deal through a run, a refused bunch, discards and the jack bonus."""
    hands = copy.deepcopy(G2_HANDS)
    # turn-up 9C: eldest begs, dealer runs: 3 more each, next turn-up JH fixes hearts
    more = [["2D", "9D", "TD"], ["3H", "4H", "5H"], ["6H", "7H", "8H"], ["TH", "QH", "KH"]]
    ev = [{"event": "deal", "hands": hands},
          {"event": "turnup", "card": "9C"},
          {"event": "beg", "seat": 1},
          {"event": "run", "seat": 0},
          {"event": "more", "hands": more},
          {"event": "turnup", "card": "JD"},
          {"event": "bunch", "agreed": False},
          {"event": "trump", "suit": "D"},
          pts(0, 1, "jack-bonus"),
          {"event": "discard", "seat": 2, "cards": ["6H", "7H", "8H"]},
          {"event": "discard", "seat": 0, "cards": ["2D", "9D", "TD"]},
          {"event": "discard", "seat": 3, "cards": ["TH", "QH", "KH"]},
          {"event": "discard", "seat": 1, "cards": ["3H", "4H", "5H"]}]
    # after discards the hands are the golden-2 hands, now with diamonds trump
    tricks = [
        (1, ["TS", "3S", "4S", "5S"], 1),
        (1, ["KS", "6S", "7S", "8S"], 1),
        (1, ["QD", "3D", "4D", "5D"], 1),   # trump lead, all follow with trump
        (1, ["KD", "6D", "7D", "8D"], 1),
        (1, ["2C", "JH", "3C", "4C"], 0),   # seat 2 holds no club: J♥ is just a heart
        (0, ["AH", "KC", "2H", "TC"], 0),
    ]
    # side 1: TS10 KS3 QD2 KD3 = 18; side 0: JH1 + AH4 KC3 TC10 = 18: tie -> side 1 (dealer's opponents)
    # trumps in play: QD KD (seat 1) 3D 6D (seat 2) 4D 7D (seat 3) 5D 8D (seat 0); J♦ was the turn-up
    ev += tricks_events(tricks) + [pts(1, 1, "high"), pts(0, 1, "low"), pts(1, 1, "game", totals=[18, 18])]
    obj = line({"preset": "partnership-seven"}, 0, [0, 0], ev, [2, 2], None)
    assert ref.referee_line(obj)["points"] == [(0, 1, "jack-bonus"), (1, 1, "high"), (0, 1, "low"),
                                              (1, 1, "game")]
    # a missing discard
    bad = copy.deepcopy(obj)
    del bad["events"][12]
    expect_error(bad, 12, "must discard")
    # discarding a card not held
    bad = copy.deepcopy(obj)
    bad["events"][9]["cards"] = ["6H", "7H", "9H"]
    expect_error(bad, 9, "does not hold")
    # the bunch vote is required
    bad = copy.deepcopy(obj)
    del bad["events"][6]
    expect_error(bad, 6, "expected 'bunch'")
    # missing jack bonus
    bad = copy.deepcopy(obj)
    del bad["events"][8]
    expect_error(bad, 8, "missing points")
    # agreed bunch must be followed by a bunched redeal, cancelling the jack bonus
    agreed = copy.deepcopy(obj)
    agreed["events"][6] = {"event": "bunch", "agreed": True}
    expect_error(agreed, 7, "expected 'redeal'")
    agreed["events"][7:] = [{"event": "redeal", "reason": "bunched"},
                            {"event": "deal", "hands": copy.deepcopy(G2_HANDS)},
                            {"event": "turnup", "card": "9H"},
                            {"event": "stand", "seat": 1},
                            {"event": "trump", "suit": "H"}] + tricks_events(G2_TRICKS) + [
        pts(0, 1, "high"), pts(0, 1, "low"), pts(0, 1, "jack"), pts(1, 1, "game", totals=[18, 18])]
    agreed["score_after"] = [3, 1]
    assert ref.referee_line(agreed)["score_after"] == [3, 1]
    # a bunched redeal without agreement
    bad = copy.deepcopy(agreed)
    bad["events"][6] = {"event": "bunch", "agreed": False}
    expect_error(bad, 7, "redeal")
    # no bunch vote after a plain stand
    bad = golden2()
    bad["events"].insert(3, {"event": "bunch", "agreed": False})
    expect_error(bad, 3, "bunch vote")


# --------------------------------------------------------------------------- generated lines

CONFIGS = [
    ("classic", 2), ("classic", 3), ("classic", 4),
    ("trinidad", 2), ("trinidad", 4),
    ("trinidad-tobago", 4),
    ("partnership-seven", 4),
]


def random_score(rng, rules):
    sides = 2 if rules["players"] == 4 else rules["players"]
    return [rng.randrange(rules["target"]) for _ in range(sides)]


def gen_lines(preset, players, count, seed, **overrides):
    rules = ref.full_rules(preset, players=players, **overrides)
    rng = random.Random(seed)
    for _ in range(count):
        p = rng.choice([(0.5, 0.5, 0.5), (1.0, 0.0, 0.5), (1.0, 0.0, 0.0), (0.0, 0.5, 0.5), (1.0, 0.0, 0.9)])
        yield ref.generate_line(rules, rng.randrange(players), random_score(rng, rules), rng, *p)


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_generated_lines_pass(preset, players):
    seen = {"run": 0, "exhausted": 0, "bunched": 0, "discard": 0, "winner": 0, "kick": 0, "give": 0}
    for obj in gen_lines(preset, players, 300, seed=sum(map(ord, preset)) + players):
        obj = json.loads(json.dumps(obj))
        res = ref.referee_line(obj)
        assert res["score_after"] == obj["score_after"] and res["winner"] == obj["winner"]
        kinds = [e["event"] for e in obj["events"]]
        reasons = [e.get("reason") for e in obj["events"] if e["event"] == "redeal"]
        seen["run"] += "run" in kinds
        seen["give"] += "give" in kinds
        seen["exhausted"] += "exhausted" in reasons
        seen["bunched"] += "bunched" in reasons
        seen["discard"] += "discard" in kinds
        seen["winner"] += obj["winner"] is not None
        seen["kick"] += any(e.get("why") == "kick" for e in obj["events"])
        # scoring mode agrees with the written points
        stripped = dict(obj, events=[e for e in obj["events"] if e["event"] != "points"])
        if obj["winner"] is None:
            assert ref.referee_line(stripped)["points"] == res["points"]
    assert seen["run"] and seen["give"] and seen["winner"]
    if ref.PRESETS[preset]["discard"]:
        assert seen["discard"]
    if preset == "partnership-seven":
        assert seen["bunched"]
    if preset.startswith("trinidad") and players == 4:
        assert seen["exhausted"]
    if preset != "partnership-seven":
        assert seen["kick"]


def test_generated_undertrump_forbidden_and_overrides():
    for obj in gen_lines("trinidad", 4, 80, seed=7, undertrump="forbidden"):
        ref.referee_line(obj)
    for obj in gen_lines("classic", 3, 40, seed=8, game_tie="non-dealer", gift=2, target=7):
        ref.referee_line(obj)
    for obj in gen_lines("trinidad", 2, 40, seed=9, kick="heels", run_cards=4):
        ref.referee_line(obj)


def test_undertrump_rule():
    hand = ["2S", "9S", "4D"]
    # hearts led, a K♠ trump in it: 2♠ is an undertrump, 9♠ too; 4♦ is fine (no hearts held)
    assert ref.legal_plays(hand, ["5H", "KS"], "S", "forbidden") == ["4D"]
    assert ref.legal_plays(hand, ["5H", "KS"], "S", "allowed") == hand
    assert ref.legal_plays(hand, ["5H", "8S"], "S", "forbidden") == ["9S", "4D"]
    # only trumps left: any trump
    assert ref.legal_plays(["2S", "3S"], ["5H", "KS"], "S", "forbidden") == ["2S", "3S"]
    # trump lead: no undertrump restriction
    assert ref.legal_plays(hand, ["KS"], "S", "forbidden") == ["2S", "9S"]


# --------------------------------------------------------------------------- corrupted lines

def golden1_ok():
    obj = golden1()
    obj["score_after"] = [3, 3]
    return obj


def test_reject_illegal_play():
    obj = golden1_ok()
    ev = obj["events"]
    # trick 1: seat 1 holds hearts; playing 7C is neither the led suit nor trump
    i = index_of(ev, lambda e: e == {"event": "play", "seat": 1, "card": "4H"})
    ev[i]["card"] = "7C"
    expect_error(obj, i, "illegal play")
    # a card not held
    obj = golden1_ok()
    i = index_of(obj["events"], lambda e: e.get("card") == "4H")
    obj["events"][i]["card"] = "2H"
    expect_error(obj, i, "does not hold")
    # trump lead, seat 2 holds trump: must trump
    obj = golden1_ok()
    i = index_of(obj["events"], lambda e: e.get("card") == "JS")
    j = index_of(obj["events"], lambda e: e.get("card") == "9C")
    obj["events"][i]["card"], obj["events"][j]["card"] = "9C", "JS"
    expect_error(obj, i, "trump")


def test_reject_wrong_trick_winner():
    obj = golden1_ok()
    i = index_of(obj["events"], lambda e: e["event"] == "trick")
    obj["events"][i]["winner"] = 1
    expect_error(obj, i, "wrong trick winner")


def test_reject_wrong_missing_extra_points():
    base = golden1_ok()
    first = index_of(base["events"], lambda e: e["event"] == "points")
    obj = copy.deepcopy(base)
    obj["events"][first + 2]["n"] = 1  # hang-jack is 3
    expect_error(obj, first + 2, "wrong points")
    obj = copy.deepcopy(base)
    obj["events"][first]["side"] = 1
    expect_error(obj, first, "wrong points")
    obj = copy.deepcopy(base)
    del obj["events"][first + 3]
    expect_error(obj, first + 3, "missing points")
    obj = copy.deepcopy(base)
    obj["events"].append(pts(1, 1, "game"))
    expect_error(obj, len(obj["events"]) - 1, "extra points")
    # a kick where none is due (9S scores nothing)
    obj = copy.deepcopy(base)
    obj["events"].insert(2, pts(1, 1, "kick"))
    expect_error(obj, 2, "extra points")
    # a kick that is due: 6S under trinidad is 2 to the dealer's side
    obj = copy.deepcopy(base)
    obj["events"][1]["card"] = "6S"
    expect_error(obj, 2, "missing points")
    obj["events"].insert(2, pts(1, 2, "kick"))
    obj["score_after"] = [3, 5]
    assert ref.referee_line(obj)["points"][0] == (1, 2, "kick")
    # points in the wrong order
    obj = copy.deepcopy(base)
    ev = obj["events"]
    ev[first], ev[first + 1] = ev[first + 1], ev[first]
    expect_error(obj, first, "wrong points")
    obj = copy.deepcopy(base)
    ev = obj["events"]
    ev[first + 2], ev[first + 3] = ev[first + 3], ev[first + 2]
    expect_error(obj, first + 2, "wrong points")


def test_reject_card_dealt_twice():
    obj = golden1_ok()
    obj["events"][0]["hands"][1][0] = "AS"
    expect_error(obj, 0, "dealt twice")
    obj = golden1_ok()
    obj["events"][1]["card"] = "KS"
    expect_error(obj, 1, "already dealt")
    obj = golden1_ok()
    obj["events"][0]["hands"][1].append("2D")
    expect_error(obj, 0, "6 cards")


def test_reject_act_out_of_turn():
    obj = golden1_ok()
    obj["events"][2]["seat"] = 1
    expect_error(obj, 2, "eldest")
    obj = golden1_ok()
    i = index_of(obj["events"], lambda e: e["event"] == "play")
    obj["events"][i]["seat"] = 1
    expect_error(obj, i, "out of turn")
    # dealer must answer the beg
    obj = golden1_ok()
    obj["events"][2:3] = [{"event": "beg", "seat": 0}, {"event": "give", "seat": 2}]
    expect_error(obj, 3, "dealer")
    obj["events"][3]["seat"] = 3
    expect_error(obj, 4, "missing points")  # the gift
    obj["events"].insert(4, pts(0, 1, "gift"))
    obj["score_after"] = [4, 3]
    assert ref.referee_line(obj)["points"][0] == (0, 1, "gift")


def test_reject_wrong_trump_and_play_count():
    obj = golden1_ok()
    obj["events"][3]["suit"] = "H"
    expect_error(obj, 3, "trump must be S")
    obj = golden1_ok()
    i = index_of(obj["events"], lambda e: e["event"] == "trick")
    del obj["events"][i]
    expect_error(obj, i, "expected 'trick'")
    obj = golden1_ok()
    del obj["events"][5]
    expect_error(obj, 5, "out of turn")
    obj = golden1_ok()
    obj["events"][0]["hands"] = obj["events"][0]["hands"][:3]
    expect_error(obj, 0, "4 hands")


def test_reject_line_level_problems():
    obj = golden1_ok()
    obj["format"] = "allfours-log/2"
    expect_error(obj, -1, "format")
    obj = golden1_ok()
    obj["rules"] = {"players": 4}
    expect_error(obj, -1, "preset")
    obj = golden1_ok()
    obj["dealer"] = 4
    expect_error(obj, -1, "dealer")
    obj = golden1_ok()
    obj["score_before"] = [0, 0, 0]
    expect_error(obj, -1, "score_before")


def _first_run_line(want):
    """A generated trinidad line whose first deal has a run meeting ``want``."""
    for obj in gen_lines("trinidad", 4, 400, seed=21):
        kinds = [e["event"] for e in obj["events"]]
        if want(obj, kinds):
            return obj
    raise AssertionError("no such generated line")


def test_reject_wrong_exhaustion():
    # two same-suit turn-ups then exhausted: claiming exhaustion one run early is wrong
    def two_runs_exhausted(obj, kinds):
        return kinds.count("more") >= 2 and any(e.get("reason") == "exhausted" for e in obj["events"])
    obj = _first_run_line(two_runs_exhausted)
    ev = obj["events"]
    i = index_of(ev, lambda e: e["event"] == "more")
    j = index_of(ev, lambda e: e["event"] == "more", i + 1)
    r = index_of(ev, lambda e: e["event"] == "redeal")
    assert i < j < r
    bad = copy.deepcopy(obj)
    bad["events"][j] = {"event": "redeal", "reason": "exhausted"}
    expect_error(bad, j, "must run")
    # and a run that continues past exhaustion
    bad = copy.deepcopy(obj)
    bad["events"][r] = {"event": "more", "hands": [["2S"], ["2S"], ["2S"], ["2S"]]}
    expect_error(bad, r, "exhausted")
    # a wrong redeal reason
    bad = copy.deepcopy(obj)
    bad["events"][r]["reason"] = "bunched"
    expect_error(bad, r, "exhausted")


def test_reject_continues_after_kick_win():
    # a turn-up jack wins on the kick: nothing may follow
    obj = golden1(score_before=(0, 11))
    obj["events"][1]["card"] = "JH"
    obj["events"].insert(2, pts(1, 3, "kick"))
    obj["score_after"], obj["winner"] = [0, 14], 1
    expect_error(obj, 3, "must end")
    obj["events"] = obj["events"][:3]
    assert ref.referee_line(obj) == {"points": [(1, 3, "kick")], "score_after": [0, 14], "winner": 1}


def test_random_corruptions_are_caught():
    """Flip one card / winner / seat in generated lines: the referee must object at or before it."""
    rng = random.Random(5)
    caught = 0
    for obj in gen_lines("classic", 4, 60, seed=31):
        ev = obj["events"]
        plays = [i for i, e in enumerate(ev) if e["event"] == "play"]
        tricks = [i for i, e in enumerate(ev) if e["event"] == "trick"]
        if not plays:
            continue
        bad = copy.deepcopy(obj)
        k = rng.choice(tricks)
        bad["events"][k]["winner"] = (bad["events"][k]["winner"] + 1) % 4
        expect_error(bad, k, "wrong trick winner")
        bad = copy.deepcopy(obj)
        k = rng.choice(plays)
        bad["events"][k]["seat"] = (bad["events"][k]["seat"] + 1) % 4
        expect_error(bad, k, "out of turn")
        caught += 1
    assert caught > 20
