"""One page a guide writer can quote (``QUOTE.md`` in a report folder).

For one rule set and player count: the bidding rules with what each costs against the equilibrium, what the
score changes (the near-target rules and the exact scores that depart from them), each published-advice verdict
with the comparison it makes (which bids the other role makes, which player plays the cards), the play tips,
and what card play is worth against bidding. Every number comes with its conditions (rules, score, players) and
the command that reproduces it.

It is written only from what the report folder keeps: ``report.json``, ``rules-of-thumb/rules.json``,
``tables/*.csv``, ``strategy/rounds.csv`` and, for the exact-score exceptions, ``equilibrium-scores/scores.csv``
(``card.edition_departures``); nothing is measured. It works for a report that leads with the equilibrium and
for one made before (its tournaments have no equilibrium row: the page says what is not measured).
``scripts/quote_pages.py`` writes it for every shipped edition.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from ..record.vocabulary import ELDEST
from ..players.policy import policy_label
from ..game.rules import RuleSet, rules_from_log
from .card import (
    RESULTS, RULES_FOLDER, assumed_rules, chosen_row, command as card_command, edition_departures, near_words,
    rules_name, variant_settings,
)
from .card_play import measured_on
from .document import Document

QUOTE_FILE = "QUOTE.md"
PRUNE_COMMAND = "scripts/play_rules_prune.py --folder "
PLAY_RULES = "results/play-rules"
DEPARTURES_LISTED = 12  # exact-score exceptions listed on the page (card --json lists them all)
STRENGTH = "trump strength: trumps held, the ace and the jack of trump counting twice"
# The tournaments' seeds (report/sections.bidding_pairings: pairing k from seed + k; report/strength: the search
# players from seed + 10 + k) and what each player is.
TOURNAMENT_SEEDS = {"tuned": 1, "equilibrium": 2, "pimc": 10, "oracle": 11}
PLAYERS = {
    "equilibrium": ("bidding", "the heuristic's card play, the equilibrium's bids"),
    "tuned": ("bidding", "the heuristic's card play, the best responses' bids (the strategy tables)"),
    "pimc": ("card play", "searches sampled deals for each card; bids as the heuristic does"),
    "oracle": ("card play", "sees every hand (it cheats: the ceiling of card play); bids as the heuristic does"),
}


class Edition:
    """What one report folder keeps, read once."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.numbers: dict[str, Any] = _json(self.folder / "report.json")
        self.rules: RuleSet = rules_from_log(self.numbers["rules"])
        thumbs = self.folder / RULES_FOLDER / "rules.json"
        self.thumbs: dict[str, Any] | None = _json(thumbs) if thumbs.is_file() else None
        self.advice = _csv(self.folder / "tables" / "advice.csv")
        self.eq_advice = _csv(self.folder / "tables" / "equilibrium-advice.csv")
        self.seed = int(self.numbers["seed"])
        self.policy = str(self.numbers.get("policy", "heuristic"))
        self.sizes: dict[str, int] = self.numbers["sizes"]
        self.where = _where(self.folder)
        self.base = f"--rules {self.rules.preset} --players {self.rules.players}" + "".join(
            f" --set {x}" for x in variant_settings(self.rules))

    @property
    def leads_with_equilibrium(self) -> bool:
        return "best_response_rules" in self.numbers

    def report_command(self) -> str:
        """The command in REPORT.md's first code block (the one that regenerates the report)."""
        page = (self.folder / "REPORT.md").read_text(encoding="utf-8")
        found = re.search(r"^```\n(.+?)\n```", page, flags=re.M | re.S)
        return found.group(1).strip() if found else "(REPORT.md states no command)"

    def allfours(self, name: str, rest: str) -> str:
        return f"`allfours {name} {self.base} {rest}`"


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _csv(path: Path) -> pd.DataFrame | None:
    return pd.read_csv(path) if path.is_file() else None


