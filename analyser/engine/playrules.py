"""What a player sees of a card decision, and the ways a player picks a card: the parts of rules of play.

A rule of play reads like "partner winning the trick and it holds: give partner your highest-scoring card".
Its condition is made of **features** (``FEATURES``): small ints a player at the table can see and name, read
from the play state for the seat to play and from nothing it cannot see (its own hand, the cards of earlier
tricks, the trick so far, the voids the others have shown, the turn-ups, its own discards and the cards each
side has captured). Its action is an **action class** (``ACTIONS``, in a player's words ``ACTION_WORDS``): a
way of picking one card among the legal ones, or none where the words do not apply ("lead ..." while
following, "give partner ..." while partner is not winning the trick).

Words used below, exactly:

* **rank**: 2 lowest .. A highest (rank index 0..12, ``card % 13``); suits in the fixed order spades,
  hearts, diamonds, clubs (index 0..3, ``card // 13``). **Side** card: a card that is not a trump.
* **Game points** of a card: 10 = 10, A = 4, K = 3, Q = 2, J = 1, others 0 (the jack of trump counts 1).
* **Smallest** card of a set: the lowest rank; among cards of that rank, a side card before the trump, then
  the suit order. **Highest**: the highest rank, then the suit order.
* **Cheapest** card: the fewest Game points; then a side card before a trump; then the lowest rank; then the
  suit order.
* A card **wins** the trick when it beats the card winning it now (``state.beats``): a trump beats a side
  card and a lower trump; a side card beats only a lower card of the led suit, when no trump is in the trick.
* **Out**, for a card: the seat to play has not seen it: not in its hand, not played (earlier tricks and the
  trick so far), not a turn-up of the deal, not one of its own discards. A card out may be in another
  seat's hand, in the stock, or discarded by another seat: the seat cannot tell.
* A winning card **holds** when no seat after this one can take the trick from it: the seat plays last, or
  no card out beats it (voids are not counted on: a side card is beaten by any trump out).

Design: both parts are numba kernels (``cache=True``) on the play state's int64 array and uint64 card masks,
with no Python object inside, so that a rules player can call them at every card in the engine's trick loops.
``position_features(state, out)`` fills ``out[:N_FEATURES]``; ``action_card(state, legal, action)`` returns
a card or -1. The names and words (``FEATURES``, ``FEATURE_WORDS``, ``ACTIONS``, ``ACTION_WORDS``) are plain
tuples for the Python side (tables, fitting, the card); the kernels use the ``PF_*`` and ``A_*`` indices.
tests/engine/test_playrules.py reads every feature and every action class again, slowly, from its words.

Features (index: name, meaning; "0 when leading" where the trick has no card yet):

* 0 ``trick``: the trick being played, 1 for the first.
* 1 ``leading``: 1 if the seat leads the trick.
* 2 ``position``: cards already in the trick: 0 leading, 1 second to play, ...
* 3 ``last``: 1 if the seat plays the trick's last card.
* 4 ``trump_led``: 1 if the led suit is trump (0 when leading).
* 5 ``partner_winning``: 1 if the seat's partner (4 players) has the card winning the trick; 0 with 2 or 3.
* 6 ``opponent_winning``: 1 if a seat of another side has the card winning the trick.
* 7 ``best_trump``: 1 if the card winning the trick is a trump.
* 8 ``best_holds``: 1 if the card winning the trick holds (see above).
* 9 ``trick_points``: Game points of the cards in the trick.
* 10 ``trick_jack``, 11 ``trick_ten``: 1 if the trick holds the jack, the ten, of trump.
* 12 ``trumps``: trumps held.
* 13 ``hold_ace``, 14 ``hold_king``, 15 ``hold_queen``, 16 ``hold_jack``, 17 ``hold_ten``: 1 if the seat
  holds that card of trump.
* 18 ``low_trump``, 19 ``high_trump``: rank index (0 = 2 .. 12 = A) of the lowest, highest trump held; -1
  without a trump.
* 20 ``trumps_out``: trumps out.
* 21 ``ace_out``, 22 ``king_out``, 23 ``queen_out``, 24 ``jack_out``, 25 ``ten_out``: 1 if that card of
  trump is out.
* 26 ``side_tens_out``: tens of the three side suits that are out (0..3).
* 27 ``side_tens``: side tens held.
* 28 ``can_follow``: 1 if following and the seat holds a card of the led suit.
* 29 ``can_win``: 1 if following and some legal card wins the trick.
* 30 ``can_win_sure``: 1 if following and some legal card wins the trick and holds.
* 31 ``legal``: legal cards.
* 32 ``hand``: cards in hand.
* 33 ``opps_no_trump``: seats of other sides that have shown they hold no trump.
* 34 ``our_game``: Game points in the tricks the seat's side has captured.
* 35 ``their_game``: the most Game points any other side has captured.

Action classes (index: name; -1 where it does not apply):

* 0 ``lead_low_trump`` "lead your smallest trump": leading, the legal trump of lowest rank.
* 1 ``lead_high_trump`` "lead your highest trump": leading, the legal trump of highest rank.
* 2 ``lead_low_side`` "lead your smallest side card": leading, the smallest legal side card.
* 3 ``lead_long_side`` "lead the smallest card of your longest side suit": leading, among the side suits
  with a legal card the one with most cards in hand (ties: the suit order), its lowest card.
* 4 ``lead_high_side`` "lead your highest side card": leading, the highest legal side card.
* 5 ``win_cheap`` "play the cheapest card that wins the trick": following, the cheapest legal card that wins.
* 6 ``win_high`` "win with your highest card": following, the legal winning card that no other legal card
  beats: the highest winning trump, else the highest winning card of the led suit.
* 7 ``trump_in`` "trump in with your smallest winning trump": following a side-suit lead, the legal trump of
  lowest rank that wins.
* 8 ``win_ten`` "take the trick with your ten": following, a legal ten that wins: the side ten if it wins,
  else the ten of trump.
* 9 ``duck`` "duck: play your smallest card that does not win the trick": following, the smallest legal card
  that does not win.
* 10 ``keep_tens`` "keep your tens: play the smallest card that is not a ten": leading or following, the
  smallest legal card that is not a ten.
* 11 ``give_partner`` "give partner your highest-scoring card (a ten first)": following with partner (4
  players) winning the trick, the legal card with most Game points, ties: a side card before the trump, then
  the suit order; -1 when no legal card has Game points.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (
    RANK_ACE, RANK_JACK, RANK_KING, RANK_MASKS, RANK_QUEEN, RANK_TEN, SUIT_BITS, U1, bit, game_points,
    highest_card, lowest_card, popcount, side_of, suit_mask,
)
from .layout import (
    PS_BEST_CARD, PS_BEST_SEAT, PS_CAPTURED, PS_DISCARDS, PS_FORBID, PS_HAND, PS_LED, PS_PLAYED, PS_PLAYERS,
    PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_MASK, PS_TRICK_NO, PS_TRUMP, PS_TURNUP, PS_TURNUPS, PS_VOID_TRUMP, PS_VOIDS,
)
from .state import legal_mask

ALL_CARDS = np.uint64((1 << 52) - 1)
U0 = np.uint64(0)
TENS = RANK_MASKS[RANK_TEN]
PLAIN = np.uint64(sum(int(RANK_MASKS[r]) for r in range(RANK_TEN)))  # 2..9 of every suit: no Game points

FEATURES: tuple[str, ...] = (
    "trick", "leading", "position", "last", "trump_led", "partner_winning", "opponent_winning", "best_trump",
    "best_holds", "trick_points", "trick_jack", "trick_ten", "trumps", "hold_ace", "hold_king", "hold_queen",
    "hold_jack", "hold_ten", "low_trump", "high_trump", "trumps_out", "ace_out", "king_out", "queen_out", "jack_out",
    "ten_out", "side_tens_out", "side_tens", "can_follow", "can_win", "can_win_sure", "legal", "hand",
    "opps_no_trump", "our_game", "their_game",
)
FEATURE_WORDS: tuple[str, ...] = (
    "the trick being played (1 for the first)", "you lead the trick", "cards already in the trick",
    "you play the trick's last card", "trump was led", "your partner is winning the trick",
    "an opponent is winning the trick", "the card winning the trick is a trump",
    "the card winning the trick cannot be beaten by anyone after you", "Game points in the trick",
    "the jack of trump is in the trick", "the ten of trump is in the trick", "trumps you hold",
    "you hold the ace of trump", "you hold the king of trump", "you hold the queen of trump",
    "you hold the jack of trump", "you hold the ten of trump", "your lowest trump's rank (0 = 2 .. 12 = A, -1 none)",
    "your highest trump's rank (0 = 2 .. 12 = A, -1 none)", "trumps you have not seen",
    "the ace of trump is out", "the king of trump is out", "the queen of trump is out", "the jack of trump is out",
    "the ten of trump is out", "side tens out", "side tens you hold", "you can follow the led suit",
    "you can win the trick", "you can win the trick with a card no one after you can beat", "cards you may play",
    "cards in your hand", "opponents who have shown they have no trump", "Game points your side has taken",
    "Game points the other side has taken (the most of any other side)",
)
N_FEATURES = len(FEATURES)
assert len(FEATURE_WORDS) == N_FEATURES
(PF_TRICK, PF_LEADING, PF_POSITION, PF_LAST, PF_TRUMP_LED, PF_PARTNER_WINNING, PF_OPPONENT_WINNING, PF_BEST_TRUMP,
 PF_BEST_HOLDS, PF_TRICK_POINTS, PF_TRICK_JACK, PF_TRICK_TEN, PF_TRUMPS, PF_HOLD_ACE, PF_HOLD_KING, PF_HOLD_QUEEN,
 PF_HOLD_JACK, PF_HOLD_TEN, PF_LOW_TRUMP, PF_HIGH_TRUMP, PF_TRUMPS_OUT, PF_ACE_OUT, PF_KING_OUT, PF_QUEEN_OUT,
 PF_JACK_OUT, PF_TEN_OUT, PF_SIDE_TENS_OUT, PF_SIDE_TENS, PF_CAN_FOLLOW, PF_CAN_WIN, PF_CAN_WIN_SURE, PF_LEGAL,
 PF_HAND, PF_OPPS_NO_TRUMP, PF_OUR_GAME, PF_THEIR_GAME) = range(N_FEATURES)

ACTIONS: tuple[str, ...] = (
    "lead_low_trump", "lead_high_trump", "lead_low_side", "lead_long_side", "lead_high_side", "win_cheap",
    "win_high", "trump_in", "win_ten", "duck", "keep_tens", "give_partner",
)
ACTION_WORDS: tuple[str, ...] = (
    "lead your smallest trump",
    "lead your highest trump",
    "lead your smallest side card",
    "lead the smallest card of your longest side suit",
    "lead your highest side card",
    "play the cheapest card that wins the trick",
    "win with your highest card",
    "trump in with your smallest winning trump",
    "take the trick with your ten",
    "duck: play your smallest card that does not win the trick",
    "keep your tens: play the smallest card that is not a ten",
    "give partner your highest-scoring card (a ten first)",
)
N_ACTIONS = len(ACTIONS)
assert len(ACTION_WORDS) == N_ACTIONS
(A_LEAD_LOW_TRUMP, A_LEAD_HIGH_TRUMP, A_LEAD_LOW_SIDE, A_LEAD_LONG_SIDE, A_LEAD_HIGH_SIDE, A_WIN_CHEAP, A_WIN_HIGH,
 A_TRUMP_IN, A_WIN_TEN, A_DUCK, A_KEEP_TENS, A_GIVE_PARTNER) = range(N_ACTIONS)

# The honours of trump a player names, in the order of the hold_* and *_out features.
HONOUR_RANKS = np.array([RANK_ACE, RANK_KING, RANK_QUEEN, RANK_JACK, RANK_TEN], dtype=np.int64)
assert PF_HOLD_TEN - PF_HOLD_ACE == PF_TEN_OUT - PF_ACE_OUT == len(HONOUR_RANKS) - 1

# Point groups of ranks, cheapest first (Game points 0, 1, 2, 3, 4, 10): the plain cards, jacks, queens, kings,
# aces, tens.
POINT_GROUPS = np.array([int(PLAIN), int(RANK_MASKS[RANK_JACK]), int(RANK_MASKS[RANK_QUEEN]),
                         int(RANK_MASKS[RANK_KING]), int(RANK_MASKS[RANK_ACE]), int(TENS)], dtype=np.uint64)


# --- small pieces on masks --------------------------------------------------------


@njit(cache=True, _nrt=False)
def ranks_held(cards):
    """The ranks (bit r for rank r) of which `cards` holds at least one card, in any suit."""
    cards = np.uint64(cards)
    return (cards | (cards >> np.uint64(13)) | (cards >> np.uint64(26)) | (cards >> np.uint64(39))) & SUIT_BITS


@njit(cache=True, _nrt=False)
def smallest(cards, trump):
    """The smallest card of `cards` (non-empty): lowest rank; at that rank a side card before the trump, then
    the suit order."""
    cards = np.uint64(cards)
    at = cards & (RANK_MASKS[0] << np.uint64(lowest_card(ranks_held(cards))))
    side = at & ~suit_mask(trump)
    return lowest_card(side) if side else lowest_card(at)


@njit(cache=True, _nrt=False)
def highest(cards):
    """The highest card of `cards` (non-empty): highest rank, then the suit order."""
    cards = np.uint64(cards)
    return lowest_card(cards & (RANK_MASKS[0] << np.uint64(highest_card(ranks_held(cards)))))


@njit(cache=True, _nrt=False)
def cheapest(cards, trump):
    """The cheapest card of `cards` (non-empty): fewest Game points, then a side card before a trump, then the
    lowest rank, then the suit order."""
    cards = np.uint64(cards)
    tmask = suit_mask(trump)
    for g in range(POINT_GROUPS.shape[0]):
        group = cards & POINT_GROUPS[g]
        if group:
            side = group & ~tmask
            return smallest(side, trump) if side else lowest_card(group)
    return -1


@njit(cache=True, _nrt=False)
def richest(cards, trump):
    """The card of `cards` with most Game points (-1 if none has any): ties go to a side card before the
    trump, then the suit order."""
    cards = np.uint64(cards)
    tmask = suit_mask(trump)
    for g in range(POINT_GROUPS.shape[0] - 1, 0, -1):
        group = cards & POINT_GROUPS[g]
        if group:
            side = group & ~tmask
            return lowest_card(side) if side else lowest_card(group)
    return -1


@njit(cache=True, _nrt=False)
def winners(cards, best, led, trump):
    """The cards of `cards` that beat `best` (the card winning the trick, led suit `led`)."""
    cards = np.uint64(cards)
    tmask = suit_mask(trump)
    above = ~((bit(best) << U1) - U1)
    if best // 13 == trump:
        return cards & tmask & above
    return (cards & tmask) | (cards & suit_mask(led) & above)


@njit(cache=True, _nrt=False)
def unseen_by(state, seat):
    """The cards out for `seat`: not in its hand, not played, not in the trick, not a turn-up, not its discard."""
    seen = (np.uint64(state[PS_HAND + seat]) | np.uint64(state[PS_PLAYED]) | np.uint64(state[PS_TRICK_MASK])
            | np.uint64(state[PS_TURNUPS]) | np.uint64(state[PS_DISCARDS + seat]))
    if state[PS_TURNUP] >= 0:
        seen |= bit(state[PS_TURNUP])
    return ALL_CARDS & ~seen


@njit(cache=True, _nrt=False)
def holding(cards, led, trump, unseen, last):
    """The cards of `cards` (each winning the trick) that no card in `unseen` beats; all of them when `last`."""
    cards = np.uint64(cards)
    if last:
        return cards
    tmask = suit_mask(trump)
    out_trumps = unseen & tmask
    if out_trumps:
        return cards & tmask & ~((bit(highest_card(out_trumps)) << U1) - U1)
    out_led = unseen & suit_mask(led)
    if out_led:
        return (cards & tmask) | (cards & ~((bit(highest_card(out_led)) << U1) - U1))
    return cards


# --- the two kernels ----------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def _seat_hand(state):
    return np.uint64(state[PS_HAND + state[PS_TO_PLAY]])


@njit(cache=True, _nrt=False, inline="always")
def _my_side(state):
    return side_of(state[PS_TO_PLAY], state[PS_PLAYERS])


@njit(cache=True, _nrt=False, inline="always")
def _last_to_play(state):
    return popcount(np.uint64(state[PS_TRICK_MASK])) == state[PS_PLAYERS] - 1


@njit(cache=True, _nrt=False, inline="always")
def _trumps_held(state):
    return _seat_hand(state) & suit_mask(state[PS_TRUMP])


@njit(cache=True, _nrt=False, inline="always")
def feature(state, legal, f):
    """Feature `f` (a ``PF_*`` index) of the card decision due in `state`, for the seat to play, `legal` its legal
    cards (the module docstring defines each). Read alone, so a rule of play costs only its own tests
    (engine/rulesplayer.py); ``position_features`` reads them all. Each branch reads only what it needs, and
    every test is on `f` alone, so the choice compiles to one jump (a rule's test is read at every card)."""
    led = state[PS_LED]
    if f == PF_TRICK:
        return state[PS_TRICK_NO] + 1
    if f == PF_LEADING:
        return 1 if led < 0 else 0
    if f == PF_POSITION:
        return popcount(np.uint64(state[PS_TRICK_MASK]))
    if f == PF_LAST:
        return 1 if _last_to_play(state) else 0
    if f == PF_TRUMP_LED:
        return 1 if led >= 0 and led == state[PS_TRUMP] else 0
    if f == PF_PARTNER_WINNING:
        best_seat = state[PS_BEST_SEAT]
        return (1 if led >= 0 and state[PS_PLAYERS] == 4 and best_seat != state[PS_TO_PLAY]
                and side_of(best_seat, state[PS_PLAYERS]) == _my_side(state) else 0)
    if f == PF_OPPONENT_WINNING:
        return 1 if led >= 0 and side_of(state[PS_BEST_SEAT], state[PS_PLAYERS]) != _my_side(state) else 0
    if f == PF_BEST_TRUMP:
        return 1 if led >= 0 and state[PS_BEST_CARD] // 13 == state[PS_TRUMP] else 0
    if f == PF_BEST_HOLDS:
        return (1 if led >= 0 and holding(bit(state[PS_BEST_CARD]), led, state[PS_TRUMP],
                                          unseen_by(state, state[PS_TO_PLAY]), _last_to_play(state)) else 0)
    if f == PF_TRICK_POINTS:
        return game_points(np.uint64(state[PS_TRICK_MASK]))
    if f == PF_TRICK_JACK:
        return 1 if np.uint64(state[PS_TRICK_MASK]) & bit(state[PS_TRUMP] * 13 + RANK_JACK) else 0
    if f == PF_TRICK_TEN:
        return 1 if np.uint64(state[PS_TRICK_MASK]) & bit(state[PS_TRUMP] * 13 + RANK_TEN) else 0
    if f == PF_TRUMPS:
        return popcount(_trumps_held(state))
    if PF_HOLD_ACE <= f <= PF_HOLD_TEN:
        return 1 if _seat_hand(state) & bit(state[PS_TRUMP] * 13 + HONOUR_RANKS[f - PF_HOLD_ACE]) else 0
    if f == PF_LOW_TRUMP:
        trumps = _trumps_held(state)
        return lowest_card(trumps) - state[PS_TRUMP] * 13 if trumps else -1
    if f == PF_HIGH_TRUMP:
        trumps = _trumps_held(state)
        return highest_card(trumps) - state[PS_TRUMP] * 13 if trumps else -1
    if f == PF_SIDE_TENS:
        return popcount(_seat_hand(state) & TENS & ~suit_mask(state[PS_TRUMP]))
    if f == PF_CAN_FOLLOW:
        return 1 if led >= 0 and _seat_hand(state) & suit_mask(led) else 0
    if f == PF_LEGAL:
        return popcount(np.uint64(legal))
    if f == PF_HAND:
        return popcount(_seat_hand(state))
    if f == PF_CAN_WIN or f == PF_CAN_WIN_SURE:
        if led < 0:
            return 0
        win = winners(legal, state[PS_BEST_CARD], led, state[PS_TRUMP])
        if f == PF_CAN_WIN:
            return 1 if win else 0
        return (1 if win and holding(win, led, state[PS_TRUMP], unseen_by(state, state[PS_TO_PLAY]),
                                     _last_to_play(state)) else 0)
    if f == PF_OPPS_NO_TRUMP:
        n = state[PS_PLAYERS]
        mine = _my_side(state)
        no_trump = 0
        for s in range(n):
            if side_of(s, n) != mine and state[PS_VOIDS + s] & (np.int64(1) << state[PS_TRUMP]):
                no_trump += 1
        return no_trump
    if f == PF_OUR_GAME:
        return game_points(np.uint64(state[PS_CAPTURED + _my_side(state)]))
    if f == PF_THEIR_GAME:
        n = state[PS_PLAYERS]
        mine = _my_side(state)
        theirs = 0
        for s in range(2 if n == 4 else n):
            if s != mine:
                theirs = max(theirs, game_points(np.uint64(state[PS_CAPTURED + s])))
        return theirs
    if f == PF_TRUMPS_OUT:
        return popcount(unseen_by(state, state[PS_TO_PLAY]) & suit_mask(state[PS_TRUMP]))
    if PF_ACE_OUT <= f <= PF_TEN_OUT:
        return (1 if unseen_by(state, state[PS_TO_PLAY]) & bit(state[PS_TRUMP] * 13 + HONOUR_RANKS[f - PF_ACE_OUT])
                else 0)
    if f == PF_SIDE_TENS_OUT:
        return popcount(unseen_by(state, state[PS_TO_PLAY]) & TENS & ~suit_mask(state[PS_TRUMP]))
    return 0


@njit(cache=True, _nrt=False)
def position_features(state, out):
    """Fill ``out[:N_FEATURES]`` with the features of the card decision due in `state`, for the seat to play,
    from what that seat sees (the module docstring defines each)."""
    seat = state[PS_TO_PLAY]
    legal = legal_mask(np.uint64(state[PS_HAND + seat]), state[PS_LED], state[PS_TRUMP], state[PS_TOP_TRUMP],
                       state[PS_FORBID] != 0, state[PS_VOID_TRUMP] != 0)
    for f in range(N_FEATURES):
        out[f] = feature(state, legal, f)


@njit(cache=True, _nrt=False)
def action_card(state, legal, action):
    """The card action class `action` (an ``A_*`` index) picks among `legal` (uint64 mask of the legal cards of
    the seat to play), or -1 where the class does not apply (the module docstring words each)."""
    legal = np.uint64(legal)
    if legal == U0:
        return -1
    seat = state[PS_TO_PLAY]
    trump = state[PS_TRUMP]
    tmask = suit_mask(trump)
    led = state[PS_LED]
    trumps = legal & tmask
    side = legal & ~tmask
    if led < 0:
        if action == A_LEAD_LOW_TRUMP:
            return lowest_card(trumps) if trumps else -1
        if action == A_LEAD_HIGH_TRUMP:
            return highest_card(trumps) if trumps else -1
        if action == A_LEAD_LOW_SIDE:
            return smallest(side, trump) if side else -1
        if action == A_LEAD_HIGH_SIDE:
            return highest(side) if side else -1
        if action == A_LEAD_LONG_SIDE:
            hand = np.uint64(state[PS_HAND + seat])
            best_suit = -1
            best_len = 0
            for s in range(4):
                if s != trump and side & suit_mask(s):
                    length = popcount(hand & suit_mask(s))
                    if length > best_len:
                        best_suit, best_len = s, length
            return lowest_card(side & suit_mask(best_suit)) if best_suit >= 0 else -1
        if action == A_KEEP_TENS:
            keep = legal & ~TENS
            return smallest(keep, trump) if keep else -1
        return -1
    if action == A_KEEP_TENS:
        keep = legal & ~TENS
        return smallest(keep, trump) if keep else -1
    best = state[PS_BEST_CARD]
    win = winners(legal, best, led, trump)
    if action == A_WIN_CHEAP:
        return cheapest(win, trump) if win else -1
    if action == A_WIN_HIGH:
        if win & tmask:
            return highest_card(win & tmask)
        return highest_card(win) if win else -1
    if action == A_TRUMP_IN:
        t = win & tmask
        return lowest_card(t) if led != trump and t else -1
    if action == A_WIN_TEN:
        tens = win & TENS
        if tens & ~tmask:
            return lowest_card(tens & ~tmask)
        return lowest_card(tens) if tens else -1
    if action == A_DUCK:
        lose = legal & ~win
        return smallest(lose, trump) if lose else -1
    if action == A_GIVE_PARTNER:
        n = state[PS_PLAYERS]
        best_seat = state[PS_BEST_SEAT]
        if n == 4 and best_seat != seat and best_seat % 2 == seat % 2:
            return richest(legal, trump)
        return -1
    return -1


@njit(cache=True, _nrt=False)
def action_cards(state, legal, out):
    """``out[a] = action_card(state, legal, a)`` for every action class."""
    for a in range(N_ACTIONS):
        out[a] = action_card(state, legal, a)
