"""A match or an entry left in the middle of a deal, and taken up again: ``play --resume`` and ``record --resume``.

A match left mid-deal (q, end of input, Ctrl-C) and resumed, with the same answers, writes the same log byte for
byte as the match played straight through (the computer's streams kept); the resumed log's score runs on unbroken
and every line referees. An entry interrupted and resumed writes the file an uninterrupted entry writes. A resume
that cannot go on (nothing left in progress, not the command's log, no file, a line changed by hand) is one line on
stderr, exit 2, the file untouched. ``replay`` referees a deal in progress as far as it goes and says which command
finishes it. Through CliRunner, a real pipe and a real terminal (tmux)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.table.resume import digest
from test_play import play_args, random_answers
from test_record import answers, options, simulated
from tmux_terminal import another_terminal
from views_by_hand import view_by_hand as view_of

runner = CliRunner()


def lines_of(log: Path) -> list[dict]:
    return [json.loads(t) for t in log.read_text().splitlines() if t.strip()]


def assert_one_match(log: Path) -> None:
    """Every line finished, the score unbroken from 0 to the winner, and `replay` passes every line."""
    lines = lines_of(log)
    assert lines and not any(ln.get("unfinished") for ln in lines)
    assert lines[0]["score_before"] == [0] * len(lines[0]["score_before"])
    for before, after in zip(lines, lines[1:]):
        assert after["score_before"] == before["score_after"] and before["winner"] is None
    assert lines[-1]["winner"] is not None
    replay = runner.invoke(app, ["replay", str(log)])
    assert replay.exit_code == 0, replay.output
    assert f"{len(lines)} line{'s' * (len(lines) != 1)} legal" in replay.output


# --- play --resume: the same match as straight through ----------------------------------------------------------------


def play_split(tmp_path: Path, preset: str, players: int, opponent: str, seed: int, cuts: list[int],
               leave: str = "q") -> tuple[Path, Path, list[str]]:
    """The match played straight through with `seed`'s answers, and again left at each answer number in `cuts`
    (by `leave`: q, or end of input) and resumed; both logs, and what each run printed."""
    answers_ = random_answers(seed)
    straight, split = tmp_path / "straight.jsonl", tmp_path / "split.jsonl"

    def args(log: Path) -> list[str]:
        return [opponent if a == "heuristic" else a for a in play_args(log, preset, players, seed, "--seat",
                                                                      str(players - 1), "--coach", "off")]
    result = runner.invoke(app, args(straight), input="\n".join(answers_) + "\n")
    assert result.exit_code == 0, result.output
    outputs, prev = [], 0
    for k, cut in enumerate([*cuts, None]):
        part = answers_[prev:cut] + ([leave] if cut is not None and leave == "q" else [])
        command = args(split) if k == 0 else ["play", "--resume", "--log", str(split)]
        result = runner.invoke(app, command, input="\n".join(part) + ("\n" if cut is None or leave == "q" else ""))
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
        if cut is not None:
            assert lines_of(split)[-1]["unfinished"] is True, result.output
        prev = cut
    return straight, split, outputs


@pytest.mark.parametrize("preset,players,opponent,seed,cuts", [
    ("trinidad", 4, "heuristic", 5, [40, 120]),
    ("partnership-seven", 4, "heuristic", 25, [15, 60]),   # the bunching vote
    ("classic", 4, "heuristic", 25, [10, 30]),             # discards after a run
    ("trinidad", 2, "pimc", 8, [5, 12]),                   # the searching player: its stream kept
])
def test_a_match_left_twice_and_resumed_writes_the_log_of_the_match_played_straight_through(
        tmp_path, preset, players, opponent, seed, cuts):
    straight, split, outputs = play_split(tmp_path, preset, players, opponent, seed, cuts)
    assert split.read_bytes() == straight.read_bytes()
    assert_one_match(split)
    for out in outputs[:-1]:
        assert f"To go on with it: allfours play --resume --log {split}" in out
    for out in outputs[1:]:
        assert "Resuming the match in " in out and "── You left the match here; it goes on. ──" in out
    assert "Match over: " in outputs[-1]


def test_end_of_input_mid_deal_keeps_it_and_resumes_the_same(tmp_path):
    straight, split, outputs = play_split(tmp_path, "trinidad", 4, "heuristic", 5, [40], leave="eof")
    assert re.search(r"end of input: 0 finished deals saved to .*, and the deal in progress as line 1\n"
                     r"To go on with it: allfours play --resume --log ", outputs[0])
    assert split.read_bytes() == straight.read_bytes()


def test_the_deal_in_progress_line(tmp_path):
    """Its keys: the cut line, unfinished, and resume (command, due, seat, opponent, seed, coach, inference, deal,
    streams, digest); it stops where the player's decision is due, and replay says it is a deal in progress."""
    log = tmp_path / "m.jsonl"
    result = runner.invoke(app, play_args(log, "trinidad", 4, 5, "--seat", "3", "--coach", "off"),
                           input="\n".join(random_answers(5)[:40] + ["q"]) + "\n")
    assert result.exit_code == 0, result.output
    line = lines_of(log)[-1]
    assert line["unfinished"] is True and "score_after" not in line and "winner" not in line
    resume = line["resume"]
    assert set(resume) == {"command", "due", "seat", "opponent", "seed", "coach", "inference", "deal", "streams",
                           "digest"}
    assert (resume["command"], resume["seat"], resume["opponent"], resume["seed"], resume["coach"],
            resume["inference"]) == ("play", 3, "heuristic", 5, "off", "full")
    assert resume["due"]["seat"] == 3 and resume["due"]["kind"] in ("bid", "card")
    earlier = lines_of(log)[:-1][len(lines_of(log)) - resume["deal"]:]
    assert len(earlier) == resume["deal"] - 1
    assert re.fullmatch(r"sha256:[0-9a-f]{64}", resume["digest"]) and resume["digest"] == digest(line, earlier)
    from analyser.table.entry import decision_due

    if resume["due"]["kind"] == "card":
        assert decision_due({k: v for k, v in line.items() if k not in ("unfinished", "resume")}) == ("card", 3)
    replay = runner.invoke(app, ["replay", str(log)])
    assert replay.exit_code == 0, replay.output
    assert "a deal in progress left by allfours play, legal as far as it goes" in replay.output
    assert f"finish it with: allfours play --resume --log {log}" in replay.output
    shown = runner.invoke(app, ["replay", str(log), "--show", "--json"])
    assert json.loads(shown.stdout)["unfinished"][-1]["finish"] == f"allfours play --resume --log {log}"
    text = runner.invoke(app, ["replay", str(log), "--show"]).stdout
    assert "the deal stops here, unfinished: seat 3's " in text


