"""Redo, in a finished report, every tournament of "How strong are the simulated players?" and nothing else.

A change in how tournaments draw their cards (each duplicate pair, and each deal of the run-deal duel, from
the seed and its own index: ``analysis.play.tournament``) moves every tournament of a report and the duel on
deals with runs, and nothing else: strategy tables, equity, equilibria, the play tips and how often the cards
are run do not play duplicate pairs. ``redo_strength`` plays them again with the report's own sizes and
seeds (``build.Sizes``; the same calls as ``build_report`` makes, so the numbers are the ones the full
command would write): the heuristic against random and the tuned player against the heuristic
(``sections.player_strength``), the search players' three pairings (``strength.search_strength``) and the
duel (``strength.run_deal_row``); then it replaces the section "How strong are the simulated players?" in
REPORT.md and report.html, tables/tournaments.*, tournaments.png, and "tournaments" and "run_deals" in
report.json (``scripts/reference_edition.py --tournaments``). How often the cards are run, stated in the
same section, is taken from report.json as it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..work.executor import Executor, LocalExecutor, source_fingerprint
from ..players.policy import pimc_worlds
from ..game.rules import RuleSet
from .build import Sizes, save_table
from .document import Document, splice_sections
from .searched import _Kept
from .sections import bidding_pairings, player_strength
from .strength import HEADING, run_deal_row, search_strength, strength_section

KEPT = ".redo-strength.json"


def redo_strength(rules: RuleSet, folder: Path, threads: int | None = None, executor: Executor | None = None,
                  say: Callable[[str], None] = lambda message: None) -> dict[str, Any]:
    """Play again every tournament of the finished report `folder` and its duel on deals with runs, and write
    its section "How strong are the simulated players?" again from them (module docstring); returns the
    numbers written into report.json. A report without tournaments (three players) is left as it is.

    Nothing in the report is touched until all are played; each finished step is kept in ``.redo-strength.json``
    beside the report's files, so the same call after an interruption starts after it (the file goes when the
    report is written)."""
    folder = Path(folder)
    numbers: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    if not numbers.get("tournaments"):
        say(f"{folder.name}: no tournaments (three players each play alone): nothing to redo")
        return numbers
    seed, sizes = int(numbers["seed"]), Sizes.from_deals(int(numbers["deals"]))
    pimc = numbers.get("pimc", "pimc")
    executor = executor if executor is not None else LocalExecutor(threads)
    kept = _Kept(folder / KEPT, {"pimc": pimc, "seed": seed, "sizes": sizes.__dict__, "engine": source_fingerprint()}, say)

    def players() -> list[dict[str, Any]]:
        say(f"{folder.name}: tournaments, {sizes.matches:,} matches per pairing")
        frame = player_strength(rules, bidding_pairings(folder), sizes.matches, seed, threads, executor)
        if frame is None:
            raise ValueError(f"{folder}: the tournaments could not be played again")
        return json.loads(frame.to_json(orient="records"))

    def searched() -> list[dict[str, Any]]:
        say(f"{folder.name}: the search players' tournaments, {sizes.search_matches:,} matches per pairing")
        frame = search_strength(rules, pimc, sizes.search_matches, seed, threads, executor=executor)
        if frame is None:
            raise ValueError(f"{folder}: the search players' tournaments could not be played again")
        return json.loads(frame.to_json(orient="records"))

    def duel() -> dict[str, Any] | None:
        say(f"{folder.name}: {pimc} against the pimc of before on deals with runs, {sizes.run_deals:,} deals")
        return run_deal_row(rules, pimc, sizes.run_deals, seed, threads, executor)

    rows = kept.step("tournaments", players)
    if sizes.search_matches > 0:
        rows = rows + kept.step("search-tournaments", searched)
        run = kept.step("run-deals", duel)
    else:
        run = None
    strength = pd.DataFrame(rows)
    doc = Document("section")
    strength_section(doc, folder, strength, run, rules, pimc, pimc_worlds(pimc), sizes.search_matches, numbers,
                     save_table, numbers.get("run_frequency"))
    splice_sections(folder, doc, HEADING, HEADING)
    (folder / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
    kept.path.unlink(missing_ok=True)
    return numbers
