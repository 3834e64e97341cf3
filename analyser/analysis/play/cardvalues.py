"""Which card now? Every legal card valued over worlds the seat to move cannot tell apart.

A card decision is a play state (``solve.Position``). The seat to move has seen its
own hand, the turn-up, every card played and by whom, the voids shown and how many
cards each seat holds; ``engine/search.py``'s ``sample_world`` deals the other hands
at random consistently with exactly that (a *world*), and ``world_values`` with no
sampling (``worlds = 0``: the position as given) solves one world with every hand
open: each legal card's value under perfect play by everyone from there on, in net
points of High, Low, Jack (or hang jack) and Game for the mover's side (its side's
points minus the other side's; with three players its own minus the other two's,
both taken to play against it). Every card is valued on the *same* worlds (common
random numbers), so the difference of two cards is estimated world by world: its
standard error is far smaller than either card's.

``worlds = 0`` values the true position once (perfect information): the luck of the
deal, and the ceiling of any play.

**Big positions** (a trinidad deal after runs: 36 or 48 cards in the hands). A world with
more than ``horizon`` cards in the hands (24) is solved exactly only if the solver
finishes within ``nodes`` nodes (once one world does not, the others are not tried);
otherwise each card is valued by the **bounded search** (``engine/bounded.py``): every seat
plays the heuristic's card down to the horizon, the solver values the rest. A
``CardValues`` says how its worlds were valued (``exact_worlds``, ``method``).

**Match-win probability** (two sides only). In one world a card's value v is the
mover's side's points minus the other side's. High and Low are known in the world
(who was dealt the top and bottom trump in play), the jack's holder too; the outcomes
of Jack (its captor) and Game (who wins, or a tie) that give exactly v are found by
trying each (their total is then fixed; when two outcomes give v they differ only in
order, and the win probability is their mean). The points are added to the score at
the start of play in the strict order High, Low, Jack, Game, stopping at the target;
a side at the target has won (1 or 0), otherwise the equity table (``equity.py``,
every seat playing its policy) gives P(win) from the new score with the next dealer
to deal. This is an approximation: perfect play in the world maximises net points,
not the match-win probability.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import numpy as np

from ...game.cards import card_name, cards_of
from ...engine.bits import rng_state
from ...engine.bounded import BOUNDED_HORIZON, BOUNDED_NODES
from ...engine.layout import K_PIMC
from ...engine.layout import (
    N_STATE, PS_DEALER, PS_HAND, PS_IN_PLAY, PS_JACK_CAPTOR, PS_SCORE, PS_START, PS_TO_PLAY, PS_TRUMP,
)
from ...engine.search import bounded_world_values, cards_in_hands, new_play_buffer, sample_world, world_values
from ...engine.solver import NO_VALUE
from ...players.policy import default_row
from ...players.solve import Position
from ..bidding.equity import EquityTable
from ..stats import Estimate, estimate, paired_difference

GAME_TIES = ("none", "dealer-opponents", "non-dealer")
EXACT, BOUNDED = "exact", "bounded"  # how a decision's worlds were valued: every one by the solver, or not
CONTINUATION = default_row(K_PIMC)  # the row the bounded search's continuations play by (the heuristic's defaults)


@dataclass(frozen=True)
class Budget:
    """How big a world the solver takes whole: at most `horizon` cards in the hands, or above that within
    `nodes` nodes (0: never); the rest by the bounded search."""

    horizon: int = BOUNDED_HORIZON
    nodes: int = BOUNDED_NODES

    def exact_for(self, position: Position) -> bool:
        """Every world of `position` is solved whole (no budget needed)."""
        return cards_left(position) <= self.horizon


EXACT_ONLY = Budget(horizon=52, nodes=0)  # every world solved whole, whatever it costs


class Buffers:
    """The memory of card valuations (a play buffer with the search area, a world, a values row),
    allocated once: reuse one for many decisions (one thread)."""

    def __init__(self) -> None:
        self.play = new_play_buffer(True)
        self.world = new_play_buffer(True)
        self.row = np.zeros((1, 52), dtype=np.int64)


@dataclass
class CardValues:
    """Each legal card's value in every world: values[w, j] for card cards[j] (hand order).

    `win[w, j]` is the mover's side's match-win probability (None: three players, or no
    table); `worlds` 0 means the true position (one row)."""

    position: Position
    cards: list[int]
    values: np.ndarray
    win: np.ndarray | None
    worlds: int
    exact: bool = False  # the rows are every consistent deal (exact_card_values): the means have no error
    exact_worlds: int | None = None  # rows solved by the solver (the rest by the bounded search); None: all
    horizon: int = BOUNDED_HORIZON   # the bounded search's: cards in the hands where the solver takes over
    hands: np.ndarray | None = None  # each row's deal: the hands by seat (uint64, rows x players)
    weights: np.ndarray | None = None  # each row's weight, summing to 1 (the others' choices read); None: alike

    def weighted(self, weights: np.ndarray) -> CardValues:
        """The same values with each row weighed (``analysis.play.inference``: weights summing to 1)."""
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != (self.values.shape[0],):
            raise ValueError(f"one weight a row is needed: {self.values.shape[0]}, not {w.shape}")
        return dataclasses.replace(self, weights=w)

    @property
    def ess(self) -> float:
        """The effective number of rows: (sum w)^2 / sum w^2 (every row when unweighted)."""
        if self.weights is None:
            return float(self.values.shape[0])
        return float(self.weights.sum() ** 2 / (self.weights ** 2).sum())

    def means(self) -> np.ndarray:
        """Each card's mean value over the rows (weighted where they are)."""
        return self.values.mean(axis=0) if self.weights is None else self.weights @ self.values

    @property
    def method(self) -> str:
        """EXACT (every world solved) or BOUNDED (some valued by the bounded search)."""
        return EXACT if self.exact_worlds is None or self.exact_worlds == self.values.shape[0] else BOUNDED

    def method_note(self) -> str:
        """How the worlds were valued, in words."""
        rows = self.values.shape[0]
        if self.method == EXACT:
            return "every world solved exactly"
        return (f"bounded search: {self.exact_worlds} of {rows} worlds solved exactly within the node budget, "
                f"the others by the heuristic's play down to {self.horizon} cards, then the solver")

    @property
    def seat(self) -> int:
        return self.position.seat

    @property
    def names(self) -> list[str]:
        return [card_name(c) for c in self.cards]

    def index(self, card: int) -> int:
        return self.cards.index(card)

    def ev(self, j: int) -> Estimate:
        return _estimate(self.values[:, j], self.exact, self.weights)

    def win_prob(self, j: int) -> Estimate | None:
        return None if self.win is None else _estimate(self.win[:, j], self.exact, self.weights)

    @property
    def best_index(self) -> int:
        """The card of best mean value (the first in hand order among equals)."""
        return int(np.argmax(self.means()))

    @property
    def best(self) -> int:
        return self.cards[self.best_index]

    def loss(self, card: int) -> Estimate:
        """What playing `card` instead of the best card costs, world by world (>= 0 on average)."""
        j = self.index(card)
        b = self.best_index
        if j == b:
            return Estimate(0.0, 0.0, self.values.shape[0])
        return _paired(self.values[:, b], self.values[:, j], self.exact, self.weights)

    def win_loss(self, card: int) -> Estimate | None:
        """The match-win probability lost by `card` against the best card (by net points)."""
        if self.win is None:
            return None
        j, b = self.index(card), self.best_index
        if j == b:
            return Estimate(0.0, 0.0, self.win.shape[0])
        return _paired(self.win[:, b], self.win[:, j], self.exact, self.weights)

    def to_json(self) -> dict:
        out: dict = {}
        for j, name in enumerate(self.names):
            ev = self.ev(j)
            item = {"ev": ev.mean, "ev_ci95": list(ev.ci95), "ev_se": ev.se}
            wp = self.win_prob(j)
            if wp is not None:
                item.update(win_prob=wp.mean, win_prob_ci95=list(wp.clipped_ci95(0.0, 1.0)), win_prob_se=wp.se)
            out[name] = item
        return out


