"""Play hand-built deals through the kernel and read them back as log lines."""

from __future__ import annotations

import numpy as np

from analyser.game.cards import parse_card, parse_cards
from analyser.engine.deal import MAX_LINE_EVENTS, play_line
from analyser.engine.layout import N_INFO, N_WHY
from analyser.record.gamelog import events_to_json, line_object
from analyser.players.policy import seat_policies
from analyser.game.rules import RuleSet
from analyser.players.simulate import chunk_rngs


def fixed_deck(rules: RuleSet, dealer: int, hands: dict[int, str], turnup: str, stock: str = "") -> np.ndarray:
    """A deck with the given hands (by seat), turn-up and first stock cards in place."""
    n = rules.players
    deck: list[int | None] = [None] * 52
    for seat, text in hands.items():
        k = (seat - dealer - 1) % n  # hands are dealt eldest first
        deck[6 * k : 6 * k + 6] = parse_cards(text, count=6)
    deck[6 * n] = parse_card(turnup)
    for i, card in enumerate(parse_cards(stock)):
        deck[6 * n + 1 + i] = card
    placed = {c for c in deck if c is not None}
    assert len(placed) == sum(c is not None for c in deck), "a card placed twice"
    rest = iter(c for c in range(52) if c not in placed)
    return np.array([c if c is not None else next(rest) for c in deck], dtype=np.int64)


def play_fixed(rules: RuleSet, dealer: int, score: list[int], deck: np.ndarray, beg: int = 0, give: int = -1,
               policy: str = "random", seed: int = 1) -> tuple[dict, np.ndarray, np.ndarray]:
    """Play one line on a fixed deck; returns (log line, info, pts)."""
    kinds, params = seat_policies([policy], rules.players)
    deck_rng, rng = chunk_rngs(seed, 0)
    scores = np.zeros(4, dtype=np.int64)
    scores[: rules.sides] = score
    ev = np.zeros((MAX_LINE_EVENTS, 4), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    play_line(rules.as_array(), dealer, scores, deck.copy(), 52, beg, give, kinds, params, deck_rng, rng, ev, info, pts)
    winner = int(info[1])
    line = line_object(rules, dealer, list(score), events_to_json(ev[: info[0]], rules.players),
                       [int(s) for s in scores[: rules.sides]], None if winner < 0 else winner)
    return line, info, pts


def points_of(line: dict) -> list[tuple[int, int, str]]:
    return [(e["side"], e["n"], e["why"]) for e in line["events"] if e["event"] == "points"]
