"""Search players: ``oracle`` (sees every hand) and ``pimc`` (perfect-information Monte Carlo).

Both choose a card with the open-hand solver (``solver/``); their stand/beg,
give/run, bunch and discards are the heuristic's (``heuristic.py``), with its
named parameters, and their row has the ``tuned`` player's beg and give tables
(``tuned.py``; all -1, the heuristic's rules, unless ``allfours strategy --policy
pimc`` tunes them).

* **oracle** solves the true position, every hand open, and plays the card of
  best value for its side. It cheats: it is the ceiling for any card player.
* **pimc** (Perfect Information Monte Carlo, as in bridge and Skat programs) sees
  only what its seat has seen. At each card decision it samples ``worlds`` deals of
  the hidden cards consistent with that (``sample_world``), solves each one open,
  and plays the card with the best mean value over the worlds.

The play-advice switches of the heuristic (``tips.py``, ``pimc:tip_trump_ace=on``)
bind them too: a switch set on or off narrows the cards searched, so a tip is measured
against a player that otherwise plays well.

Either plays the heuristic's card while more than ``max_cards`` cards are left in
the hands (oracle: 24 by default; pimc: 52, none), when only one card is legal, and
among cards of equal best value (the heuristic's card wins a tie, so indifferent
choices keep its structure).

**Big positions** (a trinidad deal after runs has 9 or 12 cards each: too big to solve
at every decision). pimc solves a world with more than ``horizon`` cards in the hands
(``X_HORIZON``, 24) exactly only if the solver finishes within ``nodes`` nodes
(``X_NODES``; after one world that does not, the decision's other worlds are not
tried); otherwise it values its cards by the **bounded search** (``bounded.py``: every
seat plays the heuristic's card down to the horizon, the solver values the rest).
``SB_EXACT`` counts the worlds of the last decision solved exactly. ``pimc:max_cards=24``
is the pimc of before (the heuristic's card above 24 cards).

**What pimc sees** (the play state, ``layout.py``'s PS_*): its own hand, every
turn-up of the deal (``PS_TURNUPS``: the one that fixed trump and those of earlier
runs), its own discards (``PS_DISCARDS``), every card played and by whom
(``PS_START & ~PS_HAND`` of each seat, the trick so far), the cards each seat has
shown it lacks (``PS_LACKS``, ``state.step``: a suit it did not follow; under
``void_play = trump`` the trumps it could have played and did not; under forbidden
undertrumping, every side card once it undertrumped), and how many cards each seat
still holds. The cards it has not seen (``unseen_by``) are the other hands and the
cards out of play it cannot see (the stock, the others' discards). A world deals
them to the other seats' hands, as many as each holds, none a seat has shown it
lacks; the rest are out of play. Worlds are drawn uniformly among the consistent
deals by rejection (deal the unseen cards at random, keep the deal if no seat holds
a card it has shown it lacks); after ``REJECT_TRIES`` failures a world is dealt seat
by seat, the most constrained first (consistent, not exactly uniform). ``worlds.py``
counts and lists every consistent deal when they are few.

**What pimc infers** (``doubt`` < 1, the default 0.1). The others' choices say more
about their hands than their voids: pimc models every other seat as playing by its
own rules (its parameter row: the heuristic's rules, and its tables for the bidding)
and weighs a world by ``doubt ** m``, m the number of choices the model would not have
made holding that world's hands (``mismatches``): each card an opponent played (a
partner's cards are not counted: a partner that searches does not play the
heuristic's), and the eldest's stand or beg and the dealer's gift when no run dealt
more cards (``record_bid``; a beg answered by a run, or a decision a study forced,
says nothing). Worlds are drawn by rejection against that weight (``sample_likely``);
after ``tries`` draws with none kept, the likeliest drawn. Against the heuristic the
model is exact (``doubt`` = 0 would believe it entirely); a ``doubt`` of 1 infers
nothing. With ``pimc:model=full`` (``doubt`` below 0) pimc reads the others by the shared
model of the other players instead (engine/inference.py, the hint's: every other seat,
partner included, choosing its card by the heuristic's preferences graded by a
temperature, the bids by pimc's own tables, each with a floor): ``tries`` worlds are drawn
and one kept in proportion to its likelihood (``sample_weighted``). The order of play it needs is recorded by the trick loop (``record_play``);
a position built any other way (``allfours solve``, a log's cut) infers nothing.

**Work area.** The solver needs memory (a state and a move list per ply, the
transposition table); kernels here run without numba's runtime and allocate
nothing. So the array that carries the play state carries it: a *play buffer*
(``new_play_buffer``) is the play state's ``N_STATE`` words followed, when some seat
is a search player, by the search area below (``SEARCH_WORDS`` more). Every kernel
reads a state through the ``PS_*`` indices only, so a play buffer is a play state
everywhere; ``copy_state`` copies the state part.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import U1, bit, lowest_card, popcount, private_zeros, rand_below, rand_unit, side_of, suit_mask
from .bounded import cards_in_hands, world_cards  # cards_in_hands: read by solve, hint, cardvalues
from .heuristic import heuristic_card
from .inference import BID_GIVEN, BID_STOOD as BID_STOOD, BID_UNKNOWN  # the bidding as recorded (record_bid)
from .inference import LEVEL_FULL, MODEL_BID_FLOOR, MODEL_CARD_FLOOR, MODEL_TEMPERATURE, world_log_weight
from .layout import (
    K_ORACLE, K_PIMC, N_STATE, PS_CAPTURED, PS_DEALER, PS_DISCARDS, PS_HAND, PS_IN_PLAY, PS_JACK_CAPTOR, PS_LACKS,
    PS_PLAYED, PS_PLAYERS, PS_START, PS_TO_PLAY, PS_TRICK_MASK, PS_TRICK_NO, PS_TRUMP, PS_VOIDS, X_DOUBT, X_HORIZON,
    X_MAX_CARDS, X_NODES, X_TRIES, X_WORLDS,
)
from .solver import MAX_PLIES, MOVE_SLOTS, N_CTX, N_FRAME, NO_VALUE, TT_WORDS
from .state import apply, copy_state, known_out, legal, new_trick
from .tuned import tuned_beg, tuned_give
from .tips import tip_allowed

SEARCH_KINDS = (K_ORACLE, K_PIMC)
# Default worlds per decision. Against the heuristic (2,000 duplicated matches, seed 1), net points a deal:
# without inference 20 worlds +0.074, 40 +0.127, 80 +0.147; inferring (doubt 0.1) 40 +0.211, 80 +0.225.
PIMC_WORLDS = 80
PIMC_DOUBT = 0.1        # default weight of a world per opponent's card the heuristic would not have played in it
PIMC_TRIES = 50         # default worlds drawn at most per world kept, when inferring (then the likeliest drawn)
SEARCH_MAX_CARDS = 24   # oracle's default: search once at most this many cards are left in the hands
PIMC_MAX_CARDS = 52     # pimc's default: search every position (bounded above the horizon, engine/bounded.py)
EXACT_ALL = 52          # a horizon that solves every world exactly
REJECT_TRIES = 64
SEARCH_TT_BITS = 16     # 65536 table entries (2 MiB): ample for the positions searched

# The search area, as offsets into a play buffer (after its N_STATE state words).
SB_STATES = N_STATE                                  # (MAX_PLIES + 1) x N_STATE: a state per ply
SB_MOVES = SB_STATES + (MAX_PLIES + 1) * N_STATE     # (MAX_PLIES + 1) x MOVE_SLOTS
SB_FRAMES = SB_MOVES + (MAX_PLIES + 1) * MOVE_SLOTS  # (MAX_PLIES + 1) x N_FRAME
SB_CTX = SB_FRAMES + (MAX_PLIES + 1) * N_FRAME       # N_CTX
SB_VALUES = SB_CTX + N_CTX                           # 52: a world's card values
SB_SUMS = SB_VALUES + 52                             # 52: their sums over the worlds
SB_WORLD = SB_SUMS + 52                              # N_STATE: the world being solved
SB_HIST_N = SB_WORLD + N_STATE                       # 1: cards recorded in SB_HIST
SB_HIST = SB_HIST_N + 1                              # 52: the deal's cards in the order played (record_play)
SB_REPLAY = SB_HIST + 52                             # N_STATE: what everyone saw as play started (inference)
SB_SCRATCH = SB_REPLAY + N_STATE                     # N_STATE: that position replayed in a world
SB_BEST = SB_SCRATCH + N_STATE                       # N_STATE: the likeliest world drawn so far
SB_BID = SB_BEST + N_STATE                           # 1: the bidding before play (record_bid: BID_*)
SB_BID_TURNUP = SB_BID + 1                           # 1: the turn-up it saw
SB_BID_SCORES = SB_BID_TURNUP + 1                    # 4: the scores it saw
SB_EXACT = SB_BID_SCORES + 4                         # 1: worlds the last search solved exactly (the rest bounded)
SB_TT = SB_EXACT + 1                                 # the table, 2**SEARCH_TT_BITS x TT_WORDS
SB_END = SB_TT + (1 << SEARCH_TT_BITS) * TT_WORDS
SEARCH_WORDS = SB_END - N_STATE
ALL_CARDS = np.uint64((1 << 52) - 1)


@njit(cache=True, _nrt=False)
def is_search_kind(kind):
    return kind == K_ORACLE or kind == K_PIMC


@njit(cache=True, _nrt=False)
def needs_search(kinds):
    """True if some seat's policy is a search player (its play buffer needs the search area)."""
    for s in range(kinds.shape[0]):
        if is_search_kind(kinds[s]):
            return True
    return False


