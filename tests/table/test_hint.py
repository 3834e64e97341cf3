"""`allfours hint` (issue 29): the decision due from one seat's knowledge.

* the exact enumeration against a brute force written here from the reference rules (every 2-player preset,
  endings of 2-3 tricks): every consistent deal of the unseen cards listed with itertools, each solved by a plain
  minimax, the mean per card equal to 1e-9;
* the same answer with the same seed from a full log with --seat, from its view, and from the one-line form;
* every bad input: one line on stderr, exit 2.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

import reference_rules as ref
from analyser.game.cards import card_name
from analyser.cli import app
from analyser.record.gamelog import dumps
from analyser.players.policy import seat_policies
from analyser.referee.views import view_of
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.table.hint import card_hint, decision_of

runner = CliRunner()


def lines_of(preset: str, players: int, deals: int, seed: int) -> list[dict]:
    rules = make_rules(preset, players=players)
    kinds, params = seat_policies(["heuristic"], players)
    return list(iter_log_lines(rules, deals, seed, kinds, params))


def cut_at_play(line: dict, k: int) -> dict:
    """The line cut before its k-th play event."""
    plays = [i for i, e in enumerate(line["events"]) if e["event"] == "play"]
    return {**line, "events": line["events"][:plays[k]]}


# --- the brute force --------------------------------------------------------------------------------------------


def knowledge(line: dict):
    """From a full log cut at a card decision: rules, trump, dealer, each seat's start-of-play hand, the plays
    (seat, card) so far, the turn-ups and the discards (cards as names)."""
    rules = ref.full_rules(line["rules"]["preset"], line["rules"]["players"])
    events = line["events"]
    start = max(i for i, e in enumerate(events) if e["event"] == "deal")
    n = rules["players"]
    hands: list[list[str]] = [[ref.parse_card(c) for c in h] for h in events[start]["hands"]]
    turnups, discards, plays, trump = [], {s: [] for s in range(n)}, [], None
    for e in events[start + 1:]:
        if e["event"] == "more":
            for s in range(n):
                hands[s] += [ref.parse_card(c) for c in e["hands"][s]]
        elif e["event"] == "turnup":
            turnups.append(ref.parse_card(e["card"]))
        elif e["event"] == "trump":
            trump = e["suit"]
        elif e["event"] == "discard":
            discards[e["seat"]] = [ref.parse_card(c) for c in e["cards"]]
            hands[e["seat"]] = [c for c in hands[e["seat"]] if c not in discards[e["seat"]]]
        elif e["event"] == "play":
            plays.append((e["seat"], ref.parse_card(e["card"])))
    return rules, trump, line["dealer"], hands, plays, turnups, discards


def mover_of(rules: dict, dealer: int, plays: list[tuple[int, str]], trump: str) -> int:
    n = rules["players"]
    leader = (dealer + 1) % n
    for t in range(len(plays) // n):
        trick = plays[t * n:(t + 1) * n]
        leader = ref.trick_winner(trick, trump)
    return (leader + len(plays) % n) % n


def held_legally(rules: dict, trump: str, plays: list[tuple[int, str]], seat: int, now: tuple[str, ...]) -> bool:
    """Seat `seat`, holding `now` after the plays, played each of its cards legally."""
    n = rules["players"]
    held = set(now) | {c for s, c in plays if s == seat}
    for t in range(0, len(plays), n):
        trick = plays[t:t + n]
        for k, (s, c) in enumerate(trick):
            if s == seat:
                cards = [x for _, x in trick[:k]]
                if c not in ref.legal_plays(sorted(held), cards, trump, rules["undertrump"], rules["void_play"]):
                    return False
                held.remove(c)
    return True


def minimax(rules, trump, dealer, start, hands, plays, mover) -> int:
    """Net points (High, Low, Jack, Game) for the mover's side under perfect play, every hand open."""
    n = rules["players"]
    if not any(hands):
        tricks = []
        for t in range(0, len(plays), n):
            trick = plays[t:t + n]
            tricks.append((ref.trick_winner(trick, trump), [c for _, c in trick]))
        net = 0
        for side, pts, _, _ in ref.score_after_play(start, tricks, trump, dealer, rules):
            net += pts if side == ref.side_of(mover, n) else -pts
        return net
    seat = mover_of(rules, dealer, plays, trump)
    open_trick = [c for _, c in plays[len(plays) - len(plays) % n:]]
    best = None
    for c in ref.legal_plays(hands[seat], open_trick, trump, rules["undertrump"], rules["void_play"]):
        rest = [list(h) for h in hands]
        rest[seat].remove(c)
        v = minimax(rules, trump, dealer, start, rest, plays + [(seat, c)], mover)
        mine = ref.side_of(seat, n) == ref.side_of(mover, n)
        best = v if best is None else (max(best, v) if mine else min(best, v))
    return best


