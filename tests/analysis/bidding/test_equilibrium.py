"""The bidding game's equilibrium: the LP against the normal form, a known mixed equilibrium, CFR+,
the tensor kernel deal by deal, the bootstrap and the command."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog
from typer.testing import CliRunner

from analyser.analysis.bidding.equilibrium import (
    Game, Tensor, bootstrap, chunk_rngs, payoff_tensor, reference_row, scheme_codes, solve_cfr, solve_lp,
)
from analyser.cli import app
from analyser.engine.bidding import (
    BC_DEALS, BC_TRIES, N_BC, N_TS, TS_DEALER_SUM, TS_N, TS_REF_BEG, TS_REF_GIVE, TS_SQ, TS_SUM,
    payoff_tensor as tensor_kernel,
)
from analyser.engine.bits import rand_below
from analyser.engine.deal import HAND_SIZE, kick_points, play_line
from analyser.engine.decisions import net_points
from analyser.engine.evaluator import N_HAND_CLASSES, class_key, hand_class_code
from analyser.engine.layout import N_INFO, N_WHY
from analyser.work.executor import LocalExecutor
from analyser.players.policy import seat_policies
from analyser.game.rules import R_KICK, make_rules

SMALL = make_rules("trinidad", settings=["target=5"])


# ---- the LP against the normal form -------------------------------------------------------------


def random_game(seed: int, zero_sum: bool = True) -> Game:
    rng = np.random.default_rng(seed)
    n_e, n_d = (int(x) for x in rng.integers(1, 5, size=2))
    prob = rng.random((n_e, n_d)) * (rng.random((n_e, n_d)) > 0.2)  # some pairs never dealt
    prob[0, 0] += 0.1
    prob /= prob.sum()
    stand, give, run = rng.normal(size=(3, n_e, n_d))
    if zero_sum:
        return Game.from_means(prob, stand, give, run)
    dealer = -0.7 * np.array([stand, give, run]) + 0.5 * rng.normal(size=(3, n_e, n_d))
    return Game.from_means(prob, stand, give, run, (dealer[0], dealer[1], dealer[2]))


def matrix_game_value(m: np.ndarray) -> float:
    """The value of the matrix game m (row player maximises), by its own LP: max v, m^T x >= v, x a distribution."""
    rows, cols = m.shape
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-m.T, np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * rows + [(None, None)], method="highs")
    assert res.status == 0
    return float(-res.fun)


def normal_form(game: Game) -> np.ndarray:
    """The eldest's payoff for every pure strategy of each side: 2**E rows, 2**D columns."""
    n_e, n_d = game.stand.shape
    rows = [np.array(b, dtype=float) for b in itertools.product((0, 1), repeat=n_e)]
    cols = [np.array(g, dtype=float) for g in itertools.product((0, 1), repeat=n_d)]
    return np.array([[game.values(b, g)[0] for g in cols] for b in rows])


@pytest.mark.parametrize("seed", range(25))
def test_the_lp_value_is_the_normal_form_games_value(seed: int) -> None:
    game = random_game(seed)
    value, b, g = solve_lp(game)
    assert value == pytest.approx(matrix_game_value(normal_form(game)), abs=1e-6)
    # the strategies the LP gives are an equilibrium: neither side gains by deviating
    live_b = np.where(game.eldest_deals > 0, b, 0.0)
    live_g = np.where(game.dealer_deals > 0, g, 0.0)
    assert game.values(live_b, live_g)[0] == pytest.approx(value, abs=1e-9)
    assert sum(game.gains(b, g)) <= 1e-6
    assert ((live_b >= 0) & (live_b <= 1)).all() and ((live_g >= 0) & (live_g <= 1)).all()