def _where(folder: Path) -> str:
    """The folder as a command names it: results/NAME for a shipped edition, else its path; a report being built
    (``OUT.partial``, report/folder.py) by the name it will have."""
    folder = folder.resolve()
    folder = folder.with_name(folder.name.removesuffix(".partial"))
    return folder.relative_to(RESULTS.parent).as_posix() if folder.is_relative_to(RESULTS.parent) else str(folder)


def signed(x: float, digits: int) -> str:
    return f"{x:+.{digits}f}"


def interval(lo: float, hi: float, digits: int) -> str:
    return f"[{lo:+.{digits}f}, {hi:+.{digits}f}]"


def heuristic_bids(policy: str) -> tuple[str, str]:
    """How the `policy` player bids, in words: (the eldest's rule, the dealer's rule)."""
    if policy != "heuristic":
        return f"bids as the `{policy}` player", f"answers as the `{policy}` player"
    from ..engine.heuristic import HEURISTIC_DEFAULTS

    beg, give = HEURISTIC_DEFAULTS["beg_trumps"][1], HEURISTIC_DEFAULTS["give_trumps"][1]
    return (f"the heuristic's rule (beg with trump strength under {beg:g}, else stand)",
            f"the heuristic's rule (give with trump strength {give:g} or more, else run)")


# ---- the page -------------------------------------------------------------------------------------------


def quote_page(folder: Path) -> str:
    """The page (Markdown) for the report folder `folder`, from its files alone (module docstring)."""
    ed = Edition(folder)
    doc = Document(f"All Fours, {rules_name(ed.rules)}: what to quote")
    _conditions(doc, ed)
    _bidding_rules(doc, ed)
    _score(doc, ed)
    _advice(doc, ed)
    _play_tips(doc, ed)
    _play_rules(doc, ed)
    _card_play(doc, ed)
    return doc.markdown()


def write_quote_page(folder: Path) -> Path:
    """Write `folder`/QUOTE.md (``quote_page``); returns its path."""
    path = Path(folder) / QUOTE_FILE
    path.write_text(quote_page(folder), encoding="utf-8")
    return path


def _conditions(doc: Document, ed: Edition) -> None:
    r = ed.rules
    sides = ("each of the 3 players alone (the eldest's side is the eldest, against both others together)"
             if r.sides == 3 else "two sides" + (" of two partners" if r.players == 4 else ""))
    doc.paragraph(f"Every number on this page is read from `{ed.where}` and holds under these conditions, unless "
                  "its line says otherwise. A 95% confidence interval follows each number in brackets.")
    doc.bullets([
        f"**Rules:** {r.preset}, {r.players} players, {sides}. {assumed_rules(r)}",
        "**Score:** 0:0, the start of a match (\"What the score changes\" names its scores, the eldest's side "
        "first).",
        f"**Players:** every seat plays its cards as the `{ed.policy}` player (analyser/engine/heuristic.py); "
        "what the bids are is said for each number.",
        "**Net points a deal:** the deciding side's points minus the other sides' together, from the decision to "
        "the end of the hand.",
        f"**Seed {ed.seed}.** The whole report folder: `{ed.report_command()}`.",
    ])


