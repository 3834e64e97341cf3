"""Search players: ``oracle`` (sees every hand) and ``pimc`` (perfect-information Monte Carlo).

Both choose a card with the open-hand solver (``solver.py``); their stand/beg,
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
the hands (a trinidad deal after runs has 9 or 12 each: too big to solve at every
decision), when only one card is legal, and among cards of equal best value (the
heuristic's card wins a tie, so indifferent choices keep its structure).

**What pimc sees** (the play state, ``layout.py``'s PS_*): its own hand, the
turn-up that fixed trump, every card played and by whom (``PS_START & ~PS_HAND`` of
each seat, the trick so far), the voids each seat has shown by failing to follow
suit (and, under ``void_play = trump``, by not trumping), and how many cards each
seat still holds. A world deals the cards it has not seen to the other seats'
hands, as many as each holds, none of a suit the seat has shown it lacks; the cards
left over are the stock (not in play). It does not use, so a world may deal: the
turn-ups of earlier runs and its own discards (both out of play, and seen by it),
nor the beg or give as a hint about a hand. Worlds are drawn uniformly among the
consistent deals by rejection (deal the unseen cards at random, keep the deal if no
seat holds a suit it has shown void); after ``REJECT_TRIES`` failures a world is
dealt seat by seat, the most constrained first (consistent, not exactly uniform).

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

from .bits import U1, bit, lowest_card, popcount, rand_below, suit_mask
from .heuristic import heuristic_card
from .layout import (
    K_ORACLE, K_PIMC, N_STATE, PS_HAND, PS_IN_PLAY, PS_PLAYED, PS_PLAYERS, PS_START, PS_TO_PLAY, PS_TRICK_MASK,
    PS_TRUMP, PS_TURNUP, PS_VOIDS, X_MAX_CARDS, X_WORLDS,
)
from .solver import MAX_PLIES, MOVE_SLOTS, N_CTX, N_FRAME, NO_VALUE, TT_WORDS, solve_cards
from .state import copy_state
from .tips import tip_allowed

SEARCH_KINDS = (K_ORACLE, K_PIMC)
PIMC_WORLDS = 40        # default worlds per decision (20 won 53.4% of matches against the heuristic, 40 55.9%)
SEARCH_MAX_CARDS = 24   # default: search once at most this many cards are left in the hands
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
SB_TT = SB_WORLD + N_STATE                           # the table, 2**SEARCH_TT_BITS x TT_WORDS
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


def play_buffer_for(kinds: np.ndarray) -> np.ndarray:
    """The play buffer the seats' policies `kinds` need (for Python wrappers)."""
    return new_play_buffer(bool(needs_search(np.asarray(kinds, dtype=np.int64))))


# --- worlds ----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def unseen_by(state, seat):
    """Cards `seat` has not seen: not in its hand, not played (this trick included), not the turn-up."""
    seen = np.uint64(state[PS_HAND + seat]) | np.uint64(state[PS_PLAYED]) | np.uint64(state[PS_TRICK_MASK])
    if state[PS_TURNUP] >= 0:  # a position typed by hand may have no turn-up
        seen |= bit(state[PS_TURNUP])
    for s in range(state[PS_PLAYERS]):
        seen |= np.uint64(state[PS_START + s]) & ~np.uint64(state[PS_HAND + s])
    return ALL_CARDS & ~seen


@njit(cache=True, _nrt=False)
def allowed_cards(state, seat, unseen):
    """The unseen cards `seat` may hold: none of a suit it has shown void."""
    voids = state[PS_VOIDS + seat]
    ok = unseen
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
    in_play = np.uint64(0)
    tmask = suit_mask(state[PS_TRUMP])
    for o in range(n):
        if o != seat:
            played = np.uint64(state[PS_START + o]) & ~np.uint64(state[PS_HAND + o])
            world[PS_START + o] = np.int64(played | np.uint64(world[PS_HAND + o]))
        in_play |= np.uint64(world[PS_START + o]) & tmask
    world[PS_IN_PLAY] = np.int64(in_play)
    return exact


# --- the players -----------------------------------------------------------------------------


@njit(cache=True, _nrt=False)
def cards_in_hands(state):
    total = 0
    for s in range(state[PS_PLAYERS]):
        total += popcount(np.uint64(state[PS_HAND + s]))
    return total


@njit(cache=True, _nrt=False)
def _solver_views(buf):
    states = buf[SB_STATES:SB_MOVES].reshape((MAX_PLIES + 1, N_STATE))
    moves = buf[SB_MOVES:SB_FRAMES].reshape((MAX_PLIES + 1, MOVE_SLOTS))
    frames = buf[SB_FRAMES:SB_CTX].reshape((MAX_PLIES + 1, N_FRAME))
    tt = buf[SB_TT:SB_END].reshape((1 << SEARCH_TT_BITS, TT_WORDS))
    return states, moves, frames, tt, buf[SB_CTX:SB_VALUES], buf[SB_VALUES:SB_SUMS]


@njit(cache=True, _nrt=False)
def world_values(state, rules, worlds, rng, out):
    """out[w, card] = each legal card's value for the mover's side in world w (NO_VALUE: not legal),
    for `worlds` worlds sampled for the seat to move (worlds = 0: the true position, in row 0).
    `state` is a play buffer with the search area; `out` has at least max(worlds, 1) rows
    (0 rows: only the sums, kept in the buffer's SB_SUMS words)."""
    if state.shape[0] < SB_END:
        raise ValueError("a search player needs a play buffer with the search area (search.new_play_buffer)")
    states, moves, frames, tt, ctx, values = _solver_views(state)
    world = state[SB_WORLD:SB_TT]
    sums = state[SB_SUMS:SB_WORLD]
    seat = state[PS_TO_PLAY]
    for c in range(52):
        sums[c] = 0
    for w in range(max(worlds, 1)):
        if worlds > 0:
            sample_world(state, seat, rng, world)
        else:
            copy_state(world, state)
        solve_cards(world, rules, states, moves, frames, tt, ctx, values)
        for c in range(52):
            if values[c] != NO_VALUE:
                sums[c] += values[c]
            if w < out.shape[0]:
                out[w, c] = values[c]


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
    world_values(state, rules, worlds, rng, state[SB_TT:SB_TT].reshape((0, 52)))
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