@njit(cache=True)
def new_play_buffer(search):
    """A zeroed play buffer: the play state alone, or with the search area if `search`."""
    return np.zeros(SB_END if search else N_STATE, dtype=np.int64)


def play_buffer_size(kinds: np.ndarray) -> int:
    """The words of the play buffer the seats' policies `kinds` need: the search's scratch too where one searches."""
    return SB_END if needs_search(np.asarray(kinds, dtype=np.int64)) else N_STATE


def play_buffer_for(kinds: np.ndarray) -> np.ndarray:
    """The play buffer the seats' policies `kinds` need (for Python wrappers), zeroed, on cache lines of its own
    (``bits.private_zeros``: threads run the wrappers side by side)."""
    return private_zeros(play_buffer_size(kinds), np.int64)


# --- worlds ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def unseen_by(state, seat):
    """Cards `seat` has not seen: not in its hand, not played (this trick included), not a turn-up of the deal,
    not its own discard. The other hands are dealt from them; the rest are out of play (stock, others' discards)."""
    seen = np.uint64(state[PS_HAND + seat]) | np.uint64(state[PS_PLAYED]) | np.uint64(state[PS_TRICK_MASK])
    seen |= known_out(state, seat)
    for s in range(state[PS_PLAYERS]):
        seen |= np.uint64(state[PS_START + s]) & ~np.uint64(state[PS_HAND + s])
    return ALL_CARDS & ~seen


