"""``playout``: play a position on to the end with the seats' policies (the engine's trick loop).

It moves the play state (``state.py``) with ``step`` (``step_play`` when no seat searches and no rules player's
list reads the voids: the voids and lacks a play shows are then not kept), the seats' policies choosing
(``policies.choose_card``); when every seat plays at random, or every seat the heuristic's rules with no tip switch
and no decision list of rules of play (engine/rulesplayer.py), under the plain trumping rules, a loop of its own
plays a trick at a time (``random_tricks``, ``rules_tricks``). ``state`` may be a play buffer
(``search.new_play_buffer``):
the play state followed by the search players' work area.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import RANK_JACK, U1, bit, highest_card, lowest_card, popcount, random_card, side_of, suit_mask
from .layout import (
    E_PLAY, E_TRICK, K_HEURISTIC, K_RANDOM, K_TUNED, PS_BEST_CARD, PS_BEST_SEAT, PS_CAPTURED, PS_FORBID, PS_HAND,
    PS_JACK_CAPTOR, PS_LED, PS_N_TRICKS, PS_PLAYED, PS_PLAYERS, PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_MASK, PS_TRICK_NO,
    PS_TRUMP, PS_VOID_TRUMP, RL_COUNT,
)
from .heuristic import ALL_CARDS, heuristic_rules, rules_card_inline
from .policies import choose_card, choose_card_plain
from .rulesplayer import list_reads_voids, rules_choice_inline
from .search import needs_search, record_play, start_history
from .state import emit, legal_mask, new_trick, step, step_play
from .tips import tips_active


@njit(cache=True, _nrt=False)
def playout(state, rules, kinds, params, rng, ev, info):
    """Play every remaining card with the seats' policies, writing play and trick events."""
    if all_seats_random(state, kinds):  # the benchmark's and many studies' case: a loop with no policy code in it
        if state[PS_FORBID] == 0 and state[PS_VOID_TRUMP] == 0:
            random_tricks(state, rng, ev, info, False)
        else:
            random_tricks(state, rng, ev, info, True)
    elif needs_search(kinds) or list_reads_voids(state, kinds, params):
        # a search player's call kept out of the other players' loop; the loop that keeps the voids shown, which
        # a rules player's list may read (engine/rulesplayer.py)
        play_cards(state, rules, kinds, params, rng, ev, info, True, True)
    elif state[PS_FORBID] == 0 and state[PS_VOID_TRUMP] == 0:
        every = (1 << state[PS_PLAYERS]) - 1
        if rules_seats(state, kinds, params) == every:
            rules_tricks(state, params, ev, info)  # every seat the heuristic's rules: a trick at a time
        elif heuristic_seats(state, kinds, params) == every:  # some of them rules players (engine/rulesplayer.py)
            listed_tricks(state, params, ev, info, every & ~rules_seats(state, kinds, params))
        else:
            play_cards(state, rules, kinds, params, rng, ev, info, False, False)
    else:
        play_cards(state, rules, kinds, params, rng, ev, info, False, True)


@njit(cache=True, _nrt=False, inline="always")
def all_seats_random(state, kinds):
    """True if every seat plays at random (``random_tricks`` can play the position)."""
    all_random = True
    for s in range(state[PS_PLAYERS]):
        all_random = all_random and kinds[s] == K_RANDOM
    return all_random


NO_CARDS = np.uint64(0xFFFFFFFF)  # the trick loops' cards of a trick by seat, a byte each: none yet
BYTE_ONES = np.uint64(0x01010101)
BYTE_HIGHS = np.uint64(0x80808080)


