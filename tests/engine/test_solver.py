"""The open-hand solver against a brute-force minimax, and `allfours solve`.

The reference is plain Python on `tests/reference_rules.py` (written from the rule book
alone): every legal card of every seat is tried, nothing is pruned or remembered, and the
deal is scored by the reference's own High/Low/Jack/Game. Endings are the last tricks of
random legal deals of `simulate --log`, cut at a card decision.
"""

from __future__ import annotations

import json
import random
import re
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

import reference_rules as ref
from analyser.game.cards import card_name
from analyser.cli import app
from analyser.engine.layout import N_STATE, PS_HAND, PS_LEADER, PS_TO_PLAY
from analyser.engine.bits import _pext_fast, _pext_loop, pdep_is_fast
from analyser.engine.solver import SolverWork, game_winner, solve_value
from analyser.engine.state import init_state
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.players.solve import SolveError, Solver, position_from_hands, position_from_line, position_from_text
from conftest import ROOT

CONFIGS = [
    ("trinidad", 4, []), ("trinidad", 2, []), ("trinidad-tobago", 4, []), ("partnership-seven", 4, []),
    ("classic", 4, []), ("classic", 3, []), ("classic", 2, []),
    ("classic", 4, ["undertrump=forbidden"]), ("trinidad", 4, ["undertrump=forbidden"]),
    ("classic", 3, ["game_tie=non-dealer", "undertrump=forbidden"]), ("trinidad", 2, ["game_tie=non-dealer"]),
]


def logged_deals(preset: str, players: int, settings: list[str], deals: int, seed: int = 3) -> list[dict[str, Any]]:
    """Lines of `simulate --log` (random players) that reached trick play."""
    rules = make_rules(preset, players=players, settings=settings)
    kinds, params = seat_policies(["random"], players)
    return [line for line in iter_log_lines(rules, deals, seed, kinds, params)
            if any(e["event"] == "play" for e in line["events"])]


def without_time(answer: dict[str, Any]) -> dict[str, Any]:
    """`solve --json`'s answer less what the search cost (nodes, seconds): what it says about the position."""
    return {k: v for k, v in answer.items() if k not in ("nodes", "seconds")}


def play_indices(line: dict[str, Any]) -> list[int]:
    return [i for i, e in enumerate(line["events"]) if e["event"] == "play"]


def cut(line: dict[str, Any], at: int) -> dict[str, Any]:
    """The line up to (not including) event `at`: the position at that card decision."""
    return dict(line, events=line["events"][:at])


# --- the brute-force reference ---------------------------------------------------------------


class Ending:
    """A position rebuilt from a full log line and a cut at its k-th play, by the reference's rules."""

    def __init__(self, line: dict[str, Any], k: int):
        rules = line["rules"]
        self.rules = rules
        n = self.n = rules["players"]
        events = line["events"]
        deal = max(i for i, e in enumerate(events) if e["event"] == "deal")
        hands = [list(h) for h in events[deal]["hands"]]
        for e in events[deal:]:
            if e["event"] == "more":
                for s, cards in enumerate(e["hands"]):
                    hands[s] += cards
            elif e["event"] == "discard":
                hands[e["seat"]] = [c for c in hands[e["seat"]] if c not in e["cards"]]
            elif e["event"] == "trump":
                self.trump = e["suit"]
        self.start = [list(h) for h in hands]
        self.dealer = line["dealer"]
        plays = [(e["seat"], e["card"]) for e in events if e["event"] == "play"]
        self.tricks: list[tuple[int, list[str]]] = []
        done = k - k % n
        for t in range(0, done, n):
            trick = plays[t: t + n]
            self.tricks.append((ref.trick_winner(trick, self.trump), [c for _, c in trick]))
        self.current = plays[done:k]
        for seat, card in plays[:k]:
            hands[seat].remove(card)
        self.hands = hands
        self.to_play = plays[k][0]
        self.side = ref.side_of(self.to_play, n)

    def legal(self, hands: list[list[str]], current: list[tuple[int, str]], seat: int) -> list[str]:
        return ref.legal_plays(hands[seat], [c for _, c in current], self.trump, self.rules["undertrump"],
                               self.rules["void_play"])

    def value(self, hands: list[list[str]], tricks: list[tuple[int, list[str]]], current: list[tuple[int, str]],
              seat: int) -> int:
        """Minimax: the side to move at the cut maximises its net points, every other side minimises."""
        if not any(hands) and not current:
            awards = ref.score_after_play(self.start, tricks, self.trump, self.dealer, self.rules)
            return sum(pts if side == self.side else -pts for side, pts, _, _ in awards)
        values = [self.child(hands, tricks, current, seat, card) for card in self.legal(hands, current, seat)]
        return max(values) if ref.side_of(seat, self.n) == self.side else min(values)

    def child(self, hands: list[list[str]], tricks: list[tuple[int, list[str]]], current: list[tuple[int, str]],
              seat: int, card: str) -> int:
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        now = current + [(seat, card)]
        if len(now) < self.n:
            return self.value(rest, tricks, now, (seat + 1) % self.n)
        winner = ref.trick_winner(now, self.trump)
        return self.value(rest, tricks + [(winner, [c for _, c in now])], [], winner)

    def card_values(self) -> dict[str, int]:
        return {card: self.child(self.hands, self.tricks, self.current, self.to_play, card)
                for card in self.legal(self.hands, self.current, self.to_play)}


