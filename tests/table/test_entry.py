"""The deal a player enters (analyser/table/entry.py): lines built from a hand, the turn-ups, the bids and the
cards played, against the simulator's own lines and the referee; and every bad input with its reason."""

from __future__ import annotations

import json
import os
import random

import pytest

from views_by_hand import view_by_hand as masked

from analyser.analysis.play.logcuts import line_decisions
from analyser.game.cards import card_name, parse_card
from analyser.players.policy import seat_policies
from analyser.referee import referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.table.entry import (
    Entry, EntryError, append_line, build, check_line, decision_due, entry_line, walk_plays,
)

CONFIGS = [("classic", 2, ()), ("classic", 3, ()), ("classic", 4, ()), ("trinidad", 2, ()), ("trinidad", 4, ()),
           ("trinidad-tobago", 4, ()), ("trinidad-tobago", 2, ()), ("partnership-seven", 4, ()),
           ("trinidad", 4, ("undertrump=forbidden",)), ("classic", 4, ("undertrump=forbidden",))]
BIDS = ("stand", "beg", "give", "run")


def simulated(preset, players, settings, count, seed):
    rules = make_rules(preset, players=players, settings=list(settings))
    kinds, params = seat_policies(["random"], players)
    for line in iter_log_lines(rules, count, seed, kinds, params):
        yield json.loads(json.dumps(line))


def cut(line, at):
    """The line stopped before event `at` (the decision there is the one due), without the deal's outcome."""
    out = {k: v for k, v in line.items() if k not in ("score_after", "winner")}
    out["events"] = line["events"][:at]
    return out


def view_functions():
    """The referee's `view_of(full_line, seat)` and `read_view(view, cut)` (analyser/referee/views.py), when
    they are there (written beside this module: None, None until then)."""
    try:
        from analyser.referee.views import read_view, view_of
    except ImportError:
        return None, None
    return view_of, read_view


def one_line_args(line, seat):
    """The one-line form's options for `seat` at the end of `line` (a cut line, no redeal in it)."""
    rules = make_rules(line["rules"]["preset"], players=line["rules"]["players"],
                       settings={k: v for k, v in line["rules"].items() if k not in ("preset", "players")})
    n, dealer = rules.players, line["dealer"]
    eldest = (dealer + 1) % n
    hand, turnups, bids, played, discard = [], [], [], [], None
    for ev in line["events"]:
        if ev["event"] in ("deal", "more"):
            hand += ev["hands"][seat]
        elif ev["event"] == "turnup":
            turnups.append(ev["card"])
        elif ev["event"] in BIDS:
            bids.append(ev["event"])
        elif ev["event"] == "play":
            played.append(ev["card"])
        elif ev["event"] == "discard" and ev["seat"] == seat:
            discard = " ".join(ev["cards"])
    score = ":".join(str(line["score_before"][rules.side_of((eldest + k) % n)]) for k in range(rules.sides))
    # loose spellings on the way in: lower case, 10 for T, a suit symbol now and then
    loose = lambda c: ("10" + c[1] if c[0] == "T" else c).lower() if len(c) % 2 == 0 else c  # noqa: E731
    return dict(rules=rules, dealer=dealer, seat=seat, hand=" ".join(map(loose, hand)), turnups=turnups,
                bids=",".join(bids) or None, played=" ".join(map(loose, played)) or None, score=score,
                discard=discard)


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_whole_simulated_lines_rebuild_exactly(preset, players, settings):
    """Every hand known, every event given: the build is the simulator's line, points, totals and score_after
    included (redeals, runs, discards and bunching votes too)."""
    seen = set()
    for line in simulated(preset, players, settings, 60, seed=players + 11):
        built = check_line(line)
        assert built.finished and built.line == line
        assert referee_line(built.line).score_after == line["score_after"]
        seen |= {ev["event"] for ev in line["events"]}
    assert {"run", "more", "give", "stand"} <= seen


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_cut_simulated_lines_full_and_seen_by_one_seat(preset, players, settings):
    """Cut at random bids and cards: the full log and the deciding seat's view rebuild exactly, the referee's
    reading of a cut line agrees on the decision, and the one-line form from the seat's own cards and the public
    plays gives the same view (and helper-7's view_of, once it exists)."""
    rng = random.Random(players * 7 + len(preset))
    view_of, read_view = view_functions()
    one_line = 0
    for line in simulated(preset, players, settings, 30, seed=players):
        events = line["events"]
        spots = [i for i, ev in enumerate(events) if ev["event"] in ("play", "stand", "beg", "give", "run")]
        for at in rng.sample(spots, min(3, len(spots))):
            full = cut(line, at)
            seat = events[at]["seat"]
            assert check_line(full).line == full
            due = decision_due(full)
            decisions = line_decisions(full, cut=True)
            assert due[0] == decisions.due
            assert due == (("card", seat) if events[at]["event"] == "play"
                           else ("bid", "eldest" if events[at]["event"] in ("stand", "beg") else "dealer"))
            view = masked(full, seat)
            assert check_line(view).line == view and decision_due(view) == due
            if view_of is not None:
                assert view_of(full, seat) == view
                assert read_view(view, cut=True).to_play == (seat if due[0] == "card" else None)
            if not any(ev["event"] == "redeal" for ev in full["events"]):
                built, due_seat = entry_line(**one_line_args(full, seat))
                assert built == view and due_seat == seat
                one_line += 1
    assert one_line > 25


