"""The open-hand solver: the value of a position of trick play with every hand visible.

A position is a play state (``state.py``), cut anywhere: at a trick boundary or in the
middle of a trick. Its **value** is what perfect play by everyone makes of the points
the deal still has to give, counted for the side to move as *its points minus the
other sides' points*:

* **High** and **Low**: fixed the moment play starts (who held the highest and lowest
  trump in play, ``PS_START``), so a constant of the position;
* **Jack** or **hang jack**: to the side that captures the jack of trump (3 for the
  opponents' jack under ``hang_jack``); a constant once it has been captured;
* **Game**: to the side with the most card points captured, a tie settled by
  ``game_tie`` exactly as ``state.score_game`` does.

Kicks, the gift and the jack bonus are not counted (play cannot change them), and
neither is the match target: these are the deal's points, all of them, as if the
match went on for ever.

**Two sides** (2 players, or 4 in partnerships): minimax. The side to move at the
root maximises its net points, the other side minimises them (the same thing, since
one side's net is the other's negated).

**Three players** (each a side): the value for the seat to move is its own points
minus the other two players' points together, and the search is *paranoid*: the
other two are taken to play together to minimise that number. So a card's value is
what the mover can guarantee against the worst coalition, a lower bound on what it
makes against any two opponents; it is not an equilibrium of the three-player game.

The search is fail-soft alpha-beta on the play state's own kernels (``legal``,
``apply_open``: ``apply`` without the voids and lacks nobody reads here, ``copy_state``), on an
explicit stack (numba's cache cannot reload a self-recursive kernel), by null-window searches:

* **two sides**: the value is found by tests "is it at least t?", the first one below the value
  of a quick playout (``playout_guess``), then one up after a success and two down after a
  failure: a failing test (a proof that the side cannot reach t) is the costly kind, and only
  the one at the value + 1 is needed. Each test is turned into a
  question of card points alone: "can this side capture at least theta of the card
  points still out, counting the jack of trump as w more?" (``value_at_least``:
  theta and w follow from t, the points captured so far and the jack's worth to each
  side). That objective adds up trick by trick, so what a table entry says about the
  rest of the deal holds however the position was reached;
* **three players**: MTD(f) on the net points themselves (``mtdf``), with the
  captured card points and the jack's captor in the table key.

and:

* a **transposition table** probed and stored only at trick boundaries. Within one
  deal the cards still out determine every hand (each card's holder is fixed by
  ``PS_START``); the key goes further and counts the 2s to 9s of each hand only by
  their order among the low cards out (``canonical_key``: positions that differ in
  which low cards were played, but not in who holds what in what order, are the same
  position), plus the seat to lead (and, with three players, the captured points and
  the jack's captor). An entry holds a lower and an upper bound on what is still to
  come, the best lead and the w they were found with: while the jack is still to be
  captured they bound a test with another w too, moved by the difference one way
  (``_w_shift``). Entries are tagged with a generation,
  so a new position needs no clearing. The key is a 64-bit hash (with the rest
  compared exactly): two positions would have to agree on 64 random bits to be
  confused;
* **static bounds** at trick boundaries (in mid-trick nothing has changed): High and
  Low are known; the card points still out go to one side or the other, except that a
  trump above every trump the other side still has wins its trick for its side; the
  jack likewise; and the side on lead may draw trumps and cash (``_node_bounds``); a
  window outside the bounds is cut at once;
* **move ordering**: the table's lead first; at a lead, the lead that last refuted a
  position at that ply (a "killer") next, and the one before it among the cards at the
  top of their suits; then winners of the trick (the cheapest first) for the side not
  winning it, Game points onto a partner's winning card that no later seat can beat,
  low cards otherwise; in solves without a node limit, a card that saves a partner's trick
  of 6 card points or more from the other side first (``OVERTAKE_POINTS``), leads of side
  suits the other side can trump last (``RUFFED_LEAD``) and the trumps before the top cards
  of the side suits; ties broken by a history of the cards that caused cut-offs;
* **the last tricks in one call** (four players, two sides, solves without a node limit):
  two cards each at a trick boundary are searched by ``_ending4`` and three cards each, after
  the table and the bounds, by ``_ending3`` (alpha-beta over the first trick's lines, the
  table's lead first), without the table's and the general search's cost at every card. A
  limited solve keeps the general search there, so its node count, and where it gives up, do
  not change;
* **equivalent cards** searched once: two legal cards of one suit with no card
  between them among the cards still out (the hands and the current trick) and the
  same Game points (10=10, A=4, K=3, Q=2, J=1, others 0) lead to the same values; the
  jack of trump is equivalent to nothing;
* **near-equivalent cards** (two-sided tests, solves without a node limit): two such cards of
  different Game points lead to positions that differ only in which of them is captured in
  which trick, so their values differ by at most the difference of their points; a card whose
  bound from a searched one (``_near_bound``, ``_near_u``) lies outside the window is passed
  over, the quasi-symmetry of Kupferschmid and Helmert's Skat solver.

A **node limit** lets a caller try an exact solve and give up: with ``ctx[C_NODE_LIMIT] > 0`` a
solve stops once it has visited that many nodes (``ctx[C_NODES]``, counted from 0 by each call) and
sets ``ctx[C_ABORTED]``. It drops its stack without storing anything for the unfinished nodes, so the
table keeps only proved bounds and later solves stay exact. A limited solve searches as it always did
(the move order and node counts its callers' answers were pinned with); ``ctx[C_NODE_CAP]`` stops an
exact solve the same way without changing its search (benchmarks that must end).

Every kernel runs without numba's runtime (``_nrt=False``): per-depth states, move
lists and the table are preallocated by the caller (``SolverWork``).
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from ..game.rules import R_GAME_TIE, R_HANG_JACK
from .bits import (
    GAME_VALUE, RANK_JACK, U1, bit, cards_above, game_points, highest_card, lowest_card, next_seat, pdep_is_fast,
    popcount, side_of, suit_mask,
)
from .layout import (
    N_STATE, PS_BEST_CARD, PS_BEST_SEAT, PS_CAPTURED, PS_DEALER, PS_FORBID, PS_HAND, PS_IN_PLAY, PS_JACK_CAPTOR,
    PS_LED, PS_N_TRICKS, PS_PLAYERS, PS_START, PS_TO_PLAY, PS_TRICK_CARD, PS_TRICK_MASK, PS_TRICK_NO, PS_TRUMP,
    PS_VOID_TRUMP,
)
from .state import apply_open, beats, copy_play, copy_state, legal, legal_mask

# Deepest search: every card of a 52-card pack, one ply each, and the root.
MAX_PLIES = 53
MOVE_SLOTS = 52
INF = 1000
NO_VALUE = -INF  # in a card-values row: not a legal card

# Search context (int64 array `ctx`), set up for each position by `prepare`.
C_PERSP_SIDE = 0  # side of the seat to move at the root: the value is its net points
C_NSIDES = 1
C_FIXED = 2       # High and Low for that side, net: fixed when play started
C_HANG = 3        # 1: hang jack (3 for capturing the opponents' jack)
C_TIE = 4         # the rule set's game_tie code
C_DEALER_SIDE = 5
C_JACK = 6        # the jack of trump if in play, else -1
C_JACK_SIDE = 7   # side that held it when play started
C_JACK_LO = 8     # least and most the jack can still be worth to the perspective side
C_JACK_HI = 9
C_GEN = 10        # search generation (table entries of older ones are ignored)
C_NODES = 11      # nodes visited (statistics)
C_TT_MASK = 12    # table size - 1 (a power of two)
C_MODE = 13       # the search's objective: 0 net points, 1 card points with the jack worth C_W more
C_W = 14
C_NODE_LIMIT = 15  # set by the caller: a solve gives up once it has visited this many nodes (0: no limit)
C_ABORTED = 16     # set by each solve: 1 when it gave up at C_NODE_LIMIT or C_NODE_CAP (its values are then void)
C_NODE_CAP = 17    # set by the caller: an exact solve (no C_NODE_LIMIT) gives up after this many nodes (0: never)
C_STOP = 18        # set by another thread while a solve runs: give up soon (checked every STOP_EVERY nodes)
C_RANGE_LO = 19    # what `value_of` has proved so far of the value it is finding: at least this...
C_RANGE_HI = 20    # ... and at most this (for a caller that stops it: `proved_ranges`)
C_CARD = 21        # `solve_cards`: the card whose value `value_of` is finding, -1 when none
C_HIST = 32       # + card: history heuristic (cut-offs the card caused)
C_KILLER = C_HIST + 52  # + ply: the lead that last caused a cut-off at that ply, -1
C_KILLER2 = C_KILLER + MAX_PLIES + 1  # + ply: the one before it (another card), -1
C_CARD_LO = C_KILLER2 + MAX_PLIES + 1  # + card: `solve_cards`, what is proved of each card's value: at least...
C_CARD_HI = C_CARD_LO + 52  # + card: ... and at most (equal once the card is solved)
N_CTX = C_CARD_HI + 52
STOP_EVERY = 4096

TT_WORDS = 4      # words per table entry: a bucket of two entries is one cache line
GEN_SHIFT = 32
GEN_LIMIT = 1 << 30
DEFAULT_TT_BITS = 20


class SolverWork:
    """The memory one solver needs, allocated once and reused for every position.

    ``states``: a play state per ply; ``moves``: the ordered moves per ply; the
    transposition table ``tt`` (``tt_bits`` bits of index; a row is the key, the rest of the
    key, the bounds and best lead, the cards out: 32 bytes; buckets of two rows, one cache
    line, the first kept for the bigger subtree); ``ctx``.
    Not to be shared by two threads at once.
    """

    def __init__(self, tt_bits: int = DEFAULT_TT_BITS) -> None:
        size = 1 << tt_bits
        self.states = np.zeros((MAX_PLIES + 1, N_STATE), dtype=np.int64)
        self.moves = np.zeros((MAX_PLIES + 1, MOVE_SLOTS), dtype=np.int64)
        self.frames = np.zeros((MAX_PLIES + 1, N_FRAME), dtype=np.int64)
        self.tt = np.zeros((size, TT_WORDS), dtype=np.int64)
        self.ctx = np.zeros(N_CTX, dtype=np.int64)
        self.values = np.zeros(52, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Nodes visited by the last solve."""
        return int(self.ctx[C_NODES])

    @property
    def node_limit(self) -> int:
        """Nodes a solve may visit before it gives up (0: no limit)."""
        return int(self.ctx[C_NODE_LIMIT])

    @node_limit.setter
    def node_limit(self, limit: int) -> None:
        self.ctx[C_NODE_LIMIT] = limit

    @property
    def node_cap(self) -> int:
        """Nodes an exact solve (no node limit) may visit before it gives up, searching as without
        it (0: no cap); for benchmarks that must end."""
        return int(self.ctx[C_NODE_CAP])

    @node_cap.setter
    def node_cap(self, cap: int) -> None:
        self.ctx[C_NODE_CAP] = cap

    @property
    def aborted(self) -> bool:
        """The last solve gave up at the node limit or cap (its values are not to be used)."""
        return bool(self.ctx[C_ABORTED])


