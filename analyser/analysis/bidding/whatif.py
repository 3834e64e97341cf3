"""What-if: judge one stand/beg or give/run decision by paired Monte Carlo rollouts.

The decider knows its hand, the turn-up and the score; when the dealer decides, it
also knows that the eldest begged. The other cards are dealt at random around what
the decider knows (the dealer's sampled eldest hands are kept only when the eldest's
policy begs with them: a beg is information), and every option is played out on
the *same* sampled deal with the same random streams (common random numbers).

Seats in the kernels: the eldest is seat 0 and the dealer seat n - 1, so the
eldest's hand is deck positions 0..5, the dealer's 6(n-1)..6n-1, the turn-up 6n.
A ``Situation`` holds the score from the decider's side: ``OURS:THEIRS`` (2 sides),
or with 3 players ``OURS:NEXT:LAST`` (the decider, then the other two players in play
order after it). ``--score`` on the command line is the eldest's side first, the
dealer's last, as in every command; ``decider_score`` turns one into the other. They
are the scores before this deal: the turn-up's kick is added by the engine (and is
not part of any option's net points, since it came first).

Two measures per option: net points of the line (the decider's side's points minus
the other sides' together, from the decision to the end of the hand finally played,
gift, kicks of runs and redeals included), and the match-win probability: 1 or 0
when the line ends the match, else the equity table's value at the new score (or,
``win_by="playout"``, 1 or 0 from playing the match out). The table's own error is
not in the reported intervals; both options read the same table.

Deals come in batches of ``batch``; batch b has its own streams
``SeedSequence(seed, spawn_key=(b,))``, and the stopping rule is checked after each
batch in order, so a seed gives the same answer however many threads run batches.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np

from ..defaults import WHATIF_BATCH, WHATIF_MAX_DEALS, WHATIF_MIN_DEALS, WHATIF_STOP_Z
from ...game.cards import CardError, card_name, parse_card, parse_cards
from ...engine.bits import rng_state
from ...engine.deal import kick_points
from ...engine.decisions import evaluate_decision
from ...players.policy import parse_policy
from ...game.rules import KICKS, RuleSet
from .. import AnalysisError
from .equity import EquityTable
from ..stats import Estimate, estimate, paired_difference, prob_better, separated
from ...record.vocabulary import DEALER, ELDEST, ROLE_NAMES

SEATS = ROLE_NAMES
# Options per deciding seat, in the order shown: (name, force_beg, force_give); -1 leaves it to the policy.
OPTIONS = {role.name: tuple((role.options[flag], *role.forces(flag)) for flag in order)
           for role, order in ((ELDEST, (0, 1)), (DEALER, (1, 0)))}
MEASURES = ("win", "points")
WIN_BY = ("table", "playout")
BATCH = WHATIF_BATCH
MIN_DEALS = WHATIF_MIN_DEALS
MAX_DEALS = WHATIF_MAX_DEALS
STOP_Z = WHATIF_STOP_Z
MIN_TRIES = 200_000  # deck samples allowed per batch before a beg is called too unlikely


@dataclasses.dataclass(frozen=True)
class Situation:
    """What the decider knows, validated; seats as in the module docstring."""

    rules: RuleSet
    seat: str          # "eldest" or "dealer"
    hand: tuple[int, ...]
    turnup: int
    score: tuple[int, ...]  # decider's view: its side first

    @property
    def dealer(self) -> int:
        return self.rules.players - 1

    @property
    def decider(self) -> int:
        return 0 if self.seat == "eldest" else self.dealer

    def side_scores(self) -> np.ndarray:
        """Scores by side number (int64[4]) from the decider's view."""
        out = np.zeros(4, dtype=np.int64)
        n = self.rules.players
        mine = self.rules.side_of(self.decider)
        if self.rules.sides == 2:
            out[mine], out[1 - mine] = self.score
        else:
            for k in range(n):
                out[(self.decider + k) % n] = self.score[k]
        return out

    def eldest_first(self) -> tuple[int, ...]:
        """The score the eldest's side first, the dealer's last (as ``--score`` gives it)."""
        return tuple(int(x) for x in self.side_scores()[:self.rules.sides])

    def score_words(self) -> str:
        """The score named by side from the decider's chair: ``your side 6, theirs 11``; ``you 6, the dealer
        11``; ``you 3, the player after you 5, the dealer 1``."""
        n = self.rules.players
        names = {0: "the eldest", n - 1: "the dealer"}
        if n == 3:
            names[1] = "the player after " + ("you" if self.seat == "eldest" else "the eldest")
        return score_words(self.rules, [int(x) for x in self.side_scores()], self.decider, lambda s: names[s])

    def known_deck(self) -> tuple[np.ndarray, np.ndarray]:
        """Deck positions the decider knows (-1 elsewhere) and the unknown cards."""
        n = self.rules.players
        known = np.full(52, -1, dtype=np.int64)
        start = 0 if self.seat == "eldest" else 6 * (n - 1)
        known[start:start + 6] = self.hand
        known[6 * n] = self.turnup
        rest = np.array(sorted(set(range(52)) - set(self.hand) - {self.turnup}), dtype=np.int64)
        return known, rest