def test_one_line_form_by_hand():
    rules = make_rules("trinidad")
    line, seat = entry_line(rules, dealer=3, seat=0, hand="AH KH 9S 4D 2C JC", turnups=["7H"], bids="stand",
                            played="9s 2S ♦5 3S", score="6:11")
    assert seat == 0 and decision_due(line) == ("card", 0)
    # eldest (seat 0) is side 0: 6; the dealer's side 11
    assert line["score_before"] == [6, 11]
    assert line["events"][0] == {"event": "deal", "hands": [["9S", "AH", "KH", "4D", "JC", "2C"]] + [["??"] * 6] * 3}
    assert line["events"][-5:] == [
        {"event": "play", "seat": 0, "card": "9S"}, {"event": "play", "seat": 1, "card": "2S"},
        {"event": "play", "seat": 2, "card": "5D"}, {"event": "play", "seat": 3, "card": "3S"},
        {"event": "trick", "winner": 0}]
    # the dealer's seat: eldest's side first means side 1 first here
    line, _ = entry_line(rules, dealer=0, seat=1, hand="AH KH 9S 4D 2C JC", turnups=["JH"], score="6:10")
    assert line["score_before"] == [10, 6]
    assert line["events"][1:] == [{"event": "turnup", "card": "JH"}, {"event": "points", "side": 0, "n": 3,
                                                                      "why": "kick"}]
    assert decision_due(line) == ("bid", "eldest")


def test_runs_put_the_first_six_in_the_deal_and_three_per_run_in_more():
    rules = make_rules("trinidad")
    line, _ = entry_line(rules, dealer=3, seat=0, hand="AH KH 9S 4D 2C JC 3C 4C 5C 6D 7D 8D",
                         turnups=["7H", "2H", "5S"], bids="beg,run")
    names = [ev["event"] for ev in line["events"]]
    assert names == ["deal", "turnup", "beg", "run", "more", "turnup", "more", "turnup", "trump"]
    assert line["events"][4]["hands"][0] == ["5C", "4C", "3C"]
    assert line["events"][6]["hands"][0] == ["8D", "7D", "6D"]
    assert line["events"][4]["hands"][1] == ["??"] * 3
    assert decision_due(line) == ("card", 0)


def test_discarding_rules_need_the_seats_discard():
    rules = make_rules("classic", players=2)
    args = dict(rules=rules, dealer=1, seat=0, hand="AH KH 9S 4D 2C JC 3C 4C 5C", turnups=["7H", "5S"],
                bids="beg,run")
    with pytest.raises(EntryError, match=r"^seat 0 is to discard 3 of its 9 cards before play: give them with "
                                         r"--discard$"):
        entry_line(**args)
    line, _ = entry_line(**args, discard="3C 4C 5C")
    assert line["events"][-2:] == [{"event": "discard", "seat": 0, "cards": ["5C", "4C", "3C"]},
                                   {"event": "discard", "seat": 1, "cards": ["??"] * 3}]
    with pytest.raises(EntryError, match="^seat 0 discards QS, which it does not hold$"):
        entry_line(**args, discard="3C 4C QS")