def test_a_new_match_on_a_log_ending_mid_deal_says_how_to_resume_instead(tmp_path):
    log = tmp_path / "m.jsonl"
    runner.invoke(app, play_args(log, "trinidad", 2, 3, "--coach", "off"), input="q\n")
    result = runner.invoke(app, play_args(log, "trinidad", 2, 3, "--coach", "off"), input="q\n")
    assert f"Note: {log} ends with a match left in the middle of a deal (line 1); this new match goes after it" in \
        result.output


def test_play_resume_through_a_real_pipe(tmp_path):
    log = tmp_path / "match.jsonl"
    answers_ = random_answers(8)
    args = ["play", "--rules", "classic", "--players", "2", "--opponent", "heuristic", "--seed", "8", "--set",
            "target=5", "--log", str(log), "--coach", "off"]
    run = [sys.executable, "-m", "analyser"]
    done = subprocess.run([*run, *args], input="\n".join(answers_[:20]) + "\n", capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert f"To go on with it: allfours play --resume --log {log}" in done.stdout
    done = subprocess.run([*run, "play", "--resume", "--log", str(log)], input="\n".join(answers_[20:]) + "\n",
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Match over: " in done.stdout and "\x1b" not in done.stdout
    assert_one_match(log)


def asking(shown: str) -> bool:
    last = shown.rstrip().splitlines()[-1] if shown.strip() else ""
    return last.endswith("q leave):")


def answer_everything(terminal, until: str) -> str:
    """Answer each question in the terminal (a bid word, each card number until one is taken) until `until`."""
    shown = terminal.wait_for(lambda s: asking(s) or until in s)
    while until not in shown:
        last = shown.rstrip().splitlines()[-1]
        tries = ["s", "b"] if "stand or beg" in last else ["g", "r"] if "give or run" in last else \
            [str(k) for k in range(1, 10)]
        for word in tries:
            before = terminal.screen()
            terminal.send(word)
            shown = terminal.wait_for(lambda s, b=before: s != b and (asking(s) or until in s))
            if until in shown or not any(t.startswith("  no: ") for t in shown.rstrip().splitlines()[-2:]):
                break
    return shown


def test_ctrl_c_mid_deal_in_a_real_terminal_and_resume_there_to_the_end(tmp_path):
    log = tmp_path / "match.jsonl"
    with another_terminal(tmp_path, "play", 160, 50, "xterm-256color") as first:
        first.start(["--rules", "trinidad", "--players", "2", "--opponent", "heuristic", "--seed", "21", "--set",
                     "target=4", "--log", str(log), "--coach", "off"])
        shown = first.wait_for(asking)
        first.send("1")  # a card or a bid word refused: either way the deal is in progress
        first.wait_for(lambda s: s != shown and asking(s))
        first.tmux("send-keys", "-t", first.name, "C-c")
        assert first.exit_code() == 130
        shown = first.screen()
        assert "interrupted: 0 finished deals saved to" in shown and ", and the deal in progress as line 1" in shown
        assert f"To go on with it: allfours play --resume --log {log}" in shown and "Traceback" not in shown
    kept = lines_of(log)[-1]
    assert kept["unfinished"] is True and kept["resume"]["seed"] == 21
    with another_terminal(tmp_path, "play", 160, 50, "xterm-256color") as again:
        again.start(["--resume", "--log", str(log)])
        shown = again.wait_for(asking)
        assert f"Resuming the match in {log}: deal 1 (line 1), score you 0, seat 1 0 (to 4)." in shown
        assert "── You left the match here; it goes on. ──" in shown
        answer_everything(again, "Match over: ")
        assert again.exit_code() == 0
    assert_one_match(log)


# --- record --resume: the same file as an uninterrupted entry --------------------------------------------------------


@pytest.mark.parametrize("preset,players,seat,settings,cuts", [
    ("trinidad", 4, 0, (), [3, 9, 25]),          # the turn-up, a bid, in trick play
    ("trinidad", 4, None, (), [2, 7, 30]),       # every hand: two of four hands entered (not in the line yet)
    ("classic", 3, 1, (), [4, 12]),
    ("partnership-seven", 4, None, (), [9, 20]),
])
def test_an_entry_interrupted_and_resumed_writes_the_file_of_an_uninterrupted_one(tmp_path, preset, players, seat,
                                                                                     settings, cuts):
    lines = simulated(preset, players, 2, seed=11, settings=settings)
    typed = answers(lines, seat)
    whole, split = tmp_path / "whole.jsonl", tmp_path / "split.jsonl"
    result = runner.invoke(app, ["record", "--out", str(whole), *options(lines, seat)], input="\n".join(typed) + "\n")
    assert result.exit_code == 0, result.output
    prev = 0
    for k, cut in enumerate([*cuts, None]):
        part = typed[prev:cut]
        command = ["record", "--out", str(split), *options(lines, seat)] if k == 0 else \
            ["record", "--resume", "--out", str(split)]
        result = runner.invoke(app, command, input="\n".join(part) + ("\n" if cut is None else ""))
        assert result.exit_code == 0, result.output
        if cut is not None:
            assert f"To go on with it: allfours record --resume --out {split}" in result.output
            assert lines_of(split)[-1]["unfinished"] is True
        if k:
            assert "Resuming the entry in " in result.output and "So far: " in result.output
        prev = cut
    assert split.read_bytes() == whole.read_bytes()
    assert lines_of(whole) == [ln if seat is None else view_of(ln, seat) for ln in lines]


def test_the_hands_of_a_full_log_entered_before_the_deal_is_whole_are_kept(tmp_path):
    lines = simulated("trinidad", 4, 1, seed=11)
    typed = answers(lines, None)
    path = tmp_path / "deals.jsonl"
    result = runner.invoke(app, ["record", "--out", str(path), *options(lines, None)], input="\n".join(typed[:2]))
    assert result.exit_code == 0, result.output
    kept = lines_of(path)[-1]
    assert kept["events"] == [] and kept["resume"]["seat"] == "all"
    assert [e["seat"] for e in kept["resume"]["entered"]] == [0, 1]
    assert kept["resume"]["entered"][0]["cards"] == lines[0]["events"][0]["hands"][0]
    replay = runner.invoke(app, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    assert "a deal in progress left by allfours record" in replay.output and "next: seat 2's hand" in replay.output


def test_replay_on_a_seats_view_in_progress(tmp_path):
    lines = simulated("trinidad", 4, 1, seed=4)
    typed = answers(lines, 2)
    path = tmp_path / "deals.jsonl"
    runner.invoke(app, ["record", "--out", str(path), *options(lines, 2)], input="\n".join(typed[:12]))
    kept = lines_of(path)[-1]
    assert kept["unfinished"] and kept["events"][0]["hands"][0] == ["??"] * 6
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert f"finish it with: allfours record --resume --out {path}" in result.output
    text = runner.invoke(app, ["replay", str(path), "--show"]).stdout
    assert "you are seat 2, play passes to your left: seat 3, on your left, plays after you; seat 0, opposite, is " \
           "your partner; seat 1, on your right, plays before you" in text
    assert "score so far: your side " in text and ", theirs " in text
    # not the last line: refereed, but no longer resumable
    with open(path, "a") as handle:
        handle.write(json.dumps(lines[0]) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "a later line follows it, so it cannot be resumed" in result.output


# --- bad input: one line, exit 2, the file untouched ----------------------------------------------------------------


def refused(command: list[str], path: Path, *words: str) -> None:
    before = path.read_bytes() if path.exists() else None
    result = runner.invoke(app, command, input="s\n1\n")
    assert result.exit_code == 2, result.output
    err = result.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "Traceback" not in result.output, result.output
    for w in words:
        assert w in err[0], err[0]
    assert (path.read_bytes() if path.exists() else None) == before


MATCH9 = ["play", "--rules", "trinidad", "--players", "4", "--opponent", "heuristic", "--seed", "5", "--set",
          "target=9", "--coach", "off", "--log"]


@pytest.fixture
def left_match(tmp_path) -> Path:
    """A 4-player match: two finished deals, then left mid-deal (a line for each, the last unfinished)."""
    answers_ = random_answers(5)
    count: dict[str, int] = {"read": 0, "third": 0}

    def read(prompt: str) -> str:
        count["read"] += 1
        return answers_[count["read"] - 1]

    def write(text: str) -> None:
        if "Saved as line 2 of" in text and not count["third"]:
            count["third"] = count["read"]  # the answers the first two deals took

    from analyser.game.rules import make_rules
    from analyser.table.play import Game, Options
    from analyser.table.record import TableIO

    rules = make_rules("trinidad", players=4, settings=["target=9"])
    game = Game(TableIO(read, write, False), Options(rules, tmp_path / "probe.jsonl", opponent="heuristic", seed=5,
                                                     coach="off"))
    game.run()
    assert len(game.saved) >= 3, "the match must last three deals for these tests"
    log = tmp_path / "m.jsonl"
    result = runner.invoke(app, [*MATCH9, str(log)], input="\n".join(answers_[:count["third"] + 2] + ["q"]) + "\n")
    assert result.exit_code == 0, result.output
    assert len(lines_of(log)) == 3 and lines_of(log)[-1]["unfinished"] is True
    return log


def test_play_resume_refuses_what_it_cannot_go_on_with(tmp_path, left_match):
    log = left_match
    resume = ["play", "--resume", "--log"]
    refused([*resume, str(tmp_path / "none.jsonl")], tmp_path / "none.jsonl", "cannot resume: there is no file")
    refused([*resume, str(log), "--seat", "2"], log, "--resume takes the match's settings from the log: leave out "
                                                     "--seat")
    # a finished match: nothing in progress
    done = tmp_path / "done.jsonl"
    done.write_text("\n".join(json.dumps(ln) for ln in lines_of(log)[:2]) + "\n")
    refused([*resume, str(done)], done, "its last deal (line 2) is finished: there is no deal in progress to resume")
    # not a game log; a record's deal in progress
    text = tmp_path / "notes.txt"
    text.write_text("hello\n")
    refused([*resume, str(text)], text, "is not a game log: line 1 is not an allfours-log/1 line")
    entry = tmp_path / "entry.jsonl"
    lines = simulated("trinidad", 4, 1, seed=4)
    runner.invoke(app, ["record", "--out", str(entry), *options(lines, 2)], input="\n".join(answers(lines, 2)[:12]))
    refused([*resume, str(entry)], entry, "is not a match log: its deal in progress (line 1) was left by "
                                          "`allfours record`; continue it with allfours record --resume --out")
    refused(["record", "--resume", "--out", str(log)], log, "was left by `allfours play`; continue it with allfours "
                                                            "play --resume --log")
    # changed by hand: a card of the deal in progress (the digest does not match)
    rows = log.read_text().splitlines()
    last = json.loads(rows[-1])
    last["events"][0]["hands"][0][0], last["events"][0]["hands"][1][0] = \
        last["events"][0]["hands"][1][0], last["events"][0]["hands"][0][0]
    edited = tmp_path / "edited.jsonl"
    edited.write_text("\n".join([*rows[:-1], json.dumps(last)]) + "\n")
    refused([*resume, str(edited)], edited, "lines 1 to 3 changed since the deal was left (the digest in line 3 does "
                                            "not match): it cannot be resumed")
    # an earlier line of the match changed, the digest made to match: it no longer referees
    first = json.loads(rows[0])
    first["score_after"] = [first["score_after"][0] + 1, first["score_after"][1]]
    last = json.loads(rows[-1])
    last["resume"]["digest"] = digest(last, [first, json.loads(rows[1])])
    edited.write_text("\n".join([json.dumps(first), rows[1], json.dumps(last)]) + "\n")
    refused([*resume, str(edited)], edited, "line 1 no longer referees (wrong score_after")
    # and the file itself resumes (the fixture is sound)
    result = runner.invoke(app, [*resume, str(log)], input="q\n")
    assert result.exit_code == 0, result.output
    assert "Resuming the match in " in result.output and "deal 3 (line 3)" in result.output


def test_record_resume_refuses_what_it_cannot_go_on_with(tmp_path):
    lines = simulated("trinidad", 4, 1, seed=4)
    path = tmp_path / "deals.jsonl"
    runner.invoke(app, ["record", "--out", str(path), *options(lines, 2)], input="\n".join(answers(lines, 2)[:12]))
    resume = ["record", "--resume", "--out"]
    refused([*resume, str(tmp_path / "none.jsonl")], tmp_path / "none.jsonl", "cannot resume: there is no file")
    refused([*resume, str(path), "--dealer", "1"], path, "--resume takes the entry's settings from --out: leave out "
                                                         "--dealer")
    done = tmp_path / "done.jsonl"
    done.write_text(json.dumps(view_of(lines[0], 2)) + "\n")
    refused([*resume, str(done)], done, "its last deal (line 1) is finished")
    row = json.loads(path.read_text())
    hand = row["events"][0]["hands"][2]
    row["events"][1]["card"] = hand[0]  # the turn-up changed to a card of seat 2's hand
    edited = tmp_path / "edited.jsonl"
    edited.write_text(json.dumps(row) + "\n")
    refused([*resume, str(edited)], edited, "line 1 changed since the deal was left")
    row["resume"]["digest"] = digest(row)  # the digest made to match: the line no longer referees
    edited.write_text(json.dumps(row) + "\n")
    refused([*resume, str(edited)], edited, "line 1 no longer referees (", "it cannot be resumed")


# --- who is who ---------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players,seat,words", [
    (4, 1, "You are seat 1, play passes to your left: seat 2, on your left, plays after you; seat 3, opposite, is "
           "your partner; seat 0, on your right, plays before you."),
    (3, 0, "You are seat 0, play passes to your left: seat 1, on your left, plays after you; seat 2, on your "
           "right, plays before you (no partners: each seat scores alone)."),
    (2, 1, "You are seat 1; seat 0, opposite, plays after you (no partners: each of you scores alone)."),
])
def test_play_says_who_is_who(tmp_path, players, seat, words):
    preset = "classic" if players == 3 else "trinidad"
    result = runner.invoke(app, play_args(tmp_path / "m.jsonl", preset, players, 2, "--seat", str(seat)),
                           input="q\n")
    assert result.exit_code == 0, result.output
    assert words in result.output.splitlines()[1]


def test_play_strategy_is_kept_with_the_deal_in_progress_and_resumed(tmp_path):
    """--strategy DIR: the coach reads the others' bids by that equilibrium run; the deal in progress keeps it, the
    analysis command names it, --resume takes it from the log (and refuses it on the command line); a folder without
    an equilibrium is one line, exit 2, before anything is dealt."""
    import shutil

    run = tmp_path / "eq"
    shutil.copytree("results/trinidad-4p/equilibrium", run)
    log = tmp_path / "m.jsonl"
    args = play_args(log, "trinidad", 4, 5, "--seat", "3", "--coach", "all", "--strategy", str(run))
    result = runner.invoke(app, args, input="\n".join(random_answers(5)[:40] + ["q"]) + "\n")
    assert result.exit_code == 0, result.output
    assert lines_of(log)[-1]["resume"]["strategy"] == str(run)
    refused(["play", "--resume", "--log", str(log), "--strategy", str(run)], log,
            "--resume takes the match's settings from the log: leave out --strategy")
    resumed = runner.invoke(app, ["play", "--resume", "--log", str(log)],
                            input="\n".join(random_answers(5)[40:]) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert "Match over: " in resumed.output and f"--strategy {run} --out allfours-analysis" in resumed.output
    other = tmp_path / "other.jsonl"
    refused(play_args(other, "trinidad", 4, 5, "--strategy", str(tmp_path / "none")), other, "equilibrium.json")