@njit(cache=True, _nrt=False, inline="always")
def trick_best(trick, tmask, led_mask, seat_cards, fallback_seat):
    """The card winning `trick` (a mask) and its seat: the trick's highest trump, else its highest card of the
    led suit (`beats`' rule, over the whole trick at once), and the seat whose byte of `seat_cards` holds that
    card (a zero byte of their exclusive or), or `fallback_seat` if none does (a card played before the loop)."""
    trumps_in = trick & tmask
    best_card = highest_card(trumps_in if trumps_in else trick & led_mask)
    x = seat_cards ^ (np.uint64(best_card) * BYTE_ONES)
    z = (x - BYTE_ONES) & ~x & BYTE_HIGHS
    return best_card, (lowest_card(z) >> 3) if z else fallback_seat


@njit(cache=True, _nrt=False, inline="always")
def random_tricks(state, rng, ev, info, restricted):
    # Every seat at random, a trick at a time as a C loop would: the lead needs no legal mask,
    # the trick's fields and the led suit's mask stay in registers, and only what the scoring
    # reads is stored (hands, captures, the jack's captor, the cards played, the trick count).
    # `restricted` (a compile-time constant): the rules forbid undertrumping or make a void
    # player trump, so legal_mask's general rule and the top trump are needed; otherwise the
    # follow-or-trump rule is two masks. Same draws, same cards and events as play_cards.
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    forbid = state[PS_FORBID] != 0
    void_trump = state[PS_VOID_TRUMP] != 0
    tmask = suit_mask(trump)
    jack = bit(trump * 13 + RANK_JACK)
    seat = state[PS_TO_PLAY]
    led = state[PS_LED]  # a trick already begun is finished first
    best_seat = state[PS_BEST_SEAT]
    top = state[PS_TOP_TRUMP]
    trick = np.uint64(state[PS_TRICK_MASK])
    played = popcount(trick)
    # The cards this loop plays, a byte a seat (255: none), to find the winner's seat when the trick is over
    # (before the loop began, the state's best card and seat stand for the cards already played).
    seat_cards = NO_CARDS
    tricks = state[PS_N_TRICKS] - state[PS_TRICK_NO]
    for _ in range(tricks):
        if played == 0:
            hand = np.uint64(state[PS_HAND + seat])
            card = random_card(rng, hand)
            emit(ev, info, E_PLAY, seat, card, 0)
            trick = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~trick)
            led = card // 13
            seat_cards = NO_CARDS ^ (np.uint64(card ^ 255) << np.uint64(8 * seat))
            top = card if led == trump else -1
            played = 1
            seat = seat + 1 if seat + 1 < n else 0
        led_mask = suit_mask(led)
        for _ in range(played, n):
            hand = np.uint64(state[PS_HAND + seat])
            if restricted:
                mask = legal_mask(hand, led, trump, top, forbid, void_trump)
            else:
                # follow or trump, else any card (a trump lead too: follow is then the trumps)
                follow = hand & led_mask
                mask = (follow | (hand & tmask)) if follow else hand
            card = random_card(rng, mask)
            emit(ev, info, E_PLAY, seat, card, 0)
            b = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~b)
            trick |= b
            seat_cards ^= np.uint64(card ^ 255) << np.uint64(8 * seat)
            if restricted and card // 13 == trump and card > top:
                top = card
            seat = seat + 1 if seat + 1 < n else 0
        # The winner once the trick is whole, not card by card (whose compare of each card with the best so far
        # LLVM made a branch that is mispredicted often).
        best_card, best_seat = trick_best(trick, tmask, led_mask, seat_cards, best_seat)
        wside = side_of(best_seat, n)
        state[PS_CAPTURED + wside] |= np.int64(trick)
        if trick & jack:
            state[PS_JACK_CAPTOR] = wside
        state[PS_PLAYED] |= np.int64(trick)
        state[PS_TRICK_NO] += 1
        emit(ev, info, E_TRICK, best_seat, 0, 0)
        seat = best_seat
        played = 0
    if tricks > 0:
        new_trick(state, seat)


