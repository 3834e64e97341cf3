"""The strategy card: the eldest's and the dealer's rule of thumb on one printable page (``allfours card``), and on
its second side the rules for playing the cards (``card_play.py``).

What it shows, for one rule system: each role's rule at the size a player would choose (the smallest list
within ``CLOSE_ENOUGH`` net points per deal of the equilibrium, else the best of ``CARD_FALLBACK`` lines) with
its measured cost, how the equilibrium moves from it when a side is near the target, and the published
bidding advice with its verdict, one line each.

Where it comes from: a shipped edition (``results/<preset>-<players>p``, seed 1) holds everything
(``rules-of-thumb/rules.json``, ``tables/advice.csv``); the card reads it and answers at once. Otherwise
(another seed, a player count with no edition, an edition from before the rules of thumb) it computes what
is missing, and says so on the card: the rules from the edition's equilibrium run when there is one, else
from an equilibrium solved now; the advice check now. A shipped file is read only when the rules it was made
for (its ``rules`` object) are the asked ones: a variant (``--set``, e.g. an English table's ``void_play=any``
on ``classic``) never reads another rule set's results; it is computed (seconds).

The card also states the rules it assumes (``assumed_rules``: the parameters that change a player's choices, in
plain words), and, under the near-target rules, the exact scores where the equilibrium departs from them
(``departures``: read from the edition's equilibrium at every score, ``equilibrium-scores/scores.csv``).
"""

from __future__ import annotations

import dataclasses
import json
import re
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..game.rules import RuleSet, make_rules
from .card_play import SIDE_TITLE, PlayCard, load_play, play_sections, tip_deals_needed

RESULTS = Path(__file__).resolve().parents[2] / "results"
RULES_FOLDER = "rules-of-thumb"
CARD_EQUILIBRIUM_DEALS = 200_000   # an equilibrium solved for a card (no shipped edition): decision deals
CARD_MEASURE_DEALS = 200_000       # ... and fresh deals to measure its rules on
CARD_ADVICE_DEALS = 100_000        # an advice check run for a card: paired deals per role
VERDICT_MARK = {"supported": "✓", "contradicted": "✗", "inconclusive": "?"}
SUITS = (("♠", "black"), ("♥", "#c8102e"), ("♦", "#c8102e"), ("♣", "black"))
A5 = (5.83, 8.27)  # inches, portrait
WRAP = 64          # characters per line at the card's type size
DEPARTURE_AGREEMENT = 0.75  # an exact score is listed when its equilibrium agrees with the near-target rule on
                            # fewer of the role's hands than this
DEPARTURES_SHOWN = 4        # ... the worst this many on the card (--json lists them all)


@dataclasses.dataclass
class Card:
    rules: RuleSet
    thumbs: dict[str, Any]        # rules.json (rules_of_thumb.RulesOfThumb.to_json)
    claims: list[dict[str, Any]]  # claim, verdict, estimate, ci95
    source: str                   # where the rules came from, in words
    claims_source: str
    departures: list[dict[str, Any]] | None = None  # `departures`; None: no equilibrium at every score here
    play: PlayCard | None = None  # the second side, "Playing the cards" (card_play.py); None: one side only


def edition_folder(rules: RuleSet, results: Path = RESULTS) -> Path:
    return Path(results) / f"{rules.preset}-{rules.players}p"


def made_for(doc: dict[str, Any], rules: RuleSet, seed: int) -> bool:
    """Whether a result file's JSON (`doc`, with "rules" and "seed", or "fit": {"seed"}) was made for exactly
    these rules and seed."""
    return doc.get("rules") == rules.as_log_dict() and int(doc.get("seed", doc.get("fit", {}).get("seed", -1))) == seed


