"""The solver's sizes and its search context: the words of the int64 array ``ctx`` that every kernel of a
solve reads and writes (set up for each position by ``value.prepare``)."""

from __future__ import annotations

import numpy as np

# Deepest search: every card of a 52-card pack, one ply each, and the root.
MAX_PLIES = 53
MOVE_SLOTS = 52
INF = 1000
NO_VALUE = -INF  # in a card-values row: not a legal card

C_PERSP_SIDE = 0  # side of the seat to move at the root: the value is its net points
C_NSIDES = 1
C_FIXED = 2       # High and Low for that side, net: fixed when play started
C_HANG = 3        # 1: hang jack (3 for capturing the opponents' jack)
C_TIE = 4         # the rule set's game_tie code
C_DEALER_SIDE = 5
C_JACK = 6        # the jack of trump if in play, else -1
C_JACK_SIDE = 7   # side that held it when play started
C_JACK_LO = 8     # least and most the jack can still be worth to the perspective side
C_JACK_HI = 9
C_GEN = 10        # search generation (table entries of older ones are ignored)
C_NODES = 11      # nodes visited (statistics)
C_TT_MASK = 12    # table size - 1 (a power of two)
C_MODE = 13       # the search's objective: 0 net points, 1 card points with the jack worth C_W more
C_W = 14
C_NODE_LIMIT = 15  # set by the caller: a solve gives up once it has visited this many nodes (0: no limit)
C_ABORTED = 16     # set by each solve: 1 when it gave up at C_NODE_LIMIT or C_NODE_CAP (its values are then void)
C_NODE_CAP = 17    # set by the caller: an exact solve (no C_NODE_LIMIT) gives up after this many nodes (0: never)
C_STOP = 18        # set by another thread while a solve runs: give up soon (checked every STOP_EVERY nodes)
C_RANGE_LO = 19    # what `value_of` has proved so far of the value it is finding: at least this...
C_RANGE_HI = 20    # ... and at most this (for a caller that stops it: `proved_ranges`)
C_CARD = 21        # `solve_cards`: the card whose value `value_of` is finding, -1 when none
C_HIST = 32       # + card: history heuristic (cut-offs the card caused)
C_KILLER = C_HIST + 52  # + ply: the lead that last caused a cut-off at that ply, -1
C_KILLER2 = C_KILLER + MAX_PLIES + 1  # + ply: the one before it (another card), -1
C_CARD_LO = C_KILLER2 + MAX_PLIES + 1  # + card: `solve_cards`, what is proved of each card's value: at least...
C_CARD_HI = C_CARD_LO + 52  # + card: ... and at most (equal once the card is solved)
N_CTX = C_CARD_HI + 52
STOP_EVERY = 4096

LOW_CARDS = np.uint64(sum(0xFF << (13 * s) for s in range(4)))  # the 2s to 9s: no card points
