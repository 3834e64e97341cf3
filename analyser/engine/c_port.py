"""The C reference (scripts/c_reference/allfours_random.c) translated line by line into numba.

It answers how close numba itself comes to C on the random figure's work, on the machine at hand:
``port_deals`` plays four players, trinidad, the eldest standing, no events, the random stream
seeded exactly as the C program seeds it (``Port``), so the same seed gives the C program's deals
and totals exactly (``same_as_c``). The few one-line helpers the engine has too (draw, beats,
kick_points, the n-th card) are the engine's. ``allfours bench --against-c`` times it between
the C program and the engine (``bench_c.run_against_c``); ``scripts/c_port_speed.py`` against C alone. Not
used by any analysis.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
from numba import njit

from .bits import U1, game_points, highest_card, nth_card, popcount, rand_below
from .deal import KICK_TRINIDAD, SHUFFLED, draw, kick_points
from .state import beats

BATCH = 2000  # deals between two looks at the clock, as the C program's speed-time mode

KICK, HIGH, LOW, JACK, HANG_JACK, GAME = range(6)
CATEGORIES = ["kick", "high", "low", "jack", "hang-jack", "game"]
TARGET = 14
MASK64 = (1 << 64) - 1


@njit(cache=True, _nrt=False)
def _award(scores, pts, side, n, cat):
    if n <= 0:
        return False
    scores[side] += n
    pts[side, cat] += n
    return scores[side] >= TARGET


@njit(cache=True, _nrt=False)
def _play_deal(rng, deck, scores, pts, hands, start, dealer):
    """allfours_random.c's play_deal: the side that reached the target, or -1."""
    pts[:, :] = 0
    eldest = (dealer + 1) & 3
    dside = dealer & 1
    pos = 0
    for k in range(4):
        h = np.uint64(0)
        for _ in range(6):
            h |= U1 << np.uint64(draw(deck, pos, SHUFFLED, rng))
            pos += 1
        hands[(eldest + k) & 3] = h
    turnup = draw(deck, pos, SHUFFLED, rng)
    if _award(scores, pts, dside, kick_points(KICK_TRINIDAD, turnup), KICK):
        return dside
    trump = turnup // 13
    tmask = np.uint64(0x1FFF) << np.uint64(13 * trump)
    jack_bit = U1 << np.uint64(trump * 13 + 9)
    in_play = np.uint64(0)
    for s in range(4):
        start[s] = hands[s]
        in_play |= hands[s] & tmask
    captured0 = np.uint64(0)
    captured1 = np.uint64(0)
    leader = eldest
    jack_captor = -1
    for _ in range(6):
        seat = leader
        h = hands[seat]
        card = nth_card(h, rand_below(rng, popcount(h)))
        hands[seat] = h & ~(U1 << np.uint64(card))
        trick = U1 << np.uint64(card)
        led = card // 13
        best = card
        best_seat = seat
        led_mask = np.uint64(0x1FFF) << np.uint64(13 * led)
        for _ in range(3):
            seat = (seat + 1) & 3
            h = hands[seat]
            if led == trump:
                legal = h & tmask
                if legal == 0:
                    legal = h
            else:
                follow = h & led_mask
                legal = (follow | (h & tmask)) if follow != 0 else h
            card = nth_card(legal, rand_below(rng, popcount(legal)))
            hands[seat] = h & ~(U1 << np.uint64(card))
            trick |= U1 << np.uint64(card)
            if beats(card, best, led, trump):
                best = card
                best_seat = seat
        if best_seat & 1:
            captured1 |= trick
        else:
            captured0 |= trick
        if trick & jack_bit:
            jack_captor = best_seat & 1
        leader = best_seat
    if in_play != 0:
        high = U1 << np.uint64(highest_card(in_play))
        low = in_play & (~in_play + U1)
        for s in range(4):
            if start[s] & high and _award(scores, pts, s & 1, 1, HIGH):
                return s & 1
        for s in range(4):
            if start[s] & low and _award(scores, pts, s & 1, 1, LOW):
                return s & 1
    if in_play & jack_bit:
        holder = -1
        for s in range(4):
            if start[s] & jack_bit:
                holder = s & 1
        if holder != jack_captor:
            if _award(scores, pts, jack_captor, 3, HANG_JACK):
                return jack_captor
        elif _award(scores, pts, jack_captor, 1, JACK):
            return jack_captor
    g0 = game_points(captured0)
    g1 = game_points(captured1)
    if g0 != g1:
        side = 0 if g0 > g1 else 1
        if _award(scores, pts, side, 1, GAME):
            return side
    return -1


@njit(cache=True, _nrt=False)
def port_deals(rng, deck, scores, pts, hands, start, match, totals, n):
    """allfours_random.c's play_deals: n deals as matches; totals[0] matches, [1] deals,
    [2 + c] the dealer's side's points of category c, [8 + c] the other side's."""
    for _ in range(n):
        if match[1]:
            match[0] = rand_below(rng, 4)
            match[1] = 0
            scores[0] = 0
            scores[1] = 0
        dealer = match[0]
        if _play_deal(rng, deck, scores, pts, hands, start, dealer) >= 0:
            match[1] = 1
            totals[0] += 1
        else:
            match[0] = (dealer + 1) & 3
        dside = dealer & 1
        for c in range(6):
            totals[2 + c] += pts[dside, c]
            totals[8 + c] += pts[dside ^ 1, c]
        totals[1] += 1


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


class Port:
    """The translation's state, seeded as the C program's init_game seeds its own."""

    def __init__(self, seed: int) -> None:
        words = []
        x = seed
        for _ in range(4):
            x, w = _splitmix64(x)
            words.append(w)
        self.rng = np.array(words, dtype=np.uint64)
        self.deck = np.arange(52, dtype=np.int64)
        self.scores = np.zeros(2, dtype=np.int64)
        self.pts = np.zeros((2, 6), dtype=np.int64)
        self.hands = np.zeros(4, dtype=np.uint64)
        self.start = np.zeros(4, dtype=np.uint64)
        self.match = np.array([0, 1], dtype=np.int64)
        self.totals = np.zeros(14, dtype=np.int64)

    def play(self, n: int) -> None:
        port_deals(self.rng, self.deck, self.scores, self.pts, self.hands, self.start, self.match, self.totals, n)

    def as_c_totals(self) -> dict[str, object]:
        t = [int(v) for v in self.totals]
        return {"deals": t[1], "matches": t[0], "dealer": dict(zip(CATEGORIES, t[2:8])),
                "other": dict(zip(CATEGORIES, t[8:14]))}


def same_as_c(c_totals: dict[str, Any], deals: int, seed: int) -> bool:
    """True if the translation, seeded with `seed`, gives the C program's `c_totals` over `deals` deals exactly."""
    port = Port(seed)
    port.play(deals)
    mine = port.as_c_totals()
    return all(mine[k] == c_totals[k] for k in ("deals", "matches", "dealer", "other"))


def port_deals_per_second(seconds: float, seed: int = 0) -> float:
    """The translation's deals per second over batches of 2000 deals for `seconds` (compilation excluded)."""
    port = Port(seed)
    port.play(10)  # compile (or load the cache) before the clock starts
    played = 0
    begin = time.perf_counter()
    deadline = begin + seconds
    while True:
        port.play(BATCH)
        played += BATCH
        now = time.perf_counter()
        if now >= deadline:
            return played / (now - begin)
