"""analyse and whatif --log: decisions judged from what the decider saw, losses that are real, logs refused
as replay refuses them, the HTML page, the command line."""

from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.play.analyse import (
    Settings, Thresholds, analyse, bid_result, read_log, situation, stream,
)
from analyser.analysis.play.cardvalues import Buffers, card_values, cards_left, outcomes, win_probability
from analyser.analysis.bidding.equity import EquityTable
from analyser.cards import parse_card
from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.engine.layout import N_STATE, PS_TO_PLAY
from analyser.engine.search import new_play_buffer, sample_world
from analyser.engine.state import apply
from analyser.gamelog import dumps, read_lines
from analyser.policy import seat_policies
from analyser.rules import make_rules
from analyser.simulate import iter_log_lines
from analyser.solve import Position, Solver

HERE = Path(__file__).parent
TYPED = HERE / "logs" / "typed-trinidad.jsonl"
DOCS_LOG = (HERE.parent / "docs" / "game-log.md").read_text(encoding="utf-8")
runner = CliRunner()


def docs_deal() -> str:
    """The worked deal of docs/game-log.md as one log line (9 cards each after a run)."""
    block = re.findall(r"^```jsonl\n(.*?)^```", DOCS_LOG, re.S | re.M)[0]
    return block.splitlines()[0] + "\n"


def simulated(tmp_path: Path, name: str, policies: list[str], deals: int, seed: int, *settings: str) -> Path:
    rules = make_rules("trinidad", settings=list(settings))
    kinds, params = seat_policies(policies, rules.players)
    path = tmp_path / name
    path.write_text("".join(dumps(line) + "\n" for line in iter_log_lines(rules, deals, seed, kinds, params)),
                    encoding="utf-8")
    return path


def run(path: Path, settings: Settings, equity=None):
    return analyse(read_log(read_lines(str(path))), settings, str(path), equity=equity)


@pytest.fixture(scope="module")
def random_log(tmp_path_factory) -> Path:
    return simulated(tmp_path_factory.mktemp("random"), "random.jsonl", ["random"], 6, 11)


@pytest.fixture(scope="module")
def random_report(random_log):
    return run(random_log, Settings(worlds=24, bid_deals=2000, seed=3))


# --- the losses are real -----------------------------------------------------------------------------


def world_gain(position: Position, best: int, chosen: int, worlds: int, rng: np.ndarray) -> np.ndarray:
    """Per sampled world: the best card's value minus the chosen card's, each found by playing the card
    and solving the rest with the solver (another path than analyse's)."""
    solver = Solver()
    play = new_play_buffer(True)
    play[:N_STATE] = position.state[:N_STATE]
    world = np.zeros(N_STATE, dtype=np.int64)
    out = np.zeros(worlds)
    side = position.side
    for w in range(worlds):
        sample_world(play, position.seat, rng, world)
        values = []
        for card in (best, chosen):
            after = world.copy()
            apply(after, card)
            v = solver.value(Position(position.rules, after))
            values.append(v if position.rules.side_of(int(after[PS_TO_PLAY])) == side else -v)
        out[w] = values[0] - values[1]
    return out