def test_a_hand_made_game_with_a_mixed_equilibrium() -> None:
    """Eldest class 1 (2/3 of deals) begs only if the dealer runs often enough; class 2 always begs; one dealer
    class. The dealer is indifferent only if b1 * 2/3 * 2 = 1/3 * 2, so b1 = 1/2; class 1 is indifferent only
    if 1.2 - 2g = 0.2, so g = 1/2. Value: 2/3 * 0.2 + 1/3 * (g - (1 - g)) = 2/15."""
    prob = np.array([[2 / 3], [1 / 3]])
    stand = np.array([[0.2], [-10.0]])
    give = np.array([[-0.8], [1.0]])
    run = np.array([[1.2], [-1.0]])
    game = Game.from_means(prob, stand, give, run)
    value, b, g = solve_lp(game)
    assert value == pytest.approx(2 / 15, abs=1e-9)
    assert b == pytest.approx([0.5, 1.0], abs=1e-7)
    assert g == pytest.approx([0.5], abs=1e-7)
    assert sum(game.gains(b, g)) <= 1e-9
    # a pure strategy of the dealer is exploited
    assert game.gains(b, np.array([1.0]))[0] > 0.1


def test_classes_never_dealt_have_no_probability() -> None:
    prob = np.array([[0.5, 0.0], [0.5, 0.0], [0.0, 0.0]])
    game = Game.from_means(prob, np.zeros((3, 2)), np.ones((3, 2)), -np.ones((3, 2)))
    value, b, g = solve_lp(game)
    assert np.isnan(b[2]) and np.isnan(g[1]) and not np.isnan(b[:2]).any()
    assert value == pytest.approx(0.0, abs=1e-12)  # the dealer runs whenever begged


# ---- CFR+ (the game that is not zero-sum) ----------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 4, 7, 13, 24, 26])
def test_cfr_deviation_gains_shrink_with_iterations(seed: int) -> None:
    game = random_game(seed + 100, zero_sum=False)
    res = solve_cfr(game, 10_000, (10, 100, 1000, 10_000))
    worst = [max(h["eldest_gain"], h["dealer_gain"]) for h in res.history]
    assert [h["iteration"] for h in res.history] == [10, 100, 1000, 10_000]
    assert all(later <= earlier + 1e-12 for earlier, later in zip(worst, worst[1:])), worst
    assert max(game.gains(res.b, res.g)) <= min(worst[-1], 1e-4)


def test_cfr_finds_the_lp_value_of_a_zero_sum_game() -> None:
    for seed in range(5):
        game = random_game(seed)
        value, _, _ = solve_lp(game)
        res = solve_cfr(game, 10_000)
        assert game.values(res.b, res.g)[0] == pytest.approx(value, abs=1e-3)


# ---- the tensor ------------------------------------------------------------------------------------


