"""The report's "Play advice" section: the Spanish-language guide's card-play tips, each a switch of the
card player, judged on duplicated deals and matches (``analysis.play_advice``)."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..analysis.bidding.advice import AdviceResult
from ..game.rules import RuleSet
from .document import Document

HEADING = "Play advice"

PLAY_COLUMNS = ["tip", "switch", "net points, on minus off", "95% CI", "verdict", "deals", "deals needed",
                "share changed", "effect where changed", "match-win, on minus off", "match-win 95% CI",
                "match-win verdict", "matches", "player follows it", "situations"]


def _num(x: Any, fmt: str) -> str:
    return "" if x is None or (isinstance(x, float) and not math.isfinite(x)) else format(x, fmt)


def _ci(ci: list[float], fmt: str) -> str:
    return f"[{_num(ci[0], fmt)}, {_num(ci[1], fmt)}]"


def play_view(claims: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per tip, with plain column names (PLAY_COLUMNS); a number not measured is empty."""
    rows = []
    for c in claims:
        m = c.get("match_win_rate") or {}
        f = c["followed_by_player"]
        rows.append([c["claim"], c["switch"], round(c["estimate"], 4), _ci(c["ci95"], "+.4f"), c["verdict"],
                     c["deals"], c["deals_needed"], round(c["changed_share"]["estimate"], 4),
                     round(c["effect_where_changed"]["estimate"], 4), round(m["estimate"], 4) if m else math.nan,
                     _ci(m["ci95"], "+.4f") if m else "", m.get("verdict", ""), m.get("matches", 0),
                     round(f["estimate"], 4), f["situations"]])
    view = pd.DataFrame(rows, columns=PLAY_COLUMNS)
    view["deals needed"] = view["deals needed"].astype("Int64")
    return view


def play_section(doc: Document, out: Path, advice: AdviceResult, numbers: dict[str, Any],
                 save_table: Callable[[pd.DataFrame, Path, str], str]) -> None:
    """Write the section, its table (tables/play-advice.csv) and numbers["play_advice"]."""
    if not advice.play:
        doc.heading(HEADING)
        doc.paragraph(f"Not measured{': ' + advice.play_skipped if advice.play_skipped else ''}.")
        return
    play_section_of(doc, out, [c.to_json() for c in advice.play], advice.rules, advice.policy, advice.play_deals,
                    advice.play_matches, advice.play_observer, numbers, save_table)


def play_section_of(doc: Document, out: Path, claims: list[dict[str, Any]], r: RuleSet, policy: str, deals: int,
                    matches: int, observer: str, numbers: dict[str, Any],
                    save_table: Callable[[pd.DataFrame, Path, str], str]) -> None:
    """The section from the tips' claims as report.json keeps them (a finished report's section redone)."""
    doc.heading(HEADING)
    numbers["play_advice"] = claims
    view = play_view(claims)
    path = save_table(view, out, "play-advice")
    seats = "each side in turn" if r.sides == 2 else f"each of the {r.sides} players in turn"
    doc.paragraph(
        "The Spanish-language guide also advises on card play. Each tip is a switch of the heuristic card player, set on or off "
        "for one side (`--policy heuristic:SWITCH=1` forces it on, `=0` off; `analyser/engine/tips.py` defines "
        f"each): the same {deals:,} deals from 0:0 are played with the switch on and then off for the "
        f"tip side ({seats}), the other side the plain `{policy}` player, on the same cards and random "
        f"draws; {matches:,} whole matches are played the same way. The effect is the tip side's net "
        "points per deal with the switch on minus off: *supported* when its 95% CI lies above zero, "
        "*contradicted* when below, else *inconclusive*, with the number of deals it would take to separate the "
        "observed effect from zero. \"Share changed\" is the share of plays in which the switch changed any card "
        "(or the dealer's give or run); \"effect where changed\" the effect per such play. \"Player follows it\": "
        f"how often the `{observer}` player, left alone, plays the tip's card where the tip applies "
        "(the strongest card player the engine has; it reads the player's habits, not the tip's worth).")
    bullets = []
    for c in claims:
        m = c.get("match_win_rate")
        win = (f"; match-win rate on minus off {m['estimate']:+.2%} (95% CI [{m['ci95'][0]:+.2%}, "
               f"{m['ci95'][1]:+.2%}], {m['verdict']})" if m else "")
        need = f"; about {c['deals_needed']:,} deals would separate it from zero" if c.get("deals_needed") else ""
        note = f" Note: {c['note']}." if c.get("note") else ""
        bullets.append(
            f"**{c['verdict']}**: {c['claim']} The guide: *{c['source'].split(': ', 1)[1]}* The switch "
            f"`{c['switch']}`: {c['switch_does']}. On minus off: {c['estimate']:+.3f} net points per deal (95% CI "
            f"[{c['ci95'][0]:+.3f}, {c['ci95'][1]:+.3f}]){need}; the switch changed the play in "
            f"{c['changed_share']['estimate']:.1%} of plays{win}.{note}")
    doc.bullets(bullets)
    doc.table(view, "Play advice on duplicated deals", path)
