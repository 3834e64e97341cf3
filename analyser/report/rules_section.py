"""The report's "Rules of thumb fitted to the equilibrium" section, and its card.

``rules_part`` fits and measures (``analysis.bidding.rules_of_thumb``) and writes ``rules-of-thumb/``;
``rules_section`` adds the section to a document (the table of sizes 1-4 per role, the chosen rules, how
they shift near the target, the card as an image). ``add_to_edition`` adds just this section to a finished
report folder (the shipped editions: ``scripts/reference_edition.py --rules-of-thumb``) without running the
other parts again: the section is inserted before the play advice in REPORT.md and report.html, its numbers
into report.json, its files into manifest.json.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.bidding import rules_of_thumb as rot
from ..game.rules import RuleSet
from .card import RULES_FOLDER, Card, draw_card, edition_departures, near_words
from .card_play import edition_play
from .document import Document, save_table, splice_sections

HEADING = "Rules of thumb fitted to the equilibrium"
CARD_FILE = "card.png"
NEXT_HEADING = "Play advice"  # the section this one is placed before


def rules_part(rules: RuleSet, fit: rot.FitInput, deals: int, equity: Any, scores: pd.DataFrame | None,
               out: Path, executor: Any = None, say: Callable[[str], None] = lambda m: None) -> dict[str, Any]:
    """Fit, measure and write ``out/rules-of-thumb/``; returns rules.json's contents."""
    result = rot.fit_and_measure(rules, fit, deals, equity, scores, executor, None, say)
    rot.write(result, out / RULES_FOLDER)
    return result.to_json()


def table_view(thumbs: dict[str, Any]) -> pd.DataFrame:
    """One row per role and size: the rule, agreement and costs with their 95% CIs."""
    def ci(e: dict[str, Any] | None, scale: float, digits: int) -> str:
        if e is None:
            return "-"
        return f"{scale * e['mean']:+.{digits}f} [{scale * e['ci95'][0]:+.{digits}f}, {scale * e['ci95'][1]:+.{digits}f}]"

    return pd.DataFrame([{
        "role": r["role"], "size": r["size"], "lines": r["lines"], "rule": " ".join(r["text"]),
        "agreement %, 95% CI": f"{100 * r['agreement']['mean']:.1f} [{100 * r['agreement']['ci95'][0]:.1f}, "
                               f"{100 * r['agreement']['ci95'][1]:.1f}]",
        "cost, net points/deal": ci(r["cost_points"], 1, 4),
        "cost, match-win %-points/deal": ci(r["cost_win"], 100, 3),
        "fit loss": round(r["fit_loss"], 5),
        "on the card": "yes" if r["size"] == thumbs["chosen"][r["role"]] else ""} for r in thumbs["sizes"]])