def endings(preset: str, players: int, settings: list[str], count: int, seed: int) -> list[tuple[dict, int, Ending]]:
    """`count` cuts in the last 2-4 tricks of random deals (fewer tricks where the tree is wide)."""
    rnd = random.Random(seed)
    deepest = {4: 3, 3: 3, 2: 4}[players]
    out = []
    for line in logged_deals(preset, players, settings, 3 * count, seed):
        plays = play_indices(line)
        tricks_left = rnd.randint(1, deepest) if rnd.random() < 0.8 else deepest
        k = rnd.randrange(max(0, len(plays) - tricks_left * players), len(plays))
        out.append((line, plays[k], Ending(line, k)))
        if len(out) == count:
            break
    return out


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(tt_bits=16)  # one table for every position: no entry may leak into the next


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_values_agree_with_brute_force(solver: Solver, preset: str, players: int, settings: list[str]) -> None:
    checked = 0
    for line, at, ending in endings(preset, players, settings, 260, seed=len(settings) + players):
        position = position_from_line(cut(line, at))
        assert position.seat == ending.to_play
        want = ending.card_values()
        got = solver.solve(position)
        assert got.seat == ending.to_play
        assert got.cards == want, (preset, players, settings, at)  # exactly the legal cards, each right
        assert got.value == max(want.values())
        assert solver.value(position) == got.value
        checked += 1
    assert checked >= 200


def test_four_tricks_from_the_lead(solver: Solver) -> None:
    """Four full tricks left with four players (up to 331,776 orders of play for the reference)."""
    for line in logged_deals("trinidad", 4, ["undertrump=forbidden"], 8, seed=5)[:3]:
        plays = play_indices(line)
        k = len(plays) - 16
        assert solver.solve(position_from_line(cut(line, plays[k]))).cards == Ending(line, k).card_values()


def test_game_winner_is_the_engines_rule() -> None:
    # two sides: ties go to the side that is not the dealer's with a tie rule
    assert game_winner(20, 20, 0, 2, 0, 0) == -1
    assert game_winner(20, 20, 0, 2, 0, 1) == 1
    assert game_winner(20, 21, 0, 2, 1, 1) == 1
    # three: exactly one tied non-dealer scores
    assert game_winner(20, 20, 5, 3, 2, 2) == -1
    assert game_winner(20, 20, 5, 3, 1, 2) == 0
    assert game_winner(5, 20, 20, 3, 0, 1) == -1


# --- positions typed by hand --------------------------------------------------------------------


def test_hands_typed_by_hand() -> None:
    rules = make_rules("trinidad", players=2)
    # seat 0 holds every trump: High, Low, Jack (own: 1) and all the points
    pos = position_from_hands(rules, "JS AS 2S / KH QH TH", "S", 0)
    sol = Solver().solve(pos)
    assert sol.seat == 0 and sol.value == 4 and set(sol.cards) == {"JS", "AS", "2S"}
    # the same hands with seat 1 to lead: the ten is led and trumped
    pos = position_from_hands(rules, "JS AS 2S | KH QH TH", "s", 1)
    assert Solver().solve(pos).value == -4
    # hang jack: the opponents' jack captured is worth 3
    pos = position_from_hands(rules, "JS 3H | AS 4H", "S", 1)
    # (AS: High +1, Low -1, hang jack +3, Game +1; 4H: the jack is trumped in, own jack -1, Game +1)
    assert Solver().solve(pos).cards == {"AS": 4, "4H": 0}


@pytest.mark.parametrize("hands,trump,leader,message", [
    ("AS KS / QS", "S", 0, "every seat must hold as many cards"),
    ("AS KS", "S", 0, "2 hands needed"),
    ("AS KS / AS QS", "S", 0, "AS is in the hands of seats 0 and 1"),
    ("AS XS / QS JS", "S", 0, "bad card 'XS'"),
    ("AS KS / QS JS", "X", 0, "--trump: bad suit"),
    ("AS KS / QS JS", "S", 2, "--leader 2: a seat 0..1"),
    (" / ", "S", 0, "holds no card"),
])
def test_bad_hands(hands: str, trump: str, leader: int, message: str) -> None:
    with pytest.raises(SolveError, match=message):
        position_from_hands(make_rules("trinidad", players=2), hands, trump, leader)