def test_flagged_card_errors_really_lose_what_analyse_says(random_report) -> None:
    """Random play: for every card decision flagged an error or a blunder, playing the recommended card
    instead gains exactly the loss on the same worlds (solved again another way), and on fresh worlds it
    gains, within the CIs, what analyse says."""
    flagged = [d for d in random_report.decisions if d.kind == "card" and d.flag in ("error", "blunder")]
    assert len(flagged) >= 8
    plays = {(line.line, p.event): p for line in random_report.lines for p in line.facts.plays}
    agree = better = 0
    for d in flagged:
        play = plays[(d.line, d.event)]
        best, chosen = parse_card(d.best), parse_card(d.chosen)
        same = world_gain(play.position, best, chosen, d.samples, rng_state(stream(3, d.line, d.event)))
        assert same.mean() == pytest.approx(d.loss), "the same worlds, solved another way, give the same loss"
        fresh = world_gain(play.position, best, chosen, 48, rng_state(np.random.SeedSequence([99, d.line, d.event])))
        better += fresh.mean() > 0
        se = np.hypot((d.loss_ci95[1] - d.loss_ci95[0]) / (2 * 1.96), fresh.std(ddof=1) / np.sqrt(fresh.size))
        agree += abs(fresh.mean() - d.loss) <= 1.96 * se + 1e-9
    assert better >= 0.9 * len(flagged), "nearly every flagged error really is worse on fresh worlds"
    assert agree >= 0.85 * len(flagged), "fresh worlds gain what analyse says, within the CIs"


def test_flagged_bid_errors_lose_on_fresh_rollouts(random_report) -> None:
    rules = random_report.lines[0].rules
    bids = {(line.line, b.event): b for line in random_report.lines for b in line.facts.bids}
    flagged = [d for d in random_report.decisions if d.kind == "bid" and d.flag in ("error", "blunder")]
    assert flagged, "random play makes bidding errors"
    for d in flagged:
        res = bid_result(situation(rules, bids[(d.line, d.event)]), "heuristic", None, 4000, seed=12345)
        j, b = res.names.index(d.chosen), res.names.index(d.best)
        gain = res.net[:, b] - res.net[:, j]
        se = np.hypot((d.loss_ci95[1] - d.loss_ci95[0]) / (2 * 1.96), gain.std(ddof=1) / np.sqrt(gain.size))
        assert gain.mean() > 0 and abs(gain.mean() - d.loss) <= 3 * se


def test_heuristic_loses_more_per_card_decision_than_pimc(tmp_path) -> None:
    """Seats 0 and 2 play the heuristic, 1 and 3 pimc: the heuristic's side loses more per card decision."""
    log = simulated(tmp_path, "hp.jsonl", ["heuristic", "pimc:worlds=10", "heuristic", "pimc:worlds=10"], 10, 5)
    report = run(log, Settings(worlds=24, bid_deals=200, seed=1))
    heuristic, pimc = (side["card"] for side in report.sides())
    assert heuristic["decisions"] >= 50 and pimc["decisions"] >= 50
    assert heuristic["mean_loss"] > pimc["mean_loss"]
    assert heuristic["mean_loss_ci95"][1] > heuristic["mean_loss"] > heuristic["mean_loss_ci95"][0]


# --- what the decider saw, and the numbers ------------------------------------------------------------


def test_card_values_are_the_solvers_in_each_world_and_paired(random_report) -> None:
    solver = Solver()
    buffers = Buffers()
    plays = [p for line in random_report.lines for p in line.facts.plays if cards_left(p.position) <= 24]
    for play in plays[::6]:
        pos = play.position
        truth = card_values(pos, 0, rng_state(np.random.SeedSequence(1)), None, buffers)
        assert dict(zip(truth.names, truth.values[0])) == solver.solve(pos).cards
        vals = card_values(pos, 5, rng_state(np.random.SeedSequence(2)), None, buffers)
        again = card_values(pos, 5, rng_state(np.random.SeedSequence(2)), None, buffers)
        assert (vals.values == again.values).all(), "the same stream gives the same worlds"
        assert vals.loss(vals.best).mean == 0 and all(vals.loss(c).mean >= 0 for c in vals.cards)


