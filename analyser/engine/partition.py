"""Partition search for the open-hand solver: table entries that hold for a class of positions.

A table entry of ``solver.py`` is stored at a trick boundary with the bounds its search proved.
Most of those proofs never compare two of the low cards (the 2s to 9s, no card points) of a suit:
which of them wins a trick, or which may be played, is settled by the honours and the trumps above
them. Such an entry holds for every position that differs only in which low cards each hand holds
below the ranks that mattered, as long as every hand holds as many low cards of each suit. This is
Ginsberg's partition search (AAAI 1996) and the "winning ranks" of double-dummy bridge solvers (DDS,
``doc/Alg-dds_x.rtf``), with All Fours' card values kept apart: the ten, the honours and the jack of
trump are always part of the key (they carry points), only the low cards are generalised.

**Relevance.** A node's proof depends on the low cards of suit s at or above a rank r_s (absolute,
0 for the 2 up to 7 for the 9; 8: no low card of the suit). The low cards below r_s, the *small*
ones, are told apart only by suit and holder: the proof is the same for any permutation of them that
keeps each in its hand. Thresholds are packed a byte a suit (``REL_NONE``: no low card matters)
and only ever lowered, from:

* a completed trick (``trick_rel``): its winner, if a low card that beat another card of its suit;
  with undertrumping forbidden, every low trump in it (the top trump decides what later seats may
  play);
* the static bounds (``static_rel``): the others' best trump, which decides how many trumps the
  leader can draw with, and when the trumps are drawn each plain suit's top cards down to the first
  card not in the leader's hand (what ``solver._node_bounds`` looks at);
* a table entry that was used (its own thresholds, taken at this position's cards);
* the children searched (the lowest threshold of each suit);
* cards searched once for a run of equal cards (``equivalent_rel``): if the card searched (the
  top of the run) is relevant, the whole run must be, or another position could hold a small card
  between them.

**Key.** An entry's key is the hash of every hand's honours and tens and its count of low cards in
each suit (``shape_key``), combined with the holders of each suit's top k_s low cards out
(``solver.holders_key``), k_s the relevant ones at the node (stored in the entry): a probe recomputes the
second part with each candidate entry's k.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import U1, bit, highest_card, lowest_card, popcount, side_of, suit_mask

LOW_CARDS = np.uint64(sum(0xFF << (13 * s) for s in range(4)))  # the 2s to 9s: no card points
REL_NONE = 0x08080808  # no low card of any suit is relevant (a byte a suit)
LANE_TOP = 0x80808080


@njit(cache=True, _nrt=False, inline="always")
def rel_min(a, b):
    """The lower threshold of each suit (a byte each: b >= a where b + 128 - a keeps its top bit)."""
    t = ((b | LANE_TOP) - a) & LANE_TOP
    take_a = (t >> 7) * 0xFF
    return (a & take_a) | (b & ~take_a)


@njit(cache=True, _nrt=False, inline="always")
def mark(rel, card):
    """`rel` with `card` relevant (nothing changes for a ten or an honour: they are always in the key)."""
    r = card % 13
    if r >= 8:
        return rel
    s = card // 13
    if ((rel >> (8 * s)) & 255) > r:
        rel = (rel & ~(255 << (8 * s))) | (r << (8 * s))
    return rel


@njit(cache=True, _nrt=False)
def trick_rel(trick, trump, led, forbid):
    """Thresholds a completed trick (`trick`, its cards; `led` the suit led) depends on."""
    rel = REL_NONE
    tm = suit_mask(trump)
    trumps = trick & tm
    if trumps:
        w = highest_card(trumps)
    else:
        w = highest_card(trick & suit_mask(led))
    if w % 13 < 8 and popcount(trick & suit_mask(w // 13)) >= 2:
        rel = mark(rel, w)
    if forbid:
        low = trumps & LOW_CARDS
        if low:
            rel = mark(rel, lowest_card(low))
    return rel


@njit(cache=True, _nrt=False)
def static_rel(hands, n, leader, trump):
    """Thresholds the static bounds of a trick boundary (``solver._node_bounds``) may depend on
    (`hands`: the play state's hands). The sure trumps count only card points, and a low trump never
    decides whether a ten or an honour is above it, so they depend on no low card. The leader's run
    of top trumps is a count: it depends on the others' best trump if that is a low card. The top
    cards cashed (when the trumps are drawn and no partner keeps one) are counted too: each plain
    suit down to the first card not in the leader's hand."""
    rel = REL_NONE
    tm = suit_mask(trump)
    out = np.uint64(0)
    for s in range(n):
        out |= np.uint64(hands[s])
    lead_hand = np.uint64(hands[leader])
    above = out & tm & ~lead_hand
    run = 0
    if lead_hand & tm:
        if above:
            rel = mark(rel, highest_card(above))
            run = popcount(lead_hand & tm & ~((bit(highest_card(above)) << U1) - U1))
        else:
            run = popcount(lead_hand & tm)
    lside = side_of(leader, n)
    for o in range(n):
        ts = np.uint64(hands[o]) & tm
        if side_of(o, n) != lside and popcount(ts) > run:
            return rel  # the trumps are not drawn: nothing is cashed
    for o in range(n):
        if o != leader and side_of(o, n) == lside and popcount(np.uint64(hands[o]) & tm) > run:
            return rel  # a partner may have to trump a top card: nothing is cashed
    for suit in range(4):
        if suit == trump:
            continue
        m = out & suit_mask(suit)
        if not (lead_hand & m):
            continue
        while m and (lead_hand & bit(highest_card(m))):
            m &= ~bit(highest_card(m))
        if m:
            rel = mark(rel, highest_card(m))
        else:
            rel = mark(rel, lowest_card(out & suit_mask(suit)))
    return rel


@njit(cache=True, _nrt=False)
def equivalent_rel(rel, legal_cards, out):
    """`rel` lowered so that every run of equal low cards searched once (legal cards of one suit with no
    card out between them) is relevant as a whole when its top card is."""
    for suit in range(4):
        m = legal_cards & LOW_CARDS & suit_mask(suit)
        if popcount(m) < 2:
            continue
        r = (rel >> (8 * suit)) & 255
        # From the top down, so that a run made relevant reaches its lowest card.
        while m:
            c = highest_card(m)
            m &= ~bit(c)
            if c % 13 >= r:
                continue
            above = out & suit_mask(suit) & ~((bit(c) << U1) - U1)
            if above:
                h = lowest_card(above)
                if (legal_cards & bit(h)) and h % 13 < 8 and h % 13 >= r:
                    r = c % 13
        rel = (rel & ~(255 << (8 * suit))) | (r << (8 * suit))
    return rel


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, x):
    h = (h ^ np.uint64(x)) * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(31))


