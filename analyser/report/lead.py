"""What a report leads with, and how it shows the best responses.

A report speaks with one voice: the bidding equilibrium (the strategy neither side can exploit). Its rules of
thumb are the card's (fitted to the equilibrium, ``rules_section``), its match equity, score what-ifs and
at-every-score tables are played with the equilibrium's bids (``lead_policy``). The best-response rounds
(the strategy tables) answer another question, the best choice against the heuristic's fixed rules; they
come later under their own heading, with the tuned player's tournament against the heuristic, and every
class whose choice was still changing in the last round is marked ``unsettled``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ..record.vocabulary import ROLE
from .card import chosen_row, cost_words, near_words
from .document import Document

HEADING = "Rules of thumb"
BEST_RESPONSE_HEADING = "Best responses to the heuristic"
UNSETTLED = "unsettled"  # a class whose choice changed in the last best-response round of its role
EQUILIBRIUM_LABEL = "equilibrium"  # the lead strategy's name in the tournaments
TUNED_LABEL = "tuned"


def lead_policy(folder: Path) -> str:
    """The policy the report's score parts play: the heuristic's card play with the equilibrium's bids."""
    return f"equilibrium:{Path(folder) / 'equilibrium'}"


def lead_rules(thumbs: dict[str, Any]) -> dict[str, str]:
    """The rule of each role the report leads with (the card's), as one line of words."""
    return {role: " ".join(chosen_row(thumbs, role)["text"]) for role in ("eldest", "dealer")}


def lead_section(doc: Document, thumbs: dict[str, Any], value: tuple[float, float, float], card_file: str | None,
                 card_caption: str) -> None:
    """The report's first section: the card's rules with what each costs against the equilibrium, how the
    score moves them near the target, and the card."""
    doc.heading(HEADING)
    est, lo, hi = value
    doc.paragraph("These rules come from the bidding equilibrium (\"The bidding game's equilibrium\" below): the "
                  "strategy neither side can exploit, solved for both bids at once with the heuristic playing "
                  f"the cards (its value to the eldest's side: {est:+.4f} net points per deal, 95% CI "
                  f"[{lo:+.4f}, {hi:+.4f}], at 0:0). Each is the short rule that loses least against it; what it "
                  "costs, per deal, is measured on fresh deals with the other role playing the equilibrium. The "
                  "strategy card prints the same rules.")
    bullets = []
    for role in ("eldest", "dealer"):
        row = chosen_row(thumbs, role)
        who = "Eldest" if role == "eldest" else "Dealer, when the eldest begs"
        bullets.append(f"**{who}:** {' '.join(row['text'])} ({cost_words(row)}.)")
    doc.bullets(bullets)
    doc.paragraph("Near the target (the equilibrium at every score, match-win payoff):")
    doc.bullets(near_words(thumbs))
    if card_file is not None:
        doc.image(card_file, card_caption)


def settled_words(final: pd.DataFrame) -> list[str]:
    """Per class met: "yes", or "unsettled (changed in round N)" when its choice changed in the last round."""
    last = int(final["round"].iloc[0])
    return [f"{UNSETTLED} (changed in round {last})" if changed else "yes" for changed in final["changed"]]


def tuned_result(strength: pd.DataFrame | None) -> str:
    """The tuned player's tournament against the heuristic in words, or why there is none."""
    if strength is None or strength.empty:
        return ("No tournament measures them here (three players each play alone; the report's tournaments need "
                "two sides).")
    rows = strength[(strength["a"] == TUNED_LABEL) & (strength["b"] == "heuristic")]
    if rows.empty:
        return "No tournament of the tuned player against the heuristic was played."
    r = rows.iloc[0]
    text = (f"The tuned player (the heuristic bidding by these tables) won {100 * r['a_win_rate']:.1f}% of "
            f"{int(r['matches']):,} matches against the heuristic (95% CI {100 * r['ci_lo']:.1f}% to "
            f"{100 * r['ci_hi']:.1f}%)")
    eq = strength[(strength["a"] == EQUILIBRIUM_LABEL) & (strength["b"] == "heuristic")]
    if not eq.empty:
        e = eq.iloc[0]
        text += (f"; the equilibrium's bidding won {100 * e['a_win_rate']:.1f}% (95% CI {100 * e['ci_lo']:.1f}% "
                 f"to {100 * e['ci_hi']:.1f}%)")
    return text + " (\"How strong are the simulated players?\" below)."


def best_response_intro(doc: Document, strategy: Any, strength: pd.DataFrame | None,
                        thumbs: dict[str, str]) -> None:
    """The heading and the paragraph that say what the strategy tables are, and are not."""
    rounds = len(strategy.rounds)
    unsettled = sum(int((final["changed"] & (final["n"] > 0)).sum())
                    for final in (strategy.final(role) for role in ("eldest", "dealer")))
    how = ("the rounds converged: no class changed in the last round of either role" if strategy.converged else
           f"the rounds did not settle: after {rounds} rounds {unsettled} hand class"
           f"{'es' if unsettled != 1 else ''} still changed in the last round of {'its' if unsettled == 1 else 'their'}"
           f" role (marked {UNSETTLED} in the tables; with two players best responses can cycle, and then neither "
           "table is a strategy to play)")
    doc.heading(BEST_RESPONSE_HEADING)
    doc.paragraph("The strategy tables answer another question than the equilibrium: the best choice for each hand "
                  "class when the other side bids by fixed rules, starting from the heuristic's, each role's best "
                  f"response in turn; {how}. A best response can itself be exploited: it is what to do against "
                  f"players who bid like the heuristic, not the strategy to play. {tuned_result(strength)}")
    doc.paragraph(f"Read as rules, the last tables say: eldest, {thumbs['eldest']} Dealer, when the eldest "
                  f"begs: {thumbs['dealer']}")


def class_note(role: str) -> str:
    option = ROLE[role].options[1]
    return (f"\"choose\": the better option in these deals (\"?\": its 95% CI includes zero); \"settled\": "
            f"{UNSETTLED} where the class's choice changed in the last round, so its {option} or not is not an "
            "answer.")