@njit(cache=True, _nrt=False)
def allowed_cards(state, seat, unseen):
    """The unseen cards `seat` may hold: none it has shown it lacks (PS_LACKS), none of a suit it has shown void."""
    voids = state[PS_VOIDS + seat]
    ok = unseen & ~np.uint64(state[PS_LACKS + seat])
    for suit in range(4):
        if (voids >> suit) & 1:
            ok &= ~suit_mask(suit)
    return ok


@njit(cache=True, _nrt=False)
def _draw(pool, k, rng):
    """k cards drawn uniformly without replacement from `pool`."""
    out = np.uint64(0)
    for _ in range(k):
        i = rand_below(rng, popcount(pool))
        m = pool
        for _ in range(i):
            m &= m - U1
        c = lowest_card(m)
        out |= bit(c)
        pool &= ~bit(c)
    return out


@njit(cache=True, _nrt=False)
def sample_world(state, seat, rng, world):
    """Fill `world` (a play state) with `state` as `seat` may believe it: the other seats' hands
    drawn from the cards it has not seen, consistent with their voids (see the module docstring).
    Returns 1 if drawn by rejection (uniform), 0 if dealt seat by seat."""
    copy_state(world, state)
    n = state[PS_PLAYERS]
    unseen = unseen_by(state, seat)
    exact = 1
    for attempt in range(REJECT_TRIES + 1):
        pool = unseen
        ok = True
        if attempt < REJECT_TRIES:
            for o in range(n):
                if o == seat:
                    continue
                h = _draw(pool, popcount(np.uint64(state[PS_HAND + o])), rng)
                pool &= ~h
                world[PS_HAND + o] = np.int64(h)
                if h & ~allowed_cards(state, o, unseen):
                    ok = False
                    break
        else:
            # Seat by seat, the seat with the fewest allowed cards per card to hold first.
            exact = 0
            done = np.int64(1 << seat)
            for _ in range(n - 1):
                pick = -1
                slack = 1 << 30
                for o in range(n):
                    if (done >> o) & 1:
                        continue
                    spare = popcount(allowed_cards(state, o, pool)) - popcount(np.uint64(state[PS_HAND + o]))
                    if spare < slack:
                        pick, slack = o, spare
                need = popcount(np.uint64(state[PS_HAND + pick]))
                mine = allowed_cards(state, pick, pool)
                if popcount(mine) < need:  # the voids cannot all be kept: ignore them for this seat
                    mine = pool
                h = _draw(mine, need, rng)
                pool &= ~h
                world[PS_HAND + pick] = np.int64(h)
                done |= np.int64(1 << pick)
        if ok:
            break
    finish_world(state, seat, world)
    return exact