# --- positions from log lines --------------------------------------------------------------------


def test_log_positions_errors() -> None:
    line = logged_deals("trinidad", 4, [], 5)[0]
    events = line["events"]
    trump_at = next(i for i, e in enumerate(events) if e["event"] == "trump")
    with pytest.raises(SolveError, match="stops before trick play"):
        position_from_line(cut(line, trump_at))
    with pytest.raises(SolveError, match="deal is complete"):
        position_from_line(line)
    last_trick = max(i for i, e in enumerate(events) if e["event"] == "trick")
    with pytest.raises(SolveError, match="deal is complete"):
        position_from_line(cut(line, last_trick + 1))
    # a play out of turn, a card not held, a wrong trick winner
    first = play_indices(line)[0]
    bad = [dict(e) for e in events[: first + 1]]
    bad[first]["seat"] = (bad[first]["seat"] + 1) % 4
    with pytest.raises(SolveError, match="out of turn") as err:
        position_from_line(dict(line, events=bad))
    assert err.value.event == first
    bad = [dict(e) for e in events[: first + 1]]
    bad[first]["card"] = events[first + 1]["card"]
    with pytest.raises(SolveError, match="which it does not hold"):
        position_from_line(dict(line, events=bad))
    trick = next(i for i, e in enumerate(events) if e["event"] == "trick")
    bad = [dict(e) for e in events[: trick + 1]]
    bad[trick]["winner"] = (bad[trick]["winner"] + 1) % 4
    with pytest.raises(SolveError, match="wrong trick winner"):
        position_from_line(dict(line, events=bad))
    with pytest.raises(SolveError, match="not valid JSON"):
        position_from_text("{")
    with pytest.raises(SolveError, match="format"):
        position_from_line({"format": "x"})


def test_an_illegal_play_is_named() -> None:
    # the worked example of docs/game-log.md under void_play=trump: seat 2's 3H in trick 6 is refused
    text = (ROOT / "docs" / "game-log.md").read_text(encoding="utf-8")
    line = json.loads(next(t for t in text.splitlines() if t.startswith('{"format"') and '"KH", "7H"' in t))
    line["rules"]["void_play"] = "trump"
    with pytest.raises(SolveError, match="must trump: holds 5S") as err:
        position_from_line(cut(line, 36))
    assert err.value.event == 35
    # cut at trick 6's third card with void_play=any: the README's example
    line["rules"]["void_play"] = "any"
    pos = position_from_line(cut(line, 35))
    got = Solver().solve(pos).to_json()
    assert set(got) == {"seat", "value", "cards", "nodes", "seconds"}  # nodes and seconds: issue 32
    assert got["nodes"] > 0 and 0 <= got["seconds"] < 60
    assert without_time(got) == {"seat": 2, "value": 4, "cards": {"5S": 4, "TH": 4, "3H": 4, "6D": 4}}


def test_the_state_is_the_engines(solver: Solver) -> None:
    """A cut at the first lead is the state init_state builds from the dealt hands."""
    line = logged_deals("classic", 4, [], 3)[0]
    first = play_indices(line)[0]
    pos = position_from_line(cut(line, first))
    again = np.zeros(N_STATE, dtype=np.int64)
    ending = Ending(line, 0)
    hands = np.zeros(4, dtype=np.uint64)
    for s, cards in enumerate(ending.start):
        hands[s] = np.uint64(sum(1 << c for c in (ref_card(x) for x in cards)))
    init_state(again, make_rules("classic").as_array(), hands, "SHDC".index(ending.trump), pos.state[25], line["dealer"],
               pos.state[16:20].copy())
    assert (again == pos.state).all() and again[PS_TO_PLAY] == (line["dealer"] + 1) % 4
    work = SolverWork(tt_bits=12)
    assert solve_value(pos.state, make_rules("classic").as_array(), work.states, work.moves, work.frames, work.tt,
                       work.ctx) == solver.value(pos)


def ref_card(name: str) -> int:
    return "SHDC".index(name[1]) * 13 + "23456789TJQKA".index(name[0])


# --- allfours solve ------------------------------------------------------------------------------------


@pytest.mark.parametrize("preset,players", [("trinidad", 4), ("trinidad", 2), ("trinidad-tobago", 4),
                                            ("partnership-seven", 4), ("classic", 4), ("classic", 3),
                                            ("classic", 2)])
