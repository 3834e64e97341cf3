"""The ``heuristic`` player: what strong players do, as named rules on bitmasks.

It sees only what a player at the table sees: its own hand, the turn-up (for
beg and give), the trump, the cards of earlier tricks (``PS_PLAYED`` of the play state), the trick so
far and the scores. "Unseen" cards are all the others, wherever they are (hands,
stock, turn-up): a player cannot tell. A card "holds" when no unseen card can beat
it, or when no one plays after it. Card play is deterministic and draws nothing
from the choice stream; decisions draw one number only when a probability
overrides them.

Decisions (trump strength = trumps held, the ace and the jack of trump counting
twice: ``evaluator.trump_strength``):

* BEG_WEAK (``beg_trumps``): the eldest begs when its trump strength in the
  turn-up suit is below ``beg_trumps``, else stands.
* GIVE_STRONG (``give_trumps``): the dealer gives one when its own trump strength
  in the turn-up suit is at least ``give_trumps``, else runs the cards.
* GIVE_NEVER_LOSES (``score_aware``): the dealer runs rather than give a gift that
  ends the match. (Running, or standing, whenever a kick could end the match
  measured worse in tournaments, so the heuristic does not do it.)
* BUNCH_WEAK (``bunch_trumps``): agree to bunch when the trump strength in the new
  trump is below ``bunch_trumps``.
* ``beg`` / ``give`` / ``bunch``: -1 (default) decides by the rules above; a value in
  [0, 1] replaces them by that probability (as the random player does).
* DISCARD_KEEP_BEST: keep trumps (ace, jack, ten, the two, then by rank), then
  side cards by Game points (tens first), then by rank.

Card play, each case's rules in the order they are tried:

* Leading. CASH_BOSS_JACK (``cash_jack``): lead the jack of trump, then the ten,
  once it holds, to capture it ourselves. PULL (``pull``): while the jack or ten of
  trump is unseen, lead our highest trump if it holds, so their holders must
  follow. DRAW_JACK (``draw_trumps``): while the jack is unseen, lead the smallest
  trump holding at least ``draw_trumps`` trumps below the jack, so its holder is
  forced to play it into a trick our side can take. LEAD_LOW_SIDE: lead a card
  without Game points from the longest side suit. KEEP_TENS: else the cheapest
  card (DUCK order): tens and the jack go last.
* Partner winning. SAVE_JACK / SMEAR (``smear``): if the partner's card holds,
  throw the jack of trump, else the card with most Game points (tens first; never
  the ace, king or queen of trump). NO_OVERTRUMP_PARTNER: never beat a partner's
  card unless the trick is worth taking (``win_points``) and our card holds;
  otherwise DUCK.
* Opponent winning. CAPTURE (``win_points``, ``jack_value``): a trick holding at
  least ``win_points`` Game points (the jack of trump counting ``jack_value``) is
  taken with the best winner that holds (the jack or ten of trump capturing itself,
  side cards with points first, else the lowest trump), or else with the cheapest
  winner, never risking the jack or ten of trump. This is permissive trumping: trump
  the ace, the tens and the jack even while holding the led suit. FREE_WIN: take
  the trick anyway when a winner that holds costs nothing (a side card, or the jack
  or ten of trump capturing itself).
* DUCK: the cheapest card to give away: side cards without points (lowest rank),
  side jacks, queens, kings, small trumps, side aces, the ace, king, queen of trump,
  side tens, the ten of trump, the jack of trump. GUARD_JACK: while we hold the
  jack, the small trumps are its guards and move after the side aces.

The Spanish-language guide's advice as switches (``engine/tips.py`` says exactly what each does,
quoting the tip): TIP_CAPTURE_JACK (``tip_capture_jack``), TIP_EARLY_TRUMPS
(``tip_early_trumps``), TIP_TRUMP_ACE (``tip_trump_ace``) and TIP_KEEP_GAME
(``tip_keep_game_cards``) narrow the legal cards in their situation before the rules
above choose among what is left (a lead rule whose card is not allowed is skipped);
TIP_RUN_STRONG_SIDE (``tip_run_strong_side``) decides the dealer's give or run with a
strong side suit, after GIVE_NEVER_LOSES. Each is -1 by default (the rules above, as
they are), 1 forces the tip on, 0 forces it off; ``check-advice`` measures them.

Parameters (name: index, default): beg: 0, -1; give: 1, -1; bunch: 2, -1;
beg_trumps: 3, 2; give_trumps: 4, 3; bunch_trumps: 5, 2; win_points: 6, 4;
jack_value: 7, 10; draw_trumps: 8, 2; smear: 9, 1; score_aware: 10, 1;
cash_jack: 11, 1; pull: 12, 1 (flags: 1 on, 0 off); tip_capture_jack: 13, -1;
tip_early_trumps: 14, -1; tip_trump_ace: 15, -1; tip_keep_game_cards: 16, -1;
tip_run_strong_side: 17, -1. Against the random player the defaults win about 83% of
trinidad matches (``allfours tournament``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_GIFT, R_PLAYERS, R_TARGET
from .bits import (
    GAME_VALUE, RANK_ACE, RANK_JACK, RANK_MASKS, RANK_TEN, SUIT_BITS, U1, bit, game_points, highest_card, lowest_card, next_seat,
    popcount, rand_unit, side_of, suit_mask,
)
from .evaluator import trump_strength
from .layout import (
    PS_BEST_CARD, PS_BEST_SEAT, PS_HAND, PS_LED, PS_PLAYED, PS_PLAYERS, PS_TO_PLAY, PS_TRICK_MASK, PS_TRUMP, H_BEG_TRUMPS, H_BUNCH_TRUMPS, H_CASH_JACK,
    H_DRAW_TRUMPS, H_GIVE_TRUMPS, H_JACK_VALUE, H_PULL, H_SCORE_AWARE, H_SMEAR, H_TIP_CAPTURE_JACK, H_TIP_EARLY_TRUMPS,
    H_TIP_KEEP_GAME, H_TIP_RUN_STRONG_SIDE, H_TIP_TRUMP_ACE, H_WIN_POINTS, P_BEG, P_BUNCH, P_GIVE,
)
from .tips import TIP_DEFAULT, tip_allowed, tip_give, tips_active

# Defaults of the heuristic's parameter row (policy.py names them).
HEURISTIC_DEFAULTS = {
    "beg": (P_BEG, -1.0), "give": (P_GIVE, -1.0), "bunch": (P_BUNCH, -1.0),
    "beg_trumps": (H_BEG_TRUMPS, 2.0), "give_trumps": (H_GIVE_TRUMPS, 3.0), "bunch_trumps": (H_BUNCH_TRUMPS, 2.0),
    "win_points": (H_WIN_POINTS, 4.0), "jack_value": (H_JACK_VALUE, 10.0), "draw_trumps": (H_DRAW_TRUMPS, 2.0),
    "smear": (H_SMEAR, 1.0), "score_aware": (H_SCORE_AWARE, 1.0), "cash_jack": (H_CASH_JACK, 1.0), "pull": (H_PULL, 1.0),
    # The Spanish-language guide's play advice as switches (engine/tips.py): -1 as the rules above play, 1 on, 0 off.
    "tip_capture_jack": (H_TIP_CAPTURE_JACK, TIP_DEFAULT), "tip_early_trumps": (H_TIP_EARLY_TRUMPS, TIP_DEFAULT),
    "tip_trump_ace": (H_TIP_TRUMP_ACE, TIP_DEFAULT), "tip_keep_game_cards": (H_TIP_KEEP_GAME, TIP_DEFAULT),
    "tip_run_strong_side": (H_TIP_RUN_STRONG_SIDE, TIP_DEFAULT),
}

ALL_CARDS = np.uint64((1 << 52) - 1)
PLAIN = np.uint64(sum(int(RANK_MASKS[r]) for r in range(RANK_TEN)))  # 2..9 of every suit: no Game points
TENS = RANK_MASKS[RANK_TEN]
ACES = RANK_MASKS[RANK_ACE]
TENS_AND_JACKS = np.uint64(int(RANK_MASKS[RANK_TEN]) | int(RANK_MASKS[RANK_JACK]))
JQK = np.uint64(sum(int(RANK_MASKS[r]) for r in range(RANK_JACK, RANK_ACE)))  # jacks, queens, kings
AKQJ = np.uint64(sum(int(RANK_MASKS[r]) for r in range(RANK_JACK, RANK_ACE + 1)))  # aces, kings, queens, jacks


@njit(cache=True, inline="always")
def above(card):
    """Mask of every card index higher than `card` (same suit or later suits)."""
    return ~((U1 << np.uint64(card + 1)) - U1)


# --- decisions -----------------------------------------------------------------


@njit(cache=True, inline="always")
def gift_wins_match(dealer, scores, rules):
    """True if the gift alone would bring the eldest's side to the target."""
    n = rules[R_PLAYERS]
    eside = side_of(next_seat(dealer, n), n)
    return rules[R_GIFT] > 0 and scores[eside] + rules[R_GIFT] >= rules[R_TARGET]


