"""--inference on whatif --log, analyse and play's coach: a card decision's worlds weighed by how likely the other
players' bids and cards before it make them (full, the default), by the bids only, or alike (none: the numbers of
before, bit for bit); said in the text and in --json ("inference", and "ess" per card answer)."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.equity import EquityTable, save_table
from analyser.analysis.play.analyse import Settings, analyse, judge_card, read_log, stream
from analyser.analysis.play.cardvalues import Buffers, card_values
from analyser.analysis.play.inference import evidence_of_line, log_weights, model_for, normalised
from analyser.analysis.play.logcuts import line_decisions
from analyser.game.cards import parse_card
from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.record.gamelog import read_lines
from analyser.players.policy import seat_policies
from analyser.referee.views import view_of
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.table.coach import Coach, verdict_words
from conftest import ROOT, TYPED

DOCS_LOG = (ROOT / "docs" / "game-log.md").read_text(encoding="utf-8")
QUICK = ["--worlds", "20", "--bid-deals", "200", "--no-win-prob"]
runner = CliRunner()

# analyse tests/logs/typed-trinidad.jsonl --worlds 20 --bid-deals 200 --no-win-prob --seed 1, recorded from the
# code before --inference existed (every world alike): (line, event) -> (chosen, best, loss, loss_ci95)
BEFORE = {
    (1, 4): ("TD", "8S", 0.45, [0.0881811600145842, 0.8118188399854158]),
    (2, 5): ("TC", "7H", 0.25, [-0.19682744729313267, 0.6968274472931326]),
    (2, 15): ("2H", "9S", 0.0, [-0.28438146437095907, 0.28438146437095907]),
    (2, 17): ("QH", "JD", 0.5, [-0.1892951483268287, 1.1892951483268286]),
}


def docs_deal() -> str:
    block = re.findall(r"^```jsonl\n(.*?)^```", DOCS_LOG, re.S | re.M)[0]
    return block.splitlines()[0] + "\n"


@pytest.fixture
def flat_table(tmp_path) -> str:
    """A made-up trinidad equity table (0.5 everywhere): no table is estimated in a test."""
    folder = tmp_path / "eq"
    save_table(EquityTable(make_rules("trinidad"), "heuristic", 1, 1, np.full((14, 14), 0.5), np.zeros((14, 14))),
               folder)
    return str(folder)


def analysed(*args: str) -> dict:
    result = runner.invoke(app, ["analyse", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def by_event(doc: dict) -> dict[tuple[int, int], dict]:
    return {(d["line"], d["event"]): d for d in doc["decisions"] if d["kind"] == "card"}


# --- analyse ------------------------------------------------------------------------------------------------


def test_analyse_inference_none_gives_the_numbers_of_before_and_full_weighs(tmp_path):
    none = analysed(str(TYPED), *QUICK, "--inference", "none", "--threads", "1")
    assert none["settings"]["inference"] == "none"
    cards = by_event(none)
    for key, (chosen, best, loss, ci) in BEFORE.items():
        d = cards[key]
        assert (d["chosen"], d["best"], d["loss"], d["loss_ci95"]) == (chosen, best, loss, ci), key
    assert all(d["inference"] == "none" and d["ess"] == 20 and d["model"] is None for d in cards.values())
    full = analysed(str(TYPED), *QUICK, "--threads", "1")  # the default
    assert full["settings"]["inference"] == "full"
    weighed = by_event(full)
    assert set(weighed) == set(cards)
    assert all(d["inference"] == "full" and d["model"].startswith("equilibrium:results/trinidad-4p/equilibrium")
               for d in weighed.values())
    # the bids and the cards before a decision make some worlds likelier: fewer effective worlds, other losses
    assert all(0 < d["ess"] <= 20 + 1e-9 for d in weighed.values()) and min(d["ess"] for d in weighed.values()) < 10
    moved = [k for k in cards if weighed[k]["loss"] != cards[k]["loss"]]
    assert (2, 5) in moved and (2, 15) in moved and len(moved) >= 5
    # the bids alone: at a first lead nothing was played before it, so bids and full weigh alike; later they differ
    bids = by_event(analysed(str(TYPED), *QUICK, "--inference", "bids", "--threads", "1"))
    assert bids[(1, 4)]["loss"] == weighed[(1, 4)]["loss"] and bids[(1, 4)]["ess"] == weighed[(1, 4)]["ess"]
    assert any(bids[k]["ess"] != weighed[k]["ess"] for k in cards if k[1] > 8)


def test_analyse_full_weighs_each_world_by_the_evidence_before_the_decision():
    """Another path to the same numbers: each decision's own worlds (its stream), weighed by the model's
    likelihood of the bids and cards before it, give analyse's loss, best card and effective size."""
    parsed = read_log(read_lines(str(TYPED)))
    settings = Settings(worlds=20, bid_deals=200, seed=1)
    report = analyse(parsed, settings, str(TYPED))
    judged = {(d.line, d.event): d for d in report.decisions if d.kind == "card"}
    checked = 0
    for p in parsed:
        facts = p.facts
        for k, play in enumerate(facts.plays):
            d = judged.get((p.number, play.event))
            if d is None or k % 3:
                continue
            values = card_values(play.position, 20, rng_state(stream(1, p.number, play.event)), None)
            evidence, score = evidence_of_line(facts, k)
            assert len(evidence.history) == k  # every card played before the decision, none after
            w = normalised(log_weights(facts.rules, play.position.state, play.seat, values.hands,
                                       model_for(facts.rules, score=score), "full", evidence))
            means = w @ values.values
            best = int(np.argmax(means))
            assert d.best == values.names[best]
            assert d.loss == pytest.approx(float(w @ (values.values[:, best] - values.values[:, values.index(
                play.chosen)])), abs=1e-12)
            assert d.ess == pytest.approx(1.0 / float((w * w).sum()))
            checked += 1
    assert checked >= 8


