"""The last tricks in one call (two-sided tests, mode 1): four players, two sides.

One card each: the last trick plays itself (``_last_trick``). Two cards each at a trick boundary
(``_ending4``) and three cards each, after the table and the bounds (``_ending3``), are searched here by
alpha-beta over the first trick's lines of play (``_first_trick``), without the table's and the general
search's cost at every card: two cards each then end with the last trick (``_last_of_four``), three cards
each with the two-card ending (``_ending_hands``). The search calls them for exact solves only (no node
limit); there they measured faster than the node-by-node search (docs/solver.md). A limited solve keeps the
general search there, so its node count, and where it gives up, do not change.

Values are the perspective side's (the objective gained since the test's root, from `acc`), fail-soft in
the window (alpha, beta). In the first trick's search the leader's side maximises u = v (when it is the
perspective side, `mine`) or u = -v.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import bit, game_points, lowest_card, side_of, suit_mask
from ..layout import PS_FORBID, PS_HAND, PS_PLAYERS, PS_TO_PLAY, PS_TRUMP, PS_VOID_TRUMP
from ..state import beats, legal_mask
from .context import C_JACK, C_PERSP_SIDE, C_W, INF
from .moves import _same_as_next, beaters_of


@njit(cache=True, _nrt=False, inline="always")
def _worth(cards, jack, w):
    """Mode 1: what capturing `cards` is worth, their Game points and the jack of trump's w."""
    return game_points(cards) + (w if jack >= 0 and (cards & bit(jack)) else 0)


@njit(cache=True, _nrt=False, inline="always")
def _last_trick(state, ctx, acc):
    """Mode 1, one card in every hand: the last trick plays itself (a lone card is always legal)."""
    n = state[PS_PLAYERS]
    leader = state[PS_TO_PLAY]
    trump = state[PS_TRUMP]
    best_card = lowest_card(np.uint64(state[PS_HAND + leader]))
    best_seat = leader
    led = best_card // 13
    trick = bit(best_card)
    for k in range(1, n):
        s = (leader + k) % n
        c = lowest_card(np.uint64(state[PS_HAND + s]))
        trick |= bit(c)
        if beats(c, best_card, led, trump):
            best_card, best_seat = c, s
    if side_of(best_seat, n) != ctx[C_PERSP_SIDE]:
        return np.int64(acc)
    return np.int64(acc + _worth(trick, ctx[C_JACK], ctx[C_W]))


@njit(cache=True, _nrt=False, inline="always")
def _last_of_four(h0, h1, h2, h3, mine, trump, forbid, void_trump, jack, w, acc, alpha, beta):
    """The last trick of four players, one card each, h0 the leader's (`mine`: its side is the perspective
    side): the value (exact; the window is not needed)."""
    hands = (h0, h1, h2, h3)
    best_card = lowest_card(h0)
    win = 0
    led = best_card // 13
    for k in range(1, 4):
        c = lowest_card(hands[k])
        if beats(c, best_card, led, trump):
            best_card, win = c, k
    return np.int64(acc + _worth(h0 | h1 | h2 | h3, jack, w)) if ((win & 1) == 0) == mine else np.int64(acc)


@njit(cache=True, _nrt=False, inline="always")
def _next_card(m, take):
    """The card of `m` tried next: the lowest of those in `take` (the ones wanted first), else the lowest; and
    `m` without it."""
    c = lowest_card(m & take) if m & take else lowest_card(m)
    return c, m & ~bit(c)