def load_card(rules: RuleSet, seed: int = 1, results: Path = RESULTS, executor: Any = None,
              progress: Callable[[int], None] | None = None, say: Callable[[str], None] = lambda m: None) -> Card:
    """The card's contents: read from the shipped edition, or computed (module docstring)."""
    from ..analysis.bidding import rules_of_thumb as rot

    folder = edition_folder(rules, results)
    named = rules_name(rules)
    eq_run = folder / "equilibrium"
    where = folder.relative_to(results.parent) if folder.is_relative_to(results.parent) else folder
    thumbs, how, _ = _plan(rules, seed, folder)
    if how == "shipped" and thumbs is not None:
        source = f"{where}/{RULES_FOLDER} (shipped, seed {seed})"
    elif how == "fit":
        say(f"card: fitting the rules of thumb to the equilibrium in {where}/equilibrium and measuring them "
            f"(a minute or two)")
        result = rot.fit_and_measure(rules, rot.FitInput.of_run(eq_run), rot.MEASURE_DEALS,
                                     rot.edition_equity(rules, folder), _scores(folder, rules), executor, progress,
                                     say)
        thumbs = result.to_json()
        source = f"fitted now to {where}/equilibrium (seed {seed})"
    else:
        from ..analysis.bidding.equilibrium import run_equilibrium

        say(f"card: no shipped equilibrium for {named}, seed {seed}: solving one on {CARD_EQUILIBRIUM_DEALS:,} "
            f"decision deals, then measuring and checking the advice (seconds to a minute)")
        eq = run_equilibrium(rules, "heuristic", CARD_EQUILIBRIUM_DEALS, seed, "coarse", resamples=20,
                             executor=executor, progress=progress)
        result = rot.fit_and_measure(rules, rot.FitInput.of_result(eq, "an equilibrium solved now"),
                                     CARD_MEASURE_DEALS, None, None, executor, progress, say)
        thumbs = result.to_json()
        source = f"an equilibrium solved now ({CARD_EQUILIBRIUM_DEALS:,} decision deals, seed {seed})"
    claims, claims_source = _claims(rules, seed, folder, where, executor, progress, say)
    play = load_play(rules, seed, results, folder, executor, progress, say)
    return Card(rules, thumbs, claims, source, claims_source, edition_departures(rules, folder, thumbs), play)


def _plan(rules: RuleSet, seed: int, folder: Path) -> tuple[dict[str, Any] | None, str, bool]:
    """What `load_card` does for these rules: the shipped rules.json (or None), where the rules come from
    ("shipped": read; "fit": fitted to the edition's equilibrium run; "solve": an equilibrium solved now) and
    whether the advice check is read (True) or run now. A file counts only if made for exactly these rules and
    seed."""
    shipped = folder / RULES_FOLDER / "rules.json"
    eq_json = folder / "equilibrium" / "equilibrium.json"
    thumbs = _read(shipped) if shipped.is_file() else None
    if thumbs is not None and made_for({**thumbs, "seed": thumbs["fit"]["seed"]}, rules, seed):
        how = "shipped"
    elif eq_json.is_file() and made_for(_read(eq_json), rules, seed):
        how = "fit"
    else:
        how = "solve"
    report = folder / "report.json"
    advice = (folder / "tables" / "advice.csv").is_file() and report.is_file() and made_for(_read(report), rules, seed)
    return thumbs, how, advice


def planned_deals(rules: RuleSet, seed: int = 1, results: Path = RESULTS) -> int:
    """The deals `load_card` will play for these rules (what its progress counts to): 0 when all is shipped."""
    from ..analysis.bidding import rules_of_thumb as rot

    folder = edition_folder(rules, results)
    _, how, advice = _plan(rules, seed, folder)
    deals = {"shipped": 0, "fit": rot.MEASURE_DEALS * (2 if rules.sides == 2 else 1),
             "solve": CARD_EQUILIBRIUM_DEALS + CARD_MEASURE_DEALS}[how]
    return deals + (0 if advice else 2 * CARD_ADVICE_DEALS) + tip_deals_needed(rules, seed, folder)


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _scores(folder: Path, rules: RuleSet) -> pd.DataFrame | None:
    """The edition's equilibrium at every score (scores.csv), if it was solved for exactly these rules
    (scores.json's ``rules``)."""
    path, meta = folder / "equilibrium-scores" / "scores.csv", folder / "equilibrium-scores" / "scores.json"
    if not (path.is_file() and meta.is_file()) or _read(meta).get("rules") != rules.as_log_dict():
        return None
    return pd.read_csv(path)


def edition_departures(rules: RuleSet, folder: Path, thumbs: dict[str, Any]) -> list[dict[str, Any]] | None:
    """`departures` from the report folder's equilibrium at every score, when it was solved for these rules and
    `thumbs` has near-target rules; else None (not measured)."""
    scores = _scores(Path(folder), rules) if thumbs.get("near_target") else None
    return None if scores is None else departures(thumbs, scores)


def variant_settings(rules: RuleSet) -> list[str]:
    """``KEY=VALUE`` for every parameter that differs from the preset at this player count (``--set``)."""
    from ..game.rules_text import value_text

    base = make_rules(rules.preset, players=rules.players)
    return [f"{k}={value_text(v)}" for k, v in dataclasses.asdict(rules).items()
            if k != "preset" and v != getattr(base, k)]


