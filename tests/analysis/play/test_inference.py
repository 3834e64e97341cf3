"""The model of the other players and the weighted deals (analysis/play/inference.py, engine/inference.py).

* weighted exact enumeration against the brute force of test_hint (every 2-player preset, endings of 2-3 tricks)
  under a small known model (each other seat plays each of its legal cards alike): weighted means and holders
  equal to 1e-9;
* the weight of the true deal is the product of the model's probabilities of every bid and card the others
  chose, each read at its own position from the referee's record of the deal;
* holders: each card's row sums to 1, a seat that showed a void holds none of that suit;
* ``--inference none`` gives the numbers the hint gave before it read the others' choices.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.play.inference import Model, effective_size, log_weights, normalised
from analyser.analysis.play.logcuts import line_decisions
from analyser.game.cards import card_name, suit_of
from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.engine.inference import beg_probability, give_probability, preference_rank, rank_probability
from analyser.engine.layout import K_HEURISTIC, PS_HAND, PS_LED, PS_TO_PLAY, PS_TRICK_MASK
from analyser.engine.state import legal
from analyser.players.policy import default_row
from analyser.table.hint import card_hint, decision_model, decision_of, evidence_of, view_state
from test_hint import brute_worlds, cut_at_play, lines_of, two_player_endings

runner = CliRunner()
UNIFORM = Model("each legal card alike", default_row(K_HEURISTIC), temperature=math.inf, card_floor=0.0,
                bid_floor=1.0)


@pytest.mark.parametrize("line, k", two_player_endings())
def test_weighted_exact_values_and_holders_are_the_brute_force_weighted_ones(line, k):
    cut = cut_at_play(line, k)
    decision = decision_of(cut)
    hint = card_hint(decision, inference="full", model=UNIFORM)
    worlds = brute_worlds(cut)
    assert hint.exact and hint.values.values.shape[0] == len(worlds)
    total = sum(w for _, _, w in worlds)
    expected = {c: sum(w * v[c] for _, v, w in worlds) / total for c in worlds[0][1]}
    got = {card_name(c): hint.values.ev(j).mean for j, c in enumerate(hint.values.cards)}
    assert sorted(got) == sorted(expected)
    for name, mean in expected.items():
        assert got[name] == pytest.approx(mean, abs=1e-9), name
    held = hint.holders()
    for c, row in held.items():
        name = card_name(c)
        for s, p in row.items():
            if s == "out":
                want = sum(w for now, _, w in worlds if not any(name in h for h in now)) / total
            else:
                want = sum(w for now, _, w in worlds if name in now[int(s)]) / total
            assert p == pytest.approx(want, abs=1e-9), (name, s)
    weights = np.array([w for _, _, w in worlds]) / total
    assert hint.values.ess == pytest.approx(effective_size(weights), rel=1e-9)


def test_the_true_deal_weighs_the_product_of_the_models_probabilities():
    """Read at each choice's own position (the referee's record), the model's probabilities of the others' bids and
    cards multiply to the weight the replay inside the kernel gives the true deal."""
    checked = 0
    for line in lines_of("trinidad", 4, 30, 11):
        if any(e["event"] in ("more", "redeal") for e in line["events"]):
            continue
        found = line_decisions(line)
        if len(found.plays) < 9:
            continue
        k = 9
        cut = cut_at_play(line, k)
        decision = decision_of(cut)
        seat = decision.seat
        model = decision_model(decision)
        rules = decision.rules
        r = rules.as_array()
        rng = rng_state(np.random.SeedSequence(0))
        want = 0.0
        for play in found.plays[:k]:
            state = play.position.state
            if play.seat == seat:
                continue
            options = legal(state)
            n = bin(int(np.uint64(options))).count("1")
            if n > 1:
                rank = preference_rank(model.params, state, options, play.chosen, r, rng)
                want += math.log(rank_probability(rank, n, model.temperature, model.card_floor))
        for bid in found.bids:
            if bid.seat == seat:
                continue
            hand = np.uint64(sum(1 << c for c in bid.hand))
            if bid.role == "eldest":
                p = beg_probability(model.params, hand, bid.turnup, r)
                p = p if bid.chosen == "beg" else 1.0 - p
            elif bid.chosen == "give":
                score = np.zeros(4, dtype=np.int64)
                score[:2] = bid.score[:2]
                p = give_probability(model.params, hand, bid.turnup, cut["dealer"], score, r)
            else:
                continue  # a run: more cards dealt, the bid read for nothing
            want += math.log((1 - model.bid_floor) * p + model.bid_floor / 2)
        true_state = found.plays[k].position.state
        hands = np.array([[np.uint64(true_state[PS_HAND + s]) for s in range(4)]], dtype=np.uint64)
        got = log_weights(rules, view_state(decision).state, seat, hands, model, "full", evidence_of(decision))
        assert got[0] == pytest.approx(want, abs=1e-9)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def test_holders_sum_to_one_and_a_shown_void_holds_nothing():
    seen_void = 0
    for line in lines_of("trinidad", 4, 40, 3):
        if any(e["event"] in ("more", "redeal") for e in line["events"]):
            continue
        found = line_decisions(line)
        for k in range(5, min(len(found.plays), 16)):
            state = found.plays[k].position.state
            cut = cut_at_play(line, k)
            decision = decision_of(cut)
            hint = card_hint(decision, worlds=30, seed=2)
            held = hint.holders()
            assert held, "some card is unseen"
            for row in held.values():
                assert sum(row.values()) == pytest.approx(1.0, abs=1e-9)
                assert all(p >= 0 for p in row.values())
            voids = voids_shown(found, k)
            for s, suits in voids.items():
                if s == decision.seat:
                    continue
                for c, row in held.items():
                    if suit_of(c) in suits:
                        assert row[str(s)] == 0.0, (card_name(c), s)
                        seen_void += 1
            del state
        if seen_void > 20:
            break
    assert seen_void > 20


def voids_shown(found, k: int) -> dict[int, set[int]]:
    """Suits each seat has shown it lacks by the k-th play: it did not follow the suit led (trump excepted)."""
    out: dict[int, set[int]] = {}
    for play in found.plays[:k]:
        state = play.position.state
        if int(np.uint64(state[PS_TRICK_MASK])) == 0:
            continue
        led = int(state[PS_LED])
        if suit_of(play.chosen) != led:
            hand = int(np.uint64(state[PS_HAND + int(state[PS_TO_PLAY])]))
            if not hand & (((1 << 13) - 1) << (13 * led)):
                out.setdefault(play.seat, set()).add(led)
    return out


README_HINT = ["hint", "--rules", "trinidad", "--dealer", "3", "--seat", "0", "--hand", "AH KH 9S 4D 2C JC",
               "--turnup", "7H", "--bids", "stand", "--played", "2C 3C 5C QC 6S", "--score", "6:11"]


def test_inference_none_gives_the_numbers_of_before():
    """The hint before it read the others' choices (the README's example, seed 1): 9♠ +1.80 [+1.62, +1.98], A♥ and K♥
    +1.69 [+1.50, +1.88], match win 20.4% and 20.1%."""
    result = runner.invoke(app, README_HINT + ["--inference", "none", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["inference"] == "none" and doc["model"] is None and doc["ess"] == 300
    cards = doc["cards"]
    assert round(cards["9S"]["ev"], 2) == 1.80 and round(cards["AH"]["ev"], 2) == 1.69
    assert [round(x, 2) for x in cards["9S"]["ev_ci95"]] == [1.62, 1.98]
    assert round(100 * cards["9S"]["win_prob"], 1) == 20.4 and round(100 * cards["AH"]["win_prob"], 1) == 20.1


def test_full_inference_weighs_the_deals_and_says_so():
    result = runner.invoke(app, README_HINT + ["--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["inference"] == "full" and doc["model"]["strategy"].startswith("equilibrium:results/trinidad-4p/equilibrium at 6:11")
    assert 1 <= doc["ess"] < 300
    assert set(doc["holders"]["JH"]) == {"1", "2", "3", "out"}
    text = runner.invoke(app, README_HINT)
    first = text.stdout.splitlines()[0]
    assert "weighed by how likely the others' bids and cards make it" in first, first
    assert any(x.startswith("Where the cards are: ") and "J♥: " in x for x in text.stdout.splitlines())
    explained = runner.invoke(app, README_HINT + ["--explain"]).stdout
    assert "(--inference full): their bids read by equilibrium:results/trinidad-4p/equilibrium at 6:11" in explained
    alike = runner.invoke(app, README_HINT + ["--explain", "--inference", "none"]).stdout
    assert "each weighed alike" in alike and "(--inference none)" in alike


def test_normalised_weights_sum_to_one():
    w = normalised(np.array([-1000.0, -1001.0, -999.0]))
    assert w.sum() == pytest.approx(1.0) and w.argmax() == 2


def test_a_line_and_a_seats_view_give_the_same_evidence():
    """What the others chose, read from a refereed line (analyse, whatif --log, the coach) and from a seat's view
    (the hint): the same cards in order, the same bids, turn-up and score, in every preset with bids."""
    from analyser.analysis.play.inference import evidence_of_line

    checked = 0
    for preset, players in (("trinidad", 4), ("trinidad", 2), ("classic", 3), ("partnership-seven", 4)):
        for line in lines_of(preset, players, 6, 4):
            found = line_decisions(line)
            for k in (0, 3, len(found.plays) - 1):
                if k < 0 or k >= len(found.plays):
                    continue
                decision = decision_of(cut_at_play(line, k))
                evidence, score = evidence_of_line(found, k)
                assert evidence == evidence_of(decision), (preset, k)
                if score is not None:
                    assert decision_model(decision).strategy == model_name(decision.rules, score)
                checked += 1
    assert checked > 20


def model_name(rules, score):
    from analyser.analysis.play.inference import model_for

    return model_for(rules, score=score).strategy


def test_strategy_names_the_equilibrium_the_bids_are_read_by(tmp_path):
    """--strategy DIR: the others' bids read by that equilibrium run (said in --json); a folder without one: exit 2,
    one line."""
    import shutil

    run = tmp_path / "eq"
    shutil.copytree("results/trinidad-2p/equilibrium", run)  # another run's tables: accepted as given
    result = runner.invoke(app, README_HINT + ["--strategy", str(run), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["model"]["strategy"] == f"equilibrium:{run}"
    bad = runner.invoke(app, README_HINT + ["--strategy", str(tmp_path / "none")])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "equilibrium.json" in bad.stderr, bad.output
    log = tmp_path / "deal.jsonl"
    from analyser.record.gamelog import dumps

    log.write_text(dumps(lines_of("trinidad", 4, 1, 3)[0]) + "\n")
    analysed = runner.invoke(app, ["analyse", str(log), "--worlds", "4", "--bid-deals", "100", "--seat", "0",
                                   "--strategy", str(run), "--json"])
    assert analysed.exit_code == 0, analysed.output
    assert json.loads(analysed.stdout)["settings"]["strategy"] == str(run)
    refused = runner.invoke(app, ["analyse", str(log), "--strategy", str(tmp_path / "none")])
    assert refused.exit_code == 2 and "equilibrium.json" in refused.stderr


def test_whatif_log_reads_the_bids_by_the_strategy_given(tmp_path):
    """whatif --log at a card decision with --strategy DIR: the worlds weighed with the others' bids read by that run
    (said in --json, and the same loss as analyse --strategy DIR gives the card); --strategy without --log, or a
    folder without an equilibrium: one line, exit 2."""
    import shutil

    from analyser.record.gamelog import dumps

    run = tmp_path / "eq"
    shutil.copytree("results/trinidad-2p/equilibrium", run)
    line = lines_of("trinidad", 4, 1, 3)[0]
    log = tmp_path / "deal.jsonl"
    log.write_text(dumps(line) + "\n")
    event = [k for k, e in enumerate(line["events"]) if e["event"] == "play"][5]
    args = ["whatif", "--log", str(log), "--event", str(event), "--worlds", "6", "--strategy", str(run), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["kind"] == "card" and out["inference"] == "full" and out["model"]["strategy"] == f"equilibrium:{run}"
    shipped = json.loads(runner.invoke(app, args[:-3] + ["--json"]).stdout)
    assert shipped["model"]["strategy"] != out["model"]["strategy"]
    text = runner.invoke(app, args[:-1]).stdout
    assert f"--strategy {run} (the same worlds)" in text and f"read by equilibrium:{run} for the bids" in text
    alone = runner.invoke(app, ["whatif", "--hand", "AS JS 4H 7D 9C TC", "--turnup", "KS", "--strategy", str(run)])
    assert alone.exit_code == 2 and alone.stderr.count("\n") == 1 and "--strategy goes with --log" in alone.stderr
    bad = runner.invoke(app, args[:-2] + [str(tmp_path / "none")])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and "equilibrium.json" in bad.stderr, bad.output
