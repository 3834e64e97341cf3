"""``allfours report``: one folder a player can read, print and argue over.

It runs (or reuses) the strategy tables, the match-equity table, the advice check,
score what-ifs and a policy tournament for one rule system, and writes

- ``REPORT.md`` and ``report.html`` (the same text; the page embeds its charts),
- every chart as PNG beside them,
- every table as CSV and Parquet under ``tables/``, and ``report.json`` with the
  numbers the text quotes,
- the strategy run folder (``strategy/``, usable as ``--policy tuned:DIR/strategy``),
  the bidding equilibrium's run folder (``equilibrium/``, usable as
  ``--play equilibrium:DIR/equilibrium``) and the equity cache (``equity/``).

Every number in the text is read from a table in the same folder; the rules of
thumb are derived from the final strategy tables, so they cannot disagree.
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .. import __version__
from ..analysis.bidding.advice import AdviceResult, check_advice, equilibrium_claims
from ..analysis.play.play_advice import add_play_tips
from ..analysis.bidding.equilibrium import (
    SCORES_RESAMPLES, SETTLED, STRONG_SIDE, EquilibriumResult, ScoresResult, compare_schemes, run_all_scores,
    run_equilibrium,
)
from ..analysis.bidding.equity import EquityTable, build_notice, cached_table, equity_table
from ..analysis.bidding.strategy import run_strategy
from ..record.vocabulary import ROLE, ROLE_NAMES
from ..work.executor import Executor, LocalExecutor
from ..players.policy import pimc_worlds, policy_label
from ..record.hand_text import KEY as CLASS_KEY
from ..record.hand_text import class_words
from ..game.rules import RuleSet
from ..game.rules_text import describe
from ..analysis.bidding.rules_of_thumb import FitInput
from .advice import EQUILIBRIUM_SECTION, advice_section, equilibrium_advice_section
from .card import RULES_FOLDER, Card, departures, draw_card
from .charts import score_shift_chart
from .lead import (
    BEST_RESPONSE_HEADING, best_response_intro, class_note, lead_policy, lead_rules, lead_section, settled_words,
)
from .rules_section import CARD_FILE, rules_part, rules_section
from .document import Document, save_table
from .folder import Partial
from .card_play import edition_play
from .play import play_rules_section, play_section
from .quote import write_quote_page
from .sections import bidding_pairings, player_strength, score_shifts
from .strength import pimc_before, run_deal_row, run_frequencies, search_strength, strength_section, strength_view  # noqa: F401 (strength_view: re-exported)
from .thumb import rules_of_thumb

# The report's tables as a reader sees them: the columns of the score what-ifs and the tournaments.
SHIFT_COLUMNS = {"situation": "situation", "score": "score (eldest's side first)", "score_label": "what the score is",
                 "first": "option 1", "second": "option 2", "win_first": "P(win match), option 1",
                 "win_second": "P(win match), option 2", "win_diff": "option 1 minus option 2",
                 "favours": "better", "deals": "deals"}


def shift_view(shifts: pd.DataFrame) -> pd.DataFrame:
    """The score what-ifs with plain column names and one 95% CI column."""
    view = shifts[list(SHIFT_COLUMNS)].round(4).rename(columns=SHIFT_COLUMNS)
    view.insert(len(view.columns) - 2, "95% CI", [f"[{lo:+.4f}, {hi:+.4f}]" for lo, hi in
                                                  zip(shifts["win_diff_lo"], shifts["win_diff_hi"])])
    return view


@dataclass(frozen=True)
class Sizes:
    """How much work each part gets, from the one --deals number."""

    strategy: int
    advice: int
    equity_per_cell: int
    matches: int
    whatif: int
    equilibrium: int
    play_deals: int      # duplicated deals per play tip
    play_matches: int    # duplicated matches per play tip
    search_matches: int  # matches per pairing of the search players (pimc, oracle): slow, so fewer
    run_deals: int       # deals dealt for pimc against the pimc of before on deals with runs
    run_frequency: int   # deals under each bidding (the report's, its equilibrium's) to count how often runs happen
    score_resamples: int  # bootstrap re-solves at every score of the equilibrium by score (an LP each, per score)

    @classmethod
    def from_deals(cls, deals: int) -> Sizes:
        return cls(strategy=deals, advice=max(2000, min(deals, 2_000_000)),
                   equity_per_cell=max(1000, min(20_000, deals // 50)),
                   matches=max(200, min(20_000, deals // 500)), whatif=max(2000, min(50_000, deals // 200)),
                   equilibrium=max(2000, min(deals, 1_000_000)),
                   play_deals=max(2000, min(500_000, deals // 10)), play_matches=max(200, min(50_000, deals // 100)),
                   # pimc searches every position of a deal with runs (the bounded search): a match costs it about six
                   # times what it did, so at most 500 matches a pairing (the win share's CI about +-0.044)
                   search_matches=max(20, min(500, deals // 5000)),
                   run_deals=max(40, min(1000, deals // 2000)),
                   run_frequency=max(10_000, min(200_000, deals // 50)),
                   score_resamples=max(10, min(SCORES_RESAMPLES, deals // 5000)))


def class_view(final: pd.DataFrame, role: str) -> pd.DataFrame:
    """The final strategy table as printed: one row per hand class met, its code explained."""
    a, b = ROLE[role].options
    rows = final[final["n"] > 0]
    return pd.DataFrame({
        "hand class": rows["class_key"],
        "in words": [class_words(key) for key in rows["class_key"]],
        "deals": rows["n"].astype(int),
        "share %": (100 * rows["share"]).round(2),
        f"{a} (net pts)": rows[f"{a}_mean"].round(3),
        f"{b} (net pts)": rows[f"{b}_mean"].round(3),
        f"{b} - {a}": rows["diff_mean"].round(3),
        "95% CI": [f"[{lo:+.3f}, {hi:+.3f}]" for lo, hi in zip(rows["diff_ci_lo"], rows["diff_ci_hi"])],
        "choose": [r + ("?" if z else "") for r, z in zip(rows["recommend"], rows["ci_includes_zero"])],
        "settled": settled_words(rows),
    })


REPORT_PARTS = ("strategy", "equity", "advice", "equilibrium", "equilibrium-fine", "equilibrium-scores",
                "rules-of-thumb", "score-shifts", "tournaments")  # the parts a report keeps as they finish (folder.Partial)


def build_report(rules: RuleSet, out: Path, deals: int = 1_000_000, seed: int = 1, policy: str = "heuristic",
                 threads: int | None = None, executor: Executor | None = None,
                 command: str | None = None, log: Any = None, sensitivity: Path | None = None,
                 pimc: str = "pimc", force: bool = False) -> Path:
    """Run every part and write the report folder; returns the REPORT.md path. `sensitivity`: a folder written
    by scripts/sensitivity.py (the strategy tables with pimc card play), shown as its own section. `pimc`: the
    pimc player measured in the tournaments and watched by the play tips (a spec: pimc:worlds=20 is quicker).

    The report is written into OUT.partial and becomes `out` only when complete; each finished part is kept
    there, so the same call after an interruption starts after the last finished part; over an earlier report
    (the CLI's --force) exactly the files its manifest lists are replaced (`folder`). `force`: an unfinished
    report with other options is started over instead of refused."""
    say = log or (lambda message: None)
    worlds = pimc_worlds(pimc)
    report_dir = Path(out)
    sizes = Sizes.from_deals(deals)
    partial = Partial(report_dir, {"rules": rules.as_log_dict(), "deals": deals, "seed": seed, "policy": policy,
                              "pimc": pimc}, force=force, say=say)
    out = partial.folder  # every part and file is written here until the report is complete

    def run_part(name: str, note: str, compute: Any) -> Any:
        say(f"{note.partition(':')[0]}: kept from the unfinished run" if name in partial.done else note)
        return partial.part(name, compute)

    numbers: dict[str, Any] = {"rules": rules.as_log_dict(), "policy": policy, "seed": seed, "deals": deals,
                               "version": __version__, "sizes": sizes.__dict__, "pimc": pimc}
    strategy = run_part("strategy", f"strategy tables: {sizes.strategy:,} decision deals per round",
                        lambda: run_strategy(rules, policy, sizes.strategy, seed, out_dir=out / "strategy",
                                             threads=threads, executor=executor))
    def advice_part() -> AdviceResult:
        found = check_advice(rules, policy, sizes.advice, seed, threads=threads, executor=executor)
        return add_play_tips(found, sizes.play_deals, sizes.play_matches, executor=executor, observer=pimc)

    advice = run_part("advice", f"advice check: {sizes.advice:,} deals per role; play tips: {sizes.play_deals:,} "
                                f"duplicated deals and {sizes.play_matches:,} matches each", advice_part)
    eq = run_part("equilibrium", f"bidding equilibrium: {sizes.equilibrium:,} decision deals",
                  lambda: run_equilibrium(rules, policy, sizes.equilibrium, seed, "coarse",
                                          tuned=str(out / "strategy"), resamples=EQUILIBRIUM_RESAMPLES,
                                          out_dir=out / "equilibrium", threads=threads, executor=executor,
                                          exploit_deals=sizes.equilibrium))
    eq_fine = run_part("equilibrium-fine",
                       f"bidding equilibrium, fine classes: the same {sizes.equilibrium:,} decision deals",
                       lambda: run_equilibrium(rules, policy, sizes.equilibrium, seed, "fine",
                                               resamples=EQUILIBRIUM_RESAMPLES, out_dir=out / "equilibrium-fine",
                                               threads=threads, executor=executor))
    lead = lead_policy(out)  # the score parts play the equilibrium's bids (lead.py)
    equity: EquityTable | None = None
    if rules.sides == 2:
        _reuse_equity(rules, lead, report_dir / "equity", out / "equity", sizes.equity_per_cell, seed)
        if cached_table(rules, lead, out / "equity", sizes.equity_per_cell, seed) is None:
            note = (f"match equity: {build_notice(rules, sizes.equity_per_cell, threads)}, "
                    f"{sizes.equity_per_cell:,} deals per score cell")
        else:
            note = "match equity: the table in the report folder's cache"
        equity = run_part("equity", note, lambda: equity_table(rules, lead, sizes.equity_per_cell, seed,
                                                                out / "equity", threads=threads,
                                                                executor=executor)[0])
    by_score = None
    if equity is not None:
        table = equity
        by_score = run_part("equilibrium-scores",
                            f"bidding equilibrium at every score: {sizes.equilibrium:,} deals, scored from every score",
                            lambda: run_all_scores(rules, lead, sizes.equilibrium, seed, "coarse", table,
                                                   out / "equilibrium-scores", threads=threads, executor=executor,
                                                   resamples=sizes.score_resamples))
    fit = FitInput.of_result(eq, "equilibrium")
    fitted = run_part("rules-of-thumb", f"rules of thumb: fitted to the equilibrium, measured on {sizes.equilibrium:,} "
                                        "fresh deals",
                      lambda: rules_part(rules, fit, sizes.equilibrium, equity,
                                         None if by_score is None else by_score.frame(), out, executor, say))
    shifts = run_part("score-shifts", "score what-ifs",
                      lambda: score_shifts(rules, lead, equity, seed, sizes.whatif, threads))

    def tournaments() -> tuple[pd.DataFrame | None, dict[str, Any] | None]:
        strength = player_strength(rules, bidding_pairings(out), sizes.matches, seed, threads, executor)
        run = None
        if strength is not None and sizes.search_matches > 0:
            say(f"search players: {sizes.search_matches:,} matches per pairing")
            searched = search_strength(rules, pimc, sizes.search_matches, seed, threads, executor=executor)
            strength = None if searched is None else pd.concat([strength, searched], ignore_index=True)
            say(f"{pimc} against {pimc_before(pimc)} on deals with runs: {sizes.run_deals:,} deals dealt")
            run = run_deal_row(rules, pimc, sizes.run_deals, seed, threads, executor)
        return strength, run

    strength, run = run_part("tournaments", f"tournaments: {sizes.matches:,} matches per pairing", tournaments)
    runs = run_part("run-frequency", f"how often the cards are run: {sizes.run_frequency:,} deals under each bidding",
                    lambda: run_frequencies(rules, policy, out / "equilibrium", sizes.run_frequency, seed,
                                            executor if executor is not None else LocalExecutor(threads)))

    doc = Document(f"All Fours strategy report: {rules.preset}, {rules.players} players")
    command = command or "allfours " + " ".join(shlex.quote(a) for a in sys.argv[1:])
    _introduction(doc, rules, policy, deals, seed, strategy, command)
    claims = [c.to_json() for c in advice.claims]
    card = Card(rules, fitted, [{k: c[k] for k in ("claim", "verdict", "estimate", "ci95")} for c in claims],
                f"this report's {RULES_FOLDER}/", "this report's advice check",
                None if by_score is None or not fitted.get("near_target") else departures(fitted, by_score.frame()),
                edition_play(rules, out, [{"tip": c["claim"], "verdict": c["verdict"], "estimate": c["estimate"],
                                           "ci95": c["ci95"]} for c in (t.to_json() for t in advice.play)],
                             "this report's play tips"))
    draw_card(card, out / CARD_FILE)
    numbers["rules_of_thumb"] = lead_rules(fitted)
    lead_section(doc, fitted, (eq.value[0], *eq.to_json()["value_ci95"]), CARD_FILE,
                 f"The strategy card: `allfours card --rules {rules.preset} --players {rules.players}`")
    _equilibrium(doc, out, eq, advice, numbers, by_score, eq_fine)
    rules_section(doc, out, fitted, None, save_table, numbers)

    doc.heading("How the score changes the answer")
    doc.paragraph("Net points treat every point alike; near the end of a match they are not. These paired "
                  "what-ifs measure match-win probability " + ("from the match-equity table" if equity else
                                                               "by playing each match out") +
                  " for two fixed hands at several scores (the eldest's side first, the dealer's last, as "
                  "`--score` takes them in every command), with the equilibrium's bids and the heuristic's card play for "
                  "every other decision. A gift "
                  "that takes the opponents to the target loses at once.")
    numbers["score_shifts"] = json.loads(shifts.to_json(orient="records"))
    shifts_shown = shift_view(shifts)
    path = save_table(shifts_shown, out, "score-shifts")
    for seat in ("eldest", "dealer"):
        part = shifts[shifts["seat"] == seat].reset_index(drop=True)
        name = f"score-{seat}.png"
        score_shift_chart(part, out / name, f"{part['situation'].iloc[0]}: {rules.preset}, {rules.players} players")
        doc.image(name, f"{part['first'].iloc[0]} minus {part['second'].iloc[0]} in match-win probability by score "
                        "(the eldest's side first)")
    doc.table(shifts_shown, "Score what-ifs", path)

    doc.heading("Match equity")
    if equity is not None:
        frame = equity.to_frame()
        path = save_table(frame, out, "equity")
        from ..analysis.charts import equity_heatmap

        equity_heatmap(equity, out / "equity-heatmap.png")
        doc.paragraph(f"P(the dealer's side wins the match) from every score before a deal, with the "
                      f"equilibrium's bids and the heuristic's card play; {equity.deals_per_cell:,} deals per score cell, every 95% CI within "
                      f"±{equity.max_half_width:.3f}.")
        doc.image("equity-heatmap.png", "Match equity: P(dealer's side wins), % (cells show the value)")
        doc.paragraph(f"Full table with standard errors: `{path}`.")
    else:
        doc.paragraph("Not estimated with three players (each plays alone: the table would be three-dimensional); "
                      "the score what-ifs above play every match out instead.")

    numbers["advice"] = claims
    advice_section(doc, out, claims, sizes.advice, save_table)

    best = rules_of_thumb(strategy.final("eldest"), strategy.final("dealer"))
    numbers["best_response_rules"] = best
    best_response_intro(doc, strategy, strength, best)
    for role in ROLE_NAMES:
        a, b = ROLE[role].options
        final = strategy.final(role)
        view = class_view(final, role)
        path = save_table(view, out, f"{role}-classes")
        chart = f"strategy/{ROLE[role].chart_file}"
        doc.heading("The eldest: stand or beg?" if role == "eldest" else "The dealer: run the cards or give one?", 3)
        doc.paragraph(_role_text(role, strategy))
        doc.image(chart, f"Best response to the heuristic: {b} minus {a}, net points per deal, by the {role}'s hand "
                         "class (± 95% CI half-width)")
        doc.paragraph(f"Hand classes: {CLASS_KEY}; the column \"in words\" spells each one out. {class_note(role)}")
        doc.table(view, f"Final {role} table, best response to the heuristic (round {int(final['round'].iloc[0])})",
                  path)

    assert card.play is not None
    play_rules_section(doc, out, card.play, numbers, save_table)
    play_section(doc, out, advice, numbers, save_table)

    strength_section(doc, out, strength, run, rules, pimc, worlds, sizes.search_matches, numbers, save_table, runs)

    if sensitivity is not None:
        sensitivity_section(doc, out, Path(sensitivity), numbers)
    _method(doc, rules, strategy, sizes, seed)
    (out / "REPORT.md").write_text(doc.markdown(), encoding="utf-8")
    (out / "report.html").write_text(doc.html(out), encoding="utf-8")
    (out / "report.json").write_text(json.dumps(numbers, indent=1, default=str) + "\n", encoding="utf-8")
    write_quote_page(out)  # QUOTE.md: the page a guide writer can quote, from the files just written
    partial.finish()
    return report_dir / "REPORT.md"


def _reuse_equity(rules: RuleSet, tuned: str, earlier: Path, folder: Path, deals_per_cell: int, seed: int) -> None:
    """An earlier report's equity table for the same policy, size and seed (a --force rerun) is copied into the
    new report's cache instead of being estimated again."""
    if not earlier.is_dir() or cached_table(rules, tuned, folder, deals_per_cell, seed) is not None:
        return
    found = cached_table(rules, tuned, earlier, deals_per_cell, seed)
    if found is None or Path(found[1]).parent != earlier:
        return  # none there (cached_table may also answer from the shipped tables: not the report's to copy)
    folder.mkdir(parents=True, exist_ok=True)
    stem = Path(found[1]).stem
    for path in earlier.glob(f"{stem}.*"):
        shutil.copy2(path, folder / path.name)


def _introduction(doc: Document, rules: RuleSet, policy: str, deals: int, seed: int, strategy: Any,
                  command: str) -> None:
    doc.paragraph(f"When should the eldest hand beg, and when should the dealer give one or run the cards? "
                  f"This report measures it for the **{rules.preset}** rules with {rules.players} players, "
                  f"by Monte Carlo simulation: every option is played out on the same sampled deals, and every "
                  f"estimate comes with its 95% confidence interval.")
    rules_frame = pd.DataFrame([{"parameter": "preset", "value": rules.preset, "meaning": "the rule system"}]
                               + [{"parameter": k, "value": v, "meaning": m} for k, v, m in describe(rules)])
    doc.table(rules_frame, "Rules (docs/rules.md explains each; `allfours rules` prints them)")
    doc.paragraph(f"The report leads with the bidding equilibrium, the strategy neither side can exploit, with "
                  f"`{policy}` playing the cards: its rules of thumb, the card, the match equity and the score "
                  f"tables come from it. The best responses to `{policy}` ({len(strategy.rounds)} rounds, "
                  f"{'converged' if strategy.converged else 'stopped at the round limit'}) come after, as what "
                  f"they are. Deals: {deals:,} paired decision deals per strategy round. Seed {seed}. "
                  f"allfours {__version__}. Regenerate with:")
    doc.code(command)


def _role_text(role: str, strategy: Any) -> str:
    final = strategy.final(role)
    a, b = ROLE[role].options
    share = final.loc[final["recommend"] == b, "share"].sum() / max(final["share"].sum(), 1e-12)
    sure = int((~final["ci_includes_zero"] & (final["n"] > 0)).sum())
    met = int((final["n"] > 0).sum())
    who = "the eldest" if role == "eldest" else "the dealer facing a beg"
    return (f"For each hand class of {who}, both options were played on the same deals; the value is net "
            f"points this deal (the decider's side minus the others, from the decision to the end of the hand "
            f"finally played). The better option is *{b}* for classes holding {100 * share:.1f}% of these "
            f"decisions; {sure} of the {met} classes met are separated from zero at 95%.")


EQUILIBRIUM_RESAMPLES = 200  # bootstrap re-solves of the report's equilibrium


def equilibrium_class_view(rows: list[dict[str, Any]], role: str) -> pd.DataFrame:
    """The equilibrium's strategy of one role as printed: one row per hand class met."""
    key = f"p_{ROLE[role].option1}"
    return pd.DataFrame({
        "hand class": [r["class"] for r in rows],
        "in words": [class_words(r["class"]) for r in rows],
        "deals": [r["deals"] for r in rows],
        f"P({ROLE[role].option1})": [round(r[key], 4) for r in rows],
        "95% CI": [f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]" for r in rows],
        f"heuristic P({ROLE[role].option1})": [round(r[f"heuristic_{key}"], 4) for r in rows],
        "action": [r["action"] for r in rows],
    })


def exploitability_view(doc: dict[str, Any]) -> pd.DataFrame:
    """Heuristic, tuned and equilibrium: each side's best-response gain against them (exact on the tensor, and
    simulated by best-response rounds with its 95% CI), and their value."""
    def simulated(ex: dict[str, Any]) -> str:
        if ex["simulated"] is None:
            return "-"
        lo, hi = ex["simulated_ci95"]
        return f"{ex['simulated']:.4f} [{lo:.4f}, {hi:.4f}]"

    return pd.DataFrame([{"strategy": name, "exploitability": round(ex["exact"], 6),
                          "eldest's gain": round(ex["eldest_gain"], 6), "dealer's gain": round(ex["dealer_gain"], 6),
                          "simulated (95% CI)": simulated(ex), "eldest's value": round(ex["value"], 4)}
                         for name, ex in doc["exploitability"].items() if ex is not None])


def _equilibrium(doc: Document, out: Path, eq: EquilibriumResult, advice: AdviceResult,
                 numbers: dict[str, Any], by_score: ScoresResult | None = None,
                 fine: EquilibriumResult | None = None) -> None:
    """The bidding game's equilibrium: strategies by class with CIs, value, exploitability, advice verdicts."""
    result = eq.to_json()
    numbers["equilibrium"] = {k: result[k] for k in ("value", "value_ci95", "eldest", "dealer", "unsettled",
                                                     "exploitability", "method", "deals", "classes", "bootstrap")}
    doc.heading(EQUILIBRIUM_SECTION)
    lo, hi = result["value_ci95"]
    who = ("the eldest's side against the dealer's (zero-sum: solved exactly by linear programming)"
           if eq.zero_sum else "each player alone (not zero-sum: an approximate equilibrium by CFR+)")
    doc.paragraph(f"The strategy tables (\"{BEST_RESPONSE_HEADING}\" below) answer each side's best choice "
                  f"against the other's fixed rules. Here both choices are made at once: the eldest begs with a probability per hand class, the "
                  f"dealer gives with a probability per hand class, and neither can gain by changing alone; "
                  f"{who}. {eq.deals:,} decision deals, each played stand, beg then give, and beg then run on the "
                  f"same cards, with the `{eq.play}` player for the rest of the hand; net points per decision "
                  f"deal at 0:0. The game's value to the eldest's side is {eq.value[0]:+.4f} (95% CI "
                  f"[{lo:+.4f}, {hi:+.4f}], {result['bootstrap']['resamples']} bootstrap re-solves of "
                  f"{result['bootstrap']['chunks']} chunks). An action is settled when its 95% CI lies within "
                  "0.05 of always or never.")
    for role in ("eldest", "dealer"):
        view = equilibrium_class_view(result[role], role)
        path = save_table(view, out, f"equilibrium-{role}")
        doc.table(view, f"Equilibrium: the {role}'s P({ROLE[role].option1}) by hand class", path)
    ex_view = exploitability_view(result)
    path = save_table(ex_view, out, "equilibrium-exploitability")
    sim = result["simulated_exploitability"]
    how = (f"Simulated: each strategy played as a policy on fresh deals ({sim['deals']:,} decision deals per "
           "round), one best-response round of the eldest and one of the dealer against it, their gains added; "
           "measured on the deals that chose the best response, so an upper estimate."
           if "deals" in sim else f"Not simulated: {sim.get('skipped')}.")
    doc.paragraph("Exploitability: how much a side gains per decision deal by a best response to the other's "
                  "strategy (added over both sides; exactly on the tensor, 0 for the equilibrium up to the "
                  f"solver's tolerance). {how}")
    doc.table(ex_view, "Exploitability of the heuristic, the tuned tables and the equilibrium", path)
    if fine is not None:
        _equilibrium_fine(doc, out, eq, fine, numbers)
    if by_score is not None:
        equilibrium_by_score_section(doc, out, by_score, numbers)
    claims = [c.to_json() for c in equilibrium_claims(eq, {c.id: c for c in advice.claims})]
    numbers["equilibrium_advice"] = claims
    equilibrium_advice_section(doc, out, claims, save_table)


def _equilibrium_fine(doc: Document, out: Path, eq: EquilibriumResult, fine: EquilibriumResult,
                      numbers: dict[str, Any]) -> None:
    """Coarse against fine classes: does a conclusion change with the abstraction?"""
    cmp = compare_schemes(eq, fine)
    numbers["equilibrium_fine"] = cmp
    v = cmp["value"]
    lo, hi = v["difference_ci95"]
    def p_ci(entry: dict[str, Any] | None, key: str) -> str:
        return "-" if entry is None else f"{entry[key]:.3f} [{entry['ci95'][0]:.2f}, {entry['ci95'][1]:.2f}]"

    rows = []
    for role in ("eldest", "dealer"):
        key = f"p_{ROLE[role].option1}"
        for r in cmp[role]:
            side = {f["class"].endswith(STRONG_SIDE): f for f in r["fine"]}
            rows.append({"role": role, "hand class": r["class"], "deals": r["deals"], "P (coarse)": p_ci(r, key),
                         "fine: no strong side": p_ci(side.get(False), key),
                         "fine: strong side": p_ci(side.get(True), key), "verdict": r["verdict"]})
    view = pd.DataFrame(rows)
    path = save_table(view, out, "equilibrium-coarse-fine")
    counts = view["verdict"].value_counts().to_dict()
    moved = [f"{r['role']} {r['hand class']}" for r in rows if r["verdict"] == "moves"]
    doc.paragraph(f"Coarse against fine classes: the same game with each hand class split by a strong side suit "
                  f"(three or more of a non-trump suit with its ace or ten; `/side`), on the same deals. The value "
                  f"moves from {v['coarse']:+.4f} to {v['fine']:+.4f} ({v['difference']:+.4f}, paired 95% CI "
                  f"[{lo:+.4f}, {hi:+.4f}]). Of the classes, {counts.get('holds', 0)} hold their action in both "
                  f"sub-classes, {counts.get('moves', 0)} move"
                  + (f" ({', '.join(moved)})" if moved else "")
                  + f", and {counts.get('unsettled', 0)} are not settled by the sample in one scheme or the other. "
                  "A conclusion that moves with the abstraction is not a conclusion.")
    doc.table(view, "The equilibrium's P by hand class, coarse and fine (95% CIs)", path)


def equilibrium_by_score_section(doc: Document, out: Path, res: ScoresResult, numbers: dict[str, Any]) -> None:
    """The equilibrium at every score: heatmaps of the main classes, and where the heuristic loses most."""
    folder = res.out_dir.name if res.out_dir is not None else "equilibrium-scores"
    worst = sorted(res.cells, key=lambda c: -c["exploitability"]["heuristic"])[:5]
    numbers["equilibrium_by_score"] = {
        "deals": res.deals, "play": res.play, "scores": len(res.cells),
        "most_exploitable": [{"score": c["score"], "heuristic": c["exploitability"]["heuristic"],
                              "value": c["value"]} for c in worst]}
    doc.paragraph(f"By score: the same game with the match-win probability as the payoff (from the equity table "
                  f"above), solved at every score below the target from {res.deals:,} deals, each played once and "
                  f"scored from every score, with `{policy_label(res.play)}` for every later decision. Each panel is one hand "
                  "class (the most frequent); rows are the eldest's side's score, columns the dealer's side's; "
                  "cells give the equilibrium's probability in %. The heuristic's bidding is most exploitable at "
                  + ", ".join(f"{c['score'][0]}:{c['score'][1]} ({100 * c['exploitability']['heuristic']:.2f} "
                              "points of match-win probability per decision deal)" for c in worst[:3]) + ".")
    from ..analysis.bidding.advice import BY_SCORE_MOVES, READINGS, weighted_by_score

    by = weighted_by_score(res.cells, READINGS["eldest-zero-trump-begs-70-80"][0])
    base = by.get((0, 0), float("nan"))
    moved = sorted((s for s, p in by.items() if abs(p - base) >= BY_SCORE_MOVES), key=lambda s: -abs(by[s] - base))
    numbers["equilibrium_by_score"]["zero_trump_p_beg"] = {"at_0_0": base, "moves": [
        {"score": list(s), "p_beg": by[s]} for s in moved[:10]]}
    doc.paragraph("\"With no trump support, beg 70-80% of the time\", by score: at the equilibrium the eldest begs "
                  f"with no trump with probability {base:.2f} at 0:0 (match-win payoff); "
                  + (f"it moves by {BY_SCORE_MOVES} or more at {len(moved)} of {len(by)} scores, most at "
                     + ", ".join(f"{a}:{b} ({by[(a, b)]:.2f})" for a, b in moved[:4])
                     if moved else f"it moves by less than {BY_SCORE_MOVES} at every score")
                  + " (point estimates; `check-advice --by-score` gives their CIs).")
    if res.resamples > 0:
        settled, cells = res.settled_cells()
        numbers["equilibrium_by_score"]["settled"] = {"cells": cells, "settled": settled,
                                                      "resamples": res.resamples, "chunks": res.chunks}
        doc.paragraph(f"How sure, score by score: each class's probability at each score has a 95% CI from "
                      f"{res.resamples} bootstrap resamples (the {res.chunks} chunks of the deals drawn again with "
                      "replacement, the same draw at every score, and every score solved again). Of the "
                      f"{cells:,} class-score cells, {settled:,} ({settled / max(cells, 1):.0%}) are settled "
                      f"(the interval within {SETTLED:.0%} of never or always); the heatmaps hatch the rest, with "
                      "\"?\" after the value. `scores.csv` gives every interval (`p_low`, `p_high`, `settled`).")
        mark = "hatched, \"?\": not settled, its 95% CI reaching further than 5% from never or always"
    else:
        mark = "hatched, \"?\": the equilibrium mixes there, not settled"
    for role in ROLE_NAMES:
        doc.image(f"{folder}/scores-{role}.png", f"Equilibrium P({ROLE[role].option1}) by score, the {role}'s main "
                                                 f"hand classes ({mark})")
    doc.paragraph(f"Every score and class: `{folder}/scores.csv`; values and exploitability by score: "
                  f"`{folder}/score-values.csv`.")


SENSITIVITY_HEADING = "Do the recommendations depend on the card player?"


def sensitivity_section(doc: Document, out: Path, folder: Path, numbers: dict[str, Any]) -> None:
    """The strategy tables recomputed with pimc playing the cards (scripts/sensitivity.py's folder)."""
    data = json.loads((folder / "sensitivity.json").read_text(encoding="utf-8"))
    table = pd.DataFrame(data["rows"])
    numbers["sensitivity"] = {k: v for k, v in data.items() if k != "rows"} | {"rows": data["rows"]}
    counts = table["verdict"].value_counts().to_dict()
    doc.heading(SENSITIVITY_HEADING)
    doc.paragraph(
        f"The eldest's and the dealer's tables (two best-response rounds) recomputed on {data['deals']:,} paired "
        f"decision deals per round, the same deals played once by the heuristic and once by `{data['pimc']}` "
        f"(`{data['command']}`, {data['seconds'] / 60:.0f} minutes on {_cores(data)}"
        f"{'; ' + data['note'] if data.get('note') else ''}). A class *holds* when "
        "pimc recommends what the heuristic does with a CI that excludes zero, *moves* when pimc recommends the "
        "other option with a CI that excludes zero, and is *unsettled* when pimc's CI includes zero (this "
        f"subsample cannot say): holds {counts.get('holds', 0)}, moves {counts.get('moves', 0)}, unsettled "
        f"{counts.get('unsettled', 0)}.")
    view = pd.DataFrame({
        "role": table["role"], "class": table["class_key"], "deals": table["n"],
        "heuristic": table["heuristic_recommend"],
        "heuristic diff, 95% CI": [f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]" for d, lo, hi in
                                   zip(table["heuristic_diff"], table["heuristic_ci_lo"], table["heuristic_ci_hi"])],
        "pimc": table["pimc_recommend"],
        "pimc diff, 95% CI": [f"{d:+.3f} [{lo:+.3f}, {hi:+.3f}]" for d, lo, hi in
                              zip(table["pimc_diff"], table["pimc_ci_lo"], table["pimc_ci_hi"])],
        "verdict": table["verdict"]})
    doc.table(view, "Strategy tables, heuristic against pimc card play", save_table(view, out, "sensitivity"))