def rules_name(rules: RuleSet) -> str:
    """'classic, 4 players' or 'classic, 4 players, with void_play=any'."""
    extra = variant_settings(rules)
    return f"{rules.preset}, {rules.players} players" + (f", with {', '.join(extra)}" if extra else "")


def command(rules: RuleSet) -> str:
    """The command that makes this card."""
    return (f"allfours card --rules {rules.preset} --players {rules.players}"
            + "".join(f" --set {x}" for x in variant_settings(rules)))


# ---- the rules it assumes --------------------------------------------------------------------------

KICK_WORDS = {"trinidad": "turn-up scores ace 1, six 2, jack 3", "tobago": "turn-up scores ace 1, two 2, jack 3",
              "heels": "a jack turned up scores 1", "final-jack": "a jack turned up to fix trump scores 1",
              "none": "no points for the turn-up"}
TIE_WORDS = {"none": "tied Game: nobody scores", "dealer-opponents": "tied Game: the dealer's opponents score",
             "non-dealer": "tied Game: the non-dealer scores"}


def assumed_rules(rules: RuleSet) -> str:
    """The rule parameters that change a player's choices, in one plain sentence (rules_text.py has each in full):
    'Rules assumed: 14 to win; turn-up scores ace 1, six 2, jack 3; hang jack scores 3; ...'."""
    parts = [f"{rules.target} to win", KICK_WORDS.get(rules.kick, f"kick {rules.kick}"),
             "hang jack scores 3" if rules.hang_jack else "no hang jack",
             "undertrumping allowed" if rules.undertrump == "allowed" else "no undertrumping",
             "any card when void" if rules.void_play == "any" else "must trump when void",
             f"gift {rules.gift}", f"run {rules.run_cards} cards",
             "discard to six after a run" if rules.discard else "no discard"]
    if rules.bunching:
        parts.append("bunching")
    parts.append(TIE_WORDS.get(rules.game_tie, f"tied Game: {rules.game_tie}"))
    return "Rules assumed: " + "; ".join(parts) + "."


# ---- exact scores that depart from the near-target rules --------------------------------------------


def departures(thumbs: dict[str, Any], scores: pd.DataFrame,
               threshold: float = DEPARTURE_AGREEMENT) -> list[dict[str, Any]]:
    """Every (exact score, role, near-target situation) where the equilibrium's own action at that score takes
    the situation's near-target rule on fewer than `threshold` of the role's hands (deal-weighted, a mixed entry
    counting its probability, as the near-target agreement is measured), worst first. Each with the rule that
    fits that score best, by the same search as the near-target rules, on that one score's hands: the list of
    the card's size agreeing with the equilibrium there on the most hands; and ``settled``, the share of the
    role's hands there whose class's action the bootstrap settles (None where the run kept no intervals)."""
    from ..analysis.bidding import rules_of_thumb as rot
    from ..analysis.bidding.equilibrium_scores import has_bootstrap
    from ..engine.evaluator import class_key

    target = int(thumbs["rules"]["target"])
    index = {class_key(c): i for i, c in enumerate(rot.CLASSES)}
    out: list[dict[str, Any]] = []
    for zone in thumbs.get("near_target") or []:
        role = zone["role"]
        near = rot.RuleList.from_json(zone["rule"])
        size = rot.RuleList.from_json(chosen_row(thumbs, role)["rule"]).size
        mine, theirs = ("eldest_score", "dealer_score") if role == "eldest" else ("dealer_score", "eldest_score")
        frame = scores[scores["role"] == role]
        frame = frame[frame[mine if zone["zone"] == "you" else theirs] >= target - int(zone["needing"])]
        boot = has_bootstrap(frame)
        for (eldest, dealer), cell in frame.groupby(["eldest_score", "dealer_score"], sort=True):
            n, p = np.zeros(len(rot.CLASSES)), np.zeros(len(rot.CLASSES))
            sure = np.zeros(len(rot.CLASSES))
            for key, deals, prob, flag in zip(cell["class"], cell["deals"], cell["p"],
                                              cell["settled"] if boot else [False] * len(cell)):
                n[index[str(key)]], p[index[str(key)]] = float(deals), float(prob)
                sure[index[str(key)]] = float(bool(flag))
            if n.sum() <= 0:
                continue

            def agreement(rule: Any) -> float:
                x = rule.flags()
                return float((n * (x * p + (1 - x) * (1 - p))).sum() / n.sum())

            near_agreement = agreement(near)
            if near_agreement >= threshold:
                continue
            best = rot.search(n * (2 * p - 1), role, size)[size]
            out.append({"score": f"{int(eldest)}:{int(dealer)}", "role": role, "zone": zone["zone"],
                        "situation": situation(zone), "rule": best.describe(), "agreement": agreement(best),
                        "near_rule": near.describe(), "near_agreement": near_agreement,
                        "settled": float((n * sure).sum() / n.sum()) if boot else None})
    out.sort(key=lambda d: (d["near_agreement"], d["score"], d["role"]))
    return out