def score_words(rules: RuleSet, by_side: list[int] | tuple[int, ...], me: int,
                name: Callable[[int], str] = lambda s: f"seat {s}") -> str:
    """A score (`by_side`, side numbers) named from seat `me`'s chair: with partners ``your side 6, theirs 11``;
    two players ``you 6, seat 1 11``; three ``you 3, seat 1 5, seat 2 1`` (yours first, the others by seat
    number, as ``play`` and ``record`` say it), `name` naming the other seats.

    >>> from analyser.game.rules import make_rules
    >>> score_words(make_rules("trinidad"), [6, 11], 3), score_words(make_rules("classic", 3), [3, 5, 1], 2)
    ('your side 11, theirs 6', 'you 1, seat 0 3, seat 1 5')
    """
    n = rules.players
    mine = rules.side_of(me)
    if n == 4:
        return f"your side {by_side[mine]}, theirs {by_side[1 - mine]}"
    others = [s for s in range(n) if s != me]
    return ", ".join([f"you {by_side[mine]}"] + [f"{name(s)} {by_side[rules.side_of(s)]}" for s in others])


def parse_score(text: str, rules: RuleSet) -> tuple[int, ...]:
    """``OURS:THEIRS`` (or ``OURS:NEXT:LAST`` with 3 players), every score below the target."""
    parts = text.replace(" ", "").split(":")
    want = rules.sides
    shape = "OURS:THEIRS" if want == 2 else "OURS:NEXT:LAST"
    if len(parts) != want or not all(p.isdigit() for p in parts):
        raise AnalysisError(f"bad score {text!r}: expected {shape} with {want} whole numbers, e.g. {'10:12' if want == 2 else '3:5:1'}")
    score = tuple(int(p) for p in parts)
    for s in score:
        if s >= rules.target:
            raise AnalysisError(f"bad score {text!r}: every score must be below the target {rules.target}")
    return score


def decider_score(score: tuple[int, ...], rules: RuleSet, seat: str) -> tuple[int, ...]:
    """A score given the eldest's side first and the dealer's last (``--score`` in every command)
    as the what-if reads it: the decider's side first, then the others in play order after it.

    >>> from analyser.game.rules import make_rules
    >>> decider_score((10, 12), make_rules("trinidad"), "dealer"), decider_score((1, 2, 3), make_rules("classic", 3), "dealer")
    ((12, 10), (3, 1, 2))
    """
    decider = 0 if seat == "eldest" else rules.players - 1
    if rules.sides == 2:
        mine = rules.side_of(decider)
        return score[mine], score[1 - mine]
    return tuple(score[(decider + k) % rules.players] for k in range(rules.players))


