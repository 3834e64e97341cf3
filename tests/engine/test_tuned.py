"""The tuned policy: table lookups by hand class, fallback to the heuristic, tuned.json round trip, errors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.engine.bits import rng_state
from analyser.engine.evaluator import N_HAND_CLASSES, class_key, hand_class_code, possible_classes
from analyser.engine.layout import K_HEURISTIC, K_TUNED, N_PARAMS, T_BEG, T_GIVE
from analyser.engine.policies import decide_beg, decide_give
from analyser.players.policy import (
    PolicyError, default_row, parse_policy, read_tuned, seat_policies, tuned_document, tuned_row, tuned_tables,
)
from analyser.referee import referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

TRINIDAD = make_rules("trinidad")
HEURISTIC = parse_policy("heuristic")[1]


def random_deals(count: int, seed: int = 3) -> list[tuple[np.uint64, int]]:
    """(hand mask, turn-up) pairs from shuffled decks."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        deck = rng.permutation(52)
        out.append((np.uint64(sum(1 << int(c) for c in deck[:6])), int(deck[6])))
    return out


def decisions(row: np.ndarray, kind: int = K_TUNED, score: int = 0) -> tuple[list[bool], list[bool]]:
    rules = TRINIDAD.as_array()
    scores = np.array([score, 0, 0, 0], dtype=np.int64)
    rng = rng_state(np.random.SeedSequence(0))
    begs, gives = [], []
    for hand, turnup in random_deals(400):
        begs.append(bool(decide_beg(kind, row, hand, turnup, 0, 3, scores, rules, rng)))
        gives.append(bool(decide_give(kind, row, hand, turnup, 3, 3, scores, rules, rng)))
    return begs, gives


def test_a_table_that_says_beg_and_give_everywhere_begs_and_gives_everywhere() -> None:
    ones, zeros = np.ones(N_HAND_CLASSES), np.zeros(N_HAND_CLASSES)
    begs, gives = decisions(tuned_row(HEURISTIC, ones, ones))
    assert all(begs) and all(gives)
    begs, gives = decisions(tuned_row(HEURISTIC, zeros, zeros))
    assert not any(begs) and not any(gives)


def test_each_class_follows_its_own_entry() -> None:
    # beg only with odd class codes, give only with even ones
    codes = np.arange(N_HAND_CLASSES)
    row = tuned_row(HEURISTIC, (codes % 2 == 1).astype(float), (codes % 2 == 0).astype(float))
    begs, gives = decisions(row)
    for (hand, turnup), beg, give in zip(random_deals(400), begs, gives):
        code = hand_class_code(hand, turnup // 13)
        assert beg == (code % 2 == 1) and give == (code % 2 == 0)


def test_empty_tables_decide_and_play_exactly_as_the_heuristic() -> None:
    empty = default_row(K_TUNED)
    assert decisions(empty) == decisions(HEURISTIC, K_HEURISTIC)
    rules = make_rules("partnership-seven")  # runs, bunching and discards: every decision the policies make
    tuned = list(iter_log_lines(rules, 150, 4, np.full(4, K_TUNED), np.tile(empty, (4, 1))))
    heuristic = list(iter_log_lines(rules, 150, 4, *seat_policies(["heuristic"], 4)))
    assert tuned == heuristic


def test_the_dealer_never_gives_a_gift_that_ends_the_match() -> None:
    row = tuned_row(HEURISTIC, np.ones(N_HAND_CLASSES), np.ones(N_HAND_CLASSES))
    _, gives = decisions(row, score=TRINIDAD.target - 1)  # the eldest's side (side 0) is one point short
    assert not any(gives)


def test_tuned_logs_are_legal_in_every_preset() -> None:
    codes = np.arange(N_HAND_CLASSES)
    row = tuned_row(HEURISTIC, (codes % 3 == 0).astype(float), (codes % 2 == 0).astype(float))
    for preset, players in (("classic", 3), ("partnership-seven", 4), ("trinidad", 2)):
        rules = make_rules(preset, players=players)
        for line in iter_log_lines(rules, 100, 7, np.full(players, K_TUNED), np.tile(row, (players, 1))):
            referee_line(line)


def test_tuned_json_round_trip(tmp_path: Path) -> None:
    codes = np.arange(N_HAND_CLASSES)
    row = tuned_row(parse_policy("heuristic:win_points=6")[1], (codes % 2).astype(float), -np.ones(N_HAND_CLASSES))
    row[T_GIVE + 9] = 1.0  # one dealer entry: T2 gives
    doc = tuned_document(row, {"note": "test"})
    assert doc["dealer"] == {class_key(9): "give"}
    assert set(doc["eldest"]) == {class_key(c) for c in possible_classes()}
    (tmp_path / "tuned.json").write_text(json.dumps(doc))
    for spec in (f"tuned:{tmp_path}", f"tuned:{tmp_path / 'tuned.json'}"):
        kind, read = parse_policy(spec)
        assert kind == K_TUNED and read.shape == (N_PARAMS,)
        possible = [T_BEG + c for c in possible_classes()] + [T_GIVE + c for c in possible_classes()]
        assert np.array_equal(read[possible], row[possible])
        assert read[:T_BEG].tolist() == row[:T_BEG].tolist()
    beg, give = tuned_tables(K_TUNED, read)
    assert beg[2] == 0.0 and beg[1] == 1.0 and give[9] == 1.0 and give[1] == -1.0


@pytest.mark.parametrize("content, message", [
    (None, "no .*tuned.json"),
    ("not json", "cannot read"),
    (json.dumps({"format": "other"}), "is not an allfours-tuned/1 file"),
    (json.dumps({"format": "allfours-tuned/1", "eldest": {"T9": "beg"}}), "bad eldest entry"),
    (json.dumps({"format": "allfours-tuned/1", "dealer": {"T1": "beg"}}), "bad dealer entry"),
    (json.dumps({"format": "allfours-tuned/1", "heuristic": {"nonsense": 1}}), "unknown heuristic parameter"),
])
def test_bad_tuned_folders_are_one_clear_error(tmp_path: Path, content: str | None, message: str) -> None:
    if content is not None:
        (tmp_path / "tuned.json").write_text(content)
    with pytest.raises(PolicyError, match=message):
        parse_policy(f"tuned:{tmp_path}")
    with pytest.raises(PolicyError, match="tuned needs a run folder"):
        read_tuned("")


def test_every_command_with_a_policy_reports_a_missing_tuned_folder_in_one_line(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = tmp_path / "nowhere"
    for args in (["simulate", "--deals", "10", "--policy", f"tuned:{missing}"],
                 ["tournament", "--a", f"tuned:{missing}", "--b", "heuristic", "--matches", "2"],
                 ["whatif", "--hand", "AS KS QS JS 4H 7D", "--turnup", "9S", "--policy", f"tuned:{missing}"],
                 ["check-advice", "--deals", "100", "--policy", f"tuned:{missing}"],
                 ["strategy", "--deals", "100", "--policy", f"tuned:{missing}", "--out", str(tmp_path / "o")]):
        result = runner.invoke(app, args)
        assert result.exit_code != 0, args
        assert "tuned.json" in result.stderr and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
        assert "Traceback" not in result.stderr
