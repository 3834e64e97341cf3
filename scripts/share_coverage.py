"""How often the share readings' 95% intervals cover the large-sample value, over many seeds.

    .venv/bin/python scripts/share_coverage.py [--rules trinidad] [--players 4] [--deals 20000]
        [--seeds 40] [--first-seed 1] [--threads 1] [--out results/coverage]
        [--reference results/trinidad-4p/report.json]

check-advice prints four shares of hands (``analysis.bidding.advice.SHARE_READINGS``): claim 1's share of the
eldest's hands without trump where begging beats standing (its estimate), and the "share_where_..." details of
claims 2-4. Each seed runs check-advice's two paired passes (``advice_sums``: exactly the deals of
``allfours check-advice --deals D --seed S --play-deals 0 --play-matches 0 --no-equilibrium``), keeps their
class sums in ``--out``/sums/ (an interrupted run loses no finished seed; a rerun reuses them) and reads the
claims from them with the shipped estimator (``best_response_claims``), and, for comparison, with the estimator
check-advice had before (the share of classes whose observed mean is positive, with a parametric bootstrap of
the observed means: ``signs_share``).

The reference value of each reading is the shipped report's at its advice size (2,000,000 deals in
results/trinidad-4p/report.json). The table in docs/findings.md was made while that report still held the
estimator before (claim 1: 0.998); the edition now holds the hierarchical estimate (0.99988), which a rerun
reads, and the 20,000,000-deal column covers both. With ``--truth-deals N`` the script also runs
the passes once at N deals on ``--truth-seed`` (kept in sums/ too) and counts coverage of that run's estimate
as well; the seeds' sums pooled (seeds x deals deals) give one more estimate, printed beside.

Writes ``coverage.json`` and ``coverage.md`` (the table) to ``--out``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from analyser.analysis.bidding import advice
from analyser.analysis.bidding.advice import SHARE_READINGS, advice_sums, best_response_claims, share_reading
from analyser.analysis.bidding.strategy import mean_se
from analyser.engine.decisions import CS_D, CS_DD, CS_N
from analyser.game.rules import make_rules

ROOT = Path(__file__).resolve().parents[1]
SUMS_KEYS = ("eldest", "e_counts", "dealer", "d_counts")


def signs_share(means: np.ndarray, ses: np.ndarray, counts: np.ndarray, rng: np.random.Generator,
                draws: int = advice.BOOTSTRAP_DRAWS, **_: Any) -> tuple[float, tuple[float, float]]:
    """check-advice's share estimator before: the share of the deals in classes whose observed mean is positive,
    and a parametric bootstrap (means ~ N(mean, se^2), weights ~ multinomial(counts))."""
    keep = counts > 0
    means, ses, counts = means[keep], ses[keep], counts[keep]
    total = int(counts.sum())
    if total == 0:
        return math.nan, (math.nan, math.nan)
    estimate = float(counts[means > 0].sum() / total)
    drawn_means = means + ses * rng.standard_normal((draws, len(means)))
    drawn_counts = rng.multinomial(total, counts / total, size=draws)
    lo, hi = np.quantile((drawn_counts * (drawn_means > 0)).sum(axis=1) / total, [0.025, 0.975])
    return estimate, (float(lo), float(hi))


def signs_class_estimates(sums: np.ndarray, rows: list[int],
                          sign: float = 1.0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """check-advice's per-class (mean, SE, n) before: a class's own SE, the rows' pooled SD where it has under 2."""
    s = sums[rows].astype(np.float64)
    n = s[:, CS_N]
    mean, se = mean_se(s[:, CS_D], s[:, CS_DD], n)
    _, pooled_se, total = advice.pooled(sums, rows)
    sd = pooled_se * math.sqrt(total) if total >= 2 else 1.0
    se = np.where(np.isfinite(se), se, sd / np.sqrt(np.maximum(n, 1)))
    return sign * np.nan_to_num(mean), se, n.astype(np.int64)


