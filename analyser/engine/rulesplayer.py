"""The rules player: the heuristic with a decision list of rules of play read before its own card.

A rule is one or two tests on what the seat to play sees (``playrules.FEATURES``: equal to a value, at least
or at most a value) and an action class (``playrules.ACTIONS``: a way of picking one of the legal cards, or
none where its words do not apply). The list is read top down: the first rule whose tests all hold and whose
action applies picks the card; where no rule does, the heuristic plays its own (``heuristic.heuristic_play``
with the same parameter row). The list lives in the heuristic's parameter row (``layout.RL_COUNT``: the
count, 0 for none; then ``RL_STRIDE`` slots a rule, at most ``RL_MAX`` rules), so a rules player is a
``heuristic`` (or ``tuned``) seat like any other: ``policy.parse_policy("rules:FILE")`` reads the list from
a ``rules.json`` that ``scripts/fit_play_rules.py`` writes.

Where the card is chosen: ``policies.choose_card_plain`` sends a heuristic or tuned row with rules to
``rules_play``. The heuristic's own trick loop (``playout.rules_tricks``) plays only rows without rules
(``playout.rules_seats`` looks at the count once a playout); a table of heuristic and rules players with no
tip switch, under the plain trumping rules, has a loop of its own (``playout.listed_tricks``, with
``rules_choice`` compiled in); a list that reads ``opps_no_trump`` (the voids the others have shown, which
the plain trick loops do not keep) is played in the loop that keeps them (``list_reads_voids``). A feature is read only when a test asks for it (``playrules.feature``, of which
``position_features`` is every slot), so a rule costs its own tests, not all 36 features.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import U1, lowest_card
from .heuristic import heuristic_play
from .layout import (
    K_HEURISTIC, K_TUNED, OP_EQ, OP_GE, PS_LED, PS_PLAYERS,
    RL_COUNT, RL_MAX, RL_RULE, RL_STRIDE, RT_ACTION,
    RT_FEATURE, RT_OP, RT_VALUE,
)
from .playrules import A_DUCK, A_GIVE_PARTNER, A_LEAD_HIGH_SIDE, A_WIN_CHEAP, PF_OPPS_NO_TRUMP, action_card, feature


@njit(cache=True, _nrt=False, inline="always")
def test_holds(state, legal, params, at):
    """The test of `params[at:at + 3]` (feature, op, value) holds in `state`."""
    x = feature(state, legal, np.int64(params[at + RT_FEATURE]))
    op = np.int64(params[at + RT_OP])
    value = np.int64(params[at + RT_VALUE])
    if op == OP_EQ:
        return x == value
    if op == OP_GE:
        return x >= value
    return x <= value


# action_card compiled into the list's loop (a call passes the state's and the legal cards' words at every rule)
action_card_inline = njit(_nrt=False, inline="always")(action_card.py_func)


@njit(cache=True, _nrt=False)
def rules_choice(params, state, legal):
    """The card the row's decision list picks for the seat to play among `legal` (a non-empty mask), or -1
    where no rule speaks (no rule's tests all hold with an action that applies)."""
    legal = np.uint64(legal)
    leading = state[PS_LED] < 0
    for r in range(min(np.int64(params[RL_COUNT]), RL_MAX)):
        at = RL_RULE + r * RL_STRIDE
        action = np.int64(params[at + RT_ACTION])
        # Classes that cannot apply in this phase are passed over before their tests are read (action_card
        # would say -1 all the same): "lead ..." while following; win, duck, give partner while leading.
        if action <= A_LEAD_HIGH_SIDE:
            if not leading:
                continue
        elif (A_WIN_CHEAP <= action <= A_DUCK or action == A_GIVE_PARTNER) and leading:
            continue
        if not test_holds(state, legal, params, at):
            continue
        if params[at + 3 + RT_FEATURE] >= 0.0 and not test_holds(state, legal, params, at + 3):
            continue
        card = action_card_inline(state, legal, action)
        if card >= 0:
            return card
    return -1


# rules_choice compiled into the rules players' trick loop (``playout.listed_tricks``)
rules_choice_inline = njit(_nrt=False, inline="always")(rules_choice.py_func)


@njit(cache=True, _nrt=False)
def rules_play(params, state, legal):
    """The rules player's card: the decision list's (``rules_choice``), else the heuristic's with the same row.
    A forced card (one legal card) is what either would play."""
    legal = np.uint64(legal)
    if (legal & (legal - U1)) == 0:
        return lowest_card(legal)
    card = rules_choice(params, state, legal)
    if card >= 0:
        return card
    return heuristic_play(params, state, legal)


@njit(cache=True, _nrt=False, inline="always")
def has_rules(params):
    """True if the row carries a decision list (a rules player)."""
    return params[RL_COUNT] > 0.0


@njit(cache=True, _nrt=False)
def list_reads_voids(state, kinds, params):
    """True if some heuristic or tuned seat's decision list tests ``opps_no_trump``, which reads the voids the
    others have shown (PS_VOIDS): the trick loop must then keep them (``state.step``, not ``step_play``)."""
    for s in range(state[PS_PLAYERS]):
        if kinds[s] == K_HEURISTIC or kinds[s] == K_TUNED:
            for r in range(min(np.int64(params[s, RL_COUNT]), RL_MAX)):
                at = RL_RULE + r * RL_STRIDE
                if params[s, at + RT_FEATURE] == PF_OPPS_NO_TRUMP or params[s, at + 3 + RT_FEATURE] == PF_OPPS_NO_TRUMP:
                    return True
    return False


# --- the row, from Python -----------------------------------------------------------------------------------


def set_rules(row: np.ndarray, rules: list[tuple[list[tuple[int, int, int]], int]]) -> np.ndarray:
    """`row` (a heuristic or tuned parameter row, changed in place and returned) with the decision list `rules`:
    each rule (tests, action), tests one or two (feature index, op code, value), the action a class index."""
    if len(rules) > RL_MAX:
        raise ValueError(f"{len(rules)} rules: a row holds at most {RL_MAX}")
    row[RL_COUNT:RL_RULE + RL_MAX * RL_STRIDE] = 0.0
    row[RL_COUNT] = float(len(rules))
    for r, (tests, action) in enumerate(rules):
        if not 1 <= len(tests) <= 2:
            raise ValueError(f"rule {r + 1}: {len(tests)} tests; a rule has 1 or 2")
        at = RL_RULE + r * RL_STRIDE
        row[at + 3 + RT_FEATURE] = -1.0
        for t, (index, op, value) in enumerate(tests):
            row[at + 3 * t + RT_FEATURE] = float(index)
            row[at + 3 * t + RT_OP] = float(op)
            row[at + 3 * t + RT_VALUE] = float(value)
        row[at + RT_ACTION] = float(action)
    return row


def row_rules(row: np.ndarray) -> list[tuple[list[tuple[int, int, int]], int]]:
    """The decision list a row holds (``set_rules``' argument); empty for a row without one."""
    out = []
    for r in range(min(int(row[RL_COUNT]), RL_MAX)):
        at = RL_RULE + r * RL_STRIDE
        tests = [(int(row[at + RT_FEATURE]), int(row[at + RT_OP]), int(row[at + RT_VALUE]))]
        if row[at + 3 + RT_FEATURE] >= 0:
            tests.append((int(row[at + 3 + RT_FEATURE]), int(row[at + 3 + RT_OP]), int(row[at + 3 + RT_VALUE])))
        out.append((tests, int(row[at + RT_ACTION])))
    return out
