"""A position of trick play as data, and the kernels that move it (OpenSpiel's `State`).

The state is one int64 array laid out by the ``S_*`` constants of ``layout.py``:
hands, trump, the trick so far by seat, leader, led suit, best card and seat, top
trump, cards captured per side, the jack's captor, the cards each seat has played (``played_by``),
the voids each seat has shown (``PS_VOIDS`` by suit, ``PS_LACKS`` by card: what the
rules made a play show), what the seats know is out of play (``PS_TURNUPS``, every
turn-up of the deal; ``PS_DISCARDS``, each seat's own discards: ``set_out_of_play``,
``known_out``), the dealer and the scores. A search player copies a
state (``copy_state`` or ``state.copy()``), tries a card with ``apply`` and plays
on with ``playout`` (``playout.py``, where the seats' policies choose); the engine's
own trick loop is ``playout`` too, so there is one implementation of play. This
module knows no policy: the search players (``search.py``) stand on it.

* ``init_state(state, rules, hands, trump, turnup, dealer, scores)``: the position
  when trick play starts (the eldest to lead).
* ``set_out_of_play(state, turnups, discards)``: the turn-ups of the deal and each
  seat's discards, after ``init_state`` (``deal.py`` and positions cut from a log).
* ``legal(state)``: mask of the cards the seat to play may play.
* ``apply(state, card)``: play it; returns the trick's winner when it completes it,
  else -1.
  (``step``/``step_play``: the same for a hot loop that keeps the trick in registers;
  ``step_play`` leaves PS_VOIDS, PS_LACKS and PS_TRICK_CARD alone.)
* ``is_over(state)``: every trick played.
* ``score(state, rules, scores, ev, info, pts)``: High, Low, Jack, Game in strict
  order, stopping at the target.
* ``playout(state, rules, kinds, params, rng, ev, info)`` (``playout.py``): play on
  to the end with the seats' policies.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_GAME_TIE, R_HANG_JACK, R_PLAYERS, R_TARGET, R_UNDERTRUMP, R_VOID_PLAY
from .bits import (
    RANK_JACK, U1, bit, cards_above, game_points, highest_card, lowest_card, next_seat, popcount, side_of, suit_mask,
)
from .layout import (
    E_GAME_TOTALS, E_POINTS, I_EVENTS, I_OVERFLOW, I_WINNER, N_STATE, PS_BEST_CARD,
    PS_BEST_SEAT, PS_CAPTURED, PS_DEALER, PS_DISCARDS, PS_FORBID, PS_HAND, PS_IN_PLAY, PS_JACK_CAPTOR, PS_LACKS, PS_LED,
    PS_LEADER, PS_N_TRICKS, PS_PLAYED, PS_PLAYERS, PS_SCORE, PS_START, PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_CARD,
    PS_TRICK_MASK, PS_TRICK_NO, PS_TRUMP, PS_TURNUP, PS_TURNUPS, PS_VOID_TRUMP, PS_VOIDS, W_GAME, W_HANG_JACK, W_HIGH,
    W_JACK,
)

assert N_STATE == PS_LACKS + 4 and PS_VOIDS + 4 == PS_TRUMP
assert PS_TURNUPS == PS_VOID_TRUMP + 1 and PS_DISCARDS == PS_TURNUPS + 1 and PS_LACKS == PS_DISCARDS + 4
ALL_CARDS = np.uint64((1 << 52) - 1)
U0 = np.uint64(0)
N_PLAY = PS_TURNUPS  # the words play itself reads and writes come first; the seats' knowledge after them


# --- the rules of one card ------------------------------------------------------


@njit(cache=True, _nrt=False)
def legal_mask(hand, led_suit, trump, top_trump, forbid_undertrump, void_trump):
    """Cards of `hand` that may be played to a trick.

    `led_suit` is -1 for the lead; `top_trump` is the highest trump already in the
    trick (-1 if none). Trumping is permissive: with the led suit in hand a player
    may follow or trump, never discard a third suit. Without the led suit a player
    may play any card, or with `void_trump` (void_play = trump) must trump when it
    holds a trump it may play (a forbidden undertrump does not count).
    """
    hand = np.uint64(hand)
    if led_suit < 0:
        return hand
    tmask = suit_mask(trump)
    trumps = hand & tmask
    if led_suit == trump:
        return trumps if trumps else hand
    # Undertrumping is forbidden only while the hand holds something other than trump.
    below = np.uint64(0)
    if forbid_undertrump and top_trump >= 0 and (hand & ~tmask):
        below = tmask & ((U1 << np.uint64(top_trump)) - U1)
    follow = hand & suit_mask(led_suit)
    if follow:
        return (follow | trumps) & ~below
    if void_trump and (trumps & ~below):
        return trumps & ~below
    return hand & ~below


@njit(cache=True, _nrt=False)
def beats(card, best, led_suit, trump):
    """True if `card` takes the trick from the card `best` currently winning it."""
    suit = card // 13
    best_suit = best // 13
    if suit == trump:
        return best_suit != trump or card > best
    return best_suit != trump and suit == led_suit and card > best


@njit(cache=True, _nrt=False)
def trick_winner(cards, trump):
    """Index (in play order) of the card that wins a trick."""
    best = 0
    led = cards[0] // 13
    for k in range(1, cards.shape[0]):
        if beats(cards[k], cards[best], led, trump):
            best = k
    return best


# --- events and points ------------------------------------------------------------


@njit(cache=True, _nrt=False)
def emit(ev, info, kind, a, b, c):
    """Append an event row (no-op with an empty buffer; a full buffer is flagged)."""
    if ev.shape[0] == 0:
        return
    k = info[I_EVENTS]
    if k >= ev.shape[0]:
        info[I_OVERFLOW] = 1
        return
    ev[k, 0] = kind
    ev[k, 1] = a
    ev[k, 2] = b
    ev[k, 3] = c
    info[I_EVENTS] = k + 1


@njit(cache=True, _nrt=False)
def award(rules, scores, side, n, why, ev, info, pts):
    """Score `n` for `side` now; True if that side has reached the target."""
    if n <= 0:
        return False
    emit(ev, info, E_POINTS, side, n, why)
    scores[side] += n
    pts[side, why] += n
    if scores[side] >= rules[R_TARGET]:
        info[I_WINNER] = side
        return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def score_game(rules, scores, state, ev, info, pts):
    """Game: most card points captured; a tie goes by the rule set's tie rule."""
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    dside = side_of(state[PS_DEALER], n)
    best = -1
    best_side = -1
    tied = 0
    for s in range(nsides):
        total = game_points(np.uint64(state[PS_CAPTURED + s]))
        emit(ev, info, E_GAME_TOTALS, s, total, 0)
        if total > best:
            best, best_side, tied = total, s, 1
        elif total == best:
            tied += 1
    if tied == 1:
        return award(rules, scores, best_side, 1, W_GAME, ev, info, pts)
    if rules[R_GAME_TIE] == 0:
        return False
    # Tie rules favour the dealer's opponents: with 2 sides that is the eldest's side;
    # with 3 players it scores only when exactly one tied side is not the dealer.
    cand = -1
    count = 0
    for s in range(nsides):
        if s != dside and game_points(np.uint64(state[PS_CAPTURED + s])) == best:
            cand = s
            count += 1
    if count == 1:
        return award(rules, scores, cand, 1, W_GAME, ev, info, pts)
    return False


