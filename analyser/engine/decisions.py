"""Kernels for judging one decision: conditioned deals, paired options, one-deal transitions.

``evaluate_decision`` samples the cards the decider cannot see, consistently with
what it knows, and plays every option on the same sampled deal with the same random
streams (common random numbers), so the options' difference has a small variance.
``sample_transitions`` plays many single deals from one score, for the match-equity
table (see ``analyser.analysis.equity``). ``play_out`` finishes a match.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..rules import R_KICK, R_PLAYERS, R_TARGET
from .bits import U1, bit, next_u64, rand_below
from .deal import HAND_SIZE, MAX_LINE_EVENTS, kick_points, play_line, side_of
from .layout import I_FIRST_KICK, I_WINNER, N_INFO, N_WHY
from .policies import decide_beg

# xoshiro256**'s jump polynomial: a jump moves a stream 2**128 steps ahead.
JUMP = np.array([0x180EC6D33CFD0ABA, 0xD5A61266F0C9392C, 0xA9582618E03FC9AA, 0x39ABDC4529B1661C], dtype=np.uint64)


@njit(cache=True)
def jump(s):
    """Advance the stream s (uint64[4]) by 2**128 draws, in place.

    A copy taken before the jump and the stream after it never overlap, so each
    sampled deal gets its own streams without a seed per deal.
    """
    t = np.zeros(4, dtype=np.uint64)
    for i in range(4):
        for b in range(64):
            if JUMP[i] & (U1 << np.uint64(b)):
                t ^= s
            next_u64(s)
    s[:] = t


@njit(cache=True)
def conditioned_deck(known, rest, deck_rng, pool, deck):
    """Fill `deck`: known[p] >= 0 stays at position p, the cards of `rest` go to the
    other positions in uniformly random order (Fisher-Yates in `pool`)."""
    m = rest.shape[0]
    pool[:] = rest
    for i in range(m - 1, 0, -1):
        j = rand_below(deck_rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    k = 0
    for p in range(52):
        if known[p] >= 0:
            deck[p] = known[p]
        else:
            deck[p] = pool[k]
            k += 1


@njit(cache=True)
def dealt_hand(deck, k):
    """Mask of the k-th hand dealt (seat (dealer + 1 + k) % n): deck[6k : 6k + 6]."""
    h = np.uint64(0)
    for p in range(HAND_SIZE * k, HAND_SIZE * (k + 1)):
        h |= bit(deck[p])
    return h


@njit(cache=True)
def play_out(rules, dealer, scores, deck, kinds, params, deck_rng, rng, info, pts):
    """Play on from a finished line (dealt by `dealer`) until a side wins; the winner."""
    n = rules[R_PLAYERS]
    ev = np.zeros((0, 4), dtype=np.int64)
    while True:
        dealer = (dealer + 1) % n
        play_line(rules, dealer, scores, deck, 0, -1, -1, kinds, params, deck_rng, rng, ev, info, pts)
        if info[I_WINNER] >= 0:
            return info[I_WINNER]


@njit(cache=True)
def equity_of(equity, scores, next_dealer_side, side):
    """P(`side` wins) from a two-side score before the next deal, from the table
    equity[a, b] = P(the dealer's side wins | dealer's side has a, the other b)."""
    other = 1 - side
    if side == next_dealer_side:
        return equity[scores[side], scores[other]]
    return 1.0 - equity[scores[other], scores[side]]


@njit(cache=True)
def net_points(pts, info, nsides, dside, mine):
    """The decider's side's points minus the others' (all others together), without
    the first turn-up's kick: it was scored before the decision."""
    total = 0
    for s in range(nsides):
        p = 0
        for w in range(N_WHY):
            p += pts[s, w]
        if s == dside:
            p -= info[I_FIRST_KICK]
        total += p if s == mine else -p
    return total