# --- the value of a finished deal --------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def _sign(side, pside):
    return 1 if side == pside else -1


@njit(cache=True, _nrt=False)
def game_winner(t0, t1, t2, nsides, dside, tie):
    """Side that scores Game for captured card points t0, t1 (t2 with three sides), or -1.
    A tie goes as ``state.score_game`` rules it: with a tie rule, to the one tied side that is
    not the dealer's, if there is exactly one."""
    best = t0
    w = 0
    tied = 1
    if t1 > best:
        best, w, tied = t1, 1, 1
    elif t1 == best:
        tied += 1
    if nsides == 3:
        if t2 > best:
            best, w, tied = t2, 2, 1
        elif t2 == best:
            tied += 1
    if tied == 1:
        return w
    if tie == 0:
        return -1
    cand = -1
    count = 0
    if t0 == best and dside != 0:
        cand, count = 0, count + 1
    if t1 == best and dside != 1:
        cand, count = 1, count + 1
    if nsides == 3 and t2 == best and dside != 2:
        cand, count = 2, count + 1
    return cand if count == 1 else -1


@njit(cache=True, _nrt=False, inline="always")
def _game_term(t0, t1, t2, ctx):
    w = game_winner(t0, t1, t2, ctx[C_NSIDES], ctx[C_DEALER_SIDE], ctx[C_TIE])
    return 0 if w < 0 else _sign(w, ctx[C_PERSP_SIDE])


@njit(cache=True, _nrt=False, inline="always")
def _jack_term(captor, ctx):
    n = 3 if ctx[C_HANG] != 0 and captor != ctx[C_JACK_SIDE] else 1
    return n * _sign(captor, ctx[C_PERSP_SIDE])


@njit(cache=True, _nrt=False)
def final_value(state, ctx):
    """Net points of the perspective side once every card is played (High, Low, Jack, Game)."""
    v = ctx[C_FIXED]
    if ctx[C_JACK] >= 0:
        v += _jack_term(state[PS_JACK_CAPTOR], ctx)
    t0 = game_points(np.uint64(state[PS_CAPTURED]))
    t1 = game_points(np.uint64(state[PS_CAPTURED + 1]))
    t2 = game_points(np.uint64(state[PS_CAPTURED + 2])) if ctx[C_NSIDES] == 3 else 0
    return v + _game_term(t0, t1, t2, ctx)


@njit(cache=True, _nrt=False, inline="always")
def _out_mask(state):
    """Cards not yet in a completed trick: every hand and the trick being played."""
    out = np.uint64(state[PS_TRICK_MASK])
    for s in range(state[PS_PLAYERS]):
        out |= np.uint64(state[PS_HAND + s])
    return out


@njit(cache=True, _nrt=False)
def bounds(state, ctx):
    """(least, most) the position can be worth to the perspective side, whatever is played:
    every card still out given to one side, then to the other(s)."""
    nsides = ctx[C_NSIDES]
    ps = ctx[C_PERSP_SIDE]
    lo = ctx[C_FIXED]
    hi = lo
    if ctx[C_JACK] >= 0:
        captor = state[PS_JACK_CAPTOR]
        if captor >= 0:
            j = _jack_term(captor, ctx)
            lo += j
            hi += j
        else:
            lo += ctx[C_JACK_LO]
            hi += ctx[C_JACK_HI]
    rest = game_points(_out_mask(state))
    t0 = game_points(np.uint64(state[PS_CAPTURED]))
    t1 = game_points(np.uint64(state[PS_CAPTURED + 1]))
    if nsides == 2:
        if ps == 0:
            hi += _game_term(t0 + rest, t1, 0, ctx)
            lo += _game_term(t0, t1 + rest, 0, ctx)
        else:
            hi += _game_term(t0, t1 + rest, 0, ctx)
            lo += _game_term(t0 + rest, t1, 0, ctx)
        return lo, hi
    t2 = game_points(np.uint64(state[PS_CAPTURED + 2]))
    # Three sides: Game is +1 (the perspective side's), 0 (nobody's) or -1 (another's).
    tp = t0 if ps == 0 else (t1 if ps == 1 else t2)
    sure_win = True
    sure_loss = False
    for o in range(3):
        if o == ps:
            continue
        to = t0 if o == 0 else (t1 if o == 1 else t2)
        if tp <= to + rest:
            sure_win = False
        q = 3 - ps - o
        tq = t0 if q == 0 else (t1 if q == 1 else t2)
        if to > tp + rest and to > tq + rest:
            sure_loss = True
    if sure_win:
        return lo + 1, hi + 1
    if sure_loss:
        return lo - 1, hi - 1
    can_win = game_winner(t0 + (rest if ps == 0 else 0), t1 + (rest if ps == 1 else 0),
                          t2 + (rest if ps == 2 else 0), 3, ctx[C_DEALER_SIDE], ctx[C_TIE]) == ps
    return lo - 1, hi + (1 if can_win else 0)


@njit(cache=True, _nrt=False)
def prepare(state, rules, ctx):
    """Set up `ctx` for positions of `state`'s deal, valued for the side of the seat to move now;
    starts a new table generation."""
    n = state[PS_PLAYERS]
    nsides = 2 if n == 4 else n
    ps = side_of(state[PS_TO_PLAY], n)
    ctx[C_PERSP_SIDE] = ps
    ctx[C_NSIDES] = nsides
    ctx[C_HANG] = 1 if rules[R_HANG_JACK] != 0 else 0
    ctx[C_TIE] = rules[R_GAME_TIE]
    ctx[C_DEALER_SIDE] = side_of(state[PS_DEALER], n)
    fixed = 0
    in_play = np.uint64(state[PS_IN_PLAY])
    jack = state[PS_TRUMP] * 13 + RANK_JACK
    ctx[C_JACK] = -1
    if in_play:
        for which in range(2):
            card = highest_card(in_play) if which == 0 else lowest_card(in_play)
            for s in range(n):
                if np.uint64(state[PS_START + s]) & bit(card):
                    fixed += _sign(side_of(s, n), ps)
        if in_play & bit(jack):
            ctx[C_JACK] = jack
            for s in range(n):
                if np.uint64(state[PS_START + s]) & bit(jack):
                    ctx[C_JACK_SIDE] = side_of(s, n)
    ctx[C_FIXED] = fixed
    jlo = INF
    jhi = -INF
    for c in range(nsides):
        j = _jack_term(c, ctx)
        jlo = min(jlo, j)
        jhi = max(jhi, j)
    ctx[C_JACK_LO] = jlo
    ctx[C_JACK_HI] = jhi
    ctx[C_NODES] = 0
    ctx[C_ABORTED] = 0
    for i in range(52):
        ctx[C_HIST + i] = 0
    for i in range(MAX_PLIES + 1):
        ctx[C_KILLER + i] = -1
        ctx[C_KILLER2 + i] = -1
    ctx[C_GEN] += 1