def _estimate(x: np.ndarray, exact: bool = False, weights: np.ndarray | None = None) -> Estimate:
    """A mean with its standard error; one value (the true position), or the mean over every consistent deal,
    is exact. With `weights` (summing to 1) the weighted mean, and for sampled rows the standard error
    sqrt(sum w (x - mean)^2 / (ess - 1)), ess = 1 / sum w^2 the effective number of rows (equal weights give the
    unweighted standard error; it widens as fewer rows carry the weight, where the importance-sampling error
    sqrt(sum w^2 (x - mean)^2) would shrink to nothing). Below two effective rows the spread of every row, unweighted,
    stands for the error: one deal carries the answer."""
    if weights is not None:
        mean = float(weights @ x)
        ess = float(1.0 / (weights ** 2).sum())
        if exact or x.shape[0] == 1:
            return Estimate(mean, 0.0, int(x.shape[0]))
        if ess >= 2.0:
            se = math.sqrt(float(weights @ ((x - mean) ** 2)) / (ess - 1.0))
        else:
            se = float(x.std(ddof=1))
        return Estimate(mean, se, max(1, int(round(ess))))
    if exact or x.shape[0] == 1:
        return Estimate(float(x.mean()), 0.0, int(x.shape[0]))
    return estimate(x)


def _paired(a: np.ndarray, b: np.ndarray, exact: bool = False, weights: np.ndarray | None = None) -> Estimate:
    if weights is not None:
        return _estimate(a - b, exact, weights)
    if exact or a.shape[0] == 1:
        return Estimate(float((a - b).mean()), 0.0, int(a.shape[0]))
    d = paired_difference(a, b)
    return Estimate(d.mean, 0.0 if not math.isfinite(d.se) else d.se, d.n)


