"""The report's section "How strong are the simulated players?".

Duplicate-deal tournaments between the players the report uses (``sections.player_strength``),
and one duel on deals with runs (``analysis.play.tournament.run_deal_duel``): the report's pimc
against the same pimc as it was before the bounded search (``max_cards=24``: the heuristic's card
while more than 24 cards are in the hands). The two play every deal without a run alike, so only
deals with a run are played (twice, seats swapped) and A's net points per run deal is the measure.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.bidding.run_frequency import percent, run_frequency
from ..analysis.play.tournament import TournamentError, run_deal_duel, run_tournaments
from ..work.executor import Executor
from ..engine.layout import X_DOUBT
from ..game.rules import RuleSet
from ..players.policy import parse_policy
from .charts import tournament_chart
from .document import Document
from .sections import Pairing, strength_row

HEADING = "How strong are the simulated players?"
SEARCH_SEED = 10  # the search players' pairings are played from seed + 10, + 11, + 12
RUN_SEED = 20     # the duel on deals with runs from seed + 20
RUNS_SEED = 30    # how often the cards are run, from seed + 30
EQUILIBRIUM_BIDDING = "equilibrium:equilibrium"  # the report's equilibrium run, from inside the report folder
STRENGTH_COLUMNS = {"a": "player A", "b": "player B", "matches": "matches", "a_win_rate": "share A wins",
                    "a_minus_b_points_per_deal": "A minus B, points per deal"}


def pimc_model_words(pimc: str) -> str:
    """How a pimc spec weighs its worlds, in words (its ``model``; any ``doubt`` picks the heuristic's).

    >>> pimc_model_words("pimc:doubt=1")
    'every such world counted alike'
    """
    doubt = float(parse_policy(pimc)[1][X_DOUBT])
    if doubt < 0:
        return ("and weighed by how likely they make the others' bids and cards under a model of a sensible "
                "player: the bidding tables and graded card preferences, each with a floor, so an odd choice makes "
                "a world less likely, never impossible; docs/search.md")
    if doubt >= 1:
        return "every such world counted alike"
    return ("and weighed by how well they explain the others' bids and the opponents' cards, modelled as its own "
            f"rules would play them (`model=heuristic`: a world's weight times {doubt:g} for each choice those rules "
            "would not have made)")


def pimc_before(pimc: str) -> str | None:
    """The spec of `pimc` as it played before the bounded search (the heuristic's card above 24 cards); None
    when `pimc` already names its own max_cards.

    >>> pimc_before("pimc"), pimc_before("pimc:worlds=6"), pimc_before("pimc:max_cards=30")
    ('pimc:max_cards=24', 'pimc:worlds=6,max_cards=24', None)
    """
    if "max_cards" in pimc:
        return None
    return f"{pimc}{',' if ':' in pimc else ':'}max_cards=24"


def search_pairings(pimc: str) -> list[Pairing]:
    return [Pairing(pimc, "heuristic"), Pairing("oracle", "heuristic"), Pairing(pimc, "random")]


def search_strength(rules: RuleSet, pimc: str, matches: int, seed: int, threads: int | None,
                    skip: tuple[str, ...] = (), executor: Executor | None = None) -> pd.DataFrame | None:
    """The search players' tournaments (their seeds as in the report: seed + SEARCH_SEED + k); a pairing whose
    A is in `skip` is left out (the oracle's rows do not change with pimc). All on one executor (default
    `threads` local threads, all cores if None), each cut into tasks of a few pairs (``run_tournaments``), so
    every core and worker plays until the last pairs."""
    chosen = [(k, p) for k, p in enumerate(search_pairings(pimc)) if p.a not in skip]
    try:
        results = run_tournaments(rules, [(p.a, p.b, seed + SEARCH_SEED + k) for k, p in chosen], matches, threads,
                                  executor=executor)
    except TournamentError:
        return None
    return pd.DataFrame([strength_row(p, res) for (_, p), res in zip(chosen, results)])


def run_deal_row(rules: RuleSet, pimc: str, deals: int, seed: int, threads: int | None = None,
                 executor: Executor | None = None) -> dict[str, Any] | None:
    """`pimc` against itself before the bounded search on `deals` dealt deals (those with a run played twice);
    None with three players or when `pimc` fixes its own max_cards."""
    before = pimc_before(pimc)
    if before is None or rules.sides != 2 or deals < 1:
        return None
    try:
        duel = run_deal_duel(rules, pimc, before, deals, seed + RUN_SEED, threads=threads, executor=executor)
    except TournamentError:
        return None
    found = duel.as_dict()
    del found["rules"]
    return found


def run_frequencies(rules: RuleSet, policy: str, equilibrium_dir: Path, deals: int, seed: int,
                    executor: Executor | int = 1) -> dict[str, Any]:
    """How often the cards are run in `deals` deals from 0:0 under the report's bidding (`policy`) and under its
    bidding equilibrium (the run folder `equilibrium_dir`), both from seed + RUNS_SEED."""
    found: dict[str, Any] = {
        "policy": run_frequency(rules, policy, deals, seed + RUNS_SEED, executor),
        "equilibrium": run_frequency(rules, f"equilibrium:{equilibrium_dir}", deals, seed + RUNS_SEED, executor)}
    found["equilibrium"]["policy"] = EQUILIBRIUM_BIDDING  # where it is, said as from the report's folder
    found["seed"] = seed + RUNS_SEED
    return found


def runs_paragraph(doc: Document, runs: dict[str, Any], rules: RuleSet) -> None:
    """How often the cards are run under the report's bidding and under its equilibrium."""
    mine, eq = runs["policy"], runs["equilibrium"]
    after = "then every hand is cut back to six" if rules.discard else "and all of them are played"
    doc.paragraph(
        f"How often the cards are run (the dealer refusing the eldest's beg; each run deals {rules.run_cards} more "
        f"cards to everyone, {after}), "
        f"counted in {mine['deals']:,} deals from 0:0 under each bidding (seed {runs['seed']}): at least one run in "
        f"{percent(mine['at_least_one_run'])} of deals under the report's bidding (`{mine['policy']}`), "
        f"{percent(eq['at_least_one_run'])} under its bidding equilibrium (`{eq['policy']}`, from the report's "
        f"folder); two or more runs in {percent(mine['at_least_two_runs'])} and "
        f"{percent(eq['at_least_two_runs'])}; runs per deal {mine['runs_per_deal']:.3f} and "
        f"{eq['runs_per_deal']:.3f}.")


def strength_view(strength: pd.DataFrame, run: dict[str, Any] | None = None) -> pd.DataFrame:
    """The tournaments with plain column names and the 95% CIs as [a, b]; with `run`, its row last (no
    matches and no share of wins: points per run deal)."""
    view = strength[list(STRENGTH_COLUMNS)].rename(columns=STRENGTH_COLUMNS)
    view.insert(4, "share, 95% CI", [f"[{lo:.4f}, {hi:.4f}]" for lo, hi in zip(strength["ci_lo"], strength["ci_hi"])])
    view["points, 95% CI"] = [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(strength["points_ci_lo"],
                                                                          strength["points_ci_hi"])]
    if run is None:
        return view
    view["deals counted"] = "every deal of the matches"
    est = run["a_net_per_run_deal"]
    lo, hi = est["ci95"]
    row = {"player A": run["a"], "player B": run["b"], "matches": math.nan, "share A wins": math.nan,
           "share, 95% CI": "", "A minus B, points per deal": round(est["value"], 3),
           "points, 95% CI": f"[{lo:+.3f}, {hi:+.3f}]",
           "deals counted": f"{run['run_deals']:,} deals with a run (of {run['deals']:,} dealt), each twice"}
    view = pd.concat([view, pd.DataFrame([row])], ignore_index=True)
    view["matches"] = view["matches"].astype("Int64")
    return view


ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}


def where_they_differ(rules: RuleSet) -> str:
    """What the run-deal row can show under `rules`: the two players differ only in positions of more than 24
    cards, which some rules never reach (hands cut back to six after a run) and others only after several runs."""
    if rules.discard:
        return (" With these rules every hand is cut back to six cards after a run, so no position has more than "
                "24 cards in the hands and the two play alike everywhere: the row can only show zero.")
    cards, runs = rules.players * 6, 0
    while cards <= 24:
        cards, runs = cards + rules.players * rules.run_cards, runs + 1
    if runs <= 1:
        return ""
    return (f" With {rules.players} players the hands pass 24 cards only at a deal's {ORDINALS.get(runs, f'{runs}th')} "
            f"run, so the two differ only in the deals run {runs} times or more.")


def card_play_against_bidding(strength: pd.DataFrame) -> str:
    """What better bidding and better card play are each worth against the heuristic, in net points a deal
    (A minus B on the same duplicated deals, 95% CIs), from the tournament rows there are; "" with none."""
    def against(name: str) -> pd.Series | None:
        named = strength["a"].astype(str)
        rows = strength[((named == name) | named.str.startswith(name + ":")) & (strength["b"] == "heuristic")]
        return None if rows.empty else rows.iloc[0]

    rows = {label: against(label) for label in ("equilibrium", "tuned", "pimc", "oracle")}
    found = {label: r for label, r in rows.items() if r is not None}
    if not {"equilibrium", "tuned"} & found.keys() or not {"pimc", "oracle"} & found.keys():
        return ""
    parts = [f"better {'bidding' if label in ('equilibrium', 'tuned') else 'card play'} (`{label}`) "
             f"{r['a_minus_b_points_per_deal']:+.3f} [{r['points_ci_lo']:+.3f}, {r['points_ci_hi']:+.3f}]"
             for label, r in found.items()]
    return ("What card play is worth against bidding, each against the heuristic on the same duplicated deals "
            "(net points a deal, A minus B, 95% CIs): " + "; ".join(parts) + ". Only bidding changes in the "
            "first, only card play in the second (pimc and the oracle bid as the heuristic does).")


def strength_section(doc: Document, out: Path, strength: pd.DataFrame | None, run: dict[str, Any] | None,
                     rules: RuleSet, pimc: str, worlds: int, search_matches: int, numbers: dict[str, Any],
                     save_table: Callable[[pd.DataFrame, Path, str], str], runs: dict[str, Any] | None = None) -> None:
    """Write the section, tables/tournaments.csv, tournaments.png, numbers["tournaments"], ["run_deals"] and
    ["run_frequency"] (`runs`, from ``run_frequencies``)."""
    doc.heading(HEADING)
    if runs is not None:
        numbers["run_frequency"] = runs
    if strength is None:
        doc.paragraph("Tournaments need two sides; with three players each plays alone.")
        if runs is not None:
            runs_paragraph(doc, runs, rules)
        return
    view = strength_view(strength, run)
    path = save_table(view, out, "tournaments")
    numbers["tournaments"] = json.loads(strength.to_json(orient="records"))
    if run is not None:
        numbers["run_deals"] = run
    tournament_chart(strength, out / "tournaments.png", f"Duplicate-deal matches: {rules.preset}, "
                                                          f"{rules.players} players")
    doc.paragraph(
        "Every conclusion above assumes these players. `heuristic` plays by the named rules of "
        "`analyser/engine/heuristic.py`; `tuned` is the heuristic with the strategy tables' stand/beg and "
        "give/run choices (best responses); `equilibrium` is the heuristic bidding with the equilibrium's "
        f"probabilities (the strategy this report leads with). `{pimc}` samples {worlds} worlds of the cards it has not seen (consistent with the "
        f"play and the voids shown, {pimc_model_words(pimc)}), values each legal card in each world with every hand "
        "open and plays the best mean: exactly where at most 24 cards are in the hands or the solver finishes "
        "within its node budget, else by the bounded search (the heuristic's play to 24 cards, then the solver; "
        "docs/search.md). `oracle` solves the true deal, seeing every hand (it cheats: the ceiling of card play), "
        "and plays the heuristic's card while more than 24 cards are left. Both bid as the heuristic does "
        "(`analyser/engine/search.py`). Each match is played twice with the same cards and the seats swapped; "
        f"{search_matches:,} matches for each search-player pairing at this report's size (the matches column "
        "gives each row's own: when only pimc's parts were redone, the oracle's row is kept from the earlier run).")
    doc.image("tournaments.png", "Matches won by the first-named player (95% CI)")
    worth = card_play_against_bidding(strength)
    if worth:
        doc.paragraph(worth)
    if runs is not None:
        runs_paragraph(doc, runs, rules)
    if run is not None:
        est = run["a_net_per_run_deal"]
        doc.paragraph(
            f"The last row plays `{run['a']}` against `{run['b']}`, the same player as it was before it searched "
            "positions of more than 24 cards (the heuristic's card there), on deals with runs only: the two play "
            f"every other deal alike. {run['deals']:,} deals were dealt from 0:0; the {run['run_deals']:,} with a "
            f"run ({run['run_rate']:.1%}; {run['twice_run']:,} run twice) were each played twice, seats swapped "
            f"(`allfours tournament --a {run['a']} --b {run['b']} --run-deals {run['deals']} --seed {run['seed']}`). "
            f"`{run['a']}` nets {est['value']:+.3f} points per run deal (95% CI [{est['ci95'][0]:+.3f}, "
            f"{est['ci95'][1]:+.3f}])." + where_they_differ(rules))
    doc.table(view, "Tournaments", path)
