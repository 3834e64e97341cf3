"""The equilibrium at every score redone in a finished edition, with its bootstrap (each class's 95% CI at every
score, the heatmaps hatching what it does not settle): the same deals, seed, policy and equity table as the
edition's own run (``equilibrium-scores/scores.json``), so every point estimate is unchanged and only the
intervals are added. The by-score passage of the equilibrium's section is written again (with the section's end,
"The published advice against the equilibrium", from report.json), and report.json's "equilibrium_by_score";
nothing else is recomputed. ``scripts/reference_edition.py --scores``."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.bidding.equilibrium import SCORES_FILE, ScoresResult, run_all_scores, write_scores
from ..game.rules import RuleSet, rules_from_log
from .document import Document, save_table, splice_section_end

SCORES_FOLDER = "equilibrium-scores"
BY_SCORE_START = "By score: the same game"  # the first words of the by-score passage


def redo_scores(rules: RuleSet, folder: Path, threads: int | None = None,
                say: Callable[[str], None] = lambda message: None) -> ScoresResult:
    """Run the edition's equilibrium at every score again with its bootstrap (module docstring). Raises
    ValueError, changing nothing, if the edition is of other rules, has no at-every-score run or equity table,
    or if a point estimate would move (the engine has changed since: regenerate the edition instead)."""
    from ..analysis.bidding.rules_of_thumb import edition_equity
    from .advice import EQUILIBRIUM_SECTION, equilibrium_advice_section
    from .build import Sizes, equilibrium_by_score_section

    folder = Path(folder)
    numbers: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    meta_path = folder / SCORES_FOLDER / f"{SCORES_FILE}.json"
    if not meta_path.is_file():
        raise ValueError(f"{folder} has no equilibrium at every score ({meta_path.name} is missing)")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if rules_from_log(meta["rules"]).as_log_dict() != rules.as_log_dict():
        raise ValueError(f"{meta_path} was solved for other rules")
    equity = edition_equity(rules, folder)
    if equity is None:
        raise ValueError(f"{folder} holds no equity table for its equilibrium's bids")
    resamples = Sizes.from_deals(int(numbers["deals"])).score_resamples
    deals, seed, play, scheme = int(meta["deals_sampled"]), int(meta["seed"]), str(meta["play"]), str(meta["classes"])
    say(f"{folder.name}: the equilibrium at every score again, {deals:,} deals, seed {seed}, {resamples} "
        "bootstrap resamples")
    res = run_all_scores(rules, play, deals, seed, scheme, equity, None, threads=threads, resamples=resamples)
    before = pd.read_csv(folder / SCORES_FOLDER / f"{SCORES_FILE}.csv")
    after = res.frame()
    keys = ["eldest_score", "dealer_score", "role", "class"]
    joined = before[keys + ["p", "deals"]].merge(after[keys + ["p", "deals"]], on=keys, how="outer",
                                                 suffixes=("_before", "_after"), indicator=True)
    if (joined["_merge"] != "both").any() or not np.array_equal(joined["p_before"], joined["p_after"]) \
            or not np.array_equal(joined["deals_before"], joined["deals_after"]):
        raise ValueError(f"{folder.name}: the at-every-score run no longer reproduces the edition's point estimates "
                         "(the engine changed since it was made): regenerate the edition in full")
    write_scores(res, folder / SCORES_FOLDER)  # the same files as before, with the intervals
    doc = Document("section")
    equilibrium_by_score_section(doc, folder, res, numbers)
    if numbers.get("equilibrium_advice"):
        equilibrium_advice_section(doc, folder, numbers["equilibrium_advice"], save_table)
    splice_section_end(folder, doc, EQUILIBRIUM_SECTION, [BY_SCORE_START])
    path = folder / "report.json"
    part = path.with_suffix(".json.part")
    part.write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
    part.replace(path)
    return res
