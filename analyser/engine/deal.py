"""The rules as kernels: legal moves, trick winner, scoring and whole deals.

``play_line`` plays one dealer's turn: a deal and every redeal it needs (exhausted
pack, bunching), stand/beg, give/run, runs, discards, the tricks and the points in
strict order, stopping the moment a side reaches the target. ``simulate_lines``
plays many of them as matches (dealer rotating, scores carried, a new match with a
cut for the dealer once one is won) and adds up what happened.
"""

from __future__ import annotations

import threading

import numpy as np
from numba import njit

from ..game.rules import R_BUNCHING, R_DISCARD, R_GIFT, R_KICK, R_PLAYERS, R_RUN_CARDS
from .bits import RANK_JACK, below, bit, next_held, next_seat, popcount, private_zeros, rand_below, side_of
from .search import BID_GIVEN, BID_STOOD, BID_UNKNOWN, needs_search, new_play_buffer, play_buffer_size, record_bid
from .layout import (
    E_BEG, E_BUNCH, E_DEAL, E_DISCARD, E_GIVE, E_HAND, E_MORE, E_REDEAL, E_RUN, E_STAND, E_TRUMP, E_TURNUP, I_BEGS,
    I_BUNCH_VOTES, I_BUNCHED, I_DEALS, I_EVENTS, I_EXHAUSTED, I_FIRST_BEG, I_FIRST_GIVE, I_FIRST_KICK, I_GIVES,
    I_OVERFLOW, I_PLAYED, I_RUNS, I_TRICKS, I_WINNER, LM_DEALER, LM_END_EVENT, LM_FIRST_EVENT, LM_OVERFLOW,
    LM_SCORE_AFTER, LM_SCORE_BEFORE, LM_WINNER, MS_DEALER, MS_NEW_MATCH, MS_SCORE, N_INFO, N_LINE_META, N_MSTATE,
    N_WHY, PS_FORBID, PS_N_TRICKS, PS_VOID_TRUMP, W_GIFT, W_JACK_BONUS, W_KICK,
)
from .policies import choose_discard, decide_beg, decide_bunch, decide_give
from .playout import all_seats_random, playout, random_tricks, rules_seats, rules_tricks
from .state import award, emit, init_state, score, set_out_of_play
from .state import beats, legal_mask, trick_winner  # noqa: F401  (the rules of one card, imported from here too)

KICK_NONE, KICK_TRINIDAD, KICK_TOBAGO, KICK_HEELS, KICK_FINAL_JACK = range(5)
HAND_SIZE = 6
LINE_WORK = 9  # uint64 scratch play_line_in needs: the hands while dealing, the discards, the turn-ups
# play_line_in's n_fixed for a deck fixed in every position. A numpy scalar, not the literal 52: numba compiles
# a kernel again for every literal argument, and play_line_in with all it calls takes a minute to compile.
WHOLE_DECK = np.int64(52)
SHUFFLED = np.int64(0)   # n_fixed for a deck shuffled as it is dealt; the same reason
POLICY = np.int64(-1)    # force_beg / force_give: the policy decides; the same reason
MAX_LINE_EVENTS = 4096  # a line needing more (a long chain of exhausted redeals) is flagged, never cut silently

# Aggregate counters of simulate_lines (int64 array `stats`).
S_LINES, S_DEALS, S_RUNS, S_EXHAUSTED, S_BUNCH_VOTES, S_BUNCHED, S_BEGS, S_GIVES, S_TRICKS, S_MATCHES = range(10)
S_PLAYED = 10
S_NET_SUM = 11      # dealer's side points minus the others', summed over lines
S_NET_SQ = 12       # ... and its square, for the standard error
S_DEALER_POINTS = 16          # + why: points to the dealer's side by category
S_OTHER_POINTS = 16 + N_WHY   # + why: points to every other side by category
S_RUNS_HIST = 16 + 2 * N_WHY  # + k (k = 0..7, 7 meaning 7 or more): lines with k runs
N_STATS = S_RUNS_HIST + 8


@njit(cache=True, _nrt=False)
def kick_points(kick, card):
    """Points the dealer's side scores for turning up `card`."""
    rank = card % 13
    if kick == KICK_TRINIDAD or kick == KICK_TOBAGO:
        if rank == 12:
            return 1
        if rank == RANK_JACK:
            return 3
        if (kick == KICK_TRINIDAD and rank == 4) or (kick == KICK_TOBAGO and rank == 0):
            return 2
    elif kick == KICK_HEELS and rank == RANK_JACK:
        return 1
    return 0