@njit(cache=True, _nrt=False)
def finish_world(state, seat, world):
    """A world whose other hands (PS_HAND) are dealt: the rest of it as `seat` believes it. Each other seat
    held its cards played and its world hand when play started; the trumps in play follow; the other seats'
    discards are unknown to `seat` (zero)."""
    n = state[PS_PLAYERS]
    in_play = np.uint64(0)
    tmask = suit_mask(state[PS_TRUMP])
    for o in range(n):
        if o != seat:
            played = np.uint64(state[PS_START + o]) & ~np.uint64(state[PS_HAND + o])
            world[PS_START + o] = np.int64(played | np.uint64(world[PS_HAND + o]))
            world[PS_DISCARDS + o] = 0
        in_play |= np.uint64(world[PS_START + o]) & tmask
    world[PS_IN_PLAY] = np.int64(in_play)


# --- inference from the others' choices ---------------------------------------------------


@njit(cache=True, _nrt=False)
def start_history(buf):
    """The trick loop, starting: a deal with no card played yet starts an empty record."""
    if buf.shape[0] >= SB_END and (np.uint64(buf[PS_PLAYED]) | np.uint64(buf[PS_TRICK_MASK])) == 0:
        buf[SB_HIST_N] = 0


@njit(cache=True, _nrt=False)
def record_play(buf, card):
    """The trick loop, before a card is played: add it to the deal's record (search players' buffers only)."""
    if buf.shape[0] >= SB_END:
        k = buf[SB_HIST_N]
        if 0 <= k < 52:
            buf[SB_HIST + k] = card
            buf[SB_HIST_N] = k + 1


@njit(cache=True, _nrt=False)
def record_bid(buf, bid, turnup, scores):
    """The deal, before play: how the eldest and dealer bid (BID_*), on which turn-up and scores."""
    if buf.shape[0] >= SB_END:
        buf[SB_BID] = bid
        buf[SB_BID_TURNUP] = turnup
        for s in range(4):
            buf[SB_BID_SCORES + s] = scores[s] if s < scores.shape[0] else 0


