"""The model of the other players: how likely each bid and each card they chose was, holding a world's hands.

A seat at the table reads the others' choices: an eldest who stood probably holds a trump, a player
who did not win a trick it could have probably could not. The model gives, for a seat dealt a
world's hands, the probability of each choice it made, so a world is weighed by the product of those
probabilities (its *likelihood*; ``world_log_weight`` returns its logarithm, ``worlds.world_log_weights``
for many deals, ``search.sample_weighted`` draws pimc's worlds by it). Every other seat is
modelled, a partner included: the players at a table are people, not a known program.

* **Bids** (the eldest's stand or beg, the dealer's gift; ``search.record_bid``): the probability the
  strategy row `params` gives the seat's class of hand (``tuned.py``'s tables: an equilibrium's mixed
  entry is that probability; a class the tables leave to the heuristic's rule, 1 or 0), mixed with the
  floor: ``(1 - bid_floor) * p + bid_floor / 2``.
* **Cards**: the heuristic's order of preference among the legal cards (its card, then its card among
  the rest, and so on: ``preference_rank``) graded by a temperature: the card of rank r has weight
  ``exp(-r / temperature)`` among the n legal cards, mixed with the floor:
  ``(1 - card_floor) * exp(-r / T) / sum_k exp(-k / T) + card_floor / n``. Temperature 0 is the heuristic's
  card only (pimc's own model with ``doubt`` 0, before the floor); a large temperature, or floor 1, is every
  legal card alike. A card the world's hand could not have played legally gets ``IMPOSSIBLE`` (never
  zero: a world sampled seat by seat may break a shown void).

The floor keeps an odd choice from ruling a world out: a person can misplay, or hold a reason the model
does not see. The figures of the temperature and floors are fitted by likelihood on play the model did not
generate (``analysis/play/inference.py``, ``scripts/fit_inference.py``).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .bits import bit, lowest_card, popcount
from .evaluator import hand_class_code, trump_strength
from .heuristic import gift_wins_match, heuristic_card
from .layout import H_BEG_TRUMPS, H_GIVE_TRUMPS, H_SCORE_AWARE, P_BEG, P_GIVE, PS_DEALER, PS_HAND, PS_PLAYERS
from .layout import PS_START, PS_TO_PLAY, T_BEG, T_GIVE
from .state import apply, copy_state, legal
from .tips import tip_give

IMPOSSIBLE = math.log(1e-9)  # the log-probability of a card the world's hand could not legally have played
LEVEL_BIDS, LEVEL_FULL = 1, 2  # what the weights read: the bids only, or the bids and the cards
# The bidding as recorded before play (search.record_bid; the same values as search.BID_*): nothing to read
# (runs dealt more cards, or nothing was bid), the eldest stood, the eldest begged and the dealer gave one.
BID_UNKNOWN, BID_STOOD, BID_GIVEN = 0, 1, 2
# The model's grades, fitted by likelihood on play it did not generate (scripts/fit_inference.py,
# results/inference/fit.json, docs/search.md): cards on pimc's card play (trinidad 4 players; temperature 0.383,
# 95% CI 0.32-0.44; floor 0.550, 0.53-0.57), bids on the shipped strategy's (best-response) bids judged by the
# equilibrium (floor 0.0454, 0.040-0.051).
MODEL_TEMPERATURE = 0.38
MODEL_CARD_FLOOR = 0.55
MODEL_BID_FLOOR = 0.045
MODEL_FULL = -1.0  # pimc:model=full: this model (X_DOUBT below 0), worlds kept by likelihood (search.sample_weighted)


@njit(cache=True, _nrt=False)
def preference_rank(params, state, options, card, rules, rng):
    """The rank of `card` in the heuristic's order of preference among `options` (0: the heuristic's own
    card; then its card among the others, and so on); -1 if `card` is not among them."""
    if (options & bit(card)) == 0:
        return -1
    rest = options
    rank = 0
    while rest:
        c = heuristic_card(params, state, rest, rules, rng)
        if (rest & bit(c)) == 0:  # pragma: no cover - the heuristic plays one of the cards it is given
            c = lowest_card(rest)
        if c == card:
            return rank
        rest &= ~bit(c)
        rank += 1
    return -1  # pragma: no cover - card is among options


@njit(cache=True, _nrt=False)
def rank_probability(rank, n, temperature, floor):
    """The probability of the card of preference rank `rank` among `n` legal cards (module docstring)."""
    if n <= 1:
        return 1.0
    if temperature <= 0.0:
        top = 1.0 if rank == 0 else 0.0
    else:
        total = 0.0
        for k in range(n):
            total += math.exp(-k / temperature)
        top = math.exp(-rank / temperature) / total
    return (1.0 - floor) * top + floor / n


@njit(cache=True, _nrt=False)
def card_log_probability(params, state, options, card, rules, rng, temperature, floor):
    """log P(the seat to move in `state` plays `card`), `options` its legal cards (module docstring)."""
    rank = preference_rank(params, state, options, card, rules, rng)
    if rank < 0:
        return IMPOSSIBLE
    return math.log(rank_probability(rank, popcount(options), temperature, floor))


@njit(cache=True, _nrt=False)
def beg_probability(params, hand, turnup, rules):
    """P(the eldest begs) holding `hand` under the strategy row `params` (``tuned.tuned_beg`` as a probability)."""
    if params[P_BEG] < 0.0:
        flag = params[T_BEG + hand_class_code(hand, turnup // 13)]
        if flag >= 0.0:
            return flag
        return 1.0 if trump_strength(hand, turnup // 13) < params[H_BEG_TRUMPS] else 0.0
    return params[P_BEG]


@njit(cache=True, _nrt=False)
def give_probability(params, hand, turnup, dealer, scores, rules):
    """P(the dealer gives one) holding `hand` under the strategy row `params` (``tuned.tuned_give``)."""
    if params[P_GIVE] >= 0.0:
        return params[P_GIVE]
    if params[H_SCORE_AWARE] > 0.0 and gift_wins_match(dealer, scores, rules):
        return 0.0
    flag = params[T_GIVE + hand_class_code(hand, turnup // 13)]
    if flag >= 0.0:
        return flag
    tip = tip_give(params, hand, turnup // 13)
    if tip >= 0:
        return 1.0 if tip == 1 else 0.0
    return 1.0 if trump_strength(hand, turnup // 13) >= params[H_GIVE_TRUMPS] else 0.0


@njit(cache=True, _nrt=False)
def bid_log_likelihood(bid, turnup, scores, world, seat, params, rules, floor):
    """log P(the others' bids, `bid` a BID_* on `turnup` at `scores`) holding the hands `world` deals them (as
    dealt: 6 cards, no run)."""
    if bid == BID_UNKNOWN:
        return 0.0
    n = world[PS_PLAYERS]
    dealer = world[PS_DEALER]
    eldest = (dealer + 1) % n
    total = 0.0
    if eldest != seat:
        p = beg_probability(params, np.uint64(world[PS_START + eldest]), turnup, rules)
        if bid != BID_GIVEN:
            p = 1.0 - p
        total += math.log((1.0 - floor) * p + floor / 2.0)
    if bid == BID_GIVEN and dealer != seat:
        p = give_probability(params, np.uint64(world[PS_START + dealer]), turnup, dealer, scores, rules)
        total += math.log((1.0 - floor) * p + floor / 2.0)
    return total


@njit(cache=True, _nrt=False)
def world_log_weight(history, plays, replay, scratch, bid, turnup, scores, world, seat, params, rules, rng, level,
                     temperature, card_floor, bid_floor):
    """log of the likelihood of the others' choices holding the hands `world` deals: their bids (`bid` on
    `turnup` at `scores`), then (level LEVEL_FULL) each card another seat played: history[:plays], in order, from
    `replay` (the position as play started with only the cards played since in each hand:
    ``search.start_replay``); `scratch` is N_STATE words to replay in."""
    total = bid_log_likelihood(bid, turnup, scores, world, seat, params, rules, bid_floor)
    if level < LEVEL_FULL:
        return total
    copy_state(scratch, replay)
    for i in range(plays):
        card = history[i]
        mover = scratch[PS_TO_PLAY]
        if mover != seat:
            later = scratch[PS_HAND + mover]  # the cards it plays from here on
            scratch[PS_HAND + mover] = later | world[PS_HAND + mover]
            options = legal(scratch)
            if options & (options - np.uint64(1)):
                total += card_log_probability(params, scratch, options, card, rules, rng, temperature, card_floor)
            elif (options & bit(card)) == 0:
                total += IMPOSSIBLE
            scratch[PS_HAND + mover] = later
        apply(scratch, card)
    return total