def test_a_finished_deal_has_every_point_and_the_referee_agrees():
    """Every hand known and every card played: the full log the referee accepts, points checked."""
    rules = make_rules("trinidad", players=2)
    hands = {0: [parse_card(c) for c in "AS KS QS JS TS 3H".split()],
             1: [parse_card(c) for c in "2S 3S 4S 5S 6S 9H".split()]}
    plays = [parse_card(c) for c in "AS 2S KS 3S QS 4S JS 5S TS 6S 3H 9H".split()]
    entry = Entry(rules, dealer=1, score_before=[5, 12], seat=None, hands=hands, turnups=[parse_card("6H")],
                  bids=["stand"], played=plays)
    # the kick of the six (2) wins the match for the dealer's side at once: the line ends there
    with pytest.raises(EntryError, match=r"^side 1 reaches the target 14 \(2 for kick\): the match is over: "
                                         r"nothing follows, but a bid is given$"):
        build(entry)
    over = build(Entry(rules, dealer=1, score_before=[5, 12], hands=hands, turnups=[parse_card("6H")]))
    assert over.finished and over.line["winner"] == 1 and over.line["score_after"] == [5, 14]
    assert over.line["events"][-1] == {"event": "points", "side": 1, "n": 2, "why": "kick"}
    assert referee_line(over.line).winner == 1
    entry.score_before = [5, 3]
    built = build(entry)
    assert built.finished and built.line["winner"] is None and built.line["score_after"] == [7, 6]
    assert [(e["side"], e["n"], e["why"]) for e in built.line["events"] if e["event"] == "points"] == [
        (1, 2, "kick"), (1, 1, "high"), (0, 1, "low"), (0, 1, "game")]
    assert referee_line(built.line).points == [(1, 2, "kick"), (1, 1, "high"), (0, 1, "low"), (0, 1, "game")]
    # the same deal seen by seat 0 only: the points are all known once every card is played
    view = build(Entry(rules, dealer=1, score_before=[5, 3], seat=0, hands={0: hands[0]}, turnups=[parse_card("6H")],
                       bids=["stand"], played=plays))
    assert view.line["score_after"] == [7, 6] and view.points == built.points
    assert view.line["events"][0]["hands"][1] == ["??"] * 6
    _, read_view = view_functions()
    if read_view is not None:
        assert read_view(view.line).verdict.points == view.points


def test_walk_plays_whose_turn_winners_and_card_points():
    rules = make_rules("trinidad")
    walk = walk_plays(rules, eldest=1, trump=1, cards=[parse_card(c) for c in "2D 3D AD 5H KC".split()])
    assert walk.seats == [1, 2, 3, 0, 0]
    assert [t.winner for t in walk.done] == [0]  # 5H trumps
    assert walk.to_play == 1 and walk.led == 3 and walk.number == 2
    assert walk.card_points() == [4, 0]  # the ace of diamonds, taken by side 0


# --- bad input, each with its reason ---------------------------------------------------------------------------------

TRINIDAD = make_rules("trinidad")


def entry(**changes):
    args = dict(rules=TRINIDAD, dealer=3, seat=0, hand="AH KH 9S 4D 2C JC", turnups=["7H"], bids="stand")
    args.update(changes)
    return entry_line(**args)


