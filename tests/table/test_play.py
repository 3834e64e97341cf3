"""`allfours play`: one match against the computer, with a coach. Whole matches through a pipe for every preset and
player count (random answers, junk among them), the engine's own matches when the computer plays every seat, the
coach's judgement against `analyse`'s, bad input and interruptions, and a real terminal (tmux)."""

from __future__ import annotations

import datetime
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.game.cards import parse_card
from analyser.cli import app
from tmux_terminal import terminal_session
from analyser.engine.matches import play_match
from analyser.players.policy import seat_policies
from analyser.game.rules import PRESET_PLAYERS, make_rules
from analyser.table.autoplay import Autoplay
from analyser.table.coach import Coach
from analyser.table.computer import streams
from analyser.table.entry import Entry, build, read_cards
from analyser.table.play import Game, Options
from analyser.table.record import TableIO

runner = CliRunner()
CONFIGS = [(preset, players) for preset, counts in PRESET_PLAYERS.items() for players in counts]
WORDS = ["stand", "beg", "give", "run", "s", "b", "g", "r", "y", "n", "yes", "no", "1 2 3", "1, 2, 3, 4, 5, 6",
         "1 2 3 4 5 6 7 8 9"]
JUNK = ["", "zz", "11h", "QQ", "what", "0", "-1", "  ", "hint me", "1 1 1"]


def random_answers(seed: int, count: int = 4000) -> list[str]:
    """Answers a careless player types: card numbers and names, bid words, votes, discards, junk."""
    rnd = random.Random(seed)
    cards = [f"{r}{s}" for r in ("2", "5", "9", "10", "t", "j", "q", "k", "a") for s in "shdc♠♥"]
    out = []
    for _ in range(count):
        pick = rnd.random()
        if pick < 0.45:
            out.append(str(rnd.randint(1, 12)))
        elif pick < 0.6:
            out.append(rnd.choice(cards))
        elif pick < 0.85:
            out.append(rnd.choice(WORDS))
        else:
            out.append(rnd.choice(JUNK))
    return out


def play_args(log: Path, preset: str, players: int, seed: int, *extra: str) -> list[str]:
    return ["play", "--rules", preset, "--players", str(players), "--opponent", "heuristic", "--seed", str(seed),
            "--set", "target=3", "--log", str(log), *extra]


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_piped_matches_with_junk_answers_play_to_the_end_and_replay_clean(tmp_path, preset, players):
    log = tmp_path / "match.jsonl"
    seat = players - 1
    seed = 10 * players + len(preset)
    result = runner.invoke(app, play_args(log, preset, players, seed, "--seat", str(seat), "--coach", "off"),
                           input="\n".join(random_answers(seed)) + "\n")
    out = result.output
    assert result.exit_code == 0, out
    assert "\x1b" not in out  # plain text through a pipe
    assert f"You are seat {seat}" in out and f"Each deal is added to {log} as it ends." in out
    assert "  no: " in out  # junk was refused, and asked again
    assert "Match over: " in out and "Your decisions, judged as `allfours analyse` judges them:" in out
    assert f"allfours analyse {log} --seat {seat} --seed {seed} --out" in out
    lines = [json.loads(t) for t in log.read_text().splitlines()]
    assert lines and lines[-1]["winner"] is not None and all(ln["winner"] is None for ln in lines[:-1])
    assert all(all(h != ["??"] * len(h) for h in ln["events"][0]["hands"]) for ln in lines)  # every hand
    for k, line in enumerate(lines):
        assert f"Saved as line {k + 1} of {log}." in out
        assert line["rules"]["preset"] == preset and line["rules"]["players"] == players
    replay = runner.invoke(app, ["replay", str(log)])
    assert replay.exit_code == 0, replay.output
    assert f"{len(lines)} line{'s' * (len(lines) != 1)} legal" in replay.output


@pytest.mark.parametrize("preset,asked", [("partnership-seven", ("Do you agree to bunch? (y/n, q leave): ",
                                                                   "Not all agree: the deal is played.", "Redeal: ")),
                                            ("classic", ("Trump is ", ": discard 3 of your 9 cards", "Redeal: "))])