def make_situation(rules: RuleSet, hand: str, turnup: str, seat: str, score: str) -> Situation:
    """Read and check a what-if's input; errors are AnalysisError/CardError with a clear message."""
    if seat not in SEATS:
        raise AnalysisError(f"unknown seat {seat!r}: choose eldest or dealer")
    cards = parse_cards(hand, count=6, what="hand")
    up = parse_card(turnup)
    if up in cards:
        raise CardError(f"the turn-up {card_name(up)} is also in the hand")
    sit = Situation(rules, seat, tuple(cards), up, parse_score(score, rules))
    scores = sit.side_scores()
    kick = kick_points(KICKS.index(rules.kick), up)
    dside = rules.side_of(sit.dealer)
    if scores[dside] + kick >= rules.target:
        raise AnalysisError(f"the turn-up {card_name(up)} kicks {kick} and wins the match for the dealer's side "
                            "before anyone decides")
    return sit


@dataclasses.dataclass
class WhatIfResult:
    situation: Situation
    policy: str
    measure: str             # what the recommendation and the stopping rule use
    win_by: str
    names: tuple[str, ...]
    net: np.ndarray          # float64[deals, options]
    win: np.ndarray
    stopped_by: str          # "separated" or "max-deals"
    stop_z: float
    beg_rate: float | None   # dealer: fraction of sampled eldest hands that beg
    equity_path: str | None = None

    @property
    def deals(self) -> int:
        return int(self.net.shape[0])

    def values(self, measure: str | None = None) -> np.ndarray:
        return self.win if (measure or self.measure) == "win" else self.net

    def ev(self, j: int) -> Estimate:
        return estimate(self.net[:, j])

    def win_prob(self, j: int) -> Estimate:
        return estimate(self.win[:, j])

    @property
    def best_index(self) -> int:
        return int(np.argmax(self.values().mean(axis=0)))

    @property
    def best(self) -> str:
        return self.names[self.best_index]

    @property
    def runner_up(self) -> int:
        return 1 - self.best_index

    def difference(self, measure: str) -> Estimate:
        """Best minus runner-up, paired deal by deal."""
        v = self.values(measure)
        return paired_difference(v[:, self.best_index], v[:, self.runner_up])

    @property
    def p_best(self) -> float:
        return prob_better(self.difference(self.measure))

    def to_json(self) -> dict:
        options = {}
        for j, name in enumerate(self.names):
            ev, wp = self.ev(j), self.win_prob(j)
            options[name] = {"ev": ev.mean, "ev_ci95": list(ev.ci95), "ev_se": ev.se, "win_prob": wp.mean,
                             "win_prob_ci95": list(wp.clipped_ci95(0.0, 1.0)), "win_prob_se": wp.se}
        diff: dict[str, float | list[float]] = {}
        for key, m in (("ev", "points"), ("win_prob", "win")):
            d = self.difference(m)
            diff[key] = d.mean
            diff[key + "_ci95"] = list(d.ci95)
        sit = self.situation
        return {
            "options": options, "best": self.best, "deals": self.deals,
            "difference": {"of": f"{self.best} - {self.names[self.runner_up]}", **diff},
            "p_best": self.p_best, "measure": self.measure, "stopped_by": self.stopped_by, "stop_z": self.stop_z,
            "win_by": self.win_by, "equity_table": self.equity_path, "beg_rate": self.beg_rate,
            "rules": sit.rules.as_log_dict(), "policy": self.policy, "seat": sit.seat,
            "hand": [card_name(c) for c in sit.hand], "turnup": card_name(sit.turnup), "score": list(sit.score),
            "score_order": "the decider's side first", "score_eldest_first": list(sit.eldest_first()),
        }