@njit(cache=True, _nrt=False)
def bid_mismatches(buf, world, seat, params, rules, rng):
    """The others' bids (BID_STOOD, BID_GIVEN) that pimc's own bidding (``params``: the heuristic's rules or
    its tables) would not have made holding the hands `world` deals them (6 cards, as dealt: no run)."""
    bid = buf[SB_BID]
    if bid == BID_UNKNOWN:
        return 0
    n = buf[PS_PLAYERS]
    dealer = buf[PS_DEALER]
    eldest = (dealer + 1) % n
    turnup = buf[SB_BID_TURNUP]
    scores = buf[SB_BID_SCORES:SB_BID_SCORES + 4]
    count = 0
    if eldest != seat and tuned_beg(params, np.uint64(world[PS_START + eldest]), turnup, eldest, dealer, scores,
                                    rules, rng) != (bid == BID_GIVEN):
        count += 1
    if bid == BID_GIVEN and dealer != seat and not tuned_give(params, np.uint64(world[PS_START + dealer]), turnup,
                                                               dealer, dealer, scores, rules, rng):
        count += 1
    return count


@njit(cache=True, _nrt=False)
def history_ok(buf):
    """True if the record holds exactly the cards played so far (a position built some other way has none)."""
    k = buf[SB_HIST_N]
    played = np.uint64(buf[PS_PLAYED]) | np.uint64(buf[PS_TRICK_MASK])
    if k != popcount(played):
        return False
    seen = np.uint64(0)
    for i in range(k):
        seen |= bit(buf[SB_HIST + i])
    return seen == played


@njit(cache=True, _nrt=False)
def start_replay(buf):
    """SB_REPLAY: the position as play started, each hand holding only the cards its seat has played
    since (what everyone has seen); a world adds its hidden cards to it (``mismatches``)."""
    rep = buf[SB_REPLAY:SB_SCRATCH]
    copy_state(rep, buf)
    n = buf[PS_PLAYERS]
    for s in range(4):
        shown = np.int64(np.uint64(buf[PS_START + s]) & ~np.uint64(buf[PS_HAND + s])) if s < n else 0
        rep[PS_HAND + s] = shown
        rep[PS_START + s] = shown
        rep[PS_CAPTURED + s] = 0
        rep[PS_VOIDS + s] = 0
        rep[PS_LACKS + s] = 0
    new_trick(rep, (buf[PS_DEALER] + 1) % n)
    rep[PS_TRICK_NO] = 0
    rep[PS_PLAYED] = 0
    rep[PS_JACK_CAPTOR] = -1
    rep[PS_IN_PLAY] = 0  # the trumps dealt are not known to all


@njit(cache=True, _nrt=False)
def mismatches(buf, world, seat, params, rules, rng, cap):
    """How many of the others' choices pimc's model (its own rules, `params`) would not have made holding
    the hands `world` deals: the others' bids (``bid_mismatches``), then each opponent's card so far
    (counting stops at `cap`). Needs ``start_replay`` first."""
    rep = buf[SB_SCRATCH:SB_BEST]
    copy_state(rep, buf[SB_REPLAY:SB_SCRATCH])
    n = buf[PS_PLAYERS]
    side = side_of(seat, n)
    count = bid_mismatches(buf, world, seat, params, rules, rng)
    if count >= cap:
        return count
    for i in range(buf[SB_HIST_N]):
        card = buf[SB_HIST + i]
        mover = rep[PS_TO_PLAY]
        if side_of(mover, n) != side:
            later = rep[PS_HAND + mover]  # the cards it plays from here on
            rep[PS_HAND + mover] = later | world[PS_HAND + mover]
            options = legal(rep)
            if (options & bit(card)) == 0:
                count += 1
            elif options & (options - U1):
                if heuristic_card(params, rep, options, rules, rng) != card:
                    count += 1
            rep[PS_HAND + mover] = later
            if count >= cap:
                return count
        apply(rep, card)
    return count


@njit(cache=True, _nrt=False)
def sample_likely(state, seat, params, rules, rng, world):
    """``sample_world`` weighed by the others' choices: a world drawn keeps weight ``doubt ** m``,
    m its ``mismatches`` (rejection: kept if a uniform draw is below it). After ``tries`` draws
    without one kept, the drawn world of fewest mismatches."""
    doubt = params[X_DOUBT]
    best = 1 << 30
    for _ in range(max(1, np.int64(params[X_TRIES]))):
        sample_world(state, seat, rng, world)
        u = rand_unit(rng)
        # Kept if doubt ** m > u, i.e. m < log(u) / log(doubt); m = 0 is always kept.
        allowed = 1
        w = doubt
        while w > u and allowed < 64:
            allowed += 1
            w *= doubt
        m = mismatches(state, world, seat, params, rules, rng, max(allowed, best))
        if m < allowed:
            return
        if m < best:
            best = m
            copy_state(state[SB_BEST:SB_TT], world)
    copy_state(world, state[SB_BEST:SB_TT])


