"""The open-hand solver: the value of a position of trick play with every hand visible.

A position is a play state (``state.py``), cut anywhere: at a trick boundary or in the
middle of a trick. Its **value** is what perfect play by everyone makes of the points
the deal still has to give, counted for the side to move as *its points minus the
other sides' points*:

* **High** and **Low**: fixed the moment play starts (who held the highest and lowest
  trump in play, ``PS_START``), so a constant of the position;
* **Jack** or **hang jack**: to the side that captures the jack of trump (3 for the
  opponents' jack under ``hang_jack``); a constant once it has been captured;
* **Game**: to the side with the most card points captured, a tie settled by
  ``game_tie`` exactly as ``state.score_game`` does.

Kicks, the gift and the jack bonus are not counted (play cannot change them), and
neither is the match target: these are the deal's points, all of them, as if the
match went on for ever.

**Two sides** (2 players, or 4 in partnerships): minimax. The side to move at the
root maximises its net points, the other side minimises them (the same thing, since
one side's net is the other's negated).

**Three players** (each a side): the value for the seat to move is its own points
minus the other two players' points together, and the search is *paranoid*: the
other two are taken to play together to minimise that number. So a card's value is
what the mover can guarantee against the worst coalition, a lower bound on what it
makes against any two opponents; it is not an equilibrium of the three-player game.

The parts, each in its own file:

* ``context.py``: the sizes and the search context ``ctx`` (an int64 array of named words);
* ``value.py``: the value of a finished deal (``final_value``) and the context a deal's solve starts from
  (``prepare``);
* ``bounds.py``: static bounds, what a position is worth at least and at most whatever is played;
* ``moves.py``: move ordering, and equivalent cards searched once;
* ``table.py``: the transposition table, its key, entries and replacement;
* ``endings.py``: the last tricks of four players in one call;
* ``search.py``: the fail-soft alpha-beta search on an explicit stack, and near-equivalent cards;
* ``nullwindow.py``: the value by null-window tests (two sides) or MTD(f) (three players);
* ``solve.py``: the memory a solver needs (``SolverWork``) and the kernels callers run
  (``solve_value``, ``solve_cards``, ``proved_ranges``).

A **node limit** lets a caller try an exact solve and give up: with ``ctx[C_NODE_LIMIT] > 0`` a
solve stops once it has visited that many nodes (``ctx[C_NODES]``, counted from 0 by each call) and
sets ``ctx[C_ABORTED]``. It drops its stack without storing anything for the unfinished nodes, so the
table keeps only proved bounds and later solves stay exact. A limited solve searches as it always did
(the move order and node counts its callers' answers were pinned with); ``ctx[C_NODE_CAP]`` stops an
exact solve the same way without changing its search (benchmarks that must end).

Every kernel runs without numba's runtime (``_nrt=False``): per-depth states, move
lists and the table are preallocated by the caller (``SolverWork``).
"""

from __future__ import annotations

from .context import (
    C_ABORTED, C_GEN, C_JACK, C_MODE, C_NODE_CAP, C_NODE_LIMIT, C_NODES, C_PERSP_SIDE, C_STOP, C_W, INF, MAX_PLIES,
    MOVE_SLOTS, N_CTX, NO_VALUE,
)
from .search import N_FRAME
from .solve import SolverWork, proved_ranges, solve_cards, solve_value
from .table import DEFAULT_TT_BITS, GEN_LIMIT, TT_WORDS, canonical_key, table_rows
from .value import final_value, game_winner, prepare

__all__ = [
    "C_ABORTED", "C_GEN", "C_JACK", "C_MODE", "C_NODE_CAP", "C_NODE_LIMIT", "C_NODES", "C_PERSP_SIDE", "C_STOP", "C_W",
    "DEFAULT_TT_BITS", "GEN_LIMIT", "INF", "MAX_PLIES", "MOVE_SLOTS", "N_CTX", "N_FRAME", "NO_VALUE", "TT_WORDS",
    "SolverWork", "canonical_key", "final_value", "game_winner", "prepare", "proved_ranges", "solve_cards",
    "solve_value", "table_rows",
]
