"""``allfours check-advice``: test the published advice (a Spanish-language All Fours guide, translated) with estimates, CIs and verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional, TYPE_CHECKING

import typer

from ..analysis.defaults import ADVICE_DEALS as DEFAULT_DEALS, ADVICE_METHODS, PLAY_ADVICE_DEALS, PLAY_ADVICE_MATCHES
from ..analysis.stats import percent, percent_ci
from .options import (
    ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, fail, progress_bar, score_text, load_equity, writing,
)

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.bidding.advice import AdviceResult, Claim

EQUILIBRIUM = ADVICE_METHODS[1]


def format_number(claim: Claim, value: float) -> str:
    return f"{100 * value:.1f}%" if claim.unit in ("share of hands", "P(beg)") else f"{value:+.3f}"


def text_order(claims: list[Claim]) -> list[Claim]:
    """Each best-response claim after its equilibrium reading (if any), in the claims' order."""
    readings = {c.details.get("best_response_claim"): c for c in claims if c.method == EQUILIBRIUM}
    out = []
    for claim in claims:
        if claim.method == EQUILIBRIUM:
            continue
        if claim.id in readings:
            out.append(readings.pop(claim.id))
        out.append(claim)
    return out + list(readings.values())


def format_result(res: AdviceResult) -> str:
    r = res.rules
    lines = [f"Published advice (a Spanish-language All Fours guide, translated) checked: {r.preset}, {r.players} players, {score_text(res.score)}, "
             f"policy {res.policy}; {res.deals:,} paired "
             f"decision deals for the eldest and as many for the dealer, seed {res.seed}",
             f"assumes: the other role bids as {res.policy} does (the eldest's claims: the dealer answers a beg by "
             f"its rules; the dealer's: the eldest begs by them) and {res.policy} plays the cards; a report's "
             "tables answer against its tuned dealer or its equilibrium instead, so the same claim's sizes differ"]
    if res.equilibrium_deals:
        lines.append(f"equilibrium: the bidding game solved on {res.equilibrium_deals:,} decision deals (coarse "
                     "classes); best response: against the policy's own dealer")
    lines.append("")
    for claim in text_order(res.claims):
        lo, hi = claim.ci95
        lines.append(f"[{claim.verdict}] ({claim.method}) {claim.claim}")
        lines.append(f"  test: {claim.test}")
        lines.append(f"  estimate {format_number(claim, claim.estimate)}, 95% CI [{format_number(claim, lo)}, "
                     f"{format_number(claim, hi)}] ({claim.unit}; {claim.n:,} deals)")
        for key, value in claim.details.items():
            if key == "by_score":
                lines += format_by_score(value)
            elif key == "p_beg_by_class":
                lines.append("  P(beg) by class: " + "; ".join(
                    f"{k} {percent(v['estimate'])} {percent_ci(*v['ci95'])}" for k, v in value.items()))
            elif key in ("method", "best_response_claim"):
                continue
            elif key == "game_value":
                lines.append(f"  game value: {value:+.4f} net points per decision deal")
            elif isinstance(value, dict) and "estimate" in value and "ci95" in value:
                share = key.startswith("share")
                fmt = (lambda x: f"{100 * x:.1f}%") if share else (lambda x: f"{x:+.3f}")
                lines.append(f"  {key.replace('_', ' ')}: {fmt(value['estimate'])}, "
                             f"95% CI [{fmt(value['ci95'][0])}, {fmt(value['ci95'][1])}]")
            elif isinstance(value, dict):
                parts = [f"{k} {v['estimate']:+.3f}, 95% CI [{v['ci95'][0]:+.3f}, {v['ci95'][1]:+.3f}]"
                         for k, v in value.items()]
                lines.append(f"  {key.replace('_', ' ')}: " + "; ".join(parts))
            elif isinstance(value, float):
                lines.append(f"  {key.replace('_', ' ')}: {100 * value:.1f}%")
            else:
                lines.append(f"  {key.replace('_', ' ')}: {value}")
        lines.append("")
    lines += format_play(res)
    extra = f" and {res.equilibrium_deals:,} equilibrium deals" if res.equilibrium_deals else ""
    if res.play_deals:
        extra += f"; play tips on {res.play_deals:,} duplicated deals and {res.play_matches:,} matches each"
    rate = "" if res.play_deals else f" ({(2 * res.deals + res.equilibrium_deals) / res.seconds:,.0f} deals/s)"
    lines.append(f"{2 * res.deals:,} paired deals{extra} in {res.seconds:.1f} s{rate}")
    return "\n".join(lines)