@njit(cache=True, _nrt=False)
def draw(deck, pos, fixed, deck_rng):
    """Card at deck position `pos`; positions from `fixed` on are shuffled lazily."""
    if pos >= fixed:
        j = pos + rand_below(deck_rng, 52 - pos)
        tmp = deck[pos]
        deck[pos] = deck[j]
        deck[j] = tmp
    return deck[pos]


@njit(cache=True, _nrt=False, inline="always")
def draw_held(deck, pos, fixed, s0, s1, s2, s3):
    """`draw` with the stream's four words held by the caller (in registers) instead of read from and written
    to the stream's array at every card: the card and the words after it. The same cards and draws."""
    if pos >= fixed:
        r, s0, s1, s2, s3 = next_held(s0, s1, s2, s3)
        j = pos + below(r, 52 - pos)
        tmp = deck[pos]
        deck[pos] = deck[j]
        deck[j] = tmp
    return deck[pos], s0, s1, s2, s3


@njit(cache=True, _nrt=False)
def play_tricks_and_score(rules, dealer, scores, hands, trump, turnup, kinds, params, rng, ev, info, pts, state,
                          turnups, discards):
    """Trick play from the eldest's lead, then the points: the play state's kernels (engine/state.py).
    `turnups` (mask) and `discards` (by seat) are what the seats know is out of play (``set_out_of_play``)."""
    init_state(state, rules, hands, trump, turnup, dealer, scores)
    set_out_of_play(state, turnups, discards)
    info[I_PLAYED] = 1
    if all_seats_random(state, kinds) and state[PS_FORBID] == 0 and state[PS_VOID_TRUMP] == 0:
        random_tricks(state, rng, ev, info, False)  # playout's random loop compiled in: its call passes ~50 words
    elif (state[PS_FORBID] == 0 and state[PS_VOID_TRUMP] == 0
          and rules_seats(state, kinds, params) == (1 << rules[R_PLAYERS]) - 1):
        rules_tricks(state, params, ev, info)  # seats that all play the heuristic's rules: their own loop, called
    else:
        playout(state, rules, kinds, params, rng, ev, info)
    info[I_TRICKS] = state[PS_N_TRICKS]
    score(state, rules, scores, ev, info, pts)


@njit(cache=True, nogil=True)
def play_line(rules, dealer, scores, deck, n_fixed, force_beg, force_give, kinds, params, deck_rng, rng, ev, info, pts):
    """Play one dealer's turn, from the shuffle to the last point.

    deck: int64[52] permutation; its first `n_fixed` positions are used as they are
    (hands dealt eldest first, 6 each, then the turn-up, then the stock), the rest
    are shuffled lazily. A redeal reshuffles everything. force_beg / force_give
    (-1 = policy decides) fix the first stand/beg and give/run of the line.
    deck_rng shuffles, rng makes the players' choices: two streams, so the same
    cards can be replayed with other players (duplicate deals, paired options).
    Results: `scores` updated in place, `info` (I_*), `pts[side, why]`, events in `ev`.
    """
    work = np.zeros(LINE_WORK, dtype=np.uint64)
    state = new_play_buffer(needs_search(kinds))
    play_line_in(rules, dealer, scores, deck, n_fixed, force_beg, force_give, kinds, params, deck_rng, rng, ev, info,
                 pts, work, state)


