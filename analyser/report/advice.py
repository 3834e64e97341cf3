"""The report's words on the published bidding advice: the section "The published advice, tested" (the best
responses of ``analysis.bidding.advice``) and, at the end of the equilibrium's section, "The published advice
against the equilibrium" (its readings of the eldest's two claims).

Each verdict comes with what the deals say to do, in a player's words ("contradicted: always beg"), and a
sentence with the measured number. Both are written from the claims' numbers alone (report.json keeps them), so
a finished report's two passages can be written again without measuring anything (``rewrite_advice_sections``,
``scripts/reference_edition.py --advice-sections``) and read exactly as a new report's. ``redo_advice``
(``--advice``) measures the best-response claims of a finished report again, with its own sizes and seed, and
writes what is built from them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..analysis.bidding.advice import BOOTSTRAP_DRAWS, GIVE_STRENGTH, SHARE_CI_PLAIN, SHARE_CI_WORDS
from ..analysis.stats import percent
from ..game.rules import RuleSet
from .document import Document, splice_section_end, splice_sections

HEADING = "The published advice, tested"
EQUILIBRIUM_SECTION = "The bidding game's equilibrium"
EQUILIBRIUM_HEADING = "The published advice against the equilibrium"  # the end of EQUILIBRIUM_SECTION
# Where that passage began before it had a heading of its own (the reports of before, as Markdown).
EQUILIBRIUM_BEFORE = "The eldest's two claims of "
SaveTable = Callable[[pd.DataFrame, Path, str], str]

# The check's words for how it drew a share's 95% CI before (reports of before keep them), and the same said so
# that a player can follow it; the check's words now: SHARE_CI_WORDS, SHARE_CI_PLAIN.
BOOTSTRAP_WORDS = "CI by parametric bootstrap over the sub-class estimates"
BOOTSTRAP_PLAIN = (f"95% CI: the share worked out again {BOOTSTRAP_DRAWS:,} times, each time with every sub-class's "
                   "mean redrawn within its standard error and the sub-classes' deal counts redrawn, the middle 95% "
                   "of those shares")


def _kind(claim: dict[str, Any]) -> str:
    """The claim's id without the ``-equilibrium`` of its reading against the equilibrium."""
    return str(claim["id"]).removesuffix("-equilibrium")


def _measured(claim: dict[str, Any]) -> bool:
    return isinstance(claim.get("estimate"), (int, float)) and math.isfinite(claim["estimate"])


def _share_words(p: float, yes: str, no: str) -> str:
    """What a share or probability of doing `yes` says to do: always one, mostly one, ..."""
    if p >= 0.995:
        return f"always {yes}"
    if p <= 0.005:
        return f"always {no}"
    return f"mostly {yes} ({yes} {percent(p)})" if p > 0.5 else f"mostly {no} ({yes} {percent(p)})"


def _sign_words(claim: dict[str, Any], yes: str, no: str) -> str:
    """What a difference (`yes` minus `no`, with its 95% CI) says to do: one of them, or too close to call."""
    lo, hi = claim["ci95"]
    return yes if lo > 0 else no if hi < 0 else "too close to call"


def finding(claim: dict[str, Any]) -> str:
    """What the claim's deals say to do, in a few words: "always beg", "stand", "run", "too close to call"."""
    if not _measured(claim):
        return "not measured"
    kind, equilibrium = _kind(claim), claim.get("method") == "equilibrium"
    if kind == "eldest-zero-trump-begs-70-80" or (equilibrium and kind == "eldest-beg-missing-ace-or-jack"):
        return _share_words(claim["estimate"], "beg", "stand")
    if kind == "eldest-beg-missing-ace-or-jack":
        return _sign_words(claim, "beg", "stand")
    if kind == "dealer-run-strong-side-suit":
        return _sign_words(claim, "run", "give")
    if kind == "dealer-give-when-strong":
        return _sign_words(claim, "give", "run")
    return ""


def _points(claim: dict[str, Any], yes: str, no: str, hands: str) -> str:
    """`hands`, the better of `yes` and `no` (a difference yes minus no) and by how much, with the 95% CI."""
    d, (lo, hi) = claim["estimate"], claim["ci95"]
    if d < 0:
        yes, no, d, lo, hi = no, yes, -d, -hi, -lo
    return f"{hands}, {yes} beats {no} by {d:.3f} net points per deal (95% CI {lo:.3f} to {hi:.3f})."


