"""How often the cards are run, under a given bidding.

A run ("running the cards": the dealer refuses the eldest's beg) deals more cards to
everyone; in trinidad a 4-player deal with one run is played with 9 cards a hand, with
two 12. ``run_frequency`` plays `deals` deals from 0:0 with one policy's bidding and card
play and counts, per deal, how many runs it saw (the simulator's ``runs_hist_k``
counters), with Wilson 95% intervals. The report states it for its heuristic and its
equilibrium bidding; ``scripts/run_frequency.py`` for 4-player trinidad.
"""

from __future__ import annotations

from typing import Any

from ...work.executor import Executor
from ...game.rules import RuleSet
from ...players.simulate import CHUNK_DEALS
from .. import runner
from ..stats import percent as rate
from ..stats import wilson_ci


def run_frequency(rules: RuleSet, policy: str, deals: int, seed: int, executor: Executor | int = 1) -> dict[str, Any]:
    """Shares of `deals` deals of `policy` with at least one and at least two runs (each with its 95% CI),
    runs per deal and the histogram of runs per deal. Any number of threads gives the same numbers."""
    spec = runner.RunSpec.new(rules, [policy], seed, deals, CHUNK_DEALS)
    totals = runner.run(spec, executor)["totals"]
    lines = int(totals["lines"])
    hist = {int(k.rsplit("_", 1)[1]): int(v) for k, v in totals.items() if k.startswith("runs_hist_")}

    def share(k: int) -> dict[str, Any]:
        lo, hi = wilson_ci(k, lines)
        return {"deals": k, "share": k / lines, "ci95": [lo, hi]}

    at_least = {n: sum(v for r, v in hist.items() if r >= n) for n in (1, 2)}
    return {"policy": policy, "deals": lines, "runs_per_deal": int(totals["runs"]) / lines,
            "at_least_one_run": share(at_least[1]), "at_least_two_runs": share(at_least[2]),
            "runs_hist": {str(k): v for k, v in sorted(hist.items())}}


def percent(share: dict[str, Any]) -> str:
    """A share with its CI in words, as the report says its other intervals (``stats.percent`` for each figure):
    '37.3% (95% CI 37.1% to 37.5%)'."""
    low, high = share["ci95"]
    return f"{rate(share['share'])} (95% CI {rate(low)} to {rate(high)})"