def test_win_probability_follows_the_outcome_and_the_strict_order() -> None:
    """At the last card of a deal the outcome is known: the one way the points go gives the referee's points."""
    parsed = read_log(read_lines(str(TYPED)))
    for p in parsed:
        last = p.facts.plays[-1].position
        v = card_values(last, 0, rng_state(np.random.SeedSequence(1)), None).values[0, 0]
        ways = outcomes(last.state, last.rules, int(v))
        scored = [(side, n) for side, n, why in p.facts.verdict.points if why in ("high", "low", "jack", "hang-jack",
                                                                                   "game")]
        assert scored in ways
        flat = EquityTable(last.rules, "heuristic", 1, 1, np.full((14, 14), 0.5), np.zeros((14, 14)))
        assert 0.0 <= win_probability(last.state, last.rules, int(v), flat) <= 1.0
    # A side one point short of the target wins with High, in that order, whatever comes after.
    pos = parsed[0].facts.plays[-1].position
    state = pos.state.copy()
    state[16:18] = (13, 13)  # PS_SCORE: both sides one short; side 0 was dealt High (AH)
    rules = pos.rules
    v = int(card_values(Position(rules, state), 0, rng_state(np.random.SeedSequence(1)), None).values[0, 0])
    mover_side = rules.side_of(int(state[PS_TO_PLAY]))
    flat = EquityTable(rules, "heuristic", 1, 1, np.full((14, 14), 0.5), np.zeros((14, 14)))
    assert win_probability(state, rules, v, flat) == (1.0 if mover_side == 0 else 0.0)


def test_same_seed_same_answer_for_one_seat_or_all(random_log, random_report) -> None:
    one = run(random_log, Settings(worlds=24, bid_deals=2000, seed=3, seats=frozenset([2])))
    mine = [d.to_json() for d in random_report.decisions if d.seat == 2]
    assert [d.to_json() for d in one.decisions] == mine and mine
    assert [p["seat"] for p in one.players()] == [2]


def test_luck_of_the_deal_and_its_result() -> None:
    report = run(TYPED, Settings(worlds=8, bid_deals=200))
    first, second = report.lines
    assert first.luck_trick == 1 and second.luck_trick == 1 and report.matches == 1
    # line 1: side 0 High 1, hang jack 3, Game 1; side 1 Low 1: net +4 for side 0
    assert first.result == [4.0, -4.0]
    assert second.result == [0.0, 0.0]  # side 0 hang jack 3; side 1 High, Low, Game
    assert first.luck[0] == -first.luck[1]
    assert second.deal_points == [1, 2]  # the gift to side 0, the six's kick to side 1


def test_nine_card_deal_luck_from_trick_four_and_its_early_plays_not_analysed(tmp_path) -> None:
    path = tmp_path / "deal.jsonl"
    path.write_text(docs_deal(), encoding="utf-8")
    report = run(path, Settings(worlds=8, bid_deals=200))
    line = report.lines[0]
    assert line.luck_trick == 4 and "trick 4" in line.note
    skipped = [d for d in report.decisions if not d.analysed]
    assert skipped and all(d.kind == "card" and d.trick <= 3 and "--max-cards 24" in d.note for d in skipped)
    assert all(d.analysed for d in report.decisions if d.kind == "card" and d.trick >= 4)


@pytest.mark.parametrize("preset,players", [("classic", 3), ("classic", 2), ("partnership-seven", 4),
                                            ("trinidad-tobago", 4)])