@njit(cache=True, nogil=True, _nrt=False)
def play_line_in(rules, dealer, scores, deck, n_fixed, force_beg, force_give, kinds, params, deck_rng, rng, ev, info,
                 pts, work, state):
    """play_line with caller-owned scratch space (uint64[LINE_WORK] work, int64[N_STATE] state): no allocation.
    The play state it leaves records what each seat knows is out of play: every turn-up of the deal played and
    its own discards (``state.set_out_of_play``)."""
    n = rules[R_PLAYERS]
    rc = rules[R_RUN_CARDS]
    info[:] = 0
    info[I_WINNER] = -1
    info[I_FIRST_BEG] = -1
    info[I_FIRST_GIVE] = -1
    pts[:, :] = 0
    eldest = next_seat(dealer, n)
    dside = side_of(dealer, n)
    eside = side_of(eldest, n)
    hands = work[0:4]
    discards = work[4:8]
    first = True
    trump = 0
    turnup = 0
    while True:
        info[I_DEALS] += 1
        fixed = n_fixed if first else 0
        pos = 0
        seat = eldest
        # The hands and the turn-up drawn with the stream's words held (draw_held), stored back once
        s0, s1, s2, s3 = deck_rng[0], deck_rng[1], deck_rng[2], deck_rng[3]
        for _ in range(n):
            h = np.uint64(0)
            for _ in range(HAND_SIZE):
                card, s0, s1, s2, s3 = draw_held(deck, pos, fixed, s0, s1, s2, s3)
                h |= bit(card)
                pos += 1
            hands[seat] = h
            seat = next_seat(seat, n)
        turnup, s0, s1, s2, s3 = draw_held(deck, pos, fixed, s0, s1, s2, s3)
        pos += 1
        deck_rng[0], deck_rng[1], deck_rng[2], deck_rng[3] = s0, s1, s2, s3
        for s in range(4):
            discards[s] = 0
        emit(ev, info, E_DEAL, 0, 0, 0)
        for s in range(n):
            emit(ev, info, E_HAND, s, np.int64(hands[s]), 0)
        work[8] = bit(turnup)  # every turn-up of this deal, seen by all
        emit(ev, info, E_TURNUP, turnup, 0, 0)
        kp = kick_points(rules[R_KICK], turnup)
        if first:
            info[I_FIRST_KICK] = kp
        if award(rules, scores, dside, kp, W_KICK, ev, info, pts):
            return
        trump = turnup // 13
        if first and force_beg >= 0:
            beg = force_beg == 1
        else:
            beg = decide_beg(kinds[eldest], params[eldest], hands[eldest], turnup, eldest, dealer, scores, rules, rng)
        if first:
            info[I_FIRST_BEG] = 1 if beg else 0
        ran = False
        void = False
        if not beg:
            # What pimc may infer from the bidding (search.record_bid): nothing from a forced decision.
            record_bid(state, BID_UNKNOWN if first and force_beg >= 0 else BID_STOOD, turnup, scores)
            emit(ev, info, E_STAND, eldest, 0, 0)
        else:
            info[I_BEGS] += 1
            emit(ev, info, E_BEG, eldest, 0, 0)
            if first and force_give >= 0:
                give = force_give == 1
            else:
                give = decide_give(kinds[dealer], params[dealer], hands[dealer], turnup, dealer, dealer, scores, rules, rng)
            if first:
                info[I_FIRST_GIVE] = 1 if give else 0
            forced = first and (force_beg >= 0 or force_give >= 0)
            record_bid(state, BID_GIVEN if give and not forced else BID_UNKNOWN, turnup, scores)  # a run: unknown
            if give:
                info[I_GIVES] += 1
                emit(ev, info, E_GIVE, dealer, 0, 0)
                if award(rules, scores, eside, rules[R_GIFT], W_GIFT, ev, info, pts):
                    return
            else:
                emit(ev, info, E_RUN, dealer, 0, 0)
                ran = True
                while True:
                    if 52 - pos < rc * n + 1:  # no room for a full run plus a turn-up
                        void = True
                        break
                    emit(ev, info, E_MORE, 0, 0, 0)
                    seat = eldest
                    s0, s1, s2, s3 = deck_rng[0], deck_rng[1], deck_rng[2], deck_rng[3]  # as the deal's draws
                    for _ in range(n):
                        extra = np.uint64(0)
                        for _ in range(rc):
                            card, s0, s1, s2, s3 = draw_held(deck, pos, fixed, s0, s1, s2, s3)
                            extra |= bit(card)
                            pos += 1
                        hands[seat] |= extra
                        emit(ev, info, E_HAND, seat, np.int64(extra), 0)
                        seat = next_seat(seat, n)
                    turnup, s0, s1, s2, s3 = draw_held(deck, pos, fixed, s0, s1, s2, s3)
                    pos += 1
                    deck_rng[0], deck_rng[1], deck_rng[2], deck_rng[3] = s0, s1, s2, s3
                    work[8] |= bit(turnup)
                    info[I_RUNS] += 1
                    emit(ev, info, E_TURNUP, turnup, 0, 0)
                    if award(rules, scores, dside, kick_points(rules[R_KICK], turnup), W_KICK, ev, info, pts):
                        return
                    if turnup // 13 != trump:
                        trump = turnup // 13
                        break
        if void:
            info[I_EXHAUSTED] += 1
            emit(ev, info, E_REDEAL, 0, 0, 0)
            first = False
            continue
        if ran and rules[R_BUNCHING]:
            info[I_BUNCH_VOTES] += 1
            agreed = True
            seat = eldest
            for _ in range(n):
                if not decide_bunch(kinds[seat], params[seat], hands[seat], trump, seat, dealer, scores, rules, rng):
                    agreed = False
                seat = next_seat(seat, n)
            emit(ev, info, E_BUNCH, 1 if agreed else 0, 0, 0)
            if agreed:
                info[I_BUNCHED] += 1
                emit(ev, info, E_REDEAL, 1, 0, 0)
                first = False
                continue
        break

    emit(ev, info, E_TRUMP, trump, 0, 0)
    if rules[R_KICK] == KICK_FINAL_JACK and turnup % 13 == RANK_JACK:
        if award(rules, scores, dside, 1, W_JACK_BONUS, ev, info, pts):
            return
    if rules[R_DISCARD]:
        seat = eldest
        for _ in range(n):
            if popcount(hands[seat]) > HAND_SIZE:
                gone = choose_discard(kinds[seat], params[seat], hands[seat], trump, HAND_SIZE, rng)
                hands[seat] &= ~gone
                discards[seat] = gone
                emit(ev, info, E_DISCARD, seat, np.int64(gone), 0)
            seat = next_seat(seat, n)
    play_tricks_and_score(rules, dealer, scores, hands, trump, turnup, kinds, params, rng, ev, info, pts, state,
                          work[8], discards)


