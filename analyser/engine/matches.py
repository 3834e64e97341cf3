"""Whole matches, and duplicate pairs of them for tournaments.

A match cuts for the first dealer, then plays dealer turns (``play_line``) until a
side reaches the target. Every dealer turn takes its cards from its own stream,
seeded from the match's card stream, and starts from a fresh deck: so the k-th
deal of two copies of a match gets the same cards even when the players of the
copies begged, ran or redealt differently before it.

A duplicate pair plays one match twice from the same card and choice streams,
with the two policies swapping seats: what the cards favour, they favour for both.
Pair i of a tournament takes those streams from the run's two keys and i alone
(``bits.unit_stream``), so a tournament's pairs are the same however it is cut into
chunks, threads or workers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_PLAYERS
from .bits import next_u64, rand_below, unit_stream
from .deal import LINE_WORK, POLICY, SHUFFLED, play_line_in
from .search import needs_search, new_play_buffer
from .layout import I_WINNER, N_INFO, N_WHY

MAX_MATCH_LINES = 100_000  # a match that has not ended by then is given up (flagged, never silent)

# Columns of the per-pair results of play_pairs.
M_A_WINS = 0      # matches of the pair won by A (0, 1 or 2)
M_A_POINTS = 1    # points A scored, both matches
M_B_POINTS = 2
M_DEALS = 3       # dealer turns played, both matches
M_UNFINISHED = 4  # matches given up after MAX_MATCH_LINES
N_PAIR_COLS = 5


@njit(cache=True, _nrt=False)
def substream(rng, out):
    """Seed the 4-word stream `out` from the next words of `rng` (never all zero)."""
    for k in range(4):
        out[k] = next_u64(rng)
    if out[0] == 0 and out[1] == 0 and out[2] == 0 and out[3] == 0:
        out[0] = 1


@njit(cache=True, nogil=True)
def play_match(rules, kinds, params, deck_rng, rng, scores):
    """Play one match from a zero score; returns (winning side or -1, dealer turns).

    deck_rng gives the cut and every turn's card stream; rng the players' choices.
    Final scores are left in `scores` (one slot per side).
    """
    deck, line_rng, ev, info, pts, work, state = match_scratch(kinds)
    return play_match_in(rules, kinds, params, deck_rng, rng, scores, deck, line_rng, ev, info, pts, work, state)


@njit(cache=True)
def match_scratch(kinds):
    """The work arrays play_match_in needs (it allocates nothing itself)."""
    return (np.zeros(52, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros((0, 4), dtype=np.int64),
            np.zeros(N_INFO, dtype=np.int64), np.zeros((4, N_WHY), dtype=np.int64),
            np.zeros(LINE_WORK, dtype=np.uint64), new_play_buffer(needs_search(kinds)))


@njit(cache=True, nogil=True, _nrt=False)
def play_match_in(rules, kinds, params, deck_rng, rng, scores, deck, line_rng, ev, info, pts, work, state):
    """play_match with caller-owned scratch arrays (see match_scratch)."""
    n = rules[R_PLAYERS]
    for s in range(4):
        scores[s] = 0
    dealer = rand_below(deck_rng, n)
    for lines in range(1, MAX_MATCH_LINES + 1):
        substream(deck_rng, line_rng)
        for i in range(52):
            deck[i] = i
        play_line_in(rules, dealer, scores, deck, SHUFFLED, POLICY, POLICY, kinds, params, line_rng, rng, ev, info,
                     pts, work, state)
        if info[I_WINNER] >= 0:
            return info[I_WINNER], lines
        dealer = (dealer + 1) % n
    return -1, MAX_MATCH_LINES


@njit(cache=True, nogil=True)
def play_pairs(rules, first, n_pairs, kinds_ab, params_ab, kinds_ba, params_ba, card_key, choice_key, out):
    """Play the duplicate pairs first .. first + n_pairs - 1 of a tournament; row i of `out` gets pair
    first + i's M_* results.

    Pair j's card stream is ``unit_stream(card_key, j)``, its choice stream ``unit_stream(choice_key, j)``
    (the keys: ``bits.unit_keys``), whatever chunk it is played in.
    `*_ab` seat A on side 0 (even seats) and B on side 1; `*_ba` the other way round.
    """
    deck, line_rng, ev, info, pts, work, state = match_scratch(kinds_ab)
    pair_deck = np.zeros(4, dtype=np.uint64)
    pair_rng = np.zeros(4, dtype=np.uint64)
    match_deck = np.zeros(4, dtype=np.uint64)
    match_rng = np.zeros(4, dtype=np.uint64)
    scores = np.zeros(4, dtype=np.int64)
    for i in range(n_pairs):
        unit_stream(card_key, first + i, pair_deck)
        unit_stream(choice_key, first + i, pair_rng)
        out[i, :] = 0
        for copy in range(2):
            match_deck[:] = pair_deck
            match_rng[:] = pair_rng
            a_side = copy  # A holds side 0 in the first copy, side 1 in the second
            if copy == 0:
                winner, lines = play_match_in(rules, kinds_ab, params_ab, match_deck, match_rng, scores,
                                              deck, line_rng, ev, info, pts, work, state)
            else:
                winner, lines = play_match_in(rules, kinds_ba, params_ba, match_deck, match_rng, scores,
                                              deck, line_rng, ev, info, pts, work, state)
            if winner == a_side:
                out[i, M_A_WINS] += 1
            if winner < 0:
                out[i, M_UNFINISHED] += 1
            out[i, M_A_POINTS] += scores[a_side]
            out[i, M_B_POINTS] += scores[1 - a_side]
            out[i, M_DEALS] += lines