def test_votes_discards_and_redeals_through_a_pipe(tmp_path, preset, asked):
    """Seed 25 at seat 3: a run, the player's vote or discards, a void deal dealt again in the same line."""
    log = tmp_path / "match.jsonl"
    result = runner.invoke(app, play_args(log, preset, 4, 25, "--seat", "3", "--coach", "off"),
                           input="\n".join(random_answers(25)) + "\n")
    assert result.exit_code == 0, result.output
    for text in asked:
        assert text in result.output
    assert "Match over: " in result.output
    assert any(ev["event"] == "redeal" for t in log.read_text().splitlines() for ev in json.loads(t)["events"])
    replay = runner.invoke(app, ["replay", str(log)])
    assert replay.exit_code == 0, replay.output


@pytest.mark.parametrize("preset,players,opponent,target", [
    ("trinidad", 4, "heuristic", 14), ("trinidad", 2, "heuristic", 14), ("classic", 3, "heuristic", 11),
    ("classic", 4, "heuristic", 11), ("partnership-seven", 4, "heuristic", 7), ("trinidad-tobago", 2, "heuristic", 14),
    ("trinidad", 2, "pimc", 5)])
def test_with_the_computer_at_every_seat_the_match_is_the_engines_own(tmp_path, preset, players, opponent, target):
    """Dealt by the engine's shuffle, decided by the engine's players one decision at a time: play_match's match."""
    rules = make_rules(preset, players=players, settings=[f"target={target}"])
    for seed in (1, 2):
        game = Autoplay(TableIO(lambda prompt: "", lambda text: None, False),
                        Options(rules, tmp_path / f"auto{seed}.jsonl", seat=0, opponent=opponent, seed=seed,
                                coach="off"))
        game.run()
        deck_rng, choice_rng = streams(seed)
        kinds, params = seat_policies([opponent], players)
        scores = np.zeros(4, dtype=np.int64)
        winner, lines = play_match(rules.as_array(), kinds, params, deck_rng, choice_rng, scores)
        assert (game.winner, len(game.saved), game.saved[-1][1]["score_after"]) == \
            (int(winner), int(lines), [int(x) for x in scores[:rules.sides]])


def scripted(answers: list[str], out: list[str]) -> TableIO:
    feed = iter(answers)

    def read(prompt: str) -> str:
        out.append(prompt)
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None
    return TableIO(read, out.append, False)


def test_the_coach_judges_as_analyse_does_with_the_same_seed(tmp_path):
    """Every judgement of the coach is analyse's for that line and event of the log (an earlier line in the file)."""
    log = tmp_path / "match.jsonl"
    earlier = runner.invoke(app, ["simulate", "--rules", "trinidad", "--players", "2", "--deals", "1", "--seed", "3",
                                  "--log", str(log), "--threads", "1"])
    assert earlier.exit_code == 0, earlier.output
    out: list[str] = []
    rules = make_rules("trinidad", players=2, settings=["target=4"])
    game = Game(scripted(random_answers(7), out), Options(rules, log, seat=1, opponent="heuristic", seed=9,
                                                          coach="all"))
    game.run()
    assert game.first_line == 2 and game.saved[0][0] == 2
    judged = {(j.decision.line, j.decision.event): j.decision for j in game.judged}
    assert any(d.kind == "bid" for d in judged.values()) and any(d.kind == "card" for d in judged.values())
    assert sum(text.startswith("  Coach: ") for text in out) == len(judged)  # --coach all: a word on each
    result = runner.invoke(app, ["analyse", str(log), "--seat", "1", "--seed", "9", "--no-win-prob", "--json"])
    assert result.exit_code == 0, result.output
    theirs = {(d["line"], d["event"]): d for d in json.loads(result.stdout)["decisions"] if d["line"] > 1}
    assert set(theirs) == set(judged)
    for key, d in judged.items():
        t = theirs[key]
        assert (d.chosen, d.best, d.flag, d.samples) == (t["chosen"], t["best"], t["flag"], t["samples"])
        assert d.loss == pytest.approx(t["loss"], abs=1e-12)