# play_line_in compiled into simulate_lines_in's unrecorded loop (its hot path): a call passes some ninety words
play_line_inline = njit(nogil=True, _nrt=False, inline="always")(play_line_in.py_func)


def new_match_state(players: int) -> np.ndarray:
    """Match state (layout MS_*): no dealer yet, a new match to start, scores zero (on cache lines of its own)."""
    state = private_zeros(N_MSTATE, np.int64)
    state[MS_NEW_MATCH] = 1
    return state


_THREAD_SCRATCH = threading.local()
_DECK_ORDER = np.arange(52, dtype=np.int64)


def line_scratch(state_words: int) -> tuple[np.ndarray, ...]:
    """simulate_lines' scratch (deck, info, points, scores, work, play buffer of `state_words`), as every call
    starts from it: zeros, and the deck in order.

    One block on cache lines of its own (``bits.private_zeros``: threads run simulate_lines side by side), carved
    into the six arrays, kept for the thread's next call and set back to zeros then: made afresh, the wrapper took
    some 46 microseconds a call instead of 6 (a tenth of a call of 1,000 random lines, the runner's batch)."""
    held = getattr(_THREAD_SCRATCH, "views", None)
    if held is None or held[-1].shape[0] != state_words:
        sizes = (52, N_INFO, 4 * N_WHY, 4, LINE_WORK, state_words)
        block = private_zeros(sum(sizes), np.int64)
        ends = np.cumsum(sizes)
        deck, info, pts, scores, work, state = (block[e - k:e] for e, k in zip(ends, sizes))
        _THREAD_SCRATCH.block = block
        _THREAD_SCRATCH.views = held = (deck, info, pts.reshape(4, N_WHY), scores, work.view(np.uint64), state)
    else:
        _THREAD_SCRATCH.block.fill(0)
    held[0][:] = _DECK_ORDER
    return held


def simulate_lines(rules: np.ndarray, n_lines: int, mstate: np.ndarray, kinds: np.ndarray, params: np.ndarray,
                   deck_rng: np.ndarray, rng: np.ndarray, ev: np.ndarray, meta: np.ndarray, stats: np.ndarray) -> int:
    """simulate_lines_in with its scratch space (``line_scratch``: the thread's own, set back at each call); lines
    played.

    A Python wrapper, not a kernel: simulate_lines_in is called as compiled on its own. A jitted wrapper carried
    a copy of it, optimised again inside the wrapper's own module; loaded from numba's cache that copy played
    a random line some 12% slower and a heuristic one 5% slower (docs/speed.md, "The kernel as compiled")."""
    if mstate.shape[0] != N_MSTATE or stats.shape[0] != N_STATS:
        raise ValueError("simulate_lines: mstate needs N_MSTATE slots, stats N_STATS")
    if ev.shape[0] > 0 and (meta.shape[0] < n_lines or meta.shape[1] != N_LINE_META):
        raise ValueError("simulate_lines: meta needs a row of N_LINE_META per line")
    deck, info, pts, scores, work, state = line_scratch(play_buffer_size(kinds))
    return int(simulate_lines_in(rules, np.int64(n_lines), mstate, kinds, params, deck_rng, rng, ev, meta, stats,
                                 deck, info, pts, scores, work, state))


