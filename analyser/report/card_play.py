"""The strategy card's second side, "Playing the cards": the rules of play a player would carry, each with what
it is worth, and the published play tips' verdicts beside them (``allfours card``; report/card.py draws it).

Where it comes from: the rules are the ones fitted to the search player's card decisions
(``results/play-rules/<preset>-<players>p``: ``scripts/play_positions.py``, ``scripts/fit_play_rules.py``), the
list a player would carry (``carried.json``: the fewest top rules within 0.01 net points a deal of the best list
on the fit's checking deals, less those ``scripts/play_rules_prune.py`` drops for costing points in play; none
when the rest do not beat the heuristic), priced on duplicated deals by ``scripts/play_rules_worth.py``
(``worth-top-N.json``: the list against the heuristic's card play, and each rule against the list without it).
They are read only for the rule set they were fitted on (the preset at that player count, no ``--set``); for
other rules the side says none were fitted and names the commands that fit them. The tips' verdicts are the
edition's (``tables/play-advice.csv``) when it was made for exactly these rules and seed, else measured now on
``CARD_TIP_DEALS`` duplicated deals (seconds).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd

from ..game.rules import RuleSet

PLAY_RULES_FOLDER = "play-rules"
CARRIED_FILE = "carried.json"  # scripts/fit_play_rules.py: the top `carry` rules alone
CARD_TIP_DEALS = 20_000        # the play tips measured for a card (no edition for these rules): duplicated deals
SIDE_TITLE = "Playing the cards"  # the second side's title
FIT_COMMANDS = ("scripts/play_positions.py and scripts/fit_play_rules.py fit them; scripts/play_rules_worth.py "
                "prices them")
NONE_FITTED = f"no rules of play fitted for these rules ({FIT_COMMANDS})"
TIP_MARK = {"supported": "✓", "contradicted": "✗", "inconclusive": "?"}


@dataclasses.dataclass
class PlayCard:
    policy: str                     # the policy spec that plays these rules ("heuristic" when none are fitted)
    rules: list[dict[str, Any]]     # text, worth, worth_ci95 (net points a deal: the list minus the list without it)
    versus: dict[str, Any] | None   # the list against the heuristic's play: value, ci95, matches, deals, seed
    source: str                     # where the rules and their worth come from, in words
    tips: list[dict[str, Any]]      # tip, verdict, estimate, ci95 (net points a deal, the switch on minus off)
    tips_source: str

    def to_json(self) -> dict[str, Any]:
        return {"policy": self.policy, "rules": self.rules, "versus_heuristic": self.versus, "source": self.source,
                "tips": self.tips, "tips_source": self.tips_source}


def play_rules_folder(rules: RuleSet, results: Path) -> Path | None:
    """The folder of rules of play fitted for exactly these rules (the preset at this player count, with nothing
    changed by ``--set``) and priced, or None."""
    from .card import variant_settings

    folder = Path(results) / PLAY_RULES_FOLDER / f"{rules.preset}-{rules.players}p"
    positions = folder / "positions.json"
    if variant_settings(rules) or not (positions.is_file() and (folder / CARRIED_FILE).is_file()):
        return None
    made = _read(positions)
    if made.get("rules") != rules.preset or int(made.get("players", -1)) != rules.players:
        return None
    carried = _read(folder / CARRIED_FILE)
    carry = int(carried["carry"])
    if carry == 0:  # fitted, and none paid in play (scripts/play_rules_prune.py): its test is the record
        return folder if carried.get("tested", {}).get("versus_heuristic") else None
    return folder if (folder / f"worth-top-{carry}.json").is_file() else None


def measured_on(matches: int | None, deals: int) -> str:
    """'4,000 duplicated matches (21,931 deals)', or for three players (no tournament) '20,000 duplicated deals
    (one player switched, the others the heuristic)'."""
    if matches is None:
        return f"{deals:,} duplicated deals (one player switched, the others the heuristic)"
    return f"{matches:,} duplicated matches ({deals:,} deals)"