def _bidding_rules(doc: Document, ed: Edition) -> None:
    doc.heading("The bidding rules")
    eq = ed.numbers.get("equilibrium")
    if eq is not None:
        lo, hi = eq["value_ci95"]
        how = ("the pair of bidding strategies neither side can exploit (solved exactly by linear programming"
               if "linear" in str(eq.get("method", "")) else
               "the bidding strategies no player gains against by changing alone (approximated by CFR+: with three "
               "players the game is not zero-sum")
        doc.paragraph(f"The bidding equilibrium is {how}; {int(eq['deals']):,} decision deals). Its value to the "
                      "eldest's side: "
                      f"**{signed(eq['value'], 4)} {interval(lo, hi, 4)} net points a decision deal** at 0:0. "
                      "Reproduce: " + ed.allfours("equilibrium", f"--deals {int(eq['deals'])} --seed {ed.seed} --out DIR")
                      + ".")
    if ed.thumbs is None:
        doc.paragraph("Not measured: this folder keeps no rules of thumb (rules-of-thumb/rules.json).")
        return
    rows = []
    for role in ("eldest", "dealer"):
        row = chosen_row(ed.thumbs, role)
        a, c, w = row["agreement"], row["cost_points"], row["cost_win"]
        rows.append({"role": "Eldest" if role == "eldest" else "Dealer, when the eldest begs",
                     "rule": " ".join(row["text"]),
                     "agrees with the equilibrium": f"{100 * a['mean']:.1f}% "
                                                    f"[{100 * a['ci95'][0]:.1f}, {100 * a['ci95'][1]:.1f}]",
                     "cost, net points a deal": f"{signed(c['mean'], 4)} {interval(c['ci95'][0], c['ci95'][1], 4)}",
                     "cost, match-win percentage points a deal": "not measured (three players)" if w is None else
                     f"{signed(100 * w['mean'], 3)} {interval(100 * w['ci95'][0], 100 * w['ci95'][1], 3)}"})
    doc.table(pd.DataFrame(rows), "The card's rules against the equilibrium", f"{RULES_FOLDER}/rules.json")
    m = ed.thumbs["measure"]
    rows_json = [chosen_row(ed.thumbs, role) for role in ("eldest", "dealer")]
    below = any(c is not None and c["ci95"][1] < 0 for r in rows_json for c in (r["cost_points"], r["cost_win"]))
    doc.paragraph(f"Each rule is the shortest list within {ed.thumbs['close_enough']} net points a deal of the "
                  "equilibrium (else the best of three lines), chosen to lose least against it. Cost: what a side "
                  "loses per eldest decision deal by playing the rule instead of the equilibrium, the other role "
                  "playing the equilibrium and the heuristic playing the cards, at 0:0; the match-win cost is "
                  "in percentage points of the chance of winning the match, one deal played from 0:0. Measured on "
                  f"{int(m['deals']):,} fresh deals (seed {m['seed']}), not the deals the rules were fitted on. A "
                  "cost whose interval holds zero is too small to measure"
                  + ("; a cost below zero: the rule did better than the equilibrium by that measure (the "
                     "equilibrium is solved for net points at 0:0, and is estimated)" if below else "")
                  + ". Printed by "
                  f"`{card_command(ed.rules)}` (the shipped edition); fitted and measured again by the report's "
                  "command.")
    best = ed.numbers.get("best_response_rules") if ed.leads_with_equilibrium else ed.numbers.get("rules_of_thumb")
    if best:
        opening = ("" if ed.leads_with_equilibrium else
                   "This edition's REPORT.md opens with these instead of the card's rules. ")
        doc.paragraph(f"Not the rules to quote as a strategy: the best responses to the heuristic's bidding (the "
                      f"strategy tables, tables/eldest-classes.csv and tables/dealer-classes.csv) read: eldest, "
                      f"{best['eldest']} Dealer, {best['dealer']} {opening}They answer players who bid like the "
                      "heuristic, and can themselves be exploited"
                      + (" (\"Card play against bidding\" gives how they fare in matches)." if ed.rules.sides == 2
                         else "."))