@njit(cache=True, _nrt=False)
def model_log_weight(buf, world, seat, params, rules, rng):
    """``inference.world_log_weight`` of `world` under the shared model, from the deal's record in `buf`
    (needs ``start_replay`` first)."""
    return world_log_weight(buf[SB_HIST:SB_HIST + 52], buf[SB_HIST_N], buf[SB_REPLAY:SB_SCRATCH],
                            buf[SB_SCRATCH:SB_BEST], buf[SB_BID], buf[SB_BID_TURNUP],
                            buf[SB_BID_SCORES:SB_BID_SCORES + 4], world, seat, params, rules, rng, LEVEL_FULL,
                            MODEL_TEMPERATURE, MODEL_CARD_FLOOR, MODEL_BID_FLOOR)


@njit(cache=True, _nrt=False)
def sample_weighted(state, seat, params, rules, rng, world):
    """``sample_world`` weighed by the shared model of the other players (``pimc:model=full``, engine/inference.py):
    ``tries`` worlds drawn uniformly, one kept in proportion to its likelihood (sampling-importance-resampling in
    one pass: each drawn world takes the place of the one kept with probability its weight over the weights
    drawn so far)."""
    total = 0.0
    for k in range(max(1, np.int64(params[X_TRIES]))):
        sample_world(state, seat, rng, world)
        lw = model_log_weight(state, world, seat, params, rules, rng)
        if k == 0:
            total = lw
            copy_state(state[SB_BEST:SB_TT], world)
            continue
        top = max(total, lw)
        total = top + np.log(np.exp(total - top) + np.exp(lw - top))  # log of the weights drawn so far
        if rand_unit(rng) < np.exp(lw - total):
            copy_state(state[SB_BEST:SB_TT], world)
    copy_state(world, state[SB_BEST:SB_TT])


# --- the players -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def _solver_views(buf):
    states = buf[SB_STATES:SB_MOVES].reshape((MAX_PLIES + 1, N_STATE))
    moves = buf[SB_MOVES:SB_FRAMES].reshape((MAX_PLIES + 1, MOVE_SLOTS))
    frames = buf[SB_FRAMES:SB_CTX].reshape((MAX_PLIES + 1, N_FRAME))
    tt = buf[SB_TT:SB_END].reshape((1 << SEARCH_TT_BITS, TT_WORDS))
    return states, moves, frames, tt, buf[SB_CTX:SB_VALUES], buf[SB_VALUES:SB_SUMS]


NO_INFERENCE = np.bool_(False)


@njit(cache=True, _nrt=False, nogil=True)
def world_values(state, rules, worlds, rng, out):
    """out[w, card] = each legal card's value for the mover's side in world w (NO_VALUE: not legal),
    for `worlds` worlds sampled for the seat to move (worlds = 0: the true position, in row 0).
    `state` is a play buffer with the search area; `out` has at least max(worlds, 1) rows
    (0 rows: only the sums, kept in the buffer's SB_SUMS words). Worlds are drawn uniformly
    (``sample_world``); pimc's (``search_card``) are also weighed by the others' choices (``solve_worlds``)."""
    # No model (nothing is inferred, so none is read): an empty float view of the buffer. The
    # global array it once was is read-only to numba, which then compiled solve_worlds and the
    # solver again for that one argument (and the literal False, again).
    solve_worlds(state, rules, worlds, rng, out, state[SB_SUMS:SB_SUMS].view(np.float64), NO_INFERENCE,
                 np.int64(EXACT_ALL), np.int64(0))