@contextlib.contextmanager
def estimator_before() -> Iterator[None]:
    """check-advice's claims read with the share estimator it had before."""
    kept = advice.share_positive, advice.class_estimates
    advice.share_positive, advice.class_estimates = signs_share, signs_class_estimates  # type: ignore[assignment]
    try:
        yield
    finally:
        advice.share_positive, advice.class_estimates = kept


def seed_sums(rules: Any, deals: int, seed: int, threads: int, folder: Path,
              name: str = "") -> tuple[np.ndarray, ...]:
    """The seed's class sums, from `folder` if kept there, else measured and kept."""
    path = folder / (name or f"seed-{seed:04d}.npz")
    if path.is_file():
        with np.load(path) as kept:
            return tuple(kept[k] for k in SUMS_KEYS)
    sums = advice_sums(rules, "heuristic", deals, seed, threads=threads)
    folder.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(".part.npz")
    np.savez_compressed(part, **dict(zip(SUMS_KEYS, sums)))
    part.replace(path)
    return sums


def reference_values(report: Path, rules: Any) -> tuple[dict[str, float], int]:
    """Each share reading's value in the shipped report, and the report's advice deals."""
    numbers = json.loads(report.read_text())
    if (numbers["rules"]["preset"], numbers["rules"]["players"]) != (rules.preset, rules.players):
        raise SystemExit(f"{report} is not a report of {rules.preset} with {rules.players} players")
    claims = {c["id"]: c for c in numbers["advice"]}
    return ({name: share_reading(claims[ident], key)[0] for name, (ident, key) in SHARE_READINGS.items()},
            int(numbers["sizes"]["advice"]))


def readings(sums: tuple[np.ndarray, ...], seed: int) -> dict[str, tuple[float, tuple[float, float]]]:
    claims = {c.id: c.to_json() for c in best_response_claims(*sums, seed)}
    return {name: share_reading(claims[ident], key) for name, (ident, key) in SHARE_READINGS.items()}