def test_analyse_full_gives_the_same_json_on_one_and_two_threads():
    one = analysed(str(TYPED), *QUICK, "--threads", "1")
    two = analysed(str(TYPED), *QUICK, "--threads", "2")
    assert one["settings"]["inference"] == "full" and one == two


def test_analyse_full_reads_a_seats_view_as_its_full_log(tmp_path):
    """A view with every card played, and one cut mid-deal: the seat's decisions weighed as its full log's."""
    rules = make_rules("trinidad")
    kinds, params = seat_policies(["heuristic"], 4)
    line = json.loads(json.dumps(next(iter(iter_log_lines(rules, 1, 5, kinds, params)))))
    full = tmp_path / "full.jsonl"
    full.write_text(json.dumps(line) + "\n", encoding="utf-8")
    view = tmp_path / "view.jsonl"
    view.write_text(json.dumps(view_of(line, 1)) + "\n", encoding="utf-8")
    a = analysed(str(full), *QUICK, "--seat", "1")
    b = analysed(str(view), *QUICK)
    cards = [d for d in a["decisions"] if d["kind"] == "card"]
    assert cards and a["decisions"] == b["decisions"]
    assert all(d["inference"] == "full" for d in cards) and any(d["ess"] < 20 for d in cards)
    plays = [i for i, e in enumerate(line["events"]) if e["event"] == "play"]
    cut = {k: v for k, v in view_of(line, 1).items() if k not in ("score_after", "winner")}
    cut["events"] = cut["events"][:plays[10]]
    cut["unfinished"] = True
    progress = tmp_path / "progress.jsonl"
    progress.write_text(json.dumps(cut) + "\n", encoding="utf-8")
    c = analysed(str(progress), *QUICK)
    assert c["decisions"] == [d for d in a["decisions"] if d["event"] < plays[10]]


def test_analyse_says_how_the_worlds_were_weighed(tmp_path):
    full = runner.invoke(app, ["analyse", str(TYPED), *QUICK, "--seat", "3", "--out", str(tmp_path / "page")])
    assert full.exit_code == 0, full.output
    assert ("each solved with every hand open, each world weighed by how likely the others' bids and cards make it;"
            in full.stdout)
    assert re.search(r"^few worlds carry the answer in \d+ card decisions?: the others' choices", full.stdout, re.M)
    page = (tmp_path / "page" / "index.html").read_text(encoding="utf-8")
    assert "each world weighed by how likely the others&#x27; bids and cards make it." in page
    none = runner.invoke(app, ["analyse", str(TYPED), *QUICK, "--seat", "3", "--inference", "none"])
    assert none.exit_code == 0 and "every world alike (the others' bids and cards not read)" in none.stdout
    assert "few worlds carry" not in none.stdout


# --- whatif --log ---------------------------------------------------------------------------------------------