def legal_counts(rules: dict, trump: str, plays: list[tuple[int, str]], seat: int, now: tuple[str, ...]) -> list[int]:
    """How many cards seat `seat`, holding `now` after the plays, could legally play at each of its plays."""
    n = rules["players"]
    held = set(now) | {c for s, c in plays if s == seat}
    counts = []
    for t in range(0, len(plays), n):
        trick = plays[t:t + n]
        for k, (s, c) in enumerate(trick):
            if s == seat:
                cards = [x for _, x in trick[:k]]
                counts.append(len(ref.legal_plays(sorted(held), cards, trump, rules["undertrump"], rules["void_play"])))
                held.remove(c)
    return counts


def brute_worlds(line: dict):
    """Every deal of the unseen cards consistent with what the mover saw: (the hands now by seat, each legal card's
    value, the deal's weight under the model "each other seat plays each of its legal cards alike")."""
    rules, trump, dealer, hands, plays, turnups, discards = knowledge(line)
    n = rules["players"]
    mover = mover_of(rules, dealer, plays, trump)
    played = {c for _, c in plays}
    own_now = [c for c in hands[mover] if c not in played]
    seen = set(hands[mover]) | set(discards[mover]) | set(turnups) | played
    unseen = sorted(set(ref.parse_card(card_name(c)) for c in range(52)) - seen)
    others = [s for s in range(n) if s != mover]
    counts = {s: len([c for c in hands[s] if c not in played]) for s in others}
    options = {s: [h for h in itertools.combinations(unseen, counts[s]) if held_legally(rules, trump, plays, s, h)]
               for s in others}
    open_trick = [c for _, c in plays[len(plays) - len(plays) % n:]]
    cards = ref.legal_plays(own_now, open_trick, trump, rules["undertrump"], rules["void_play"])
    out = []
    for combo in itertools.product(*(options[s] for s in others)):
        flat = [c for h in combo for c in h]
        if len(set(flat)) != len(flat):
            continue
        now = [[] for _ in range(n)]
        now[mover] = own_now
        start = [[] for _ in range(n)]
        start[mover] = hands[mover]
        weight = 1.0
        for s, h in zip(others, combo):
            now[s] = list(h)
            start[s] = list(h) + [c for p, c in plays if p == s]
            for k in legal_counts(rules, trump, plays, s, h):
                weight /= k
        values = {}
        for c in cards:
            rest = [list(h) for h in now]
            rest[mover].remove(c)
            values[c] = minimax(rules, trump, dealer, start, rest, plays + [(mover, c)], mover)
        out.append((now, values, weight))
    return out


def brute_force(line: dict) -> tuple[dict[str, float], int]:
    """Each legal card's mean value over every deal of the unseen cards consistent with what the mover saw."""
    worlds = brute_worlds(line)
    return {c: sum(v[c] for _, v, _ in worlds) / len(worlds) for c in worlds[0][1]}, len(worlds)


def two_player_endings():
    """Cut points of simulated 2-player deals with 2 or 3 tricks left, at every preset with 2 players."""
    out = []
    r = random.Random(29)
    for preset in ("trinidad", "trinidad-tobago", "classic"):
        for line in lines_of(preset, 2, 12, 5):
            plays = [e for e in line["events"] if e["event"] == "play"]
            tricks = len(plays) // 2
            if tricks < 3:
                continue
            left = r.choice([2, 2, 3])
            out.append(pytest.param(line, 2 * (tricks - left) + r.randrange(2), id=f"{preset}-{len(out)}"))
            if len(out) % 3 == 0:
                break
    return out


@pytest.mark.parametrize("line, k", two_player_endings())
def test_the_exact_values_are_the_brute_force_means(line, k):
    cut = cut_at_play(line, k)
    hint = card_hint(decision_of(cut), inference="none")
    assert hint.exact and hint.inference == "none"
    expected, worlds = brute_force(cut)
    assert hint.values.values.shape[0] == worlds
    got = {card_name(c): hint.values.ev(j).mean for j, c in enumerate(hint.values.cards)}
    assert sorted(got) == sorted(expected)
    for name, mean in expected.items():
        assert got[name] == pytest.approx(mean, abs=1e-9), name


