"""Redo, in a finished report, the parts that the pimc search player measures, and nothing else.

When pimc changes (as when it began to search positions of more than 24 cards), three things in a report
move: how often pimc follows each play tip (the play tips' observation), its tournaments, and the row that
plays it against ``pimc:max_cards=24`` on deals with runs (``strength.run_deal_row``). Everything else (strategy
tables, equity, equilibria, the tips' own measurements, the heuristic's and the oracle's tournaments) is
unchanged, and a full report of a 10-million-deal edition takes most of an hour. ``redo_search_parts``
recomputes those three with the report's own sizes and seeds (``build.Sizes``; the same calls as
``build_report`` makes, so the numbers are the ones the full command would write), replaces the sections
"Play advice" and "How strong are the simulated players?" in REPORT.md and report.html, their tables and
chart, and their numbers in report.json (``scripts/reference_edition.py --search-players``). How often
the cards are run (``strength.run_frequencies``, stated in the same section) does not depend on pimc: it
is measured only when report.json lacks it.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.bidding.strategy import side_scores
from ..analysis.play.play_advice import TIPS, default_observe_deals, followed_by_player, observe_counts
from ..work.executor import Executor, LocalExecutor, source_fingerprint
from ..players.policy import pimc_worlds
from ..game.rules import RuleSet
from .build import SENSITIVITY_HEADING, Sizes, save_table, sensitivity_section
from .document import Document, splice_sections
from .play import HEADING as PLAY_HEADING
from .play import play_section_of
from .strength import HEADING as STRENGTH_HEADING
from .strength import run_deal_row, run_frequencies, search_strength, strength_section


def redo_search_parts(rules: RuleSet, folder: Path, pimc: str = "pimc", threads: int | None = None,
                      executor: Executor | None = None, say: Callable[[str], None] = lambda message: None,
                      observation_only: bool = False) -> dict[str, Any]:
    """Recompute pimc's play-tip observation, its tournaments and its duel on deals with runs in the finished
    report `folder` (module docstring); returns the numbers written into report.json. With `observation_only`
    only the observation is measured and the strength section is written from report.json's numbers as they
    are (for ``strength_redo.redo_strength`` to play every tournament after it, pimc's once).

    Nothing in the report is touched until all three are measured; each finished one is kept in
    ``.redo-search.json`` beside the report's files, so the same call after an interruption starts after it
    (the file goes when the report is written)."""
    folder = Path(folder)
    numbers = _report_numbers(rules, folder)
    claims = numbers["play_advice"]
    seed, sizes = int(numbers["seed"]), Sizes.from_deals(int(numbers["deals"]))
    executor = executor if executor is not None else LocalExecutor(threads)
    kept = _Kept(folder / KEPT, {"pimc": pimc, "seed": seed, "sizes": sizes.__dict__,
                                 "engine": source_fingerprint()}, say)  # as folder.Partial: another engine starts over

    def observe() -> list[list[int]]:
        deals = default_observe_deals(sizes.play_deals)
        say(f"{folder.name}: play tips: {pimc} observed on {deals:,} deals")
        return observe_counts(rules, pimc, deals, seed, side_scores(rules, None), executor).tolist()

    counts = np.array(kept.step("observation", observe), dtype=np.int64)
    strength, run = None, None
    if observation_only:
        strength = pd.DataFrame(numbers["tournaments"]) if numbers.get("tournaments") else None
        run = numbers.get("run_deals")
    elif numbers.get("tournaments"):
        def tournaments() -> list[dict[str, Any]]:
            say(f"{folder.name}: {pimc}'s tournaments, {sizes.search_matches:,} matches per pairing")
            frame = search_strength(rules, pimc, sizes.search_matches, seed, threads, skip=("oracle",),
                                    executor=executor)
            if frame is None:
                raise ValueError(f"{folder}: the tournaments could not be played again")
            return json.loads(frame.to_json(orient="records"))

        def duel() -> dict[str, Any] | None:
            say(f"{folder.name}: {pimc} against the pimc of before on deals with runs, {sizes.run_deals:,} deals")
            return run_deal_row(rules, pimc, sizes.run_deals, seed, threads, executor)

        searched = pd.DataFrame(kept.step("tournaments", tournaments))
        run = kept.step("run-deals", duel)
        earlier = pd.DataFrame(numbers["tournaments"])
        others = earlier[~earlier["a"].str.startswith("pimc")].reset_index(drop=True)
        oracle = others[others["a"] == "oracle"]
        strength = pd.concat([others[others["a"] != "oracle"], searched.iloc[:1], oracle, searched.iloc[1:]],
                             ignore_index=True)
    for tip, claim in zip(TIPS, claims):
        assert claim["switch"] == tip.switch, (claim["switch"], tip.switch)
        claim["followed_by_player"] = followed_by_player(tip, counts[tip.tip], pimc)
    runs = _run_frequency(rules, folder, numbers, sizes, executor, say)
    _write_sections(rules, folder, numbers, claims, strength, run, sizes, pimc, runs)
    kept.path.unlink(missing_ok=True)
    return numbers


def rewrite_search_parts(rules: RuleSet, folder: Path, threads: int | None = None,
                         say: Callable[[str], None] = lambda message: None) -> dict[str, Any]:
    """Write the sections of ``redo_search_parts`` again from the numbers already in the finished report's
    report.json (for a change in their words); only how often the cards are run is measured, and only when
    report.json does not hold it at the report's size. Returns the numbers."""
    folder = Path(folder)
    numbers = _report_numbers(rules, folder)
    sizes = Sizes.from_deals(int(numbers["deals"]))
    strength = pd.DataFrame(numbers["tournaments"]) if numbers.get("tournaments") else None
    runs = _run_frequency(rules, folder, numbers, sizes, LocalExecutor(threads), say)
    _write_sections(rules, folder, numbers, numbers["play_advice"], strength, numbers.get("run_deals"), sizes,
                    numbers.get("pimc", "pimc"), runs)
    return numbers


def _run_frequency(rules: RuleSet, folder: Path, numbers: dict[str, Any], sizes: Sizes, executor: Executor,
                   say: Callable[[str], None]) -> dict[str, Any]:
    """How often the cards are run, from report.json when it holds it at the report's size, else measured as
    the full report measures it (``strength.run_frequencies``: the report's bidding and its equilibrium's)."""
    found = numbers.get("run_frequency")
    if found and found["policy"]["deals"] == sizes.run_frequency:
        return dict(found)
    say(f"{folder.name}: how often the cards are run, {sizes.run_frequency:,} deals under each bidding")
    return run_frequencies(rules, numbers["policy"], folder / "equilibrium", sizes.run_frequency,
                           int(numbers["seed"]), executor)


def _report_numbers(rules: RuleSet, folder: Path) -> dict[str, Any]:
    numbers: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    if not numbers.get("play_advice"):
        raise ValueError(f"{folder}: its report.json holds no play tips to redo")
    return numbers


def _write_sections(rules: RuleSet, folder: Path, numbers: dict[str, Any], claims: list[dict[str, Any]],
                    strength: pd.DataFrame | None, run: dict[str, Any] | None, sizes: Sizes, pimc: str,
                    runs: dict[str, Any]) -> None:
    """The sections "Play advice" through "How strong are the simulated players?", their tables and chart, in
    place of the report's, and their numbers in its report.json."""
    doc = Document("section")
    play_section_of(doc, folder, claims, rules, numbers["policy"], sizes.play_deals, sizes.play_matches, pimc,
                    numbers, save_table)
    strength_section(doc, folder, strength, run, rules, pimc, pimc_worlds(pimc), sizes.search_matches, numbers,
                     save_table, runs)
    splice_sections(folder, doc, PLAY_HEADING, STRENGTH_HEADING)
    numbers["sizes"] = sizes.__dict__
    numbers["pimc"] = pimc
    (folder / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")


KEPT = ".redo-search.json"


class _Kept:
    """The finished steps of one redo, as JSON, under the options they were measured with."""

    def __init__(self, path: Path, key: dict[str, Any], say: Callable[[str], None] = lambda message: None) -> None:
        self.path, self.key, self.say = path, key, say
        found = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
        self.steps: dict[str, Any] = found.get("steps", {}) if found.get("key") == key else {}

    def step(self, name: str, compute: Callable[[], Any]) -> Any:
        if name not in self.steps:
            began = time.perf_counter()
            self.steps[name] = compute()
            self.say(f"{self.path.parent.name}: step {name} done in {time.perf_counter() - began:.1f} s")
            temp = self.path.with_name(self.path.name + ".tmp")
            temp.write_text(json.dumps({"key": self.key, "steps": self.steps}), encoding="utf-8")
            os.replace(temp, self.path)
        return self.steps[name]


def redo_sensitivity(folder: Path, sensitivity: Path) -> None:
    """Replace the finished report's section "Do the recommendations depend on the card player?" (and its table
    and numbers) by the one of the folder `sensitivity` (scripts/sensitivity.py's output)."""
    folder = Path(folder)
    numbers = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    doc = Document("section")
    sensitivity_section(doc, folder, Path(sensitivity), numbers)
    splice_sections(folder, doc, SENSITIVITY_HEADING, SENSITIVITY_HEADING)
    (folder / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
