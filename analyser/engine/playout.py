"""``playout``: play a position on to the end with the seats' policies (the engine's trick loop).

It moves the play state (``state.py``) with ``step``, the seats' policies choosing
(``policies.choose_card``). ``state`` may be a play buffer (``search.new_play_buffer``):
the play state followed by the search players' work area.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import U1, lowest_card, popcount, random_card
from .layout import (
    E_PLAY, E_TRICK, K_RANDOM, PS_BEST_CARD, PS_BEST_SEAT, PS_FORBID, PS_HAND, PS_LED, PS_N_TRICKS, PS_PLAYERS,
    PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_MASK, PS_TRICK_NO, PS_TRUMP, PS_VOID_TRUMP,
)
from .policies import choose_card, choose_card_plain
from .search import needs_search, record_play, start_history
from .state import emit, legal_mask, new_trick, step


@njit(cache=True, _nrt=False)
def playout(state, rules, kinds, params, rng, ev, info):
    """Play every remaining card with the seats' policies, writing play and trick events."""
    n = state[PS_PLAYERS]
    all_random = True
    for s in range(n):
        all_random = all_random and kinds[s] == K_RANDOM
    if all_random:  # the benchmark's and many studies' case: a loop with no policy code in it
        play_cards(state, rules, kinds, params, rng, ev, info, False, False)
    elif needs_search(kinds):  # a search player's call kept out of the other players' loop
        play_cards(state, rules, kinds, params, rng, ev, info, True, True)
    else:
        play_cards(state, rules, kinds, params, rng, ev, info, True, False)


@njit(cache=True, inline="always")
def play_cards(state, rules, kinds, params, rng, ev, info, dispatch, search):
    # The hot loop: what does not change during play, and the trick's fields, stay in
    # registers (step stores them all), so the state is never read back here. Inlined three
    # times by playout. `dispatch` False (every seat random): no policy code in the loop, and
    # step stores only what the loop and the scoring read (no player looks: the voids shown
    # are not recorded then, the trick's fields are reset once at the end). `search` False:
    # no oracle or pimc seat, and their call kept out of the loop (in it, it cost the
    # heuristic's loop about 15%). There a forced card is played without calling the policy
    # (heuristic and tuned play it drawing nothing): the call cost the heuristic about 5%.
    seat = state[PS_TO_PLAY]
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    forbid = state[PS_FORBID] != 0
    void_trump = state[PS_VOID_TRUMP] != 0
    led = state[PS_LED]
    best_card = state[PS_BEST_CARD]
    best_seat = state[PS_BEST_SEAT]
    top = state[PS_TOP_TRUMP]
    trick = state[PS_TRICK_MASK]
    left = (state[PS_N_TRICKS] - state[PS_TRICK_NO]) * n - popcount(np.uint64(trick))
    if search:
        start_history(state)  # the order of play, which pimc reads the others' hands from
    for _ in range(left):
        mask = legal_mask(np.uint64(state[PS_HAND + seat]), led, trump, top, forbid, void_trump)
        if dispatch and kinds[seat] != K_RANDOM:
            if search:
                card = choose_card(kinds[seat], params[seat], state, mask, rules, rng)
            elif (mask & (mask - U1)) == 0:
                card = lowest_card(mask)  # a forced card: what heuristic and tuned play, drawing nothing
            else:
                card = choose_card_plain(kinds[seat], params[seat], state, mask, rules, rng)
        else:
            card = random_card(rng, mask)
        if search:
            record_play(state, card)
        emit(ev, info, E_PLAY, seat, card, 0)
        winner, led, best_card, best_seat, top, trick = step(state, seat, card, n, trump, led, best_card,
                                                             best_seat, top, trick, dispatch)
        if winner >= 0:
            emit(ev, info, E_TRICK, winner, 0, 0)
            seat = winner
        else:
            seat = seat + 1 if seat + 1 < n else 0
    if not dispatch and left > 0:
        new_trick(state, seat)  # the lean loop (every seat random) left the trick's fields as they were