def _read(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def fitted_rules(folder: Path, where: str) -> tuple[list[dict[str, Any]], dict[str, Any], str]:
    """(rules with their worth, the list against the heuristic, the source in words) of a play-rules folder."""
    carried = _read(folder / CARRIED_FILE)
    positions = _read(folder / "positions.json")
    if int(carried["carry"]) == 0:
        tested = carried["tested"]
        value, ci = float(tested["versus_heuristic"]["value"]), [float(x) for x in tested["versus_heuristic"]["ci95"]]
        matches = None if tested.get("matches") is None else int(tested["matches"])
        against = {"value": value, "ci95": ci, "matches": matches, "deals": int(tested["deals"]),
                   "seed": int(tested["seed"])}
        source = (f"{where} (rules fitted to {positions['decisions']:,} card decisions of the pimc search player, "
                  f"seed {positions['seed']}; the {tested['rules']} kept after pruning, against the heuristic on "
                  f"{measured_on(matches, int(tested['deals']))}, seed {tested['seed']}: {points(value, ci)}; "
                  "none carried)")
        return [], against, source
    worth = _read(folder / f"worth-top-{carried['carry']}.json")
    pairs = worth["pairings"]
    versus = next(p for p in pairs if p["b"] == "heuristic")
    rules = []
    for k, rule in enumerate(carried["rules"], 1):
        dropped = next(p for p in pairs if p["b"] == f"without rule {k}")
        d = dropped["diff_points_per_deal"]
        rules.append({"text": rule["words"], "worth": float(d["value"]), "worth_ci95": [float(x) for x in d["ci95"]]})
    d = versus["diff_points_per_deal"]
    matches = None if versus["matches"] is None else int(versus["matches"])
    deals = int(versus["deals"])
    against = {"value": float(d["value"]), "ci95": [float(x) for x in d["ci95"]], "matches": matches,
               "deals": deals, "seed": int(worth["seed"])}
    pruned = carried.get("pruned") or []
    cut = (f"; {len(pruned)} of the fit's {len(carried.get('fitted_carry_rules', []))} dropped for costing "
           "points in play" if pruned else "")
    source = (f"{where} (rules fitted to {positions['decisions']:,} card decisions of the pimc search player, "
              f"seed {positions['seed']}{cut}; worth on {measured_on(matches, deals)}, seed {worth['seed']})")
    return rules, against, source


def tip_rows(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """The tips of an edition's tables/play-advice.csv."""
    return [{"tip": str(r["tip"]), "verdict": str(r["verdict"]), "estimate": float(r["net points, on minus off"]),
             "ci95": [float(x) for x in str(r["95% CI"]).strip("[]").split(",")]} for _, r in frame.iterrows()]


def edition_tips(rules: RuleSet, seed: int, folder: Path) -> list[dict[str, Any]] | None:
    """The edition's tips when its report was made for exactly these rules and seed, else None."""
    from .card import made_for

    table, report = folder / "tables" / "play-advice.csv", folder / "report.json"
    if not (table.is_file() and report.is_file() and made_for(_read(report), rules, seed)):
        return None
    return tip_rows(pd.read_csv(table))


def tip_deals_needed(rules: RuleSet, seed: int, folder: Path) -> int:
    """The deals `load_play` plays for the tips (its progress): 0 when the edition has them."""
    return 0 if edition_tips(rules, seed, folder) is not None else CARD_TIP_DEALS


def load_play(rules: RuleSet, seed: int, results: Path, folder: Path, executor: Any = None,
              progress: Callable[[int], None] | None = None, say: Callable[[str], None] = lambda m: None) -> PlayCard:
    """The card's second side for these rules: the shipped rules of play, and the tips from the edition in
    `folder` or measured now (module docstring)."""
    tips = edition_tips(rules, seed, folder)
    if tips is not None:
        where = folder.relative_to(results.parent) if folder.is_relative_to(results.parent) else folder
        tips_source = f"{where}/tables/play-advice.csv"
    else:
        from ..analysis.play.play_advice import check_play_advice

        say(f"card: checking the published play tips on {CARD_TIP_DEALS:,} duplicated deals")
        measured = check_play_advice(rules, "heuristic", CARD_TIP_DEALS, 0, seed, executor=executor, progress=progress,
                                     observe_deals=0)
        tips = [{"tip": c.claim, "verdict": c.verdict, "estimate": float(c.estimate),
                 "ci95": [float(x) for x in c.ci95]} for c in measured.claims]
        tips_source = f"checked now ({CARD_TIP_DEALS:,} duplicated deals, seed {seed})"
    return edition_play(rules, folder, tips, str(tips_source), results)


def edition_play(rules: RuleSet, folder: Path, tips: list[dict[str, Any]] | None = None, tips_source: str = "",
                 results: Path | None = None) -> PlayCard:
    """The second side of an edition's own card (the report's build, a finished edition redrawn): the shipped
    rules of play for these rules, and `tips` (the build's own) or else the edition's tables/play-advice.csv."""
    from .card import RESULTS

    results = RESULTS if results is None else Path(results)
    found = play_rules_folder(rules, results)
    if found is not None:
        where = str(found.relative_to(results.parent)) if found.is_relative_to(results.parent) else str(found)
        fitted, versus, source = fitted_rules(found, where)
        policy = f"rules:{found.name}" if fitted else "heuristic"  # (none carried: the heuristic's play)
    else:
        fitted, versus, policy, source = [], None, "heuristic", NONE_FITTED
    if tips is None:
        table = Path(folder) / "tables" / "play-advice.csv"
        tips = tip_rows(pd.read_csv(table)) if table.is_file() else []
        tips_source = f"{Path(folder).name}/tables/play-advice.csv"
    return PlayCard(policy, fitted, versus, source, tips, tips_source)


def points(value: float, ci: list[float]) -> str:
    """'+0.016 net points a deal [+0.007, +0.025]'."""
    return f"{value:+.3f} net points a deal [{ci[0]:+.3f}, {ci[1]:+.3f}]"


def play_sections(play: PlayCard) -> list[tuple[str, list[str]]]:
    """(heading, lines) of the card's second side: the one source of its text and its drawing."""
    if play.rules:
        assert play.versus is not None
        lines = [f"{k}. {r['text']} Worth {r['worth']:+.3f} [{r['worth_ci95'][0]:+.3f}, {r['worth_ci95'][1]:+.3f}]."
                 for k, r in enumerate(play.rules, 1)]
        lines.append("(Read top down; where no rule speaks, play as the heuristic does. A rule's worth: net points a "
                     "deal of the list against the list without that rule. The list against the heuristic's card "
                     f"play: {points(play.versus['value'], play.versus['ci95'])}; 95% CIs, on the same deals. "
                     f"Play it: --policy {play.policy}.)")
    elif play.versus is not None:  # fitted, but none paid at the table
        lines = [f"None: the rules fitted to the search player's decisions did not beat the heuristic's card play on "
                 f"duplicated deals. Play as the heuristic does. ({play.source})"]
    else:
        lines = [f"No rules of play fitted for these rules: {play.source.split('(', 1)[1].rstrip(')')}."]
    tips = [f"{TIP_MARK.get(t['verdict'], '?')} {t['verdict']}: {t['tip']} "
            f"({points(t['estimate'], t['ci95'])})" for t in play.tips]
    return [("RULES LEARNED FROM THE SEARCH PLAYER", lines), ("THE PUBLISHED PLAY TIPS, CHECKED", tips),
            ("", [(f"Rules of play: {play.source}. " if play.rules else "")
                  + f"Tips: each a switch of the heuristic's card play, on minus off, the other side unchanged: "
                  f"{play.tips_source}."])]