BAD = [
    (dict(hand="AH KH 9S 4D AH JC"), "AH is given twice in seat 0's hand"),
    (dict(turnups=["7H", "7H"], bids="beg,run", hand="AH KH 9S 4D 2C JC 3C 4C 5C"),
     "7H is given twice: in the turn-up and in the turn-up after run 1"),
    (dict(played="9S 2S 5D 3S 4D 5D"), "5D is played twice: by seat 2 in trick 1 and by seat 1 in trick 2"),
    (dict(hand="AH KH 9S 4D 2C 1C"), "--hand: bad card '1C': expected a rank A K Q J 10/T 9..2 and a suit S H D C "
                                     "or ♠ ♥ ♦ ♣"),
    (dict(played="9S ZZ"), "--played: bad card 'ZZ': expected a rank A K Q J 10/T 9..2 and a suit S H D C or ♠ ♥ ♦ ♣"),
    (dict(turnups=["11H"]), "--turnup: bad card '11H': expected a rank A K Q J 10/T 9..2 and a suit S H D C or "
                            "♠ ♥ ♦ ♣"),
    (dict(hand="AH KH 9S 4D 2C"), "--hand has 5 cards, but six are dealt (--hand holds every card the seat was dealt)"),
    (dict(hand="AH KH 9S 4D 2C JC 3C 4C 5C", bids="beg,run", turnups=["7H", "5H", "2S"]),
     "--hand has 9 cards, but seat 0 was dealt 12: 6 + 3 for each of the 2 runs (--hand holds every card the seat "
     "was dealt)"),
    (dict(bids="beg,run"), "--bids beg,run: give the turn-up after the run too (repeat --turnup: the first one, then "
                           "each one after a run)"),
    (dict(turnups=["7H", "5S"]), "2 turn-ups, but the cards were not run: one --turnup unless --bids beg,run"),
    (dict(hand="AH KH 9S 4D 2C JC 3C 4C 5C", bids="beg,run", turnups=["7H", "5H"]),
     "turn-up 5H is a heart again, so the cards are run again: give the next turn-up (--turnup) and the run's cards "
     "in --hand"),
    (dict(hand="AH KH 9S 4D 2C JC 3C 4C 5C", bids="beg,run", turnups=["7H", "5S", "6S"]),
     "--hand has 9 cards, but seat 0 was dealt 12: 6 + 3 for each of the 2 runs (--hand holds every card the seat "
     "was dealt)"),
    (dict(hand="AH KH 9S 4D 2C JC 3C 4C 5C 6C 7C 8C", bids="beg,run", turnups=["7H", "5S", "6S"]),
     "turn-up 6S is one too many: the turn-up after run 1 fixed trump (a new suit): nothing is turned after it"),
    (dict(hand="AH KH 9S 4D 2C JC 3C 4C 5C 6C 7C 8C", bids="beg,run", turnups=["7H", "5H", "6H"]),
     "no decision is due: the pack is exhausted after 2 runs (1 left, a run needs 13 cards): the deal is void and the "
     "same dealer deals again"),
    (dict(turnups=["AH"]), "the turn-up AH is in seat 0's hand: a turned card is in no hand"),
    (dict(played="9S AH"), "seat 1 plays AH, which is in seat 0's hand"),
    (dict(played="9S 7H"), "seat 1 plays 7H, which was turned up: a turned card is in no hand"),
    (dict(dealer=0, played="2D 3D 5D 2C"), "illegal play: seat 0 plays 2C holding D: must follow suit or trump"),
    (dict(dealer=0, played="2D 3D 5D QS"), "seat 0 plays QS, which is not in its hand"),
    (dict(played="9S 2S 5D 3S 2C 3C 6S"), "seat 2 plays 6S, but it showed it has no spades: it played 5D on a spade "
                                          "lead in trick 1"),
    (dict(played="9S 2S 5D 3S 4D"), "seat 1 is to play, not seat 0"),
    (dict(bids=None, seat=1), "seat 0 (the eldest) is to bid, not seat 1"),
    (dict(bids="beg"), "seat 3 (the dealer) is to bid, not seat 0"),
    (dict(seat=4), "--seat 4: the rules have seats 0 to 3 (4 players)"),
    (dict(dealer=7), "--dealer 7: the rules have seats 0 to 3 (4 players)"),
    (dict(bids="give"), "--bids 'give': give one of stand, beg, beg,give or beg,run (the eldest's bid, then the "
                        "dealer's answer to a beg)"),
    (dict(bids=None, played="9S"), "cards are played, but the eldest (seat 0) is to stand or beg"),
    (dict(score="14:3"), "bad score '14:3': every score must be below the target 14"),
    (dict(score="3"), "bad score '3': expected ELDEST:DEALER with 2 whole numbers, the eldest's side first"),
    (dict(turnups=["JH"], score="0:11"), "side 1 reaches the target 14 (3 for kick): the match is over: nothing "
                                         "follows, but a bid is given"),
    (dict(turnups=["JH"], score="0:11", bids=None), "no decision is due: side 1 reaches the target 14 (3 for kick): "
                                                    "the match is over"),
    (dict(bids="beg,give", score="13:0"), "no decision is due: side 0 reaches the target 14 (1 for gift): the match "
                                          "is over"),
    (dict(discard="2C 3C 4C"), "seat 0's discard is given, but the rules (trinidad) do not discard: every card is "
                               "played"),
]


@pytest.mark.parametrize("changes,reason", BAD)
def test_bad_input_is_refused_with_its_reason(changes, reason):
    with pytest.raises(EntryError) as err:
        entry(**changes)
    assert str(err.value) == reason


def test_voids_shown_by_hidden_seats():
    # a trump lead (hearts) that seat 1 does not follow: no trumps later
    with pytest.raises(EntryError, match=r"^seat 1 plays 5H, but it showed it has no trumps: it played 2S on a trump "
                                         r"lead in trick 1$"):
        entry(played="AH 2S 3H 4H KH 5H")
    # void_play=trump (classic): a seat that neither followed nor trumped holds no trump
    classic = make_rules("classic")
    with pytest.raises(EntryError, match=r"^seat 1 plays 5H, but it showed it has no trumps: it played 4C without "
                                         r"trumping in trick 1 \(void_play=trump\)$"):
        entry(rules=classic, played="9S 4C 2S 3S 2C 5H")
    # a forbidden undertrump is legal only from a hand of nothing but trumps
    forbid = make_rules("trinidad", settings=["undertrump=forbidden"])
    with pytest.raises(EntryError, match=r"^seat 2 plays 4C, but it showed it has no card but trumps: it undertrumped "
                                         r"QH with 3H in trick 1 \(undertrump=forbidden\)$"):
        entry(rules=forbid, played="9S QH 3H 2S 3C 4C")
    # two seats that must hold nothing but trumps, and too few trumps left unseen for the second one
    with pytest.raises(EntryError, match=r"^seat 3 plays 3H: then no dealing of the unseen cards fits the plays: seat 2 "
                                         r"must still hold 5 cards, and only 4 unseen cards are left that the voids it "
                                         r"showed allow$"):
        entry(rules=forbid, hand="9S AH KH QH JH TH", played="9S 9H 2H 3H")