# --- moves ---------------------------------------------------------------------------------


@njit(cache=True, _nrt=False, inline="always")
def _same_as_next(card, legal_cards, out, jack):
    """The legal card that `card` is equivalent to (the next higher card out in its suit, if
    legal, of the same Game points, neither the jack of trump), or -1."""
    if card == jack:
        return -1
    above = out & suit_mask(card // 13) & cards_above(card)
    if not above:
        return -1
    h = lowest_card(above)
    if h == jack or not (legal_cards & bit(h)) or GAME_VALUE[h % 13] != GAME_VALUE[card % 13]:
        return -1
    return h


@njit(cache=True, _nrt=False)
def representative(card, legal_cards, out, jack):
    """The card searched for `card`: the top of its run of equivalent legal cards."""
    while True:
        h = _same_as_next(card, legal_cards, out, jack)
        if h < 0:
            return card
        card = h


@njit(cache=True, _nrt=False, inline="always")
def beaters_of(best, led, trump):
    """The cards that would take a trick from `best`, the card winning it, `led` the suit led (as
    ``state.beats`` rules: a higher trump; if `best` is no trump, any trump or a higher card of its suit,
    which is the suit led)."""
    tm = suit_mask(trump)
    if best // 13 == trump:
        return tm & cards_above(best)
    return tm | (suit_mask(led) & cards_above(best))


# Exact solves (measured on 9-card deals: docs/solver.md, "The followers' order" and "The leads"): a
# follower first overtakes a partner's card that the other side can beat, with a card they cannot, when
# the trick holds at least OVERTAKE_POINTS card points (the jack of trump counting one more); a lead of a
# side suit that a seat of the other side is void in while holding trumps goes RUFFED_LEAD lower; a card
# at the top of its suit gets no bonus, so the trumps are led first.
OVERTAKE_POINTS = 6
RUFFED_LEAD = 100


@njit(cache=True, _nrt=False)
def order_moves(state, moves, d, first, jack, ctx, exact):
    """The legal cards of the seat to move, one per class of equivalent cards, best-looking first,
    into moves[d]; `first` (a card, or -1) goes first. Returns how many. `exact`: the order measured best
    for exact solves (OVERTAKE_POINTS, RUFFED_LEAD, trumps led first), else the one that limited solves
    (pimc's try at an exact answer within a node budget: where it gives up, and every search player's
    card, stay the same) and the first guess have always used."""
    legal_cards = legal(state)
    out = _out_mask(state)
    seat = state[PS_TO_PLAY]
    n = state[PS_PLAYERS]
    trump = state[PS_TRUMP]
    led = state[PS_LED]
    best_card = state[PS_BEST_CARD]
    mine = side_of(seat, n)
    partner_wins = led >= 0 and side_of(state[PS_BEST_SEAT], n) == mine
    beaters = beaters_of(best_card, led, trump) if led >= 0 else np.uint64(0)  # the cards that `beats` the best
    stands = partner_wins
    save_trick = False
    later = np.uint64(0)
    if partner_wins:
        # Does the partner's card stand? No seat still to play (all of the other side) holds a card that beats
        # it. If not, is the trick worth saving from them (exact solves only: see the docstring)?
        s = seat
        for _ in range(1, n - popcount(np.uint64(state[PS_TRICK_MASK]))):
            s = next_seat(s, n)
            later |= np.uint64(state[PS_HAND + s])
        stands = not (later & beaters)
        if exact and not stands:
            trick = np.uint64(state[PS_TRICK_MASK])
            save_trick = game_points(trick) + (1 if jack >= 0 and (trick & bit(jack)) else 0) >= OVERTAKE_POINTS
    ruffed = np.uint64(0)  # exact solves, leading: the side suits a seat of the other side is void in, holding trumps
    if exact and led < 0:
        tm = suit_mask(trump)
        for o in range(n):
            h = np.uint64(state[PS_HAND + o])
            if side_of(o, n) != mine and (h & tm):
                for su in range(4):
                    if su != trump and not (h & suit_mask(su)):
                        ruffed |= suit_mask(su)
    k = 0
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        if _same_as_next(c, legal_cards, out, jack) >= 0:
            continue
        rank = c % 13
        pts = GAME_VALUE[rank]
        if c == first:
            score = 1000
        elif led < 0:
            # Leading: the lead that last refuted a position at this ply (a "killer": the positions one
            # ply has are much alike), then (limited solves) cards no card out can beat in their suit, the
            # killer before the last one among them (+50), then trumps, then high cards. Exact solves give
            # the top cards no bonus, so every trump goes before every side card (docs/solver.md).
            top = not exact and highest_card(out & suit_mask(c // 13)) == c
            score = 200 + rank + (40 if top else 0) + (20 if c // 13 == trump else 0)
            if ruffed & bit(c):
                score -= RUFFED_LEAD  # a side suit the other side can trump
            if c == ctx[C_KILLER + d]:
                score += 100
            elif c == ctx[C_KILLER2 + d]:
                score += 50
        elif beaters & bit(c):
            if not partner_wins:
                score = 600 + 3 * pts - rank + (30 if c == jack else 0)
            elif save_trick and not (later & beaters_of(c, led, trump)):
                score = 500 + 3 * pts - rank  # the partner's trick saved by a card they cannot beat
            else:
                score = 100 - rank  # overtaking a partner: rarely right
        elif stands:
            score = 400 + 4 * pts + (30 if c == jack else 0) - rank
        else:
            score = 300 - 4 * pts - rank - (30 if c == jack else 0) - (20 if c // 13 == trump else 0)
        key = (score * 16384 + min(ctx[C_HIST + c], 16383)) * 64 + c
        # insertion, highest key first
        j = k
        while j > 0 and moves[d, j - 1] < key:
            moves[d, j] = moves[d, j - 1]
            j -= 1
        moves[d, j] = key
        k += 1
    for i in range(k):
        moves[d, i] &= 63
    return k


# --- the search ----------------------------------------------------------------------------
#
# Two objectives share one search. Mode 0 values a node in net points (`final_value`) and keys
# the table on the history the rest depends on (captured card points, the jack's captor): the
# three-player search. Mode 1 is the two-sided one: a question "is the value at least t?" is
# turned into "can the perspective side capture at least theta card points from here, counting
# the jack of trump as w more?" (`_test`), whose objective adds up trick by trick. Its table
# entries hold bounds on what is still to come, so they depend on nothing but the cards out,
# the seat to lead and w, whatever was captured on the way.


@njit(cache=True, _nrt=False, inline="always")
def _tt_extra(state, ctx):
    """The table key besides the cards out: the seat to lead and what the rest of the deal is
    worth with (mode 0: the jack's captor and the card points of sides 0 and 1), the mode and the
    generation."""
    x = state[PS_TO_PLAY]
    if ctx[C_MODE] == 1:
        # Not w: an entry holds the w it was found with, and serves tests with any other (`_w_shift`).
        x |= 1 << 24
    else:
        x |= (state[PS_JACK_CAPTOR] + 1) << 2
        x |= game_points(np.uint64(state[PS_CAPTURED])) << 4
        x |= game_points(np.uint64(state[PS_CAPTURED + 1])) << 11
    return x | (ctx[C_GEN] << GEN_SHIFT)


LOW_CARDS = np.uint64(sum(0xFF << (13 * s) for s in range(4)))  # the 2s to 9s: no card points


@intrinsic
def _pext_x86(typingctx, src, mask):
    """x86 BMI2 PEXT: the bits of src at the set bits of mask, packed at the bottom."""

    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [ir.IntType(64), ir.IntType(64)])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.x86.bmi.pext.64")
        return builder.call(fn, args)

    return types.uint64(types.uint64, types.uint64), codegen


@intrinsic
def _prefetch_row(typingctx, arr, row):
    """Hint the processor to fetch arr[row, 0]'s cache line (llvm.prefetch): the table is probed a
    little later, after the static bounds, and a probe is usually a cache miss."""

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1], zero])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.none(arr, row), codegen


@njit(cache=True, _nrt=False)
def _pext_fast(src, mask):
    return _pext_x86(np.uint64(src), np.uint64(mask))


@njit(cache=True, _nrt=False)
def _pext_loop(src, mask):
    out = np.uint64(0)
    k = np.uint64(0)
    m = np.uint64(mask)
    while m:
        low = m & (~m + U1)
        if np.uint64(src) & low:
            out |= U1 << k
        k += U1
        m &= m - U1
    return out


pext = _pext_fast if pdep_is_fast() else _pext_loop


@njit(cache=True, _nrt=False, inline="always")
def _mix(h, x):
    h = (h ^ np.uint64(x)) * np.uint64(0x9E3779B97F4A7C15)
    return h ^ (h >> np.uint64(31))


@njit(cache=True, _nrt=False)
def canonical_key(state):
    """A 64-bit hash of the position at a trick boundary up to which 2s-9s are out: each hand's
    cards of ten and above as they are, its low cards by their order among the low cards out."""
    out = np.uint64(0)
    for s in range(state[PS_PLAYERS]):
        out |= np.uint64(state[PS_HAND + s])
    low = out & LOW_CARDS
    h = np.uint64(0x2545F4914F6CDD1D)
    for suit in range(4):
        h = _mix(h, np.uint64(popcount(low & suit_mask(suit))))
    for s in range(state[PS_PLAYERS]):
        hand = np.uint64(state[PS_HAND + s])
        h = _mix(h, hand & ~LOW_CARDS)
        h = _mix(h, pext(hand, low))
    return np.int64(h)


@njit(cache=True, _nrt=False, inline="always")
def _tt_find(tt, idx, out, extra):
    """The slot of the bucket at `idx` (two entries) holding this key, or -1."""
    if tt[idx, 0] == out and tt[idx, 1] == extra:
        return idx
    if tt[idx + 1, 0] == out and tt[idx + 1, 1] == extra:
        return idx + 1
    return -1


@njit(cache=True, _nrt=False, inline="always")
def _tt_index(out, extra, ctx):
    h = np.uint64(out) * np.uint64(0x9E3779B97F4A7C15) ^ np.uint64(extra) * np.uint64(0xC2B2AE3D27D4EB4F)
    h ^= h >> np.uint64(29)
    return np.int64(h & np.uint64(ctx[C_TT_MASK]))


# A frame of the explicit search stack (int64 row per ply, `frames`).
F_ALPHA = 0      # the window as narrowed by the node's bounds (what the table entry is judged against)
F_BETA = 1
F_A = 2          # the window as the children have narrowed it
F_B = 3
F_BEST = 4
F_BEST_MOVE = 5
F_COUNT = 6      # moves in moves[d]
F_NEXT = 7       # index of the next move to try
F_MAX = 8        # 1: the perspective side moves (maximises)
F_IDX = 9        # table slot, -1 mid-trick (nothing stored)
F_OUT = 10       # table key: the cards out
F_EXTRA = 11     # table key: the rest
F_LO = 12        # the node's lower and upper bounds (static and table)
F_HI = 13
F_ACC = 14       # mode 1: the objective gained between the search's root and this node
F_SIZE = 15      # cards out (how big the subtree is, for the table's replacement)
F_DONE = 16      # mode 1: the cards searched (or passed over as near-equivalent) at this node, a mask
F_VALS = 17      # mode 1: + card, for each of those, a bound on its value (upper if maximising, else lower)
N_FRAME = F_VALS + 52

TT_OFFSET = 2048  # table bounds are packed in 12 bits each
# An entry's last word: the cards out (the subtree's size) and the w its bounds were found with.
SIZE_MASK = 255
W_SHIFT = 8
W_OFFSET = 1024
SIZE_W_DEPENDS = 256  # in a frame's F_SIZE: the jack is still to be captured, so the value depends on w


@njit(cache=True, _nrt=False, inline="always")
def _w_shift(word, w):
    """How far bounds found with the entry's w move for this w while the jack is still to be captured:
    the value never falls as w grows (the jack adds w once, if at all), and grows by at most the
    difference; so (lower, upper) change by (min(0, dw), max(0, dw))."""
    dw = w - ((word >> W_SHIFT) - W_OFFSET)
    return min(0, dw), max(0, dw)


@njit(cache=True, _nrt=False, inline="always")
def _entry_bounds(tt, slot, pending, w):
    """The (lower, upper) bounds a table entry holds on what is still to come, moved for this w while
    the jack is still to be captured (`pending`)."""
    packed = tt[slot, 2]
    lo = (packed & 4095) - TT_OFFSET
    hi = ((packed >> 12) & 4095) - TT_OFFSET
    if pending:
        dlo, dhi = _w_shift(tt[slot, 3], w)
        lo += dlo
        hi += dhi
    return lo, hi


POINT_RANKS_CHEAPEST_FIRST = np.array([9, 10, 11, 12, 8], dtype=np.int64)  # J, Q, K, A, T


@njit(cache=True, _nrt=False, inline="always")
def _cheapest(cards, suit, k):
    """Game points of the `k` cheapest of `cards` (all of `suit`), or of all of them if fewer."""
    if k <= 0:
        return 0
    k -= popcount(cards & LOW_CARDS)  # the 2s-9s are worth nothing
    total = 0
    for r in POINT_RANKS_CHEAPEST_FIRST:
        if k <= 0:
            break
        if cards & bit(suit * 13 + r):
            total += GAME_VALUE[r]
            k -= 1
    return total


@njit(cache=True, _nrt=False, inline="always")
def _node_bounds(state, ctx, acc):
    if ctx[C_MODE] == 0:
        return bounds(state, ctx)
    # Mode 1: the perspective side takes none or all of the card points still out, the jack's w
    # counted if it is still to be captured.
    # A trump of one side above every trump of the other side still out (hands and trick, by
    # who holds or played it) wins the trick it is in: its card points are that side's.
    n = state[PS_PLAYERS]
    ps = ctx[C_PERSP_SIDE]
    mine = np.uint64(0)
    theirs = np.uint64(0)
    for s in range(n):
        h = np.uint64(state[PS_HAND + s])
        c = state[PS_TRICK_CARD + s]
        if c >= 0:
            h |= bit(c)
        if side_of(s, n) == ps:
            mine |= h
        else:
            theirs |= h
    out = mine | theirs
    tm = suit_mask(state[PS_TRUMP])
    sure_mine = np.uint64(0)
    sure_theirs = np.uint64(0)
    if mine & tm:
        if theirs & tm:
            top = highest_card(theirs & tm)
            sure_mine = mine & tm & cards_above(top)
            top = highest_card(mine & tm)
            sure_theirs = theirs & tm & cards_above(top)
        else:
            sure_mine = mine & tm
    else:
        sure_theirs = theirs & tm
    rest = game_points(out)
    lo = acc + game_points(sure_mine)
    hi = acc + rest - game_points(sure_theirs)
    # The leader's side may draw trumps and cash: the leader's trumps above every other trump out
    # win a trick each and keep the lead, and every other seat holding trump must play one to each;
    # if that leaves the other side without trumps, every trump of the leader's side wins its trick
    # whenever played, and the leader's cards at the top of a plain suit win one after another. Each
    # seat of the other side gives up at least its cheapest cards of each suit, as many as the leader
    # leads of it (or all it has: what it has run out of went to those tricks already).
    jack = ctx[C_JACK]
    jack_out = jack >= 0 and (out & bit(jack)) != 0
    leader = state[PS_TO_PLAY]
    lside = side_of(leader, n)
    lead_hand = np.uint64(state[PS_HAND + leader])
    trump = state[PS_TRUMP]
    run = 0
    if lead_hand & tm:
        above = out & tm & ~lead_hand
        run = popcount(lead_hand & tm & cards_above(highest_card(above))) if above else popcount(lead_hand & tm)
    drawn = True
    forced_jack = False
    forced = 0
    for o in range(n):
        ts = np.uint64(state[PS_HAND + o]) & tm
        if side_of(o, n) != lside and ts:
            if popcount(ts) > run:
                drawn = False
            elif jack_out and ts & bit(jack):
                forced_jack = True
            forced += _cheapest(ts, trump, run)
    if drawn:
        side_x = mine if lside == ps else theirs
        forced += game_points(side_x & tm & ~(sure_mine if lside == ps else sure_theirs))
        forced_jack = jack_out
        # A partner left with trumps could have to trump a top card (without the led suit, holding only
        # trumps or under void_play = trump) and take the lead: only cash when the drawing took them all.
        cash = True
        for o in range(n):
            if o != leader and side_of(o, n) == lside and popcount(np.uint64(state[PS_HAND + o]) & tm) > run:
                cash = False
        for suit in range(4):
            if suit == trump or not cash:
                continue
            k = 0
            m = out & suit_mask(suit)
            while m and (lead_hand & bit(highest_card(m))):
                top = highest_card(m)
                forced += GAME_VALUE[top % 13]
                m &= ~bit(top)
                k += 1
            if k > 0:
                for o in range(n):
                    if side_of(o, n) != lside:
                        forced += _cheapest(np.uint64(state[PS_HAND + o]) & suit_mask(suit), suit, k)
    w = ctx[C_W]
    jack_lo = 0
    jack_hi = 0
    if jack_out:
        jb = bit(jack)
        if sure_mine & jb:
            jack_lo, jack_hi = w, w
        elif not (sure_theirs & jb):
            jack_lo, jack_hi = min(0, w), max(0, w)
    # Drawing trumps is the leader's side's choice: it bounds the position on that side's behalf only.
    if lside == ps:
        return max(lo + jack_lo, lo + forced + (w if forced_jack else jack_lo)), hi + jack_hi
    return lo + jack_lo, min(hi + jack_hi, hi - forced + (0 if forced_jack else jack_hi))


@njit(cache=True, _nrt=False, inline="always")
def _last_trick(state, ctx, acc):
    """Mode 1, one card in every hand: the last trick plays itself (a lone card is always legal)."""
    n = state[PS_PLAYERS]
    leader = state[PS_TO_PLAY]
    trump = state[PS_TRUMP]
    best_card = lowest_card(np.uint64(state[PS_HAND + leader]))
    best_seat = leader
    led = best_card // 13
    trick = bit(best_card)
    for k in range(1, n):
        s = (leader + k) % n
        c = lowest_card(np.uint64(state[PS_HAND + s]))
        trick |= bit(c)
        if beats(c, best_card, led, trump):
            best_card, best_seat = c, s
    if side_of(best_seat, n) != ctx[C_PERSP_SIDE]:
        return np.int64(acc)
    jack = ctx[C_JACK]
    bonus = ctx[C_W] if jack >= 0 and trick & bit(jack) else 0
    return np.int64(acc + game_points(trick) + bonus)


@njit(cache=True, _nrt=False, inline="always")
def _worth(cards, jack, w):
    """Mode 1: what capturing `cards` is worth, their Game points and the jack of trump's w."""
    return game_points(cards) + (w if jack >= 0 and (cards & bit(jack)) else 0)


@njit(cache=True, _nrt=False, inline="always")
def _ending_hands(h0, h1, h2, h3, mine, trump, forbid, void_trump, jack, w, acc, alpha, beta):
    """Mode 1, four players with two cards each at a trick boundary, h0 the leader's hand and h1-h3 the next
    seats' (`mine`: the leader's side is the perspective side): the value, fail-soft in the window
    (alpha, beta), without the table: alpha-beta over the first trick's lines of play (at most 16, each
    seat's legal cards in turn), the last trick playing itself (the first trick's winner leads its lone
    card). The search calls it for exact solves only (no node limit); there it measured faster than the
    table's probe and the node-by-node search (docs/solver.md).

    It counts u, the points the two tricks bring the leader's side (seats 0 and 2 of the trick), which
    that side maximises: the perspective side's value is acc + u when it leads, else acc + total - u
    (total, what both tricks are worth together, is the same on every line)."""
    total = _worth(h0 | h1 | h2 | h3, jack, w)
    if w >= 0 or jack < 0 or not ((h0 | h1 | h2 | h3) & bit(jack)):
        # Nothing is worth less than nothing: the value lies between acc (the perspective side takes no trick
        # of value) and acc + total (it takes all).
        if acc >= beta or total == 0:
            return np.int64(acc)
        if acc + total <= alpha:
            return np.int64(acc + total)
    # The window in u: v = acc + u (mine), v = acc + total - u (theirs).
    a0 = alpha - acc if mine else acc + total - beta
    b0 = beta - acc if mine else acc + total - alpha
    best0 = -INF
    m0 = h0
    while m0:
        c0 = lowest_card(m0)
        m0 &= m0 - U1
        led = c0 // 13
        top0 = c0 if led == trump else -1
        a1 = max(a0, best0)
        best1 = INF
        m1 = legal_mask(h1, led, trump, top0, forbid, void_trump)
        take1 = beaters_of(c0, led, trump)  # tried first: the cards that take the trick
        while m1:
            c1 = lowest_card(m1 & take1) if m1 & take1 else lowest_card(m1)
            m1 &= ~bit(c1)
            best_card1, win1 = c0, 0
            if beats(c1, c0, led, trump):
                best_card1, win1 = c1, 1
            top1 = c1 if c1 // 13 == trump and c1 > top0 else top0
            b2 = min(b0, best1)
            best2 = -INF
            m2 = legal_mask(h2, led, trump, top1, forbid, void_trump)
            take2 = beaters_of(best_card1, led, trump) if win1 == 1 else ~beaters_of(best_card1, led, trump)
            while m2:
                c2 = lowest_card(m2 & take2) if m2 & take2 else lowest_card(m2)
                m2 &= ~bit(c2)
                best_card2, win2 = best_card1, win1
                if beats(c2, best_card1, led, trump):
                    best_card2, win2 = c2, 2
                top2 = c2 if c2 // 13 == trump and c2 > top1 else top1
                a3 = max(a1, best2)
                best3 = INF
                m3 = legal_mask(h3, led, trump, top2, forbid, void_trump)
                take3 = beaters_of(best_card2, led, trump) if win2 != 1 else ~beaters_of(best_card2, led, trump)
                while m3:
                    c3 = lowest_card(m3 & take3) if m3 & take3 else lowest_card(m3)
                    m3 &= ~bit(c3)
                    win = 3 if beats(c3, best_card2, led, trump) else win2
                    trick = bit(c0) | bit(c1) | bit(c2) | bit(c3)
                    rest = (h0 & ~bit(c0), h1 & ~bit(c1), h2 & ~bit(c2), h3 & ~bit(c3))  # one card each
                    last_best = lowest_card(rest[win])
                    last_win = win
                    last_led = last_best // 13
                    for k in range(1, 4):
                        c = lowest_card(rest[(win + k) & 3])
                        if beats(c, last_best, last_led, trump):
                            last_best, last_win = c, (win + k) & 3
                    u = 0
                    if (win & 1) == 0:
                        u += _worth(trick, jack, w)
                    if (last_win & 1) == 0:
                        u += total - _worth(trick, jack, w)
                    if u < best3:
                        best3 = u
                    if best3 <= a3:
                        break
                if best3 > best2:
                    best2 = best3
                if best2 >= b2:
                    break
            if best2 < best1:
                best1 = best2
            if best1 <= a1:
                break
        if best1 > best0:
            best0 = best1
        if best0 >= b0:
            break
    return np.int64(acc + best0) if mine else np.int64(acc + total - best0)

@njit(cache=True, _nrt=False)
def _ending4(state, ctx, acc, alpha, beta):
    """`_ending_hands` on the position states[d] (mode 1, four players with two cards each, a trick boundary)."""
    leader = state[PS_TO_PLAY]
    return _ending_hands(np.uint64(state[PS_HAND + leader]), np.uint64(state[PS_HAND + ((leader + 1) & 3)]),
                         np.uint64(state[PS_HAND + ((leader + 2) & 3)]), np.uint64(state[PS_HAND + ((leader + 3) & 3)]),
                         (leader & 1) == ctx[C_PERSP_SIDE], state[PS_TRUMP], state[PS_FORBID] != 0,
                         state[PS_VOID_TRUMP] != 0, ctx[C_JACK], ctx[C_W], acc, alpha, beta)

@njit(cache=True, _nrt=False)
def _ending3(state, ctx, acc, alpha, beta, first):
    """Mode 1, four players with three cards each at a trick boundary: (value, best lead), the value fail-soft
    in the window (alpha, beta), by alpha-beta over the first trick's lines (the lead `first` first, if it is
    one, then the trumps; each follower's winners first unless its partner is winning, as in `_ending_hands`;
    equal cards once) with the two-card ending after each (`_ending_hands`). Exact solves only, as `_ending4`
    (measured faster than the node-by-node search of this trick: docs/solver.md). In u the leader's side
    maximises (u = v or -v)."""
    leader = state[PS_TO_PLAY]
    trump = state[PS_TRUMP]
    forbid = state[PS_FORBID] != 0
    void_trump = state[PS_VOID_TRUMP] != 0
    jack = ctx[C_JACK]
    w = ctx[C_W]
    ps = ctx[C_PERSP_SIDE]
    h0 = np.uint64(state[PS_HAND + leader])
    h1 = np.uint64(state[PS_HAND + ((leader + 1) & 3)])
    h2 = np.uint64(state[PS_HAND + ((leader + 2) & 3)])
    h3 = np.uint64(state[PS_HAND + ((leader + 3) & 3)])
    out = h0 | h1 | h2 | h3
    mine = (leader & 1) == ps
    a0 = alpha if mine else -beta
    b0 = beta if mine else -alpha
    best0 = -INF
    best_lead = -1
    take0 = bit(first) if first >= 0 else np.uint64(0)
    m0 = h0
    tm0 = suit_mask(trump)
    while m0:
        if m0 & take0:
            c0 = lowest_card(m0 & take0)
        elif m0 & tm0:
            c0 = lowest_card(m0 & tm0)  # then the trumps, as the search leads them (`order_moves`)
        else:
            c0 = lowest_card(m0)
        m0 &= ~bit(c0)
        if _same_as_next(c0, h0, out, jack) >= 0:
            continue
        led = c0 // 13
        top0 = c0 if led == trump else -1
        a1 = max(a0, best0)
        best1 = INF
        legal1 = legal_mask(h1, led, trump, top0, forbid, void_trump)
        take1 = beaters_of(c0, led, trump)
        m1 = legal1
        while m1:
            c1 = lowest_card(m1 & take1) if m1 & take1 else lowest_card(m1)
            m1 &= ~bit(c1)
            if _same_as_next(c1, legal1, out, jack) >= 0:
                continue
            best_card1, win1 = c0, 0
            if beats(c1, c0, led, trump):
                best_card1, win1 = c1, 1
            top1 = c1 if c1 // 13 == trump and c1 > top0 else top0
            b2 = min(b0, best1)
            best2 = -INF
            legal2 = legal_mask(h2, led, trump, top1, forbid, void_trump)
            take2 = beaters_of(best_card1, led, trump) if win1 == 1 else ~beaters_of(best_card1, led, trump)
            m2 = legal2
            while m2:
                c2 = lowest_card(m2 & take2) if m2 & take2 else lowest_card(m2)
                m2 &= ~bit(c2)
                if _same_as_next(c2, legal2, out, jack) >= 0:
                    continue
                best_card2, win2 = best_card1, win1
                if beats(c2, best_card1, led, trump):
                    best_card2, win2 = c2, 2
                top2 = c2 if c2 // 13 == trump and c2 > top1 else top1
                a3 = max(a1, best2)
                best3 = INF
                legal3 = legal_mask(h3, led, trump, top2, forbid, void_trump)
                take3 = beaters_of(best_card2, led, trump) if win2 != 1 else ~beaters_of(best_card2, led, trump)
                m3 = legal3
                while m3:
                    c3 = lowest_card(m3 & take3) if m3 & take3 else lowest_card(m3)
                    m3 &= ~bit(c3)
                    if _same_as_next(c3, legal3, out, jack) >= 0:
                        continue
                    win = 3 if beats(c3, best_card2, led, trump) else win2
                    trick = bit(c0) | bit(c1) | bit(c2) | bit(c3)
                    gain = _worth(trick, jack, w) if ((leader + win) & 1) == ps else 0
                    rest = (h0 & ~bit(c0), h1 & ~bit(c1), h2 & ~bit(c2), h3 & ~bit(c3))
                    # The two-card ending, its leader the trick's winner; its window in v.
                    ub = min(b2, best3)
                    v = _ending_hands(rest[win], rest[(win + 1) & 3], rest[(win + 2) & 3], rest[(win + 3) & 3],
                                      ((leader + win) & 1) == ps, trump, forbid, void_trump, jack, w, acc + gain,
                                      a3 if mine else -ub, ub if mine else -a3)
                    u = v if mine else -v
                    if u < best3:
                        best3 = u
                    if best3 <= a3:
                        break
                if best3 > best2:
                    best2 = best3
                if best2 >= b2:
                    break
            if best2 < best1:
                best1 = best2
            if best1 <= a1:
                break
        if best1 > best0:
            best0 = best1
            best_lead = c0
        if best0 >= b0:
            break
    return (np.int64(best0) if mine else np.int64(-best0)), best_lead

@njit(cache=True, _nrt=False, inline="always")
def _enter(states, moves, frames, tt, ctx, d, alpha, beta):
    """Open the node states[d] with the window (alpha, beta): (value, True) when it is settled
    at once (end of the deal, bounds, the table), else (0, False) with its frame and moves set."""
    state = states[d]
    ctx[C_NODES] += 1
    acc = frames[d, F_ACC]
    if state[PS_TRICK_NO] >= state[PS_N_TRICKS]:
        return (np.int64(acc) if ctx[C_MODE] == 1 else np.int64(final_value(state, ctx))), True
    if ctx[C_MODE] == 1 and state[PS_LED] < 0:
        held = popcount(np.uint64(state[PS_HAND + state[PS_TO_PLAY]]))
        if held == 1:
            return _last_trick(state, ctx, acc), True
        if held == 2 and state[PS_PLAYERS] == 4 and ctx[C_NODE_LIMIT] == 0:
            # Only without a node limit: a limited solve (pimc's try at an exact answer) keeps the nodes it
            # always had, so where it gives up, and every answer the search players gave, stay the same.
            return _ending4(state, ctx, acc, alpha, beta), True
    first = -1
    idx = -1
    if state[PS_LED] < 0:
        out = canonical_key(state)
        extra = _tt_extra(state, ctx)
        idx = _tt_index(out, extra, ctx) & ~1
        _prefetch_row(tt, idx)
        lo, hi = _node_bounds(state, ctx, acc)
        if lo >= beta or lo == hi:
            return np.int64(lo), True
        if hi <= alpha:
            return np.int64(hi), True
        frames[d, F_OUT] = out
        frames[d, F_EXTRA] = extra
        pending = ctx[C_MODE] == 1 and ctx[C_JACK] >= 0 and state[PS_JACK_CAPTOR] < 0
        frames[d, F_SIZE] = popcount(_out_mask(state)) | (SIZE_W_DEPENDS if pending else 0)
        slot = _tt_find(tt, idx, out, extra)
        if slot >= 0:
            tlo, thi = _entry_bounds(tt, slot, pending, ctx[C_W])
            tlo += acc
            thi += acc
            first = ((tt[slot, 2] >> 24) & 63) - 1
            if tlo > lo:
                lo = tlo
            if thi < hi:
                hi = thi
            if lo >= beta or lo == hi:
                return np.int64(lo), True
            if hi <= alpha:
                return np.int64(hi), True
    else:
        lo, hi = np.int64(-INF), np.int64(INF)
    if lo > alpha:
        alpha = lo
    if hi < beta:
        beta = hi
    if (idx >= 0 and ctx[C_MODE] == 1 and state[PS_PLAYERS] == 4 and ctx[C_NODE_LIMIT] == 0
            and popcount(np.uint64(state[PS_HAND + state[PS_TO_PLAY]])) == 3):
        # Three cards each: the last three tricks by `_ending3`, stored in the table as a searched node's.
        v, lead = _ending3(state, ctx, acc, alpha, beta, first)
        frames[d, F_ALPHA] = alpha
        frames[d, F_BETA] = beta
        frames[d, F_BEST] = v
        frames[d, F_BEST_MOVE] = lead
        frames[d, F_IDX] = idx
        frames[d, F_LO] = lo
        frames[d, F_HI] = hi
        return _leave(frames, tt, d, ctx), True
    maximise = side_of(state[PS_TO_PLAY], state[PS_PLAYERS]) == ctx[C_PERSP_SIDE]
    frames[d, F_ALPHA] = alpha
    frames[d, F_BETA] = beta
    frames[d, F_A] = alpha
    frames[d, F_B] = beta
    frames[d, F_BEST] = -INF if maximise else INF
    frames[d, F_BEST_MOVE] = -1
    frames[d, F_COUNT] = order_moves(state, moves, d, first, ctx[C_JACK], ctx, ctx[C_NODE_LIMIT] == 0)
    frames[d, F_NEXT] = 0
    frames[d, F_MAX] = 1 if maximise else 0
    frames[d, F_IDX] = idx
    frames[d, F_LO] = lo
    frames[d, F_HI] = hi
    frames[d, F_DONE] = 0
    return np.int64(0), False


@njit(cache=True, _nrt=False, inline="always")
def _near_u(x, p, u, out, jack, up):
    """A bound on the value (mode 1) of playing card x from card p of the same hand, worth u (an upper
    bound if `up`, else a lower one; -1 for p: none), when nothing of `out` lies between them in their
    suit and neither is the jack of trump: the positions after them are the same but for which of the two
    cards is captured in which trick, so their values differ by at most the difference of their Game
    points. INF (or -INF) when there is none."""
    none = np.int64(INF) if up else np.int64(-INF)
    if p < 0 or x == jack or p == jack or x // 13 != p // 13:
        return none
    lo = min(x, p)
    hi = max(x, p)
    if out & cards_above(lo) & ~cards_above(hi) & ~bit(hi):
        return none
    gap = abs(GAME_VALUE[x % 13] - GAME_VALUE[p % 13])
    return np.int64(u + gap) if up else np.int64(u - gap)


@njit(cache=True, _nrt=False, inline="always")
def _near_bound(state, frames, d, card, jack):
    """Mode 1: a bound on the value of playing `card` at node d (`_near_u`) from the next card out above or
    below it in its suit, if the mover holds it and it was searched (or passed over) there: upper if the
    node maximises, lower if not; INF (or -INF) when there is none."""
    maximise = frames[d, F_MAX] == 1
    none = np.int64(INF) if maximise else np.int64(-INF)
    done = np.uint64(frames[d, F_DONE])
    if card == jack or not done:
        return none
    out = _out_mask(state)
    suit_out = out & suit_mask(card // 13)
    best = none
    above = suit_out & cards_above(card)
    if above:
        h = lowest_card(above)
        if done & bit(h):
            best = _near_u(card, h, frames[d, F_VALS + h], out, jack, maximise)
    below = suit_out & ~cards_above(card) & ~bit(card)
    if below:
        h = highest_card(below)
        if done & bit(h):
            b = _near_u(card, h, frames[d, F_VALS + h], out, jack, maximise)
            if (maximise and b < best) or (not maximise and b > best):
                best = b
    return best


@njit(cache=True, _nrt=False, inline="always")
def _child_done(states, frames, moves, d, v, ctx):
    """A child of node d is worth v: update the node; True when it is finished (a cut-off or
    no move left). In mode 1 the moves next in line that a searched card of the same hand bounds
    (`_near_bound`) out of the window are passed over, their bounds counted in the node's value."""
    card = moves[d, frames[d, F_NEXT] - 1]
    if frames[d, F_MAX]:
        if v > frames[d, F_BEST]:
            frames[d, F_BEST] = v
            frames[d, F_BEST_MOVE] = card
            if v > frames[d, F_A]:
                frames[d, F_A] = v
    else:
        if v < frames[d, F_BEST]:
            frames[d, F_BEST] = v
            frames[d, F_BEST_MOVE] = card
            if v < frames[d, F_B]:
                frames[d, F_B] = v
    if frames[d, F_A] >= frames[d, F_B]:
        ctx[C_HIST + card] += MAX_PLIES - d  # a cut-off near the root counts more
        if frames[d, F_IDX] >= 0 and ctx[C_KILLER + d] != card:
            ctx[C_KILLER2 + d] = ctx[C_KILLER + d]
            ctx[C_KILLER + d] = card
        return True
    if ctx[C_MODE] == 1 and ctx[C_NODE_LIMIT] == 0:
        # Exact solves only (a limited solve keeps its nodes, as for `_ending4`). v bounds the card's
        # value the way the node needs (no cut-off: above alpha only if exact).
        frames[d, F_VALS + card] = v
        frames[d, F_DONE] |= np.int64(bit(card))
        jack = ctx[C_JACK]
        while frames[d, F_NEXT] < frames[d, F_COUNT]:
            nxt = moves[d, frames[d, F_NEXT]]
            b = _near_bound(states[d], frames, d, nxt, jack)
            if frames[d, F_MAX]:
                if b > frames[d, F_A]:
                    break
                if b > frames[d, F_BEST]:
                    frames[d, F_BEST] = b
            else:
                if b < frames[d, F_B]:
                    break
                if b < frames[d, F_BEST]:
                    frames[d, F_BEST] = b
            frames[d, F_VALS + nxt] = b
            frames[d, F_DONE] |= np.int64(bit(nxt))
            frames[d, F_NEXT] += 1
    return frames[d, F_NEXT] >= frames[d, F_COUNT]


@njit(cache=True, _nrt=False, inline="always")
def _leave(frames, tt, d, ctx):
    """Node d is finished: store what it learnt at a trick boundary (as bounds on what is still
    to come); its value (fail-soft)."""
    best = frames[d, F_BEST]
    idx = frames[d, F_IDX]
    if idx >= 0:
        # At or below alpha the result is an upper bound, at or above beta a lower one.
        if best <= frames[d, F_ALPHA]:
            lo, hi = frames[d, F_LO], best
        elif best >= frames[d, F_BETA]:
            lo, hi = best, frames[d, F_HI]
        else:
            lo, hi = best, best
        acc = frames[d, F_ACC]
        lo -= acc
        hi -= acc
        out = frames[d, F_OUT]
        extra = frames[d, F_EXTRA]
        size = frames[d, F_SIZE] & SIZE_MASK
        w = ctx[C_W] if ctx[C_MODE] == 1 else 0
        slot = _tt_find(tt, idx, out, extra)
        if slot >= 0:
            olo, ohi = _entry_bounds(tt, slot, (frames[d, F_SIZE] & SIZE_W_DEPENDS) != 0, w)
            if olo > lo:
                lo = olo
            if ohi < hi:
                hi = ohi
        elif (tt[idx, 1] >> GEN_SHIFT) != (extra >> GEN_SHIFT) or size >= (tt[idx, 3] & SIZE_MASK):
            # The bucket's first entry is kept for the bigger subtree (or this search): the one it
            # holds now moves to the second, which always takes what comes.
            for k in range(TT_WORDS):
                tt[idx + 1, k] = tt[idx, k]
            slot = idx
        else:
            slot = idx + 1
        tt[slot, 0] = out
        tt[slot, 1] = extra
        tt[slot, 2] = (lo + TT_OFFSET) | ((hi + TT_OFFSET) << 12) | ((frames[d, F_BEST_MOVE] + 1) << 24)
        tt[slot, 3] = size | ((w + W_OFFSET) << W_SHIFT)
    return best


@njit(cache=True, _nrt=False)
def search(states, moves, frames, tt, ctx, root, alpha, beta):
    """Fail-soft alpha-beta on states[root] with the window (alpha, beta), in the objective of
    ctx's mode, for the perspective side (it maximises, every other side minimises), on an
    explicit stack: plies root, root+1, ... of `states`, `moves` and `frames` are its scratch.
    In mode 1 the value counts from 0 at the root."""
    d = root
    a = np.int64(alpha)
    b = np.int64(beta)
    frames[d, F_ACC] = 0
    mode = ctx[C_MODE]
    ps = ctx[C_PERSP_SIDE]
    jack_bit = bit(ctx[C_JACK]) if ctx[C_JACK] >= 0 else np.uint64(0)
    limit = ctx[C_NODE_LIMIT]
    if limit == 0:
        limit = ctx[C_NODE_CAP]  # stops the exact search where it stands; its moves stay the exact search's
    while True:
        if (limit > 0 and ctx[C_NODES] >= limit) or (ctx[C_NODES] % STOP_EVERY == 0 and ctx[C_STOP] != 0):
            # Out of budget (or told to stop): drop the whole stack. Nothing below the root is stored (only `_leave`
            # stores, and only for nodes whose children were all searched), so the table keeps
            # nothing but bounds that were proved.
            ctx[C_ABORTED] = 1
            return np.int64(0)
        v, settled = _enter(states, moves, frames, tt, ctx, d, a, b)
        if settled:
            # Hand the value up until a node has another move to try.
            while True:
                if d == root:
                    return v
                d -= 1
                if not _child_done(states, frames, moves, d, v, ctx):
                    break
                v = _leave(frames, tt, d, ctx)
        # Node d tries its next move.
        i = frames[d, F_NEXT]
        frames[d, F_NEXT] = i + 1
        card = moves[d, i]
        parent = states[d]
        child = states[d + 1]
        trick = np.uint64(parent[PS_TRICK_MASK]) | bit(card)
        copy_play(child, parent)  # the words play needs: the seats' knowledge is not read here
        winner = apply_open(child, card)
        acc = frames[d, F_ACC]
        if mode == 1 and winner >= 0 and side_of(winner, parent[PS_PLAYERS]) == ps:
            acc += game_points(trick)
            if trick & jack_bit:
                acc += ctx[C_W]
        frames[d + 1, F_ACC] = acc
        a = frames[d, F_A]
        b = frames[d, F_B]
        d += 1


@njit(cache=True, _nrt=False)
def mtdf(states, moves, frames, tt, ctx, d, guess):
    """Mode 0: the exact value of states[d] by null-window searches (MTD(f)), from `guess`."""
    ctx[C_MODE] = 0
    lo = np.int64(-INF)
    hi = np.int64(INF)
    ctx[C_RANGE_LO], ctx[C_RANGE_HI] = bounds(states[d], ctx)
    g = np.int64(guess)
    while lo < hi:
        beta = g + 1 if g == lo else g
        g = search(states, moves, frames, tt, ctx, d, beta - 1, beta)
        if ctx[C_ABORTED]:
            return np.int64(0)
        if g < beta:
            hi = g
            ctx[C_RANGE_HI] = min(ctx[C_RANGE_HI], g)
        else:
            lo = g
            ctx[C_RANGE_LO] = max(ctx[C_RANGE_LO], g)
    return g


@njit(cache=True, _nrt=False)
def _points_needed(need, ca, cb, rest, ctx):
    """Two sides: the fewest of the `rest` card points still out the perspective side must
    capture for a Game term of at least `need` (it has `ca` captured, the other side `cb`);
    -1 if no share is enough."""
    ps = ctx[C_PERSP_SIDE]
    for f in range(rest + 1):
        a = ca + f
        b = cb + rest - f
        g = _game_term(a, b, 0, ctx) if ps == 0 else _game_term(b, a, 0, ctx)
        if g >= need:
            return f
    return -1


@njit(cache=True, _nrt=False)
def value_at_least(states, moves, frames, tt, ctx, d, t):
    """Two sides: is the value of states[d] (net points, the perspective side's) at least t?
    One null-window search of mode 1."""
    state = states[d]
    ps = ctx[C_PERSP_SIDE]
    ca = game_points(np.uint64(state[PS_CAPTURED + ps]))
    cb = game_points(np.uint64(state[PS_CAPTURED + 1 - ps]))
    rest = game_points(_out_mask(state))
    base = t - ctx[C_FIXED]
    jack = ctx[C_JACK]
    captor = state[PS_JACK_CAPTOR]
    if jack < 0 or captor >= 0:
        x = _points_needed(base - (_jack_term(captor, ctx) if jack >= 0 else 0), ca, cb, rest, ctx)
        if x <= 0:
            return x == 0
        w = 0
        theta = x
    else:
        # The jack still to be captured: the points needed if this side takes it (xa) or the
        # other does (xb); w makes one count of points say both.
        xa = _points_needed(base - _jack_term(ps, ctx), ca, cb, rest, ctx)
        xb = _points_needed(base - _jack_term(1 - ps, ctx), ca, cb, rest, ctx)
        big = rest + 1
        if xa < 0 and xb < 0:
            return False
        if xa == 0 and xb == 0:
            return True
        if xa < 0:
            w, theta = -big, xb
        elif xb < 0:
            w, theta = big, xa + big
        else:
            w, theta = xb - xa, xb
    ctx[C_MODE] = 1
    ctx[C_W] = w
    return search(states, moves, frames, tt, ctx, d, theta - 1, theta) >= theta


@njit(cache=True, _nrt=False)
def playout_guess(states, moves, ctx, d):
    """A first guess at the value of states[d]: the deal played out by every seat taking the card
    `order_moves` puts first (the last ply of `states` and `moves` is the scratch)."""
    k = states.shape[0] - 1
    st = states[k]
    copy_play(st, states[d])
    while st[PS_TRICK_NO] < st[PS_N_TRICKS]:
        order_moves(st, moves, k, -1, ctx[C_JACK], ctx, False)
        apply_open(st, moves[k, 0])
    return final_value(st, ctx)


@njit(cache=True, _nrt=False)
def value_of(states, moves, frames, tt, ctx, d, guess):
    """The exact value of states[d] for the perspective side: with two sides by tests of
    `value_at_least` (the first just below `guess`, then climbing), with three by `mtdf`."""
    if ctx[C_NSIDES] == 3:
        return mtdf(states, moves, frames, tt, ctx, d, guess)
    ctx[C_MODE] = 0
    lo, hi = bounds(states[d], ctx)
    ctx[C_RANGE_LO] = lo
    ctx[C_RANGE_HI] = hi
    # Tests that fail (the value is below t) are the costly ones, and only the one at the value + 1 is
    # needed: start just below the guess and climb; after a failure drop by two and climb again.
    t = min(max(guess - 1, lo + 1), hi)
    while lo < hi:
        ok = value_at_least(states, moves, frames, tt, ctx, d, t)
        if ctx[C_ABORTED]:
            ctx[C_MODE] = 0
            return np.int64(0)
        if ok:
            lo = t
            t = t + 1
        else:
            hi = t - 1
            t = t - 2
        ctx[C_RANGE_LO] = lo
        ctx[C_RANGE_HI] = hi
        ctx[C_MODE] = 0
        t = min(max(t, lo + 1), hi)
    return lo


@njit(cache=True, _nrt=False, inline="always")
def table_rows(state, size):
    """Rows of a table of `size` a search of `state` uses (a small one stays in the processor's cache):
    2**(2 + cards out / 2), at most all of them."""
    bits = 2 + popcount(_out_mask(state)) // 2
    return size if bits >= 62 or (1 << bits) >= size else (1 << bits)


@njit(cache=True, _nrt=False)
def _use_table(tt, ctx, state):
    """Use as much of the table as the position needs (``table_rows``)."""
    ctx[C_TT_MASK] = table_rows(state, tt.shape[0]) - 1


@njit(cache=True, _nrt=False)
def _new_generation(tt, ctx):
    if ctx[C_GEN] >= GEN_LIMIT:
        for i in range(tt.shape[0]):
            tt[i, 1] = 0
        ctx[C_GEN] = 1


@njit(cache=True, nogil=True, _nrt=False)
def solve_value(state, rules, states, moves, frames, tt, ctx):
    """The value of `state` for the side of the seat to move (net points of High, Low, Jack and
    Game under perfect play; see the module's docstring). ctx[C_NODES] counts the nodes of this
    call (from 0); with ctx[C_NODE_LIMIT] > 0 the call gives up on reaching it and sets
    ctx[C_ABORTED] to 1 (0 when it finished): the value returned is then meaningless."""
    _new_generation(tt, ctx)
    _use_table(tt, ctx, state)
    prepare(state, rules, ctx)
    copy_state(states[0], state)
    # np.int64(0), not 0: a literal argument makes numba compile the search again for each constant
    return value_of(states, moves, frames, tt, ctx, np.int64(0), playout_guess(states, moves, ctx, np.int64(0)))


@njit(cache=True, nogil=True, _nrt=False)
def solve_cards(state, rules, states, moves, frames, tt, ctx, values):
    """The value, for the side of the seat to move, of each legal card it may play (values[card];
    NO_VALUE for a card it may not play), and the position's value (the best of them). Nodes, the
    node limit and ctx[C_ABORTED] as for `solve_value`: after an aborted call `values` is meaningless."""
    _new_generation(tt, ctx)
    _use_table(tt, ctx, state)
    prepare(state, rules, ctx)
    copy_state(states[0], state)
    for c in range(52):
        values[c] = NO_VALUE
    legal_cards = legal(state)
    out = _out_mask(state)
    jack = ctx[C_JACK]
    # What is proved of each card's value, for a caller that stops the search (`proved_ranges`): its
    # static bounds until it is searched.
    ctx[C_CARD] = -1
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        copy_state(states[1], state)
        apply_open(states[1], c)
        ctx[C_CARD_LO + c], ctx[C_CARD_HI + c] = bounds(states[1], ctx)
    guess = playout_guess(states, moves, ctx, np.int64(0))
    best = np.int64(-INF)
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        if _same_as_next(c, legal_cards, out, jack) >= 0:
            continue
        copy_state(states[1], state)
        apply_open(states[1], c)
        ctx[C_CARD] = c
        v = value_of(states, moves, frames, tt, ctx, np.int64(1), guess)
        if ctx[C_ABORTED]:
            return np.int64(0)
        ctx[C_CARD_LO + c] = v
        ctx[C_CARD_HI + c] = v
        ctx[C_CARD] = -1
        values[c] = v
        guess = v
        if v > best:
            best = v
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        values[c] = values[representative(c, legal_cards, out, jack)]
    return best


@njit(cache=True, _nrt=False)
def proved_ranges(state, ctx, lo, hi):
    """After `solve_cards` on `state` was stopped (ctx[C_STOP], a node cap): what it proved of each legal
    card's value, at least lo[card] and at most hi[card] (equal for a card it solved; NO_VALUE for a card
    that may not be played). Cards searched as one share the range of the one searched."""
    legal_cards = legal(state)
    out = _out_mask(state)
    jack = ctx[C_JACK]
    for c in range(52):
        lo[c] = NO_VALUE
        hi[c] = NO_VALUE
    m = legal_cards
    while m:
        c = lowest_card(m)
        m &= m - U1
        r = representative(c, legal_cards, out, jack)
        lo[c] = ctx[C_CARD_LO + r]
        hi[c] = ctx[C_CARD_HI + r]
        if r == ctx[C_CARD]:
            lo[c] = max(lo[c], ctx[C_RANGE_LO])
            hi[c] = min(hi[c], ctx[C_RANGE_HI])
