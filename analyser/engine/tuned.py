"""The ``tuned`` player: the heuristic, with stand/beg and give/run looked up by hand class.

``allfours strategy`` estimates, for every hand class (``evaluator.hand_class_code``)
of the eldest and of the dealer, which option scores more, and writes the answers to
``tuned.json``; ``policy.parse_policy("tuned:RUN_DIR")`` turns that file into a
parameter row. The row is the heuristic's (so card play, discards and bunching are
the heuristic's, with its parameters) plus two tables of 33 slots, one per class code:

* ``T_BEG + code``: 1 the eldest begs, 0 it stands, -1 (a class the tables never
  sampled) decide by the heuristic's BEG_WEAK rule;
* ``T_GIVE + code``: 1 the dealer gives one, 0 it runs, -1 the heuristic's GIVE_STRONG.

An entry strictly between 0 and 1 is a mixed choice: beg (give) with that probability,
drawn from the choice stream (``equilibrium:RUN_DIR``, the equilibrium of ``allfours
equilibrium``, has such entries). Entries of exactly 0 or 1 draw nothing.

What is kept from the heuristic on top of the tables: a ``beg``/``give`` probability
in [0, 1] still replaces every decision (as for the heuristic), and GIVE_NEVER_LOSES
(``score_aware``): the dealer never gives a gift that ends the match. The tables are
estimated at one score (see ``analysis.strategy``), where no gift ends the match, so
that rule only decides where the tables say nothing.
"""

from __future__ import annotations

from numba import njit

from .bits import rand_unit
from .evaluator import N_HAND_CLASSES, hand_class_code
from .heuristic import gift_wins_match, heuristic_beg, heuristic_give
from .layout import H_SCORE_AWARE, N_CLASS_SLOTS, P_BEG, P_GIVE, T_BEG, T_GIVE

assert N_CLASS_SLOTS == N_HAND_CLASSES, "layout.N_CLASS_SLOTS must match the evaluator's hand classes"


@njit(cache=True, _nrt=False)
def table_choice(flag, rng):
    """A table entry >= 0 as a choice: 1 yes, 0 no, a probability in between drawn from `rng`."""
    if 0.0 < flag < 1.0:
        return rand_unit(rng) < flag
    return flag > 0.5


@njit(cache=True, _nrt=False)
def tuned_beg(params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the eldest begs: its class's entry of the beg table, else the heuristic's rule."""
    if params[P_BEG] < 0.0:
        flag = params[T_BEG + hand_class_code(hand, turnup // 13)]
        if flag >= 0.0:
            return table_choice(flag, rng)
    return heuristic_beg(params, hand, turnup, seat, dealer, scores, rules, rng)


@njit(cache=True, _nrt=False)
def tuned_give(params, hand, turnup, seat, dealer, scores, rules, rng):
    """True if the dealer gives one: its class's entry of the give table, else the heuristic's rule."""
    if params[P_GIVE] < 0.0:
        if params[H_SCORE_AWARE] > 0.0 and gift_wins_match(dealer, scores, rules):
            return False  # GIVE_NEVER_LOSES
        flag = params[T_GIVE + hand_class_code(hand, turnup // 13)]
        if flag >= 0.0:
            return table_choice(flag, rng)
    return heuristic_give(params, hand, turnup, seat, dealer, scores, rules, rng)
