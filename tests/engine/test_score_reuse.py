"""The equilibrium at every score from one set of deals (engine.bidding.score_tensors): each deal's lines
are played once with the match open and scored from every score. Checked against the slow, obvious way:
every line played again, at every score, with the real target, from the same deck and streams."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyser.analysis.bidding.equilibrium import (
    OPEN_TARGET, SCORES_STREAM, SETTLED, chunk_rngs, reference_row, run_all_scores, score_tensors,
)
from analyser.analysis.bidding.equity import EquityTable
from analyser.engine.bidding import (
    BC_DEALS, BC_KICK_ENDED, BC_TRIES, N_BC, N_TS, SCHEME_COARSE, TS_N, TS_REF_BEG, TS_REF_GIVE, TS_SQ, TS_SUM,
    bid_class, score_tensors as kernel,
)
from analyser.engine.bits import bit, rand_below, side_of
from analyser.engine.deal import HAND_SIZE, LINE_WORK, kick_points, play_line_in
from analyser.engine.decisions import copy_words, equity_of, jump_in
from analyser.engine.evaluator import N_HAND_CLASSES
from analyser.engine.layout import I_DEALS, I_WINNER, N_INFO, N_WHY
from analyser.engine.policies import decide_beg, decide_give
from analyser.engine.search import new_play_buffer
from analyser.work.executor import LocalExecutor
from analyser.players.policy import parse_policy
from analyser.game.rules import R_KICK, R_TARGET, make_rules


def fake_equity(target: int, seed: int) -> np.ndarray:
    """Any table will do for the comparison: distinct values make a wrong cell show."""
    return np.random.default_rng(seed).uniform(0.05, 0.95, size=(target, target))


def reference(rules, kinds, params, ref_kind, ref_row, equity, deck_rng, rng, n_deals):
    """Every line at every score a:b, played with the real target (the per-score way), same streams."""
    n = int(rules[0])
    target = int(rules[R_TARGET])
    dealer, eside, dside = n - 1, side_of(0, n), side_of(n - 1, n)
    size = N_HAND_CLASSES
    tensors = np.zeros((target * target, size, size, N_TS))
    counts = np.zeros((target * target, N_BC), dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    line_deck = np.empty(52, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    work = np.zeros(LINE_WORK, dtype=np.uint64)
    state = new_play_buffer(False)
    ev = np.zeros((0, 4), dtype=np.int64)
    tmp = np.zeros(4, dtype=np.uint64)
    no_rng = np.zeros(4, dtype=np.uint64)
    redeals = 0
    for _ in range(n_deals):
        for i in range(51, 0, -1):
            j = rand_below(deck_rng, i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        turnup = int(deck[HAND_SIZE * n])
        kick = kick_points(rules[R_KICK], turnup)
        eldest_hand = np.uint64(0)
        for p in range(HAND_SIZE):
            eldest_hand |= bit(deck[p])
        dealer_hand = np.uint64(0)
        for p in range(HAND_SIZE * (n - 1), HAND_SIZE * n):
            dealer_hand |= bit(deck[p])
        e = bid_class(SCHEME_COARSE, eldest_hand, turnup // 13)
        d = bid_class(SCHEME_COARSE, dealer_hand, turnup // 13)
        deal_deck_rng, deal_rng = deck_rng.copy(), rng.copy()
        jump_in(deck_rng, tmp)
        jump_in(rng, tmp)
        for a in range(target):
            for b in range(target):
                cell = a * target + b
                counts[cell, BC_TRIES] += 1
                if b + kick >= target:
                    counts[cell, BC_KICK_ENDED] += 1
                    continue
                counts[cell, BC_DEALS] += 1
                seen = np.zeros(4, dtype=np.int64)
                seen[eside], seen[dside] = a, b + kick
                t = tensors[cell, e, d]
                t[TS_N] += 1
                t[TS_REF_BEG] += decide_beg(ref_kind, ref_row, eldest_hand, turnup, 0, dealer, seen, rules, no_rng)
                t[TS_REF_GIVE] += decide_give(ref_kind, ref_row, dealer_hand, turnup, dealer, dealer, seen, rules,
                                              no_rng)
                for line, (force_beg, force_give) in enumerate(((0, -1), (1, 1), (1, 0))):
                    copy_words(line_deck, deck)
                    dr, r = deal_deck_rng.copy(), deal_rng.copy()
                    sc = np.zeros(4, dtype=np.int64)
                    sc[eside], sc[dside] = a, b
                    play_line_in(rules, dealer, sc, line_deck, 52, force_beg, force_give, kinds, params, dr, r, ev,
                                 info, pts, work, state)
                    redeals += info[I_DEALS] > 1
                    w = info[I_WINNER]
                    v = (1.0 if w == eside else 0.0) if w >= 0 else equity_of(equity, sc, eside, eside)
                    t[TS_SUM + line] += v
                    t[TS_SQ + line] += v * v
    return tensors, counts, redeals


@pytest.mark.parametrize("preset, players, settings, deals", [
    ("trinidad", 2, ["target=6"], 120),          # low target: kicks and play points end matches often
    ("trinidad", 4, [], 40),
    ("classic", 2, ["target=5", "gift=2"], 80),  # the gift rule reaches two scores
])
def test_every_score_from_one_play_is_the_per_score_play(preset: str, players: int, settings: list[str],
                                                         deals: int) -> None:
    rules = make_rules(preset, players, settings).as_array()
    open_rules = rules.copy()
    open_rules[R_TARGET] = OPEN_TARGET
    kind, row = parse_policy("heuristic")
    kinds = np.full(players, kind, dtype=np.int64)
    params = np.tile(row, (players, 1))
    ref_kind, ref_row = reference_row("heuristic")
    target = int(rules[R_TARGET])
    equity = fake_equity(target, 7)
    got = np.zeros((N_HAND_CLASSES, N_HAND_CLASSES, target * target, N_TS))
    got_counts = np.zeros((target * target, N_BC), dtype=np.int64)
    streams = chunk_rngs(5, 0, SCORES_STREAM)
    kernel(rules, open_rules, kinds, params, ref_kind, ref_row, equity, SCHEME_COARSE, *[s.copy() for s in streams],
           deals, got, got_counts)
    want, want_counts, redeals = reference(rules, kinds, params, ref_kind, ref_row, equity, streams[0].copy(),
                                           streams[1].copy(), deals)
    np.testing.assert_array_equal(got_counts, want_counts)
    np.testing.assert_allclose(np.moveaxis(got, 2, 0), want, rtol=0, atol=1e-9)
    assert got_counts[:, BC_KICK_ENDED].sum() > 0  # the first kick ended the match at some scores
    if preset == "trinidad" and players == 4:
        assert redeals > 0  # a redealt line met the gift rule: the replay path was taken


def test_all_scores_is_the_same_on_any_thread_count() -> None:
    rules = make_rules("trinidad", 2, ["target=5"])
    equity = EquityTable(rules, "heuristic", 1, 1, fake_equity(5, 3), np.zeros((5, 5)))
    one = score_tensors(rules, "heuristic", equity, "coarse", 3000, 9, LocalExecutor(1))
    two = score_tensors(rules, "heuristic", equity, "coarse", 3000, 9, LocalExecutor(2))
    np.testing.assert_array_equal(one[0], two[0])
    np.testing.assert_array_equal(one[1], two[1])
    assert one[1][:, BC_TRIES].tolist() == [3000] * 25


def test_all_scores_writes_its_heatmaps(tmp_path: Path) -> None:
    rules = make_rules("trinidad", 2, ["target=4"])
    equity = EquityTable(rules, "heuristic", 1, 1, fake_equity(4, 1), np.zeros((4, 4)))
    res = run_all_scores(rules, "heuristic", 2000, 1, "coarse", equity, tmp_path, threads=1, resamples=20)
    assert len(res.cells) == 16
    for role in ("eldest", "dealer"):
        png = tmp_path / f"scores-{role}.png"
        assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"


def test_all_scores_bootstrap_is_seeded_and_holds_each_estimate(tmp_path: Path) -> None:
    """Each class at each score gets a 95% CI from the bootstrap (the same on any thread count), the estimate
    inside it, settled exactly when the interval lies within SETTLED of never or always; the kept chunks
    add up, in order, to the total the point estimates come from; the CSV carries the columns."""
    rules = make_rules("trinidad", 2, ["target=4"])
    equity = EquityTable(rules, "heuristic", 1, 1, fake_equity(4, 1), np.zeros((4, 4)))
    one = run_all_scores(rules, "heuristic", 4000, 3, "coarse", equity, tmp_path, threads=1, resamples=12)
    two = run_all_scores(rules, "heuristic", 4000, 3, "coarse", equity, threads=2, resamples=12)
    assert one.cells == two.cells and one.resamples == 12 and one.chunks == 16
    rows = [(r, role) for c in one.cells for role in ("eldest", "dealer") for r in c[role]]
    assert rows
    for r, role in rows:
        p = r["p_beg" if role == "eldest" else "p_give"]
        lo, hi = r["ci95"]
        assert 0.0 <= lo <= p <= hi <= 1.0
        assert r["settled"] == (hi <= SETTLED or lo >= 1 - SETTLED)
    assert any(r["settled"] for r, _ in rows)
    kept: list[np.ndarray] = []
    total, _ = score_tensors(rules, "heuristic", equity, "coarse", 4000, 3, LocalExecutor(2), keep=kept)
    running = np.zeros_like(total)
    for chunk in kept:
        running += chunk
    np.testing.assert_array_equal(running, total)
    frame = pd.read_csv(tmp_path / "scores.csv")
    assert {"p_low", "p_high", "settled"} <= set(frame.columns)
    assert (frame["p_low"] <= frame["p"]).all() and (frame["p"] <= frame["p_high"]).all()
    meta = json.loads((tmp_path / "scores.json").read_text())
    assert meta["bootstrap"] == {"resamples": 12, "chunks": 16}