@njit(cache=True, nogil=True)
def evaluate_decision(rules, dealer, decider, scores, known, rest, force_beg, force_give, kinds, params,
                      equity, playout, deck_rng, rng, beg_rng, max_tries, net, win, first_deals):
    """Play `net.shape[0]` conditioned deals, every option on each; returns (deals done, deck samples tried).

    known: int64[52], the card at each deck position the decider knows, -1 elsewhere;
    rest: the other cards. When the dealer decides, the eldest has begged: a sampled
    deck is kept only if the eldest's policy begs with its hand (drawing from
    `beg_rng`, so rejection never shifts the paired streams). Option j forces the
    first beg/give to force_beg[j] / force_give[j]. Per deal i and option j:
    net[i, j] the decider's side's net points of the line; win[i, j] its match-win
    probability: 1/0 if the line ended the match, else the two-side table `equity`
    at the new score, or (playout=True) 1/0 from playing the match out.
    first_deals (rows > 0 to record): the first deal's hands by seat and the turn-up.
    Stops early, before `max_tries` samples are exceeded.
    """
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    n_deals, n_opt = net.shape
    eldest = (dealer + 1) % n
    dside = side_of(dealer, n)
    mine = side_of(decider, n)
    next_dside = side_of((dealer + 1) % n, n)
    turnup_pos = HAND_SIZE * n
    record = first_deals.shape[0] > 0
    ev = np.zeros((MAX_LINE_EVENTS if record else 0, 4), dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    pool = np.empty(rest.shape[0], dtype=np.int64)
    line_deck = np.empty(52, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    # The eldest begs after the turn-up's kick is scored: its policy sees that score.
    beg_scores = scores.copy()
    beg_scores[dside] += kick_points(rules[R_KICK], known[turnup_pos])
    tries = 0
    for i in range(n_deals):
        while True:
            if tries >= max_tries:
                return i, tries
            tries += 1
            conditioned_deck(known, rest, deck_rng, pool, deck)
            if decider != dealer:
                break
            if decide_beg(kinds[eldest], params[eldest], dealt_hand(deck, 0), deck[turnup_pos], eldest, dealer,
                          beg_scores, rules, beg_rng):
                break
        deal_deck_rng = deck_rng.copy()
        jump(deck_rng)
        deal_rng = rng.copy()
        jump(rng)
        for j in range(n_opt):
            line_deck[:] = deck
            dr = deal_deck_rng.copy()
            r = deal_rng.copy()
            sc[:] = scores
            play_line(rules, dealer, sc, line_deck, 52, force_beg[j], force_give[j], kinds, params, dr, r, ev,
                      info, pts)
            if record:
                for k in range(n):
                    first_deals[i, j, ev[1 + k, 1]] = ev[1 + k, 2]
                first_deals[i, j, n] = ev[1 + n, 1]
            net[i, j] = net_points(pts, info, nsides, dside, mine)
            w = info[I_WINNER]
            if w < 0 and playout:
                w = play_out(rules, dealer, sc, line_deck, kinds, params, dr, r, info, pts)
            if w >= 0:
                win[i, j] = 1.0 if w == mine else 0.0
            else:
                win[i, j] = equity_of(equity, sc, next_dside, mine)
    return n_deals, tries


@njit(cache=True, nogil=True)
def sample_transitions(rules, a, b, n_lines, kinds, params, deck_rng, rng, counts):
    """Play `n_lines` single deals dealt by seat 0 from the score (a, b) (seat 0's side first)
    and count how each ended: counts[a2 * T + b2] new score (a2, b2) below the target T,
    counts[T * T] the dealer's side won during the deal, counts[T * T + 1] the other side did."""
    target = rules[R_TARGET]
    deck = np.arange(52, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    ev = np.zeros((0, 4), dtype=np.int64)
    for _ in range(n_lines):
        sc[:] = 0
        sc[0] = a
        sc[1] = b
        play_line(rules, 0, sc, deck, 0, -1, -1, kinds, params, deck_rng, rng, ev, info, pts)
        w = info[I_WINNER]
        if w == 0:
            counts[target * target] += 1
        elif w == 1:
            counts[target * target + 1] += 1
        else:
            counts[sc[0] * target + sc[1]] += 1


@njit(cache=True, nogil=True)
def play_matches(rules, dealer, scores, n_matches, kinds, params, deck_rng, rng, wins):
    """Play `n_matches` matches from `scores` with `dealer` to deal next; wins[side] += matches won."""
    deck = np.arange(52, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    n = rules[R_PLAYERS]
    for _ in range(n_matches):
        sc[:] = scores
        w = play_out(rules, (dealer - 1 + n) % n, sc, deck, kinds, params, deck_rng, rng, info, pts)
        wins[w] += 1
