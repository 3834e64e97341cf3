"""Static bounds: what a position can be worth whatever is played, found without searching it.

``bounds``: in net points (the three-player search's objective, and the range a solve starts from): every
card still out given to one side, then to the other(s). ``_node_bounds``: in the two-sided tests' objective
(card points captured from the test's root, the jack of trump worth w more), sharper: a trump above every
trump the other side still has wins its trick for its side, and the side on lead may draw trumps and cash.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import GAME_VALUE, bit, cards_above, game_points, highest_card, popcount, side_of, suit_mask
from ..layout import PS_CAPTURED, PS_HAND, PS_JACK_CAPTOR, PS_PLAYERS, PS_TO_PLAY, PS_TRICK_CARD, PS_TRUMP
from .context import C_DEALER_SIDE, C_FIXED, C_JACK, C_JACK_HI, C_JACK_LO, C_MODE, C_NSIDES, C_PERSP_SIDE, C_TIE, C_W, LOW_CARDS
from .value import _game_term, _jack_term, _out_mask, game_winner


@njit(cache=True, _nrt=False)
def bounds(state, ctx):
    """(least, most) the position can be worth to the perspective side, whatever is played:
    every card still out given to one side, then to the other(s)."""
    nsides = ctx[C_NSIDES]
    ps = ctx[C_PERSP_SIDE]
    lo = ctx[C_FIXED]
    hi = lo
    if ctx[C_JACK] >= 0:
        captor = state[PS_JACK_CAPTOR]
        if captor >= 0:
            j = _jack_term(captor, ctx)
            lo += j
            hi += j
        else:
            lo += ctx[C_JACK_LO]
            hi += ctx[C_JACK_HI]
    rest = game_points(_out_mask(state))
    t0 = game_points(np.uint64(state[PS_CAPTURED]))
    t1 = game_points(np.uint64(state[PS_CAPTURED + 1]))
    if nsides == 2:
        if ps == 0:
            hi += _game_term(t0 + rest, t1, 0, ctx)
            lo += _game_term(t0, t1 + rest, 0, ctx)
        else:
            hi += _game_term(t0, t1 + rest, 0, ctx)
            lo += _game_term(t0 + rest, t1, 0, ctx)
        return lo, hi
    t2 = game_points(np.uint64(state[PS_CAPTURED + 2]))
    # Three sides: Game is +1 (the perspective side's), 0 (nobody's) or -1 (another's).
    tp = t0 if ps == 0 else (t1 if ps == 1 else t2)
    sure_win = True
    sure_loss = False
    for o in range(3):
        if o == ps:
            continue
        to = t0 if o == 0 else (t1 if o == 1 else t2)
        if tp <= to + rest:
            sure_win = False
        q = 3 - ps - o
        tq = t0 if q == 0 else (t1 if q == 1 else t2)
        if to > tp + rest and to > tq + rest:
            sure_loss = True
    if sure_win:
        return lo + 1, hi + 1
    if sure_loss:
        return lo - 1, hi - 1
    can_win = game_winner(t0 + (rest if ps == 0 else 0), t1 + (rest if ps == 1 else 0),
                          t2 + (rest if ps == 2 else 0), 3, ctx[C_DEALER_SIDE], ctx[C_TIE]) == ps
    return lo - 1, hi + (1 if can_win else 0)



POINT_RANKS_CHEAPEST_FIRST = np.array([9, 10, 11, 12, 8], dtype=np.int64)  # J, Q, K, A, T


@njit(cache=True, _nrt=False, inline="always")
def _cheapest(cards, suit, k):
    """Game points of the `k` cheapest of `cards` (all of `suit`), or of all of them if fewer."""
    if k <= 0:
        return 0
    k -= popcount(cards & LOW_CARDS)  # the 2s-9s are worth nothing
    total = 0
    for r in POINT_RANKS_CHEAPEST_FIRST:
        if k <= 0:
            break
        if cards & bit(suit * 13 + r):
            total += GAME_VALUE[r]
            k -= 1
    return total


@njit(cache=True, _nrt=False, inline="always")
def _node_bounds(state, ctx, acc):
    if ctx[C_MODE] == 0:
        return bounds(state, ctx)
    # Mode 1: the perspective side takes none or all of the card points still out, the jack's w
    # counted if it is still to be captured.
    # A trump of one side above every trump of the other side still out (hands and trick, by
    # who holds or played it) wins the trick it is in: its card points are that side's.
    n = state[PS_PLAYERS]
    ps = ctx[C_PERSP_SIDE]
    mine = np.uint64(0)
    theirs = np.uint64(0)
    for s in range(n):
        h = np.uint64(state[PS_HAND + s])
        c = state[PS_TRICK_CARD + s]
        if c >= 0:
            h |= bit(c)
        if side_of(s, n) == ps:
            mine |= h
        else:
            theirs |= h
    out = mine | theirs
    tm = suit_mask(state[PS_TRUMP])
    sure_mine = np.uint64(0)
    sure_theirs = np.uint64(0)
    if mine & tm:
        if theirs & tm:
            top = highest_card(theirs & tm)
            sure_mine = mine & tm & cards_above(top)
            top = highest_card(mine & tm)
            sure_theirs = theirs & tm & cards_above(top)
        else:
            sure_mine = mine & tm
    else:
        sure_theirs = theirs & tm
    rest = game_points(out)
    lo = acc + game_points(sure_mine)
    hi = acc + rest - game_points(sure_theirs)
    # The leader's side may draw trumps and cash: the leader's trumps above every other trump out
    # win a trick each and keep the lead, and every other seat holding trump must play one to each;
    # if that leaves the other side without trumps, every trump of the leader's side wins its trick
    # whenever played, and the leader's cards at the top of a plain suit win one after another. Each
    # seat of the other side gives up at least its cheapest cards of each suit, as many as the leader
    # leads of it (or all it has: what it has run out of went to those tricks already).
    jack = ctx[C_JACK]
    jack_out = jack >= 0 and (out & bit(jack)) != 0
    leader = state[PS_TO_PLAY]
    lside = side_of(leader, n)
    lead_hand = np.uint64(state[PS_HAND + leader])
    trump = state[PS_TRUMP]
    run = 0
    if lead_hand & tm:
        above = out & tm & ~lead_hand
        run = popcount(lead_hand & tm & cards_above(highest_card(above))) if above else popcount(lead_hand & tm)
    drawn = True
    forced_jack = False
    forced = 0
    for o in range(n):
        ts = np.uint64(state[PS_HAND + o]) & tm
        if side_of(o, n) != lside and ts:
            if popcount(ts) > run:
                drawn = False
            elif jack_out and ts & bit(jack):
                forced_jack = True
            forced += _cheapest(ts, trump, run)
    if drawn:
        side_x = mine if lside == ps else theirs
        forced += game_points(side_x & tm & ~(sure_mine if lside == ps else sure_theirs))
        forced_jack = jack_out
        # A partner left with trumps could have to trump a top card (without the led suit, holding only
        # trumps or under void_play = trump) and take the lead: only cash when the drawing took them all.
        cash = True
        for o in range(n):
            if o != leader and side_of(o, n) == lside and popcount(np.uint64(state[PS_HAND + o]) & tm) > run:
                cash = False
        for suit in range(4):
            if suit == trump or not cash:
                continue
            k = 0
            m = out & suit_mask(suit)
            while m and (lead_hand & bit(highest_card(m))):
                top = highest_card(m)
                forced += GAME_VALUE[top % 13]
                m &= ~bit(top)
                k += 1
            if k > 0:
                for o in range(n):
                    if side_of(o, n) != lside:
                        forced += _cheapest(np.uint64(state[PS_HAND + o]) & suit_mask(suit), suit, k)
    w = ctx[C_W]
    jack_lo = 0
    jack_hi = 0
    if jack_out:
        jb = bit(jack)
        if sure_mine & jb:
            jack_lo, jack_hi = w, w
        elif not (sure_theirs & jb):
            jack_lo, jack_hi = min(0, w), max(0, w)
    # Drawing trumps is the leader's side's choice: it bounds the position on that side's behalf only.
    if lside == ps:
        return max(lo + jack_lo, lo + forced + (w if forced_jack else jack_lo)), hi + jack_hi
    return lo + jack_lo, min(hi + jack_hi, hi - forced + (0 if forced_jack else jack_hi))