def _cores(data: dict[str, Any]) -> str:
    """What a sensitivity run ran on: its threads (when recorded) and the machine's cores."""
    if data.get("threads"):
        return f"{data['threads']} thread{'s' if data['threads'] != 1 else ''} of a {data['cpus']}-core machine"
    return f"{data['cpus']} cores"


def _method(doc: Document, rules: RuleSet, strategy: Any, sizes: Sizes, seed: int) -> None:
    doc.heading("Method and limits")
    rounds = strategy.rounds
    doc.bullets([
        "Deals are dealt from a uniformly shuffled deck by a numba engine that implements the rule book exactly "
        "(checked against an independent pure-Python referee).",
        f"Strategy tables: {sizes.strategy:,} paired decision deals per round; each deal is played both ways "
        "with the same cards and the same random choices (common random numbers); rounds alternate eldest "
        "and dealer best responses. Round gains (net points per decision): " + "; ".join(
            f"round {int(r.round)} {r.role}: {r.gain_mean:+.4f} (95% CI [{r.gain_ci_lo:+.4f}, {r.gain_ci_hi:+.4f}]), "
            f"{int(r.classes_changed)} classes changed" for r in rounds.itertuples()) + ".",
        f"Match equity: {sizes.equity_per_cell:,} one-deal transitions per score cell, solved backwards.",
        f"Advice check: {sizes.advice:,} paired deals per role; tournaments: {sizes.matches:,} matches per "
        f"pairing; score what-ifs: up to {sizes.whatif:,} paired deals each; bidding equilibrium: "
        f"{sizes.equilibrium:,} decision deals (run folder `equilibrium/`); play advice: {sizes.play_deals:,} "
        f"duplicated deals and {sizes.play_matches:,} duplicated matches per tip, each played with the tip on and "
        f"off in every seating. Seed {seed} throughout.",
        "Limits: the players follow fixed rules, not an optimal strategy; hand classes pool hands that differ "
        "in side suits; a best-response cycle (seen with two players) means the tuned choices of the last "
        "round can still be exploited.",
    ])
