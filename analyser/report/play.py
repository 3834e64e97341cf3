"""The report's "Play advice" section: the Spanish-language guide's card-play tips, each a switch of the
card player, judged on duplicated deals and matches (``analysis.play_advice``)."""

from __future__ import annotations

import functools
import math
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from ..analysis.bidding.advice import AdviceResult
from ..game.rules import RuleSet
from .card_play import FIT_COMMANDS, PlayCard, measured_on
from .document import Document, save_table

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


RULES_HEADING = "Rules for playing the cards"


def play_rules_section(doc: Document, out: Path, play: PlayCard, numbers: dict[str, Any],
                       save_table: Callable[[pd.DataFrame, Path, str], str]) -> None:
    """The rules of play fitted to the search player (the card's second side), each with its worth: the section,
    its table (tables/play-rules.csv) and numbers["play_rules"]."""
    doc.heading(RULES_HEADING)
    numbers["play_rules"] = {k: v for k, v in play.to_json().items() if k not in ("tips", "tips_source")}
    if not play.rules and play.versus is not None:
        doc.paragraph("The bidding rules above come from the equilibrium; rules for the card play were fitted to the pimc "
                      "search player's card decisions and played against the heuristic's card play on duplicated "
                      "deals, each rule dropped while its worth's 95% CI lay below zero; what was left did not beat "
                      f"the heuristic, so none is carried. Source: {play.source}. Every figure in this report plays "
                      "the cards with the heuristic.")
        return
    if not play.rules:
        doc.paragraph(f"The bidding rules above come from the equilibrium; rules for the card play come from the pimc "
                      f"search player's decisions, and none are fitted for these rules yet ({FIT_COMMANDS}). "
                      "Every figure in this report plays the cards with the heuristic.")
        return
    assert play.versus is not None
    view = pd.DataFrame([[k, r["text"], round(r["worth"], 4), _ci(r["worth_ci95"], "+.4f")]
                         for k, r in enumerate(play.rules, 1)],
                        columns=["rule", "in words", "worth, net points a deal", "95% CI"])
    path = save_table(view, out, "play-rules")
    v = play.versus
    doc.paragraph(
        "The bidding rules above come from the equilibrium; these rules for the card play come from the pimc search "
        "player: its card decisions, each legal card valued by search, and a decision list of at most 8 rules fitted "
        "to lose the fewest points against those values, of which a player carries the shortest top part within 0.01 "
        "net points a deal of the best, less any rule that cost points when played (its worth's 95% CI below zero "
        "on duplicated deals against the heuristic). Read top down, the first rule that speaks picks the card; where none does, "
        f"the heuristic's card. `--policy {play.policy}` plays them in `tournament`, `simulate` and `whatif`; the "
        f"strategy card's second side prints them. Against the heuristic's card play, on "
        f"{measured_on(v['matches'], v['deals'])}, the list gains {v['value']:+.3f} net points a deal (95% CI "
        f"[{v['ci95'][0]:+.3f}, {v['ci95'][1]:+.3f}]); a rule's worth is the list against the list without it, on "
        f"the same deals. Source: {play.source}. Every other figure in this report plays the cards with the "
        "heuristic.")
    doc.bullets([f"{r['text']} Worth {r['worth']:+.3f} net points a deal (95% CI [{r['worth_ci95'][0]:+.3f}, "
                 f"{r['worth_ci95'][1]:+.3f}])." for r in play.rules])
    doc.table(view, "Rules for playing the cards, each with its worth", path)


def add_play_rules_to_edition(rules: RuleSet, folder: Path) -> PlayCard:
    """Add (or replace) the section "Rules for playing the cards" in the finished report `folder`, just before
    "Play advice", with its table and report.json's "play_rules", and draw its card again with the second side;
    nothing is measured (the shipped rules of play and the edition's own play tips)."""
    import json

    from .advice import redraw_card
    from .card_play import edition_play
    from .document import splice_sections

    folder = Path(folder)
    play = edition_play(rules, folder)
    doc = Document("section")
    numbers: dict[str, Any] = {}
    written: list[str] = []

    play_rules_section(doc, folder, play, numbers, functools.partial(save_table, written=written))
    splice_sections(folder, doc, RULES_HEADING, RULES_HEADING, before=HEADING)
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    report.update(numbers)
    (folder / "report.json").write_text(json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8")
    redraw_card(rules, folder)
    manifest = folder / "manifest.json"
    if manifest.is_file() and written:
        doc_m = json.loads(manifest.read_text(encoding="utf-8"))
        doc_m["files"] = sorted(set(doc_m["files"]) | set(written))
        manifest.write_text(json.dumps(doc_m, indent=1) + "\n", encoding="utf-8")
    return play
