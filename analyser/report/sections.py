"""The report's measurements that are not strategy tables: how decisions move with
the score, and how strong the simulated players are."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.bidding.equity import EquityTable
from ..analysis.stats import paired_difference
from ..analysis.bidding.whatif import make_situation, what_if
from ..game.rules import RuleSet
from ..analysis.play.tournament import TournamentError, TournamentResult, run_tournaments
from ..work.executor import Executor

# Two hands whose decision the score can turn (turn-up 9♠, no kick in any preset):
# an eldest with no trump, and a dealer with two middling trumps facing a beg.
SCORE_HANDS = {
    "eldest": ("KH 8H 5D 3D QC 7C", "9S", "eldest with no trump (K♥ 8♥ 5♦ 3♦ Q♣ 7♣), turn-up 9♠"),
    "dealer": ("QS 7S KD 9D 4C 2H", "9S", "dealer with Q♠ 7♠ K♦ 9♦ 4♣ 2♥, turn-up 9♠, the eldest begged"),
}


def score_points(rules: RuleSet) -> list[tuple[tuple[int, ...], str]]:
    """Scores to test, the decider's side first, with a label (the table shows them the eldest's side
    first, as ``--score`` takes them)."""
    t = rules.target
    if rules.sides == 3:
        return [((0, 0, 0), "level at 0"), ((0, t - 1, 0), "next player one point from winning"),
                ((t - 1, 0, 0), "decider one point from winning")]
    grid = [((0, 0), "level at 0"), ((t - 2, t - 2), f"level at {t - 2}"),
            ((0, t - 1), "opponents one point from winning"), ((t - 1, 0), "decider one point from winning")]
    return [(s, label) for s, label in grid if min(s) >= 0]


def score_shifts(rules: RuleSet, policy: str, equity: EquityTable | None, seed: int, max_deals: int,
                 threads: int | None) -> pd.DataFrame:
    """For each test hand and score: both options' match-win probability and their
    difference, from paired what-ifs (win probability from the equity table, or
    from playing the match out where there is no table)."""
    rows = []
    for seat, (hand, turnup, situation) in SCORE_HANDS.items():
        for k, (score, label) in enumerate(score_points(rules)):
            sit = make_situation(rules, hand, turnup, seat, ":".join(map(str, score)))
            res = what_if(sit, policy, seed=seed + k, equity=equity, win_by="table" if equity else "playout",
                          measure="win", max_deals=max_deals, min_deals=min(2000, max_deals),
                          batch=min(2000, max_deals), threads=threads)
            first, second = res.names
            d = paired_difference(res.values("win")[:, 0], res.values("win")[:, 1])
            w0, w1 = res.win_prob(0), res.win_prob(1)
            rows.append({
                "seat": seat, "situation": situation, "score": ":".join(map(str, sit.eldest_first())),
                "score_label": label,
                "first": first, "second": second, "deals": res.deals,
                "win_first": round(w0.mean, 4), "win_second": round(w1.mean, 4),
                "win_diff": d.mean, "win_diff_lo": d.ci95[0], "win_diff_hi": d.ci95[1],
                "favours": first if d.ci95[0] > 0 else second if d.ci95[1] < 0 else "too close to call",
            })
    return pd.DataFrame(rows)


@dataclass
class Pairing:
    a: str
    b: str
    a_label: str = ""
    b_label: str = ""


def bidding_pairings(folder: Path) -> list[Pairing]:
    """The report's tournaments of bidding: the heuristic against random, then the tuned player (the strategy
    tables, best responses) and the equilibrium's bidding, each against the heuristic; pairing k plays from
    seed + k, so the pairings before a new one keep their numbers."""
    folder = Path(folder)
    return [Pairing("heuristic", "random"), Pairing(f"tuned:{folder / 'strategy'}", "heuristic", "tuned"),
            Pairing(f"equilibrium:{folder / 'equilibrium'}", "heuristic", "equilibrium")]


def player_strength(rules: RuleSet, pairings: list[Pairing], matches: int, seed: int,
                    threads: int | None, executor: Executor | None = None) -> pd.DataFrame | None:
    """Duplicate-deal tournaments between the policies the report uses (None with 3 players): pairing k from
    seed + k, all on one executor (default `threads` local threads, all cores if None)."""
    try:
        results = run_tournaments(rules, [(p.a, p.b, seed + k) for k, p in enumerate(pairings)], matches, threads,
                                  executor=executor)
    except TournamentError:
        return None
    return pd.DataFrame([strength_row(p, res) for p, res in zip(pairings, results)])


def strength_row(p: Pairing, res: TournamentResult) -> dict[str, Any]:
    """A tournament's row of the report's table of tournaments."""
    lo, hi = res.a_win_rate_ci95
    return {"a": p.a_label or p.a, "b": p.b_label or p.b, "matches": res.matches, "a_win_rate": round(res.a_win_rate.mean, 4),
            "ci_lo": round(lo, 4), "ci_hi": round(hi, 4),
            "a_minus_b_points_per_deal": round(res.diff_points_per_deal.mean, 3),
            "points_ci_lo": round(res.diff_points_per_deal.ci95[0], 3),
            "points_ci_hi": round(res.diff_points_per_deal.ci95[1], 3)}
