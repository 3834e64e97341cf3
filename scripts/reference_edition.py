"""Regenerate the reference edition of the report under results/ (`make report`).

    .venv/bin/python scripts/reference_edition.py [--only trinidad-4p] [--scale 0.01]

One report folder per rule system: trinidad with 10 million paired decision deals
per strategy round, every other preset and player count with 1 million. Seed 1.
`--scale` shrinks every size (for a quick look); the committed edition uses 1.
results/sensitivity (scripts/sensitivity.py, run apart: 5,000 deals took 91 minutes on two cores with
pimc before the bounded search) goes into the trinidad-4p report when it is there.

    .venv/bin/python scripts/reference_edition.py --rules-of-thumb [--only trinidad-4p]

adds just the "Rules of thumb fitted to the equilibrium" section (rules-of-thumb/, tables/rules-of-thumb.*,
card.png) to each finished edition, from its own equilibrium run, equity table and at-every-score run: about
a minute an edition instead of a full report (report/rules_section.py: add_to_edition).

    .venv/bin/python scripts/reference_edition.py --search-players [--only trinidad-4p] [--threads N]

redoes in each finished edition only what the pimc search player measures: how often it follows each play
tip, its tournaments, and its duel with the pimc of before on deals with runs, with the edition's own sizes
and seeds (report/searched.py: redo_search_parts); the sections "Play advice" and "How strong are the
simulated players?" are replaced (and "Do the recommendations depend on the card player?" from
results/sensitivity as it stands), nothing else is recomputed. With --sections-only those sections are
written again from the numbers already in each report.json (and results/sensitivity), measuring nothing but
how often the cards are run where report.json lacks it: for a change in their words (report/searched.py:
rewrite_search_parts).

    .venv/bin/python scripts/reference_edition.py --tournaments [--only trinidad-4p] [--threads N]

plays again, in each finished edition, every tournament of the section "How strong are the simulated
players?" (the heuristic against random, the tuned player against the heuristic, the search players' three
pairings) and the duel on deals with runs, with the edition's own sizes and seeds, and writes that section,
tables/tournaments.*, tournaments.png and report.json's "tournaments" and "run_deals" again; nothing else is
recomputed or changed (report/strength_redo.py: redo_strength). For a change in how tournaments are played
or drawn. An interrupted edition goes on from its finished steps. Given with --search-players, pimc's
observation of the play tips is redone first and pimc's tournaments are played once, not twice.

    .venv/bin/python scripts/reference_edition.py --advice-sections [--only trinidad-4p]

writes again, in each finished edition, from the numbers in its report.json alone, the report's two passages on
the published bidding advice: the section "The published advice, tested" and the end of the equilibrium's
section, "The published advice against the equilibrium", with their tables (report/advice.py:
rewrite_advice_sections): for a change in their words; nothing is measured (seconds).

    .venv/bin/python scripts/reference_edition.py --play-rules [--only trinidad-4p]

adds to each finished edition the section "Rules for playing the cards" (tables/play-rules.*, report.json's
"play_rules") before "Play advice", from the shipped rules of play (results/play-rules/PRESET-Np) and the
edition's play tips, and draws card.png again with its second side (report/play.py: add_play_rules_to_edition);
nothing is measured (seconds).

    .venv/bin/python scripts/reference_edition.py --scores [--only trinidad-4p] [--threads N]

solves again, in each finished two-sided edition, the equilibrium at every score with its bootstrap (each class's
95% CI at every score from 200 resamples of its 16 chunks), from the edition's own deals, seed, policy and equity
table, so no point estimate moves (checked: it stops if one would); writes equilibrium-scores/ with the intervals
and the heatmaps hatching every cell they do not settle, the by-score passage of the equilibrium's section and
report.json's "equilibrium_by_score" (report/scores_redo.py: redo_scores). A few minutes an edition.

    .venv/bin/python scripts/reference_edition.py --advice [--only trinidad-4p] [--threads N]

measures again, in each finished edition, only the best-response claims of the advice check, by the call the
report's build makes (its own policy, advice deals and seed; trinidad-4p's 2,000,000 deals per role take about
half a minute), and writes report.json's "advice", those two passages with tables/advice.* and
tables/equilibrium-advice.*, and card.png where a verdict changed (report/advice.py: redo_advice): for a change
in how the claims are read from the deals. Nothing else is recomputed (the play tips are not played again).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = [  # (preset, players, deals per strategy round)
    ("trinidad", 4, 10_000_000),
    ("trinidad", 2, 1_000_000),
    ("trinidad-tobago", 4, 1_000_000),
    ("partnership-seven", 4, 1_000_000),
    ("classic", 4, 1_000_000),
    ("classic", 3, 1_000_000),
    ("classic", 2, 1_000_000),
]
SEED = 1
# The strategy tables with pimc playing the cards (scripts/sensitivity.py, too slow to rerun with every
# edition): shown in the edition of its rules when its folder is there.
SENSITIVITY = {"trinidad-4p": ROOT / "results" / "sensitivity"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one edition, e.g. trinidad-4p")
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--out", type=Path, default=ROOT / "results")
    parser.add_argument("--rules-of-thumb", action="store_true",
                        help="only add the rules-of-thumb section to the finished editions")
    parser.add_argument("--search-players", action="store_true",
                        help="only redo what pimc measures (play-tip observation, its tournaments, run deals)")
    parser.add_argument("--tournaments", action="store_true",
                        help="only play again every tournament of the strength section and the run-deal duel")
    parser.add_argument("--threads", type=int, default=None,
                        help="--search-players, --tournaments, --advice, --scores: worker threads")
    parser.add_argument("--sections-only", action="store_true",
                        help="--search-players: write pimc's sections (and the sensitivity section) again from "
                             "report.json and results/sensitivity, measuring only what report.json lacks")
    parser.add_argument("--advice-sections", action="store_true",
                        help="only write the passages on the bidding advice again, from each report.json")
    parser.add_argument("--play-rules", action="store_true",
                        help="only add the section on the rules for playing the cards and draw the card again")
    parser.add_argument("--scores", action="store_true",
                        help="only solve the equilibrium at every score again with its bootstrap (the heatmaps' marks)")
    parser.add_argument("--advice", action="store_true",
                        help="only measure the best-response advice claims again and write what is built from them")
    args = parser.parse_args()
    if args.play_rules:
        return play_rules(args.out, args.only)
    if args.scores:
        return scores(args.out, args.only, args.threads)
    if args.advice:
        return advice(args.out, args.only, args.threads)
    if args.advice_sections:
        return advice_sections(args.out, args.only)
    if args.rules_of_thumb:
        return rules_of_thumb(args.out, args.only)
    if args.search_players and args.tournaments:
        return search_and_tournaments(args.out, args.only, args.threads)
    if args.search_players:
        return search_players(args.out, args.only, args.threads, args.sections_only)
    if args.tournaments:
        return tournaments(args.out, args.only, args.threads)
    # results/README.md is written by hand (what each folder is and which command made it): not rewritten here.
    for preset, players, deals in EDITIONS:
        name = f"{preset}-{players}p"
        if args.only and args.only != name:
            continue
        size = max(2000, int(deals * args.scale))
        folder = args.out / name
        command = [sys.executable, "-m", "analyser", "report", "--rules", preset, "--players", str(players),
                   "--deals", str(size), "--seed", str(SEED), "--out", str(folder.relative_to(ROOT)),
                   "--force"]  # the edition is regenerated into its existing folders
        if name in SENSITIVITY and (SENSITIVITY[name] / "sensitivity.json").is_file():
            command += ["--sensitivity", str(SENSITIVITY[name].relative_to(ROOT))]
        began = time.perf_counter()
        print(f"{name}: {size:,} deals per round ...", flush=True)
        subprocess.run(command, cwd=ROOT, check=True)
        print(f"{name}: done in {time.perf_counter() - began:.0f} s", flush=True)
    return 0


def finished_editions(only: str | None):
    """(name, rules) of every edition, or of `only` one, for the modes that change finished editions."""
    sys.path.insert(0, str(ROOT))
    from analyser.game.rules import make_rules

    for preset, players, _ in EDITIONS:
        name = f"{preset}-{players}p"
        if not only or only == name:
            yield name, make_rules(preset, players=players)


def rules_of_thumb(results: Path, only: str | None) -> int:
    """The rules-of-thumb section added to every finished edition (or `only` one), nothing else recomputed."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.rules_section import add_to_edition

    for name, rules in finished_editions(only):
        began = time.perf_counter()
        thumbs = add_to_edition(rules, results / name, say=print)
        print(f"{name}: rules of thumb added in {time.perf_counter() - began:.0f} s; card sizes "
              f"{thumbs['chosen']}", flush=True)
    return 0