# --- the state ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def new_trick(state, leader):
    """An empty trick for `leader` to lead."""
    state[PS_LEADER] = leader
    state[PS_TO_PLAY] = leader
    state[PS_LED] = -1
    state[PS_BEST_CARD] = -1
    state[PS_BEST_SEAT] = -1
    state[PS_TOP_TRUMP] = -1
    state[PS_TRICK_MASK] = 0
    for s in range(4):
        state[PS_TRICK_CARD + s] = -1


@njit(cache=True, _nrt=False)
def init_state(state, rules, hands, trump, turnup, dealer, scores):
    """The position when trick play starts: `hands` (uint64 per seat) as dealt, the eldest to lead."""
    n = rules[R_PLAYERS]
    tmask = suit_mask(trump)
    in_play = np.uint64(0)
    for s in range(4):
        h = np.uint64(hands[s]) if s < n else np.uint64(0)
        in_play |= h & tmask
        state[PS_HAND + s] = np.int64(h)
        state[PS_START + s] = np.int64(h)
        state[PS_CAPTURED + s] = 0
        state[PS_SCORE + s] = scores[s]
        state[PS_VOIDS + s] = 0
        state[PS_DISCARDS + s] = 0
        state[PS_LACKS + s] = 0
    eldest = next_seat(dealer, n)
    state[PS_TRUMP] = trump
    state[PS_TURNUP] = turnup
    state[PS_PLAYERS] = n
    state[PS_DEALER] = dealer
    new_trick(state, eldest)
    state[PS_TRICK_NO] = 0
    state[PS_N_TRICKS] = popcount(np.uint64(hands[eldest]))
    state[PS_PLAYED] = 0
    state[PS_JACK_CAPTOR] = -1
    state[PS_IN_PLAY] = np.int64(in_play)
    state[PS_FORBID] = 1 if rules[R_UNDERTRUMP] == 1 else 0
    state[PS_VOID_TRUMP] = 1 if rules[R_VOID_PLAY] == 1 else 0
    state[PS_TURNUPS] = np.int64(bit(turnup)) if turnup >= 0 else 0


