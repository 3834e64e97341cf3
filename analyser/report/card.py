"""The strategy card: the eldest's and the dealer's rule of thumb on one printable page (``allfours card``).

What it shows, for one rule system: each role's rule at the size a player would choose (the smallest list
within ``CLOSE_ENOUGH`` net points per deal of the equilibrium, else the best of ``CARD_FALLBACK`` lines) with
its measured cost, how the equilibrium moves from it when a side is near the target, and the published
bidding advice with its verdict, one line each.

Where it comes from: a shipped edition (``results/<preset>-<players>p``, seed 1) holds everything
(``rules-of-thumb/rules.json``, ``tables/advice.csv``); the card reads it and answers at once. Otherwise
(another seed, a player count with no edition, an edition from before the rules of thumb) it computes what
is missing, and says so on the card: the rules from the edition's equilibrium run when there is one, else
from an equilibrium solved now; the advice check now.
"""

from __future__ import annotations

import dataclasses
import json
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..rules import RuleSet

RESULTS = Path(__file__).resolve().parents[2] / "results"
RULES_FOLDER = "rules-of-thumb"
CARD_EQUILIBRIUM_DEALS = 200_000   # an equilibrium solved for a card (no shipped edition): decision deals
CARD_MEASURE_DEALS = 200_000       # ... and fresh deals to measure its rules on
CARD_ADVICE_DEALS = 100_000        # an advice check run for a card: paired deals per role
VERDICT_MARK = {"supported": "✓", "contradicted": "✗", "inconclusive": "?"}
SUITS = (("♠", "black"), ("♥", "#c8102e"), ("♦", "#c8102e"), ("♣", "black"))
A5 = (5.83, 8.27)  # inches, portrait
WRAP = 64          # characters per line at the card's type size


@dataclasses.dataclass
class Card:
    rules: RuleSet
    thumbs: dict[str, Any]        # rules.json (rules_of_thumb.RulesOfThumb.to_json)
    claims: list[dict[str, Any]]  # claim, verdict, estimate, ci95
    source: str                   # where the rules came from, in words
    claims_source: str


def edition_folder(rules: RuleSet, results: Path = RESULTS) -> Path:
    return Path(results) / f"{rules.preset}-{rules.players}p"


def _matches(doc: dict[str, Any], rules: RuleSet, seed: int) -> bool:
    return doc.get("rules") == rules.as_log_dict() and int(doc.get("seed", doc.get("fit", {}).get("seed", -1))) == seed


def load_card(rules: RuleSet, seed: int = 1, results: Path = RESULTS, executor: Any = None,
              progress: Callable[[int], None] | None = None, say: Callable[[str], None] = lambda m: None) -> Card:
    """The card's contents: read from the shipped edition, or computed (module docstring)."""
    from ..analysis.bidding import rules_of_thumb as rot

    folder = edition_folder(rules, results)
    shipped = folder / RULES_FOLDER / "rules.json"
    eq_run = folder / "equilibrium"
    where = folder.relative_to(results.parent) if folder.is_relative_to(results.parent) else folder
    thumbs = json.loads(shipped.read_text(encoding="utf-8")) if shipped.is_file() else None
    if thumbs is not None and _matches({**thumbs, "seed": thumbs["fit"]["seed"]}, rules, seed):
        source = f"{where}/{RULES_FOLDER} (shipped, seed {seed})"
    elif (eq_run / "equilibrium.json").is_file() and _matches(_read(eq_run / "equilibrium.json"), rules, seed):
        say(f"card: fitting the rules of thumb to the equilibrium in {where}/equilibrium")
        result = rot.fit_and_measure(rules, rot.FitInput.of_run(eq_run), rot.MEASURE_DEALS,
                                     rot.edition_equity(rules, folder), _scores(folder), executor, progress, say)
        thumbs = result.to_json()
        source = f"fitted now to {where}/equilibrium (seed {seed})"
    else:
        from ..analysis.bidding.equilibrium import run_equilibrium

        say(f"card: no shipped equilibrium for {rules.preset}, {rules.players} players, seed {seed}: solving one "
            f"on {CARD_EQUILIBRIUM_DEALS:,} decision deals")
        eq = run_equilibrium(rules, "heuristic", CARD_EQUILIBRIUM_DEALS, seed, "coarse", resamples=20,
                             executor=executor, progress=progress)
        result = rot.fit_and_measure(rules, rot.FitInput.of_result(eq, "an equilibrium solved now"),
                                     CARD_MEASURE_DEALS, None, None, executor, progress, say)
        thumbs = result.to_json()
        source = f"an equilibrium solved now ({CARD_EQUILIBRIUM_DEALS:,} decision deals, seed {seed})"
    claims, claims_source = _claims(rules, seed, folder, where, executor, progress, say)
    return Card(rules, thumbs, claims, source, claims_source)


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _scores(folder: Path) -> pd.DataFrame | None:
    path = folder / "equilibrium-scores" / "scores.csv"
    return pd.read_csv(path) if path.is_file() else None