def handmade() -> tuple[Coach, dict]:
    """Two players, hearts trump, seat 1 leads 10♦ to trick 5; seat 0 holds A♥ and 2♣: trumping takes Game."""
    rules = make_rules("trinidad", players=2)
    entry = Entry(rules, 1, [0, 0], hands={0: read_cards("3S 4S 5S 6S AH 2C", ""),
                                           1: read_cards("7S 8S 9S 2D TD 3D", "")},
                  turnups=[parse_card("8H")], bids=["stand"], played=read_cards("3S 7S 8S 4S 9S 5S 2D 6S TD", ""))
    built = build(entry)
    assert built.due.kind == "card" and built.due.seat == 0
    return Coach(rules, 0, 1, "mistakes"), built.line


def test_the_coach_names_the_better_card_on_a_handmade_blunder():
    coach, line = handmade()
    blunder = coach.judge(line, 1, parse_card("2C"))
    assert blunder is not None and blunder.flag == "blunder" and blunder.best == "AH"
    words = coach.comment(blunder)
    assert words is not None and words.startswith("A♥ was better; 2♣ gave up ") and words.endswith("a blunder.")
    best = coach.judge(line, 1, parse_card("AH"))
    assert coach.comment(best) is None  # --coach mistakes: nothing to say
    coach.mode = "all"
    assert coach.comment(best) == "A♥ was the best card."
    coach.mode = "off"
    assert coach.comment(blunder) is None


def test_each_answer_is_read_with_the_reason_it_does_not_fit():
    from analyser.table.answers import PlayError, bid_reader, card_reader, discard_reader, read_vote
    from analyser.table.entry import PlayWalk

    def refused(read, text):
        with pytest.raises(PlayError) as err:
            read(text)
        return str(err.value)

    cards = read_cards("4S 5S 6S AH 2C", "")
    walk = PlayWalk(make_rules("trinidad", players=2), 1, 1)  # seat 1 leads, hearts trump
    walk.play(parse_card("8S"))
    read = card_reader(cards, walk)
    assert read("6s") == read("♠6") == read("3") == parse_card("6S") and read("ah") == read("4") == parse_card("AH")
    assert refused(read, "2c") == "you must follow ♠ or trump"
    assert refused(read, "kd") == "K♦ is not in your hand"
    assert refused(read, "9") == "there is no card 9: your hand holds 5"
    assert refused(read, "give") == "'give' is not a card: give one such as 10h, th or t♥, or its number 1 to 5"
    walk = PlayWalk(make_rules("trinidad", players=2), 1, 1)
    walk.play(parse_card("3H"))  # a trump lead
    assert refused(card_reader(cards, walk), "4s") == "trumps (♥) were led and you hold trump: play a trump"
    classic = make_rules("classic", players=2, settings=["undertrump=forbidden"])
    walk = PlayWalk(classic, 1, 1)
    walk.play(parse_card("8D"))  # no diamonds: void_play=trump
    assert refused(card_reader(cards, walk), "4s") == "you have no ♦, so you must trump (void_play=trump)"
    walk = PlayWalk(make_rules("classic", players=3, settings=["undertrump=forbidden"]), 1, 1)
    walk.play(parse_card("8S"))
    walk.play(parse_card("KH"))  # trumped: undertrumping it is forbidden while a spade is held
    low = read_cards("4S 4H 2C", "")
    assert refused(card_reader(low, walk), "4h") == "you may not undertrump K♥ while you hold a card of another suit " \
                                                   "(undertrump=forbidden)"
    assert bid_reader("eldest")("S") == "stand" and bid_reader("dealer")("run") == "run"
    assert refused(bid_reader("dealer"), "stand") == "you are the dealer: give or run (stand and beg are the eldest's)"
    assert refused(bid_reader("eldest"), "pass") == "'pass': answer stand or beg (s or b)"
    assert read_vote("Yes") is True and read_vote("n") is False
    assert refused(read_vote, "maybe").startswith("'maybe': answer y (bunch")
    discard = discard_reader(cards, 2)
    assert discard("1, 2c") == [parse_card("4S"), parse_card("2C")]
    assert refused(discard, "1 4s") == "4♠ is given twice"
    assert refused(discard, "1") == "discard 2 cards, not 1"