def one_deal_by_hand(rules, kinds, params, deck_rng: np.ndarray,
                     rng: np.ndarray) -> tuple[int, int, list[int], list[int]] | None:
    """The kernel's first deal replayed with play_line: (eldest class, dealer class, the eldest's side's and the
    dealer's own net points of the three lines)."""
    n = rules.players
    deck = np.arange(52, dtype=np.int64)
    for i in range(51, 0, -1):
        j = rand_below(deck_rng, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    turnup = int(deck[HAND_SIZE * n])
    if kick_points(rules.as_array()[R_KICK], turnup) >= rules.target:
        return None
    hand = [int(sum(1 << int(c) for c in deck[HAND_SIZE * k: HAND_SIZE * (k + 1)])) for k in range(n)]
    e = hand_class_code(np.uint64(hand[0]), turnup // 13)
    d = hand_class_code(np.uint64(hand[n - 1]), turnup // 13)
    values, dealer_values = [], []
    nsides, dside = (2 if n == 4 else n), rules.side_of(n - 1)
    for fb, fg in ((0, -1), (1, 1), (1, 0)):
        info = np.zeros(N_INFO, dtype=np.int64)
        pts = np.zeros((4, N_WHY), dtype=np.int64)
        play_line(rules.as_array(), n - 1, np.zeros(4, dtype=np.int64), deck.copy(), 52, fb, fg, kinds, params,
                  deck_rng.copy(), rng.copy(), np.zeros((0, 4), dtype=np.int64), info, pts)
        values.append(int(net_points(pts, info, nsides, dside, 0)))
        dealer_values.append(int(net_points(pts, info, nsides, dside, dside)))
    return e, d, values, dealer_values


@pytest.mark.parametrize("players", [4, 3])
def test_the_kernel_plays_each_deal_three_ways_as_play_line_does(players: int) -> None:
    rules = make_rules("classic", players=players)
    kinds, params = seat_policies(["heuristic"], players)
    ref_kind, ref_row = reference_row("heuristic")
    for index in range(12):
        deck_rng, rng, ref_rng = chunk_rngs(7, index)
        expected = one_deal_by_hand(rules, kinds, params, deck_rng.copy(), rng.copy())
        tensor = np.zeros((N_HAND_CLASSES, N_HAND_CLASSES, N_TS))
        counts = np.zeros(N_BC, dtype=np.int64)
        tensor_kernel(rules.as_array(), np.zeros(4, dtype=np.int64), kinds, params, ref_kind, ref_row, 0,
                      np.zeros((1, 1)), 0, deck_rng, rng, ref_rng, 1, 1, tensor, counts)
        if expected is None:
            assert counts[BC_DEALS] == 0
            continue
        e, d, values, dealer_values = expected
        assert tensor[e, d, TS_N] == 1 and tensor[:, :, TS_N].sum() == 1
        assert list(tensor[e, d, TS_SUM:TS_SUM + 3]) == values
        assert list(tensor[e, d, TS_SQ:TS_SQ + 3]) == [v * v for v in values]
        if players == 3:  # the dealer's own net points: its points minus the other two's
            assert list(tensor[e, d, TS_DEALER_SUM:TS_DEALER_SUM + 3]) == dealer_values
        else:
            assert not tensor[:, :, TS_DEALER_SUM:].any()


@pytest.fixture(scope="module")
def small_tensor() -> Tensor:
    return payoff_tensor(SMALL, "heuristic", np.zeros(4, dtype=np.int64), None, "coarse", 3000, 3,
                         LocalExecutor(2))


def test_the_tensor_is_the_same_on_any_thread_count(small_tensor: Tensor) -> None:
    again = payoff_tensor(SMALL, "heuristic", np.zeros(4, dtype=np.int64), None, "coarse", 3000, 3, LocalExecutor(1))
    assert np.array_equal(again.chunks, small_tensor.chunks)
    assert np.array_equal(again.counts, small_tensor.counts)


def test_the_tensor_counts_and_the_heuristics_choices(small_tensor: Tensor) -> None:
    t = small_tensor.total
    assert t[:, :, TS_N].sum() == small_tensor.deals == 3000
    assert small_tensor.counts[BC_TRIES] >= 3000
    assert small_tensor.chunks.shape[0] == 12  # 3000 deals in chunks of 250
    codes = small_tensor.codes
    assert codes == scheme_codes("coarse")
    # the default heuristic's choice is a function of the class: all or nothing per class
    n_e = t[:, :, TS_N].sum(axis=1)
    begs = t[:, :, TS_REF_BEG].sum(axis=1)
    assert ((begs == 0) | (begs == n_e)).all()
    beggars = {class_key(c) for c, x in zip(codes, begs) if x > 0}
    assert beggars == {"T0", "T1", "T1:lo"}
    gives = t[:, :, TS_REF_GIVE].sum(axis=0)
    n_d = t[:, :, TS_N].sum(axis=0)
    assert ((gives == 0) | (gives == n_d)).all()
    frame = small_tensor.to_frame("net points per deal")
    for column in ("eldest_class", "dealer_class", "deals", "stand", "give", "run", "stand_se", "give_se", "run_se"):
        assert column in frame.columns
    assert frame["deals"].sum() == 3000 and "dealer_stand" not in frame.columns


# ---- the bootstrap ------------------------------------------------------------------------------


def test_the_bootstrap_is_reproducible_by_seed(small_tensor: Tensor) -> None:
    a = bootstrap(small_tensor, 30, 5, True)
    b = bootstrap(small_tensor, 30, 5, True)
    c = bootstrap(small_tensor, 30, 6, True)
    assert np.array_equal(a.values, b.values) and np.array_equal(a.b, b.b, equal_nan=True)
    assert np.array_equal(a.g, b.g, equal_nan=True)
    assert not np.array_equal(a.values, c.values)
    lo, hi = a.ci(a.values)
    assert lo[0] <= hi[0]
    # zero-sum: the dealer's value is minus the eldest's in every resample
    assert np.allclose(a.values[:, 1], -a.values[:, 0])


# ---- the command ------------------------------------------------------------------------------------

BASE = ["equilibrium", "--rules", "trinidad", "--set", "target=5", "--deals", "3000", "--seed", "3", "--resamples",
        "40"]


def invoke(args: list[str]):
    return CliRunner().invoke(app, args)


@pytest.mark.parametrize("extra, message", [
    (["--classes", "finest"], "error: unknown class scheme 'finest': choose coarse, fine\n"),
    (["--score", "5:2"], "error: bad score '5:2': every score must be below the target 5\n"),
    (["--players", "3", "--rules", "classic", "--score", "1:2:3"],
     "error: match-win probability (--score) needs two sides, not 3 players: leave --score out for net points\n"),
    (["--play", "nosuch"], None),
])
def test_bad_input_is_one_line(tmp_path: Path, extra: list[str], message: str | None) -> None:
    result = invoke(BASE + ["--out", str(tmp_path / "run")] + extra)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")
    if message is not None:
        assert result.stderr == message
    assert not (tmp_path / "run").exists()


def test_a_full_out_folder_needs_force(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine")
    result = invoke(BASE + ["--out", str(tmp_path)])
    assert result.exit_code == 2
    assert result.stderr == (f"error: --out {tmp_path}: this folder already exists and is not empty; add --force to "
                             "replace it, or give another --out\n")


def test_a_small_run_end_to_end(tmp_path: Path) -> None:
    tuned = tmp_path / "tuned"
    tuned.mkdir()
    (tuned / "tuned.json").write_text(json.dumps({"format": "allfours-tuned/1", "eldest": {"T0": "beg", "T1": "stand"},
                                                  "dealer": {"T3": "give"}}))
    out = tmp_path / "eq"
    result = invoke(BASE + ["--out", str(out), "--json", "--threads", "2", "--tuned", str(tuned)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    for key in ("value", "value_ci95", "eldest", "dealer", "exploitability", "tensor", "rules", "score", "play",
                "seed", "deals"):
        assert key in doc
    assert doc["deals"] == 3000 and doc["seed"] == 3 and doc["play"] == "heuristic" and doc["score"] == [0, 0]
    assert doc["value_ci95"][0] <= doc["value"] <= doc["value_ci95"][1] or doc["bootstrap"]["chunks"] < 20
    assert sum(r["deals"] for r in doc["eldest"]) == sum(r["deals"] for r in doc["dealer"]) == 3000
    for r in doc["eldest"]:
        assert 0 <= r["p_beg"] <= 1 and r["ci95"][0] <= r["ci95"][1]
    for r in doc["dealer"]:
        assert 0 <= r["p_give"] <= 1
    ex = doc["exploitability"]
    assert ex["equilibrium"]["exact"] <= 1e-6
    assert ex["heuristic"]["exact"] >= 0 and ex["tuned"]["exact"] >= 0
    assert ex["equilibrium"]["value"] == pytest.approx(doc["value"])
    for name in ("heuristic", "tuned", "equilibrium"):  # simulated on --deals (3000) per best-response round
        lo, hi = ex[name]["simulated_ci95"]
        assert lo <= ex[name]["simulated"] <= hi and ex[name]["simulated_detail"]["deals"] == 3000
    assert ex["tuned"]["simulated_detail"]["streams"] == [3002, 3003]
    assert doc["simulated_exploitability"]["deals"] == 3000
    skipped = invoke(BASE + ["--out", str(tmp_path / "skip"), "--json", "--exploit-deals", "0"])
    assert json.loads(skipped.stdout)["exploitability"]["heuristic"]["simulated"] is None
    assert Path(doc["tensor"]) == out / "tensor.parquet"
    for name in ("tensor.parquet", "tensor.csv", "eldest.csv", "dealer.csv", "equilibrium.json"):
        assert (out / name).exists()
    # again on one thread, with --force: the same numbers
    again = invoke(BASE + ["--out", str(out), "--json", "--threads", "1", "--tuned", str(tuned), "--force"])
    assert again.exit_code == 0, again.output
    doc2 = json.loads(again.stdout)
    doc.pop("seconds"), doc2.pop("seconds")
    assert doc == doc2
    text = invoke(BASE + ["--out", str(tmp_path / "text")])
    assert text.exit_code == 0 and "Bidding equilibrium: trinidad" in text.stdout and "T0" in text.stdout


def test_three_players_by_cfr(tmp_path: Path) -> None:
    result = invoke(["equilibrium", "--rules", "classic", "--players", "3", "--deals", "1500", "--resamples", "10",
                     "--out", str(tmp_path / "eq3"), "--json", "--threads", "2"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    gains = doc["cfr"]["gains"]
    assert gains[-1]["eldest_gain"] <= 1e-4 and gains[-1]["dealer_gain"] <= 1e-4
    assert "dealer_value" in doc
    import pandas as pd

    frame = pd.read_parquet(tmp_path / "eq3" / "tensor.parquet")
    assert {"dealer_stand", "dealer_give", "dealer_run"} <= set(frame.columns)


def test_match_win_probability_at_a_score(tmp_path: Path) -> None:
    result = invoke(BASE + ["--score", "3:4", "--out", str(tmp_path / "eq"), "--json", "--equity-dir",
                            str(tmp_path / "equity"), "--threads", "2", "--resamples", "10"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["measure"] == "match-win probability" and doc["score"] == [3, 4]
    assert 0.0 <= doc["value"] <= 1.0
    assert doc["exploitability"]["equilibrium"]["exact"] <= 1e-6


# ---- the equilibrium as a policy ----------------------------------------------------------------


def test_a_mixed_table_entry_is_drawn_from_the_choice_stream() -> None:
    from analyser.engine.bits import rng_state
    from analyser.engine.layout import K_TUNED, T_BEG, T_GIVE
    from analyser.engine.policies import decide_beg, decide_give
    from analyser.players.policy import parse_policy, tuned_row

    base = parse_policy("heuristic")[1]
    rules = SMALL.as_array()
    scores = np.zeros(4, dtype=np.int64)
    hand, turnup = np.uint64(0b111111), 51  # the 2 to 7 of suit 0, the ace of suit 3 turned up: T0
    mixed = tuned_row(base, np.full(N_HAND_CLASSES, 0.3), np.full(N_HAND_CLASSES, 0.8))
    rng = rng_state(np.random.SeedSequence(4))
    begs = sum(bool(decide_beg(K_TUNED, mixed, hand, turnup, 0, 3, scores, rules, rng)) for _ in range(4000))
    gives = sum(bool(decide_give(K_TUNED, mixed, hand, turnup, 3, 3, scores, rules, rng)) for _ in range(4000))
    assert abs(begs / 4000 - 0.3) < 0.03 and abs(gives / 4000 - 0.8) < 0.03
    # a pure entry draws nothing: the stream is where it was
    pure = tuned_row(base, np.ones(N_HAND_CLASSES), np.zeros(N_HAND_CLASSES))
    before = rng.copy()
    assert decide_beg(K_TUNED, pure, hand, turnup, 0, 3, scores, rules, rng)
    assert not decide_give(K_TUNED, pure, hand, turnup, 3, 3, scores, rules, rng)
    assert np.array_equal(rng, before)
    assert T_GIVE - T_BEG == N_HAND_CLASSES


def test_an_equilibrium_run_is_a_policy(tmp_path: Path) -> None:
    from analyser.engine.layout import K_TUNED, T_BEG, T_GIVE
    from analyser.players.policy import PolicyError, parse_policy

    out = tmp_path / "eq"
    result = invoke(BASE + ["--out", str(out), "--json", "--resamples", "5", "--play", "heuristic:win_points=5"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    kind, row = parse_policy(f"equilibrium:{out}")
    assert kind == K_TUNED and row[T_BEG + 0] == doc["eldest"][0]["p_beg"]  # T0 is the first class
    codes = {class_key(c): c for c in scheme_codes("coarse")}
    for entry in doc["eldest"]:
        assert row[T_BEG + codes[entry["class"]]] == entry["p_beg"]
    for entry in doc["dealer"]:
        assert row[T_GIVE + codes[entry["class"]]] == entry["p_give"]
    assert doc["heuristic"]["win_points"] == 5.0 and row[6] == 5.0  # H_WIN_POINTS: the play policy's parameters
    # wherever a policy goes
    played = invoke(["simulate", "--rules", "trinidad", "--set", "target=5", "--deals", "300",
                     "--policy", f"equilibrium:{out}"])
    assert played.exit_code == 0, played.output
    for spec, words in ((f"equilibrium:{tmp_path}", "no "), ("equilibrium:", "needs a run folder")):
        with pytest.raises(PolicyError, match=words):
            parse_policy(spec)
    (tmp_path / "bad.json").write_text('{"format": "allfours-tuned/1"}')
    with pytest.raises(PolicyError, match="is not an allfours-equilibrium/1 file"):
        parse_policy(f"equilibrium:{tmp_path / 'bad.json'}")


def test_the_fine_scheme_splits_by_a_strong_side_suit(tmp_path: Path) -> None:
    result = invoke(BASE + ["--classes", "fine", "--out", str(tmp_path / "eq"), "--json", "--resamples", "5"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    names = [r["class"] for r in doc["eldest"]]
    assert doc["classes"] == "fine" and "T0" in names and "T0/side" in names
    assert not any(n.startswith("T4+") and n.endswith("/side") for n in names + [r["class"] for r in doc["dealer"]])
    assert sum(r["deals"] for r in doc["eldest"]) == 3000
    assert doc["exploitability"]["equilibrium"]["exact"] <= 1e-6
    # the same deals as the coarse scheme: its classes merge the fine ones
    coarse = json.loads(invoke(BASE + ["--out", str(tmp_path / "c"), "--json", "--resamples", "5"]).stdout)
    merged: dict[str, int] = {}
    for r in doc["eldest"]:
        merged[r["class"].removesuffix("/side")] = merged.get(r["class"].removesuffix("/side"), 0) + r["deals"]
    assert merged == {r["class"]: r["deals"] for r in coarse["eldest"]}
    assert doc["exploitability"]["heuristic"]["value"] == pytest.approx(coarse["exploitability"]["heuristic"]["value"])
    from analyser.players.policy import PolicyError, parse_policy

    with pytest.raises(PolicyError, match="--classes coarse"):
        parse_policy(f"equilibrium:{tmp_path / 'eq'}")


def test_all_scores(tmp_path: Path) -> None:
    args = ["equilibrium", "--rules", "trinidad", "--set", "target=4", "--deals", "400", "--all-scores",
            "--equity-dir", str(tmp_path / "equity"), "--threads", "2", "--resamples", "5"]
    result = invoke(args + ["--out", str(tmp_path / "eq"), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["deals_sampled"] == 400 and doc["measure"] == "match-win probability"
    scores = [tuple(c["score"]) for c in doc["scores"]]
    assert scores == sorted(scores) and len(scores) == 16  # a deal whose kick is 0 counts at every score
    for cell in doc["scores"]:
        a, b = cell["score"]
        assert 0.0 <= cell["value"] <= 1.0 and 0 < cell["deals"] <= 400
        assert cell["deals"] == 400 or b > 0  # at 0 no kick ends the match (kicks are at most 3 < 4)
        assert cell["exploitability"]["equilibrium"] <= 1e-6 <= cell["exploitability"]["heuristic"] + 1e-6
        assert sum(r["deals"] for r in cell["eldest"]) == cell["deals"]
    assert doc["bootstrap"] == {"resamples": 0, "chunks": 0}  # 400 deals: two chunks, too few to resample
    assert [Path(p).name for p in doc["files"]["heatmaps"]] == ["scores-eldest.png", "scores-dealer.png"]
    import pandas as pd

    frame = pd.read_parquet(tmp_path / "eq" / "scores.parquet")
    assert {"eldest_score", "dealer_score", "role", "class", "deals", "p", "heuristic_p"} <= set(frame.columns)
    text = invoke(args + ["--out", str(tmp_path / "text")])
    assert text.exit_code == 0 and "Bidding equilibrium at every score" in text.stdout
    assert "no 95% CIs by score: a bootstrap needs 8 chunks of deals (--deals 2,000 or more)" in text.stdout
    boot = invoke([*args[:6], "2000", *args[7:], "--out", str(tmp_path / "boot"), "--json"])
    assert boot.exit_code == 0, boot.output
    doc = json.loads(boot.stdout)
    assert doc["bootstrap"] == {"resamples": 5, "chunks": 8}
    rows = [r for cell in doc["scores"] for r in cell["eldest"] + cell["dealer"]]
    assert all(r["ci95"][0] <= r.get("p_beg", r.get("p_give")) <= r["ci95"][1] for r in rows)
    assert {r["settled"] for r in rows} <= {True, False} and any(r["settled"] for r in rows)
    for extra, words in ((["--score", "1:2"], "leave --score and --tuned out"),
                         (["--rules", "classic", "--players", "3"], "--all-scores needs two sides")):
        bad = invoke(args + ["--out", str(tmp_path / "bad")] + extra)
        assert bad.exit_code == 2 and words in bad.stderr and bad.stderr.count("\n") == 1


def dealer_side_value(frame) -> float:
    """The game's value from tensor.parquet alone, by the dealer's own LP (not the eldest's, which the command
    solves): minimise sum_e u_e, u_e >= stand mass of e, u_e >= its beg mass under g, 0 <= g <= 1."""
    eldest = sorted(set(frame["eldest_class"]))
    dealer = sorted(set(frame["dealer_class"]))
    e_idx = frame["eldest_class"].map({c: i for i, c in enumerate(eldest)}).to_numpy()
    d_idx = frame["dealer_class"].map({c: i for i, c in enumerate(dealer)}).to_numpy()
    prob = frame["deals"].to_numpy() / frame["deals"].sum()
    mass = {line: np.zeros((len(eldest), len(dealer))) for line in ("stand", "give", "run")}
    for line in mass:
        np.add.at(mass[line], (e_idx, d_idx), prob * frame[line].to_numpy())
    n_e, n_d = len(eldest), len(dealer)
    c = np.concatenate([np.zeros(n_d), np.ones(n_e)])   # variables: g (n_d), u (n_e)
    a_ub, b_ub = [], []
    for e in range(n_e):
        row = np.zeros(n_d + n_e)
        row[n_d + e] = -1.0
        a_ub.append(row)
        b_ub.append(-mass["stand"][e].sum())
        row = np.zeros(n_d + n_e)
        row[:n_d] = mass["give"][e] - mass["run"][e]
        row[n_d + e] = -1.0
        a_ub.append(row)
        b_ub.append(-mass["run"][e].sum())
    res = linprog(c, A_ub=np.array(a_ub), b_ub=np.array(b_ub), bounds=[(0, 1)] * n_d + [(None, None)] * n_e,
                  method="highs-ipm")
    assert res.status == 0
    return float(res.fun)


def test_another_lp_reading_the_tensor_file_finds_the_value(tmp_path: Path) -> None:
    import pandas as pd

    result = invoke(BASE + ["--out", str(tmp_path / "eq"), "--json", "--exploit-deals", "0"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    frame = pd.read_parquet(doc["tensor"])
    assert {"eldest_class", "dealer_class", "deals", "stand", "give", "run", "stand_se", "give_se",
            "run_se"} <= set(frame.columns)
    assert dealer_side_value(frame) == pytest.approx(doc["value"], abs=1e-6)


def test_coarse_and_fine_on_the_same_deals() -> None:
    from analyser.analysis.bidding.equilibrium import compare_schemes, run_equilibrium

    rules = make_rules("trinidad", settings=["target=5"])
    coarse = run_equilibrium(rules, "heuristic", 4000, 2, "coarse", resamples=30, threads=2)
    fine = run_equilibrium(rules, "heuristic", 4000, 2, "fine", resamples=30, threads=2)
    # the same deals: every fine class's deals add up to its coarse class's
    by_coarse = {r["class"]: r["deals"] for r in coarse.class_rows("eldest")}
    summed: dict[str, int] = {}
    for r in fine.class_rows("eldest"):
        name = r["class"].removesuffix("/side")
        summed[name] = summed.get(name, 0) + r["deals"]
    assert summed == by_coarse
    cmp = compare_schemes(coarse, fine)
    assert cmp["value"]["difference"] == pytest.approx(fine.value[0] - coarse.value[0])
    lo, hi = cmp["value"]["difference_ci95"]
    assert lo <= hi  # both players see more: the value may move either way
    for role in ("eldest", "dealer"):
        assert [r["class"] for r in cmp[role]] == [r["class"] for r in coarse.class_rows(role)]
        for r in cmp[role]:
            assert r["verdict"] in ("holds", "moves", "unsettled")
            if r["verdict"] == "holds":
                assert all(f["action"] == r["action"] for f in r["fine"])
    with pytest.raises(ValueError, match="same deals"):
        compare_schemes(fine, coarse)