@njit(cache=True, _nrt=False)
def heuristic_beg(params, hand, turnup, seat, dealer, scores, rules, rng):
    if params[P_BEG] >= 0.0:
        return rand_unit(rng) < params[P_BEG]
    return trump_strength(hand, turnup // 13) < params[H_BEG_TRUMPS]  # BEG_WEAK


@njit(cache=True, _nrt=False)
def heuristic_give(params, hand, turnup, seat, dealer, scores, rules, rng):
    if params[P_GIVE] >= 0.0:
        return rand_unit(rng) < params[P_GIVE]
    if params[H_SCORE_AWARE] > 0.0 and gift_wins_match(dealer, scores, rules):
        return False  # GIVE_NEVER_LOSES
    tip = tip_give(params, hand, turnup // 13)
    if tip >= 0:
        return tip == 1  # tip_run_strong_side, when switched on or off
    return trump_strength(hand, turnup // 13) >= params[H_GIVE_TRUMPS]  # GIVE_STRONG


@njit(cache=True, _nrt=False)
def heuristic_bunch(params, hand, trump, seat, dealer, scores, rules, rng):
    if params[P_BUNCH] >= 0.0:
        return rand_unit(rng) < params[P_BUNCH]
    return trump_strength(hand, trump) < params[H_BUNCH_TRUMPS]  # BUNCH_WEAK


@njit(cache=True, _nrt=False)
def keep_value(card, trump):
    """How much a card is worth keeping when discarding down to six."""
    r = card % 13
    if card // 13 == trump:
        if r == 12:
            return 240
        if r == RANK_JACK:
            return 239
        if r == RANK_TEN:
            return 238
        if r == 0:
            return 237  # the two of trump: Low for sure
        return 200 + r
    return 10 * GAME_VALUE[r] + r


@njit(cache=True, _nrt=False)
def heuristic_discard(params, hand, trump, keep):
    """DISCARD_KEEP_BEST: throw the least valuable cards until `keep` remain."""
    gone = np.uint64(0)
    left = np.uint64(hand)
    while popcount(left) > keep:
        worst = -1
        worst_value = 1 << 30
        m = left
        while m:
            c = lowest_card(m)
            m &= m - U1
            v = keep_value(c, trump)
            if v < worst_value:
                worst, worst_value = c, v
        gone |= bit(worst)
        left &= ~bit(worst)
    return gone


# --- card play -----------------------------------------------------------------


@njit(cache=True, inline="always")
def ranks_held(cards):
    """The ranks (bit r for rank r) of which `cards` holds at least one card, in any suit."""
    return (cards | (cards >> np.uint64(13)) | (cards >> np.uint64(26)) | (cards >> np.uint64(39))) & SUIT_BITS


@njit(cache=True, inline="always")
def lowest_rank(cards):
    """The card of lowest rank in `cards` (non-empty); ties go to the lower suit. Without a loop over the
    ranks: the lowest rank held in any suit, then the lowest card of that rank."""
    return lowest_card(cards & (RANK_MASKS[0] << np.uint64(lowest_card(ranks_held(cards)))))


@njit(cache=True, inline="always")
def highest_rank(cards):
    """The card of highest rank in `cards` (non-empty); ties go to the lower suit."""
    return lowest_card(cards & (RANK_MASKS[0] << np.uint64(highest_card(ranks_held(cards)))))


@njit(cache=True, _nrt=False)
def cheapest(cards, trump, guarding):
    """DUCK / KEEP_TENS / GUARD_JACK: the card of `cards` (non-empty) cheapest to give away.

    Order: side cards without points (lowest rank first), side jacks, queens and
    kings, small trumps (2..9), side aces, the ace, king and queen of trump, side
    tens, the ten of trump, the jack of trump. While holding the jack, the small
    trumps are its guards and move after the side aces.
    """
    tmask = suit_mask(trump)
    side = cards & ~tmask
    trumps = cards & tmask
    if side & PLAIN:
        return lowest_rank(side & PLAIN)
    if side & JQK:
        return lowest_rank(side & JQK)  # the lowest of jacks, queens and kings
    if trumps & PLAIN and not guarding:
        return lowest_card(trumps & PLAIN)
    if side & ACES:
        return lowest_card(side & ACES)
    if trumps & ~TENS_AND_JACKS:
        return lowest_card(trumps & ~TENS_AND_JACKS)
    if side & TENS:
        return lowest_card(side & TENS)
    if trumps & TENS:
        return lowest_card(trumps & TENS)
    return lowest_card(trumps)


@njit(cache=True, _nrt=False)
def cheapest_win(cards, trump):
    """The winner of `cards` (non-empty) best spent on a trick it will hold, and
    whether it costs nothing: the jack or ten of trump capturing itself, else a side
    card (all of the led suit), points first, else the lowest trump (not free)."""
    tmask = suit_mask(trump)
    trumps = cards & tmask
    side = cards & ~tmask
    if trumps & TENS_AND_JACKS:
        return highest_card(trumps & TENS_AND_JACKS), True
    if side:
        if side & TENS:
            return lowest_card(side & TENS), True
        if side & AKQJ:
            return highest_rank(side & AKQJ), True  # the highest of aces, kings, queens and jacks
        return lowest_card(side), True
    return lowest_card(trumps), False


@njit(cache=True, inline="always")
def holds(card, led, trump, unseen, last):
    """True if `card`, winning the trick, cannot be beaten by a card still unseen.

    A side card can be beaten by any unseen trump (trumping is permissive)."""
    if last:
        return True
    unseen_trumps = unseen & suit_mask(trump)
    if card // 13 == trump:
        return (unseen_trumps & above(card)) == 0
    return unseen_trumps == 0 and (unseen & suit_mask(led) & above(card)) == 0


@njit(cache=True, inline="always")
def sure_winners(winners, led, trump, unseen, last):
    """The cards of `winners` that hold (see `holds`), as a mask."""
    if last:
        return winners
    tmask = suit_mask(trump)
    unseen_trumps = unseen & tmask
    sure = winners & tmask
    if unseen_trumps:
        return sure & above(highest_card(unseen_trumps))
    higher = unseen & suit_mask(led)
    side = winners & ~tmask
    return sure | ((side & above(highest_card(higher))) if higher else side)


@njit(cache=True, _nrt=False)
def smear_card(legal, trump):
    """SAVE_JACK / SMEAR: the card with most Game points to give a partner (-1 if none).

    The jack of trump first, then tens, side aces, kings, queens and jacks; never the
    ace, king or queen of trump, which win tricks."""
    jack = bit(trump * 13 + RANK_JACK)
    if legal & jack:
        return trump * 13 + RANK_JACK
    if legal & TENS:
        return lowest_card(legal & TENS)
    side = legal & ~suit_mask(trump) & AKQJ
    if side:
        return highest_rank(side)  # the highest of aces, kings, queens and jacks
    return -1


@njit(cache=True, _nrt=False, inline="always")
def heuristic_lead(hand, allowed, trump, unseen, cash_jack, pull, draw_trumps):
    """The lead from `hand`, among the cards `allowed` (the hand itself unless a tip switch narrows it): each
    rule names its card from the whole hand and is skipped when that card is not allowed."""
    tmask = suit_mask(trump)
    jack_card = trump * 13 + RANK_JACK
    ten_card = trump * 13 + RANK_TEN
    jack = bit(jack_card)
    trumps = hand & tmask
    unseen_trumps = unseen & tmask
    if trumps and cash_jack:
        # CASH_BOSS_JACK: the jack, then the ten, once no unseen trump beats them.
        if (trumps & jack & allowed) and (unseen_trumps & above(jack_card)) == 0:
            return jack_card
        if (trumps & bit(ten_card) & allowed) and (unseen_trumps & above(ten_card)) == 0:
            return ten_card
    if pull and trumps and (unseen_trumps & (jack | bit(ten_card))):
        top = highest_card(trumps)
        if (unseen_trumps & above(top)) == 0 and top != jack_card and (allowed & bit(top)):
            return top  # PULL
    small = trumps & (jack - U1)
    if (unseen_trumps & jack) and small and popcount(small) >= draw_trumps and (allowed & bit(lowest_card(small))):
        return lowest_card(small)  # DRAW_JACK
    # LEAD_LOW_SIDE: a card without points from the longest side suit.
    best_len = 0
    best = -1
    for s in range(4):
        plain = allowed & suit_mask(s) & PLAIN
        if s != trump and plain:
            length = popcount(hand & suit_mask(s))
            if length > best_len:
                best_len = length
                best = lowest_card(plain)
    if best >= 0:
        return best
    return cheapest(allowed, trump, (hand & jack) != 0)  # KEEP_TENS: point cards and the jack last


@njit(cache=True, inline="always")
def heuristic_card(params, state, legal, rules, rng):
    """The heuristic's card for the seat to play, from the non-empty mask `legal` (see the module docstring).
    The signature every card policy shares; the heuristic reads neither `rules` nor `rng` (``heuristic_play``)."""
    return heuristic_play(params, state, legal)


@njit(cache=True, _nrt=False, inline="always")
def heuristic_play(params, state, legal):
    """heuristic_card's work, with only the arrays it reads: numba passes each array as its struct's
    fields, so two arrays fewer are some fourteen words fewer pushed at every card (the player count is
    the state's own, PS_PLAYERS). The tip switches narrow `legal` first; the rules are `heuristic_rules`."""
    legal = np.uint64(legal)
    if tips_active(params):  # the Spanish-language guide's play advice, switched on or off (engine/tips.py)
        if (legal & (legal - U1)) == 0:
            return lowest_card(legal)  # one legal card
        legal = tip_allowed(params, state, legal)
    return heuristic_rules(params, state, legal)


@njit(cache=True, _nrt=False, inline="always")
def heuristic_rules(params, state, legal):
    """The heuristic's card by its rules alone, the tip switches not looked at: what ``heuristic_play`` plays
    for a row whose switches are all at their default (``tips.tips_active`` false). The trick loop calls
    it directly for such seats, the switches checked once a playout rather than at every card."""
    seat = state[PS_TO_PLAY]
    hand = np.uint64(state[PS_HAND + seat])
    trick = np.uint64(state[PS_TRICK_MASK])
    return rules_card(params, np.uint64(legal), state[PS_PLAYERS], seat, state[PS_TRUMP], hand, trick,
                      ALL_CARDS & ~hand & ~np.uint64(state[PS_PLAYED]) & ~trick, state[PS_LED], state[PS_BEST_CARD],
                      state[PS_BEST_SEAT])


@njit(cache=True, _nrt=False)
def rules_card(params, legal, n, seat, trump, hand, trick, unseen, led, best, best_seat):
    """``heuristic_rules`` on the play state's fields as numbers (the trick loop of ``playout.rules_tricks`` holds
    them in registers): `hand` the seat's, `trick` the cards of the trick so far, `unseen` the cards the seat has
    not seen, `led` the led suit (-1 to lead), `best` and `best_seat` the card winning the trick and its seat."""
    if (legal & (legal - U1)) == 0:
        return lowest_card(legal)  # one legal card
    if led < 0:
        return heuristic_lead(hand, legal, trump, unseen, params[H_CASH_JACK] > 0.0, params[H_PULL] > 0.0,
                              params[H_DRAW_TRUMPS])
    tmask = suit_mask(trump)
    jack = bit(trump * 13 + RANK_JACK)
    guarding = (hand & jack) != 0
    last = popcount(trick) == n - 1
    if best // 13 == trump:
        winners = legal & tmask & above(best)
    else:
        winners = (legal & tmask) | (legal & suit_mask(led) & above(best))
    if n == 4 and best_seat % 2 == seat % 2:  # partner winning
        if holds(best, led, trump, unseen, last):
            if params[H_SMEAR] > 0.0:
                c = smear_card(legal, trump)
                if c >= 0:
                    return c  # SAVE_JACK / SMEAR
            return cheapest(legal, trump, guarding)
        # NO_OVERTRUMP_PARTNER, unless the trick is worth it and ours would hold.
        if winners:
            sure = sure_winners(winners, led, trump, unseen, last)
            if sure and game_points(trick) + (params[H_JACK_VALUE] if trick & jack else 0.0) >= params[H_WIN_POINTS]:
                return cheapest_win(sure, trump)[0]
        return cheapest(legal, trump, guarding)
    if winners == 0:
        return cheapest(legal, trump, guarding)  # DUCK: nothing can take the trick (the rules below come to it)
    sure = sure_winners(winners, led, trump, unseen, last)
    value = game_points(trick) + (params[H_JACK_VALUE] if trick & jack else 0.0)
    if sure:
        c, free = cheapest_win(sure, trump)
        if free or value >= params[H_WIN_POINTS]:
            return c  # FREE_WIN / CAPTURE
    if winners and value >= params[H_WIN_POINTS]:
        risky = winners & ~(tmask & TENS_AND_JACKS)
        if risky:
            return cheapest(risky, trump, guarding)  # CAPTURE at a risk, never with the jack or ten
    return cheapest(legal, trump, guarding)  # DUCK


# rules_card compiled into the heuristic's own trick loop (``playout.rules_tricks``), where a call passes some
# twenty words
rules_card_inline = njit(_nrt=False, inline="always")(rules_card.py_func)