def format_by_score(value: dict) -> list[str]:
    """A reading's by-score block: where it moves most from 0:0, each with its CI and verdict."""
    out = [f"  by score (match-win probability, {value['deals']:,} deals): P(beg) at 0:0 {percent(value['at_0_0'])}"]
    if not value["moves"]:
        out.append(f"  it moves by less than {percent(value['threshold'])} at every score")
    for m in value["moves"]:
        out.append(f"  at {m['score'][0]}:{m['score'][1]}: {percent(m['estimate'])}, 95% CI {percent_ci(*m['ci95'])}: "
                   f"{m['verdict']}")
    return out


def ci_text(value: dict, fmt: str = "+.3f") -> str:
    return f"{value['estimate']:{fmt}}, 95% CI [{value['ci95'][0]:{fmt}}, {value['ci95'][1]:{fmt}}]"


def format_play(res: AdviceResult) -> list[str]:
    """The play tips' block of the text output."""
    if res.play_skipped:
        return [f"Play advice: not measured ({res.play_skipped}).", ""]
    if not res.play:
        return []
    sides = "each side" if res.rules.sides == 2 else f"each of the {res.rules.sides} players"
    lines = [f"Play advice (the Spanish-language guide), each tip a switch of the {res.policy} player: the same "
             f"{res.play_deals:,} deals ({score_text(res.score)}) and {res.play_matches:,} matches played with the "
             f"switch on and off for one side, the other unchanged, the tip side in turn {sides}", ""]
    for claim in res.play:
        d = claim.details
        lines.append(f"[{claim.verdict}] ({claim.method}) {claim.claim}")
        lines.append(f"  switch {d['switch']}: {d['switch_does']}")
        lines.append(f"  net points per deal, on minus off: {ci_text({'estimate': claim.estimate, 'ci95': claim.ci95})}"
                     f" ({claim.n:,} deals)" + (f"; inconclusive: about {d['deals_needed']:,} deals would separate "
                                                 "it from zero" if d.get("deals_needed") else ""))
        lines.append(f"  against the policy: on {ci_text(d['tip_on_against_policy'])}, off "
                     f"{ci_text(d['tip_off_against_policy'])} net points per deal")
        ch, where = d["changed_share"], d["effect_where_changed"]
        lines.append(f"  the switch changed a card or decision in {ci_text(ch, '.1%')} of plays; effect where it "
                     f"did: {ci_text(where)} net points")
        if "match_win_rate" in d:
            m = d["match_win_rate"]
            need = f"; about {m['matches_needed']:,} matches would separate it" if m.get("matches_needed") else ""
            lines.append(f"  match-win rate: on {m['on']['estimate']:.1%}, off {m['off']['estimate']:.1%}, on minus "
                         f"off {ci_text(m, '+.1%')} [{m['verdict']}] ({m['matches']:,} matches{need})")
        f = d["followed_by_player"]
        lines.append(f"  the {f['player']} follows it in {ci_text(f, '.1%')} of {f['situations']:,} {f['over']} "
                     "where it applies")
        if d.get("note"):
            lines.append(f"  note: {d['note']}")
        lines.append("")
    return lines


def write_out(res: AdviceResult, out: Path) -> None:
    """advice.json (the claims), advice.csv (one row per claim) and the per-class tables."""
    import pandas as pd

    out.mkdir(parents=True, exist_ok=True)
    (out / "advice.json").write_text(json.dumps(res.to_json(), indent=1) + "\n", encoding="utf-8")
    rows = [{"id": c.id, "claim": c.claim, "test": c.test, "estimate": c.estimate, "ci_lo": c.ci95[0],
             "ci_hi": c.ci95[1], "verdict": c.verdict, "n": c.n, "unit": c.unit, "method": c.method}
            for c in res.claims + res.play]
    pd.DataFrame(rows).to_csv(out / "advice.csv", index=False)
    for role, frame in (("eldest", res.eldest), ("dealer", res.dealer)):
        frame.to_csv(out / f"advice-{role}-classes.csv", index=False)
        frame.to_parquet(out / f"advice-{role}-classes.parquet", index=False)