@njit(cache=True, _nrt=False, inline="always")
def rules_seats(state, kinds, params):
    """The seats (a bit each) that play the heuristic's rules with no tip switch set and no decision list of rules of
    play (heuristic and tuned seats): their card is ``heuristic_rules``', the switches looked at once a playout
    rather than at every card. A seat with a list (engine/rulesplayer.py) is played by ``choose_card_plain``."""
    seats = 0
    for s in range(state[PS_PLAYERS]):
        if (kinds[s] == K_HEURISTIC or kinds[s] == K_TUNED) and not tips_active(params[s]) \
                and params[s, RL_COUNT] <= 0.0:
            seats |= 1 << s
    return seats


@njit(cache=True, _nrt=False, inline="always")
def heuristic_seats(state, kinds, params):
    """The seats (a bit each) that play the heuristic's rules, some of them with a decision list of rules of play
    before them (engine/rulesplayer.py), with no tip switch set: ``listed_tricks`` can play a table of them."""
    seats = 0
    for s in range(state[PS_PLAYERS]):
        if (kinds[s] == K_HEURISTIC or kinds[s] == K_TUNED) and not tips_active(params[s]):
            seats |= 1 << s
    return seats


@njit(cache=True, _nrt=False)
def rules_tricks(state, params, ev, info):
    # Every seat plays the heuristic's rules (``rules_seats``) under the plain trumping rules: random_tricks'
    # loop, a trick at a time, with heuristic_rules' card (``rules_card``'s rules, given the trick's fields, which
    # stay in registers, and the cards played so far); a forced card needs no call.
    # The same cards and events as play_cards. Its card and trick-end steps are random_tricks' own, written out
    # again (the trick's winner alone is shared, ``trick_best``): shared through inlined helpers (the legal mask,
    # the winner, the trick's end) the heuristic measured 0.975 and 0.983 (ab_speed, 40 rounds each; docs/speed.md).
    # The rules are compiled in (``rules_card_inline``: a call passed some twenty words), so this loop is a function
    # of its own, called once a playout: compiled into play_tricks_and_score it slowed the random loop there.
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    tmask = suit_mask(trump)
    jack = bit(trump * 13 + RANK_JACK)
    seat = state[PS_TO_PLAY]
    led = state[PS_LED]
    best_seat = state[PS_BEST_SEAT]
    trick = np.uint64(state[PS_TRICK_MASK])
    played = popcount(trick)
    seat_cards = NO_CARDS  # as random_tricks': the winner found when needed, not kept card by card
    out = np.uint64(state[PS_PLAYED])
    tricks = state[PS_N_TRICKS] - state[PS_TRICK_NO]
    for _ in range(tricks):
        if played == 0:
            hand = np.uint64(state[PS_HAND + seat])
            if (hand & (hand - U1)) == 0:
                card = lowest_card(hand)
            else:
                card = rules_card_inline(params[seat], hand, n, seat, trump, hand, np.uint64(0),
                                         ALL_CARDS & ~hand & ~out, -1, -1, -1)
            emit(ev, info, E_PLAY, seat, card, 0)
            trick = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~trick)
            led = card // 13
            seat_cards = NO_CARDS ^ (np.uint64(card ^ 255) << np.uint64(8 * seat))
            played = 1
            seat = seat + 1 if seat + 1 < n else 0
        led_mask = suit_mask(led)
        for _ in range(played, n):
            hand = np.uint64(state[PS_HAND + seat])
            follow = hand & led_mask
            mask = (follow | (hand & tmask)) if follow else hand  # as random_tricks'
            if (mask & (mask - U1)) == 0:
                card = lowest_card(mask)
            else:
                best_card, best_seat = trick_best(trick, tmask, led_mask, seat_cards, best_seat)
                card = rules_card_inline(params[seat], mask, n, seat, trump, hand, trick,
                                         ALL_CARDS & ~hand & ~out & ~trick, led, best_card, best_seat)
            emit(ev, info, E_PLAY, seat, card, 0)
            b = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~b)
            trick |= b
            seat_cards ^= np.uint64(card ^ 255) << np.uint64(8 * seat)
            seat = seat + 1 if seat + 1 < n else 0
        best_card, best_seat = trick_best(trick, tmask, led_mask, seat_cards, best_seat)
        wside = side_of(best_seat, n)
        state[PS_CAPTURED + wside] |= np.int64(trick)
        if trick & jack:
            state[PS_JACK_CAPTOR] = wside
        out |= trick
        state[PS_PLAYED] = np.int64(out)
        state[PS_TRICK_NO] += 1
        emit(ev, info, E_TRICK, best_seat, 0, 0)
        seat = best_seat
        played = 0
    if tricks > 0:
        new_trick(state, seat)