@njit(cache=True, _nrt=False, inline="always")
def _played(c, best_card, win, k, top, led, trump):
    """The trick after the k-th seat plays c: the card winning it, its seat (0: the leader) and the top trump."""
    if beats(c, best_card, led, trump):
        best_card, win = c, k
    return best_card, win, (c if c // 13 == trump and c > top else top)


@njit(cache=True, _nrt=False, inline="always")
def _first_trick(h0, h1, h2, h3, mine, trump, forbid, void_trump, jack, w, acc, alpha, beta, first, lead_trumps,
                 skip_equal, ending):
    """(value, best lead) of four players' ending at a trick boundary, h0 the leader's hand, h1-h3 the next
    seats' (`mine`: the leader's side is the perspective side): alpha-beta over the first trick's lines of play,
    each follower's cards that take the trick first unless its partner is winning it, and `ending(the hands left
    from the trick's winner on, ...)` after each line. Leads: `first` first (a card, or -1), then the trumps if
    `lead_trumps` (as the search leads them, `order_moves`), then the lowest. `skip_equal`: equal cards
    (``moves._same_as_next``) once."""
    out = h0 | h1 | h2 | h3
    a0 = alpha if mine else -beta
    b0 = beta if mine else -alpha
    best0 = -INF
    best_lead = -1
    # The leads, in their order: `first`, then the trumps (or nothing), then the rest.
    take0 = bit(first) if first >= 0 else np.uint64(0)
    trumps0 = suit_mask(trump) if lead_trumps else np.uint64(0)
    m0 = h0
    while m0:
        c0, m0 = _next_card(m0, take0 if m0 & take0 else trumps0)
        if skip_equal and _same_as_next(c0, h0, out, jack) >= 0:
            continue
        led = c0 // 13
        top0 = c0 if led == trump else -1
        a1 = max(a0, best0)
        best1 = INF
        legal1 = legal_mask(h1, led, trump, top0, forbid, void_trump)
        m1 = legal1
        while m1:
            c1, m1 = _next_card(m1, beaters_of(c0, led, trump))
            if skip_equal and _same_as_next(c1, legal1, out, jack) >= 0:
                continue
            best_card1, win1, top1 = _played(c1, c0, 0, 1, top0, led, trump)
            b2 = min(b0, best1)
            best2 = -INF
            legal2 = legal_mask(h2, led, trump, top1, forbid, void_trump)
            m2 = legal2
            take2 = beaters_of(best_card1, led, trump)
            while m2:
                c2, m2 = _next_card(m2, take2 if win1 == 1 else ~take2)
                if skip_equal and _same_as_next(c2, legal2, out, jack) >= 0:
                    continue
                best_card2, win2, top2 = _played(c2, best_card1, win1, 2, top1, led, trump)
                a3 = max(a1, best2)
                best3 = INF
                legal3 = legal_mask(h3, led, trump, top2, forbid, void_trump)
                m3 = legal3
                take3 = beaters_of(best_card2, led, trump)
                while m3:
                    c3, m3 = _next_card(m3, take3 if win2 != 1 else ~take3)
                    if skip_equal and _same_as_next(c3, legal3, out, jack) >= 0:
                        continue
                    win = 3 if beats(c3, best_card2, led, trump) else win2
                    trick = bit(c0) | bit(c1) | bit(c2) | bit(c3)
                    wins = ((win & 1) == 0) == mine  # the trick's winner's side is the perspective side
                    rest = (h0 & ~bit(c0), h1 & ~bit(c1), h2 & ~bit(c2), h3 & ~bit(c3))
                    ub = min(b2, best3)  # the ending's window, in v
                    v = ending(rest[win], rest[(win + 1) & 3], rest[(win + 2) & 3], rest[(win + 3) & 3], wins, trump,
                               forbid, void_trump, jack, w, acc + (_worth(trick, jack, w) if wins else 0),
                               a3 if mine else -ub, ub if mine else -a3)
                    best3 = min(best3, v if mine else -v)
                    if best3 <= a3:
                        break
                best2 = max(best2, best3)
                if best2 >= b2:
                    break
            best1 = min(best1, best2)
            if best1 <= a1:
                break
        if best1 > best0:
            best0, best_lead = best1, c0
        if best0 >= b0:
            break
    return (np.int64(best0) if mine else np.int64(-best0)), best_lead


@njit(cache=True, _nrt=False, inline="always")
def _ending_hands(h0, h1, h2, h3, mine, trump, forbid, void_trump, jack, w, acc, alpha, beta):
    """Four players with two cards each at a trick boundary (as `_first_trick`): the value, the last trick
    playing itself after each line of the first (the first trick's winner leads its lone card)."""
    if w >= 0 or jack < 0 or not ((h0 | h1 | h2 | h3) & bit(jack)):
        # Nothing is worth less than nothing: the value lies between acc (the perspective side takes no trick
        # of value) and acc + what both tricks are worth (it takes all).
        total = _worth(h0 | h1 | h2 | h3, jack, w)
        if acc >= beta or total == 0:
            return np.int64(acc)
        if acc + total <= alpha:
            return np.int64(acc + total)
    return _first_trick(h0, h1, h2, h3, mine, trump, forbid, void_trump, jack, w, acc, alpha, beta, -1, False,
                        False, _last_of_four)[0]


@njit(cache=True, _nrt=False, inline="always")
def _leader_first(state):
    """The four hands of `state` from the seat to lead on, and the seat."""
    leader = state[PS_TO_PLAY]
    return (np.uint64(state[PS_HAND + leader]), np.uint64(state[PS_HAND + ((leader + 1) & 3)]),
            np.uint64(state[PS_HAND + ((leader + 2) & 3)]), np.uint64(state[PS_HAND + ((leader + 3) & 3)]), leader)


@njit(cache=True, _nrt=False)
def _ending4(state, ctx, acc, alpha, beta):
    """`_ending_hands` on `state` (mode 1, four players with two cards each, a trick boundary)."""
    h0, h1, h2, h3, leader = _leader_first(state)
    return _ending_hands(h0, h1, h2, h3, (leader & 1) == ctx[C_PERSP_SIDE], state[PS_TRUMP], state[PS_FORBID] != 0,
                         state[PS_VOID_TRUMP] != 0, ctx[C_JACK], ctx[C_W], acc, alpha, beta)


@njit(cache=True, _nrt=False)
def _ending3(state, ctx, acc, alpha, beta, first):
    """Mode 1, four players with three cards each at a trick boundary: (value, best lead), by `_first_trick`
    with the two-card ending after each line (the lead `first` first, if it is one, then the trumps; equal
    cards once)."""
    h0, h1, h2, h3, leader = _leader_first(state)
    return _first_trick(h0, h1, h2, h3, (leader & 1) == ctx[C_PERSP_SIDE], state[PS_TRUMP], state[PS_FORBID] != 0,
                        state[PS_VOID_TRUMP] != 0, ctx[C_JACK], ctx[C_W], acc, alpha, beta, first, True, True,
                        _ending_hands)