def test_whatif_log_card_inference_none_gives_the_numbers_of_before_and_full_weighs(tmp_path, flat_table):
    path = tmp_path / "deal.jsonl"
    path.write_text(docs_deal(), encoding="utf-8")
    base = ["whatif", "--log", str(path), "--event", "35", "--worlds", "20", "--equity-dir", flat_table]
    none = runner.invoke(app, [*base, "--inference", "none", "--json"])
    assert none.exit_code == 0, none.output
    out = json.loads(none.stdout)
    assert out["inference"] == "none" and out["ess"] == 20 and out["model"] is None
    # recorded from the code before --inference existed
    five = out["cards"]["5S"]
    assert (five["ev"], five["ev_se"], five["loss"], five["loss_ci95"]) == (
        3.7, 0.1468977445995038, 0.05, [-0.047998199227002686, 0.1479981992270027])
    assert [out["cards"][c]["ev"] for c in ("TH", "3H", "6D")] == [3.75, 3.75, 3.75] and out["best"] == "TH"
    full = runner.invoke(app, [*base, "--json"])
    assert full.exit_code == 0, full.output
    weighed = json.loads(full.stdout)
    assert weighed["inference"] == "full" and weighed["analyse"]["inference"] == "full"
    assert weighed["model"]["strategy"].startswith("equilibrium:results/trinidad-4p/equilibrium")
    assert weighed["ess"] < 20 and weighed["cards"]["5S"]["ev"] != five["ev"]
    # analyse judges the same decision the same way, weighed alike
    report = analyse(read_log(read_lines(str(path))), Settings(worlds=20, bid_deals=200), str(path))
    same = next(d for d in report.decisions if d.event == 35)
    assert same.loss == weighed["loss"] and same.best == weighed["best"] and same.ess == weighed["ess"]
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.output
    assert "each solved with every hand open, each world weighed by how likely the others' bids and cards make it" \
        in text.stdout
    few = f"the answer rests on about {weighed['ess']:.0f} of the 20 deals"
    assert (few in text.stdout) == (weighed["ess"] < 10), (weighed["ess"], text.stdout)  # said when few carry it
    said = runner.invoke(app, [*base, "--inference", "none"])
    assert "every world alike (the others' bids and cards not read)" in said.stdout
    assert "analyse --worlds 20 --inference none (the same worlds)" in said.stdout


# --- the coach ------------------------------------------------------------------------------------------------


def coach_at(line: dict, event: int, inference: str, worlds: int = 20):
    """The coach's judgement of the play at `event` of `line` (line 2 of its log, seed 1) on `worlds` worlds."""
    seat = line["events"][event]["seat"]
    coach = Coach(make_rules(line["rules"]["preset"]), seat, 1, "all", inference=inference)
    coach.settings = dataclasses.replace(coach.settings, worlds=worlds)
    cut = {**line, "events": line["events"][:event]}
    return coach, coach.judge(cut, 2, parse_card(line["events"][event]["card"]))


def test_the_coach_with_inference_none_judges_as_before_and_full_as_analyse():
    line = json.loads(TYPED.read_text(encoding="utf-8").splitlines()[1])  # line 2 of the log
    coach, none = coach_at(line, 5, "none")
    assert none is not None and none.inference == "none"
    chosen, best, loss, ci = BEFORE[(2, 5)]
    assert (none.chosen, none.best, none.loss, list(none.loss_ci95)) == (chosen, best, loss, ci)
    assert "weighed" not in verdict_words(none)
    coach, full = coach_at(line, 5, "full")
    assert full is not None and full.inference == "full" and full.model is not None and full.ess < 20
    analysed_full = by_event(analysed(str(TYPED), *QUICK, "--threads", "1"))[(2, 5)]
    assert (full.best, full.loss, list(full.loss_ci95), full.ess) == (
        analysed_full["best"], analysed_full["loss"], analysed_full["loss_ci95"], analysed_full["ess"])
    assert full.loss != none.loss
    words = coach.comment(full)
    assert words is not None and "deals of the unseen cards weighed by how likely the others' bids and cards make " \
                                  "them" in words
    # the same with a line refereed whole: judge_card on the full line's play is the coach's on the cut line
    facts = line_decisions(line)
    play = next(p for p in facts.plays if p.event == 5)
    again = judge_card(2, play, coach.settings, Buffers(), None, facts)
    assert (again.loss, again.ess) == (full.loss, full.ess)


def test_play_keeps_its_inference_when_resumed_and_names_it(tmp_path):
    from test_play import random_answers

    from analyser.table.play import open_resume

    log = tmp_path / "match.jsonl"
    left = runner.invoke(app, ["play", "--rules", "trinidad", "--players", "2", "--opponent", "heuristic", "--seed",
                               "5", "--coach", "off", "--inference", "bids", "--log", str(log)],
                         input="\n".join(random_answers(5)[:30] + ["q"]) + "\n")
    assert left.exit_code == 0, left.output
    last = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert last["unfinished"] is True and last["resume"]["inference"] == "bids"
    options, _ = open_resume(log)
    assert options.inference == "bids"
    again = runner.invoke(app, ["play", "--resume", "--log", str(log), "--inference", "none"], input="q\n")
    assert again.exit_code == 2 and "leave out --inference" in again.output


# --- refused values -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["analyse", str(TYPED)], ["whatif", "--log", str(TYPED), "--event", "4"],
                                     ["play", "--players", "2"]])
def test_a_bad_inference_is_refused_in_one_line_with_exit_2(command):
    result = runner.invoke(app, [*command, "--inference", "most"], input="")
    assert result.exit_code == 2
    assert result.stderr.strip() == "error: --inference most: not one of the choices; choose none, bids or full"
    assert result.stdout == ""
