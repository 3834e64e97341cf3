"""Redo, in a finished report, the parts that the pimc search player measures, and nothing else.

When pimc changes (issue 31: it now searches positions of more than 24 cards), three things in a report
move: how often pimc follows each play tip (the play tips' observation), its tournaments, and the new row
that plays it against itself as it was before (``strength.run_deal_row``). Everything else (strategy
tables, equity, equilibria, the tips' own measurements, the heuristic's and the oracle's tournaments) is
unchanged, and a full report of a 10-million-deal edition takes most of an hour. ``redo_search_parts``
recomputes those three with the report's own sizes and seeds (``build.Sizes``; the same calls as
``build_report`` makes, so the numbers are the ones the full command would write), replaces the sections
"Play advice" and "How strong are the simulated players?" in REPORT.md and report.html, their tables and
chart, and their numbers in report.json (``scripts/reference_edition.py --search-players``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.bidding.strategy import side_scores
from ..analysis.play.play_advice import TIPS, default_observe_deals, followed_by_player, observe_counts
from ..executor import Executor, LocalExecutor
from ..policy import pimc_worlds
from ..rules import RuleSet
from .build import SENSITIVITY_HEADING, Sizes, save_table, sensitivity_section
from .document import Document, splice_sections
from .play import HEADING as PLAY_HEADING
from .play import play_section_of
from .strength import HEADING as STRENGTH_HEADING
from .strength import run_deal_row, search_strength, strength_section


def redo_search_parts(rules: RuleSet, folder: Path, pimc: str = "pimc", threads: int | None = None,
                      executor: Executor | None = None,
                      say: Callable[[str], None] = lambda message: None) -> dict[str, Any]:
    """Recompute pimc's play-tip observation, its tournaments and its duel on deals with runs in the finished
    report `folder` (module docstring); returns the numbers written into report.json."""
    folder = Path(folder)
    numbers = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    seed, sizes = int(numbers["seed"]), Sizes.from_deals(int(numbers["deals"]))
    executor = executor if executor is not None else LocalExecutor(threads)
    doc = Document("section")
    claims = numbers.get("play_advice")
    if claims:
        observe = default_observe_deals(sizes.play_deals)
        say(f"{folder.name}: play tips: {pimc} observed on {observe:,} deals")
        counts = observe_counts(rules, pimc, observe, seed, side_scores(rules, None), executor)
        for tip, claim in zip(TIPS, claims):
            assert claim["switch"] == tip.switch, (claim["switch"], tip.switch)
            claim["followed_by_player"] = followed_by_player(tip, counts[tip.tip], pimc)
        play_section_of(doc, folder, claims, rules, numbers["policy"], sizes.play_deals, sizes.play_matches, pimc,
                        numbers, save_table)
    else:  # not measured (a policy without tip switches): the section stays as it is, only copied
        raise ValueError(f"{folder}: its report.json holds no play tips to redo")
    strength, run = None, None
    if numbers.get("tournaments"):
        earlier = pd.DataFrame(numbers["tournaments"])
        kept = earlier[~earlier["a"].str.startswith("pimc")].reset_index(drop=True)
        say(f"{folder.name}: {pimc}'s tournaments, {sizes.search_matches:,} matches per pairing")
        searched = search_strength(rules, pimc, sizes.search_matches, seed, threads, skip=("oracle",))
        if searched is None:
            raise ValueError(f"{folder}: the tournaments could not be played again")
        oracle = kept[kept["a"] == "oracle"]
        strength = pd.concat([kept[kept["a"] != "oracle"], searched.iloc[:1], oracle, searched.iloc[1:]],
                             ignore_index=True)
        say(f"{folder.name}: {pimc} against the pimc of before on deals with runs, {sizes.run_deals:,} deals")
        run = run_deal_row(rules, pimc, sizes.run_deals, seed, threads, executor)
    strength_section(doc, folder, strength, run, rules, pimc, pimc_worlds(pimc), sizes.search_matches, numbers,
                     save_table)
    splice_sections(folder, doc, PLAY_HEADING, STRENGTH_HEADING)
    numbers["sizes"] = sizes.__dict__
    numbers["pimc"] = pimc
    (folder / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
    return numbers


def redo_sensitivity(folder: Path, sensitivity: Path) -> None:
    """Replace the finished report's section "Do the recommendations depend on the card player?" (and its table
    and numbers) by the one of the folder `sensitivity` (scripts/sensitivity.py's output)."""
    folder = Path(folder)
    numbers = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    doc = Document("section")
    sensitivity_section(doc, folder, Path(sensitivity), numbers)
    splice_sections(folder, doc, SENSITIVITY_HEADING, SENSITIVITY_HEADING)
    (folder / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