def _score(doc: Document, ed: Edition) -> None:
    doc.heading("What the score changes")
    thumbs = ed.thumbs or {}
    if ed.rules.sides == 3:
        doc.paragraph("Not measured with three players: the equilibrium at every score needs two sides (the "
                      "match-equity table would be three-dimensional). Every number on this page is at 0:0.")
        return
    if not thumbs.get("near_target"):
        doc.paragraph(" ".join(near_words(thumbs)) + " Every number on this page is at 0:0.")
        return
    by = ed.numbers.get("equilibrium_by_score") or {}
    play = policy_label(str(by.get("play", ed.policy)))
    later = {"equilibrium": "the equilibrium's bids", "tuned": "the best responses' bids"}.get(
        play.partition(":")[0], f"`{play}`")
    doc.paragraph(f"Near the target ({ed.rules.target} points) the payoff is the chance of winning the match, not net "
                  f"points: the bidding equilibrium is solved again at every score below the target "
                  f"({int(by.get('deals', 0)):,} deals, each scored from every score), the match's later deals "
                  f"played with {later} and the heuristic's card play (the report's match-equity table). It "
                  "assumes both sides play that equilibrium at every score. Summed up as rules of the card's size, "
                  "where a side needs 2 points or fewer:")
    doc.bullets(near_words(thumbs))
    found = edition_departures(ed.rules, ed.folder, thumbs)
    if found is None:
        doc.paragraph("Exact-score exceptions: not measured (this folder keeps no equilibrium at every score made "
                      "for these rules).")
    elif not found:
        doc.paragraph("Exact-score exceptions: none. At every score near the target the near-target rule takes the "
                      "equilibrium's action on at least 75% of hands.")
    else:
        rows = [{"score": d["score"], "role": d["role"], "situation": d["situation"],
                 "the equilibrium there, as a rule": " ".join(d["rule"]),
                 "hands it gets right": f"{100 * d['agreement']:.0f}%",
                 "the near-target rule gets right": f"{100 * d['near_agreement']:.0f}%",
                 **({} if d.get("settled") is None else {"hands settled": f"{100 * d['settled']:.0f}%"})}
                for d in found[:DEPARTURES_LISTED]]
        more = len(found) - DEPARTURES_LISTED
        doc.paragraph("Exact-score exceptions: the scores (the eldest's side first) where the equilibrium leaves the "
                      "near-target rule (the rule takes its action on under 75% of hands there), worst first"
                      + (f"; the {DEPARTURES_LISTED} worst of {len(found)}" if more > 0 else "")
                      + ("" if found[0].get("settled") is None else
                         "; \"hands settled\": the share of the role's hands there whose action the bootstrap's 95% "
                         "CI settles (within 5% of never or always)") + ":")
        doc.table(pd.DataFrame(rows), "Exact scores that depart from the near-target rules",
                  "equilibrium-scores/scores.csv")
    doc.paragraph(f"Reproduce: `{card_command(ed.rules)}` prints the near-target rules and the worst exceptions; "
                  f"`{card_command(ed.rules)} --json` lists every exception (\"departures\"); both are made by the "
                  "report's command.")


ADVICE_DEALER = {"eldest-zero-trump-begs-70-80", "eldest-beg-missing-ace-or-jack"}


def _advice(doc: Document, ed: Edition) -> None:
    doc.heading("The published bidding advice")
    eldest_rule, dealer_rule = heuristic_bids(ed.policy)
    if ed.advice is None:
        doc.paragraph("Not measured: this folder keeps no tables/advice.csv.")
        return
    ids = {c["claim"]: c for c in ed.numbers.get("advice", [])}
    rows = []
    for _, r in ed.advice.iterrows():
        claim = ids.get(r["claim"], {})
        eldest = claim.get("id") in ADVICE_DEALER
        share = claim.get("unit") == "share of hands"
        rows.append({"advice": r["claim"], "verdict": r["verdict"], "what the deals say": r["finding"],
                     "measured": f"{r['estimate']:.4f} {r['95% CI']}",
                     "what is measured": ("share of the eldest's no-trump hands where begging beats standing"
                                          if share else "net points a deal, " + ("beg minus stand" if eldest else
                                          "run minus give" if "run" in str(claim.get("id")) else "give minus run")),
                     "the other role bids by": (f"dealer: {dealer_rule}" if eldest else f"eldest: {eldest_rule}"),
                     "deals": f"{int(r['deals']):,}"})
    doc.paragraph("Each piece of advice tested as a best response: both choices played on the same deals, the "
                  f"other role bidding by fixed rules ({STRENGTH}), every card played by the `{ed.policy}` "
                  "player, at 0:0. *Supported* when the 95% interval lies on the advice's side, *contradicted* when "
                  "wholly on the other, else *inconclusive*.")
    doc.table(pd.DataFrame(rows), "The advice as best responses to the heuristic's bids", "tables/advice.csv")
    doc.paragraph("Reproduce: " + ed.allfours("check-advice", f"--deals {int(ed.sizes['advice'])} --seed {ed.seed} "
                                              "--no-equilibrium --play-deals 0 --play-matches 0") + ".")
    if ed.eq_advice is not None and len(ed.eq_advice):
        rows = [{"advice": r["claim"], "verdict": r["verdict"], "what the deals say": r["finding"],
                 "P(beg) at the equilibrium": f"{r['estimate']:.4f} {r['95% CI']}",
                 "as a best response": r.get("best response verdict", "")} for _, r in ed.eq_advice.iterrows()]
        eq_deals = int((ed.numbers.get("equilibrium") or {}).get("deals", ed.sizes["equilibrium"]))
        doc.paragraph("The eldest's two pieces of advice read against the equilibrium instead: how often the "
                      "equilibrium begs over the hands the advice names (weighted by how often they are dealt), the "
                      "dealer answering at the equilibrium too, the heuristic playing the cards, net points at 0:0. "
                      "\"Beg when missing the ace or the jack\" is read as begging more often than not.")
        doc.table(pd.DataFrame(rows), "The eldest's advice at the equilibrium", "tables/equilibrium-advice.csv")
        doc.paragraph("Reproduce: " + ed.allfours("check-advice", f"--deals {eq_deals} --seed {ed.seed} "
                                                  "--play-deals 0 --play-matches 0")
                      + " (its equilibrium readings).")
    _no_trump_gain(doc, ed, dealer_rule)


