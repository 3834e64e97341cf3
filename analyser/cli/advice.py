"""``allfours check-advice``: test the published advice (document 003) with estimates, CIs and verdicts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional, TYPE_CHECKING

import typer

from ..analysis.defaults import ADVICE_DEALS as DEFAULT_DEALS, ADVICE_METHODS
from .options import (
    ClusterOpt, ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SchedulerOpt, ScoreOpt, SeedOpt, SetOpt, ThreadsOpt,
    announce_engine, build_rules, check_output, file_errors, progress_bar, score_text,
)

if TYPE_CHECKING:  # the analysis modules load numba and pandas: only when a command runs
    from ..analysis.advice import AdviceResult, Claim

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
    lines = [f"Published advice (document 003) checked: {r.preset}, {r.players} players, {score_text(res.score)}, "
             f"policy {res.policy}; {res.deals:,} paired "
             f"decision deals for the eldest and as many for the dealer, seed {res.seed}"]
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
            if key == "p_beg_by_class":
                lines.append("  P(beg) by class: " + "; ".join(
                    f"{k} {v['estimate']:.3f} [{v['ci95'][0]:.2f}, {v['ci95'][1]:.2f}]" for k, v in value.items()))
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
    extra = f" and {res.equilibrium_deals:,} equilibrium deals" if res.equilibrium_deals else ""
    lines.append(f"{2 * res.deals:,} paired deals{extra} in {res.seconds:.1f} s "
                 f"({(2 * res.deals + res.equilibrium_deals) / res.seconds:,.0f} deals/s)")
    return "\n".join(lines)


def write_out(res: AdviceResult, out: Path) -> None:
    """advice.json (the claims), advice.csv (one row per claim) and the per-class tables."""
    import pandas as pd

    out.mkdir(parents=True, exist_ok=True)
    (out / "advice.json").write_text(json.dumps(res.to_json(), indent=1) + "\n", encoding="utf-8")
    rows = [{"id": c.id, "claim": c.claim, "test": c.test, "estimate": c.estimate, "ci_lo": c.ci95[0],
             "ci_hi": c.ci95[1], "verdict": c.verdict, "n": c.n, "unit": c.unit, "method": c.method}
            for c in res.claims]
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
    json_out: JsonOpt = False,
) -> None:
    """Test the advice of document 003 ("Consejos y estrategias"): estimate, 95% CI and verdict per claim.

    The eldest's two claims are read twice: as a best response to the policy's dealer and
    against the bidding game's equilibrium (method "equilibrium" in --json; --no-equilibrium
    skips it). An existing non-empty --out folder is refused unless --force.
    """
    from ..analysis import advice
    from ..analysis.strategy import parse_side_score
    from ..executor import check_options, open_executor
    from ..policy import parse_policy

    ruleset = build_rules(rules, players, set_)
    check_options(threads, scheduler, cluster)
    parse_policy(policy)
    parsed = parse_side_score(score, ruleset) if score is not None else None
    check_output(out, "--out", folder=True, force=force)
    announce_engine()
    eq_deals = 0 if no_equilibrium else deals
    with open_executor(threads, scheduler, cluster) as executor, progress_bar("deals", 2 * deals + eq_deals) as bar:
        res = advice.check_advice(ruleset, policy, deals, seed, parsed, executor=executor, progress=bar.advance,
                                  equilibrium_deals=eq_deals)
    if out is not None:
        with file_errors(out):
            write_out(res, out)
    typer.echo(json.dumps(res.to_json()) if json_out else format_result(res))