def test_solve_answers_at_every_card_decision(tmp_path: Path, capsys: pytest.CaptureFixture[str], solver: Solver,
                                              preset: str, players: int) -> None:
    """`allfours solve --json` at every card decision of a six-card deal of `simulate --log` (and the last
    tricks of two more deals, runs included) agrees with the solver, card for card."""
    lines = logged_deals(preset, players, [], 40, seed=players)
    whole = next(line for line in lines if len(play_indices(line)) == 6 * players)
    cuts = [cut(whole, at) for at in play_indices(whole)]
    for line in [x for x in lines if x is not whole][:2]:
        cuts += [cut(line, at) for at in play_indices(line)[-2 * players:]]
    log = tmp_path / "cut.jsonl"
    log.write_text("\n".join(json.dumps(c) for c in cuts) + "\n", encoding="utf-8")
    command = typer.main.get_command(app)  # built once (CliRunner builds the app anew on every invoke)
    for number, line in enumerate(cuts, start=1):
        command.main(["solve", str(log), "--line", str(number), "--json"], prog_name="allfours", standalone_mode=False)
        got = json.loads(capsys.readouterr().out)
        position = position_from_line(line)
        want = solver.solve(position).to_json()
        assert got.keys() == want.keys()
        assert without_time(got) == without_time(want)
        assert list(got["cards"]) == [card_name(c) for c in position.legal_cards()]


def test_solve_text_output(tmp_path: Path) -> None:
    line = logged_deals("trinidad", 4, [], 3)[0]
    plays = play_indices(line)
    log = tmp_path / "deal.jsonl"
    log.write_text(json.dumps(cut(line, plays[-6])) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["solve", str(log)])
    assert result.exit_code == 0, result.output
    assert "value" in result.stdout and "seat" in result.stdout
    typed = CliRunner().invoke(app, ["solve", "--hands", "JS AS 2S / KH QH TH", "--trump", "S", "--leader", "0",
                                     "--rules", "trinidad", "--players", "2", "--json"])
    assert typed.exit_code == 0, typed.output
    assert without_time(json.loads(typed.stdout)) == {"seat": 0, "value": 4, "cards": {"AS": 4, "JS": 4, "2S": 4}}