def _no_trump_gain(doc: Document, ed: Edition, dealer_rule: str) -> None:
    """Begging's gain with no trump, against each dealer the folder measures it against."""
    claim = next((c for c in ed.numbers.get("advice", []) if c.get("id") == "eldest-zero-trump-begs-70-80"), None)
    lines = []
    if claim is not None and ELDEST.diff_key in claim:
        g = claim[ELDEST.diff_key]
        lines.append(f"against a dealer who answers by {dealer_rule}: **{signed(g['estimate'], 3)} "
                     f"{interval(g['ci95'][0], g['ci95'][1], 3)}** ({int(g['n']):,} deals; the advice check above).")
    classes, rounds = _csv(ed.folder / "tables" / "eldest-classes.csv"), _csv(ed.folder / "strategy" / "rounds.csv")
    if classes is not None and rounds is not None and (classes["hand class"] == "T0").any():
        t0 = classes[classes["hand class"] == "T0"].iloc[0]
        last = int(rounds.loc[rounds["role"] == "eldest", "round"].max())
        head = ("the same dealer in the strategy tables' round 1 (other deals)" if last == 1 else
                f"against a dealer who answers by the dealer's best response of round {last - 1} of the strategy "
                "tables (the tuned dealer)")
        lines.append(f"{head}: **{signed(float(t0[ELDEST.diff]), 3)} "
                     f"{t0['95% CI']}** (tables/eldest-classes.csv, T0, round {last}; "
                     + ed.allfours("strategy", f"--deals {int(ed.sizes['strategy'])} --seed {ed.seed}") + ").")
    eq_zero = None if ed.eq_advice is None else ed.eq_advice[ed.eq_advice["claim"].str.contains("no trump")]
    if eq_zero is not None and len(eq_zero):
        r = eq_zero.iloc[0]
        lines.append(f"against the equilibrium's dealer the eldest begs with no trump with probability "
                     f"{r['estimate']:.4f} {r['95% CI']} (the table above).")
    if lines:
        doc.paragraph("What begging with no trump gains depends on how the dealer answers a beg; quote the number "
                      "with its dealer (net points a deal, at 0:0, the heuristic playing the cards):")
        doc.bullets(lines)


