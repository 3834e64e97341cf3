"""The bidding game's payoff tensor: every deal played three ways, summed by both players' hand classes.

The eldest, seeing its hand class and the turn-up, stands or begs; the dealer, seeing its
own hand class and knowing the eldest begged, gives one or runs. Everything after is the
play policy's. ``payoff_tensor`` samples deals from the natural distribution (a uniformly
shuffled deck, dealt by the last seat, so the eldest is seat 0 and the dealer seat n - 1)
at one score before the deal, and plays each deal three times from the same deck and
copies of the same card and choice streams (common random numbers): stand, beg -> give,
beg -> run (the first decisions forced through ``deal.play_line_in``'s force_beg and
force_give). A deal whose first turn-up kick ends the match has no decision and is skipped.

Payoff of a line for the eldest's side (``measure``): MEASURE_POINTS, its net points
(its points minus all other sides' together, without the first turn-up's kick, which came
before the decision: ``decisions.net_points``); MEASURE_WIN, its match-win probability
(1/0 if the line ended the match, else the two-side equity table at the new score, as
``decisions.equity_of``). With 3 players (each alone: not zero-sum) the dealer's own net
points are summed too.

tensor[e, d, TS_*] (float64; e the eldest's class, d the dealer's, both by ``bid_class``)
gets the deal count, the sums and sums of squares of each line's payoff, and how often the
reference policy (``ref_kind``/``ref_params``: the heuristic) would beg with the eldest's
hand and give with the dealer's (decided with ``ref_rng``, so recording never shifts the
paired streams). Net points are whole numbers, so their sums are exact in any order.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_GIFT, R_KICK, R_PLAYERS, R_TARGET
from .bits import shuffle_deck, side_of
from .deal import HAND_SIZE, WHOLE_DECK, kick_points, play_line_in
from .decisions import copy_words, dealt_hand, equity_of, jump_in, line_scratch, net_points
from .evaluator import strong_side_suit
from .evaluator import N_HAND_CLASSES, hand_class_code
from .search import is_search_kind, needs_search
from .layout import I_DEALS, I_WINNER, N_WHY
from .policies import decide_beg, decide_give

# Class schemes (how a hand is classed for the bidding game).
SCHEME_COARSE = 0  # the hand class code (evaluator.hand_class_code): 33 codes, 28 possible
SCHEME_FINE = 1    # code + 33 * (a strong side suit: decisions.strong_side_suit): 66 codes
SCHEME_CLASSES = (N_HAND_CLASSES, 2 * N_HAND_CLASSES)  # codes per scheme

MEASURE_POINTS = 0
MEASURE_WIN = 1

# Lines, in the order they are played and stored: stand (force_beg 0), beg -> give (1, 1), beg -> run (1, 0).
LINE_STAND, LINE_GIVE, LINE_RUN = range(3)
LINE_FORCE_BEG = (0, 1, 1)     # by line: play_line_in's force_beg ...
LINE_FORCE_GIVE = (-1, 1, 0)   # ... and force_give (-1: the policy decides)
LINES = ("stand", "give", "run")

# Accumulators of tensor[e, d, :].
TS_N = 0                     # deals
TS_SUM = 1                   # + line: sum of the eldest's side's payoff
TS_SQ = 4                    # + line: sum of its squares
TS_REF_BEG = 7               # deals where the reference policy begs with the eldest's hand
TS_REF_GIVE = 8              # ... gives with the dealer's hand (asked on every deal: it depends on the hand only)
TS_DEALER_SUM = 9            # + line: the dealer's own net points (3 players; else left 0)
TS_DEALER_SQ = 12            # + line: their squares
N_TS = 15

# Counts (int64 `counts`): deck samples, samples whose first kick ended the match, deals played.
BC_TRIES, BC_KICK_ENDED, BC_DEALS = range(3)
N_BC = 3


@njit(cache=True, _nrt=False)
def bid_class(scheme, hand, trump):
    """The class of `hand` for `trump` under `scheme` (SCHEME_*)."""
    code = hand_class_code(hand, trump)
    if scheme == SCHEME_FINE:
        return code + N_HAND_CLASSES * strong_side_suit(hand, trump)
    return code


@njit(cache=True, nogil=True)
def payoff_tensor(rules, scores, kinds, params, ref_kind, ref_params, measure, equity, scheme, deck_rng, rng,
                  ref_rng, n_deals, max_tries, tensor, counts):
    """payoff_tensor_in with its scratch space allocated here (once per call); returns deals done."""
    ev = np.zeros((0, 4), dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    line_deck, sc, info, pts, work, state = line_scratch(needs_search(kinds) or is_search_kind(ref_kind))
    seen = np.zeros(4, dtype=np.int64)
    streams = np.zeros((5, 4), dtype=np.uint64)
    values = np.zeros(6, dtype=np.float64)
    return payoff_tensor_in(rules, scores, kinds, params, ref_kind, ref_params, measure, equity, scheme, deck_rng,
                            rng, ref_rng, n_deals, max_tries, tensor, counts, ev, deck, line_deck, sc, seen, info, pts,
                            work, state, streams, values)


@njit(cache=True, nogil=True, _nrt=False)
def payoff_tensor_in(rules, scores, kinds, params, ref_kind, ref_params, measure, equity, scheme, deck_rng, rng,
                     ref_rng, n_deals, max_tries, tensor, counts, ev, deck, line_deck, sc, seen, info, pts, work,
                     state, streams, values):
    """Play `n_deals` decision deals three ways each, adding to `tensor` (module docstring).

    scores: int64[4] by side before the deal (the turn-up's kick not yet added); equity:
    float64[T, T] (MEASURE_WIN only) P(the dealer's side wins | its score, the other's).
    Stops after `max_tries` deck samples; counts[BC_*] += what happened; returns deals done.
    """
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    dealer = n - 1
    eldest = 0
    dside = side_of(dealer, n)
    eside = side_of(eldest, n)
    turnup_pos = HAND_SIZE * n
    target = rules[R_TARGET]
    three = n == 3
    deal_deck_rng = streams[0]
    deal_rng = streams[1]
    dr = streams[2]
    r = streams[3]
    tmp = streams[4]
    done = 0
    while done < n_deals and counts[BC_TRIES] < max_tries:
        counts[BC_TRIES] += 1
        shuffle_deck(deck, deck_rng)
        turnup = deck[turnup_pos]
        trump = turnup // 13
        kick = kick_points(rules[R_KICK], turnup)
        if scores[dside] + kick >= target:
            counts[BC_KICK_ENDED] += 1
            continue
        for s in range(4):  # the decisions are taken after the kick is scored
            seen[s] = scores[s]
        seen[dside] += kick
        eldest_hand = dealt_hand(deck, 0)
        dealer_hand = dealt_hand(deck, n - 1)
        e = bid_class(scheme, eldest_hand, trump)
        d = bid_class(scheme, dealer_hand, trump)
        ref_beg = decide_beg(ref_kind, ref_params, eldest_hand, turnup, eldest, dealer, seen, rules, ref_rng)
        ref_give = decide_give(ref_kind, ref_params, dealer_hand, turnup, dealer, dealer, seen, rules, ref_rng)
        copy_words(deal_deck_rng, deck_rng)
        jump_in(deck_rng, tmp)
        copy_words(deal_rng, rng)
        jump_in(rng, tmp)
        for line in range(3):
            copy_words(line_deck, deck)
            copy_words(dr, deal_deck_rng)
            copy_words(r, deal_rng)
            copy_words(sc, scores)
            play_line_in(rules, dealer, sc, line_deck, WHOLE_DECK, LINE_FORCE_BEG[line], LINE_FORCE_GIVE[line], kinds,
                         params, dr, r, ev, info, pts, work, state)
            if measure == MEASURE_WIN:
                w = info[I_WINNER]
                if w >= 0:
                    values[line] = 1.0 if w == eside else 0.0
                else:
                    values[line] = equity_of(equity, sc, side_of(eldest, n), eside)
            else:
                values[line] = net_points(pts, info, nsides, dside, eside)
            if three:
                values[3 + line] = net_points(pts, info, nsides, dside, dside)
        tensor[e, d, TS_N] += 1.0
        for line in range(3):
            v = values[line]
            tensor[e, d, TS_SUM + line] += v
            tensor[e, d, TS_SQ + line] += v * v
        if ref_beg:
            tensor[e, d, TS_REF_BEG] += 1.0
        if ref_give:
            tensor[e, d, TS_REF_GIVE] += 1.0
        if three:
            for line in range(3):
                v = values[3 + line]
                tensor[e, d, TS_DEALER_SUM + line] += v
                tensor[e, d, TS_DEALER_SQ + line] += v * v
        done += 1
    counts[BC_DEALS] += done
    return done


# --- every score from the same deals (two sides, match-win probability) -------------------------
#
# The cards do not know the score: no card player reads it, and the only decision that does is
# the dealer's "a gift that ends the match" (heuristic.gift_wins_match), which needs the eldest's
# side at target - gift or more. So each deal's three lines are played once with the match left
# open (`open_rules`: the target out of reach, the score 0:0), their points kept by category, and
# the line at any score a:b is that record walked in the rule book's order of scoring (kicks to
# the dealer's side, the gift, the jack bonus, High, Low, Jack or hang jack, Game: W_* order),
# stopping at the target; unfinished, its value is the equity table's at the new score. A line
# that was redealt (its later decisions could meet the gift rule) is played again, exactly, at
# each score where the gift would end the match.


@njit(cache=True, _nrt=False)
def walk_line(awards, n_awards, a, b, target, equity):
    """P(the eldest's side wins) for a line recorded as `awards[k] = (side 0 eldest's / 1 dealer's, points)`
    in scoring order, from a:b (eldest's side, dealer's side) before the deal; the first award is the
    first turn-up's kick (the caller skips the scores where it ends the match)."""
    se = a
    sd = b
    for k in range(n_awards):
        if awards[k, 0] == 0:
            se += awards[k, 1]
            if se >= target:
                return 1.0
        else:
            sd += awards[k, 1]
            if sd >= target:
                return 0.0
    return equity[se, sd]  # the eldest deals next: equity[dealer's side, other side]


@njit(cache=True, _nrt=False)
def record_awards(pts, eside, dside, awards):
    """Fill `awards` from a line's points by side and category (in W_* order: the order they are
    scored in); returns how many."""
    k = 0
    for w in range(N_WHY):
        for side in (dside, eside):
            if pts[side, w] > 0:
                awards[k, 0] = 0 if side == eside else 1
                awards[k, 1] = pts[side, w]
                k += 1
    return k


@njit(cache=True, nogil=True)
def score_tensors(rules, open_rules, kinds, params, ref_kind, ref_params, equity, scheme, deck_rng, rng, ref_rng,
                  n_deals, tensors, counts):
    """score_tensors_in with its scratch space allocated here; returns deals sampled."""
    ev = np.zeros((0, 4), dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    line_deck, sc, info, pts, work, state = line_scratch(needs_search(kinds) or is_search_kind(ref_kind))
    seen = np.zeros(4, dtype=np.int64)
    streams = np.zeros((5, 4), dtype=np.uint64)
    awards = np.zeros((3, 2 * N_WHY, 2), dtype=np.int64)
    n_awards = np.zeros(3, dtype=np.int64)
    redealt = np.zeros(3, dtype=np.bool_)
    values = np.zeros(3, dtype=np.float64)
    return score_tensors_in(rules, open_rules, kinds, params, ref_kind, ref_params, equity, scheme, deck_rng, rng,
                            ref_rng, n_deals, tensors, counts, ev, deck, line_deck, sc, seen, info, pts, work, state,
                            streams, awards, n_awards, redealt, values)


@njit(cache=True, nogil=True, _nrt=False)
def score_tensors_in(rules, open_rules, kinds, params, ref_kind, ref_params, equity, scheme, deck_rng, rng, ref_rng,
                     n_deals, tensors, counts, ev, deck, line_deck, sc, seen, info, pts, work, state, streams, awards,
                     n_awards, redealt, values):
    """Sample `n_deals` deals, play each three ways once (the match open), and add every score's
    tensor: tensors[e, d, a * T + b, TS_*] (TS_N, TS_SUM, TS_SQ, TS_REF_*; a deal's scores lie
    together in memory) and counts[a * T + b, BC_*], for the eldest's side at a and the dealer's
    at b before the deal (T = the target). A
    deal counts at a score unless its first kick ends the match there. Two sides only; the
    payoff is the match-win probability (equity[a, b]: P(the dealer's side wins | a, b))."""
    n = rules[R_PLAYERS]
    dealer = n - 1
    eldest = 0
    dside = side_of(dealer, n)
    eside = side_of(eldest, n)
    turnup_pos = HAND_SIZE * n
    target = rules[R_TARGET]
    gift = rules[R_GIFT]
    deal_deck_rng = streams[0]
    deal_rng = streams[1]
    dr = streams[2]
    r = streams[3]
    tmp = streams[4]
    for _ in range(n_deals):
        shuffle_deck(deck, deck_rng)
        turnup = deck[turnup_pos]
        trump = turnup // 13
        kick = kick_points(rules[R_KICK], turnup)
        eldest_hand = dealt_hand(deck, 0)
        dealer_hand = dealt_hand(deck, n - 1)
        e = bid_class(scheme, eldest_hand, trump)
        d = bid_class(scheme, dealer_hand, trump)
        for s in range(4):
            seen[s] = 0
        seen[dside] = kick
        ref_beg = decide_beg(ref_kind, ref_params, eldest_hand, turnup, eldest, dealer, seen, rules, ref_rng)
        ref_give = decide_give(ref_kind, ref_params, dealer_hand, turnup, dealer, dealer, seen, rules, ref_rng)
        ref_give_ends = ref_give
        if gift > 0:  # the eldest's side at target - gift: the gift would end the match
            seen[eside] = target - gift
            ref_give_ends = decide_give(ref_kind, ref_params, dealer_hand, turnup, dealer, dealer, seen, rules,
                                        ref_rng)
        copy_words(deal_deck_rng, deck_rng)
        jump_in(deck_rng, tmp)
        copy_words(deal_rng, rng)
        jump_in(rng, tmp)
        for line in range(3):
            copy_words(line_deck, deck)
            copy_words(dr, deal_deck_rng)
            copy_words(r, deal_rng)
            sc[:] = 0
            play_line_in(open_rules, dealer, sc, line_deck, WHOLE_DECK, LINE_FORCE_BEG[line], LINE_FORCE_GIVE[line],
                         kinds, params, dr, r, ev, info, pts, work, state)
            n_awards[line] = record_awards(pts, eside, dside, awards[line])
            redealt[line] = info[I_DEALS] > 1
        for a in range(target):
            gift_ends = gift > 0 and a + gift >= target
            for b in range(target):
                cell = a * target + b
                counts[cell, BC_TRIES] += 1
                if b + kick >= target:
                    counts[cell, BC_KICK_ENDED] += 1
                    continue
                counts[cell, BC_DEALS] += 1
                for line in range(3):
                    if gift_ends and redealt[line]:  # its later give decision meets the gift rule: play it here
                        copy_words(line_deck, deck)
                        copy_words(dr, deal_deck_rng)
                        copy_words(r, deal_rng)
                        sc[:] = 0
                        sc[eside] = a
                        sc[dside] = b
                        play_line_in(rules, dealer, sc, line_deck, WHOLE_DECK, LINE_FORCE_BEG[line],
                                     LINE_FORCE_GIVE[line], kinds, params, dr, r, ev, info, pts, work, state)
                        w = info[I_WINNER]
                        if w >= 0:
                            values[line] = 1.0 if w == eside else 0.0
                        else:
                            values[line] = equity_of(equity, sc, eside, eside)
                    else:
                        values[line] = walk_line(awards[line], n_awards[line], a, b, target, equity)
                t = tensors[e, d, cell]
                t[TS_N] += 1.0
                for line in range(3):
                    v = values[line]
                    t[TS_SUM + line] += v
                    t[TS_SQ + line] += v * v
                if ref_beg:
                    t[TS_REF_BEG] += 1.0
                if ref_give_ends if gift_ends else ref_give:
                    t[TS_REF_GIVE] += 1.0
    return n_deals


# --- regret matching (CFR+) on the tensor, for the game that is not zero-sum ------------------


@njit(cache=True)
def cfr_plus(stand, give, run, d_give, d_run, iterations, checkpoints, b_hist, g_hist, b_now, g_now):
    """CFR+ on the bidding game given per-pair payoff masses (each float64[E, D]: P(e, d) times
    the mean payoff of the line; stand/give/run the eldest's, d_give/d_run the dealer's own: its
    payoff when the eldest stands does not depend on its choice).

    Both players' information sets are their classes, each with two actions; chance is the
    deal. Alternating updates (the eldest, then the dealer against the eldest's new
    strategy), regrets floored at zero, averages weighted by the iteration number. The
    eldest's counterfactual values are its stand and beg values per class, the dealer's its
    give and run values per class weighted by the eldest's beg probabilities. After
    iteration checkpoints[k] the average strategies go to b_hist[k] (P(beg) per eldest
    class) and g_hist[k] (P(give) per dealer class); b_now/g_now get the last iterate.
    """
    n_e, n_d = stand.shape
    stand_value = np.zeros(n_e)
    for e in range(n_e):
        for d in range(n_d):
            stand_value[e] += stand[e, d]
    reg_b = np.zeros((n_e, 2))
    reg_g = np.zeros((n_d, 2))
    b = np.full(n_e, 0.5)
    g = np.full(n_d, 0.5)
    sum_b = np.zeros(n_e)
    sum_g = np.zeros(n_d)
    weight = 0.0
    k = 0
    for t in range(1, iterations + 1):
        for e in range(n_e):
            beg_value = 0.0
            for d in range(n_d):
                beg_value += g[d] * give[e, d] + (1.0 - g[d]) * run[e, d]
            now = (1.0 - b[e]) * stand_value[e] + b[e] * beg_value
            reg_b[e, 0] = max(reg_b[e, 0] + stand_value[e] - now, 0.0)
            reg_b[e, 1] = max(reg_b[e, 1] + beg_value - now, 0.0)
            total = reg_b[e, 0] + reg_b[e, 1]
            b[e] = reg_b[e, 1] / total if total > 0.0 else 0.5
        for d in range(n_d):
            give_value = 0.0
            run_value = 0.0
            for e in range(n_e):
                give_value += b[e] * d_give[e, d]
                run_value += b[e] * d_run[e, d]
            now = g[d] * give_value + (1.0 - g[d]) * run_value
            reg_g[d, 0] = max(reg_g[d, 0] + give_value - now, 0.0)
            reg_g[d, 1] = max(reg_g[d, 1] + run_value - now, 0.0)
            total = reg_g[d, 0] + reg_g[d, 1]
            g[d] = reg_g[d, 0] / total if total > 0.0 else 0.5
        weight += t
        for e in range(n_e):
            sum_b[e] += t * b[e]
        for d in range(n_d):
            sum_g[d] += t * g[d]
        while k < checkpoints.shape[0] and checkpoints[k] == t:
            for e in range(n_e):
                b_hist[k, e] = sum_b[e] / weight
            for d in range(n_d):
                g_hist[k, d] = sum_g[d] / weight
            k += 1
    b_now[:] = b
    g_now[:] = g