def test_every_preset_and_player_count(tmp_path, preset: str, players: int) -> None:
    """Discards, bunching, three players (paranoid values, no luck, no match-win chance): judged end to end."""
    rules = make_rules(preset, players=players)
    kinds, params = seat_policies(["random"], players)
    log = tmp_path / "log.jsonl"
    log.write_text("".join(dumps(x) + "\n" for x in iter_log_lines(rules, 4, 4, kinds, params)), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(log), "--worlds", "6", "--bid-deals", "200", "--equity-dir",
                                 str(tmp_path / "eq"), "--no-win-prob", "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["decisions"] and all(d["loss"] >= 0 for d in doc["decisions"] if d["analysed"])
    assert all((line["luck"] is None) == (players == 3) for line in doc["deals"] if line["result"] is not None)
    if players == 3:
        text = runner.invoke(app, ["analyse", str(log), "--worlds", "6", "--bid-deals", "200"])
        assert text.exit_code == 0 and "three players: net points only" in text.stdout


def test_thresholds_must_rise() -> None:
    assert Thresholds().flag(0.05) is None and Thresholds().flag(0.1) == "doubtful"
    assert Thresholds().flag(0.5) == "error" and Thresholds().flag(3) == "blunder"
    with pytest.raises(Exception, match="must rise"):
        Thresholds(0.5, 0.3, 1.0)


# --- the hand-typed deal, end to end ------------------------------------------------------------------


def test_hand_typed_trinidad_match_end_to_end(tmp_path) -> None:
    out = tmp_path / "page"
    result = runner.invoke(app, ["analyse", str(TYPED), "--worlds", "30", "--bid-deals", "1000", "--no-win-prob",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    decisions = doc["decisions"]
    assert {(d["line"], d["event"], d["kind"], d["chosen"]) for d in decisions if d["kind"] == "bid"} == {
        (1, 2, "bid", "stand"), (2, 2, "bid", "beg"), (2, 3, "bid", "give")}
    cards = [d for d in decisions if d["kind"] == "card"]
    assert len(cards) + doc["forced"] == 48 and doc["not_analysed"] == 0
    for d in decisions:
        assert set(d) >= {"line", "event", "seat", "kind", "chosen", "best", "loss", "flag"}
        assert d["loss"] >= 0 and d["flag"] in (None, "doubtful", "error", "blunder")
        assert d["chosen"] in d["options"] and d["best"] in d["options"]
    # seat 3 leads the jack of trump into the queen (line 2, event 20): hanged for 3
    jack = next(d for d in cards if (d["line"], d["event"]) == (2, 20))
    assert jack["chosen"] == "JD" and jack["flag"] is not None
    for p in doc["players"]:
        assert set(p) >= {"seat", "decisions", "total_loss", "mean_loss"}
        assert p["decisions"] == p["bid"]["decisions"] + p["card"]["decisions"]
        assert p["total_loss"] == pytest.approx(sum(d["loss"] for d in decisions if d["seat"] == p["seat"]))
    assert [m["lines"] for m in doc["matches"]] == [[1, 2]]
    page = (out / "index.html").read_text(encoding="utf-8")
    check_page(page, doc)
    text = runner.invoke(app, ["analyse", str(TYPED), "--worlds", "30", "--bid-deals", "1000", "--no-win-prob"])
    assert text.exit_code == 0 and "line   2 event  20  seat 3 card trick 4   played JD" in text.stdout


class PageReader(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sections: dict[str, dict[str, str | None]] = {}
        self.refs: list[str] = []
        self.tags: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.add(tag)
        if tag == "section":
            self.sections[a.get("id") or ""] = a
        for key in ("src", "href"):
            if a.get(key):
                self.refs.append(a[key])


def check_page(page: str, doc: dict) -> None:
    """Self-contained (no script, no link or image, only links within the page) and every flagged decision shown."""
    reader = PageReader()
    reader.feed(page)
    assert not reader.tags & {"script", "link", "img", "iframe"}
    assert all(ref.startswith("#") for ref in reader.refs)
    flagged = [d for d in doc["decisions"] if d["flag"]]
    assert flagged
    for d in flagged:
        section = reader.sections[f"d-{d['line']}-{d['event']}"]
        assert "flagged" in section["class"] and d["flag"] in section["class"]
    assert len([s for s in reader.sections.values() if "flagged" in (s.get("class") or "")]) == len(flagged)


def test_page_in_headless_chromium(tmp_path) -> None:
    """When a Chromium (and playwright) is on the machine: the page renders, shows every flagged decision and
    logs no console error."""
    playwright = pytest.importorskip("playwright.sync_api")
    exe = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    out = tmp_path / "page"
    result = runner.invoke(app, ["analyse", str(TYPED), "--worlds", "20", "--bid-deals", "500", "--no-win-prob",
                                 "--out", str(out), "--json"])
    assert result.exit_code == 0
    flagged = [d for d in json.loads(result.stdout)["decisions"] if d["flag"]]
    with playwright.sync_playwright() as p:
        try:
            browser = p.chromium.launch(executable_path=exe) if exe else p.chromium.launch()
        except Exception as err:  # no browser installed
            pytest.skip(f"no headless Chromium: {err}")
        page = browser.new_page()
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto((out / "index.html").as_uri())
        for d in flagged:
            assert page.locator(f"#d-{d['line']}-{d['event']}").is_visible()
        assert page.title().startswith("All Fours analysis")
        browser.close()
    assert errors == []


# --- refused logs -------------------------------------------------------------------------------------


def bad_logs() -> list[tuple[str, str]]:
    deal = docs_deal()
    obj = json.loads(deal)
    trump = json.loads(deal)
    trump["rules"]["void_play"] = "trump"
    winner = json.loads(deal)
    winner["events"][12]["winner"] = 2
    held = json.loads(deal)
    held["events"][8]["card"] = "KD"
    return [
        (deal + "{not json\n", "line 2 is not valid JSON"),
        (json.dumps(trump) + "\n", "line 1, event 35: illegal play: seat 2 must trump"),
        (json.dumps(obj) + "\n" + json.dumps(winner) + "\n", "line 2, event 12: wrong trick winner"),
        (json.dumps(held) + "\n", "line 1, event 8: seat 0 plays KD, which it does not hold"),
    ]


@pytest.mark.parametrize("content,where", bad_logs())
def test_malformed_or_illegal_logs_are_refused_as_replay_refuses_them(tmp_path, content: str, where: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    replayed = runner.invoke(app, ["replay", str(path)])
    analysed = runner.invoke(app, ["analyse", str(path), "--no-win-prob", "--worlds", "4"])
    assert replayed.exit_code == analysed.exit_code == 1
    assert where in analysed.stderr and analysed.stderr.count("\n") == 1 and analysed.stdout == ""
    assert analysed.stderr == replayed.stderr


def test_cli_errors_and_exit_codes(tmp_path) -> None:
    missing = runner.invoke(app, ["analyse", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2 and "nope.jsonl" in missing.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    assert runner.invoke(app, ["analyse", str(empty)]).exit_code == 1
    both = runner.invoke(app, ["analyse", str(TYPED), "--seat", "1", "--side", "0"])
    assert both.exit_code == 2 and "--seat or --side" in both.stderr
    falling = runner.invoke(app, ["analyse", str(TYPED), "--doubtful", "0.5", "--error", "0.2"])
    assert falling.exit_code == 2 and "must rise" in falling.stderr
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("x")
    taken = runner.invoke(app, ["analyse", str(TYPED), "--out", str(tmp_path / "full")])
    assert taken.exit_code == 2 and "--force" in taken.stderr
    bad_policy = runner.invoke(app, ["analyse", str(TYPED), "--policy", "nosuch"])
    assert bad_policy.exit_code == 2 and "unknown policy" in bad_policy.stderr


def test_side_filter_and_two_players_with_the_match_win_chance(tmp_path) -> None:
    """Two players, target 3 (a small equity table built once into the given folder): every decision has
    each option's match-win chance; --side 1 judges only seat 1."""
    log = tmp_path / "two.jsonl"
    rules = make_rules("trinidad", players=2, settings=["target=3"])
    kinds, params = seat_policies(["random"], 2)
    log.write_text("".join(dumps(x) + "\n" for x in iter_log_lines(rules, 4, 2, kinds, params)), encoding="utf-8")
    result = runner.invoke(app, ["analyse", str(log), "--side", "1", "--worlds", "10", "--bid-deals", "200",
                                 "--equity-dir", str(tmp_path / "eq"), "--json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["win_prob"] and {d["seat"] for d in doc["decisions"]} == {1}
    for d in doc["decisions"]:
        if d["analysed"]:
            assert all(0 <= o["win_prob"] <= 1 for o in d["options"].values())
    assert [p["seat"] for p in doc["players"]] == [1]


# --- whatif --log -------------------------------------------------------------------------------------


@pytest.fixture
def flat_table(tmp_path) -> str:
    """An equity folder holding a made-up trinidad table (0.5 everywhere): no table is estimated in a test."""
    from analyser.analysis.bidding.equity import save_table

    rules = make_rules("trinidad")
    folder = tmp_path / "eq"
    save_table(EquityTable(rules, "heuristic", 1, 1, np.full((14, 14), 0.5), np.zeros((14, 14))), folder)
    return str(folder)


def test_whatif_log_card_decision_is_analyses(tmp_path, flat_table) -> None:
    path = tmp_path / "deal.jsonl"
    path.write_text(docs_deal(), encoding="utf-8")
    result = runner.invoke(app, ["whatif", "--log", str(path), "--event", "35", "--worlds", "20", "--json",
                                 "--equity-dir", flat_table])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["kind"] == "card" and out["seat"] == 2 and out["chosen"] == "3H"
    assert set(out["cards"]) == {"5S", "TH", "3H", "6D"} and out["best"] in out["cards"]
    assert all(0 <= c["win_prob"] <= 1 for c in out["cards"].values()) and out["equity_table"].startswith(flat_table)
    report = run(path, Settings(worlds=20, bid_deals=200))
    same = next(d for d in report.decisions if d.event == 35)
    assert same.loss == pytest.approx(out["loss"]) and same.best == out["best"]
    # the line cut by hand before event 35 asks the same question
    cut = json.loads(docs_deal())
    cut["events"] = cut["events"][:35]
    path.write_text(json.dumps(cut) + "\n", encoding="utf-8")
    text = runner.invoke(app, ["whatif", "--log", str(path), "--worlds", "20", "--seat", "2", "--equity-dir", flat_table])
    assert text.exit_code == 0, text.stderr
    assert "seat 2 to play to trick 6 of 9" in text.stdout and "loss vs best" in text.stdout


def test_whatif_log_bid_decision_and_refusals(tmp_path, flat_table) -> None:
    result = runner.invoke(app, ["whatif", "--log", str(TYPED), "--line", "2", "--event", "3", "--max-deals", "2000",
                                 "--measure", "points", "--json", "--equity-dir", flat_table])
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["kind"] == "bid" and out["seat"] == "dealer" and out["decider"] == 1 and out["chosen"] == "give"
    assert out["hand"] == ["AD", "5S", "9S", "KC", "8C", "2H"] and out["turnup"] == "6D"
    assert out["score"] == [6, 8] and out["loss"] >= 0  # the dealer's side first: 6, the eldest's 8
    whole = runner.invoke(app, ["whatif", "--log", str(TYPED)])
    assert whole.exit_code == 2 and "whole deal" in whole.stderr
    wrong = runner.invoke(app, ["whatif", "--log", str(TYPED), "--event", "2", "--seat", "dealer"])
    assert wrong.exit_code == 2 and "seat 1 is the one to act" in wrong.stderr
    trick = runner.invoke(app, ["whatif", "--log", str(TYPED), "--event", "8"])
    assert trick.exit_code == 1 and "event 8 is 'trick'" in trick.stderr
    mixed = runner.invoke(app, ["whatif", "--log", str(TYPED), "--hand", "AS KS QS JS TS 9S", "--turnup", "2S"])
    assert mixed.exit_code == 2 and "--hand" in mixed.stderr
    nothing = runner.invoke(app, ["whatif"])
    assert nothing.exit_code == 2 and "--hand and --turnup" in nothing.stderr