def situation(zone: dict[str, Any]) -> str:
    """'you need 2 or fewer' / 'the other side needs 2 or fewer'."""
    return f"{'you need' if zone['zone'] == 'you' else 'the other side needs'} {zone['needing']} or fewer"


def _claims(rules: RuleSet, seed: int, folder: Path, where: Any, executor: Any,
            progress: Callable[[int], None] | None, say: Callable[[str], None]) -> tuple[list[dict[str, Any]], str]:
    table = folder / "tables" / "advice.csv"
    if _plan(rules, seed, folder)[2]:
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
        return ["Not measured here (no equilibrium at every score: three players, or none shipped for these "
                "rules)."]
    lines = []
    for z in thumbs["near_target"]:
        head = f"{z['role'].capitalize()}, {situation(z)}: "
        if z["same_as_card"]:
            lines.append(head + f"the rule holds (the equilibrium's action there on {100 * z['agreement']:.0f}% "
                                "of hands).")
        else:
            lines.append(head + " ".join(z["text"]) + f" (the equilibrium's action there on "
                         f"{100 * z['agreement']:.0f}% of hands; the rule above: {100 * z['card_agreement']:.0f}%).")
    return lines


def departure_words(found: list[dict[str, Any]] | None, shown: int = DEPARTURES_SHOWN) -> list[str]:
    """The exact scores that depart from the near-target rules, the worst `shown`, and how many more."""
    if found is None:
        return []
    share = f"{100 * DEPARTURE_AGREEMENT:.0f}%"
    if not found:
        return [f"At every exact score near the target the rule above takes the equilibrium's action on at least "
                f"{share} of hands."]
    lines = [f"Exact scores where the equilibrium leaves the near-target rule (which takes its action there on under "
             f"{share} of hands), scores eldest's side first, each with the rule that fits there and the share of "
             f"hands it gets right:"]
    for d in found[:shown]:
        unsure = "" if d.get("settled") is None or 100 * (1 - d["settled"]) < 0.5 else \
            f"; not settled on {100 * (1 - d['settled']):.0f}% of hands"  # (as the share is printed, rounded)
        lines.append(f"– {d['score']}, {d['role']}, {d['situation']}: {' '.join(d['rule'])} "
                     f"({100 * d['agreement']:.0f}%; the near-target rule: {100 * d['near_agreement']:.0f}%{unsure})")
    if len(found) > shown:
        rest = len(found) - shown
        lines.append(f"... and {rest} more score{'s' if rest > 1 else ''} (allfours card --json lists them all).")
    return lines


def claim_words(claim: dict[str, Any]) -> str:
    return f"{VERDICT_MARK.get(claim['verdict'], '?')} {claim['verdict']}: {claim['claim']}"


def sections(card: Card) -> list[tuple[str, list[str]]]:
    """(heading, lines) of the card, in order: the one source of the text card and the drawn one."""
    out = [("", [assumed_rules(card.rules)])]
    for role in ("eldest", "dealer"):
        row = chosen_row(card.thumbs, role)
        out.append((ROLE_TITLES[role], [f"{k}. {line}" for k, line in enumerate(row["text"], 1)]
                    + [f"({row['lines']} line{'s' if row['lines'] > 1 else ''}: {cost_words(row)}.)"]))
    out.append((f"NEAR THE TARGET ({card.rules.target} points)",
                near_words(card.thumbs) + departure_words(card.departures)))
    out.append(("THE PUBLISHED ADVICE, CHECKED", [claim_words(c) for c in card.claims]))
    m = card.thumbs["measure"]
    out.append(("", [f"Rules fitted to the bidding equilibrium (hand classes, net points at 0:0, the other role "
                     f"playing the equilibrium): {card.source}; costs measured on {m['deals']:,} fresh deals "
                     f"(seed {m['seed']}), never the fitting ones. Advice: {card.claims_source}. "
                     f"Regenerate: {command(card.rules)}"]))
    return out