@njit(cache=True, _nrt=False, inline="always")
def show_trick(state, seat, led, best_card, best_seat, trick):
    """Store the trick's fields, which the trick loops keep in registers, for a rules player's list to read."""
    state[PS_TO_PLAY] = seat
    state[PS_LED] = led
    state[PS_BEST_CARD] = best_card
    state[PS_BEST_SEAT] = best_seat
    state[PS_TRICK_MASK] = np.int64(trick)


@njit(cache=True, _nrt=False)
def listed_tricks(state, params, ev, info, listed):
    # ``rules_tricks`` for a table where some seats (`listed`, a bit each) are rules players (engine/rulesplayer.py)
    # and the others play the heuristic's rules, every seat with no tip switch, under the plain trumping rules, no
    # list reading the voids shown (which this loop does not keep). The same loop, written out again so that the
    # heuristic's own is not touched; a listed seat's card is its list's (``rules_choice``, on the state with the
    # trick's fields stored, ``show_trick``), else the heuristic's. The same cards and events as play_cards.
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    tmask = suit_mask(trump)
    jack = bit(trump * 13 + RANK_JACK)
    seat = state[PS_TO_PLAY]
    led = state[PS_LED]
    best_seat = state[PS_BEST_SEAT]
    trick = np.uint64(state[PS_TRICK_MASK])
    played = popcount(trick)
    seat_cards = NO_CARDS
    out = np.uint64(state[PS_PLAYED])
    tricks = state[PS_N_TRICKS] - state[PS_TRICK_NO]
    for _ in range(tricks):
        if played == 0:
            hand = np.uint64(state[PS_HAND + seat])
            card = -1
            if (hand & (hand - U1)) == 0:
                card = lowest_card(hand)
            else:
                if (listed >> seat) & 1:
                    show_trick(state, seat, -1, -1, -1, np.uint64(0))
                    card = rules_choice_inline(params[seat], state, hand)
                if card < 0:
                    card = rules_card_inline(params[seat], hand, n, seat, trump, hand, np.uint64(0),
                                             ALL_CARDS & ~hand & ~out, -1, -1, -1)
            emit(ev, info, E_PLAY, seat, card, 0)
            trick = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~trick)
            led = card // 13
            seat_cards = NO_CARDS ^ (np.uint64(card ^ 255) << np.uint64(8 * seat))
            played = 1
            seat = seat + 1 if seat + 1 < n else 0
        led_mask = suit_mask(led)
        for _ in range(played, n):
            hand = np.uint64(state[PS_HAND + seat])
            follow = hand & led_mask
            mask = (follow | (hand & tmask)) if follow else hand
            card = -1
            if (mask & (mask - U1)) == 0:
                card = lowest_card(mask)
            else:
                best_card, best_seat = trick_best(trick, tmask, led_mask, seat_cards, best_seat)
                if (listed >> seat) & 1:
                    show_trick(state, seat, led, best_card, best_seat, trick)
                    card = rules_choice_inline(params[seat], state, mask)
                if card < 0:
                    card = rules_card_inline(params[seat], mask, n, seat, trump, hand, trick,
                                             ALL_CARDS & ~hand & ~out & ~trick, led, best_card, best_seat)
            emit(ev, info, E_PLAY, seat, card, 0)
            b = bit(card)
            state[PS_HAND + seat] = np.int64(hand & ~b)
            trick |= b
            seat_cards ^= np.uint64(card ^ 255) << np.uint64(8 * seat)
            seat = seat + 1 if seat + 1 < n else 0
        best_card, best_seat = trick_best(trick, tmask, led_mask, seat_cards, best_seat)
        wside = side_of(best_seat, n)
        state[PS_CAPTURED + wside] |= np.int64(trick)
        if trick & jack:
            state[PS_JACK_CAPTOR] = wside
        out |= trick
        state[PS_PLAYED] = np.int64(out)
        state[PS_TRICK_NO] += 1
        emit(ev, info, E_TRICK, best_seat, 0, 0)
        seat = best_seat
        played = 0
    if tricks > 0:
        new_trick(state, seat)


