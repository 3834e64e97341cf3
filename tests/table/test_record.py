"""`allfours record`: a real deal entered answer by answer, through a pipe (CliRunner, a subprocess) and in a real
terminal (tmux). The simulator's own deals, typed in as a player would, must come out as the same lines."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
import types

import pytest

from views_by_hand import view_by_hand as view_of
from typer.testing import CliRunner

from analyser.cli import app
from tmux_terminal import another_terminal, terminal_session
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

runner = CliRunner()
BIDS = ("stand", "beg", "give", "run")


def simulated(preset, players, count, seed, settings=()):
    rules = make_rules(preset, players=players, settings=list(settings))
    kinds, params = seat_policies(["random"], players)
    return [json.loads(json.dumps(line)) for line in iter_log_lines(rules, count, seed, kinds, params)]


def options(lines, seat):
    first = lines[0]
    rules = first["rules"]
    n = rules["players"]
    eldest = (first["dealer"] + 1) % n
    sides = 2 if n == 4 else n
    score = ":".join(str(first["score_before"][((eldest + k) % n) % sides]) for k in range(sides))
    sets = [w for k in ("undertrump",) for w in ("--set", f"{k}={rules[k]}")]
    return ["--rules", rules["preset"], "--players", str(n), "--dealer", str(first["dealer"]),
            "--seat", "all" if seat is None else str(seat), "--score", score, *sets]


def answers(lines, seat):
    """What a player types for consecutive deals of a match (seat None: every hand is known)."""
    out = []
    for k, line in enumerate(lines):
        if k:
            out.append("y")
            if lines[k - 1]["winner"] is not None:
                out.append(str(line["dealer"]))  # a new match: its first dealer is asked
        n = line["rules"]["players"]
        known = range(n) if seat is None else [seat]
        for ev in line["events"]:
            name = ev["event"]
            if name in ("deal", "more"):
                out += [" ".join(ev["hands"][s]).lower() for s in known]
            elif name == "turnup":
                out.append(ev["card"])
            elif name in BIDS:
                out.append(name if k % 2 else name[0])
            elif name == "bunch":
                out.append("y" if ev["agreed"] else "n")
            elif name == "discard" and ev["seat"] in known:
                out.append(" ".join(ev["cards"]))
            elif name == "play":
                out.append(ev["card"])
    out.append("n")
    return out


def record(tmp_path, lines, seat, name="deals.jsonl", extra=()):
    path = tmp_path / name
    result = runner.invoke(app, ["record", "--out", str(path), *options(lines, seat), *extra],
                           input="\n".join(answers(lines, seat)) + "\n")
    return path, result


CONFIGS = [("trinidad", 4, ()), ("trinidad", 2, ()), ("classic", 3, ()), ("classic", 4, ("undertrump=forbidden",)),
           ("partnership-seven", 4, ()), ("trinidad-tobago", 4, ())]


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_piped_deals_come_out_as_the_simulators_lines(tmp_path, preset, players, settings):
    lines = simulated(preset, players, 5, seed=players + 5, settings=settings)
    path, result = record(tmp_path, lines, None)
    assert result.exit_code == 0, result.output
    written = [json.loads(t) for t in path.read_text().splitlines()]
    assert written == lines
    assert f"Done: {len(lines)} finished deals saved to {path}." in result.output
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert f"{len(lines)} lines legal" in replay.output
    # the same deals seen by one seat: the views
    seat = 1
    path, result = record(tmp_path, lines, seat, name="views.jsonl")
    assert result.exit_code == 0, result.output
    assert [json.loads(t) for t in path.read_text().splitlines()] == [view_of(line, seat) for line in lines]
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output


@pytest.mark.parametrize("seat", [None, 2])
def test_void_deals_bunched_and_exhausted_stay_in_the_line(tmp_path, seat):
    """A bunched deal and an exhausted pack: the same dealer deals again, in the same line."""
    lines = simulated("partnership-seven", 4, 115, seed=1)
    void = [line for line in lines if any(e["event"] == "redeal" for e in line["events"])]
    picked = [void[0], next(ln for ln in void if [e["reason"] for e in ln["events"] if e["event"] == "redeal"]
                            == ["exhausted", "exhausted"])]
    for k, line in enumerate(picked):
        path, result = record(tmp_path, [line], seat, name=f"void{k}.jsonl")
        assert result.exit_code == 0, result.output
        assert "the same dealer deals again" in result.output
        want = line if seat is None else view_of(line, seat)
        assert [json.loads(t) for t in path.read_text().splitlines()] == [want]


def test_the_transcript_says_turns_tricks_points_and_score(tmp_path):
    lines = simulated("trinidad", 4, 1, seed=2)
    path, result = record(tmp_path, lines, 0)
    out = result.output
    assert result.exit_code == 0, out
    line = lines[0]
    leader = (line["dealer"] + 1) % 4
    assert f"Trick 1: seat {leader} to lead" in out
    assert "wins trick 1 with" in out and "card points: side 0" in out
    for ev in line["events"]:
        if ev["event"] == "points":
            side = "your side" if ev["side"] == 0 else "the other side"
            assert f"{side} (seats {ev['side']} and {ev['side'] + 2}) scores {ev['n']} for" in out
    assert "Score: your side " in out and ", theirs " in out and "(seat 0's view)" in out
    # who is who, from the recorded seat
    assert ("You are seat 0, play passes to your left: seat 1, on your left, plays after you; seat 2, opposite, is "
            "your partner; seat 3, on your right, plays before you.") in out.splitlines()
    assert not re.search(r"\b\d+:\d+\b", out)  # no bare 6:11


def test_a_refused_answer_in_a_pipe_ends_the_entry_with_its_reason_and_keeps_finished_deals(tmp_path):
    lines = simulated("trinidad", 4, 2, seed=4)
    typed = answers(lines, None)
    # the second deal's first card played twice: find the second deal's first two plays
    first_deal = len(answers(lines[:1], None)) - 1  # without its final "n"
    plays = [i for i, a in enumerate(typed) if i > first_deal and a in {e["card"] for e in lines[1]["events"]
                                                                       if e["event"] == "play"}]
    typed[plays[1]] = typed[plays[0]]
    path = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["record", "--out", str(path), *options(lines, None)], input="\n".join(typed) + "\n")
    assert result.exit_code == 2
    card = typed[plays[0]]
    assert result.output.strip().splitlines()[-1].startswith(f"error: answer {plays[1] + 1} ({card!r}): {card} is "
                                                             "played twice")
    assert "; 1 finished deal saved to" in result.output and ", and the deal in progress up to now (" in result.output
    assert result.output.rstrip().endswith(f"To go on with it: allfours record --resume --out {path}")
    first, kept = (json.loads(t) for t in path.read_text().splitlines())
    assert first == lines[0] and kept["unfinished"] is True
    assert kept["events"] == lines[1]["events"][:len(kept["events"])]  # up to the refused card
    # the refused card given right, the entry goes on from there: the file is the deals as played
    fixed = answers(lines, None)[plays[1]:]
    result = runner.invoke(app, ["record", "--resume", "--out", str(path)], input="\n".join(fixed) + "\n")
    assert result.exit_code == 0, result.output
    assert [json.loads(t) for t in path.read_text().splitlines()] == lines[:2]


def test_end_of_input_keeps_finished_deals_and_exits_0(tmp_path):
    lines = simulated("classic", 2, 2, seed=6)
    typed = answers(lines, 0)
    cut = len(answers(lines[:1], 0)) + 3  # the first deal, "y", then a few answers of the second
    path = tmp_path / "deals.jsonl"
    path.write_text("")
    result = runner.invoke(app, ["record", "--out", str(path), *options(lines, 0)], input="\n".join(typed[:cut]))
    assert result.exit_code == 0, result.output
    assert f"end of input: 1 finished deal saved to {path}, and the deal in progress up to now (" in result.output
    assert f"To go on with it: allfours record --resume --out {path}" in result.output
    first, kept = (json.loads(t) for t in path.read_text().splitlines())
    assert first == view_of(lines[0], 0) and kept["unfinished"] is True
    # appended, never overwritten
    result = runner.invoke(app, ["record", "--out", str(path), *options(lines, 0)], input="\n".join(typed[:cut]))
    assert len(path.read_text().splitlines()) == 4


def test_partial_saves_the_deal_in_progress_cut_at_its_decision(tmp_path):
    lines = simulated("trinidad", 4, 2, seed=6)
    typed = answers(lines, 3)
    cut = len(answers(lines[:1], 3)) + 6  # the first deal, "y", then the second deal's first answers
    path = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["record", "--out", str(path), "--partial", *options(lines, 3)],
                           input="\n".join(typed[:cut]))
    assert result.exit_code == 0, result.output
    assert f"end of input: 1 finished deal saved to {path}, and the deal in progress up to now (" in result.output
    first, second = (json.loads(t) for t in path.read_text().splitlines())
    assert first == view_of(lines[0], 3)
    from analyser.table.entry import check_line, decision_due

    assert "score_after" not in second and second["events"] == check_line(second).line["events"]
    assert decision_due(second)[0] in ("bid", "card")
    assert second["events"] == view_of(lines[1], 3)["events"][:len(second["events"])]


def test_questions_without_options_and_undo(tmp_path):
    path = tmp_path / "deals.jsonl"
    typed = ["", "2", "1", "0", "3:5", "AH KH 9S 4D 2C JD", "undo", "AH KH 9S 4D 2C JC", "JH", "beg", "undo",
             "stand", "9s", "2S"]
    result = runner.invoke(app, ["record", "--out", str(path)], input="\n".join(typed) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "Rules: trinidad, 2 players, target 14." in out
    assert "undone: seat 0's hand AH KH 9S 4D 2C JD" in out and "undone: bid beg" in out
    assert "seat 1 scores 3 for the kick (JH turned up)" in out  # the dealer, seat 1, is its own side
    assert "Trick 1: seat 0 to lead, holding 9S AH KH 4D JC 2C" in out
    assert "seat 0 wins trick 1 with 9S" in out
    assert "end of input: 0 finished deals saved" in out


def test_bad_options_and_paths(tmp_path):
    result = runner.invoke(app, ["record", "--out", str(tmp_path)], input="")
    assert result.exit_code == 2 and "is a folder, not a file" in result.output
    assert not list(tmp_path.iterdir())
    result = runner.invoke(app, ["record", "--out", str(tmp_path / "a.jsonl"), "--rules", "trinidad", "--seat", "7"],
                           input="4\n1\n")
    assert result.exit_code == 2
    assert "error: --seat 7: the rules have seats 0 to 3 (4 players), or give 'all' when every hand is known" in \
        result.output
    result = runner.invoke(app, ["record", "--out", str(tmp_path / "a.jsonl"), "--rules", "trinidad", "--players",
                                 "2", "--dealer", "3"])
    assert result.exit_code == 2 and "error: --dealer 3: the rules have seats 0 to 1 (2 players)" in result.output
    assert not (tmp_path / "a.jsonl").exists()


def test_the_hint_at_a_known_seats_bid_and_card(tmp_path, monkeypatch):
    lines = simulated("trinidad", 4, 1, seed=8)
    line = lines[0]
    seat = (line["dealer"] + 1) % 4  # the eldest: its bid, then its lead
    typed = answers(lines, seat)
    k = typed.index(line["events"][1]["card"])  # the turn-up, then the eldest's bid
    typed[k + 1:k + 1] = ["?"]
    path = tmp_path / "deals.jsonl"
    args = ["record", "--out", str(path), *options(lines, seat)]
    if "analyser.table.hint" not in sys.modules:
        try:
            import analyser.table.hint  # noqa: F401
        except ImportError:
            result = runner.invoke(app, args, input="\n".join(typed) + "\n")
            assert result.exit_code == 0, result.output
            assert "the hint is not available" in result.output
    asked = []
    fake = types.ModuleType("analyser.table.hint")
    fake.hint_text = lambda ln, s, seed: asked.append((ln, s, seed)) or "Stand: the hint, as hint prints it"
    monkeypatch.setitem(sys.modules, "analyser.table.hint", fake)
    monkeypatch.setattr("analyser.table.hint", fake, raising=False)
    result = runner.invoke(app, [*args, "--seed", "5"], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    assert "Stand: the hint, as hint prints it" in result.output
    (ln, s, seed), = asked
    assert s == seat and seed == 5 and ln["events"] == view_of(line, seat)["events"][:len(ln["events"])]
    assert ln["events"][-1]["event"] in ("turnup", "points")


def test_record_through_a_real_pipe(tmp_path):
    lines = simulated("trinidad", 2, 2, seed=9)
    path = tmp_path / "deals.jsonl"
    done = subprocess.run([sys.executable, "-m", "analyser", "record", "--out", str(path), *options(lines, 0)],
                          input="\n".join(answers(lines, 0)) + "\n", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert [json.loads(t) for t in path.read_text().splitlines()] == [view_of(line, 0) for line in lines]
    done = subprocess.run([sys.executable, "-m", "analyser", "replay", str(path)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# --- a real terminal ---------------------------------------------------------------------------------------------


@pytest.fixture
def terminal(tmp_path):
    yield from terminal_session(tmp_path, "record", 200, 60, "xterm")


def test_record_in_a_real_terminal(terminal, tmp_path):
    path = tmp_path / "deals.jsonl"
    lines = simulated("trinidad", 2, 1, seed=12)
    typed = answers(lines, 0)
    terminal.start(["--out", str(path), *options(lines, 0)])
    terminal.wait_for("Seat 0's hand (6 cards):")
    # a card twice is refused at once, with the reason, and asked again
    hand = typed[0].split()
    terminal.send(" ".join(hand[:5] + hand[:1]))
    shown = terminal.wait_for("  no: ")
    assert f"  no: {hand[0].upper()} is given twice in seat 0's hand" in shown
    assert shown.rstrip().endswith("Seat 0's hand (6 cards):")
    for answer in typed[:-1]:
        terminal.send(answer)
    shown = terminal.wait_for("Record another deal")
    assert "Trick 1: seat" in shown and "wins trick 1 with" in shown and "(seat 0's view)" in shown
    terminal.send("n")
    terminal.wait_for("Done: 1 finished deal saved to")
    assert terminal.exit_code() == 0
    assert [json.loads(t) for t in path.read_text().splitlines()] == [view_of(lines[0], 0)]


def test_ctrl_c_in_a_real_terminal_keeps_finished_deals(terminal, tmp_path):
    path = tmp_path / "deals.jsonl"
    lines = simulated("trinidad", 2, 2, seed=13)
    typed = answers(lines, None)
    first_deal = len(answers(lines[:1], None)) - 1
    terminal.start(["--out", str(path), *options(lines, None)])
    terminal.wait_for("Seat 0's hand (6 cards):")
    for answer in typed[:first_deal + 3]:  # the first deal, "y", both hands of the second
        terminal.send(answer)
    terminal.wait_for("Saved to")
    end = time.monotonic() + 60
    while terminal.screen().rstrip().splitlines()[-1] != "Turn-up:":
        assert time.monotonic() < end, terminal.screen()
        time.sleep(0.1)
    terminal.tmux("send-keys", "-t", terminal.name, "C-c")
    assert terminal.exit_code() == 130
    shown = terminal.screen()
    assert f"interrupted: 1 finished deal saved to {path}, and the deal in progress up to now (" in shown
    assert f"To go on with it: allfours record --resume --out {path}" in shown
    first, kept = (json.loads(t) for t in path.read_text().splitlines())
    assert first == lines[0] and kept["unfinished"] and kept["resume"]["due"] == {"kind": "turnup", "seat": None,
                                                                                  "role": None}
    assert kept["events"] == lines[1]["events"][:1]  # both hands: the deal, the turn-up next
    # --resume in the terminal: the turn-up is asked, and the entry goes on to the end
    with another_terminal(tmp_path, "record") as again:
        again.start(["--resume", "--out", str(path)])
        again.wait_for(lambda s: s.rstrip().endswith("Turn-up:"))
        for answer in typed[first_deal + 3:]:
            again.send(answer)
        again.wait_for("Done: 1 finished deal saved to")
        assert again.exit_code() == 0
    assert [json.loads(t) for t in path.read_text().splitlines()] == lines