def cards_left(position: Position) -> int:
    """Cards still in the hands (the solver's work grows about tenfold with each card per seat)."""
    return int(cards_in_hands(position.state))


def card_values(position: Position, worlds: int, rng: np.ndarray, equity: EquityTable | None = None,
                buffers: Buffers | None = None, budget: Budget = Budget()) -> CardValues:
    """Every legal card of the seat to move valued on `worlds` sampled worlds (0: the true position); worlds
    above the budget's horizon by the solver within its nodes, else by the bounded search (module docstring)."""
    b = buffers or Buffers()
    rules = position.rules
    r = rules.as_array()
    b.play[:] = 0
    b.play[:N_STATE] = position.state[:N_STATE]
    cards = position.legal_cards()
    rows = max(worlds, 1)
    values = np.zeros((rows, len(cards)), dtype=np.float64)
    win = np.zeros((rows, len(cards)), dtype=np.float64) if equity is not None and rules.sides == 2 else None
    seat = position.seat
    whole = budget.exact_for(position)
    nodes = budget.nodes
    exact = 0
    hands = np.zeros((rows, rules.players), dtype=np.int64)
    for w in range(rows):
        if worlds > 0:
            sample_world(b.play, seat, rng, b.world)
        else:
            b.world[:N_STATE] = b.play[:N_STATE]
        hands[w] = b.world[PS_HAND:PS_HAND + rules.players]
        if whole:
            _value_world(b, rules, r, cards, rng, equity, values[w], None if win is None else win[w])
            continue
        # -nodes: the exact search stopped at the budget (its move order and endings finish more worlds in it
        # than pimc's limited search, which keeps the order its answers were pinned with: engine/bounded.py)
        solved = bounded_world_values(b.world, r, 0, rng, b.row, CONTINUATION, budget.horizon, -nodes)
        exact += solved
        if not solved:
            nodes = 0  # as pimc does: a world the budget did not cover, so none of its like is tried again
        _card_row(b, rules, cards, equity, values[w], None if win is None else win[w])
    return CardValues(position, cards, values, win, worlds, exact_worlds=None if whole else exact,
                      horizon=budget.horizon, hands=hands.view(np.uint64))


def exact_card_values(position: Position, worlds: np.ndarray, equity: EquityTable | None = None,
                      buffers: Buffers | None = None) -> CardValues:
    """Every legal card of the seat to move valued in each of `worlds` (play states, one a row: every deal
    consistent with what the seat has seen, ``engine.worlds.world_states``): exact means, each deal alike."""
    b = buffers or Buffers()
    rules = position.rules
    cards = position.legal_cards()
    rows = worlds.shape[0]
    values = np.zeros((rows, len(cards)), dtype=np.float64)
    win = np.zeros((rows, len(cards)), dtype=np.float64) if equity is not None and rules.sides == 2 else None
    r = rules.as_array()
    rng = rng_state(np.random.SeedSequence(0))  # a solve of one open position draws nothing
    for w in range(rows):
        b.world[:] = 0
        b.world[:N_STATE] = worlds[w, :N_STATE]
        _value_world(b, rules, r, cards, rng, equity, values[w], None if win is None else win[w])
    hands = np.ascontiguousarray(worlds[:, PS_HAND:PS_HAND + rules.players]).view(np.uint64)
    return CardValues(position, cards, values, win, rows, exact=True, hands=hands)