def measured(claim: dict[str, Any]) -> str:
    """The sentence with the number behind the finding."""
    if not _measured(claim):
        return "Not measured."
    kind, (lo, hi) = _kind(claim), claim["ci95"]
    if claim.get("method") == "equilibrium":
        which = ("the eldest's hands without trump" if kind == "eldest-zero-trump-begs-70-80"
                 else "the eldest's hands with trump but not both the ace and the jack of trump")
        return (f"At the equilibrium, P(beg) over {which} is {claim['estimate']:.3f} (95% CI {lo:.3f} to {hi:.3f}); "
                f"the best response said: {claim.get('best_response_verdict', '-')}.")
    if kind == "eldest-zero-trump-begs-70-80":
        return (f"Begging beats standing for {percent(claim['estimate'])} of the eldest's hands without trump "
                f"(95% CI {percent(lo)} to {percent(hi)}).")
    if kind == "eldest-beg-missing-ace-or-jack":
        return _points(claim, "begging", "standing", "With trump but not both the ace and the jack of trump")
    if kind == "dealer-run-strong-side-suit":
        return _points(claim, "running", "giving", "Facing a beg with a strong side suit")
    if kind == "dealer-give-when-strong":
        return _points(claim, "giving", "running", f"Facing a beg with trump strength {GIVE_STRENGTH} or more")
    return f"Estimate {claim['estimate']:.3f} {claim.get('unit', '')} (95% CI {lo:.3f} to {hi:.3f})."


def bullet(claim: dict[str, Any], equilibrium: bool = False) -> str:
    """A claim as the report lists it: the verdict and what to do, the advice quoted, the number behind it."""
    said = finding(claim)
    head = f"**{claim['verdict']}" + (f": {said}" if said else "") + "**"
    return f"{head}{' (equilibrium)' if equilibrium else ''}: \"{claim['claim']}\" {measured(claim)}"


def plain_test(test: str) -> str:
    """How a claim is tested, with the check's shorthand for its CI spelled out."""
    return test.replace(BOOTSTRAP_WORDS, BOOTSTRAP_PLAIN).replace(SHARE_CI_WORDS, SHARE_CI_PLAIN)


def advice_view(claims: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"claim": c["claim"], "test": plain_test(c["test"]), "estimate": round(c["estimate"], 4),
                          "95% CI": f"[{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}]", "verdict": c["verdict"],
                          "deals": c["n"], "finding": finding(c)} for c in claims])


def equilibrium_view(claims: list[dict[str, Any]]) -> pd.DataFrame:
    return pd.DataFrame([{"claim": c["claim"], "test": plain_test(c["test"]), "estimate": round(c["estimate"], 4),
                          "95% CI": f"[{c['ci95'][0]:.4f}, {c['ci95'][1]:.4f}]", "verdict": c["verdict"],
                          "best response verdict": c.get("best_response_verdict", ""), "deals": c["n"],
                          "finding": finding(c)} for c in claims])


def advice_section(doc: Document, out: Path, claims: list[dict[str, Any]], deals: int, save_table: SaveTable) -> None:
    """The section "The published advice, tested" from the best responses' claims (report.json's "advice"),
    `deals` paired deals per role; its table as tables/advice.csv and .parquet."""
    view = advice_view(claims)
    path = save_table(view, out, "advice")
    doc.heading(HEADING)
    doc.paragraph(f"A Spanish-language All Fours guide (\"Consejos y estrategias\", translated) gives four pieces of "
                  f"advice about begging and giving (its advice on card play: \"Play advice\" below). Each is tested "
                  f"as stated in the table, with {deals:,} paired deals per role under the heuristic player: "
                  "*supported* when the 95% CI lies on the claim's side, *contradicted* when it lies wholly on the "
                  "other, else *inconclusive*. After the verdict, what the deals say to do.")
    doc.bullets([bullet(c) for c in claims])
    doc.table(view, "Advice check", path)


def equilibrium_advice_section(doc: Document, out: Path, claims: list[dict[str, Any]], save_table: SaveTable) -> None:
    """The end of the equilibrium's section: the eldest's two claims read against the equilibrium (report.json's
    "equilibrium_advice"); its table as tables/equilibrium-advice.csv and .parquet."""
    view = equilibrium_view(claims)
    path = save_table(view, out, "equilibrium-advice")
    doc.heading(EQUILIBRIUM_HEADING, level=3)
    doc.paragraph("The eldest's two claims of the Spanish-language guide, read against the equilibrium: the "
                  "equilibrium's P(beg) over the hand classes the claim names, weighted by their deals, with its 95% "
                  "CI from the bootstrap (the deals' chunks drawn again with replacement and the game solved again "
                  "each time). \"Beg when missing the ace or the jack\" is read as begging more often than not (above "
                  "0.5).")
    doc.bullets([bullet(c, equilibrium=True) for c in claims])
    doc.table(view, "Advice against the equilibrium", path)