# --- three ways in, one answer --------------------------------------------------------------------------------------


def one_line_args(line: dict, seat: int) -> list[str]:
    """The one-line form of `line` (cut at a card of `seat`) as a player would type it."""
    events = line["events"]
    hand = list(events[0]["hands"][seat])
    for e in events:
        if e["event"] == "more":
            hand += e["hands"][seat]
    turnups = [e["card"] for e in events if e["event"] == "turnup"]
    bids = [e["event"] for e in events if e["event"] in ("stand", "beg", "give", "run")]
    played = [e["card"] for e in events if e["event"] == "play"]
    r = line["rules"]
    by_side = line["score_before"]
    eldest_side = ((line["dealer"] + 1) % r["players"]) % 2
    score = f"{by_side[eldest_side]}:{by_side[1 - eldest_side]}"
    args = ["hint", "--rules", r["preset"], "--players", str(r["players"]), "--dealer", str(line["dealer"]),
            "--seat", str(seat), "--hand", " ".join(hand), "--bids", ",".join(bids), "--score", score]
    for t in turnups:
        args += ["--turnup", t]
    if played:
        args += ["--played", " ".join(played)]
    return args


def test_a_full_log_its_view_and_the_one_line_form_give_the_same_answer(tmp_path: Path):
    line = next(x for x in lines_of("trinidad", 4, 12, 8) if not any(e["event"] == "more" for e in x["events"]))
    cut = cut_at_play(line, 6)
    seat = decision_of(cut).seat
    full = tmp_path / "full.jsonl"
    full.write_text(dumps(cut) + "\n")
    view = tmp_path / "view.jsonl"
    view.write_text(dumps(view_of(cut, seat)) + "\n")
    common = ["--worlds", "40", "--seed", "7", "--json"]
    answers = []
    for args in (["hint", "--log", str(full), "--seat", str(seat)], ["hint", "--log", str(view)],
                 one_line_args(cut, seat)):
        result = runner.invoke(app, args + common)
        assert result.exit_code == 0, result.output
        answers.append(json.loads(result.stdout))
    assert answers[0] == answers[1] == answers[2]
    assert answers[0]["seat"] == seat and answers[0]["exact"] is False and answers[0]["worlds"] == 40
    for item in answers[0]["cards"].values():
        assert {"ev", "ev_ci95", "loss", "loss_ci95", "win_prob"} <= set(item)
    again = runner.invoke(app, ["hint", "--log", str(view), "--worlds", "40", "--seed", "8", "--json"])
    assert json.loads(again.stdout)["cards"] != answers[0]["cards"]  # another seed, other worlds


def test_the_text_answer_starts_with_a_sentence_and_ranks_every_legal_card():
    line = lines_of("classic", 2, 4, 3)[0]
    plays = [e for e in line["events"] if e["event"] == "play"]
    cut = cut_at_play(line, len(plays) - 4)
    result = runner.invoke(app, one_line_args(cut, decision_of(cut).seat) + ["--explain"])
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(("Play ", "Too close to call")), first
    assert "all " in first and "deals of the unseen cards" in first  # two tricks left: every deal, exact
    assert "How this was computed" in result.stdout