def _value_world(b: Buffers, rules, r: np.ndarray, cards: list[int], rng: np.ndarray, equity: EquityTable | None,
                 values: np.ndarray, win: np.ndarray | None) -> None:
    """Solve the world in `b.world` open and write each card's value (and match-win chance) in the rows given."""
    world_values(b.world, r, 0, rng, b.row)
    _card_row(b, rules, cards, equity, values, win)


def _card_row(b: Buffers, rules, cards: list[int], equity: EquityTable | None, values: np.ndarray,
              win: np.ndarray | None) -> None:
    """The values the world in `b.world` left in `b.row`, for the cards given (and their match-win chances)."""
    for j, c in enumerate(cards):
        v = int(b.row[0, c])
        if v == NO_VALUE:  # pragma: no cover - a legal card always has a value
            raise AssertionError(f"no value for the legal card {card_name(c)}")
        values[j] = v
        if win is not None:
            win[j] = win_probability(b.world, rules, v, equity)  # type: ignore[arg-type]


# --- the match-win probability of a world's value --------------------------------------------


def _holder_side(state: np.ndarray, card: int, rules) -> int:
    for s in range(rules.players):
        if int(np.uint64(state[PS_START + s])) >> card & 1:
            return rules.side_of(s)
    return -1


def outcomes(state: np.ndarray, rules, value: int) -> list[list[tuple[int, int]]]:
    """The ways the deal's points can go (each a list of (side, points) in the strict order High, Low,
    Jack, Game) that give the mover's side net `value` in this world (two sides)."""
    mover = rules.side_of(int(state[PS_TO_PLAY]))
    in_play = int(np.uint64(state[PS_IN_PLAY]))
    fixed: list[tuple[int, int]] = []
    if in_play:
        fixed.append((_holder_side(state, in_play.bit_length() - 1, rules), 1))
        fixed.append((_holder_side(state, (in_play & -in_play).bit_length() - 1, rules), 1))
    jacks: list[list[tuple[int, int]]] = [[]]
    jack = int(state[PS_TRUMP]) * 13 + 9
    if in_play >> jack & 1:
        holder = _holder_side(state, jack, rules)
        captor = int(state[PS_JACK_CAPTOR])
        captors = [captor] if captor >= 0 else [0, 1]
        jacks = [[(c, 3 if rules.hang_jack and c != holder else 1)] for c in captors]
    dealer_side = rules.side_of(int(state[PS_DEALER]))
    games: list[list[tuple[int, int]]] = [[(0, 1)], [(1, 1)]]
    games.append([] if rules.game_tie == "none" else [(1 - dealer_side, 1)])
    found = []
    for j in jacks:
        for g in games:
            points = fixed + j + g
            net = sum(p if s == mover else -p for s, p in points)
            if net == value and points not in found:
                found.append(points)
    return found


def win_probability(state: np.ndarray, rules, value: int, equity: EquityTable) -> float:
    """P(the mover's side wins the match) if the deal's points go as perfect play with net `value`
    leaves them (module docstring)."""
    mover = rules.side_of(int(state[PS_TO_PLAY]))
    ways = outcomes(state, rules, value)
    if not ways:  # pragma: no cover - the solver's value is always one of them
        raise AssertionError(f"no outcome gives net {value}")
    next_dealer = rules.side_of((int(state[PS_DEALER]) + 1) % rules.players)
    total = 0.0
    for points in ways:
        score = [int(state[PS_SCORE + s]) for s in range(2)]
        winner = -1
        if max(score) >= rules.target:  # the match was already won (a scored log that goes on)
            winner = int(np.argmax(score))
        for side, p in points:
            if winner >= 0:
                break
            score[side] += p
            if score[side] >= rules.target:
                winner = side
        if winner >= 0:
            total += 1.0 if winner == mover else 0.0
        else:
            total += equity.win_prob(score, next_dealer, mover)
    return total / len(ways)


def describe_position(position: Position) -> str:
    """Who is to move where, and the cards left (for text output)."""
    return f"{position.describe()}; {cards_left(position)} cards left in the hands"


def hand_of(position: Position, seat: int | None = None) -> list[int]:
    s = position.seat if seat is None else seat
    return cards_of(int(np.uint64(position.state[PS_HAND + s])))