@njit(cache=True, _nrt=False)
def shape_key(hands, n):
    """Hash of every hand's tens and honours and its count of low cards in each suit."""
    h = np.uint64(0x2545F4914F6CDD1D)
    counts = np.uint64(0)
    for s in range(n):
        hand = np.uint64(hands[s])
        h = _mix(h, hand & ~LOW_CARDS)
        for suit in range(4):
            counts = (counts << np.uint64(4)) | np.uint64(popcount(hand & LOW_CARDS & suit_mask(suit)))
    return np.int64(_mix(h, counts))


@njit(cache=True, _nrt=False, inline="always")
def _top_low(out, k):
    """The top k_s low cards out of each suit (k packed four bits a suit)."""
    sel = np.uint64(0)
    for suit in range(4):
        m = out & LOW_CARDS & suit_mask(suit)
        for _ in range((k >> (4 * suit)) & 15):
            if not m:
                break
            c = highest_card(m)
            sel |= bit(c)
            m &= ~bit(c)
    return sel


@njit(cache=True, _nrt=False)
def rel_to_k(rel, out):
    """Thresholds (absolute ranks) as counts of the top low cards out of each suit."""
    k = 0
    for suit in range(4):
        r = (rel >> (8 * suit)) & 255
        if r < 8:
            m = out & LOW_CARDS & suit_mask(suit) & ~((bit(suit * 13 + r)) - U1)
            k |= popcount(m) << (4 * suit)
    return k


K_ALL = 0x8888  # every low card out: the exact position
K_ONE = 0x1111  # the top low card of each suit: always part of a key (it spreads the entries of one shape)


@njit(cache=True, _nrt=False, inline="always")
def k_floor(k):
    """k with at least the top low card of each suit."""
    for suit in range(4):
        if ((k >> (4 * suit)) & 15) == 0:
            k |= 1 << (4 * suit)
    return k


@njit(cache=True, _nrt=False)
def k_to_rel(k, out):
    """Counts of the top low cards out of each suit as thresholds at this position."""
    rel = REL_NONE
    for suit in range(4):
        c = (k >> (4 * suit)) & 15
        if c == 0:
            continue
        m = out & LOW_CARDS & suit_mask(suit)
        low = -1
        for _ in range(c):
            if not m:
                break
            low = highest_card(m)
            m &= ~bit(low)
        if low >= 0:
            rel = mark(rel, low)
    return rel
