"""Duplicated deals with runs: policy A against policy B on the deals where the cards were run.

A trinidad deal in which the dealer runs the cards (once: 9 cards each, twice: 12) is
where a card player that stops searching at 24 cards plays the heuristic's first
tricks; every other deal is played alike by two pimc players that differ only above
24 cards. So ``run_deal_pairs`` plays single deals from a zero score (the dealer the
last seat), each first with cheap card players that bid as the first copy's seats do
(the caller's ``*_h``) to see whether it has a run, and only a deal with a run is then
played twice from copies of the same card and choice streams: A on side 0 (even seats)
and B on side 1, then the other way round. The bidding is the players' own
(``POLICY``); for players that bid alike (pimc against pimc) the runs are the same in
both copies, and the first copy's are recorded.

Per deal, out[i, RD_*]: the runs of the first copy (0: the heuristic's play had no
run, the deal was not played), and A's side's net points of the deal (every point of
the line: its points minus the other side's) in each copy. The kicks and the gift go
to the same seats in both copies, so they cancel in A's total over the two.

Deal j of a duel takes its card and choice streams from the run's two keys and j alone
(``bits.unit_stream``): the same deals however the duel is cut into chunks, threads or workers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import unit_stream
from .deal import POLICY, SHUFFLED, play_line_in
from .layout import I_RUNS
from .search import new_play_buffer
from .tipcheck import deal_scratch, reset_deck, side_net

RD_RUNS = 0   # runs in the deal (A on side 0); 0: no run, not played
RD_A_AB = 1   # A's side's net points, A on side 0
RD_A_BA = 2   # A's side's net points, A on side 1
N_RD_COLS = 3


@njit(cache=True, nogil=True)
def run_deal_pairs(rules, first, n_deals, kinds_ab, params_ab, kinds_ba, params_ba, kinds_h, params_h, card_key,
                   choice_key, out):
    """Play the deals first .. first + n_deals - 1 of a duel; out[i, RD_*] is deal first + i's (module
    docstring), its streams ``unit_stream(card_key, first + i)`` and ``unit_stream(choice_key, first + i)``.
    `*_ab`: A on side 0; `*_ba`: A on side 1; `*_h`: the run check's players (bidding as in `*_ab`, cheap
    cards). Four players or two."""
    dealer = kinds_ab.shape[0] - 1
    deck, deal_deck, deal_rng, dr, r, sc, info, pts, work = deal_scratch()
    ev = np.zeros((0, 4), dtype=np.int64)
    state = new_play_buffer(True)
    for i in range(n_deals):
        unit_stream(card_key, first + i, deal_deck)
        unit_stream(choice_key, first + i, deal_rng)
        out[i, :] = 0
        for copy in range(3):
            reset_deck(deck)
            dr[:] = deal_deck
            r[:] = deal_rng
            sc[:] = 0
            if copy == 0:
                play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds_h, params_h, dr, r, ev, info,
                             pts, work, state)
                if info[I_RUNS] == 0:
                    break
            elif copy == 1:
                play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds_ab, params_ab, dr, r, ev, info,
                             pts, work, state)
                out[i, RD_RUNS] = info[I_RUNS]
                out[i, RD_A_AB] = side_net(pts, 2, 0)
            else:
                play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds_ba, params_ba, dr, r, ev, info,
                             pts, work, state)
                out[i, RD_A_BA] = side_net(pts, 2, 1)