def batch_rngs(seed: int, index: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Card, choice and beg-sampling streams of batch `index`."""
    cards, choices, begs = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(3)
    return rng_state(cards), rng_state(choices), rng_state(begs)


def run_batch(sit: Situation, policy: str, equity: np.ndarray, playout: bool, seed: int, index: int, size: int,
              record: bool = False) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
    """One batch: (net, win, deck samples tried, first deals if `record`)."""
    n = sit.rules.players
    kind, row = parse_policy(policy)
    kinds = np.full(n, kind, dtype=np.int64)
    params = np.tile(row, (n, 1))
    opts = OPTIONS[sit.seat]
    force_beg = np.array([o[1] for o in opts], dtype=np.int64)
    force_give = np.array([o[2] for o in opts], dtype=np.int64)
    known, rest = sit.known_deck()
    net = np.zeros((size, len(opts)), dtype=np.float64)
    win = np.zeros((size, len(opts)), dtype=np.float64)
    first = np.zeros((size if record else 0, len(opts), n + 1), dtype=np.int64)
    deck_rng, rng, beg_rng = batch_rngs(seed, index)
    max_tries = max(MIN_TRIES, 1000 * size)
    done, tries = evaluate_decision(sit.rules.as_array(), sit.dealer, sit.decider, sit.side_scores(), known, rest,
                                    force_beg, force_give, kinds, params, equity, playout, deck_rng, rng, beg_rng,
                                    max_tries, net, win, first)
    if done < size:
        raise AnalysisError(f"the eldest's policy begged with only {done} of {tries} sampled hands: "
                            "a beg is too unlikely here to judge the dealer's answer")
    return net, win, tries, first


def what_if(sit: Situation, policy: str, *, seed: int = 1, equity: EquityTable | None = None,
            win_by: str = "table", measure: str = "win", max_deals: int = MAX_DEALS, min_deals: int = MIN_DEALS,
            stop_z: float = STOP_Z, batch: int = BATCH, threads: int | None = None,
            progress: Callable[[int], None] | None = None) -> WhatIfResult:
    """Play batches of paired deals until the best option leads by `stop_z` standard
    errors of the difference (after `min_deals`), or `max_deals` are played."""
    if measure not in MEASURES or win_by not in WIN_BY:
        raise ValueError(f"measure must be one of {MEASURES} and win_by one of {WIN_BY}")
    if win_by == "table":
        if equity is None:
            raise ValueError("win_by='table' needs an equity table")
        if equity.target != sit.rules.target or sit.rules.sides != 2:
            raise ValueError("the equity table does not match these rules")
        table = np.ascontiguousarray(equity.p, dtype=np.float64)
    else:
        table = np.zeros((1, 1), dtype=np.float64)
    parse_policy(policy)  # a bad spec fails here, not in a worker thread
    names = tuple(o[0] for o in OPTIONS[sit.seat])
    sizes = [min(batch, max_deals - b) for b in range(0, max_deals, batch)]
    nets: list[np.ndarray] = []
    wins: list[np.ndarray] = []
    tries = 0
    stopped_by = "max-deals"
    workers = max(1, threads or os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending: dict[int, Future] = {}
        for index, size in enumerate(sizes):
            for ahead in range(index, min(index + workers, len(sizes))):
                if ahead not in pending:
                    pending[ahead] = pool.submit(run_batch, sit, policy, table, win_by == "playout", seed, ahead,
                                                 sizes[ahead])
            net, win, used, _ = pending.pop(index).result()
            nets.append(net)
            wins.append(win)
            tries += used
            if progress:
                progress(size)
            done = sum(x.shape[0] for x in nets)
            if done >= min_deals:
                values = np.concatenate(wins if measure == "win" else nets)
                best = int(np.argmax(values.mean(axis=0)))
                if separated(paired_difference(values[:, best], values[:, 1 - best]), stop_z):
                    stopped_by = "separated"
                    break
        for future in pending.values():
            future.cancel()
    net_all = np.concatenate(nets)
    beg_rate = net_all.shape[0] / tries if sit.seat == "dealer" else None
    return WhatIfResult(sit, policy, measure, win_by, names, net_all, np.concatenate(wins), stopped_by, stop_z,
                        beg_rate)