def rewrite_advice_sections(rules: RuleSet, folder: Path) -> dict[str, Any]:
    """Write the finished report's two passages on the bidding advice (module docstring) again from the numbers
    in its report.json, in REPORT.md and report.html, with their tables; nothing is measured and nothing else
    changes. Returns the numbers."""
    from .build import save_table

    folder = Path(folder)
    numbers: dict[str, Any] = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    doc = Document("section")
    advice_section(doc, folder, numbers["advice"], int(numbers["sizes"]["advice"]), save_table)
    splice_sections(folder, doc, HEADING, HEADING)
    if numbers.get("equilibrium_advice"):
        doc = Document("section")
        equilibrium_advice_section(doc, folder, numbers["equilibrium_advice"], save_table)
        splice_section_end(folder, doc, EQUILIBRIUM_SECTION, [f"### {EQUILIBRIUM_HEADING}", EQUILIBRIUM_BEFORE])
    return numbers


def redo_advice(rules: RuleSet, folder: Path, threads: int | None = None, executor: Any = None,
                say: Callable[[str], None] = lambda message: None) -> dict[str, Any]:
    """Measure the best-response claims of the finished report `folder` again, by the call its build made (the
    advice check with the report's own policy, advice deals and seed), and write what is built from them:
    report.json's "advice" (and the best-response verdicts its equilibrium readings quote), the two passages on
    the bidding advice with their tables (``rewrite_advice_sections``) and, where a verdict changed, the card,
    which shows the verdicts. Nothing else is measured or changed (the play tips, measured by the same build step,
    are not played again). Returns the report's numbers."""
    from ..analysis.bidding.advice import check_advice

    folder = Path(folder)
    path = folder / "report.json"
    numbers: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if numbers["rules"] != rules.as_log_dict():
        raise ValueError(f"{folder} is a report of other rules ({numbers['rules'].get('preset')}, "
                         f"{numbers['rules'].get('players')} players)")
    deals, seed, policy = int(numbers["sizes"]["advice"]), int(numbers["seed"]), str(numbers["policy"])
    say(f"{folder.name}: advice check: {deals:,} deals per role, seed {seed}")
    found = check_advice(rules, policy, deals, seed, threads=threads, executor=executor)
    claims = json.loads(json.dumps([c.to_json() for c in found.claims], default=str))  # as report.json keeps them
    before = {c["id"]: c["verdict"] for c in numbers["advice"]}
    verdicts = {c["id"]: c["verdict"] for c in claims}
    numbers["advice"] = claims
    for reading in numbers.get("equilibrium_advice") or []:
        if "best_response_verdict" in reading and reading.get("best_response_claim") in verdicts:
            reading["best_response_verdict"] = verdicts[reading["best_response_claim"]]
    part = path.with_suffix(".json.part")
    part.write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
    part.replace(path)
    rewrite_advice_sections(rules, folder)
    if verdicts != before:
        redraw_card(rules, folder)
        say(f"{folder.name}: a verdict changed: card.png drawn again")
    return numbers


def redraw_card(rules: RuleSet, folder: Path) -> None:
    """The report's card drawn again from its rules of thumb, its tables/advice.csv and tables/play-advice.csv and
    the shipped rules of play (as the rules-of-thumb section draws it for a finished edition)."""
    from .card import RULES_FOLDER, Card, draw_card, edition_departures
    from .card_play import edition_play
    from .rules_section import CARD_FILE, claims_of

    thumbs = folder / RULES_FOLDER / "rules.json"
    if not (folder / CARD_FILE).is_file() or not thumbs.is_file():
        return
    claims = claims_of(pd.read_csv(folder / "tables" / "advice.csv"))
    fitted = json.loads(thumbs.read_text(encoding="utf-8"))
    card = Card(rules, fitted, claims, f"{folder.name}/{RULES_FOLDER}", f"{folder.name}/tables/advice.csv",
                edition_departures(rules, folder, fitted), edition_play(rules, folder))
    draw_card(card, folder / CARD_FILE)