def check_advice(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    deals: Annotated[int, typer.Option("--deals", min=100, max=1_000_000_000,
                                       help="Paired decision deals for the eldest, and as many for the dealer.")]
    = DEFAULT_DEALS,
    policy: Annotated[str, typer.Option("--policy", help="Policy of every seat (heuristic, random, "
                                                         "tuned:RUN_DIR, NAME:key=value).")] = "heuristic",
    score: ScoreOpt = None,
    seed: SeedOpt = 1,
    out: Annotated[Optional[Path], typer.Option("--out", help="Also write advice.json/.csv and the per-class "
                                                              "tables to this folder.")] = None,
    threads: ThreadsOpt = None,
    scheduler: SchedulerOpt = None,
    cluster: ClusterOpt = None,
    force: ForceOpt = False,
    no_equilibrium: Annotated[bool, typer.Option(
        "--no-equilibrium", help="Skip the equilibrium readings of the eldest's two claims (the bidding game "
                                 "solved on --deals decision deals).")] = False,
    play_deals: Annotated[int, typer.Option("--play-deals", min=0, max=1_000_000_000,
                                            help="Duplicated deals per play tip, each played with the tip on and off "
                                                 "in every seating (0: skip the play tips).")] = PLAY_ADVICE_DEALS,
    play_matches: Annotated[int, typer.Option("--play-matches", min=0, max=100_000_000,
                                              help="Duplicated matches per play tip, for the match-win rate (0: "
                                                   "skip).")] = PLAY_ADVICE_MATCHES,
    observer: Annotated[str, typer.Option(
        "--observer", help="The card player watched for how often it follows each play tip, left alone (a policy "
                           "spec; pimc:worlds=20 watches a quicker pimc).")] = "pimc",
    by_score: Annotated[bool, typer.Option(
        "--by-score", help="Also read the eldest's two claims against the equilibrium at every score (match-win "
                           "probability, from the equity table; two sides), with a CI where they move most.")]
    = False,
    json_out: JsonOpt = False,
) -> None:
    """Test the advice of a Spanish-language All Fours guide ("Consejos y estrategias", translated): estimate, 95% CI and verdict per claim.

    The eldest's two claims are read twice: as a best response to the policy's dealer and
    against the bidding game's equilibrium (method "equilibrium" in --json; --no-equilibrium
    skips it). The play tips are switches of the card player, each measured on the same
    deals and matches with the switch on and off for one side (method "duplicated deals").
    An existing non-empty --out folder is refused unless --force.
    """
    from ..analysis.bidding import advice
    from ..analysis.play.play_advice import add_play_tips, default_observe_deals
    from ..analysis.bidding.strategy import parse_side_score
    from ..work.executor import check_options, open_executor
    from ..players.policy import parse_policy

    ruleset = build_rules(rules, players, set_)
    check_options(threads, scheduler, cluster)
    parse_policy(policy)
    parse_policy(observer)
    parsed = parse_side_score(score, ruleset) if score is not None else None
    check_output(out, "--out", folder=True, force=force)
    announce_engine()
    eq_deals = 0 if no_equilibrium else deals
    if by_score and (no_equilibrium or ruleset.sides != 2):
        fail("--by-score reads the equilibrium at every score: it needs two sides and the equilibrium readings "
             "(leave --no-equilibrium out)")
    table = load_equity(ruleset, policy, None, threads)[0] if by_score else None
    if play_deals == 1:
        fail("--play-deals: give at least 2 deals (or 0 to skip the play tips)")
    total = (2 * deals + eq_deals + (eq_deals * (1 + advice.BY_SCORE_CHECKS) if by_score else 0)
             + (play_deals + play_matches + default_observe_deals(play_deals) if play_deals else 0))
    with open_executor(threads, scheduler, cluster) as executor, progress_bar("deals", total) as bar:
        res = advice.check_advice(ruleset, policy, deals, seed, parsed, executor=executor, progress=bar.advance,
                                  equilibrium_deals=eq_deals, by_score_equity=table)
        if play_deals > 0:
            res = add_play_tips(res, play_deals, play_matches, parsed, executor, bar.advance, observer)
    typer.echo(json.dumps(res.to_json()) if json_out else format_result(res))
    if out is not None:  # after the answer: files that cannot be written lose nothing
        with writing(out):
            write_out(res, out)
