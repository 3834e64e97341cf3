"""The play state: positions cut anywhere, copied and played on, give the engine's own deal.

Every logged deal of `simulate` is rebuilt as a play state from the hands held when
play started; the logged cards go through `legal`/`apply` up to a random cut, the
state is copied, and the copy plays on: with the logged cards (random players) or
with `playout` (heuristic players, whose card play draws nothing from the choice
stream). Cards, trick winners, voids and points must be the engine's.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyser.game.cards import parse_card, parse_suit
from analyser.engine.layout import (
    I_EVENTS, I_WINNER, N_INFO, N_STATE, N_WHY, PS_LED, PS_TO_PLAY, PS_TRICK_NO, PS_VOIDS,
)
from analyser.engine.playout import playout
from analyser.engine.state import apply, copy_state, init_state, is_over, legal, played_by, score
from analyser.record.gamelog import events_to_json
from analyser.players.policy import seat_policies
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs, iter_log_lines

CONFIGS = [("trinidad", 4, []), ("trinidad", 2, []), ("partnership-seven", 4, []), ("classic", 3, []),
           ("classic", 4, ["undertrump=forbidden"]), ("classic", 2, ["void_play=any"])]


def start_of_play(line: dict, players: int):
    """Hands when play started, trump, turn-up, the scores then, and the play/trick/points events after."""
    events = line["events"]
    deal = max(i for i, e in enumerate(events) if e["event"] == "deal")
    hands = [set(h) for h in events[deal]["hands"]]
    turnup = None
    scores = list(line["score_before"]) + [0] * (4 - len(line["score_before"]))
    trump_at = None
    before_play = ("kick", "gift", "jack-bonus")  # scored before play, redealt deals included
    for i, e in enumerate(events):
        if e["event"] == "points" and e["why"] in before_play:
            scores[e["side"]] += e["n"]
        if i < deal:
            continue
        if e["event"] == "more":
            for s, cards in enumerate(e["hands"]):
                hands[s] |= set(cards)
        elif e["event"] == "turnup":
            turnup = e["card"]
        elif e["event"] == "trump":
            trump_at = i
        elif e["event"] == "discard":
            hands[e["seat"]] -= set(e["cards"])
    if trump_at is None or not any(e["event"] == "play" for e in events):
        return None
    masks = np.zeros(4, dtype=np.uint64)
    for s in range(players):
        masks[s] = np.uint64(sum(1 << parse_card(c) for c in hands[s]))
    after = [e for e in events[trump_at:] if e["event"] in ("play", "trick", "points")
             and e.get("why") not in before_play]
    return masks, parse_suit(events[trump_at]["suit"]), parse_card(turnup), np.array(scores, dtype=np.int64), after


def states_at_start_of_play(rules, n_lines: int, seed: int, kinds, params):
    """(line, start_of_play(line), its play state) for each logged line that reached trick play."""
    rules_array = rules.as_array()
    for line in iter_log_lines(rules, n_lines, seed, kinds, params):
        found = start_of_play(line, rules.players)
        if found is None:
            continue
        hands, trump, turnup, scores, _ = found
        state = np.zeros(N_STATE, dtype=np.int64)
        init_state(state, rules_array, hands, trump, turnup, line["dealer"], scores)
        yield line, found, state


def points_from_state(state, rules_array, scores, players):
    ev = np.zeros((64, 4), dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    info[I_WINNER] = -1
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    s = scores.copy()
    score(state, rules_array, s, ev, info, pts)
    return [e for e in events_to_json(ev[: info[I_EVENTS]], players) if e["event"] == "points"]


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_cut_copy_and_play_on_gives_the_engines_deal(preset, players, settings, policy):
    rules = make_rules(preset, players=players, settings=settings)
    rules_array = rules.as_array()
    kinds, params = seat_policies([policy], players)
    rnd = random.Random(7)
    checked = 0
    for line, (hands, trump, turnup, scores, after), state in states_at_start_of_play(rules, 150, 11, kinds, params):
        plays = [e for e in after if e["event"] == "play"]
        tricks = [e["winner"] for e in after if e["event"] == "trick"]
        cut = rnd.randrange(len(plays) + 1)
        winners = []
        voids = np.zeros(4, dtype=np.int64)
        for e in plays[:cut]:
            assert state[PS_TO_PLAY] == e["seat"]
            card = parse_card(e["card"])
            assert int(legal(state)) >> card & 1
            led = state[PS_LED]
            if led >= 0 and card // 13 not in (led, trump):
                voids[e["seat"]] |= 1 << led
            w = apply(state, card)
            if w >= 0:
                winners.append(w)
        copy = np.zeros(N_STATE, dtype=np.int64)
        copy_state(copy, state)
        state[:] = -99  # the copy owns everything it needs
        if policy == "heuristic":  # play on with the players themselves
            ev = np.zeros((512, 4), dtype=np.int64)
            info = np.zeros(N_INFO, dtype=np.int64)
            playout(copy, rules_array, kinds, params, chunk_rngs(1, 0)[1], ev, info)
            rest = events_to_json(ev[: info[I_EVENTS]], players)
            assert [e for e in rest if e["event"] == "play"] == plays[cut:]
            winners += [e["winner"] for e in rest if e["event"] == "trick"]
        else:  # play on with the logged cards
            for e in plays[cut:]:
                assert copy[PS_TO_PLAY] == e["seat"]
                assert int(legal(copy)) >> parse_card(e["card"]) & 1
                w = apply(copy, parse_card(e["card"]))
                if w >= 0:
                    winners.append(w)
        assert is_over(copy) and copy[PS_TRICK_NO] == len(tricks)
        assert winners == tricks
        if cut == len(plays):  # every card through apply: shown voids include what we inferred
            assert all((copy[PS_VOIDS + s] & voids[s]) == voids[s] for s in range(players))
            for s in range(players):
                assert int(played_by(copy, s)) == sum(1 << parse_card(e["card"]) for e in plays if e["seat"] == s)
        assert points_from_state(copy, rules_array, scores, players) == [e for e in after if e["event"] == "points"]
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("preset,players,settings", CONFIGS)
def test_random_playout_from_any_cut_is_the_card_by_card_reference(preset, players, settings):
    """playout with every seat random (its own trick-at-a-time loop) against the obvious one:
    legal, one draw, apply, card by card; from cuts anywhere, mid-trick included. Same draws,
    same cards, events, captures and the same stream left behind."""
    from analyser.engine.bits import random_card
    from analyser.engine.layout import PS_CAPTURED, PS_HAND, PS_JACK_CAPTOR, PS_PLAYED

    rules = make_rules(preset, players=players, settings=settings)
    rules_array = rules.as_array()
    kinds, params = seat_policies(["random"], players)
    rnd = random.Random(5)
    checked = 0
    for _, (*_, after), state in states_at_start_of_play(rules, 120, 12, kinds, params):
        plays = [parse_card(e["card"]) for e in after if e["event"] == "play"]
        for card in plays[:rnd.randrange(len(plays) + 1)]:
            apply(state, card)
        seed = np.array([rnd.getrandbits(64) for _ in range(4)], dtype=np.uint64)
        reference, fast = state.copy(), state.copy()
        ref_rng, fast_rng = seed.copy(), seed.copy()
        ref_events = []
        while not is_over(reference):
            seat = int(reference[PS_TO_PLAY])
            card = random_card(ref_rng, legal(reference))
            ref_events.append({"event": "play", "seat": seat, "card": card})
            w = apply(reference, card)
            if w >= 0:
                ref_events.append({"event": "trick", "winner": int(w)})
        ev = np.zeros((512, 4), dtype=np.int64)
        info = np.zeros(N_INFO, dtype=np.int64)
        playout(fast, rules_array, kinds, params, fast_rng, ev, info)
        rest = events_to_json(ev[: info[I_EVENTS]], players)
        assert [(e["event"], e.get("seat", e.get("winner"))) for e in rest] == [
            (e["event"], e.get("seat", e.get("winner"))) for e in ref_events]
        assert [parse_card(e["card"]) for e in rest if e["event"] == "play"] == [
            e["card"] for e in ref_events if e["event"] == "play"]
        assert (fast_rng == ref_rng).all()
        for field in [PS_TRICK_NO, PS_TO_PLAY, PS_LED, PS_PLAYED, PS_JACK_CAPTOR, *range(PS_HAND, PS_HAND + 4),
                      *range(PS_CAPTURED, PS_CAPTURED + 4)]:
            assert fast[field] == reference[field], field
        checked += 1
    assert checked > 80
