"""Redraw a finished report's charts from the numbers its folder keeps, computing nothing again.

`redraw_charts(folder)` draws, as the report build draws them:

* ``score-eldest.png`` and ``score-dealer.png`` from ``report.json``'s ``score_shifts`` (the what-ifs' rows);
* ``equity-heatmap.png`` from ``tables/equity.parquet`` (two sides only), with the equity's policy, size
  and rules from ``equilibrium-scores/scores.json`` and ``report.json``;
* ``equilibrium-scores/scores-eldest.png`` and ``scores-dealer.png`` from ``equilibrium-scores/scores.parquet``
  and ``scores.json`` (two sides only);
* ``strategy/beg-minus-stand.png`` and ``give-minus-run.png`` from ``strategy/eldest.parquet``,
  ``dealer.parquet`` and ``meta.json``.

Not the strategy card (``card.png``) nor ``tournaments.png``. A chart whose numbers the folder lacks is
left as it is. ``report.html`` embeds the charts: each redrawn chart's old image there is replaced by the new
one (nothing else in the page changes). `redraw_equity_heatmaps(folder)` redraws a folder of cached equity tables' heatmaps
(``NAME-heatmap.png`` beside ``NAME.parquet`` and ``NAME.json``, as ``allfours equity`` draws them). Used when
only the drawing changes (``scripts/redraw_charts.py``).
"""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..analysis.bidding.equilibrium import SCORES_FILE, draw_score_heatmaps
from ..analysis.bidding.equity import EquityTable, load_table
from ..analysis.bidding.strategy import draw_class_charts
from ..analysis.charts import equity_heatmap
from ..game.rules import RuleSet, rules_from_log
from ..record.vocabulary import ROLE_NAMES
from .charts import score_shift_chart

SCORES_FOLDER = "equilibrium-scores"
STRATEGY_FOLDER = "strategy"


def _json(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def score_shift_charts(shifts: pd.DataFrame, rules: RuleSet, out: Path) -> list[Path]:
    """``score-eldest.png`` and ``score-dealer.png`` from the score what-ifs' rows (the build's call)."""
    paths = []
    for seat in ("eldest", "dealer"):
        part = shifts[shifts["seat"] == seat].reset_index(drop=True)
        if len(part):
            paths.append(score_shift_chart(part, out / f"score-{seat}.png",
                                           f"{part['situation'].iloc[0]}: {rules.preset}, {rules.players} players"))
    return paths


def edition_equity(folder: Path, rules: RuleSet, report: dict[str, Any]) -> EquityTable | None:
    """The report's match-equity table as the build held it: p and se from ``tables/equity.parquet``, the
    policy it was estimated with (the one the by-score equilibrium was scored with, ``scores.json``'s
    ``play``), its deals per cell and seed from ``report.json``."""
    table = folder / "tables" / "equity.parquet"
    scores = _json(folder / SCORES_FOLDER / f"{SCORES_FILE}.json")
    if not table.is_file() or scores is None:
        return None
    t = rules.target
    frame = pd.read_parquet(table).sort_values(["dealer_score", "other_score"])
    if len(frame) != t * t:
        raise ValueError(f"{table}: expected {t * t} cells, found {len(frame)}")
    p = np.array(frame["p_dealer_wins"], dtype=np.float64).reshape(t, t)
    se = np.array(frame["se"], dtype=np.float64).reshape(t, t)
    return EquityTable(rules, str(scores["play"]), int(report["sizes"]["equity_per_cell"]), int(report["seed"]), p, se)


def redraw_charts(folder: Path) -> list[Path]:
    """Redraw the report in `folder`'s charts (the module's list) from its saved numbers; the paths drawn."""
    folder = Path(folder)
    report = _json(folder / "report.json")
    if report is None:
        raise FileNotFoundError(f"{folder}: no report.json (not a finished report folder)")
    rules = rules_from_log(report["rules"])
    before = {p: p.read_bytes() for p in folder.rglob("*.png")}
    drawn = _draw(folder, report, rules)
    embed(folder / "report.html", {before[p]: p.read_bytes() for p in drawn if p in before})
    return drawn


def embed(page: Path, images: dict[bytes, bytes]) -> None:
    """Swap each old image embedded in the page (base64) for its new one."""
    if not page.is_file():
        return
    text = original = page.read_text(encoding="utf-8")
    for old, new in images.items():
        text = text.replace(base64.b64encode(old).decode("ascii"), base64.b64encode(new).decode("ascii"))
    if text != original:
        page.write_text(text, encoding="utf-8")


def _draw(folder: Path, report: dict[str, Any], rules: RuleSet) -> list[Path]:
    drawn: list[Path] = []
    if report.get("score_shifts"):
        drawn += score_shift_charts(pd.DataFrame(report["score_shifts"]), rules, folder)
    equity = edition_equity(folder, rules, report)
    if equity is not None:
        drawn.append(equity_heatmap(equity, folder / "equity-heatmap.png"))
    scores = _json(folder / SCORES_FOLDER / f"{SCORES_FILE}.json")
    frame_path = folder / SCORES_FOLDER / f"{SCORES_FILE}.parquet"
    if scores is not None and frame_path.is_file():
        boot = scores.get("bootstrap") or {}
        drawn += draw_score_heatmaps(pd.read_parquet(frame_path), rules_from_log(scores["rules"]), str(scores["play"]),
                                     int(scores["deals_sampled"]), folder / SCORES_FOLDER,
                                     int(boot.get("resamples", 0)), int(boot.get("chunks", 0)))
    meta = _json(folder / STRATEGY_FOLDER / "meta.json")
    if meta is not None and all((folder / STRATEGY_FOLDER / f"{role}.parquet").is_file() for role in ROLE_NAMES):
        finals = {}
        for role in ROLE_NAMES:
            table = pd.read_parquet(folder / STRATEGY_FOLDER / f"{role}.parquet")
            finals[role] = table[table["final"]].reset_index(drop=True)
        drawn += draw_class_charts(finals, rules_from_log(meta["rules"]), tuple(meta["score"]), int(meta["deals"]),
                                   int(meta["seed"]), folder / STRATEGY_FOLDER)
    return drawn


def redraw_equity_heatmaps(folder: Path) -> list[Path]:
    """Each cached equity table's heatmap in `folder` (``NAME-heatmap.png``, where one was drawn) from the table
    (``NAME.parquet``) and its record (``NAME.json``: rules, policy, deals per cell, seed)."""
    drawn = []
    for record in sorted(Path(folder).glob("*.json")):
        image = record.with_name(record.stem + "-heatmap.png")
        table = record.with_suffix(".parquet")
        if not (image.is_file() and table.is_file()):
            continue
        doc = json.loads(record.read_text(encoding="utf-8"))
        found = load_table(table, rules_from_log(doc["rules"]), str(doc["policy"]), int(doc["deals_per_cell"]),
                           int(doc["seed"]))
        drawn.append(equity_heatmap(found, image))
    return drawn
