"""The play advice of a Spanish-language All Fours guide ("Consejos y estrategias") as switches of a card player.

Each tip is one slot of the policy's parameter row (``layout.H_TIP_*``): -1 (the
default, ``=auto``) leaves the player as it is, 1 (``=on``) forces the tip on, 0
(``=off``) forces it off: ``heuristic:tip_trump_ace=on``, ``pimc:tip_trump_ace=off``. A tip
applies only in its *situation*; there ``tip_masks`` gives the cards allowed with
the tip on and with it off, both non-empty subsets of the legal cards (forcing a
tip off never leaves a player without a legal card: where every legal card is the
tip's, the tip cannot be avoided and the mask is the legal cards). The heuristic
(``heuristic.heuristic_card``) plays its own choice among the allowed cards; the
search players (``search.search_card``: ``oracle``, ``pimc``) search only the allowed
cards, so a tip can be measured against a player that otherwise plays well.

What each switch does, quoting the tip ("small trumps" are the 2 to 9 of trump; the
jack "is out" when the player does not hold it and has not seen it played or
turned up):

* ``tip_capture_jack`` (TIP_CAPTURE_JACK): "Use el triunfo permisivo para capturar
  la Jota. Si usted sale con un triunfo pequeño y su rival se ve obligado a cubrirlo
  con la Jota, asegura el punto de Jota incluso sin tener la Jota usted mismo."
  Situation: leading, the jack of trump out, a small trump in hand. On: lead the
  smallest trump. Off: lead no small trump. (The tip's title names permissive
  trumping, but its mechanism is a trump lead; taking an opponent's jack with a
  higher trump, even while holding the led suit, the heuristic always does when it
  can: its CAPTURE rule counts the jack as 10 Game points.)
* ``tip_early_trumps`` (TIP_EARLY_TRUMPS): "Juegue triunfos pequeños pronto para
  atraer Jotas. [...] salga con triunfos bajos en las bazas 1 y 2 para sacar la
  Jota de las manos rivales." The same switch as the one above, in tricks 1 and 2
  only.
* ``tip_trump_ace`` (TIP_TRUMP_ACE): "Triunfe el As a toda costa. Capturar el As de
  triunfo rival en una baza les niega tanto el punto Alto como 4 puntos de Juego."
  As a player follows it: the ace of trump cannot be captured (nothing beats it), and
  High goes to whoever was dealt the highest trump, so the tip is read as "trump an
  opponent's ace": situation: an ace of a non-trump suit, played by an opponent, is
  winning the trick and a trump is legal. On: play the smallest trump (it takes the
  ace, at any cost: even the ten or the jack when they are the only trumps). Off:
  play no trump.
* ``tip_keep_game_cards`` (TIP_KEEP_GAME): "Guarde sus mejores cartas que no son
  triunfo para el Juego. El Diez vale 10 puntos y el As vale 4; consérvelos en mano
  para capturar el mayor número posible de puntos en las bazas finales."
  Situation: more than ``FINAL_TRICKS`` tricks to go (this one included), a side ace
  or ten legal and some other card legal too. On: play no side ace or ten (keep them
  for the final tricks). Off: the opposite habit, cash them early: lead a side ace
  or ten that no unseen card of its suit beats (the ace first), or, following a
  side suit with no trump in the trick, play the led suit's such card if it takes the
  trick; with no such card, the player's own choice.
* ``tip_run_strong_side`` (TIP_RUN_STRONG_SIDE, a bidding tip, already judged by
  ``check-advice`` as a decision; here as a switch too): "Como repartidor, rechace la
  petición y corra las cartas cuando su mano sea fuerte en un palo que no es
  triunfo." Situation: the dealer, begged, holds a strong side suit (three or more
  cards of a non-trump suit including its ace or ten: ``strong_side_suit``). On: run
  the cards; off: give one. (A gift that would end the match is still refused,
  GIVE_NEVER_LOSES; a fixed ``give`` probability overrides the switch.)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .bits import (
    RANK_ACE, RANK_JACK, RANK_MASKS, RANK_TEN, U1, bit, lowest_card, side_of,
    suit_mask,
)
from .evaluator import strong_side_suit
from .layout import (
    H_TIP_CAPTURE_JACK, H_TIP_EARLY_TRUMPS, H_TIP_KEEP_GAME, H_TIP_RUN_STRONG_SIDE, H_TIP_TRUMP_ACE, PS_BEST_CARD,
    PS_BEST_SEAT, PS_HAND, PS_LED, PS_N_TRICKS, PS_PLAYED, PS_PLAYERS, PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_MASK,
    PS_TRICK_NO, PS_TRUMP, PS_TURNUP,
)

# Tip numbers (rows of the measurement kernels' arrays) and their parameter slots.
TIP_CAPTURE_JACK, TIP_EARLY_TRUMPS, TIP_TRUMP_ACE, TIP_KEEP_GAME, TIP_RUN_STRONG_SIDE = range(5)
N_TIPS = 5
N_CARD_TIPS = 4   # tips 0..3 choose cards; TIP_RUN_STRONG_SIDE is the dealer's give or run
TIP_SLOTS = np.array([H_TIP_CAPTURE_JACK, H_TIP_EARLY_TRUMPS, H_TIP_TRUMP_ACE, H_TIP_KEEP_GAME, H_TIP_RUN_STRONG_SIDE],
                     dtype=np.int64)
TIP_DEFAULT = -1.0   # as the player plays without the switch
TIP_ON = 1.0
TIP_OFF = 0.0
EARLY_TRICKS = 2     # tip_early_trumps: tricks 1 and 2
FINAL_TRICKS = 3     # tip_keep_game_cards: "las bazas finales", the last three tricks

ALL_CARDS = np.uint64((1 << 52) - 1)
SMALL = np.uint64(sum(int(RANK_MASKS[r]) for r in range(RANK_TEN)))   # the 2..9 of every suit
ACES_TENS = np.uint64(int(RANK_MASKS[RANK_ACE]) | int(RANK_MASKS[RANK_TEN]))


@njit(cache=True, inline="always")
def tips_active(params):
    """True if some card-play tip switch of the row is set (on or off)."""
    return (params[H_TIP_CAPTURE_JACK] >= 0.0 or params[H_TIP_EARLY_TRUMPS] >= 0.0 or params[H_TIP_TRUMP_ACE] >= 0.0
            or params[H_TIP_KEEP_GAME] >= 0.0)


@njit(cache=True, _nrt=False)
def unseen_cards(state):
    """Cards the seat to play has not seen: not in its hand, not played, not in the trick, not the turn-up."""
    seat = state[PS_TO_PLAY]
    seen = (np.uint64(state[PS_HAND + seat]) | np.uint64(state[PS_PLAYED]) | np.uint64(state[PS_TRICK_MASK])
            | bit(state[PS_TURNUP]))
    return ALL_CARDS & ~seen


@njit(cache=True, _nrt=False)
def boss_side_cards(cards, trump, unseen):
    """The side aces and tens of `cards` that no unseen card of their suit beats."""
    out = np.uint64(0)
    m = cards & ACES_TENS & ~suit_mask(trump)
    while m:
        c = lowest_card(m)
        m &= m - U1
        above_in_suit = suit_mask(c // 13) & ~((U1 << np.uint64(c + 1)) - U1)
        if (unseen & above_in_suit) == 0:
            out |= bit(c)
    return out


@njit(cache=True, _nrt=False)
def tip_masks(tip, state, legal):
    """(situation, on, off) of card tip `tip` for the seat to play in `state`, `legal` its legal cards:
    `situation` True where the tip applies; `on` / `off` the cards allowed with the tip forced on / off
    (non-empty subsets of `legal`; both `legal` outside the situation). See the module docstring."""
    legal = np.uint64(legal)
    seat = state[PS_TO_PLAY]
    trump = state[PS_TRUMP]
    tmask = suit_mask(trump)
    led = state[PS_LED]
    if tip == TIP_CAPTURE_JACK or tip == TIP_EARLY_TRUMPS:
        if led >= 0 or (tip == TIP_EARLY_TRUMPS and state[PS_TRICK_NO] >= EARLY_TRICKS):
            return False, legal, legal
        jack = bit(trump * 13 + RANK_JACK)
        small = legal & tmask & SMALL
        if (unseen_cards(state) & jack) == 0 or small == 0:
            return False, legal, legal
        rest = legal & ~small
        return True, bit(lowest_card(small)), (rest if rest else legal)
    if tip == TIP_TRUMP_ACE:
        if led < 0:
            return False, legal, legal
        best = state[PS_BEST_CARD]
        trumps = legal & tmask
        n = state[PS_PLAYERS]
        if (best % 13 != RANK_ACE or best // 13 == trump or trumps == 0
                or side_of(state[PS_BEST_SEAT], n) == side_of(seat, n)):
            return False, legal, legal
        rest = legal & ~tmask
        return True, bit(lowest_card(trumps)), (rest if rest else legal)
    if tip == TIP_KEEP_GAME:
        if state[PS_N_TRICKS] - state[PS_TRICK_NO] <= FINAL_TRICKS:
            return False, legal, legal
        game = legal & ACES_TENS & ~tmask
        rest = legal & ~game
        if game == 0 or rest == 0:
            return False, legal, legal
        boss = boss_side_cards(game, trump, unseen_cards(state))
        cash = np.uint64(0)
        if led < 0:
            cash = boss
        elif led != trump and state[PS_TOP_TRUMP] < 0:
            best = state[PS_BEST_CARD]
            cash = boss & suit_mask(led) & ~((U1 << np.uint64(best + 1)) - U1)
        if cash & RANK_MASKS[RANK_ACE]:
            cash = bit(lowest_card(cash & RANK_MASKS[RANK_ACE]))
        elif cash:
            cash = bit(lowest_card(cash))
        return True, rest, (cash if cash else legal)
    return False, legal, legal


@njit(cache=True, _nrt=False)
def tip_allowed(params, state, legal):
    """The cards of `legal` the row's tip switches allow (each switch set on or off narrows them in turn;
    a switch whose mask would leave nothing is skipped). `legal` itself when no switch is set."""
    allowed = np.uint64(legal)
    for tip in range(N_CARD_TIPS):
        setting = params[TIP_SLOTS[tip]]
        if setting < 0.0:
            continue
        situation, on, off = tip_masks(tip, state, legal)
        if situation:
            narrowed = allowed & (on if setting >= 0.5 else off)
            if narrowed:
                allowed = narrowed
    return allowed


@njit(cache=True, _nrt=False)
def tip_give(params, hand, trump):
    """The dealer's give (1) or run (0) under the tip_run_strong_side switch, or -1 where it does not decide."""
    setting = params[H_TIP_RUN_STRONG_SIDE]
    if setting < 0.0 or not strong_side_suit(hand, trump):
        return -1
    return 0 if setting >= 0.5 else 1
