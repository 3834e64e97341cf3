"""A seat's view (docs/game-log.md, "A seat's view"): made from a full log (`view_of`), refereed as far as it
shows (`read_view`, `replay`), what it could not check, and a deal shown as a person reads it (`replay --show`)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.game.cards import card_name, parse_card
from analyser.cli import app
from analyser.players.policy import seat_policies
from analyser.referee import LogError, Referee, read_view, referee_line, view_of, view_seat
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from conftest import ROOT

runner = CliRunner()
REFUSED = 1  # replay's exit code for a line it refuses (docs/game-log.md, "What replay checks")
CONFIGS = [("classic", 2), ("classic", 3), ("classic", 4), ("trinidad", 2), ("trinidad", 4),
           ("trinidad-tobago", 4), ("partnership-seven", 4)]
DOC = (ROOT / "docs" / "game-log.md").read_text(encoding="utf-8")


def the_deal() -> dict:
    """The worked trinidad deal of docs/game-log.md (its one ```json block)."""
    return json.loads(re.findall(r"^```json\n(.*?)^```", DOC, re.S | re.M)[0])


def simulated(preset: str, players: int, count: int, seed: int = 3) -> list[dict]:
    kinds, params = seat_policies(["random"], players)
    return [json.loads(json.dumps(obj)) for obj in
            iter_log_lines(make_rules(preset, players=players), count, seed, kinds, params)]


def replay(tmp_path, objects, *args):
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps(o) + "\n" for o in objects), encoding="utf-8")
    return runner.invoke(app, ["replay", str(path), *args])


def refused(obj) -> str:
    with pytest.raises(LogError) as info:
        referee_line(obj)
    return f"event {info.value.event}: {info.value.reason}"


# --- view_of and the referee ---------------------------------------------------------------------------------


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_every_seats_view_of_simulated_logs_is_refereed_clean(preset, players):
    for obj in simulated(preset, players, 40):
        full = referee_line(obj)
        for seat in range(players):
            view = view_of(obj, seat)
            assert view_seat(view) == seat and view_of(view, seat) == view
            assert sum(e["event"] == "deal" for e in view["events"]) >= 1
            known = read_view(view)
            assert known.verdict.points == full.points and known.verdict.score_after == full.score_after
            assert known.verdict.seat == seat and all(isinstance(t, str) for t in known.verdict.unchecked)
            # the witness is a full log the full referee accepts, with the view's points
            assert view_seat(known.witness) is None
            assert Referee(known.witness).run().points == full.points


def plays_of(obj: dict) -> list[tuple[int, int, int]]:
    return [(i, e["seat"], parse_card(e["card"])) for i, e in enumerate(obj["events"]) if e["event"] == "play"]


@pytest.mark.parametrize("preset,players", [("classic", 2), ("trinidad", 4), ("classic", 4)])
def test_a_cut_view_knows_what_its_seat_saw_and_no_more(preset, players):
    """Cut before each play: the seat's own cards, the others' hand sizes, and voids that never exclude a card
    the other seat really holds; the witness is a legal line up to the cut."""
    for obj in simulated(preset, players, 12, seed=5):
        plays = plays_of(obj)
        if not plays:
            continue
        for seat in range(players):
            view = view_of(obj, seat)
            for k, (index, _, _) in enumerate(plays):
                known = read_view(dict(view, events=view["events"][:index]), cut=True)
                assert not known.complete and known.expected == ("play",)
                gone = {c for _, _, c in plays[:k]}
                held = [sorted(c for c in range(52) if any(c == x for _, s, x in plays if s == o) and c not in gone)
                        for o in range(players)]
                assert known.held == held[seat]
                assert known.sizes == [len(h) for h in held]
                for o in range(players):
                    if o != seat:
                        assert not any(known.lacks[o] >> c & 1 for c in held[o]), (o, known.lacks[o])
                        assert all(known.unseen >> c & 1 for c in held[o])
                with pytest.raises(LogError, match="the log ends early"):
                    Referee(known.witness).run()


def test_the_view_of_the_worked_deal_is_what_the_doc_says():
    view = view_of(the_deal(), 0)
    deal = view["events"][0]["hands"]
    assert deal[0] == ["KH", "7H", "TD", "4D", "8C", "2C"] and deal[1:] == [["??"] * 6] * 3
    more = view["events"][4]["hands"]
    assert more[0] == ["AS", "3S", "AC"] and more[1:] == [["??"] * 3] * 3
    assert [e for e in view["events"] if e["event"] == "play"] == [e for e in the_deal()["events"]
                                                                    if e["event"] == "play"]
    verdict = referee_line(view)
    assert verdict.seat == 0 and verdict.points == referee_line(the_deal()).points
    assert len(verdict.unchecked) == 1 and "runs" in verdict.unchecked[0]


def test_view_of_refuses_a_seat_the_rules_do_not_have_and_another_seats_view():
    with pytest.raises(LogError, match="seats 0..3"):
        view_of(the_deal(), 4)
    with pytest.raises(LogError, match="seat 0's view"):
        view_of(view_of(the_deal(), 0), 1)


def test_discards_and_redeals_are_hidden_and_said_to_be_unchecked():
    lines = simulated("classic", 4, 200, seed=7)
    line = next(o for o in lines if any(e["event"] == "discard" for e in o["events"]))
    discarder = next(e["seat"] for e in line["events"] if e["event"] == "discard")
    seat = (discarder + 1) % 4
    view = view_of(line, seat)
    assert all(e["cards"] == ["??"] * len(e["cards"]) for e in view["events"]
               if e["event"] == "discard" and e["seat"] != seat)
    assert any("discarded (hidden)" in t for t in referee_line(view).unchecked)
    redealt = next(o for o in simulated("trinidad", 4, 400, seed=2) + simulated("partnership-seven", 4, 200)
                   if any(e["event"] == "redeal" for e in o["events"]))
    assert any("voided by a redeal" in t for t in referee_line(view_of(redealt, 0)).unchecked)


# --- bad input: one line naming the event and why ------------------------------------------------------------


def event_of(obj, kind, k=0):
    return [e for e in obj["events"] if e["event"] == kind][k]


def play_of(obj, seat, card):
    return next(e for e in obj["events"] if e["event"] == "play" and e["seat"] == seat and e["card"] == card)


def own_card_twice(v):
    v["events"][0]["hands"][0][0] = "4H"          # the turn-up, also in seat 0's hand


def other_plays_own_card(v):
    play_of(v, 1, "6C")["card"] = "8C"            # seat 0 holds 8C


def played_twice(v):
    play_of(v, 2, "4C")["card"] = "6C"            # seat 1 played 6C just before


def not_in_deck(v):
    v["events"][0]["hands"][0][0] = "1X"


def play_not_in_deck(v):
    play_of(v, 1, "6C")["card"] = "ZZ"


def own_more_hidden(v):
    event_of(v, "more")["hands"][0] = ["??"] * 3


def own_hand_mixed(v):
    v["events"][0]["hands"][0][2] = "??"


def hidden_play(v):
    play_of(v, 1, "6C")["card"] = "??"


def hidden_turnup(v):
    event_of(v, "turnup", 1)["card"] = "??"


def other_more_shown(v):
    event_of(v, "more")["hands"][1] = ["JS", "QC", "9C"]


def every_hand_hidden(v):
    v["events"][0]["hands"][0] = ["??"] * 6


def two_hands_shown(v):
    v["events"][0]["hands"][2] = ["KS", "TH", "9H", "3H", "6D", "4C"]


def void_contradicted(v):
    play_of(v, 2, "6D")["card"] = "3C"            # seat 2 showed no club in trick 6 (3H on a club lead)


BAD_VIEWS = [
    (own_card_twice, "event 1: card 4H dealt twice"),
    (other_plays_own_card, "event 9: seat 1 plays 8C, which is in seat 0's hand (the view's seat)"),
    (played_twice, "event 10: card 6C played twice: seat 1 played it at event 9"),
    (not_in_deck, "event 0: bad card '1X'"),
    (play_not_in_deck, "event 9: bad card 'ZZ'"),
    (own_more_hidden, "event 4: more cards of seat 0 is hidden (??) in seat 0's own view"),
    (own_hand_mixed, "event 0: hand of seat 0 mixes cards and ??"),
    (hidden_play, "event 9: a play cannot be hidden (??)"),
    (hidden_turnup, "event 5: a turn-up cannot be hidden (??)"),
    (other_more_shown, "event 4: more cards of seat 1 is shown in seat 0's view"),
    (every_hand_hidden, "event 0: every hand is hidden (??)"),
    (two_hands_shown, "event 0: seats 0 and 2 show their hands and seats 1 and 3 are hidden"),
    (void_contradicted, "event 43: seat 2 plays 3C, but it had no club: it played 3H on a club lead at event 35"),
]


@pytest.mark.parametrize("mutate,message", BAD_VIEWS, ids=[m.__name__ for m, _ in BAD_VIEWS])
def test_a_bad_view_is_refused_in_one_line_naming_the_event(tmp_path, mutate, message):
    view = view_of(the_deal(), 0)
    mutate(view)
    assert message in refused(view)
    result = replay(tmp_path, [view])
    assert result.exit_code == REFUSED
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "line 1, " + message.split(":")[0] in lines[0]
    assert "Traceback" not in result.output


def test_a_void_contradiction_in_a_view_is_not_one_in_the_full_log():
    """Seat 0 cannot see that seat 2 held no club; the full log shows 3C was never dealt."""
    full = the_deal()
    void_contradicted(full)
    assert "seat 2 plays 3C, which it does not hold" in refused(full)


def hand_made_view(plays: list[tuple[int, str]]) -> dict:
    """Trinidad, 4 players, seat 3 deals; seat 0's view: it holds AH AD AS 2C 3C KH, 4S turned up, it stands."""
    events = [{"event": "deal", "hands": [["AS", "AH", "KH", "AD", "3C", "2C"]] + [["??"] * 6] * 3},
              {"event": "turnup", "card": "4S"}, {"event": "stand", "seat": 0}, {"event": "trump", "suit": "S"}]
    for k, (seat, card) in enumerate(plays):
        events.append({"event": "play", "seat": seat, "card": card})
        if k % 4 == 3:
            events.append({"event": "trick", "winner": 0})
    return {"format": "allfours-log/1", "rules": {"preset": "trinidad"}, "dealer": 3, "score_before": [0, 0],
            "events": events}


def test_voids_that_no_dealing_of_the_hidden_cards_fits_are_refused_at_the_play():
    """Seats 1, 2, 3 throw clubs on hearts and diamonds; seats 1 and 2 then on trumps too: they must hold six clubs
    between them, and only QC KC AC are left."""
    plays = [(0, "AH"), (1, "4C"), (2, "5C"), (3, "6C"), (0, "AD"), (1, "7C"), (2, "8C"), (3, "9C"),
             (0, "AS"), (1, "TC"), (2, "JC")]
    ok = read_view(hand_made_view(plays[:-1]), cut=True)
    assert ok.lacks[1] & (1 << parse_card("5H")) and ok.voids[1] == [0, 1, 2]
    message = refused(hand_made_view(plays))
    assert message == ("event 16: seat 2 plays JC, and then no dealing of the hidden cards fits: seats 1 and 2 still "
                       "hold 6 cards, but only 3 of the cards seat 0 has not seen could be theirs after the voids "
                       "shown")


def test_a_hidden_card_in_a_full_log_is_refused():
    full = the_deal()
    event_of(full, "more")["hands"][1] = ["??"] * 3
    assert "event 4: a hidden card (??) in a full log" in refused(full)


# --- replay: views, --show, --line ---------------------------------------------------------------------------


def test_replay_accepts_a_view_and_says_what_it_could_not_check(tmp_path):
    result = replay(tmp_path, [view_of(the_deal(), 0), the_deal()])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith("line 1: seat 0's view, checked as far as it shows; not checked: which of the cards "
                            "seats 1, 2 and 3 played were dealt and which came with the runs")
    assert "2 lines legal" in result.stdout and "1 of them is a seat's view" in result.stdout
    report = json.loads(replay(tmp_path, [view_of(the_deal(), 2)], "--json").stdout)
    assert report["ok"] and report["views"][0]["seat"] == 2 and report["views"][0]["unchecked"]


SHOWN = [
    "line 1: trinidad, 4 players, to 14; seat 3 deals, seat 0 is the eldest",
    "play passes to the left, in seat order: 0, 1, 2, 3, then 0 again; partners sit opposite",
    "score before: side 0 (seats 0 and 2) 6, side 1 (seats 1 and 3) 9",
    "  seat 0   ♥ K 7   ♦ 10 4   ♣ 8 2",
    "seat 0 (eldest) begs",
    "  kick: side 1 scores 2 (the dealer's side, for turning up 6♠, a six: kick=trinidad); score: side 0 6, side 1 11",
    "trump ♠ (spades)",
    "trick 1: seat 0 A♣, seat 1 6♣, seat 2 4♣, seat 3 5♣; seat 0 (side 0) wins with A♣, 4 card points",
    "trick 2: seat 0 3♠, seat 1 J♠, seat 2 K♠, seat 3 2♠; seat 2 (side 0) wins with K♠, 4 card points",
    "trick 9: seat 1 5♥, seat 2 10♥, seat 3 J♥, seat 0 7♥; seat 3 (side 1) wins with J♥, 11 card points",
    "card points for Game: side 0 45, side 1 21",
    "  High: side 0 scores 1 (A♠ is the highest trump in play, dealt to seat 0); score: side 0 7, side 1 11",
    "  Low: side 1 scores 1 (2♠ is the lowest trump in play, dealt to seat 3); score: side 0 7, side 1 12",
    "  hang jack: side 0 scores 3 (J♠, dealt to seat 1, taken by seat 2 in trick 2: the opponents' jack, hung for "
    "3); score: side 0 10, side 1 12",
    "  Game: side 0 scores 1 (the most card points: side 0 45, side 1 21); score: side 0 11, side 1 12",
    "score after: side 0 (seats 0 and 2) 11, side 1 (seats 1 and 3) 12",
]


def test_show_prints_the_known_deal_with_its_trick_winners_and_points(tmp_path):
    result = replay(tmp_path, [the_deal()], "--show")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    for want in SHOWN:
        assert want in lines, want
    assert [line for line in lines if line.startswith("trick ")] == sorted(
        (line for line in lines if line.startswith("trick ")), key=lambda t: int(t.split()[1].rstrip(":")))
    # the same deal without its points: scored, and shown alike
    scored = copy.deepcopy(the_deal())
    scored["events"] = [e for e in scored["events"] if e["event"] != "points"]
    del scored["score_after"], scored["winner"]
    again = replay(tmp_path, [scored], "--show").stdout.splitlines()
    assert all(want in again for want in SHOWN)


def test_show_a_view_hides_the_other_hands_and_says_what_it_could_not_check(tmp_path):
    result = replay(tmp_path, [the_deal(), view_of(the_deal(), 2)], "--show", "--line", "2")
    assert result.exit_code == 0, result.output
    text = result.stdout
    assert text.startswith("line 2: ") and "line 1:" not in text
    assert "seat 2's view" in text and "  seat 0   6 hidden cards" in text and "  seat 2   ♠ K   ♥ 10 9 3   ♦ 6   ♣ 4" in text
    assert all(want in text.splitlines() for want in SHOWN[5:] if "score" not in want)
    # who is who from seat 2's chair, and every score named by side from there
    assert ("seat 2's view: the other seats' cards are hidden until played; you are seat 2, play passes to your "
            "left: seat 3, on your left, plays after you; seat 0, opposite, is your partner; seat 1, on your right, "
            "plays before you") in text.splitlines()
    assert "score before: your side 6, theirs 9" in text.splitlines()
    assert "(the dealer's side, for turning up 6♠, a six: kick=trinidad); score: your side 6, theirs 11" in text
    assert "score after: your side 11, theirs 12" in text.splitlines()
    assert not re.search(r"\b\d+:\d+\b", text)  # never a bare 6:11
    assert "not checked (seat 2 could not see it):" in text
    shown = json.loads(replay(tmp_path, [view_of(the_deal(), 2)], "--show", "--json").stdout)["shown"][0]
    tricks = [e for e in shown["entries"] if e["kind"] == "trick"]
    assert [t["winner"] for t in tricks] == [0, 2, 1, 2, 0, 3, 2, 1, 3]
    assert [e for e in shown["entries"] if e["kind"] == "card-points"] == [{"kind": "card-points", "totals": [45, 21]}]
    assert shown["entries"][0]["hands"][0] is None and shown["seat"] == 2


def test_line_that_is_not_in_the_file_is_a_usage_error(tmp_path):
    result = replay(tmp_path, [the_deal()], "--line", "3")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: --line 3: {tmp_path / 'log.jsonl'} has no log line 3 (its log lines are 1)"]


def test_witness_keeps_every_visible_card():
    view = view_of(the_deal(), 1)
    witness = read_view(view).witness
    for got, want in zip(witness["events"], view["events"]):
        if want["event"] in ("deal", "more"):
            for a, b in zip(got["hands"], want["hands"]):
                assert all(y == "??" or x == y for x, y in zip(a, b))
                assert all(card_name(parse_card(x)) == x for x in a)
        else:
            assert got == want


# --- docs/game-log.md ------------------------------------------------------------------------------------------


def block_after(command: str) -> list[str]:
    """The lines of the ```text block of game-log.md that starts with `$ command`, after it."""
    text = DOC[DOC.index("$ " + command + "\n"):]
    return text[:text.index("\n```")].splitlines()[1:]


def test_the_doc_shows_what_replay_show_prints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("deal.jsonl").write_text(json.dumps(the_deal()) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "deal.jsonl", "--show"])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n").splitlines() == block_after("allfours replay deal.jsonl --show")


def test_the_doc_shows_what_replay_says_of_a_view(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("view.jsonl").write_text(json.dumps(view_of(the_deal(), 0)) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "view.jsonl"])
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip("\n").splitlines() == block_after("allfours replay view.jsonl")
    view = view_of(the_deal(), 0)
    void_contradicted(view)
    Path("view.jsonl").write_text(json.dumps(view) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["replay", "view.jsonl"])
    assert result.exit_code == REFUSED and result.stderr.strip() in DOC


def test_the_seats_view_section_is_the_shared_contracts():
    shared = ROOT.parent / "shared" / "game-log.md"
    if not shared.exists():
        pytest.skip("no ../shared/game-log.md here")
    text = shared.read_text(encoding="utf-8")
    section = text[text.index("## A seat's view"):].strip()
    assert section.replace("```json\n", "```text\n") in DOC