def play_rules(results: Path, only: str | None) -> int:
    """The section "Rules for playing the cards" added to every finished edition (or `only` one), with its card
    drawn again with the second side; nothing is measured."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.play import add_play_rules_to_edition

    for name, rules in finished_editions(only):
        play = add_play_rules_to_edition(rules, results / name)
        print(f"{name}: rules for playing the cards: {len(play.rules)} rules ({play.policy})", flush=True)
    return 0


def scores(results: Path, only: str | None, threads: int | None) -> int:
    """The equilibrium at every score solved again, with its bootstrap, in every finished two-sided edition (or
    `only` one); its point estimates must come out unchanged (report/scores_redo.py)."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.scores_redo import redo_scores

    os.chdir(ROOT)  # the editions' policies name their folders from the repository's root
    for name, rules in finished_editions(only):
        if rules.sides != 2:
            continue
        began = time.perf_counter()
        res = redo_scores(rules, Path(os.path.relpath(results / name, ROOT)), threads=threads, say=print)
        settled, cells = res.settled_cells()
        print(f"{name}: at every score again in {time.perf_counter() - began:.0f} s; settled "
              f"{settled:,} of {cells:,} class-score cells", flush=True)
    return 0


def advice_sections(results: Path, only: str | None) -> int:
    """The passages on the bidding advice written again in every finished edition (or `only` one) from its
    report.json; nothing measured, nothing else changed."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.advice import rewrite_advice_sections

    for name, rules in finished_editions(only):
        rewrite_advice_sections(rules, results / name)
        print(f"{name}: the passages on the bidding advice written again", flush=True)
    return 0


def advice(results: Path, only: str | None, threads: int | None) -> int:
    """The best-response advice claims measured again in every finished edition (or `only` one), and what is built
    from them written again; nothing else recomputed."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.advice import redo_advice

    for name, rules in finished_editions(only):
        began = time.perf_counter()
        numbers = redo_advice(rules, results / name, threads=threads, say=print)
        first = numbers["advice"][0]
        print(f"{name}: the advice claims measured again in {time.perf_counter() - began:.0f} s; {first['id']}: "
              f"{first['estimate']:.4f} [{first['ci95'][0]:.4f}, {first['ci95'][1]:.4f}], {first['verdict']}",
              flush=True)
    return 0