@njit(cache=True, inline="always")
def play_cards(state, rules, kinds, params, rng, ev, info, search, restricted):
    # The hot loop of players that look at the state: what does not change during play, and
    # the trick's fields, stay in registers (step stores them all), so the state is never
    # read back here. Inlined three times by playout. `search` False:
    # no oracle or pimc seat, and their call kept out of the loop (in it, it cost the
    # heuristic's loop about 15%). There a forced card is played without calling the policy
    # (heuristic and tuned play it drawing nothing): the call cost the heuristic about 5%;
    # and what a play shows of the hand (voids, lacks: only the search players' worlds read
    # them) is not kept (step_play). `restricted` as in random_tricks (compile-time constants).
    seat = state[PS_TO_PLAY]
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    forbid = state[PS_FORBID] != 0
    void_trump = state[PS_VOID_TRUMP] != 0
    led = state[PS_LED]
    best_card = state[PS_BEST_CARD]
    best_seat = state[PS_BEST_SEAT]
    top = state[PS_TOP_TRUMP]
    trick = state[PS_TRICK_MASK]
    left = (state[PS_N_TRICKS] - state[PS_TRICK_NO]) * n - popcount(np.uint64(trick))
    if search:
        start_history(state)  # the order of play, which pimc reads the others' hands from
    # Seats playing the heuristic's rules with no tip switch set (bit per seat): their card is
    # heuristic_rules', called directly, the switches looked at here once rather than at every card.
    plain_rules = 0 if search else rules_seats(state, kinds, params)
    tmask = suit_mask(trump)
    for _ in range(left):
        hand = np.uint64(state[PS_HAND + seat])
        if restricted:
            mask = legal_mask(hand, led, trump, top, forbid, void_trump)
        elif led < 0:
            mask = hand
        else:  # legal_mask without undertrump or must-trump rules: follow or trump, else any card
            trumps = hand & tmask
            follow = hand & suit_mask(led)
            if led == trump:
                mask = trumps if trumps else hand
            else:
                mask = (follow | trumps) if follow else hand
        if kinds[seat] != K_RANDOM:
            if search:
                card = choose_card(kinds[seat], params[seat], state, mask, rules, rng)
            elif (mask & (mask - U1)) == 0:
                card = lowest_card(mask)  # a forced card: what heuristic and tuned play, drawing nothing
            elif (plain_rules >> seat) & 1:
                card = heuristic_rules(params[seat], state, mask)
            else:
                card = choose_card_plain(kinds[seat], params[seat], state, mask, rules, rng)
        else:
            card = random_card(rng, mask)
        if search:
            record_play(state, card)
        emit(ev, info, E_PLAY, seat, card, 0)
        if search:
            winner, led, best_card, best_seat, top, trick = step(state, seat, card, n, trump, led, best_card,
                                                                 best_seat, top, trick)
        else:
            winner, led, best_card, best_seat, top, trick = step_play(state, seat, card, n, trump, led, best_card,
                                                                      best_seat, top, trick)
        if winner >= 0:
            emit(ev, info, E_TRICK, winner, 0, 0)
            seat = winner
        else:
            seat = seat + 1 if seat + 1 < n else 0
