"""Deal frequencies against exact probabilities, and invariants of every simulated deal.

Seeds are fixed, so these are deterministic; the tolerance (4.5 standard errors)
only says how far a correct engine can land from the exact value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from analyser.game.cards import mask_of, parse_card
from analyser.engine.deal import play_line
from analyser.engine.layout import I_EXHAUSTED, I_FIRST_KICK, I_RUNS, N_INFO, N_WHY, W_HANG_JACK, W_JACK
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs, iter_log_lines

Z = 4.5


def close(successes: float, trials: int, p: float) -> bool:
    se = math.sqrt(p * (1 - p) / trials)
    return abs(successes / trials - p) < Z * se


def lines(rules, policy, count, seed, force_beg=-1, force_give=-1):
    """info and pts of `count` independent lines from 0-0 (no match ends: target is high)."""
    kinds, params = seat_policies([policy], rules.players)
    deck_rng, rng = chunk_rngs(seed, 0)
    deck = np.arange(52, dtype=np.int64)
    ev = np.zeros((0, 4), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    for i in range(count):
        scores = np.zeros(4, dtype=np.int64)
        play_line(rules.as_array(), i % rules.players, scores, deck, 0, force_beg, force_give, kinds, params,
                  deck_rng, rng, ev, info, pts)
        yield info, pts


def test_jack_of_trump_in_play_with_four_players_and_no_beg():
    rules = make_rules("trinidad", settings=["target=99"])
    n = 20000
    jack = sum(int(p[:, W_JACK].sum() > 0 or p[:, W_HANG_JACK].sum() > 0) for _, p in lines(rules, "random:beg=0", n, 1))
    assert close(jack, n, 12 / 13 * 24 / 51)


def test_jack_in_play_with_two_players():
    rules = make_rules("trinidad", players=2, settings=["target=99"])
    n = 20000
    jack = sum(int(p[:, W_JACK].sum() > 0 or p[:, W_HANG_JACK].sum() > 0) for _, p in lines(rules, "random:beg=0", n, 2))
    assert close(jack, n, 12 / 13 * 12 / 51)


def test_first_kick_distribution():
    rules = make_rules("trinidad", settings=["target=99"])
    n = 20000
    kicks = np.array([int(i[I_FIRST_KICK]) for i, _ in lines(rules, "random:beg=0", n, 3)])
    for value in (1, 2, 3):  # ace, six, jack: 1/13 each
        assert close((kicks == value).sum(), n, 1 / 13)
    assert (kicks == 0).sum() + sum((kicks == v).sum() for v in (1, 2, 3)) == n


def test_runs_and_exhaustion_frequencies():
    """Beg and run on every first deal (4 players): the run turn-up repeats the suit with 12/51,
    then again with 11/50, which exhausts the pack. Later deals stand (beg=0)."""
    rules = make_rules("trinidad", settings=["target=99"])
    n = 20000
    runs, exhausted = [], []
    for info, _ in lines(rules, "random:beg=0", n, 4, force_beg=1, force_give=0):
        runs.append(int(info[I_RUNS]))
        exhausted.append(int(info[I_EXHAUSTED]))
    runs_a, ex = np.array(runs), np.array(exhausted)
    assert close((runs_a == 1).sum(), n, 39 / 51)
    assert close(ex.sum(), n, 12 / 51 * 11 / 50)
    assert set(runs_a) <= {1, 2} and (ex <= 1).all()


@pytest.mark.parametrize("preset,players", [("trinidad", 4), ("trinidad", 2), ("classic", 3), ("classic", 4),
                                            ("partnership-seven", 4), ("trinidad-tobago", 4)])
def test_every_logged_deal_adds_up(preset, players):
    """Hands are disjoint; Game totals add up to the card points in play; High/Low/Jack go to real holders."""
    rules = make_rules(preset, players=players)
    kinds, params = seat_policies(["random"], players)
    paths = {"run": 0, "give": 0, "winner": 0, "exhausted": 0, "discard": 0, "bunch": 0, "hang-jack": 0}
    for line in iter_log_lines(rules, 1500, 5, kinds, params):
        events = line["events"]
        last_deal = max(i for i, e in enumerate(events) if e["event"] == "deal")
        held = [set(h) for h in events[last_deal]["hands"]]
        seen = set().union(*held)
        for e in events[last_deal:]:
            if e["event"] == "more":
                for seat, cards in enumerate(e["hands"]):
                    assert not seen & set(cards)
                    seen |= set(cards)
                    held[seat] |= set(cards)
            elif e["event"] == "discard":
                held[e["seat"]] -= set(e["cards"])
        game = [e for e in events if e.get("why") == "game"]
        if game and "totals" in game[0]:
            in_play = [parse_card(c) for h in held for c in h]
            from analyser.engine.bits import game_points

            assert sum(game[0]["totals"]) == game_points(np.uint64(mask_of(in_play)))
        kinds_seen = {e["event"] for e in events}
        paths["run"] += "run" in kinds_seen
        paths["give"] += "give" in kinds_seen
        paths["discard"] += "discard" in kinds_seen
        paths["bunch"] += "bunch" in kinds_seen
        paths["winner"] += line["winner"] is not None
        paths["exhausted"] += any(e.get("reason") == "exhausted" for e in events)
        paths["hang-jack"] += any(e.get("why") == "hang-jack" for e in events)
    assert paths["run"] and paths["give"] and paths["winner"]
    assert bool(paths["discard"]) == rules.discard
    assert bool(paths["bunch"]) == rules.bunching
    assert bool(paths["hang-jack"]) == rules.hang_jack
    if players == 4 and not rules.bunching:
        assert paths["exhausted"]