def title(card: Card) -> str:
    return f"All Fours strategy card: {rules_name(card.rules)}"


def sides(card: Card) -> list[list[tuple[str, list[str]]]]:
    """The card's sides, each its (heading, lines): bidding on the front, playing the cards on the back."""
    return [sections(card)] + ([play_sections(card.play)] if card.play is not None else [])


def card_text(card: Card) -> str:
    lines = [title(card), ""]
    for k, side in enumerate(sides(card)):
        if k:
            lines += [f"{SIDE_TITLE.upper()} (the card's other side)", ""]
        for heading, body in side:
            if heading:
                lines.append(heading)
            for line in body:
                lines += textwrap.wrap(line, 100, initial_indent="  ", subsequent_indent="     ")
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


RULE_LINE = re.compile(r"^\d+\. ")  # "1. With no trump: beg.": a rule's line, in large bold type
BOTTOM = 24.0                        # points: the margin the card's text stays above


def draw_card(card: Card, path: Path) -> Path:
    """The card as one A5 page (png, pdf, svg or any type matplotlib writes, by `path`'s ending), or with its second
    side ("Playing the cards") two A5 pages side by side, to print on A4 landscape and fold. Text that would run
    past a page's foot is drawn again smaller (and wrapped wider) until it fits."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    pages = sides(card)
    scales = []
    for side in pages:  # each side's own scale: the back is not shrunk for the front's length
        scale = 1.0
        while True:
            fig = Figure(figsize=A5)
            FigureCanvasAgg(fig)
            if _lay_out(fig, card, side, scale, 0, 1) >= BOTTOM or scale < 0.6:
                break
            scale *= 0.95
        scales.append(scale)
    fig = Figure(figsize=(A5[0] * len(pages), A5[1]))
    FigureCanvasAgg(fig)
    for k, (side, scale) in enumerate(zip(pages, scales)):
        _lay_out(fig, card, side, scale, k, len(pages))
    if len(pages) > 1:  # the fold
        fig.add_artist(_fold_line())
    path = Path(path)
    fig.savefig(path, dpi=200)
    return path


def _fold_line() -> Any:
    from matplotlib.lines import Line2D

    return Line2D([0.5, 0.5], [0.02, 0.98], color="#999999", linewidth=0.6, linestyle=(0, (4, 4)))


def _lay_out(fig: Any, card: Card, side: list[tuple[str, list[str]]], scale: float, page: int, pages: int) -> float:
    """Put one side's text on page `page` of `pages` A5 pages side by side on `fig`, every type size times `scale`;
    returns the height (points) left below."""
    height = A5[1] * 72.0  # points
    width = A5[0] * 72.0 * pages
    left = A5[0] * 72.0 * page
    y = height - 30.0

    def put(text: str, size: float, x: float = 22.0, **style: Any) -> None:
        nonlocal y
        fig.text((left + x) / width, y / height, text, fontsize=size * scale, va="top", ha="left",
                 family="DejaVu Sans", **style)
        y -= size * scale * 1.35

    for k, (suit, colour) in enumerate(SUITS):  # the four suits, hearts and diamonds red
        fig.text((left + A5[0] * 72.0 - 100 + 20 * k) / width, y / height, suit, fontsize=18, color=colour,
                 va="top", ha="left", family="DejaVu Sans")
    if page == 0:
        put(title(card).replace(": ", ":\n", 1).split("\n")[0], 15, weight="bold")
    else:
        put(SIDE_TITLE, 15, weight="bold")
    put(title(card).split(": ", 1)[1], 12)
    y -= 8 * scale
    for heading, body in side:
        if heading:
            put(heading, 10.5, weight="bold", color="#1a3a6b")
        small = not heading or heading.startswith("THE PUBLISHED") or heading.startswith("NEAR")
        for line in body:
            rule_line = bool(RULE_LINE.match(line))
            size = 10 if rule_line else 7.5 if small else 7.8
            width_chars = int((58 if rule_line else WRAP + 10) / scale)
            for part_no, part in enumerate(textwrap.wrap(line, width_chars)):
                colour = "#c8102e" if line.startswith("✗") else "black"
                put(part, size, x=30.0 if part_no == 0 else 40.0, color=colour,
                    weight="bold" if rule_line else "normal")
        y -= 7 * scale
    return y