@njit(cache=True, _nrt=False)
def set_out_of_play(state, turnups, discards):
    """What the seats know is out of play, for a state ``init_state`` has just made: `turnups` (uint64 mask)
    every card turned up in the deal played (earlier runs' included: everyone saw them), `discards` (4 masks,
    by seat) each seat's discards (seen by that seat only)."""
    up = np.uint64(turnups)
    if state[PS_TURNUP] >= 0:
        up |= bit(state[PS_TURNUP])
    state[PS_TURNUPS] = np.int64(up)
    for s in range(4):
        state[PS_DISCARDS + s] = np.int64(np.uint64(discards[s])) if s < state[PS_PLAYERS] else 0


@njit(cache=True, _nrt=False)
def known_out(state, seat):
    """Cards `seat` knows are out of play: every turn-up of the deal and its own discards."""
    out = np.uint64(state[PS_TURNUPS]) | np.uint64(state[PS_DISCARDS + seat])
    if state[PS_TURNUP] >= 0:
        out |= bit(state[PS_TURNUP])
    return out


@njit(cache=True, _nrt=False)
def copy_state(dst, src):
    """Copy a state into caller-owned memory (no allocation)."""
    for i in range(N_STATE):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def copy_play(dst, src):
    """Copy the words play reads (up to ``N_PLAY``), not what the seats know (PS_TURNUPS on, which ``apply``
    only adds to): the open-hand solver's copy at every node, where nobody's knowledge is read."""
    for i in range(N_PLAY):
        dst[i] = src[i]


@njit(cache=True, _nrt=False)
def is_over(state):
    return state[PS_TRICK_NO] >= state[PS_N_TRICKS]


@njit(cache=True, _nrt=False)
def legal(state):
    """Mask of the cards the seat to play may play."""
    return legal_mask(np.uint64(state[PS_HAND + state[PS_TO_PLAY]]), state[PS_LED], state[PS_TRUMP],
                      state[PS_TOP_TRUMP], state[PS_FORBID] != 0, state[PS_VOID_TRUMP] != 0)


@njit(cache=True, _nrt=False)
def played_by(state, seat):
    """Cards `seat` has played so far (held when play started, no longer held)."""
    return np.uint64(state[PS_START + seat]) & ~np.uint64(state[PS_HAND + seat])


@njit(cache=True, _nrt=False)
def apply(state, card):
    """The seat to play plays `card` (a legal one); returns the trick's winner if it completed it, else -1."""
    return step(state, state[PS_TO_PLAY], card, state[PS_PLAYERS], state[PS_TRUMP], state[PS_LED],
                state[PS_BEST_CARD], state[PS_BEST_SEAT], state[PS_TOP_TRUMP], state[PS_TRICK_MASK])[0]


@njit(cache=True, inline="always")
def step(state, seat, card, n, trump, led, best_card, best_seat, top, trick):
    """`apply`, with the trick's fields also passed in and returned (the state gets every one of them):
    the hot loop keeps them in registers instead of reading back what it just stored.
    Returns (winner or -1, led, best card, best seat, top trump, trick mask)."""
    return step_known(state, seat, card, n, trump, led, best_card, best_seat, top, trick, True, True)


@njit(cache=True, inline="always")
def step_play(state, seat, card, n, trump, led, best_card, best_seat, top, trick):
    """`step` without what the play shows of the seat's hand (PS_VOIDS, PS_LACKS, PS_TRICK_CARD stay as they
    are): for a trick loop where no seat reads them (no search player: ``playout.play_cards``). Play, the trick
    and the points are the same as `step`'s."""
    return step_known(state, seat, card, n, trump, led, best_card, best_seat, top, trick, False, False)


@njit(cache=True, _nrt=False)
def apply_open(state, card):
    """`apply` for the open-hand solver, where every hand is seen: the trick's cards by seat (PS_TRICK_CARD,
    which its bounds read) are kept, what the play shows of the hand (PS_VOIDS, PS_LACKS) is not (nothing in
    the solver reads it; it was an eighth of the solver's time)."""
    return step_known(state, state[PS_TO_PLAY], card, state[PS_PLAYERS], state[PS_TRUMP], state[PS_LED],
                      state[PS_BEST_CARD], state[PS_BEST_SEAT], state[PS_TOP_TRUMP], state[PS_TRICK_MASK], True,
                      False)[0]