def test_a_nine_card_position_is_answered_by_the_bounded_search(tmp_path: Path):
    """After a run (9 cards each, 36 in the hands at the first lead): an answer, labelled, legal cards only;
    --max-cards 24 refuses it as before."""
    line = next(x for x in lines_of("trinidad", 4, 40, 1) if sum(e["event"] == "play" for e in x["events"]) == 36)
    cut = cut_at_play(line, 0)
    view = tmp_path / "view.jsonl"
    view.write_text(dumps(view_of(cut, decision_of(cut).seat)) + "\n")
    result = runner.invoke(app, ["hint", "--log", str(view), "--worlds", "6", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["cards_left"] == 36 and doc["method"] == "bounded" and doc["worlds"] == 6
    led = next(e["card"] for e in line["events"] if e["event"] == "play")
    assert len(doc["cards"]) == 9 and led in doc["cards"] and doc["best"] in doc["cards"]  # a lead: any card
    text = runner.invoke(app, ["hint", "--log", str(view), "--worlds", "6"])
    assert text.exit_code == 0 and "bounded search: 36 cards in the hands" in text.stdout.splitlines()[0]
    refused = runner.invoke(app, ["hint", "--log", str(view), "--max-cards", "24"])
    assert refused.exit_code == 2 and "more than --max-cards 24" in refused.stderr


def test_a_bid_is_answered_by_the_paired_rollouts():
    result = runner.invoke(app, ["hint", "--rules", "trinidad", "--dealer", "3", "--seat", "0", "--hand",
                                 "AH KH 9S 4D 2C JC", "--turnup", "7H", "--score", "6:11", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["kind"] == "bid" and out["seat"] == 0 and out["role"] == "eldest" and set(out["options"]) == {"stand", "beg"}


def test_out_appends_the_deal_as_entered(tmp_path: Path):
    line = lines_of("classic", 2, 4, 3)[0]
    cut = cut_at_play(line, 2)
    seat = decision_of(cut).seat
    out = tmp_path / "deal.jsonl"
    for _ in range(2):
        result = runner.invoke(app, one_line_args(cut, seat) + ["--worlds", "20", "--out", str(out)])
        assert result.exit_code == 0, result.output
    written = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(written) == 2 and written[0] == written[1]
    assert written[0]["events"][0]["hands"][seat] == cut["events"][0]["hands"][seat]
    assert [e for e in written[0]["events"] if e["event"] == "play"] == [e for e in cut["events"] if e["event"] == "play"]
    again = runner.invoke(app, ["hint", "--log", str(out), "--worlds", "20", "--json"])  # the deal, read back
    first = runner.invoke(app, one_line_args(cut, seat) + ["--worlds", "20", "--json"])
    assert again.exit_code == 0 and json.loads(again.stdout) == json.loads(first.stdout)


# --- bad input ----------------------------------------------------------------------------------------------------

BASE = ["hint", "--rules", "trinidad", "--dealer", "3", "--seat", "0"]
HAND = ["--hand", "AH KH 9S 4D 2C JC", "--turnup", "7H", "--bids", "stand"]


@pytest.mark.parametrize("args, words", [
    (BASE + ["--hand", "AH AH 9S 4D 2C JC", "--turnup", "7H"], "twice"),
    (BASE + ["--hand", "AH KH 9S 4D 2C XX", "--turnup", "7H"], "XX"),
    (BASE + ["--hand", "AH KH 9S 4D 2C", "--turnup", "7H"], "5 cards"),
    (BASE + ["--hand", "AH KH 9S 4D 2C JC", "--turnup", "KH"], "KH"),
    (BASE + HAND + ["--played", "9S 2S 5D AH"], "AH"),
    (BASE + HAND + ["--played", "2C 3C 4C 5C 6S 4D"], "illegal"),
    (BASE + HAND + ["--played", "2C 3C 4D 5C 6C JC 7C 8C"], "seat 2"),
    (BASE + HAND + ["--played", "9S 2S"], "seat 2 is to play"),
    (BASE[:-1] + ["7"] + HAND, "seat"),
    (["hint", "--rules", "trinidad", "--players", "2", "--dealer", "1", "--seat", "3"] + HAND, "seat"),
])
def test_bad_input_is_one_line_and_exit_2(args, words):
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert err.startswith("error:") and len(err.splitlines()) == 1 and "Traceback" not in result.output, err
    assert words in err, err


def test_bad_logs_are_one_line_and_exit_2(tmp_path: Path):
    line = lines_of("trinidad", 4, 3, 2)[0]
    cut = cut_at_play(line, 5)
    view = view_of(cut, decision_of(cut).seat)
    cases = {}
    hidden = json.loads(json.dumps(view))
    seat = decision_of(cut).seat
    hidden["events"][0]["hands"][seat] = ["??"] * 6
    cases["own cards hidden"] = (hidden, "hidden")
    unplayed = json.loads(json.dumps(view))
    first_play = next(e for e in unplayed["events"] if e["event"] == "play")
    first_play["card"] = "??"
    cases["a ?? play"] = (unplayed, "??")
    cases["no decision"] = (line, "no decision")
    for name, (obj, words) in cases.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps(obj) + "\n")
        result = runner.invoke(app, ["hint", "--log", str(path)])
        assert result.exit_code == 2, (name, result.output)
        err = result.stderr.strip()
        assert err.startswith("error:") and len(err.splitlines()) == 1, (name, err)
        assert words in err, (name, err)
    folder = runner.invoke(app, ["hint", "--log", str(tmp_path)])
    assert folder.exit_code == 2 and "folder" in folder.stderr