def search_players(results: Path, only: str | None, threads: int | None, sections_only: bool = False) -> int:
    """pimc's parts redone in every finished edition (or `only` one), nothing else recomputed; with
    `sections_only` their sections are written again from the numbers in report.json, measuring only what
    it lacks (how often the cards are run)."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.searched import redo_search_parts, redo_sensitivity, rewrite_search_parts

    for name, rules in finished_editions(only):
        began = time.perf_counter()
        if sections_only:
            numbers = rewrite_search_parts(rules, results / name, threads=threads, say=print)
        else:
            numbers = redo_search_parts(rules, results / name, threads=threads, say=print)
        if name in SENSITIVITY and (SENSITIVITY[name] / "sensitivity.json").is_file():
            redo_sensitivity(results / name, SENSITIVITY[name])  # it may have been rerun with the new pimc too
        run = numbers.get("run_deals")
        print(f"{name}: pimc's {'sections written' if sections_only else 'parts redone'} in "
              f"{time.perf_counter() - began:.0f} s"
              + (f"; run deals: {run['a_net_per_run_deal']['value']:+.3f} per run deal" if run else ""), flush=True)
    return 0


def search_and_tournaments(results: Path, only: str | None, threads: int | None) -> int:
    """Both redos in every finished edition (or `only` one) with pimc's tournaments and its duel played once:
    pimc's observation of the play tips, then every tournament and the duel (for a change in how every one of
    them draws its cards); each step says its time, and an interrupted edition goes on from its finished steps."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.searched import redo_search_parts
    from analyser.report.strength_redo import redo_strength

    for name, rules in finished_editions(only):
        began = time.perf_counter()
        redo_search_parts(rules, results / name, threads=threads, say=print, observation_only=True)
        numbers = redo_strength(rules, results / name, threads=threads, say=print)
        run = numbers.get("run_deals")
        print(f"{name}: pimc's observation and every tournament redone in {time.perf_counter() - began:.0f} s"
              + (f"; run deals: {run['a_net_per_run_deal']['value']:+.3f} per run deal" if run else ""), flush=True)
    return 0


def tournaments(results: Path, only: str | None, threads: int | None) -> int:
    """Every tournament of the strength section and the run-deal duel played again in every finished edition (or
    `only` one), nothing else recomputed."""
    sys.path.insert(0, str(ROOT))
    from analyser.report.strength_redo import redo_strength

    for name, rules in finished_editions(only):
        began = time.perf_counter()
        numbers = redo_strength(rules, results / name, threads=threads, say=print)
        run = numbers.get("run_deals")
        print(f"{name}: tournaments played again in {time.perf_counter() - began:.0f} s"
              + (f"; run deals: {run['a_net_per_run_deal']['value']:+.3f} per run deal" if run else ""), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
