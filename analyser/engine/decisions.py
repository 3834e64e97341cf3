"""Kernels for judging one decision: conditioned deals, paired options, one-deal transitions.

``paired_rollout`` is the one paired-rollout kernel: it plays every option of a
decision on the same deal with the same random streams (common random numbers), so
the options' difference has a small variance. ``evaluate_decision`` samples the cards
the decider cannot see, consistently with what it knows, and rolls each sample out;
``paired_class_sums`` rolls out deals from the natural distribution and adds up the
results per hand class of the eldest or the dealer, for the strategy tables and the
advice checks (``analyser.analysis.bidding.strategy``, ``.advice``). ``sample_transitions``
plays many single deals from one score, for the match-equity table (see
``analyser.analysis.bidding.equity``). ``play_out`` finishes a match.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..game.rules import R_KICK, R_PLAYERS, R_TARGET
from .bits import (
    RANK_ACE, RANK_JACK, RANK_QUEEN, RANK_TEN, SUIT_BITS, U1, bit, next_u64, rand_below, shuffle_deck,
)
from .deal import (
    HAND_SIZE, LINE_WORK, MAX_LINE_EVENTS, POLICY, SHUFFLED, WHOLE_DECK, kick_points, play_line_in, side_of,
)
from .evaluator import N_HAND_CLASSES, hand_class_code, longest_side_suit, strong_side_suit
from .search import needs_search, new_play_buffer
from .layout import (
    EV_A, EV_B, I_FIRST_KICK, I_WINNER, N_EV_COLS, N_INFO, N_STREAMS, N_WHY, RNG_WORDS, ST_DEAL_CHOICE,
    ST_DEAL_DECK, ST_JUMP, ST_LINE_CHOICE, ST_LINE_DECK,
)
from .policies import decide_beg, decide_give

# xoshiro256**'s jump polynomial: a jump moves a stream 2**128 steps ahead.
JUMP = np.array([0x180EC6D33CFD0ABA, 0xD5A61266F0C9392C, 0xA9582618E03FC9AA, 0x39ABDC4529B1661C], dtype=np.uint64)


@njit(cache=True)
def line_scratch(search):
    """The work arrays one played line needs (``deal.play_line_in``), shared by the kernels here and in
    ``bidding``: line_deck int64[52], sc int64[4], info int64[N_INFO], pts int64[4, N_WHY], work
    uint64[LINE_WORK], and the play buffer (a search player's room in it when `search`)."""
    return (np.empty(52, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(N_INFO, dtype=np.int64),
            np.zeros((4, N_WHY), dtype=np.int64), np.zeros(LINE_WORK, dtype=np.uint64), new_play_buffer(search))


@njit(cache=True, _nrt=False)
def jump_in(s, t):
    """Advance the stream s (uint64[4]) by 2**128 draws, in place; t is uint64[4] scratch.

    A copy taken before the jump and the stream after it never overlap, so each
    sampled deal gets its own streams without a seed per deal.
    """
    for i in range(4):
        t[i] = 0
    for i in range(4):
        for b in range(64):
            if JUMP[i] & (U1 << np.uint64(b)):
                for k in range(4):
                    t[k] ^= s[k]
            next_u64(s)
    for i in range(4):
        s[i] = t[i]


@njit(cache=True, _nrt=False)
def copy_words(dst, src):
    """dst[:] = src without numba's runtime (a loop)."""
    for k in range(src.shape[0]):
        dst[k] = src[k]


@njit(cache=True)
def conditioned_deck(known, rest, deck_rng, pool, deck):
    """Fill `deck`: known[p] >= 0 stays at position p, the cards of `rest` go to the
    other positions in uniformly random order (Fisher-Yates in `pool`)."""
    m = rest.shape[0]
    pool[:] = rest
    for i in range(m - 1, 0, -1):
        j = rand_below(deck_rng, i + 1)
        tmp = pool[i]
        pool[i] = pool[j]
        pool[j] = tmp
    k = 0
    for p in range(52):
        if known[p] >= 0:
            deck[p] = known[p]
        else:
            deck[p] = pool[k]
            k += 1


@njit(cache=True, _nrt=False)
def dealt_hand(deck, k):
    """Mask of the k-th hand dealt (seat (dealer + 1 + k) % n): deck[6k : 6k + 6]."""
    h = np.uint64(0)
    for p in range(HAND_SIZE * k, HAND_SIZE * (k + 1)):
        h |= bit(deck[p])
    return h


@njit(cache=True)
def play_out(rules, dealer, scores, deck, kinds, params, deck_rng, rng, info, pts):
    """Play on from a finished line (dealt by `dealer`) until a side wins; the winner."""
    ev = np.zeros((0, N_EV_COLS), dtype=np.int64)
    work = np.zeros(LINE_WORK, dtype=np.uint64)
    state = new_play_buffer(needs_search(kinds))
    return play_out_in(rules, dealer, scores, deck, kinds, params, deck_rng, rng, ev, info, pts, work, state)


@njit(cache=True, nogil=True, _nrt=False)
def play_out_in(rules, dealer, scores, deck, kinds, params, deck_rng, rng, ev, info, pts, work, state):
    """play_out with caller-owned scratch space (as play_line_in's): no allocation."""
    n = rules[R_PLAYERS]
    while True:
        dealer = (dealer + 1) % n
        play_line_in(rules, dealer, scores, deck, SHUFFLED, POLICY, POLICY, kinds, params, deck_rng, rng, ev, info,
                     pts, work, state)
        if info[I_WINNER] >= 0:
            return info[I_WINNER]


@njit(cache=True, _nrt=False)
def equity_of(equity, scores, next_dealer_side, side):
    """P(`side` wins) from a two-side score before the next deal, from the table
    equity[a, b] = P(the dealer's side wins | dealer's side has a, the other b)."""
    other = 1 - side
    if side == next_dealer_side:
        return equity[scores[side], scores[other]]
    return 1.0 - equity[scores[other], scores[side]]


@njit(cache=True, _nrt=False)
def net_points(pts, info, nsides, dside, mine):
    """The decider's side's points minus the others' (all others together), without
    the first turn-up's kick: it was scored before the decision."""
    total = 0
    for s in range(nsides):
        p = 0
        for w in range(N_WHY):
            p += pts[s, w]
        if s == dside:
            p -= info[I_FIRST_KICK]
        total += p if s == mine else -p
    return total


@njit(cache=True, nogil=True, _nrt=False)
def paired_rollout(rules, dealer, mine, scores, deck, force_beg, force_give, kinds, params, deck_rng, rng, equity,
                   playout, net, win, first, streams, line_deck, sc, ev, info, pts, work, state):
    """Play every option of one decision on the same deal: the paired rollout of every analysis.

    Option j plays the line dealt by `dealer` from `scores` (int64[4] by side, before the
    turn-up's kick) with `deck` (all 52 positions as they are), the first stand/beg forced
    to force_beg[j] and the first give/run to force_give[j] (-1: the policy decides), from
    copies of the same card stream `deck_rng` and choice stream `rng`; afterwards both
    streams are jumped 2**128 ahead, so the next deal's copies never overlap these.
    Per option j: net[j] gets the net points of side `mine` (net_points). If win.shape[0]
    > 0, win[j] gets its match-win probability: 1/0 if the line ended the match, else 1/0
    from playing the match out (`playout`) or the two-side table `equity` at the new score.
    If first.shape[0] > 0, first[j, seat] gets the first deal's hand of each seat and
    first[j, n] its turn-up (`ev` must then hold a deal's events).
    Scratch: streams (uint64[N_STREAMS, RNG_WORDS], rows ST_*), line_deck, sc, and
    ev, info, pts, work, state as play_line_in's. Allocates nothing.
    """
    n = rules[R_PLAYERS]
    nsides = 2 if n == 4 else n
    dside = side_of(dealer, n)
    deal_deck_rng = streams[ST_DEAL_DECK]
    deal_rng = streams[ST_DEAL_CHOICE]
    dr = streams[ST_LINE_DECK]
    r = streams[ST_LINE_CHOICE]
    copy_words(deal_deck_rng, deck_rng)
    jump_in(deck_rng, streams[ST_JUMP])
    copy_words(deal_rng, rng)
    jump_in(rng, streams[ST_JUMP])
    for j in range(force_beg.shape[0]):
        copy_words(line_deck, deck)
        copy_words(dr, deal_deck_rng)
        copy_words(r, deal_rng)
        copy_words(sc, scores)
        play_line_in(rules, dealer, sc, line_deck, WHOLE_DECK, force_beg[j], force_give[j], kinds, params, dr, r, ev,
                     info, pts, work, state)
        if first.shape[0] > 0:  # rows 1..n: the E_HAND rows of the first deal; row n + 1: its turn-up
            for k in range(n):
                first[j, ev[1 + k, EV_A]] = ev[1 + k, EV_B]
            first[j, n] = ev[1 + n, EV_A]
        net[j] = net_points(pts, info, nsides, dside, mine)
        if win.shape[0] > 0:
            w = info[I_WINNER]
            if w < 0 and playout:
                w = play_out_in(rules, dealer, sc, line_deck, kinds, params, dr, r, ev[0:0], info, pts, work, state)
            if w >= 0:
                win[j] = 1.0 if w == mine else 0.0
            else:
                win[j] = equity_of(equity, sc, side_of((dealer + 1) % n, n), mine)


@njit(cache=True, nogil=True)
def evaluate_decision(rules, dealer, decider, scores, known, rest, force_beg, force_give, kinds, params,
                      equity, playout, deck_rng, rng, beg_rng, max_tries, net, win, first_deals):
    """Play `net.shape[0]` conditioned deals, every option on each; returns (deals done, deck samples tried).

    known: int64[52], the card at each deck position the decider knows, -1 elsewhere;
    rest: the other cards. When the dealer decides, the eldest has begged: a sampled
    deck is kept only if the eldest's policy begs with its hand (drawing from
    `beg_rng`, so rejection never shifts the paired streams). Option j forces the
    first beg/give to force_beg[j] / force_give[j]. Per deal i and option j:
    net[i, j] the decider's side's net points of the line; win[i, j] its match-win
    probability: 1/0 if the line ended the match, else the two-side table `equity`
    at the new score, or (playout=True) 1/0 from playing the match out.
    first_deals (rows > 0 to record): the first deal's hands by seat and the turn-up.
    Stops early, before `max_tries` samples are exceeded. Each kept deck is played by
    paired_rollout.
    """
    n = rules[R_PLAYERS]
    n_deals, n_opt = net.shape
    eldest = (dealer + 1) % n
    dside = side_of(dealer, n)
    mine = side_of(decider, n)
    turnup_pos = HAND_SIZE * n
    record = first_deals.shape[0] > 0
    if record and (first_deals.shape[1] != n_opt or first_deals.shape[2] != n + 1):
        raise ValueError("evaluate_decision: first_deals needs a row of n + 1 per option")
    ev = np.zeros((MAX_LINE_EVENTS if record else 0, N_EV_COLS), dtype=np.int64)
    no_first = np.zeros((0, 0), dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    pool = np.empty(rest.shape[0], dtype=np.int64)
    line_deck, sc, info, pts, work, state = line_scratch(needs_search(kinds))
    streams = np.zeros((N_STREAMS, RNG_WORDS), dtype=np.uint64)
    # The eldest begs after the turn-up's kick is scored: its policy sees that score.
    beg_scores = scores.copy()
    beg_scores[dside] += kick_points(rules[R_KICK], known[turnup_pos])
    tries = 0
    for i in range(n_deals):
        while True:
            if tries >= max_tries:
                return i, tries
            tries += 1
            conditioned_deck(known, rest, deck_rng, pool, deck)
            if decider != dealer:
                break
            if decide_beg(kinds[eldest], params[eldest], dealt_hand(deck, 0), deck[turnup_pos], eldest, dealer,
                          beg_scores, rules, beg_rng):
                break
        paired_rollout(rules, dealer, mine, scores, deck, force_beg, force_give, kinds, params, deck_rng, rng,
                       equity, playout, net[i], win[i], first_deals[i] if record else no_first, streams, line_deck,
                       sc, ev, info, pts, work, state)
    return n_deals, tries


@njit(cache=True, nogil=True)
def sample_transitions(rules, a, b, n_lines, kinds, params, deck_rng, rng, counts):
    """Play `n_lines` single deals dealt by seat 0 from the score (a, b) (seat 0's side first)
    and count how each ended: counts[a2 * T + b2] new score (a2, b2) below the target T,
    counts[T * T] the dealer's side won during the deal, counts[T * T + 1] the other side did."""
    target = rules[R_TARGET]
    deck = np.arange(52, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    ev = np.zeros((0, 4), dtype=np.int64)
    work = np.zeros(LINE_WORK, dtype=np.uint64)
    state = new_play_buffer(needs_search(kinds))
    dealer = np.int64(0)  # not the literal 0: one compiled play_line_in for every caller (WHOLE_DECK)
    for _ in range(n_lines):
        sc[:] = 0
        sc[0] = a
        sc[1] = b
        play_line_in(rules, dealer, sc, deck, SHUFFLED, POLICY, POLICY, kinds, params, deck_rng, rng, ev, info, pts,
                     work, state)
        w = info[I_WINNER]
        if w == 0:
            counts[target * target] += 1
        elif w == 1:
            counts[target * target + 1] += 1
        else:
            counts[sc[0] * target + sc[1]] += 1


@njit(cache=True, nogil=True)
def play_matches(rules, dealer, scores, n_matches, kinds, params, deck_rng, rng, wins):
    """Play `n_matches` matches from `scores` with `dealer` to deal next; wins[side] += matches won."""
    deck = np.arange(52, dtype=np.int64)
    sc = np.zeros(4, dtype=np.int64)
    info = np.zeros(N_INFO, dtype=np.int64)
    pts = np.zeros((4, N_WHY), dtype=np.int64)
    n = rules[R_PLAYERS]
    for _ in range(n_matches):
        sc[:] = scores
        w = play_out(rules, (dealer - 1 + n) % n, sc, deck, kinds, params, deck_rng, rng, info, pts)
        wins[w] += 1


# --- per-class paired evaluation (strategy tables, advice) -------------------------------

# How paired_class_sums classes a deal (by the decider's hand, for the turn-up suit).
CLASSING_HAND = 0            # the hand class code: N_HAND_CLASSES classes
CLASSING_ELDEST_ADVICE = 1   # trump hands by class code; T0 hands split into N_SIDE_SUBCLASSES (side_subclass)
CLASSING_DEALER_ADVICE = 2   # class code + N_HAND_CLASSES * (a strong side suit: strong_side_suit)
N_SIDE_SUBCLASSES = 108      # 4 lengths x 3 tops x 3 tens x 3 honour-point bands
ROLE_ELDEST = 0              # the eldest decides: option 0 stand, option 1 beg (the dealer's policy answers)
ROLE_DEALER = 1              # the dealer answers a beg: option 0 run, option 1 give
# The first decisions that force option 0 and 1 of each role: FORCE_BEG[role, option] and
# FORCE_GIVE[role, option] (-1: the policy decides). The words are analysis/vocabulary.py's.
FORCE_BEG = np.array([[0, 1], [1, 1]], dtype=np.int64)
FORCE_GIVE = np.array([[-1, -1], [0, 1]], dtype=np.int64)
NO_PLAYOUT = np.bool_(False)  # paired_rollout's playout off; not the literal False (one compiled paired_rollout)
# Per-class accumulators (int64 columns of `sums`): net points of option 0 (a) and 1 (b),
# their paired difference d = b - a, and how the seats' own policy would have chosen.
CS_N, CS_A, CS_AA, CS_B, CS_BB, CS_D, CS_DD, CS_POLICY_B, CS_D_POLICY_B, CS_DD_POLICY_B = range(10)
N_CLASS_SUMS = 10
# Counts of paired_class_sums (int64 `counts`): deck samples, samples whose first kick ended
# the match (no decision), samples where the eldest's policy stood (dealer role), deals evaluated.
CT_TRIES, CT_KICK_ENDED, CT_NO_BEG, CT_DEALS = range(4)
N_COUNTS = 4
HONOUR_POINTS = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], dtype=np.int64)  # J Q K A; tens apart


@njit(cache=True, _nrt=False)
def side_subclass(hand, trump):
    """Sub-class 0..N_SIDE_SUBCLASSES-1 of a hand by its side suits (meant for hands without trump).

    ((length * 3 + top) * 3 + tens) * 3 + honours, where length is the longest side
    suit's (2, 3, 4, 5+ -> 0..3; ties go to the higher top card), top its top card
    (A 0, K or Q 1, J or lower 2), tens the tens held outside trump (0, 1, 2+) and
    honours the A=4 K=3 Q=2 J=1 Game points outside trump (0-3, 4-7, 8+)."""
    hand = np.uint64(hand)
    best_len, best_top = longest_side_suit(hand, trump)
    tens = 0
    honours = 0
    for s in range(4):
        if s == trump:
            continue
        bits = (hand >> np.uint64(13 * s)) & SUIT_BITS
        if bits & (U1 << np.uint64(RANK_TEN)):
            tens += 1
        for r in range(RANK_JACK, RANK_ACE + 1):
            if bits & (U1 << np.uint64(r)):
                honours += HONOUR_POINTS[r]
    length_band = min(max(best_len, 2), 5) - 2
    top_band = 0 if best_top == RANK_ACE else (1 if best_top >= RANK_QUEEN else 2)
    honour_band = 0 if honours < 4 else (1 if honours < 8 else 2)
    return ((length_band * 3 + top_band) * 3 + min(tens, 2)) * 3 + honour_band


@njit(cache=True, _nrt=False)
def deal_class(classing, hand, trump):
    """The class of the decider's `hand` for `trump` under `classing` (CLASSING_*)."""
    code = hand_class_code(hand, trump)
    if classing == CLASSING_ELDEST_ADVICE:
        return code if code > 0 else N_HAND_CLASSES + side_subclass(hand, trump)
    if classing == CLASSING_DEALER_ADVICE:
        return code + N_HAND_CLASSES * strong_side_suit(hand, trump)
    return code


def n_classes(classing: int) -> int:
    """Rows of `sums` a classing needs."""
    return {CLASSING_HAND: N_HAND_CLASSES, CLASSING_ELDEST_ADVICE: N_HAND_CLASSES + N_SIDE_SUBCLASSES,
            CLASSING_DEALER_ADVICE: 2 * N_HAND_CLASSES}[classing]


@njit(cache=True, nogil=True)
def paired_class_sums(rules, role, scores, kinds, params, classing, deck_rng, rng, beg_rng, n_deals, max_tries,
                      sums, counts):
    """paired_class_sums_in with its scratch space allocated here (once per call)."""
    if sums.shape[1] != N_CLASS_SUMS or counts.shape[0] != N_COUNTS:
        raise ValueError("paired_class_sums: sums needs N_CLASS_SUMS columns, counts N_COUNTS")
    ev = np.zeros((0, N_EV_COLS), dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    line_deck, sc, info, pts, work, state = line_scratch(needs_search(kinds))
    seen = np.zeros(4, dtype=np.int64)
    streams = np.zeros((N_STREAMS, RNG_WORDS), dtype=np.uint64)
    values = np.zeros(2, dtype=np.float64)  # float, as whatif's: one compiled paired_rollout
    no_table = np.zeros((1, 1), dtype=np.float64)
    # The role's forced first decisions, copied: a row of the read-only global itself would make
    # numba compile paired_rollout (and all it calls) a second time, for read-only arguments.
    forced = np.empty((2, 2), dtype=np.int64)
    forced[0] = FORCE_BEG[role]
    forced[1] = FORCE_GIVE[role]
    return paired_class_sums_in(rules, role, scores, kinds, params, classing, deck_rng, rng, beg_rng, n_deals,
                                max_tries, sums, counts, ev, deck, line_deck, sc, seen, info, pts, work, state,
                                streams, values, no_table, forced)


@njit(cache=True, nogil=True, _nrt=False)
def paired_class_sums_in(rules, role, scores, kinds, params, classing, deck_rng, rng, beg_rng, n_deals, max_tries,
                         sums, counts, ev, deck, line_deck, sc, seen, info, pts, work, state, streams, values, no_table,
                         forced):
    """Evaluate `n_deals` decisions of `role`, both options on each deal, adding per-class sums.

    Deals come from the natural distribution: a uniformly shuffled deck, dealt by seat
    n - 1 (the eldest is seat 0) at `scores` (int64[4] by side, before the turn-up's kick).
    A sample whose kick ends the match is skipped (no decision). For ROLE_DEALER a
    sample is kept only if the eldest's own policy begs with its hand (decided with
    `beg_rng`, so rejection never shifts the paired streams). Each kept deal is played
    twice, option 0 and 1 forced as the first decision (ROLE_ELDEST: stand / beg, the
    dealer's policy answering a beg; ROLE_DEALER: run / give: FORCE_BEG, FORCE_GIVE) by
    paired_rollout, from the same deck and copies of the same card and choice streams.
    The value of an option is the decider's side's net points of the line (its points
    minus all other sides' together, without the first turn-up's kick, as net_points).
    sums[class, CS_*] (class by deal_class of the decider's hand) gets n, the sums and
    sums of squares of a, b and d = b - a, and, over the deals where the decider's own
    policy (seats' kinds/params) would choose option 1, the count and d's sums.
    Stops after `max_tries` deck samples; counts[CT_*] += what happened; returns deals done.
    Scratch as paired_class_sums allocates it (no_table: float64[1, 1], never read; forced: the role's
    rows of FORCE_BEG and FORCE_GIVE).
    """
    n = rules[R_PLAYERS]
    dealer = n - 1
    eldest = 0
    decider = eldest if role == ROLE_ELDEST else dealer
    dside = side_of(dealer, n)
    mine = side_of(decider, n)
    turnup_pos = HAND_SIZE * n
    target = rules[R_TARGET]
    no_win = no_table[0, 0:0]  # paired_rollout: net points only, no match-win probability
    no_first = pts[0:0]        # ... and no first deals recorded
    done = 0
    while done < n_deals and counts[CT_TRIES] < max_tries:
        counts[CT_TRIES] += 1
        shuffle_deck(deck, deck_rng)
        turnup = deck[turnup_pos]
        kick = kick_points(rules[R_KICK], turnup)
        if scores[dside] + kick >= target:
            counts[CT_KICK_ENDED] += 1
            continue
        # The decisions are taken after the kick is scored: the policies see that score.
        for s in range(4):
            seen[s] = scores[s]
        seen[dside] += kick
        eldest_hand = dealt_hand(deck, 0)
        if role == ROLE_DEALER:
            if not decide_beg(kinds[eldest], params[eldest], eldest_hand, turnup, eldest, dealer, seen, rules,
                              beg_rng):
                counts[CT_NO_BEG] += 1
                continue
            hand = dealt_hand(deck, n - 1)
            policy_b = decide_give(kinds[dealer], params[dealer], hand, turnup, dealer, dealer, seen, rules, beg_rng)
        else:
            hand = eldest_hand
            policy_b = decide_beg(kinds[eldest], params[eldest], hand, turnup, eldest, dealer, seen, rules, beg_rng)
        cls = deal_class(classing, hand, turnup // 13)
        paired_rollout(rules, dealer, mine, scores, deck, forced[0], forced[1], kinds, params, deck_rng,
                       rng, no_table, NO_PLAYOUT, values, no_win, no_first, streams, line_deck, sc, ev, info, pts, work,
                       state)
        a = np.int64(values[0])  # whole points, held as floats as every caller of paired_rollout holds them
        b = np.int64(values[1])
        d = b - a
        sums[cls, CS_N] += 1
        sums[cls, CS_A] += a
        sums[cls, CS_AA] += a * a
        sums[cls, CS_B] += b
        sums[cls, CS_BB] += b * b
        sums[cls, CS_D] += d
        sums[cls, CS_DD] += d * d
        if policy_b:
            sums[cls, CS_POLICY_B] += 1
            sums[cls, CS_D_POLICY_B] += d
            sums[cls, CS_DD_POLICY_B] += d * d
        done += 1
    counts[CT_DEALS] += done
    return done
