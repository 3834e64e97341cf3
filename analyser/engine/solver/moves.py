"""Move ordering: the legal cards of the seat to move, one per class of equivalent cards, best-looking first.

Two legal cards of one suit with no card between them among the cards still out (the hands and the current
trick) and the same Game points (10=10, A=4, K=3, Q=2, J=1, others 0) lead to the same values, so only the
top of such a run is searched (``searched_cards``, ``representative``); the jack of trump is equivalent to
nothing. ``order_moves`` says which card is tried first and why.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bits import GAME_VALUE, U1, bit, cards_above, game_points, highest_card, lowest_card, next_seat, popcount, side_of, suit_mask
from ..layout import PS_BEST_CARD, PS_BEST_SEAT, PS_HAND, PS_LED, PS_PLAYERS, PS_TO_PLAY, PS_TRICK_MASK, PS_TRUMP
from ..state import legal
from .context import C_HIST, C_KILLER, C_KILLER2
from .value import _out_mask


@njit(cache=True, _nrt=False, inline="always")
def _same_as_next(card, legal_cards, out, jack):
    """The legal card that `card` is equivalent to (the next higher card out in its suit, if
    legal, of the same Game points, neither the jack of trump), or -1."""
    if card == jack:
        return -1
    above = out & suit_mask(card // 13) & cards_above(card)
    if not above:
        return -1
    h = lowest_card(above)
    if h == jack or not (legal_cards & bit(h)) or GAME_VALUE[h % 13] != GAME_VALUE[card % 13]:
        return -1
    return h


@njit(cache=True, _nrt=False)
def representative(card, legal_cards, out, jack):
    """The card searched for `card`: the top of its run of equivalent legal cards."""
    while True:
        h = _same_as_next(card, legal_cards, out, jack)
        if h < 0:
            return card
        card = h


@njit(cache=True, _nrt=False, inline="always")
def searched_cards(legal_cards, out, jack):
    """The cards of `legal_cards` that are searched: each the top of its run of equivalent legal cards."""
    searched = np.uint64(0)
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        if _same_as_next(c, legal_cards, out, jack) < 0:
            searched |= bit(c)
    return searched


@njit(cache=True, _nrt=False, inline="always")
def beaters_of(best, led, trump):
    """The cards that would take a trick from `best`, the card winning it, `led` the suit led (as
    ``state.beats`` rules: a higher trump; if `best` is no trump, any trump or a higher card of its suit,
    which is the suit led)."""
    tm = suit_mask(trump)
    if best // 13 == trump:
        return tm & cards_above(best)
    return tm | (suit_mask(led) & cards_above(best))


# Exact solves (measured on 9-card deals: docs/solver.md, "The followers' order" and "The leads"): a
# follower first overtakes a partner's card that the other side can beat, with a card they cannot, when
# the trick holds at least OVERTAKE_POINTS card points (the jack of trump counting one more); a lead of a
# side suit that a seat of the other side is void in while holding trumps goes RUFFED_LEAD lower; a card
# at the top of its suit gets no bonus, so the trumps are led first.
OVERTAKE_POINTS = 6
RUFFED_LEAD = 100


@njit(cache=True, _nrt=False)
def order_moves(state, moves, d, first, jack, ctx, exact):
    """The legal cards of the seat to move, one per class of equivalent cards, best-looking first,
    into moves[d]; `first` (a card, or -1) goes first. Returns how many. `exact`: the order measured best
    for exact solves (OVERTAKE_POINTS, RUFFED_LEAD, trumps led first), else the one that limited solves
    (pimc's try at an exact answer within a node budget: where it gives up, and every search player's
    card, stay the same) and the first guess have always used."""
    legal_cards = legal(state)
    out = _out_mask(state)
    seat = state[PS_TO_PLAY]
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    led = state[PS_LED]
    best_card = state[PS_BEST_CARD]
    mine = side_of(seat, n)
    partner_wins = led >= 0 and side_of(state[PS_BEST_SEAT], n) == mine
    beaters = beaters_of(best_card, led, trump) if led >= 0 else np.uint64(0)  # the cards that `beats` the best
    stands = partner_wins
    save_trick = False
    later = np.uint64(0)
    if partner_wins:
        # Does the partner's card stand? No seat still to play (all of the other side) holds a card that beats
        # it. If not, is the trick worth saving from them (exact solves only: see the docstring)?
        s = seat
        for _ in range(1, n - popcount(np.uint64(state[PS_TRICK_MASK]))):
            s = next_seat(s, n)
            later |= np.uint64(state[PS_HAND + s])
        stands = not (later & beaters)
        if exact and not stands:
            trick = np.uint64(state[PS_TRICK_MASK])
            save_trick = game_points(trick) + (1 if jack >= 0 and (trick & bit(jack)) else 0) >= OVERTAKE_POINTS
    ruffed = np.uint64(0)  # exact solves, leading: the side suits a seat of the other side is void in, holding trumps
    if exact and led < 0:
        tm = suit_mask(trump)
        for o in range(n):
            h = np.uint64(state[PS_HAND + o])
            if side_of(o, n) != mine and (h & tm):
                for su in range(4):
                    if su != trump and not (h & suit_mask(su)):
                        ruffed |= suit_mask(su)
    k = 0
    m = searched_cards(legal_cards, out, jack)
    while m:
        c = lowest_card(m)
        m &= m - U1
        rank = c % 13
        pts = GAME_VALUE[rank]
        if c == first:
            score = 1000
        elif led < 0:
            # Leading: the lead that last refuted a position at this ply (a "killer": the positions one
            # ply has are much alike), then (limited solves) cards no card out can beat in their suit, the
            # killer before the last one among them (+50), then trumps, then high cards. Exact solves give
            # the top cards no bonus, so every trump goes before every side card (docs/solver.md).
            top = not exact and highest_card(out & suit_mask(c // 13)) == c
            score = 200 + rank + (40 if top else 0) + (20 if c // 13 == trump else 0)
            if ruffed & bit(c):
                score -= RUFFED_LEAD  # a side suit the other side can trump
            if c == ctx[C_KILLER + d]:
                score += 100
            elif c == ctx[C_KILLER2 + d]:
                score += 50
        elif beaters & bit(c):
            if not partner_wins:
                score = 600 + 3 * pts - rank + (30 if c == jack else 0)
            elif save_trick and not (later & beaters_of(c, led, trump)):
                score = 500 + 3 * pts - rank  # the partner's trick saved by a card they cannot beat
            else:
                score = 100 - rank  # overtaking a partner: rarely right
        elif stands:
            score = 400 + 4 * pts + (30 if c == jack else 0) - rank
        else:
            score = 300 - 4 * pts - rank - (30 if c == jack else 0) - (20 if c // 13 == trump else 0)
        key = (score * 16384 + min(ctx[C_HIST + c], 16383)) * 64 + c
        # insertion, highest key first
        j = k
        while j > 0 and moves[d, j - 1] < key:
            moves[d, j] = moves[d, j - 1]
            j -= 1
        moves[d, j] = key
        k += 1
    for i in range(k):
        moves[d, i] &= 63
    return k


# --- the search ----------------------------------------------------------------------------
#
# Two objectives share one search. Mode 0 values a node in net points (`final_value`) and keys
# the table on the history the rest depends on (captured card points, the jack's captor): the
# three-player search. Mode 1 is the two-sided one: a question "is the value at least t?" is
# turned into "can the perspective side capture at least theta card points from here, counting
# the jack of trump as w more?" (`_test`), whose objective adds up trick by trick. Its table
# entries hold bounds on what is still to come, so they depend on nothing but the cards out,
# the seat to lead and w, whatever was captured on the way.