@njit(cache=True, nogil=True, _nrt=False)
def simulate_lines_in(rules, n_lines, mstate, kinds, params, deck_rng, rng, ev, meta, stats,
                      deck, info, pts, scores, work, state):
    """Play up to `n_lines` lines as matches, adding their facts to `stats`.

    `mstate` (MS_*) carries the match on from call to call. With an event buffer (`ev`
    rows > 0) every line's events are kept and `meta[i]` (LM_*) gets the dealer, the
    line's first and end event rows, the winner, the scores before and after, and the
    overflow flag; it stops early when the buffer may not hold another line. Returns
    lines played.
    """
    n = rules[R_PLAYERS]
    recording = ev.shape[0] > 0
    offset = 0
    done = 0
    for i in range(n_lines):
        if recording and ev.shape[0] - offset < MAX_LINE_EVENTS:
            break
        if mstate[MS_NEW_MATCH] == 1:  # a new match: cut for the dealer, scores from zero
            mstate[MS_DEALER] = rand_below(deck_rng, n)
            mstate[MS_NEW_MATCH] = 0
            mstate[MS_SCORE:MS_SCORE + 4] = 0
        dealer = mstate[MS_DEALER]
        for s in range(4):
            scores[s] = mstate[MS_SCORE + s]
        if recording:
            meta[i, LM_DEALER] = dealer
            meta[i, LM_FIRST_EVENT] = offset
            for s in range(4):
                meta[i, LM_SCORE_BEFORE + s] = scores[s]
            play_line_in(rules, dealer, scores, deck, SHUFFLED, POLICY, POLICY, kinds, params, deck_rng, rng,
                         ev[offset:offset + MAX_LINE_EVENTS], info, pts, work, state)
            offset += info[I_EVENTS]
            meta[i, LM_END_EVENT] = offset
            meta[i, LM_WINNER] = info[I_WINNER]
            for s in range(4):
                meta[i, LM_SCORE_AFTER + s] = scores[s]
            meta[i, LM_OVERFLOW] = info[I_OVERFLOW]
        else:
            play_line_inline(rules, dealer, scores, deck, SHUFFLED, POLICY, POLICY, kinds, params, deck_rng, rng, ev,
                             info, pts, work, state)
        for s in range(4):
            mstate[MS_SCORE + s] = scores[s]
        if info[I_WINNER] >= 0:
            mstate[MS_NEW_MATCH] = 1
            stats[S_MATCHES] += 1
        else:
            mstate[MS_DEALER] = next_seat(dealer, n)
        dside = side_of(dealer, n)
        net = 0
        for w in range(N_WHY):  # the dealer's side's points, then every other side's together
            mine = pts[dside, w]
            others = pts[0, w] + pts[1, w] + pts[2, w] + pts[3, w] - mine  # the rows past the last side stay 0
            stats[S_DEALER_POINTS + w] += mine
            stats[S_OTHER_POINTS + w] += others
            net += mine - others
        stats[S_LINES] += 1
        stats[S_DEALS] += info[I_DEALS]
        stats[S_RUNS] += info[I_RUNS]
        stats[S_RUNS_HIST + min(info[I_RUNS], 7)] += 1
        stats[S_EXHAUSTED] += info[I_EXHAUSTED]
        stats[S_BUNCH_VOTES] += info[I_BUNCH_VOTES]
        stats[S_BUNCHED] += info[I_BUNCHED]
        stats[S_BEGS] += info[I_BEGS]
        stats[S_GIVES] += info[I_GIVES]
        stats[S_TRICKS] += info[I_TRICKS]
        stats[S_PLAYED] += info[I_PLAYED]
        stats[S_NET_SUM] += net
        stats[S_NET_SQ] += net * net
        done += 1
    return done