def test_refused_answers_at_the_table_are_asked_again(tmp_path):
    log = tmp_path / "match.jsonl"
    args = ["play", "--rules", "trinidad", "--players", "2", "--opponent", "heuristic", "--seed", "21", "--log",
            str(log)]
    result = runner.invoke(app, args, input="ks\n9\n\ngive\nq\n")
    out = result.output
    assert result.exit_code == 0, out
    prompt = "Your lead: your card (1-5, ? hint, q leave): "
    assert f"{prompt}ks\n  no: K♠ is not in your hand\n{prompt}9\n  no: there is no card 9: your hand holds 5\n" in out
    assert f"{prompt}\n  no: the answer is empty\n{prompt}give\n  no: 'give' is not a card" in out
    assert f"{prompt}q\nYou leave the match: 0 finished deals saved to {log}" in out


def test_q_end_of_input_and_a_log_that_is_never_overwritten(tmp_path):
    log = tmp_path / "match.jsonl"
    log.write_text('{"not": "a deal"}')  # no newline at its end: the first deal goes on the next line
    answers = random_answers(3)
    result = runner.invoke(app, play_args(log, "trinidad", 2, 3, "--coach", "off"), input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    lines = log.read_text().splitlines()
    assert lines[0] == '{"not": "a deal"}' and len(lines) >= 2
    assert "Saved as line 2 of" in result.output
    # q: the finished deals are saved, and the deal in progress, as the log's last line
    result = runner.invoke(app, play_args(log, "trinidad", 2, 3, "--coach", "off"), input="q\n")
    assert result.exit_code == 0, result.output
    assert f"You leave the match: 0 finished deals saved to {log}, and the deal in progress as line " \
           f"{len(lines) + 1}.\nTo go on with it: allfours play --resume --log {log}\n" in result.output
    assert json.loads(log.read_text().splitlines()[-1])["unfinished"] is True
    # end of input in the second deal: the first is saved, the second is not
    first_deal = len(lines) - 1
    count = {"answers": 0, "first": 0}

    def read(prompt: str) -> str:
        count["answers"] += 1
        return answers[count["answers"] - 1]

    def write(text: str) -> None:
        if "Saved as line" in text and not count["first"]:
            count["first"] = count["answers"]

    rules = make_rules("trinidad", players=2, settings=["target=3"])
    Game(TableIO(read, write, False), Options(rules, log, seed=3, opponent="heuristic", coach="off")).run()
    assert first_deal > 1, "the match must last two deals for this test"
    result = runner.invoke(app, play_args(log, "trinidad", 2, 3, "--coach", "off"),
                           input="\n".join(answers[:count["first"] + 3]))
    assert result.exit_code == 0, result.output
    assert f"end of input: 1 finished deal saved to {log}, and the deal in progress as line " in result.output
    assert len(log.read_text().splitlines()) == 1 + 2 * first_deal + 1 + 2  # and two deals in progress


def test_bad_options(tmp_path):
    result = runner.invoke(app, ["play", "--log", str(tmp_path), "--seed", "1"], input="")
    assert result.exit_code == 2 and "is a folder, not a file" in result.output
    result = runner.invoke(app, ["play", "--log", str(tmp_path / "no" / "m.jsonl"), "--seed", "1"], input="")
    assert result.exit_code == 2 and f"error: cannot write {tmp_path / 'no' / 'm.jsonl'}: the folder" in result.output
    result = runner.invoke(app, ["play", "--players", "2", "--seat", "2", "--log", str(tmp_path / "m.jsonl")])
    assert result.exit_code == 2 and "error: --seat 2: the rules have seats 0 to 1 (2 players)" in result.output
    result = runner.invoke(app, ["play", "--coach", "sometimes"])
    assert result.exit_code == 2 and "--coach sometimes: not one of the choices; choose off, mistakes or all" in \
        result.output
    assert not list(tmp_path.iterdir())


def test_the_default_log_is_a_dated_file_in_the_data_folder(tmp_path):
    result = runner.invoke(app, ["play", "--rules", "classic", "--players", "3", "--opponent", "heuristic"],
                           input="q\n", env={"XDG_DATA_HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    log = tmp_path / "allfours" / f"play-{datetime.date.today().isoformat()}.jsonl"
    assert f"Each deal is added to {log} as it ends." in result.output
    assert re.search(r"^Seed \d+; coach: mistakes\.", result.output, re.M)  # a new seed, said
    assert f"You leave the match: 0 finished deals saved to {log}" in result.output


def test_play_through_a_real_pipe(tmp_path):
    log = tmp_path / "match.jsonl"
    args = ["play", "--rules", "classic", "--players", "2", "--seed", "8", "--set", "target=3", "--log", str(log)]
    done = subprocess.run([sys.executable, "-m", "analyser", *args],  # pimc, the coach pointing out mistakes
                          input="\n".join(random_answers(8)) + "\n", capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "Match over: " in done.stdout and "\x1b" not in done.stdout
    done = subprocess.run([sys.executable, "-m", "analyser", "replay", str(log)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr


# --- a real terminal ---------------------------------------------------------------------------------------------


@pytest.fixture
def terminal(tmp_path):
    yield from terminal_session(tmp_path, "play", 160, 50, "xterm-256color")


def asking(shown: str) -> bool:
    last = shown.rstrip().splitlines()[-1] if shown.strip() else ""
    return last.endswith("q leave):")


def test_a_few_tricks_in_a_real_terminal(terminal, tmp_path):
    log = tmp_path / "match.jsonl"
    terminal.start(["--rules", "trinidad", "--players", "2", "--opponent", "heuristic", "--seed", "21", "--log",
                    str(log), "--coach", "all"])
    shown = terminal.wait_for(asking)
    assert "All Fours: trinidad, 2 players, to 14 points.\nYou are seat 0; seat 1, opposite, plays after you (no " \
        "partners: each of you scores alone). The computer (heuristic) plays seat 1." in shown
    assert f"Seed 21; coach: all. Each deal is added to {log} as it ends." in shown
    assert "Turn-up: " in shown and "score you 0, seat 1 0 (to 14)" in shown
    hand = next(t for t in reversed(shown.splitlines()) if t.startswith("  Your hand:"))
    assert re.fullmatch(r"  Your hand:  1 \S+[♠♥♦♣]( +\d \S+[♠♥♦♣])+", hand), hand
    coloured = terminal.screen(colours=True)
    assert "\x1b[" in coloured  # colours at a terminal
    # junk is refused with the reason and asked again
    before = terminal.screen()
    terminal.send("junk")
    shown = terminal.wait_for(lambda s: s != before and asking(s))
    assert "  no: 'junk' is not a card: give one such as 10h, th or t♥, or its number 1 to" in shown
    # three tricks, each card tried by its number until one is legal
    while len(re.findall(r"^Trick \d+: ", shown, re.M)) < 3:
        for k in range(1, 7):
            before = terminal.screen()
            terminal.send(str(k))
            shown = terminal.wait_for(lambda s, b=before: s != b and asking(s))
            if not any(t.startswith("  no: ") for t in shown.splitlines()[-2:]):
                break
    assert "This trick: " in shown and "trump " in shown and "Coach: " in shown
    assert re.search(r"^Your (lead|turn \(. led\)): your card", shown, re.M)
    assert re.search(r"^Trick 1: .*: (you win|seat 1 wins) with ", shown, re.M)
    terminal.send("q")
    terminal.wait_for(lambda s: "You leave the match:" in s)
    assert terminal.exit_code() == 0


def test_ctrl_c_in_a_real_terminal_saves_the_finished_deals(terminal, tmp_path):
    log = tmp_path / "match.jsonl"
    terminal.start(["--rules", "classic", "--players", "2", "--opponent", "heuristic", "--seed", "3", "--log",
                    str(log), "--coach", "off"])
    terminal.wait_for(asking)
    terminal.tmux("send-keys", "-t", terminal.name, "C-c")
    assert terminal.exit_code() == 130
    shown = terminal.screen()
    assert f"interrupted: 0 finished deals saved to {log}, and the deal in progress as line 1" in shown
    assert f"To go on with it: allfours play --resume --log {log}" in shown
    assert json.loads(log.read_text())["unfinished"] is True
    assert "Traceback" not in shown