def test_a_big_solve_says_so_and_stops_at_ctrl_c(solver: Solver) -> None:
    """Twelve cards in each of four hands take hours to solve from the lead (README): the command says so on
    stderr before it starts, and Ctrl-C ends it at once (the search runs in a thread of its own and releases the
    GIL; a kernel never looks at signals): what the search proved on stdout, then the one line "interrupted"."""
    # Compiled here first (numba's disk cache), so the child's time goes to the search, not to compiling (which
    # lets a signal through anyway).
    solver.solve(position_from_hands(make_rules("trinidad"), "AS / KS / QS / JS", "S", 0))
    pack = random.Random(5).sample(range(52), 48)
    hands = " / ".join(" ".join(card_name(c) for c in pack[12 * s:12 * s + 12]) for s in range(4))
    # Ctrl-C as a terminal delivers it: to a process that has not inherited SIGINT ignored (as a job started in the
    # background of a script does, pytest's included).
    child = subprocess.Popen([sys.executable, "-m", "analyser", "solve", "--hands", hands, "--trump", "S"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert child.stderr is not None
    said = ""
    while "MiB" not in said:
        line = child.stderr.readline()
        assert line, f"the solve ended before its notes: {said!r}"
        said += line
    assert "48 cards are left in the hands" in said and "Ctrl-C" in said
    assert "transposition table takes 512 MiB" in said  # sized for the position (solve.table_bits)
    while "searching:" not in said:  # the search is under way (a line on stderr every 5 s without a terminal)
        line = child.stderr.readline()
        assert line, f"the solve ended before it said how far it had got: {said!r}"
        said += line
    assert re.search(r"searching: \d+ s, [\d,]+ positions, \d+ of 12 cards solved; value [+-]\d+( to [+-]\d+)? so far", said), said
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        rest = child.communicate()[1]
        raise AssertionError(f"Ctrl-C did not stop the search: {said + rest!r}") from None
    assert child.returncode == 130 and err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err
    lines = out.splitlines()
    assert lines[1].startswith("stopped after ") and len(lines) == 3 + 12, out


def test_seconds_answer_a_big_solve_with_what_is_proved() -> None:
    """`solve --seconds S` on a position that takes hours (12 cards in each of four hands) stops after S seconds
    and says so, with the range proved for the position and each card (text and --json); exit 0."""
    pack = random.Random(5).sample(range(52), 48)
    hands = " / ".join(" ".join(card_name(c) for c in pack[12 * s:12 * s + 12]) for s in range(4))
    text = CliRunner().invoke(app, ["solve", "--hands", hands, "--trump", "S", "--seconds", "0.3"])
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[0].startswith("position: seat 0 to lead to trick 1 of 12")
    assert re.match(r"stopped after \d+\.\d s \([\d,]+ positions searched\), before the end", lines[1])
    assert re.match(r"value [+-]\d+( to [+-]\d+)? for seat 0's side", lines[2])
    assert len(lines) == 3 + 12 and all(re.match(r"  \S\S  [+-]\d+( to [+-]\d+)?( {2}best)?$", x) for x in lines[3:])
    assert "48 cards are left" not in text.stderr  # the note that it may take hours is for a solve without a limit
    answer = json.loads(CliRunner().invoke(app, ["solve", "--hands", hands, "--trump", "S", "--seconds", "0.3",
                                                 "--json"]).stdout)
    assert answer["stopped"] is True and answer["value"] is None and len(answer["card_ranges"]) == 12
    lo, hi = answer["value_range"]
    assert all(a <= b and a <= lo and b <= hi for a, b in answer["card_ranges"].values())
    bad = CliRunner().invoke(app, ["solve", "--hands", hands, "--trump", "S", "--seconds", "0"])
    assert bad.exit_code == 2 and "--seconds" in bad.output
    # A solve that finishes in time answers as without --seconds.
    small = ["solve", "--hands", "JS AS 2S / KH QH TH", "--trump", "S", "--players", "2", "--json"]
    quick = CliRunner().invoke(app, [*small, "--seconds", "30"])
    assert quick.exit_code == 0 and without_time(json.loads(quick.stdout)) == {"seat": 0, "value": 4,
                                                                               "cards": {"AS": 4, "JS": 4, "2S": 4}}


def test_solve_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    line = logged_deals("trinidad", 4, [], 3)[0]
    log = tmp_path / "deal.jsonl"
    log.write_text(json.dumps(line) + "\n" + json.dumps(cut(line, play_indices(line)[3])) + "\n", encoding="utf-8")

    def error(*args: str) -> str:
        result = runner.invoke(app, ["solve", *args])
        assert result.exit_code != 0 and result.stdout == ""
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: "), result.stderr
        return result.stderr

    assert re.search(r"deal.jsonl: line 1, event \d+: the deal is complete", error(str(log)))
    assert runner.invoke(app, ["solve", str(log), "--line", "2"]).exit_code == 0
    assert "no line 3" in error(str(log), "--line", "3")
    assert "there is no such file" in error(str(tmp_path / "missing.jsonl"))
    assert "give a log FILE (a line cut at a card decision) or --hands" in error()
    assert "not both" in error(str(log), "--hands", "AS / KS", "--trump", "S")
    assert "--trump" in error("--hands", "AS / KS", "--players", "2")
    assert "2 hands needed" in error("--hands", "AS / KS / QS", "--trump", "S", "--players", "2")
    assert "players=5" in error("--hands", "AS / KS", "--trump", "S", "--set", "players=5")
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(cut(line, next(i for i, e in enumerate(line["events"]) if e["event"] == "trump")))
                   + "\n", encoding="utf-8")
    assert "line 1: the line stops before trick play" in error(str(bad))


def test_pext_kernels_agree() -> None:
    """The table key's PEXT (one instruction with BMI2) and its portable loop give the same bits."""
    rnd = random.Random(2)
    for _ in range(500):
        src, mask = rnd.getrandbits(64), rnd.getrandbits(64) & rnd.getrandbits(64)
        want = sum(1 << k for k, b in enumerate(b for b in range(64) if mask >> b & 1) if src >> b & 1)
        assert int(_pext_loop(np.uint64(src), np.uint64(mask))) == want
        if pdep_is_fast():
            assert int(_pext_fast(np.uint64(src), np.uint64(mask))) == want


def test_a_new_generation_forgets_the_table() -> None:
    """Entries of earlier positions are told apart by their generation; when the counter runs out the
    table is cleared and counting starts again, with the same answers."""
    from analyser.engine.solver import C_GEN, GEN_LIMIT

    rules = make_rules("trinidad", players=4)
    pos = position_from_hands(rules, "AS 7H TD 4C / KS 8H 2D 5C / QS 9H 3D 6C / JS TH 4D 7C", "S", 1)
    small = Solver(tt_bits=10)
    first = small.solve(pos)
    small.work.ctx[C_GEN] = GEN_LIMIT
    assert without_time(small.solve(pos).to_json()) == without_time(first.to_json()) and small.work.ctx[C_GEN] == 2
    assert not small.work.tt[(small.work.tt[:, 1] >> 32) != 2, 1].any()


def _points_line(state: np.ndarray, ctx: np.ndarray, w: int, memo: dict[bytes, int]) -> int:
    """Brute force of the objective the two-sided tests search (mode 1): the most card points, the
    jack of trump worth `w` more, that the perspective side captures from here against the other
    (what is to come depends on the hands and the trick only: `memo` keeps it by them)."""
    from analyser.engine.layout import PS_HAND, PS_N_TRICKS, PS_PLAYERS, PS_TRICK_CARD, PS_TRICK_NO
    from analyser.engine.solver import C_PERSP_SIDE
    from analyser.engine.state import legal

    if state[PS_TRICK_NO] >= state[PS_N_TRICKS]:
        return 0
    key = state[PS_HAND:PS_HAND + 4].tobytes() + state[PS_TRICK_CARD:PS_TRICK_CARD + 4].tobytes() + bytes(
        [int(state[PS_TO_PLAY])])
    if key in memo:
        return memo[key]
    n = int(state[PS_PLAYERS])
    seat = int(state[PS_TO_PLAY])
    side = seat % 2 if n == 4 else seat
    mask = int(legal(state))
    values = [_points_after(state, card, ctx, w, memo) for card in range(52) if mask >> card & 1]
    memo[key] = max(values) if side == ctx[C_PERSP_SIDE] else min(values)
    return memo[key]


def _points_after(state: np.ndarray, card: int, ctx: np.ndarray, w: int, memo: dict[bytes, int]) -> int:
    """`_points_line` after `card` is played: what its trick brings the perspective side, and the rest."""
    from analyser.engine.bits import game_points
    from analyser.engine.layout import PS_PLAYERS, PS_TRICK_MASK
    from analyser.engine.solver import C_JACK, C_PERSP_SIDE
    from analyser.engine.state import apply, copy_state

    n = int(state[PS_PLAYERS])
    child = np.zeros_like(state)
    copy_state(child, state)
    trick = int(np.uint64(state[PS_TRICK_MASK])) | 1 << card
    winner = int(apply(child, card))
    gain = 0
    if winner >= 0 and (winner % 2 if n == 4 else winner) == ctx[C_PERSP_SIDE]:
        gain = int(game_points(np.uint64(trick))) + (w if ctx[C_JACK] >= 0 and trick >> int(ctx[C_JACK]) & 1 else 0)
    return gain + _points_line(child, ctx, w, memo)


@pytest.mark.parametrize("preset,players", [("trinidad", 4), ("classic", 4), ("trinidad", 2)])
def test_static_bounds_hold(preset: str, players: int) -> None:
    """The bounds that cut the two-sided tests at a trick boundary (the cards out, the sure trumps,
    drawing trumps and cashing) hold the exact objective between them, on deals of 2-3 cards a hand
    (3-5 with two players) with up to 9 trumps, for w of either sign; `classic` makes a seat without
    the led suit trump."""
    from analyser.engine.solver import C_MODE, C_W, prepare
    from analyser.engine.solver.bounds import _node_bounds

    rules = make_rules(preset, players=players)
    rnd = random.Random(7)
    ctx = SolverWork(tt_bits=4).ctx
    tight = 0
    for _ in range(100 if players == 4 else 60):
        trump = rnd.randrange(4)
        cards = rnd.choice([2, 3]) if players == 4 else rnd.choice([4, 5, 6])
        trumps = rnd.sample(range(trump * 13, trump * 13 + 13), rnd.randint(1, min(9, cards * players)))
        others = rnd.sample([c for c in range(52) if c // 13 != trump], cards * players - len(trumps))
        leader = rnd.randrange(players)
        seats = list(range(players))
        rnd.shuffle(seats)
        if rnd.random() < 0.5:
            # Every trump on the leader's side: its plain suits' top cards can be cashed at once.
            seats.sort(key=lambda s: (s - leader) % 2 if players == 4 else s != leader)
            trumps = trumps[:cards * (players // 2)]
            others = others + rnd.sample([c for c in range(52) if c not in others and c // 13 != trump],
                                         cards * players - len(trumps) - len(others))
        else:
            rnd.shuffle(trumps)
        rnd.shuffle(others)
        pack = trumps + others
        hands = np.zeros(4, dtype=np.uint64)
        for k, s in enumerate(seats):
            hands[s] = np.uint64(sum(1 << c for c in pack[k * cards:(k + 1) * cards]))
        state = np.zeros(N_STATE, dtype=np.int64)
        init_state(state, rules.as_array(), hands, trump, -1, rnd.randrange(players), np.zeros(4, dtype=np.int64))
        state[PS_TO_PLAY] = state[PS_LEADER] = leader
        prepare(state, rules.as_array(), ctx)
        for w in (0, rnd.randint(1, 40), -rnd.randint(1, 40)):
            ctx[C_MODE], ctx[C_W] = 1, w
            lo, hi = _node_bounds(state, ctx, 0)
            exact = _points_line(state, ctx, w, {})
            assert lo <= exact <= hi, (preset, players, trump, [hex(int(h)) for h in hands], int(state[PS_TO_PLAY]), w)
            tight += lo == exact or hi == exact
    assert tight > 80  # the bounds are often exact: they are really tested


ENDING_RULES = [("trinidad", []), ("classic", []), ("partnership-seven", []), ("trinidad-tobago", []),
                ("trinidad", ["undertrump=forbidden"]), ("classic", ["undertrump=forbidden"])]


@pytest.mark.parametrize("cards", [2, 3])
@pytest.mark.parametrize("preset,settings", ENDING_RULES)
def test_endings_agree_with_brute_force(preset: str, settings: list[str], cards: int) -> None:
    """The search's shortcuts for four players with two cards each (`_ending4`) and three (`_ending3`, the
    table's lead tried first when it has one), which search without the table: exact with a wide window and
    fail-soft with a narrow one (a value at or below alpha bounds the exact one from above, at or above beta
    from below), for either side's perspective, w of either sign and the objective gained so far (acc);
    `classic` makes a seat without the led suit trump, `undertrump=forbidden` restricts trumping."""
    from analyser.engine.solver import C_MODE, C_PERSP_SIDE, C_W, prepare
    from analyser.engine.solver.endings import _ending3, _ending4

    def ending(state: np.ndarray, ctx: np.ndarray, acc: int, alpha: int, beta: int, first: int) -> int:
        if cards == 2:
            return int(_ending4(state, ctx, acc, alpha, beta))
        v, lead = _ending3(state, ctx, acc, alpha, beta, first)
        assert np.uint64(state[PS_HAND + int(state[PS_TO_PLAY])]) >> np.uint64(lead) & np.uint64(1)
        return int(v)

    rules = make_rules(preset, players=4, settings=settings)
    rnd = random.Random(11 + cards)
    ctx = SolverWork(tt_bits=4).ctx
    exact_inside = cut_off = 0
    for _ in range(150 if cards == 2 else 40):
        trump = rnd.randrange(4)
        # Up to all the cards trumps, so that undertrumping and void_play = trump rules come up often.
        trumps = rnd.sample(range(trump * 13, trump * 13 + 13), rnd.randint(0, min(13, 4 * cards)))
        pack = trumps + rnd.sample([c for c in range(52) if c // 13 != trump], 4 * cards - len(trumps))
        rnd.shuffle(pack)
        hands = np.array([sum(1 << c for c in pack[cards * s:cards * s + cards]) for s in range(4)], dtype=np.uint64)
        state = np.zeros(N_STATE, dtype=np.int64)
        init_state(state, rules.as_array(), hands, trump, -1, rnd.randrange(4), np.zeros(4, dtype=np.int64))
        state[PS_TO_PLAY] = state[PS_LEADER] = rnd.randrange(4)
        prepare(state, rules.as_array(), ctx)
        for side in (0, 1):
            for w in (0, rnd.randint(1, 30), -rnd.randint(1, 30)):
                ctx[C_MODE], ctx[C_W], ctx[C_PERSP_SIDE] = 1, w, side
                exact = _points_line(state, ctx, w, {})
                acc = rnd.randint(-20, 20)
                first = rnd.choice([-1, int(rnd.choice(pack[cards * int(state[PS_TO_PLAY]):][:cards]))])
                assert ending(state, ctx, acc, -1000, 1000, first) == acc + exact
                alpha = acc + exact + rnd.randint(-8, 8)
                beta = alpha + rnd.choice([1, 1, 2, 5])
                v = ending(state, ctx, acc, alpha, beta, first)
                if alpha < v < beta:
                    assert v == acc + exact
                    exact_inside += 1
                elif v <= alpha:
                    assert acc + exact <= v
                    cut_off += v != acc + exact
                else:
                    assert acc + exact >= v
                    cut_off += v != acc + exact
    assert exact_inside > 10 and cut_off > 10  # both kinds of answer really tested


def test_positions_differing_only_in_low_ranks_share_an_entry() -> None:
    """The table's key counts the 2s to 9s by their order among the low cards out (`canonical_key`): two deals
    whose low cards differ but stand in the same order, hand by hand and suit by suit, are one entry (what the
    first solve stored at the root is found for the second), and solve to the same value; moving a ten, or
    changing which hand holds the higher low card, makes another key."""
    from analyser.engine.solver import C_MODE, canonical_key
    from analyser.engine.solver.table import _tt_extra, _tt_find, _tt_index

    rules = make_rules("trinidad", players=4)
    deal = position_from_hands(rules, "AS 7H TD 4C / KS 8H 2D 5C / QS 9H 3D 6C / JS TH 4D 7C", "S", 1)
    same_order = position_from_hands(rules, "AS 2H TD 2C / KS 5H 3D 3C / QS 6H 6D 8C / JS TH 9D 9C", "S", 1)
    ten_moved = position_from_hands(rules, "AS 7H TH 4C / KS 8H 2D 5C / QS 9H 3D 6C / JS TD 4D 7C", "S", 1)
    order_changed = position_from_hands(rules, "AS 9H TD 4C / KS 8H 2D 5C / QS 7H 3D 6C / JS TH 4D 7C", "S", 1)
    key = int(canonical_key(deal.state))
    assert int(canonical_key(same_order.state)) == key
    assert int(canonical_key(ten_moved.state)) != key and int(canonical_key(order_changed.state)) != key
    solver = Solver(tt_bits=16)
    value = solver.value(deal)
    ctx = solver.work.ctx
    ctx[C_MODE] = 1  # the two-sided tests' entries (mode 1), of the generation of the solve just done
    extra = _tt_extra(same_order.state, ctx)
    idx = _tt_index(np.int64(key), extra, ctx) & ~1
    assert _tt_find(solver.work.tt, idx, np.int64(key), extra) >= 0
    assert solver.value(same_order) == value


@pytest.mark.parametrize("preset,settings", ENDING_RULES)
def test_cards_told_apart_only_by_points_stay_within_their_gap(preset: str, settings: list[str]) -> None:
    """What lets the search pass over a card (`_near_bound`, `_near_u`): two cards of one hand with
    no card out between them in their suit (the trick's cards counted), neither the jack of trump, lead to
    positions whose values (the objective of the two-sided tests, brute force) differ by at most the
    difference of their Game points; at trick boundaries and in the middle of tricks, under every rule of
    following and trumping, w of either sign."""
    from analyser.engine.solver import C_JACK, C_MODE, C_PERSP_SIDE, C_W, INF, prepare
    from analyser.engine.solver.search import _near_u
    from analyser.engine.solver.value import _out_mask
    from analyser.engine.state import apply, legal

    rules = make_rules(preset, players=4, settings=settings)
    rnd = random.Random(23)
    ctx = SolverWork(tt_bits=4).ctx
    related = with_gap = 0
    for _ in range(60):
        cards = rnd.choice([2, 3])
        trump = rnd.randrange(4)
        # Few suits, many honours: cards of one hand next to each other come up often.
        suits = [trump] + rnd.sample([s for s in range(4) if s != trump], 1)
        pool = [c for c in range(52) if c // 13 in suits and c % 13 >= 6]
        pool += rnd.sample([c for c in range(52) if c not in pool], max(0, 4 * cards + 2 - len(pool)))
        pack = rnd.sample(pool, 4 * cards)
        hands = np.array([sum(1 << c for c in pack[cards * s:cards * s + cards]) for s in range(4)], dtype=np.uint64)
        state = np.zeros(N_STATE, dtype=np.int64)
        init_state(state, rules.as_array(), hands, trump, -1, rnd.randrange(4), np.zeros(4, dtype=np.int64))
        state[PS_TO_PLAY] = state[PS_LEADER] = rnd.randrange(4)
        for _ in range(rnd.randrange(3)):  # into the trick
            mask = int(legal(state))
            apply(state, rnd.choice([c for c in range(52) if mask >> c & 1]))
        prepare(state, rules.as_array(), ctx)
        mask = int(legal(state))
        moves = [c for c in range(52) if mask >> c & 1]
        out = _out_mask(state)
        for w in (0, rnd.randint(1, 30), -rnd.randint(1, 30)):
            ctx[C_MODE], ctx[C_W], ctx[C_PERSP_SIDE] = 1, w, rnd.randrange(2)
            memo: dict[bytes, int] = {}
            value = {card: _points_after(state, card, ctx, w, memo) for card in moves}
            for x in moves:
                for p in moves:
                    if x == p:
                        continue
                    up = int(_near_u(x, p, value[p], out, int(ctx[C_JACK]), True))
                    down = int(_near_u(x, p, value[p], out, int(ctx[C_JACK]), False))
                    if up == INF:
                        assert down == -INF
                        continue
                    related += 1
                    with_gap += up != value[p]
                    assert down <= value[x] <= up, (preset, settings, hex(int(out)), x, p, w)
    assert related > 50 and with_gap > 20  # such pairs really came up, most of them worth different points


def test_every_digest_of_the_engine_covers_the_solver_package(monkeypatch):
    """The kernel cache's folder, the equity tables' engine digest and the workers' source fingerprint all change
    when a file of engine/solver/ does (numba's own cache does not notice a kernel inlined from another file)."""
    from analyser.analysis.bidding.equity import engine_digest
    from analyser.engine import _cache_dir
    from analyser.work.executor import source_fingerprint

    before = (_cache_dir(), engine_digest(), source_fingerprint())
    read = Path.read_bytes

    def edited(path: Path) -> bytes:
        return read(path) + (b"# edited" if path.parent.name == "solver" and path.name == "endings.py" else b"")

    monkeypatch.setattr(Path, "read_bytes", edited)
    after = (_cache_dir(), engine_digest(), source_fingerprint())
    assert all(a != b for a, b in zip(before, after)), (before, after)