def _claims(rules: RuleSet, seed: int, folder: Path, where: Any, executor: Any,
            progress: Callable[[int], None] | None, say: Callable[[str], None]) -> tuple[list[dict[str, Any]], str]:
    table = folder / "tables" / "advice.csv"
    report = folder / "report.json"
    if table.is_file() and report.is_file() and _matches(_read(report), rules, seed):
        frame = pd.read_csv(table)
        claims = [{"claim": r["claim"], "verdict": r["verdict"], "estimate": float(r["estimate"]),
                   "ci95": [float(x) for x in r["95% CI"].strip("[]").split(",")]} for _, r in frame.iterrows()]
        return claims, f"{where}/tables/advice.csv"
    from ..analysis.bidding.advice import check_advice

    say(f"card: checking the published advice on {CARD_ADVICE_DEALS:,} paired deals per role")
    found = check_advice(rules, "heuristic", CARD_ADVICE_DEALS, seed, executor=executor, progress=progress)
    claims = [{"claim": c["claim"], "verdict": c["verdict"], "estimate": c["estimate"], "ci95": c["ci95"]}
              for c in (claim.to_json() for claim in found.claims)]
    return claims, f"checked now ({CARD_ADVICE_DEALS:,} paired deals per role, seed {seed})"


# ---- the card's words ---------------------------------------------------------------------------


ROLE_TITLES = {"eldest": "ELDEST: stand or beg?", "dealer": "DEALER, when the eldest begs: give one or run?"}


def chosen_row(thumbs: dict[str, Any], role: str) -> dict[str, Any]:
    size = thumbs["chosen"][role]
    return next(r for r in thumbs["sizes"] if r["role"] == role and r["size"] == size)


def cost_words(row: dict[str, Any]) -> str:
    """'agrees with the equilibrium on 97.3% of decisions; costs 0.0002 net points per deal (95% CI ...)'."""
    a, c, w = row["agreement"], row["cost_points"], row["cost_win"]
    if a["mean"] == 1.0 and a["ci95"] == [1.0, 1.0]:
        return "the equilibrium's own action on every hand: no cost"
    text = (f"agrees with the equilibrium on {100 * a['mean']:.1f}% of decisions "
            f"[{100 * a['ci95'][0]:.1f}, {100 * a['ci95'][1]:.1f}]; costs {c['mean']:+.4f} net points per deal "
            f"[{c['ci95'][0]:+.4f}, {c['ci95'][1]:+.4f}]")
    if w is not None:
        text += (f", {100 * w['mean']:+.3f} percentage points of match-win chance per deal from 0:0 "
                 f"[{100 * w['ci95'][0]:+.3f}, {100 * w['ci95'][1]:+.3f}]")
    return text + " (95% CIs)"