def _play_tips(doc: Document, ed: Edition) -> None:
    doc.heading("The play tips")
    tips = ed.numbers.get("play_advice") or []
    if not tips:
        doc.paragraph("Not measured in this edition.")
        return
    rows = []
    for t in tips:
        m = t.get("match_win_rate") or {}
        rows.append({"tip": t["claim"], "switch": f"`{t['switch']}`", "verdict": t["verdict"],
                     "net points a deal, on minus off": f"{signed(t['estimate'], 4)} {interval(t['ci95'][0], t['ci95'][1], 4)}",
                     "match-win percentage points, on minus off": "-" if not m else
                     f"{signed(100 * m['estimate'], 2)} {interval(100 * m['ci95'][0], 100 * m['ci95'][1], 2)}",
                     "deals": f"{int(t['deals']):,}", "matches": f"{int(m['matches']):,}" if m else "-"})
    sides = "each of the 3 players in turn" if ed.rules.sides == 3 else "each side in turn"
    doc.paragraph(f"Each tip is a switch of the `{ed.policy}` card player: the same deals from 0:0 are played with "
                  f"the switch on and then off for the tip side ({sides}), every other seat the plain "
                  f"`{ed.policy}` player, everyone bidding by the heuristic's rules; the same for whole matches from "
                  "0:0 (match-win in percentage points). A tip's worth is measured against the heuristic's own "
                  "play: it says what the tip does for a player who otherwise plays like the heuristic.")
    doc.table(pd.DataFrame(rows), "The play tips", "tables/play-advice.csv")
    t = tips[0]
    matches = int((t.get("match_win_rate") or {}).get("matches", 0))
    observer = str(ed.numbers.get("pimc", "pimc"))
    doc.paragraph("Reproduce: " + ed.allfours(
        "check-advice", f"--deals {int(ed.sizes['advice'])} --seed {ed.seed} --no-equilibrium --play-deals "
                        f"{int(t['deals'])} --play-matches {matches}"
                        + ("" if observer == "pimc" else f" --observer {observer}")) + ".")


def _play_rules(doc: Document, ed: Edition) -> None:
    doc.heading("Rules for playing the cards")
    found = ed.numbers.get("play_rules") or {}
    tested = found.get("versus_heuristic")
    if not found.get("rules") and tested:
        doc.paragraph("None carried: rules fitted to the pimc search player's card decisions were played against the "
                      "heuristic's card play on duplicated deals, each rule dropped while its worth's 95% CI lay below "
                      f"zero, and what was left did not beat the heuristic: {signed(tested['value'], 3)} net points a "
                      f"deal {interval(tested['ci95'][0], tested['ci95'][1], 3)}, on "
                      f"{measured_on(tested['matches'], tested['deals'])}, seed {tested['seed']}. The card play in "
                      f"every figure above is the heuristic's. Source: {found['source']}.")
        doc.paragraph(f"Reproduce: `.venv/bin/python {PRUNE_COMMAND}{PLAY_RULES}/{ed.folder.name}` (docs/rules-of-thumb.md, "
                      "\"Every rule set\").")
        return
    if not found.get("rules"):
        doc.paragraph("Not measured: no rules for playing the cards are fitted for these rules (docs/rules-of-thumb.md, "
                      "\"Rules for playing the cards\", says how); the card play in every figure above is the "
                      "heuristic's.")
        return
    v = found["versus_heuristic"]
    rows = [{"rule": f"{k}. {r['text']}", "worth, net points a deal": f"{signed(r['worth'], 3)} "
             f"{interval(r['worth_ci95'][0], r['worth_ci95'][1], 3)}"} for k, r in enumerate(found["rules"], 1)]
    doc.paragraph(f"Learned from the pimc search player's card decisions and read top down before the heuristic's "
                  f"own card (`--policy {found['policy']}`), at the rules of this page, in {ed.rules.players}-player deals from 0:0 "
                  f"with the heuristic's bids: together they beat the heuristic's card play by {signed(v['value'], 3)} "
                  f"net points a deal {interval(v['ci95'][0], v['ci95'][1], 3)}, on "
                  f"{measured_on(v['matches'], v['deals'])}. A rule's worth is the list against the list without it, on the "
                  f"same deals. Source: {found['source']}.")
    doc.table(pd.DataFrame(rows), "Rules for playing the cards", "tables/play-rules.csv")
    name = found["policy"].partition(":")[2]
    doc.paragraph(f"Reproduce: `.venv/bin/python {PRUNE_COMMAND}{PLAY_RULES}/{name}` (the fit's list played, any rule "
                  "that costs points dropped, then the list's worth), or the worth alone: `.venv/bin/python "
                  f"scripts/play_rules_worth.py --rules {PLAY_RULES}/{name}/carried.json --matches {v['matches'] or v['deals'] // 5} "
                  f"--seed {v['seed']}` (the fit: docs/rules-of-thumb.md, \"Rules for playing the cards\").")


