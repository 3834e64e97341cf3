"""What-if: conditioned sampling, the beg filter, pairing, exact net points, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.bidding.whatif import make_situation, run_batch, what_if
from analyser.game.cards import CardError, mask_of, parse_cards
from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.engine.decisions import conditioned_deck
from analyser.engine.policies import decide_beg
from analyser.players.policy import parse_policy
from analyser.game.rules import make_rules

STRONG = "AS KS QS JS 4H 7D"  # A K Q J of the turn-up suit (spades)
TRINIDAD = make_rules("trinidad")
NO_TABLE = np.zeros((1, 1))


def batch(sit, policy="random", size=200, seed=5, record=True, playout=True):
    return run_batch(sit, policy, NO_TABLE, playout, seed, 0, size, record)


def test_conditioned_decks_keep_known_cards_in_place_and_nowhere_else() -> None:
    for seat in ("eldest", "dealer"):
        sit = make_situation(TRINIDAD, STRONG, "9S", seat, "0:0")
        known, rest = sit.known_deck()
        at = np.flatnonzero(known >= 0)
        assert len(at) == 7 and len(rest) == 45
        deck, pool = np.empty(52, np.int64), np.empty(45, np.int64)
        rng = rng_state(np.random.SeedSequence(1))
        first_cards = set()
        for _ in range(300):
            conditioned_deck(known, rest, rng, pool, deck)
            assert sorted(deck.tolist()) == list(range(52))
            assert (deck[at] == known[at]).all()
            assert not set(deck[known < 0].tolist()) & set(known[at].tolist())
            first_cards.add(int(deck[np.flatnonzero(known < 0)[0]]))
        assert len(first_cards) > 30  # the unknown positions really are shuffled


@pytest.mark.parametrize("seat", ["eldest", "dealer"])
def test_every_option_sees_the_same_first_deal_with_the_known_cards_at_the_decider(seat: str) -> None:
    sit = make_situation(TRINIDAD, STRONG, "9S", seat, "3:5")
    _, _, _, first = batch(sit)
    assert (first[:, 0] == first[:, 1]).all()  # pairing: both options play the same cards
    decider = 0 if seat == "eldest" else 3
    assert (first[:, 0, decider] == mask_of(parse_cards(STRONG))).all()
    assert (first[:, 0, 4] == parse_cards("9S")[0]).all()
    assert len({tuple(row) for row in first[:, 0, :4].tolist()}) == first.shape[0]  # deals differ


def test_a_beg_filters_the_eldest_hands_as_the_heuristic_begs() -> None:
    sit = make_situation(TRINIDAD, STRONG, "9S", "dealer", "0:0")
    _, _, tries, first = batch(sit, policy="heuristic", size=300)
    assert tries > 300  # some sampled eldest hands would have stood and were rejected
    kind, row = parse_policy("heuristic")
    rules = TRINIDAD.as_array()
    scores = np.zeros(4, np.int64)  # the turn-up 9S kicks nothing
    for eldest_hand in first[:, 0, 0]:
        rng = rng_state(np.random.SeedSequence(0))
        assert decide_beg(kind, row, np.uint64(eldest_hand), sit.turnup, 0, 3, scores, rules, rng)


def test_a_policy_that_always_begs_rejects_nothing_and_one_that_never_begs_is_an_error() -> None:
    sit = make_situation(TRINIDAD, STRONG, "9S", "dealer", "0:0")
    _, _, tries, _ = run_batch(sit, "random:beg=1", NO_TABLE, True, 1, 0, 200)
    assert tries == 200
    with pytest.raises(ValueError, match="begged with only 0"):
        run_batch(sit, "random:beg=0", NO_TABLE, True, 1, 0, 200)


def test_net_points_leave_out_the_first_kick_and_count_the_gift() -> None:
    # target 2, the dealer's side on 0 and the eldest's on 1; the turn-up AS kicks 1 to the dealer.
    rules = make_rules("trinidad", players=2, settings=["target=2"])
    sit = make_situation(rules, "2H 3H 4D 5D 6C 7C", "AS", "dealer", "0:1")
    net, win, _, _ = run_batch(sit, "random", NO_TABLE, True, 3, 0, 300)
    # Giving hands the eldest the match: the gift is the only point after the decision.
    assert (net[:, 0] == -1).all() and (win[:, 0] == 0).all()
    # Running: whoever scores next wins, so each deal is a loss or a win outright.
    assert set(np.unique(win[:, 1])) <= {0.0, 1.0}
    sit = make_situation(rules, "2H 3H 4D 5D 6C 7C", "AS", "eldest", "1:0")
    net, win, _, _ = run_batch(sit, "random:give=1", NO_TABLE, True, 3, 0, 300)
    assert (net[:, 1] == 1).all() and (win[:, 1] == 1).all()


def test_same_seed_same_answer_on_one_or_two_threads() -> None:
    sit = make_situation(TRINIDAD, STRONG, "9S", "eldest", "0:0")
    runs = [what_if(sit, "random", seed=4, win_by="playout", max_deals=1500, batch=500, stop_z=1e9, threads=t)
            for t in (1, 2)]
    assert np.array_equal(runs[0].net, runs[1].net) and np.array_equal(runs[0].win, runs[1].win)
    assert runs[0].deals == 1500 and runs[0].stopped_by == "max-deals"


@pytest.mark.parametrize("seat, best", [("eldest", "stand"), ("dealer", "give")])
def test_ace_king_queen_jack_of_trump_stands_and_gives(seat: str, best: str) -> None:
    sit = make_situation(TRINIDAD, STRONG, "9S", seat, "0:0")
    res = what_if(sit, "random", seed=1, measure="points", win_by="playout", max_deals=4000, batch=1000)
    assert res.best == best
    assert res.difference("points").ci95[0] > 0
    assert res.stopped_by == "separated"  # far apart: the stopping rule ends it early


def test_different_seeds_agree_within_their_confidence_intervals() -> None:
    sit = make_situation(TRINIDAD, "JH 9H 3S 5D 8C 2C", "4H", "eldest", "0:0")
    diffs = [what_if(sit, "random", seed=s, measure="points", win_by="playout", max_deals=3000, batch=1000,
                     stop_z=1e9).difference("points") for s in (11, 12)]
    gap = abs(diffs[0].mean - diffs[1].mean)
    assert gap < 4 * np.hypot(diffs[0].se, diffs[1].se)


@pytest.mark.parametrize("hand, turnup, seat, score, message", [
    ("AS KS QS JS 4H 7D 9C", "9S", "eldest", "0:0", "expected 6 cards"),
    ("AS KS QS AS 4H 7D", "9S", "eldest", "0:0", "duplicate card"),
    ("AS KS QS JS 4H 7D", "KS", "eldest", "0:0", "turn-up KS is also in the hand"),
    ("AS KS QS JS 4H 7D", "9S", "north", "0:0", "unknown seat"),
    ("AS KS QS JS 4H 7D", "9S", "eldest", "14:0", "below the target 14"),
    ("AS KS QS JS 4H 7D", "9S", "eldest", "1:2:3", "OURS:THEIRS"),
    ("AS KS QS JS 4H 7D", "JD", "eldest", "0:11", "wins the match for the dealer"),
])
def test_bad_input_is_a_clear_error(hand: str, turnup: str, seat: str, score: str, message: str) -> None:
    with pytest.raises((ValueError, CardError), match=message):
        make_situation(TRINIDAD, hand, turnup, seat, score)


def invoke(*args: str):
    return CliRunner().invoke(app, ["whatif", *args])


@pytest.mark.parametrize("args, message", [
    (["--hand", "AS KS QS JS 4H 7D 9C"], "expected 6 cards"),
    (["--hand", "AS KS QS AS 4H 7D"], "duplicate card"),
    (["--turnup", "KS"], "also in the hand"),
    (["--score", "3:14"], "below the target"),
])
def test_cli_bad_input_is_one_line_on_stderr(args: list[str], message: str) -> None:
    base = {"--hand": "AS KS QS JS 4H 7D", "--turnup": "9S"}
    for i in range(0, len(args), 2):
        base[args[i]] = args[i + 1]
    result = invoke(*[x for kv in base.items() for x in kv], "--policy", "random", "--win-by", "playout")
    assert result.exit_code != 0
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_cli_unknown_seat_is_rejected() -> None:
    result = invoke("--hand", STRONG, "--turnup", "9S", "--seat", "north")
    assert result.exit_code != 0 and "north" in result.stderr


def test_cli_json_with_an_equity_table(tmp_path: Path) -> None:
    args = ["--rules", "trinidad", "--set", "target=3", "--hand", STRONG, "--turnup", "9S", "--score", "1:2",
            "--policy", "random", "--max-deals", "2000", "--seed", "3", "--equity-dir", str(tmp_path / "eq"),
            "--plot", str(tmp_path / "conv.png"), "--json"]
    result = invoke(*args)
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out["options"]) == {"stand", "beg"} and out["best"] in out["options"]
    assert out["deals"] == 2000 and out["win_by"] == "table"
    for opt in out["options"].values():
        assert opt["ev_ci95"][0] <= opt["ev"] <= opt["ev_ci95"][1]
        assert 0 <= opt["win_prob_ci95"][0] <= opt["win_prob"] <= opt["win_prob_ci95"][1] <= 1
    assert 0.5 <= out["p_best"] <= 1
    assert (tmp_path / "conv.png").stat().st_size > 0
    assert list((tmp_path / "eq").glob("*.parquet"))  # the table was made once and cached
    refused = invoke(*args)  # the plot is there now: not replaced without --force
    assert refused.exit_code == 2 and "--plot" in refused.stderr and "--force" in refused.stderr
    again = invoke(*args, "--force")
    assert again.stdout == result.stdout and "building" not in again.stderr


def test_cli_three_players_play_matches_out() -> None:
    result = invoke("--rules", "classic", "--players", "3", "--set", "target=5", "--hand", STRONG, "--turnup", "9S",
                    "--seat", "dealer", "--score", "1:2:3", "--policy", "random", "--max-deals", "1000")
    assert result.exit_code == 0, result.stderr
    assert "each match played out" in result.stdout and " is better (by match-win chance) with probability " in result.stdout
    table = invoke("--rules", "classic", "--players", "3", "--hand", STRONG, "--turnup", "9S", "--win-by", "table")
    assert table.exit_code != 0 and "two sides" in table.stderr
