"""analyse reads a seat's view: the deal rebuilt from the plays when every hidden card was played (the same
analysis of that seat as its full log, with the same seed), the seat's own decisions judged when some cards
stay unseen (and one line saying what was not judged and why), bad views refused, record's output read as it is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.players.policy import seat_policies
from analyser.referee.views import view_of
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

runner = CliRunner()
QUICK = ["--worlds", "6", "--bid-deals", "200", "--no-win-prob", "--seed", "4"]


def simulated(preset: str, players: int, count: int, seed: int, policy: str = "random") -> list[dict]:
    rules = make_rules(preset, players=players)
    kinds, params = seat_policies([policy], players)
    return [json.loads(json.dumps(line)) for line in iter_log_lines(rules, count, seed, kinds, params)]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def analysed(path: Path, *extra: str) -> dict:
    result = runner.invoke(app, ["analyse", str(path), *QUICK, "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def text(path: Path, *extra: str) -> str:
    result = runner.invoke(app, ["analyse", str(path), *QUICK, *extra])
    assert result.exit_code == 0, result.output
    return result.stdout


def runs_in(line: dict) -> bool:
    return any(e["event"] == "more" for e in line["events"])


@pytest.mark.parametrize("preset,players,seed,seat", [("trinidad", 4, 3, 0), ("trinidad", 4, 8, 2),
                                                      ("trinidad", 2, 5, 1), ("classic", 3, 2, 1)])
def test_a_view_with_every_card_played_gives_the_full_logs_analysis_of_its_seat(tmp_path, preset, players, seed,
                                                                                  seat):
    lines = simulated(preset, players, 3, seed)
    full = write(tmp_path / "full.jsonl", lines)
    view = write(tmp_path / "view.jsonl", [view_of(line, seat) for line in lines])
    a = analysed(full, "--seat", str(seat))
    b = analysed(view)  # --seat defaults to the view's seat
    assert a["decisions"] and a["decisions"] == b["decisions"]
    assert {d["seat"] for d in b["decisions"]} == {seat}
    assert a["players"] == b["players"] and a["sides"] == b["sides"] and a["matches"] == b["matches"]
    for x, y in zip(a["deals"], b["deals"]):
        assert (x["luck"], x["result"], x["score_after"]) == (y["luck"], y["result"], y["score_after"])
        assert y["view"]["seat"] == seat and y["view"]["whole_deal"] is True and x["view"] is None
    shown = text(view)
    assert f"seat {seat}'s view; every card of the other hands was played, so the deal is known whole" in shown


def test_other_seats_of_a_whole_view_are_judged_except_bids_whose_hands_a_run_hid(tmp_path):
    lines = [line for line in simulated("trinidad", 4, 30, 6) if runs_in(line) and "play" in str(line)][:1]
    assert lines, "a deal with a run"
    line = lines[0]
    seat = line["dealer"]  # the dealer: the eldest's beg is another seat's bid, made before the run
    full = write(tmp_path / "full.jsonl", lines)
    view = write(tmp_path / "view.jsonl", [view_of(line, seat)])
    others = [str(x) for s in range(4) if s != seat for x in ("--seat", s)]
    a = analysed(full, *others)
    b = analysed(view, *others)
    cards_a = [d for d in a["decisions"] if d["kind"] == "card"]
    assert cards_a and cards_a == [d for d in b["decisions"] if d["kind"] == "card"]
    assert [d for d in a["decisions"] if d["kind"] == "bid"] and not [d for d in b["decisions"] if d["kind"] == "bid"]
    assert "the bids of seat" in b["deals"][0]["view"]["not_judged"]
    assert "came with the run is not known" in text(view, *others)


def test_a_view_with_unseen_cards_judges_its_own_seat_and_says_what_it_cannot(tmp_path):
    # classic discards down to six after a run: the other seats' discards stay unseen
    lines = [line for line in simulated("classic", 4, 40, 3) if runs_in(line) and "discard" in str(line)][:1]
    assert lines, "a classic deal with a run and discards"
    line = lines[0]
    seat = (line["dealer"] + 1) % 4
    full = write(tmp_path / "full.jsonl", lines)
    view = write(tmp_path / "view.jsonl", [view_of(line, seat)])
    a = analysed(full, "--seat", str(seat))
    b = analysed(view)
    assert a["decisions"] and a["decisions"] == b["decisions"]
    deal = b["deals"][0]
    assert deal["luck"] is None and deal["view"]["whole_deal"] is False
    assert "discarded are hidden" in deal["view"]["not_judged"]
    words = text(view)
    assert f"judging seat {seat};" in words and "and the luck of the deal are not judged" in words
    # another seat asked for: nothing of it judged, and the line says so
    other = str((seat + 1) % 4)
    c = analysed(view, "--seat", other)
    assert c["decisions"] == [] and "no seat asked for can be judged" in text(view, "--seat", other)


def test_a_deal_in_progress_judges_its_decisions_so_far(tmp_path):
    line = simulated("trinidad", 4, 1, 3)[0]
    seat = 0
    plays = [i for i, e in enumerate(line["events"]) if e["event"] == "play"]
    cut = {k: v for k, v in view_of(line, seat).items() if k not in ("score_after", "winner")}
    cut["events"] = cut["events"][:plays[9]]
    cut["unfinished"] = True
    path = write(tmp_path / "progress.jsonl", [cut])
    full = write(tmp_path / "full.jsonl", [line])
    a = analysed(full, "--seat", str(seat))
    b = analysed(path)
    so_far = [d for d in a["decisions"] if d["event"] < plays[9]]
    assert b["decisions"] == so_far and b["deals"][0]["unfinished"] is True
    assert "a deal in progress; its decisions so far are judged" in text(path)


def test_record_output_is_analysed_as_it_is(tmp_path):
    from test_record import answers, options  # the answers a player types for a simulated deal

    lines = simulated("trinidad", 4, 2, 9)
    path = tmp_path / "typed.jsonl"
    typed = runner.invoke(app, ["record", "--out", str(path), *options(lines, 1)],
                          input="\n".join(answers(lines, 1)) + "\n")
    assert typed.exit_code == 0, typed.output
    b = analysed(path)
    a = analysed(write(tmp_path / "full.jsonl", lines), "--seat", "1")
    assert b["decisions"] == a["decisions"]


def test_the_page_shows_hidden_hands_as_unseen_and_says_what_was_judged(tmp_path):
    line = simulated("trinidad", 4, 1, 3)[0]
    view = write(tmp_path / "view.jsonl", [view_of(line, 2)])
    result = runner.invoke(app, ["analyse", str(view), *QUICK, "--out", str(tmp_path / "page")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "page" / "index.html").read_text(encoding="utf-8")
    assert "(6 cards not seen)" in page and "??" not in page
    assert "seat 2&#x27;s view; every card of the other hands was played, so the deal is known whole" in page


def test_bad_views_are_refused_in_one_line_with_exit_2(tmp_path):
    line = simulated("trinidad", 4, 1, 3)[0]
    view = view_of(line, 0)
    own = view["events"][0]["hands"][0]
    twice = json.loads(json.dumps(view))
    twice["events"][0]["hands"][0][1] = own[0]
    stolen = json.loads(json.dumps(view))
    first_other = next(e for e in stolen["events"] if e["event"] == "play" and e["seat"] != 0)
    first_other["card"] = own[-1]
    mixed = json.loads(json.dumps(view))
    mixed["events"][0]["hands"][1][0] = "AS" if "AS" not in own else "KS"
    for name, bad, words in [("twice", twice, "dealt twice"), ("stolen", stolen, "which is in seat 0's hand"),
                             ("mixed", mixed, "mixes cards and ??")]:
        path = write(tmp_path / f"{name}.jsonl", [bad])
        before = path.read_bytes()
        result = runner.invoke(app, ["analyse", str(path), *QUICK])
        assert result.exit_code == 2, (name, result.output)
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
        assert "Traceback" not in result.output and path.read_bytes() == before


def test_a_match_left_mid_deal_by_play_is_analysed_up_to_where_it_stopped(tmp_path):
    from test_play import random_answers

    log = tmp_path / "match.jsonl"
    left = runner.invoke(app, ["play", "--rules", "trinidad", "--players", "4", "--opponent", "heuristic", "--seed",
                               "5", "--coach", "off", "--log", str(log)],
                         input="\n".join(random_answers(5)[:40] + ["q"]) + "\n")
    assert left.exit_code == 0, left.output
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["unfinished"] is True
    b = analysed(log)
    assert b["deals"][-1]["unfinished"] is True and b["deals"][-1]["luck"] is None
    assert all(d["event"] < len(last["events"]) for d in b["decisions"] if d["line"] == b["lines"])
    assert "a deal in progress; its decisions so far are judged" in text(log)


def test_analyse_judges_side_by_side_with_the_same_answer_on_one_and_two_threads(tmp_path):
    lines = simulated("trinidad", 4, 3, 12)
    full = write(tmp_path / "full.jsonl", lines)
    one = analysed(full, "--threads", "1")
    two = analysed(full, "--threads", "2")
    assert one["decisions"] and one == two
