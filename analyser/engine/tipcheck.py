"""Kernels that measure the Spanish-language guide's play advice (``tips.py``) on duplicated deals and matches.

* ``tip_deals``: single deals from one score, the dealer the last seat. Each deal is
  played, for every tip and every seating (the tip's side on side 0, then side 1, ...),
  once with the tip switched on and once switched off for that side, the other
  side(s) unchanged, all from copies of the same card and choice streams (common
  random numbers). Per deal, tip and seating: the tip side's net points (its points
  minus the others', every point of the line) with the tip on and off, and whether
  the two plays differ at all (a card or a decision changed).
* ``tip_matches``: whole matches the same way (``matches.play_match_in``; every dealer
  turn of a match takes its own card stream, so the k-th deals of the copies get the
  same cards): per match, tip and setting, the matches the tip side won over its
  seatings, and the dealer turns played.
* ``observe_tips``: deals played by one policy at every seat, replayed card by card
  from the log: per tip, how often its situation arose and how often the card (or the
  dealer's decision) was the tip's. The replay reads only the log, so any card player
  can be observed. Deal i of a run draws its cards and choices from its own streams
  (``bits.unit_stream`` of the run's two keys and i), so the counts of a run do not
  depend on how its deals are cut into chunks.

The state argument is the play buffer the seats' policies need (a play state of
``N_STATE`` words, longer for the search players), allocated by the caller.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_PLAYERS
from .bits import bit, unit_stream
from .deal import LINE_WORK, MAX_LINE_EVENTS, POLICY, SHUFFLED, play_line_in
from .layout import (
    E_DEAL, E_GIVE, E_HAND, E_PLAY, E_RUN, E_TURNUP, EV_A, EV_B, EV_TYPE, I_EVENTS, I_PLAYED, N_EV_COLS,
    N_INFO, N_STATE, N_WHY, PS_SCORE, PS_START, PS_TRUMP, PS_TURNUP,
)
from .matches import play_match_in, substream
from .state import apply, init_state, legal
from .tips import N_CARD_TIPS, TIP_RUN_STRONG_SIDE, strong_side_suit, tip_masks

# Columns of tip_deals' out[deal, tip, seating, :].
TD_NET_ON = 0
TD_NET_OFF = 1
TD_CHANGED = 2
N_TD_COLS = 3
# Columns of tip_matches' out[match, tip, setting, :] (setting 0: on, 1: off).
TM_WINS = 0        # matches the tip side won, over its seatings
TM_DEALS = 1       # dealer turns played, over its seatings
TM_UNFINISHED = 2  # matches given up after MAX_MATCH_LINES
N_TM_COLS = 3
# Columns of observe_tips' counts[tip, :].
TO_SITUATIONS = 0
TO_FOLLOWED = 1
N_TO_COLS = 2


@njit(cache=True)
def deal_scratch():
    """The work arrays one played deal needs, shared by the duplicated-deal kernels (here and ``rundeals``):
    deck int64[52]; the deal's two streams as drawn (deal_deck, deal_rng) and the copies a play consumes
    (dr, r), uint64[4] each; scores int64[4]; info int64[N_INFO]; pts int64[4, N_WHY]; work uint64[LINE_WORK]."""
    return (np.zeros(52, dtype=np.int64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64),
            np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.int64),
            np.zeros(N_INFO, dtype=np.int64), np.zeros((4, N_WHY), dtype=np.int64),
            np.zeros(LINE_WORK, dtype=np.uint64))


@njit(cache=True, _nrt=False)
def reset_deck(deck):
    for i in range(52):
        deck[i] = i


@njit(cache=True, _nrt=False)
def side_net(pts, nsides, mine):
    """Side `mine`'s points of the line minus every other side's."""
    total = 0
    for s in range(nsides):
        p = 0
        for w in range(N_WHY):
            p += pts[s, w]
        total += p if s == mine else -p
    return total


@njit(cache=True, _nrt=False)
def same_events(a, na, b, nb):
    """True if the first `na` rows of `a` are the first `nb` rows of `b`."""
    if na != nb:
        return False
    for k in range(na):
        for c in range(N_EV_COLS):
            if a[k, c] != b[k, c]:
                return False
    return True


@njit(cache=True, nogil=True)
def tip_deals(rules, n_deals, scores, kinds, params_on, params_off, deck_rng, rng, state, out):
    """Play `n_deals` deals; out[i, tip, seating, TD_*] (see the module docstring).

    params_on / params_off: float64[tips, seatings, 4, N_PARAMS], the seats' rows with the tip
    side's switch on / off; `kinds` the seats' kinds (the same in every seating); `scores` int64[4] by side.
    """
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    dealer = n - 1
    n_tips = params_on.shape[0]
    deck, deal_deck, deal_rng, dr, r, sc, info, pts, work = deal_scratch()
    ev_on = np.zeros((MAX_LINE_EVENTS, N_EV_COLS), dtype=np.int64)
    ev_off = np.zeros((MAX_LINE_EVENTS, N_EV_COLS), dtype=np.int64)
    n_on = 0
    for i in range(n_deals):
        substream(deck_rng, deal_deck)
        substream(rng, deal_rng)
        for t in range(n_tips):
            for side in range(nsides):
                for setting in range(2):
                    reset_deck(deck)
                    dr[:] = deal_deck
                    r[:] = deal_rng
                    sc[:] = scores
                    if setting == 0:
                        play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds, params_on[t, side],
                                     dr, r, ev_on, info, pts, work, state)
                        n_on = info[I_EVENTS]
                        out[i, t, side, TD_NET_ON] = side_net(pts, nsides, side)
                    else:
                        play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds, params_off[t, side],
                                     dr, r, ev_off, info, pts, work, state)
                        out[i, t, side, TD_NET_OFF] = side_net(pts, nsides, side)
                        out[i, t, side, TD_CHANGED] = 0 if same_events(ev_on, n_on, ev_off, info[I_EVENTS]) else 1


@njit(cache=True, nogil=True)
def tip_matches(rules, n_matches, kinds, params_on, params_off, deck_rng, rng, state, out):
    """Play `n_matches` matches for every tip, seating and setting; out[i, tip, setting, TM_*]
    (arrays as tip_deals')."""
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    n_tips = params_on.shape[0]
    deck, match_deck, match_rng, dr, r, scores, info, pts, work = deal_scratch()
    line_rng = np.zeros(4, dtype=np.uint64)
    ev = np.zeros((0, N_EV_COLS), dtype=np.int64)
    for i in range(n_matches):
        substream(deck_rng, match_deck)
        substream(rng, match_rng)
        for t in range(n_tips):
            for setting in range(2):
                for c in range(N_TM_COLS):
                    out[i, t, setting, c] = 0
                for side in range(nsides):
                    dr[:] = match_deck
                    r[:] = match_rng
                    rows = params_on[t, side] if setting == 0 else params_off[t, side]
                    winner, lines = play_match_in(rules, kinds, rows, dr, r, scores, deck, line_rng, ev, info, pts,
                                                    work, state)
                    if winner == side:
                        out[i, t, setting, TM_WINS] += 1
                    if winner < 0:
                        out[i, t, setting, TM_UNFINISHED] += 1
                    out[i, t, setting, TM_DEALS] += lines


@njit(cache=True, _nrt=False)
def observe_line(rules, dealer, ev, n_events, played, state, replay, hands, sc, counts):
    """Add one line's tip situations and followed tips to counts[tip, TO_*]: from its events `ev` and,
    if it reached trick play (`played`), the play state `state` it ended with (the hands when play started,
    trump, turn-up and scores), replayed card by card in `replay`. A card decision counts only when more
    than one card was legal. Scratch: hands uint64[4], sc int64[4]."""
    n = rules[R_PLAYERS]
    # The dealer's answer to a beg (tip_run_strong_side), on the first six cards of the deal it was made in.
    dealer_hand = np.uint64(0)
    trump = -1
    for k in range(n_events):
        kind = ev[k, EV_TYPE]
        if kind == E_DEAL:
            dealer_hand = np.uint64(0)
            trump = -1
        elif kind == E_HAND and trump < 0 and ev[k, EV_A] == dealer:
            dealer_hand = np.uint64(ev[k, EV_B])
        elif kind == E_TURNUP and trump < 0:
            trump = ev[k, EV_A] // 13
        elif kind == E_GIVE or kind == E_RUN:
            if strong_side_suit(dealer_hand, trump):
                counts[TIP_RUN_STRONG_SIDE, TO_SITUATIONS] += 1
                if kind == E_RUN:
                    counts[TIP_RUN_STRONG_SIDE, TO_FOLLOWED] += 1
    if not played:
        return
    for s in range(4):
        hands[s] = np.uint64(state[PS_START + s]) if s < n else np.uint64(0)
        sc[s] = state[PS_SCORE + s]
    init_state(replay, rules, hands, state[PS_TRUMP], state[PS_TURNUP], dealer, sc)
    for k in range(n_events):
        if ev[k, EV_TYPE] != E_PLAY:
            continue
        card = ev[k, EV_B]
        mask = legal(replay)
        if mask & (mask - np.uint64(1)):
            for tip in range(N_CARD_TIPS):
                situation, on, off = tip_masks(tip, replay, mask)
                if situation:
                    counts[tip, TO_SITUATIONS] += 1
                    if on & bit(card):
                        counts[tip, TO_FOLLOWED] += 1
        apply(replay, card)


@njit(cache=True, nogil=True)
def observe_tips(rules, first, n_deals, scores, kinds, params, deck_key, key, state, counts):
    """Play deals `first` .. `first + n_deals - 1` of a run with the seats' policies (the dealer the last seat,
    from `scores` by side) and add every seat's tip situations and followed tips to counts[tip, TO_*]
    (observe_line). Deal i's cards come from ``unit_stream(deck_key, i)``, its choices from
    ``unit_stream(key, i)``: a run's counts are the same however its deals are cut."""
    n = rules[R_PLAYERS]
    dealer = n - 1
    deck, deal_deck, deal_rng, _, _, sc, info, pts, work = deal_scratch()
    ev = np.zeros((MAX_LINE_EVENTS, N_EV_COLS), dtype=np.int64)
    replay = np.zeros(N_STATE, dtype=np.int64)
    hands = np.zeros(4, dtype=np.uint64)
    sc2 = np.zeros(4, dtype=np.int64)
    for i in range(first, first + n_deals):
        unit_stream(deck_key, i, deal_deck)
        unit_stream(key, i, deal_rng)
        reset_deck(deck)
        sc[:] = scores
        play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds, params, deal_deck, deal_rng, ev, info,
                     pts, work, state)
        observe_line(rules, dealer, ev, info[I_EVENTS], info[I_PLAYED] == 1, state, replay, hands, sc2, counts)