@njit(cache=True, _nrt=False, nogil=True)
def bounded_world_values(state, rules, worlds, rng, out, params, horizon, limit):
    """``world_values`` by the bounded search (engine/bounded.py): a world with more than `horizon` cards
    in the hands is solved exactly only if the solver finishes within |limit| nodes (none tried once one
    did not; limit > 0 the limited search pimc uses, < 0 the exact search stopped there: ``world_cards``), else
    valued by the heuristic's continuation to the horizon; `params` is the row the continuations play by.
    Returns the worlds solved exactly (also in the buffer's SB_EXACT word)."""
    return solve_worlds(state, rules, worlds, rng, out, params, NO_INFERENCE, horizon, limit)


@njit(cache=True, _nrt=False)
def solve_worlds(state, rules, worlds, rng, out, params, infer, horizon, limit):
    """``world_values``; with `infer`, the worlds drawn by ``sample_likely`` with the model `params`;
    worlds above `horizon` cards by the bounded search (``bounded_world_values``). Returns the worlds
    solved exactly."""
    if state.shape[0] < SB_END:
        raise ValueError("a search player needs a play buffer with the search area (search.new_play_buffer)")
    states, moves, frames, tt, ctx, values = _solver_views(state)
    world = state[SB_WORLD:SB_HIST_N]
    line = state[SB_SCRATCH:SB_BEST]  # free once a world is drawn (inference uses it while drawing)
    sums = state[SB_SUMS:SB_WORLD]
    seat = state[PS_TO_PLAY]
    exact = 0
    for c in range(52):
        sums[c] = 0
    if infer:
        start_replay(state)
    for w in range(max(worlds, 1)):
        if worlds > 0 and infer and params[X_DOUBT] < 0.0:
            sample_weighted(state, seat, params, rules, rng, world)
        elif worlds > 0 and infer:
            sample_likely(state, seat, params, rules, rng, world)
        elif worlds > 0:
            sample_world(state, seat, rng, world)
        else:
            copy_state(world, state)
        if world_cards(world, rules, params, rng, horizon, limit, states, moves, frames, tt, ctx, values, line):
            exact += 1
        elif limit != 0 and cards_in_hands(world) > horizon:
            limit = 0  # the budget was not enough for this world: the others are alike, spend no more on them
        for c in range(52):
            if values[c] != NO_VALUE:
                sums[c] += values[c]
            if w < out.shape[0]:
                out[w, c] = values[c]
    state[SB_EXACT] = exact
    return exact


@njit(cache=True, _nrt=False)
def search_values(state, rules, worlds, rng, sums):
    """sums[card] = the legal cards' values for the mover's side added up over `worlds` sampled
    worlds (worlds = 0: the true position, once); `world_values` without the per-world rows."""
    world_values(state, rules, worlds, rng, state[SB_TT:SB_TT].reshape((0, 52)))
    for c in range(52):
        sums[c] = state[SB_SUMS + c]


@njit(cache=True, _nrt=False)
def search_card(kind, params, state, legal, rules, rng):
    """The card an oracle or pimc seat plays (module docstring)."""
    legal = tip_allowed(params, state, legal)  # a play-advice switch set on or off (tips.py) binds the search too
    h = heuristic_card(params, state, legal, rules, rng)
    if legal & (legal - U1) == 0 or cards_in_hands(state) > params[X_MAX_CARDS]:
        return h
    worlds = 0 if kind == K_ORACLE else max(1, np.int64(params[X_WORLDS]))
    infer = worlds > 0 and params[X_DOUBT] < 1.0 and history_ok(state)
    horizon = np.int64(EXACT_ALL) if kind == K_ORACLE else np.int64(params[X_HORIZON])
    limit = np.int64(0) if kind == K_ORACLE else np.int64(params[X_NODES])
    solve_worlds(state, rules, worlds, rng, state[SB_TT:SB_TT].reshape((0, 52)), params, infer, horizon, limit)
    sums = state[SB_SUMS:SB_WORLD]
    best = sums[h]
    pick = h
    m = legal
    while m:
        c = lowest_card(m)
        m &= m - U1
        if sums[c] > best:
            best, pick = sums[c], c
    return pick