def rules_section(doc: Document, out: Path, thumbs: dict[str, Any], card: Card | None,
                  save_table: Callable[[pd.DataFrame, Path, str], str], numbers: dict[str, Any]) -> None:
    numbers["rules_of_thumb_fitted"] = thumbs
    m, fit = thumbs["measure"], thumbs["fit"]
    doc.heading(HEADING)
    doc.paragraph(
        "The equilibrium's tables by hand class are right and hard to carry to the table. These are the best "
        "decision lists of 1 to 4 lines (the last line is the default) over what a player sees at a glance: "
        "the number of trumps, the ace, the jack and a low trump (2 to 5). Each was chosen by an exhaustive "
        "search to lose least against the equilibrium (the other role playing the equilibrium), on the "
        f"equilibrium's own {fit['deals']:,} deals (seed {fit['seed']}); its cost was then measured on "
        f"{m['deals']:,} fresh deals (seed {m['seed']}), every deal played stand, beg and give, beg and run on "
        "the same cards, so the rule and the equilibrium are compared on the same deals. Agreement: the share of "
        "the role's decisions where the rule takes the equilibrium's action. Costs per eldest decision deal, for "
        "the rule's side: net points at 0:0, and (two sides) points of match-win probability of one deal "
        "played from 0:0, scored by the equity table. A card shows the smallest list within "
        f"{rot.CLOSE_ENOUGH} net points per deal of the equilibrium, else the best of {rot.CARD_FALLBACK} lines.")
    view = table_view(thumbs)
    path = save_table(view, out, "rules-of-thumb")
    doc.table(view, "Rules of thumb by size, against the equilibrium (95% CIs)", path)
    chosen = []
    for role in ("eldest", "dealer"):
        row = next(r for r in thumbs["sizes"] if r["role"] == role and r["size"] == thumbs["chosen"][role])
        chosen.append(f"**{role.capitalize()}** ({row['lines']} line{'s' if row['lines'] > 1 else ''}): "
                      + " ".join(row["text"]))
    doc.bullets(chosen)
    doc.paragraph("Near the target, from the equilibrium at every score (match-win payoff): its actions at the "
                  "scores where a side needs "
                  f"{thumbs['near_target'][0]['needing'] if thumbs['near_target'] else rot.NEAR_TARGET} points "
                  "or fewer, summed up as the rule of the card's size that agrees with them on the most hands "
                  "(hands weighted by how often they are dealt at those scores).")
    doc.bullets(near_words(thumbs))
    if card is not None:
        draw_card(card, out / CARD_FILE)
        doc.image(CARD_FILE, f"The strategy card: `allfours card --rules {rules_name(thumbs)}`")
    doc.paragraph(f"Every size and role: `{RULES_FOLDER}/rules.csv`; the rules as data (conditions and actions, "
                  f"the table they compile to): `{RULES_FOLDER}/rules.json`. A size whose best list is no better "
                  "than a shorter one shows the shorter one (its lines column).")


def rules_name(thumbs: dict[str, Any]) -> str:
    return f"{thumbs['rules']['preset']} --players {thumbs['rules']['players']}"


def claims_of(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [{"claim": r["claim"], "verdict": r["verdict"], "estimate": float(r["estimate"]),
             "ci95": [float(x) for x in r["95% CI"].strip("[]").split(",")]} for _, r in frame.iterrows()]


def add_to_edition(rules: RuleSet, folder: Path, deals: int = rot.MEASURE_DEALS, executor: Any = None,
                   say: Callable[[str], None] = lambda m: None) -> dict[str, Any]:
    """Add (or replace) this section in the finished report `folder`, from its equilibrium run, equity table
    and at-every-score run; nothing else in the report is recomputed."""
    folder = Path(folder)
    scores_csv = folder / "equilibrium-scores" / "scores.csv"
    fit = rot.FitInput.of_run(folder / "equilibrium")
    fit.source = f"{folder.name}/equilibrium"
    thumbs = rules_part(rules, fit, deals, rot.edition_equity(rules, folder),
                        pd.read_csv(scores_csv) if scores_csv.is_file() else None, folder, executor, say)
    claims = claims_of(pd.read_csv(folder / "tables" / "advice.csv"))
    card = Card(rules, thumbs, claims, f"{folder.name}/{RULES_FOLDER}", f"{folder.name}/tables/advice.csv",
                edition_departures(rules, folder, thumbs), edition_play(rules, folder))
    doc = Document("section")
    numbers: dict[str, Any] = {}
    rules_section(doc, folder, thumbs, card, save_table, numbers)
    splice_sections(folder, doc, HEADING, HEADING, before=NEXT_HEADING)
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    report.update(numbers)
    (folder / "report.json").write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    manifest = folder / "manifest.json"
    if manifest.is_file():
        doc_m = json.loads(manifest.read_text(encoding="utf-8"))
        new = [f"{RULES_FOLDER}/rules.json", f"{RULES_FOLDER}/rules.csv", "tables/rules-of-thumb.csv",
               "tables/rules-of-thumb.parquet", CARD_FILE]
        doc_m["files"] = sorted(set(doc_m["files"]) | set(new))
        manifest.write_text(json.dumps(doc_m, indent=1) + "\n", encoding="utf-8")
    return thumbs