def near_words(thumbs: dict[str, Any]) -> list[str]:
    """One line per role and zone: the equilibrium's actions there as a rule of the card's size."""
    if not thumbs.get("near_target"):
        return ["Not measured here (no equilibrium at every score: three players, or none shipped)."]
    lines = []
    for z in thumbs["near_target"]:
        who = "you need" if z["zone"] == "you" else "the other side needs"
        head = f"{z['role'].capitalize()}, {who} {z['needing']} or fewer: "
        if z["same_as_card"]:
            lines.append(head + f"the rule holds (the equilibrium's action there on {100 * z['agreement']:.0f}% "
                                "of hands).")
        else:
            lines.append(head + " ".join(z["text"]) + f" (the equilibrium's action there on "
                         f"{100 * z['agreement']:.0f}% of hands; the rule above: {100 * z['card_agreement']:.0f}%).")
    return lines


def claim_words(claim: dict[str, Any]) -> str:
    return f"{VERDICT_MARK.get(claim['verdict'], '?')} {claim['verdict']}: {claim['claim']}"


def sections(card: Card) -> list[tuple[str, list[str]]]:
    """(heading, lines) of the card, in order: the one source of the text card and the drawn one."""
    out = []
    for role in ("eldest", "dealer"):
        row = chosen_row(card.thumbs, role)
        out.append((ROLE_TITLES[role], [f"{k}. {line}" for k, line in enumerate(row["text"], 1)]
                    + [f"({row['lines']} line{'s' if row['lines'] > 1 else ''}: {cost_words(row)}.)"]))
    out.append((f"NEAR THE TARGET ({card.rules.target} points)", near_words(card.thumbs)))
    out.append(("THE PUBLISHED ADVICE, CHECKED", [claim_words(c) for c in card.claims]))
    m = card.thumbs["measure"]
    out.append(("", [f"Rules fitted to the bidding equilibrium (hand classes, net points at 0:0, the other role "
                     f"playing the equilibrium): {card.source}; costs measured on {m['deals']:,} fresh deals "
                     f"(seed {m['seed']}), never the fitting ones. Advice: {card.claims_source}. "
                     f"Regenerate: allfours card --rules {card.rules.preset} --players {card.rules.players}"]))
    return out


def title(card: Card) -> str:
    return f"All Fours strategy card: {card.rules.preset}, {card.rules.players} players"


def card_text(card: Card) -> str:
    lines = [title(card), ""]
    for heading, body in sections(card):
        if heading:
            lines.append(heading)
        for line in body:
            lines += textwrap.wrap(line, 100, initial_indent="  ", subsequent_indent="     ")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def draw_card(card: Card, path: Path) -> Path:
    """The card as one A5 page (png, pdf, svg or any type matplotlib writes, by `path`'s ending)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=A5)
    FigureCanvasAgg(fig)
    height = A5[1] * 72.0  # points
    y = height - 30.0

    def put(text: str, size: float, x: float = 22.0, **style: Any) -> None:
        nonlocal y
        fig.text(x / (A5[0] * 72.0), y / height, text, fontsize=size, va="top", ha="left",
                 family="DejaVu Sans", **style)
        y -= size * 1.35

    for k, (suit, colour) in enumerate(SUITS):  # the four suits, hearts and diamonds red
        fig.text((A5[0] * 72.0 - 100 + 20 * k) / (A5[0] * 72.0), y / height, suit, fontsize=18, color=colour,
                 va="top", ha="left", family="DejaVu Sans")
    put(title(card).replace(": ", ":\n", 1).split("\n")[0], 15, weight="bold")
    put(title(card).split(": ", 1)[1], 12)
    y -= 8
    for heading, body in sections(card):
        if heading:
            put(heading, 10.5, weight="bold", color="#1a3a6b")
        small = not heading or heading.startswith("THE PUBLISHED") or heading.startswith("NEAR")
        for line in body:
            rule_line = line[:2].rstrip(".").isdigit()
            size = 10 if rule_line else 7.5 if small else 7.8
            width = 58 if rule_line else WRAP + 10
            for part_no, part in enumerate(textwrap.wrap(line, width)):
                colour = "#c8102e" if line.startswith("✗") else "black"
                put(part, size, x=30.0 if part_no == 0 else 40.0, color=colour,
                    weight="bold" if rule_line else "normal")
        y -= 7
    path = Path(path)
    fig.savefig(path, dpi=200)
    return path