def test_a_line_where_no_decision_is_due():
    rules = make_rules("trinidad", players=2)
    spades = dict(rules=rules, dealer=1, seat=0, hand="AS KS QS JS TS 9S", turnups=["2H"], bids="stand")
    with pytest.raises(EntryError, match="^no decision is due: every card has been played: the deal is over$"):
        entry_line(**spades, played="AS 2S KS 3S QS 4S JS 5S TS 6S 9S 7S")
    with pytest.raises(EntryError, match=r"^13 cards are played, but the deal has 12 \(2 seats × 6 cards\)$"):
        entry_line(**spades, played="AS 2S KS 3S QS 4S JS 5S TS 6S 9S 7S 8S")
    line, _ = entry_line(**spades, played="AS 2S KS 3S QS 4S JS 5S TS 6S")
    whole = dict(line, events=line["events"] + [{"event": "play", "seat": 0, "card": "9S"},
                                                {"event": "play", "seat": 1, "card": "7S"}])
    with pytest.raises(EntryError, match="^the line stops where no decision is due: every card has been played"):
        decision_due(whole)
    # a full log that stops after a run's turn-up, before trump: nobody decides there
    full = next(ln for ln in simulated("trinidad", 4, (), 200, 5) if any(e["event"] == "run" for e in ln["events"]))
    at = max(i for i, e in enumerate(full["events"]) if e["event"] == "turnup") + 1
    while full["events"][at]["event"] == "points":
        at += 1
    with pytest.raises(EntryError, match="^the line stops where no decision is due: next comes 'trump'$"):
        decision_due(cut(full, at))


def test_views_that_hide_the_seats_own_cards_or_a_play():
    full = next(simulated("trinidad", 4, (), 1, 3))
    at = [i for i, e in enumerate(full["events"]) if e["event"] == "play"][5]
    view = masked(cut(full, at), 0)
    hidden = json.loads(json.dumps(view))
    hidden["events"][0]["hands"][0] = ["??"] * 6
    with pytest.raises(EntryError, match=r"every hand is hidden \(\?\?\): a seat's view shows the seat's own cards"):
        decision_due(hidden)
    hidden = json.loads(json.dumps(view))
    k = next(i for i, e in enumerate(hidden["events"]) if e["event"] == "play")
    hidden["events"][k]["card"] = "??"
    with pytest.raises(EntryError, match=rf"^event {k}: a play of \?\?: every played card is seen by every seat$"):
        decision_due(hidden)
    wrong = json.loads(json.dumps(view))
    k = next(i for i, e in enumerate(wrong["events"]) if e["event"] == "trick")
    wrong["events"][k]["winner"] = (wrong["events"][k]["winner"] + 1) % 4
    with pytest.raises(EntryError, match=rf"^event {k}: the line has \('trick', \d\), the rules give \('trick', \d\)$"):
        decision_due(wrong)


# --- appending -------------------------------------------------------------------------------------------------------


def test_append_line_appends_and_refuses_a_folder(tmp_path):
    line, _ = entry(played="9S 2S 5D 3S")
    path = tmp_path / "deals.jsonl"
    path.write_text('{"format": "allfours-log/1"}')  # a last line without its newline
    append_line(path, line)
    append_line(path, line)
    rows = path.read_text().splitlines()
    assert len(rows) == 3 and json.loads(rows[1]) == line == json.loads(rows[2])
    with pytest.raises(EntryError, match="is a folder, not a file"):
        append_line(tmp_path, line)
    with pytest.raises(EntryError, match="does not exist"):
        append_line(tmp_path / "no" / "such.jsonl", line)
    if os.geteuid() != 0:  # root writes anywhere
        locked = tmp_path / "locked.jsonl"
        locked.write_text("")
        locked.chmod(0o444)
        with pytest.raises(EntryError, match="permission denied"):
            append_line(locked, line)
    assert card_name(parse_card("10h")) == "TH"