@njit(cache=True, inline="always")
def step_known(state, seat, card, n, trump, led, best_card, best_seat, top, trick, cards, know):
    """`step` (`cards` and `know` True), `apply_open` (`cards` only) or `step_play` (neither): compile-time
    constants. `cards`: the seat's card in the trick is kept (PS_TRICK_CARD); `know`: what the play shows of
    its hand (PS_VOIDS, PS_LACKS)."""
    b = np.int64(bit(card))
    state[PS_HAND + seat] &= ~b
    trick |= b
    if cards:
        state[PS_TRICK_CARD + seat] = card
    state[PS_TRICK_MASK] = trick
    suit = card // 13
    if led < 0:
        led, best_card, best_seat = suit, card, seat
        state[PS_LED] = led
        state[PS_BEST_CARD] = card
        state[PS_BEST_SEAT] = seat
    else:
        if know:
            # Not following shows a void in the led suit (a trump on a side-suit lead shows
            # nothing: trumping is permissive); under void_play = trump, no trump it could
            # play either. Branch-free: the condition is as good as random.
            shown = np.int64((suit != led) & (suit != trump))
            no_trump = shown & state[PS_VOID_TRUMP] & np.int64(not (state[PS_FORBID] and top >= 0))
            # The same as cards (PS_LACKS), with what suits cannot say: under void_play = trump with undertrumping
            # forbidden, not trumping after a trump shows no trump above it (the lower ones were forbidden); and a
            # forbidden undertrump, made on a side-suit lead, shows a hand of trumps only (every side suit void).
            tmask = suit_mask(trump)
            may = tmask
            if state[PS_FORBID] and top >= 0:
                may = tmask & cards_above(top)
            under = (np.int64(state[PS_FORBID] != 0) & np.int64(suit == trump) & np.int64(led != trump)
                     & np.int64(card < top))
            lacks = (suit_mask(led) & (U0 - np.uint64(shown))) | (may & (U0 - np.uint64(shown & state[PS_VOID_TRUMP])))
            lacks |= (ALL_CARDS & ~tmask) & (U0 - np.uint64(under))
            state[PS_LACKS + seat] |= np.int64(lacks)
            state[PS_VOIDS + seat] |= (shown << led) | (no_trump << trump) | ((under * 15) & ~(np.int64(1) << trump))
        if beats(card, best_card, led, trump):
            best_card, best_seat = card, seat
            state[PS_BEST_CARD] = card
            state[PS_BEST_SEAT] = seat
    if suit == trump and card > top:
        top = card
        state[PS_TOP_TRUMP] = card
    if popcount(np.uint64(trick)) < n:
        state[PS_TO_PLAY] = seat + 1 if seat + 1 < n else 0
        return -1, led, best_card, best_seat, top, trick
    winner = best_seat
    wside = side_of(winner, n)
    state[PS_CAPTURED + wside] |= trick
    if np.uint64(trick) & bit(trump * 13 + RANK_JACK):
        state[PS_JACK_CAPTOR] = wside
    state[PS_PLAYED] |= trick
    state[PS_TRICK_NO] += 1
    new_trick(state, winner)
    return winner, -1, -1, -1, -1, np.int64(0)


@njit(cache=True, _nrt=False, inline="always")
def score(state, rules, scores, ev, info, pts):
    """After play: strictly High, Low, Jack, Game, stopping the moment a side reaches the target."""
    n = state[PS_PLAYERS]
    in_play = np.uint64(state[PS_IN_PLAY])
    if in_play:
        for which in range(2):
            card = highest_card(in_play) if which == 0 else lowest_card(in_play)
            for s in range(n):
                if np.uint64(state[PS_START + s]) & bit(card):
                    if award(rules, scores, side_of(s, n), 1, W_HIGH + which, ev, info, pts):
                        return
    jack_bit = bit(state[PS_TRUMP] * 13 + RANK_JACK)
    if in_play & jack_bit:
        captor = state[PS_JACK_CAPTOR]
        for s in range(n):
            if np.uint64(state[PS_START + s]) & jack_bit:
                if rules[R_HANG_JACK] and side_of(s, n) != captor:
                    if award(rules, scores, captor, 3, W_HANG_JACK, ev, info, pts):
                        return
                elif award(rules, scores, captor, 1, W_JACK, ev, info, pts):
                    return
    score_game(rules, scores, state, ev, info, pts)