def coverage(found: list[dict[str, Any]], reference: float) -> int:
    return sum(r["ci95"][0] <= reference <= r["ci95"][1] for r in found)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="trinidad")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--first-seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--truth-deals", type=int, default=0)
    ap.add_argument("--truth-seed", type=int, default=999)
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "coverage")
    ap.add_argument("--reference", type=Path, default=ROOT / "results" / "trinidad-4p" / "report.json")
    args = ap.parse_args()
    rules = make_rules(args.rules, players=args.players)
    reference, reference_deals = reference_values(args.reference, rules)
    folder = args.out / "sums" / f"{args.rules}-{args.players}p"
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    start = time.perf_counter()
    truth: dict[str, tuple[float, tuple[float, float]]] = {}
    if args.truth_deals:
        truth = readings(seed_sums(rules, args.truth_deals, args.truth_seed, args.threads, folder,
                                   f"truth-{args.truth_deals}-seed-{args.truth_seed:04d}.npz"), args.truth_seed)
    rows: dict[str, list[dict[str, Any]]] = {name: [] for name in SHARE_READINGS}
    before: dict[str, list[dict[str, Any]]] = {name: [] for name in SHARE_READINGS}
    pooled: list[np.ndarray] | None = None
    for seed in seeds:
        t = time.perf_counter()
        sums = seed_sums(rules, args.deals, seed, args.threads, folder / str(args.deals))
        pooled = [a.copy() for a in sums] if pooled is None else [p + a for p, a in zip(pooled, sums)]
        with estimator_before():
            old = readings(sums, seed)
        for name, (estimate, (lo, hi)) in readings(sums, seed).items():
            rows[name].append({"seed": seed, "estimate": estimate, "ci95": [lo, hi]})
            e0, (lo0, hi0) = old[name]
            before[name].append({"seed": seed, "estimate": e0, "ci95": [lo0, hi0]})
        print(f"seed {seed}: {time.perf_counter() - t:.1f} s", flush=True)
    assert pooled is not None
    pooled_readings = readings(tuple(pooled), 0)
    command = (f"python scripts/share_coverage.py --rules {args.rules} --players {args.players} --deals {args.deals} "
               f"--seeds {args.seeds} --first-seed {args.first_seed}"
               + (f" --truth-deals {args.truth_deals} --truth-seed {args.truth_seed}" if args.truth_deals else ""))
    table = {}
    for name, found in rows.items():
        n = len(found)
        pe, (plo, phi) = pooled_readings[name]
        entry: dict[str, Any] = {
            "reference": reference[name], "covered": coverage(found, reference[name]), "seeds": n,
            "estimate_inside_ci": sum(r["ci95"][0] <= r["estimate"] <= r["ci95"][1] for r in found),
            "mean_estimate": float(np.mean([r["estimate"] for r in found])),
            "median_width": float(np.median([r["ci95"][1] - r["ci95"][0] for r in found])),
            "before": {"covered": coverage(before[name], reference[name]),
                       "estimate_inside_ci": sum(r["ci95"][0] <= r["estimate"] <= r["ci95"][1]
                                                 for r in before[name]),
                       "mean_estimate": float(np.mean([r["estimate"] for r in before[name]])),
                       "seeds_found": before[name]},
            "pooled": {"deals": args.deals * n, "estimate": pe, "ci95": [plo, phi]}}
        if truth:
            te, (tlo, thi) = truth[name]
            entry["truth"] = {"deals": args.truth_deals, "seed": args.truth_seed, "estimate": te, "ci95": [tlo, thi],
                              "covered": coverage(found, te)}
        entry["seeds_found"] = found
        table[name] = entry
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "coverage.json").write_text(json.dumps(
        {"command": command, "rules": args.rules, "players": args.players, "deals": args.deals, "seeds": seeds,
         "reference": {"file": str(args.reference.relative_to(ROOT)) if args.reference.is_relative_to(ROOT)
                       else str(args.reference), "deals": reference_deals},
         "readings": table}, indent=1) + "\n")
    truth_head = f" | covers the {args.truth_deals:,}-deal value" if truth else ""
    lines = [f"# How often the share readings' 95% intervals cover ({args.rules}, {args.players} players)", "",
             f"`{command}` ({time.perf_counter() - start:.0f} s). Each seed: check-advice's claims at "
             f"{args.deals:,} deals per role. Reference: the shipped report's value at {reference_deals:,} deals"
             + (f"; also a run of {args.truth_deals:,} deals (seed {args.truth_seed})." if truth else "."), "",
             f"| reading | reference | covers it | estimate inside its CI | mean estimate | median CI width{truth_head} "
             "| before: covers | before: inside | all seeds pooled |",
             "|---|---|---|---|---|---|" + ("---|" if truth else "") + "---|---|---|"]
    for name, r in table.items():
        p, b, n = r["pooled"], r["before"], r["seeds"]
        cells = [name, f"{r['reference']:.3f}", f"{r['covered']}/{n} ({r['covered'] / n:.0%})",
                 f"{r['estimate_inside_ci']}/{n}", f"{r['mean_estimate']:.3f}", f"{r['median_width']:.3f}"]
        if truth:
            t = r["truth"]
            cells.append(f"{t['estimate']:.4f}: {t['covered']}/{n} ({t['covered'] / n:.0%})")
        cells += [f"{b['covered']}/{n} ({b['covered'] / n:.0%})", f"{b['estimate_inside_ci']}/{n}",
                  f"{p['estimate']:.3f} [{p['ci95'][0]:.3f}, {p['ci95'][1]:.3f}] ({p['deals']:,} deals)"]
        lines.append("| " + " | ".join(cells) + " |")
    (args.out / "coverage.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    if not all(math.isfinite(r["reference"]) for r in table.values()):
        raise SystemExit("a reference value is missing")


if __name__ == "__main__":
    main()
