"""The hand evaluator against a slow, obvious pure-Python reference."""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyser.engine.evaluator import (
    CLASS_ACE, CLASS_JACK, CLASS_LOW, N_HAND_CLASSES, class_code, class_key, decode_class, evaluate_hand, hand_class,
    hand_class_code, hand_features, possible_classes, trump_strength,
)
from analyser.engine.layout import (
    F_CLASS, F_GAME_POINTS, F_HIGH_TRUMP, F_LOW_TRUMP, F_SIDE_LEN, F_SIDE_TENS, F_SIDE_TOP, F_TRUMP_ACE, F_TRUMP_JACK,
    F_TRUMP_TEN, F_TRUMPS, N_FEATURES,
)

POINTS = {8: 10, 9: 1, 10: 2, 11: 3, 12: 4}  # rank index -> Game points


def reference_features(cards: list[int], trump: int) -> dict[str, int]:
    """Every feature, the slow way, from rules.md and the evaluator's docstring."""
    trump_ranks = sorted(c % 13 for c in cards if c // 13 == trump)
    sides = []
    for suit in range(4):
        ranks = [c % 13 for c in cards if c // 13 == suit]
        if suit != trump and ranks:
            sides.append((len(ranks), max(ranks)))
    side_len, side_top = max(sides) if sides else (0, -1)
    n = len(trump_ranks)
    ace, jack, ten = 12 in trump_ranks, 9 in trump_ranks, 8 in trump_ranks
    low = any(r <= 3 for r in trump_ranks)
    code = 0 if n == 0 else 1 + 8 * (min(n, 4) - 1) + 4 * ace + 2 * jack + low
    return {
        "trumps": n,
        "high": trump_ranks[-1] if trump_ranks else -1,
        "low": trump_ranks[0] if trump_ranks else -1,
        "jack": int(jack), "ace": int(ace), "ten": int(ten),
        "points": sum(POINTS.get(c % 13, 0) for c in cards),
        "side_len": side_len, "side_top": side_top,
        "side_tens": sum(1 for c in cards if c % 13 == 8 and c // 13 != trump),
        "class": code,
    }


def test_features_match_reference_on_random_hands():
    rng = random.Random(20240601)
    out = np.zeros(N_FEATURES, dtype=np.int64)
    for _ in range(4000):
        cards = rng.sample(range(52), rng.randint(0, 18))
        trump = rng.randrange(4)
        mask = sum(1 << c for c in cards)
        evaluate_hand(np.uint64(mask), trump, out)
        ref = reference_features(cards, trump)
        got = {
            "trumps": out[F_TRUMPS], "high": out[F_HIGH_TRUMP], "low": out[F_LOW_TRUMP],
            "jack": out[F_TRUMP_JACK], "ace": out[F_TRUMP_ACE], "ten": out[F_TRUMP_TEN],
            "points": out[F_GAME_POINTS], "side_len": out[F_SIDE_LEN], "side_top": out[F_SIDE_TOP],
            "side_tens": out[F_SIDE_TENS], "class": out[F_CLASS],
        }
        assert {k: int(v) for k, v in got.items()} == ref, (sorted(cards), trump)
        assert hand_class_code(np.uint64(mask), trump) == ref["class"]
        trumps, flags = decode_class(ref["class"])
        assert trumps == min(ref["trumps"], 4) and bool(flags & CLASS_ACE) == bool(ref["ace"])
        assert bool(flags & CLASS_JACK) == bool(ref["jack"]) and bool(flags & CLASS_LOW) == (0 <= ref["low"] <= 3)
        assert class_code(trumps, flags) == ref["class"]
        assert trump_strength(np.uint64(mask), trump) == ref["trumps"] + ref["ace"] + ref["jack"]


def test_every_possible_class_occurs_and_keys_are_distinct():
    rng = random.Random(7)
    seen = set()
    for _ in range(20000):
        cards = rng.sample(range(52), rng.choice((6, 9, 12)))
        seen.add(reference_features(cards, 0)["class"])
    assert seen == set(possible_classes())
    assert len(possible_classes()) == 28
    keys = [class_key(c) for c in range(N_HAND_CLASSES)]
    assert len(set(keys)) == N_HAND_CLASSES


@pytest.mark.parametrize(
    ("hand", "trump", "key"),
    [
        ("AS JS 3S KH 9D 2C", "S", "T3:A,J,lo"),
        ("KH QH 4H 9D 2C 7C", "S", "T0"),
        ("TS 7S KH QH 4H 9D", "S", "T2"),
        ("2H 3H 4H 5H AH JH", "H", "T4+:A,J,lo"),
        ("JD 8C", "D", "T1:J"),
    ],
)
def test_hand_class_keys(hand, trump, key):
    assert hand_class(hand, trump) == key


def test_the_hand_class_code_is_decoded_in_the_evaluator_only():
    """Code outside engine/evaluator.py takes a class apart with decode_class, never by its arithmetic."""
    import re
    from pathlib import Path

    import analyser

    arithmetic = re.compile(r"\(\s*\w+\s*-\s*1\s*\)\s*(//|%)\s*8|divmod\(\s*\w+\s*-\s*1\s*,\s*8\s*\)")
    root = Path(analyser.__file__).parent
    found = [f"{path.relative_to(root)}:{n}: {line.strip()}" for path in sorted(root.rglob("*.py"))
             if path.name != "evaluator.py" for n, line in enumerate(path.read_text().splitlines(), 1)
             if arithmetic.search(line)]
    assert not found, "use evaluator.decode_class:\n" + "\n".join(found)
    with pytest.raises(ValueError, match="out of range"):
        decode_class(N_HAND_CLASSES)


def test_python_wrapper_accepts_masks_ints_and_names():
    names = ["AS", "JS", "3S", "KH", "TD", "2C"]
    from analyser.game.cards import mask_of, parse_cards

    ints = parse_cards(names)
    by_names = hand_features(names, "S")
    assert hand_features(ints, 0) == by_names
    assert hand_features(mask_of(ints), "♠") == by_names
    assert by_names["high_trump"] == "A" and by_names["low_trump"] == "3"
    assert by_names["game_points"] == 4 + 1 + 3 + 10
    assert by_names["side_tens"] == 1 and by_names["side_len"] == 1 and by_names["side_top"] == "K"
    assert by_names["hand_class_key"] == "T3:A,J,lo"


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="outside the 52 cards"):
        hand_features(1 << 60, 0)
    with pytest.raises(ValueError, match="trump"):
        hand_features("AS", 5)
    with pytest.raises(ValueError):
        hand_class("ZZ", "S")
