"""``allfours equilibrium``: stand/beg and give/run as an equilibrium of the bidding game, with its exploitability."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional, TYPE_CHECKING

import typer

from ..analysis.defaults import (
    EQUILIBRIUM_DEALS as DEFAULT_DEALS, EQUILIBRIUM_EXPLOIT_DEALS as EXPLOIT_DEALS,
    EQUILIBRIUM_RESAMPLES as DEFAULT_RESAMPLES,
)

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.equilibrium import EquilibriumResult, ScoresResult
from .options import (
    ClusterOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_cache, check_output, file_errors, print_json, progress_bar, score_text, load_equity,
)


def format_classes(rows: list[dict[str, Any]], role: str) -> list[str]:
    from ..analysis.stats import percent, percent_ci
    from ..record.vocabulary import ROLE

    key = f"p_{ROLE[role].option1}"
    lines = [f"{role.capitalize()}: P({key[2:]}) by class, 95% bootstrap CI; the heuristic's own P for comparison",
             f"{'class':<11} {'deals':>10} {'P(' + key[2:] + ')':>7}  {'95% CI':<16} {'heuristic':>9}  action"]
    for r in rows:
        lines.append(f"{r['class']:<11} {r['deals']:>10,} {percent(r[key]):>7}  {percent_ci(*r['ci95']):<16} "
                     f"{percent(r['heuristic_' + key]):>9}  {r['action']}")
    return lines


def format_result(res: EquilibriumResult) -> str:
    doc = res.to_json()
    r = res.rules
    unit = "match-win probability" if res.measure != "net points" else "net points per decision deal"
    lo, hi = doc["value_ci95"]
    from ..analysis.stats import percent

    def value(x: float) -> str:  # a match-win probability is a rate: percent, one decimal
        return f"{x:+.4f}" if res.measure == "net points" else percent(x)

    lines = [f"Bidding equilibrium: {r.preset}, {r.players} players, {score_text(res.score)}, "
             f"play {res.play}, classes {res.scheme}; {res.deals:,} decision deals, "
             f"seed {res.seed}",
             f"payoff: the eldest's side's {unit}; solved by {doc['method']}",
             f"value {value(res.value[0])}, 95% CI [{value(lo)}, {value(hi)}] ({doc['bootstrap']['resamples']} bootstrap "
             f"resamples of {doc['bootstrap']['chunks']} chunks)"]
    if "dealer_value" in doc:
        dlo, dhi = doc["dealer_value_ci95"]
        last = doc["cfr"]["gains"][-1]
        lines.append(f"dealer's own value {value(doc['dealer_value'])}, 95% CI [{value(dlo)}, {value(dhi)}]; after "
                     f"{last['iteration']:,} CFR+ iterations the eldest gains {last['eldest_gain']:.2e} by deviating, "
                     f"the dealer {last['dealer_gain']:.2e}")
    lines += [""] + format_classes(doc["eldest"], "eldest") + [""] + format_classes(doc["dealer"], "dealer") + [""]
    lines.append("Exploitability: what each side gains by a best response to the other, per decision deal "
                 "(exact: on the tensor; simulated: best-response rounds on fresh deals, 95% CI)")
    for name, ex in doc["exploitability"].items():
        if ex is None:
            lines.append(f"  {name:<12} - (give --tuned RUN_DIR)")
            continue
        sim = ""
        if ex["simulated"] is not None:
            slo, shi = ex["simulated_ci95"]
            sim = f"; simulated {ex['simulated']:.4f} [{slo:.4f}, {shi:.4f}]"
        lines.append(f"  {name:<12} {ex['exact']:.6f} (eldest {ex['eldest_gain']:.6f}, dealer "
                     f"{ex['dealer_gain']:.6f}){sim}; its value {ex['value']:+.4f}")
    sim_doc = doc["simulated_exploitability"]
    if "skipped" in sim_doc and sim_doc["skipped"]:
        lines.append(f"  (not simulated: {sim_doc['skipped']})")
    elif "deals" in sim_doc:
        lines.append(f"  (simulated on {sim_doc['deals']:,} decision deals per best-response round; an upper "
                     "estimate: the gain is measured on the deals that chose the best response)")
    unsettled = doc["unsettled"]
    names = [f"eldest {c}" for c in unsettled["eldest"]] + [f"dealer {c}" for c in unsettled["dealer"]]
    lines.append("not settled by the sample (95% CI not within 0.05 of a pure action): "
                 + (", ".join(names) if names else "none"))
    s = doc["seconds"]
    lines.append(f"{res.deals:,} deals played three ways in {s['tensor']:.1f} s "
                 f"({res.deals / max(s['tensor'], 1e-9):,.0f} deals/s); solve {s['solve']:.3f} s; "
                 f"bootstrap {s['bootstrap']:.1f} s" + (f"; simulated exploitability {s['simulated']:.1f} s"
                                                        if "simulated" in s else ""))
    if doc["tensor"]:
        lines.append(f"tensor: {doc['tensor']} (and .csv); strategies: {res.out_dir}/eldest.csv, dealer.csv, "
                     "equilibrium.json")
    return "\n".join(lines)


def format_scores(res: ScoresResult) -> str:
    from ..analysis.bidding.equilibrium_game import CHUNK_MIN
    from ..analysis.bidding.equilibrium_scores import BOOTSTRAP_MIN_CHUNKS

    r = res.rules
    t = r.target
    values = res.value_matrix()
    lines = [f"Bidding equilibrium at every score: {r.preset}, {r.players} players, play {res.play}, classes "
             f"{res.scheme}; {res.deals:,} deals sampled, each played once and scored from every score, seed "
             f"{res.seed}",
             "value: the eldest's side's match-win probability under the equilibrium, %; rows the eldest's side's "
             "score, columns the dealer's side's (- : every kick ends the match)",
             "     " + "".join(f"{b:>6}" for b in range(t))]
    for a in range(t):
        lines.append(f"{a:>4} " + "".join("     -" if values[a, b] != values[a, b] else f"{100 * values[a, b]:>6.1f}"
                                          for b in range(t)))
    worst = max(res.cells, key=lambda c: c["exploitability"]["heuristic"], default=None)
    if worst is not None:
        a, b = worst["score"]
        lines.append(f"the heuristic is most exploitable at {a}:{b}: {100 * worst['exploitability']['heuristic']:.2f} "
                     "points of match-win probability per decision deal")
    if res.resamples > 0:
        settled, cells = res.settled_cells()
        lines.append(f"settled (95% CI within 5% of never or always; {res.resamples} bootstrap resamples of "
                     f"{res.chunks} chunks): {settled:,} of {cells:,} class-score cells")
    else:
        lines.append(f"no 95% CIs by score: a bootstrap needs {BOOTSTRAP_MIN_CHUNKS} chunks of deals (--deals "
                     f"{BOOTSTRAP_MIN_CHUNKS * CHUNK_MIN:,} or more)")
    lines.append(f"{len(res.cells)} scores in {res.seconds:.1f} s")
    if res.out_dir is not None:
        lines.append(f"per score and class: {res.out_dir}/scores.parquet (and .csv); values: "
                     f"{res.out_dir}/score-values.csv; all: {res.out_dir}/scores.json")
        lines.append(f"heatmaps of the main classes by score: {res.out_dir}/scores-eldest.png, "
                     f"{res.out_dir}/scores-dealer.png")
    return "\n".join(lines)


def equilibrium(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    score: ScoreOpt = None,
    classes: Annotated[str, typer.Option("--classes", help="Class scheme of both players' hands: coarse (the "
                                                           "hand classes T0 .. T4+:A,J,lo) or fine (each also "
                                                           "split by a strong side suit, marked /side).")]
    = "coarse",
    play: Annotated[str, typer.Option("--play", help="Policy of every seat after the bidding (heuristic, random, "
                                                     "tuned:RUN_DIR, equilibrium:RUN_DIR, NAME:key=value).")] = "heuristic",
    deals: Annotated[int, typer.Option("--deals", min=100, max=1_000_000_000,
                                       help="Decision deals, each played three ways.")] = DEFAULT_DEALS,
    seed: SeedOpt = 1,
    out: Annotated[Path, typer.Option("--out", help="Run folder: tensor.parquet/.csv, eldest.csv, dealer.csv, "
                                                    "equilibrium.json.")] = ...,  # type: ignore[assignment]
    force: Annotated[bool, typer.Option("--force", help="Write into --out even if it is not empty.")] = False,
    tuned: Annotated[Optional[str], typer.Option(
        "--tuned", metavar="RUN_DIR", help="Also the exploitability of this strategy run's tables.")] = None,
    resamples: Annotated[int, typer.Option("--resamples", min=1, max=100_000,
                                           help="Bootstrap re-solves for the 95% CIs.")] = DEFAULT_RESAMPLES,
    exploit_deals: Annotated[Optional[int], typer.Option(
        "--exploit-deals", min=0, max=1_000_000_000,
        help="Decision deals per best-response round of the simulated exploitability (0: not simulated; "
             f"default: --deals, at most {EXPLOIT_DEALS:,}).")] = None,
    all_scores: Annotated[bool, typer.Option(
        "--all-scores", help="Solve at every score below the target instead (match-win probability; "
                             "the same --deals scored from every score, each score's CIs from --resamples re-solves).")] = False,
    equity_dir: Annotated[Optional[Path], typer.Option(
        "--equity-dir", help="Where equity tables are cached (with --score or --all-scores; default: equity/ in "
                             "the user's cache, ~/.cache/allfours or $ALLFOURS_CACHE_DIR).")] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The bidding game's equilibrium by hand class (LP with two sides), its value and exploitability."""
    from ..analysis.bidding.equilibrium import (
        EquilibriumError, check_inputs, run_all_scores, run_equilibrium, simulation_skipped,
    )
    from ..analysis.bidding.strategy import parse_side_score
    from ..work.executor import check_options, open_executor
    from ..players.policy import parse_policy, read_tuned

    ruleset = build_rules(rules, players, set_)
    check_options(threads, scheduler, cluster)
    parse_policy(play)
    parsed = parse_side_score(score, ruleset) if score is not None else None
    check_inputs(ruleset, classes, parsed)
    if all_scores and (parsed is not None or tuned is not None):
        raise EquilibriumError("--all-scores solves at every score: leave --score and --tuned out")
    if all_scores and ruleset.sides != 2:
        raise EquilibriumError(f"--all-scores needs two sides (match-win probability), not {ruleset.players} players")
    if tuned is not None:
        read_tuned(tuned)
    check_output(out, "--out", folder=True, force=force)
    if parsed is not None or all_scores:  # the equity cache must be writable before a table is built
        from ..analysis.bidding.equity import equity_folder

        check_cache(equity_folder(equity_dir), "--equity-dir", given=equity_dir is not None)
    announce_engine()
    table = load_equity(ruleset, play, equity_dir, threads)[0] if parsed is not None or all_scores else None
    if all_scores:
        assert table is not None
        with (open_executor(threads, scheduler, cluster) as executor,
              progress_bar("deals", deals) as bar, file_errors(out)):
            scores_res = run_all_scores(ruleset, play, deals, seed, classes, table, out, executor=executor,
                                        progress=bar.advance, resamples=resamples)
        if json_out:
            print_json(scores_res.to_json())
        else:
            typer.echo(format_scores(scores_res))
        return
    exploit = min(deals, EXPLOIT_DEALS) if exploit_deals is None else exploit_deals
    pairs = 0 if simulation_skipped(play, classes, parsed) else 2 + (tuned is not None)
    with (open_executor(threads, scheduler, cluster) as executor,
          progress_bar("deals", deals + 2 * pairs * exploit) as bar,
          file_errors(out)):
        res = run_equilibrium(ruleset, play, deals, seed, classes, parsed, table, tuned, resamples, out,
                              executor=executor, progress=bar.advance, exploit_deals=exploit)
    if json_out:
        print_json(res.to_json())
    else:
        typer.echo(format_result(res))