def _card_play(doc: Document, ed: Edition) -> None:
    doc.heading("Card play against bidding")
    rows = [r for r in ed.numbers.get("tournaments") or [] if r.get("b") == "heuristic" and r.get("matches")]
    if not rows:
        doc.paragraph("Not measured: the tournaments need two sides; with three players each plays alone.")
        return
    table, commands, found = [], [], {}
    for r in sorted(rows, key=lambda r: list(PLAYERS).index(str(r["a"]).partition(":")[0])
                    if str(r["a"]).partition(":")[0] in PLAYERS else len(PLAYERS)):
        name = str(r["a"]).partition(":")[0]
        if name not in PLAYERS or name in found:
            continue
        found[name] = r
        what, who = PLAYERS[name]
        table.append({"better": what, "player A": f"`{r['a']}`", "what A is": who, "player B": "`heuristic`",
                      "net points a deal, A minus B": f"{signed(r['a_minus_b_points_per_deal'], 3)} "
                                                      f"{interval(r['points_ci_lo'], r['points_ci_hi'], 3)}",
                      "matches A wins": f"{100 * r['a_win_rate']:.2f}% [{100 * r['ci_lo']:.2f}, "
                                        f"{100 * r['ci_hi']:.2f}]",
                      "matches": f"{int(r['matches']):,}"})
        spec = {"tuned": f"tuned:{ed.where}/strategy", "equilibrium": f"equilibrium:{ed.where}/equilibrium"}.get(
            name, str(r["a"]))
        commands.append(f"{name}: " + ed.allfours("tournament", f"--a {spec} --b heuristic --matches "
                                                  f"{int(r['matches'])} --seed {ed.seed + TOURNAMENT_SEEDS[name]}"))
    doc.paragraph("Each player against the `heuristic` in whole matches from 0:0, each deal played twice with the "
                  "seats swapped; net points a deal over every deal of the matches. Only the bidding differs in "
                  "the first rows, only the card play in the last.")
    doc.table(pd.DataFrame(table), "Better bidding and better card play, each against the heuristic",
              "tables/tournaments.csv")
    if "equilibrium" not in found:
        doc.paragraph("The equilibrium's bidding is not measured against the heuristic in this edition (its "
                      "tournaments have no equilibrium row); "
                      + ed.allfours("tournament", f"--a equilibrium:{ed.where}/equilibrium --b heuristic "
                                                  f"--matches {int(ed.sizes['matches'])} "
                                                  f"--seed {ed.seed + TOURNAMENT_SEEDS['equilibrium']}")
                      + " would measure it.")
    bidding = found.get("equilibrium") or found.get("tuned")
    play = found.get("pimc")
    if bidding is not None and play is not None and bidding["points_ci_lo"] > 0 and play["points_ci_lo"] > 0:
        ratio = play["a_minus_b_points_per_deal"] / bidding["a_minus_b_points_per_deal"]
        doc.paragraph(f"Here better card play (`{play['a']}`) gains about {ratio:.0f} times what better bidding "
                      f"(`{str(bidding['a']).partition(':')[0]}`) gains (the two point estimates).")
    elif bidding is not None and play is not None and bidding["points_ci_lo"] <= 0 <= bidding["points_ci_hi"]:
        doc.paragraph(f"Here what better bidding (`{str(bidding['a']).partition(':')[0]}`) gains is too small to "
                      "measure in these matches (its interval holds zero); what better card play gains is not.")
    doc.paragraph("Reproduce (each row's own seed):")
    doc.bullets(commands)
