"""How well ``holders`` (where the unseen cards lie) is calibrated, weighed by the others' choices (``full``) and not
(``none``), on card decisions cut from simulated trinidad-4p logs.

    python scripts/holders_calibration.py [--deals 300] [--pimc-deals 120] [--worlds 300] [--seed 62000]
                                          [--logs runs/inference] [--out results/inference/calibration]

Three sources of logs, each policy at every seat (``fit_inference.SOURCES``; kept under --logs, chunk i of seed
--seed + i, simulated once):

* **tuned**: the shipped best-response strategy's bids, the heuristic's card play
  (``tuned:results/trinidad-4p/strategy``);
* **pimc**: pimc's card play, bidding by the same strategy's tables and reading the others by the heuristic's model
  (``pimc:tables=results/trinidad-4p/strategy,model=heuristic``: pimc's default when the shipped figures were made);
* **heuristic**: the heuristic's own bids and card play (a bidder the model does not know).

Every card decision of the first --deals deals of each (--pimc-deals of pimc) (the seat to move, on the true position): the deals of the
cards it has not seen (``inference.weighted_worlds``, the hint's own: every consistent deal when at most 10,000,
else --worlds drawn uniformly with seed --seed + 1000 * deal + decision) weighed by the model of the other players
at the deal's score (``full``; its grades --temperature, --card-floor, --bid-floor, default the fitted ones) or alike (``none``: the same deals, equal weights), and ``holders`` of each. The truth:
the seat holding each unseen card in the true position, or "out".

Also weighed by the bids only (``bids``), to tell what the cards add.

* **Brier score** of a decision: the mean over its unseen cards of sum over the outcomes (each other seat, out) of
  (p - truth)^2. ``full`` minus ``none`` paired by decision; the mean over decisions with a 95% interval whose
  standard error is taken over deals (a deal's decisions are correlated: the cluster-robust error of a mean).
  Also on the deciding cards only (trump A K Q J 10, each side ten: what the hint names).
* **Reliability**: every predicted probability of ``full`` (a card, an outcome) by band of width 0.1, with the
  mean predicted and the observed frequency; the probabilities 0 and 1 (a seat that cannot hold the card, a card
  only one place can hold) are left out: they are certain under either weighing.

Writes --out.json (the summary, the command, the seeds) and --out.csv (one row a decision) and prints the tables.
"""

from __future__ import annotations

import argparse
import dataclasses
import csv
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fit_inference import ROOT, SOURCES, cached_logs, log_lines  # noqa: E402

from analyser.analysis.play.inference import (  # noqa: E402
    BID_FLOOR, CARD_FLOOR, TEMPERATURE, effective_size, evidence_of_line, holders, log_weights, model_for, normalised,
    weighted_worlds,
)
from analyser.analysis.play.logcuts import line_decisions  # noqa: E402
from analyser.engine.layout import PS_HAND, PS_PLAYERS, PS_TRUMP  # noqa: E402
from analyser.game.rules import make_rules  # noqa: E402
from analyser.table.hint import deciding_cards  # noqa: E402

WHAT = {"tuned": "(a) the shipped strategy's bids, heuristic card play",
        "pimc": "(b) pimc's card play, the strategy's bids",
        "heuristic": "(c) the heuristic's own bids and card play"}
BANDS = 10


def truth_of(state: np.ndarray, card: int) -> str:
    """Where `card` lies in the true state: the seat holding it (as a string) or "out"."""
    for s in range(int(state[PS_PLAYERS])):
        if int(np.uint64(state[PS_HAND + s])) >> card & 1:
            return str(s)
    return "out"


def brier(held: dict[int, dict[str, float]], truth: dict[int, str], cards: list[int] | None = None) -> float:
    """The mean over the cards of `held` (or those of `cards` among them) of sum over the outcomes of
    (p - [outcome is the truth])^2; nan when there is none."""
    keys = [c for c in held if cards is None or c in cards]
    if not keys:
        return math.nan
    total = 0.0
    for c in keys:
        total += sum((p - (1.0 if o == truth[c] else 0.0)) ** 2 for o, p in held[c].items())
    return total / len(keys)


def clustered_mean(values: np.ndarray, clusters: np.ndarray) -> tuple[float, float]:
    """The mean of `values` and its standard error with the observations of a cluster correlated (the
    cluster-robust error of a mean: sum over clusters of their residual sums squared)."""
    ok = ~np.isnan(values)
    values, clusters = values[ok], clusters[ok]
    mean = float(values.mean())
    ids, index = np.unique(clusters, return_inverse=True)
    g = len(ids)
    resid = np.bincount(index, weights=values - mean, minlength=g)
    se = math.sqrt(g / (g - 1) * float((resid ** 2).sum())) / len(values) if g > 1 else math.nan
    return mean, se


def reliability(pairs: list[tuple[float, float]]) -> list[dict[str, Any]]:
    """Predictions (p, outcome 0/1) by band of width 1/BANDS, 0 and 1 left out."""
    arr = np.array([x for x in pairs if 0.0 < x[0] < 1.0], dtype=np.float64).reshape(-1, 2)
    band = np.minimum((arr[:, 0] * BANDS).astype(int), BANDS - 1)
    rows = []
    for b in range(BANDS):
        sel = arr[band == b]
        n = len(sel)
        rows.append({"band": f"{b / BANDS:.1f}-{(b + 1) / BANDS:.1f}", "count": n,
                     "predicted": float(sel[:, 0].mean()) if n else None,
                     "observed": float(sel[:, 1].mean()) if n else None,
                     "observed_se": float(math.sqrt(sel[:, 1].mean() * (1 - sel[:, 1].mean()) / n)) if n else None})
    return rows


def decision_rows(source: str, files: list[Path], deals: int, worlds: int, seed: int, grades: dict[str, float]
                  ) -> tuple[list[dict[str, Any]], dict[str, list[tuple[float, float]]]]:
    rules = make_rules("trinidad", players=4)
    models: dict[Any, Any] = {}
    rows: list[dict[str, Any]] = []
    pairs: dict[str, list[tuple[float, float]]] = {"full": [], "none": []}
    for deal, line in log_lines(files, deals):
        found = line_decisions(line)
        for k, play in enumerate(found.plays):
            state, seat = play.position.state, play.seat
            evidence, score = evidence_of_line(found, k)
            if score not in models:
                models[score] = dataclasses.replace(model_for(rules, score=score), **grades)
            hands, w, exact = weighted_worlds(rules, state, seat, evidence, models[score], "full", worlds,
                                              seed + 1000 * deal + k)
            full = holders(state, seat, hands, w)
            none = holders(state, seat, hands, np.full(len(w), 1.0 / len(w)))
            wb = normalised(log_weights(rules, state, seat, hands, models[score], "bids", evidence))
            bids = holders(state, seat, hands, wb)
            truth = {c: truth_of(state, c) for c in full}
            deciding = deciding_cards(int(state[PS_TRUMP]))
            for name, held in (("full", full), ("none", none)):
                for c, row in held.items():
                    pairs[name].extend((p, 1.0 if o == truth[c] else 0.0) for o, p in row.items())
            rows.append({"source": source, "deal": deal, "decision": k, "seat": seat,
                         "cards_left": int(sum(bin(int(np.uint64(state[PS_HAND + s]))).count("1")
                                               for s in range(rules.players))),
                         "unseen": len(full), "exact": bool(exact), "worlds": int(len(w)),
                         "ess": effective_size(w), "ess_bids": effective_size(wb), "brier_none": brier(none, truth),
                         "brier_bids": brier(bids, truth), "brier_full": brier(full, truth),
                         "deciding_none": brier(none, truth, deciding), "deciding_bids": brier(bids, truth, deciding),
                         "deciding_full": brier(full, truth, deciding)})
    return rows, pairs


def summary(rows: list[dict[str, Any]], pairs: dict[str, list[tuple[float, float]]]) -> dict[str, Any]:
    deal = np.array([r["deal"] for r in rows])
    out: dict[str, Any] = {"decisions": len(rows), "deals": int(len(np.unique(deal))),
                           "exact": int(sum(r["exact"] for r in rows)),
                           "ess_median": float(np.median([r["ess"] for r in rows]))}
    for what, prefix in (("all", "brier"), ("deciding", "deciding")):
        none = np.array([r[f"{prefix}_none"] for r in rows], dtype=np.float64)
        bids = np.array([r[f"{prefix}_bids"] for r in rows], dtype=np.float64)
        full = np.array([r[f"{prefix}_full"] for r in rows], dtype=np.float64)
        diff, se = clustered_mean(full - none, deal)
        bdiff, bse = clustered_mean(bids - none, deal)
        ok = ~np.isnan(none)
        out[what] = {"decisions": int(ok.sum()), "none": float(none[ok].mean()), "bids": float(bids[ok].mean()),
                     "full": float(full[ok].mean()),
                     "full_minus_none": diff, "se_by_deal": se, "ci95": [diff - 1.96 * se, diff + 1.96 * se],
                     "bids_minus_none": bdiff, "bids_ci95": [bdiff - 1.96 * bse, bdiff + 1.96 * bse],
                     "full_better_share": float((full[ok] < none[ok] - 1e-12).mean())}
    out["reliability_full"] = reliability(pairs["full"])
    out["reliability_none"] = reliability(pairs["none"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=300, help="deals of tuned and heuristic, every card decision (default 300)")
    ap.add_argument("--pimc-deals", type=int, default=120, help="deals of pimc, every card decision (default 120)")
    ap.add_argument("--worlds", type=int, default=300, help="deals drawn when more than 10,000 fit (default 300)")
    ap.add_argument("--seed", type=int, default=62000, help="seed of the first chunk of logs and of the draws")
    ap.add_argument("--temperature", type=float, default=TEMPERATURE, help=f"the model's (default {TEMPERATURE})")
    ap.add_argument("--card-floor", type=float, default=CARD_FLOOR, help=f"the model's (default {CARD_FLOOR})")
    ap.add_argument("--bid-floor", type=float, default=BID_FLOOR, help=f"the model's (default {BID_FLOOR})")
    ap.add_argument("--sources", default="tuned,pimc,heuristic", help="comma-separated, of " + ", ".join(SOURCES))
    ap.add_argument("--logs", type=Path, default=ROOT / "runs" / "inference", help="where the logs are kept")
    ap.add_argument("--chunk", type=int, default=100, help="deals a log file (default 100)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "inference" / "calibration",
                    help="writes OUT.json and OUT.csv")
    args = ap.parse_args(argv)
    sources = [s.strip() for s in args.sources.split(",") if s.strip()]
    bad = [s for s in sources if s not in SOURCES]
    if bad or not sources:
        ap.error(f"--sources: unknown {', '.join(bad) or '(none given)'}; choose among {', '.join(SOURCES)}")
    if min(args.deals, args.pimc_deals, args.worlds, args.chunk) < 1:
        ap.error("--deals, --pimc-deals, --worlds and --chunk must be at least 1")
    if args.temperature < 0 or not (0 <= args.card_floor <= 1 and 0 <= args.bid_floor <= 1):
        ap.error("--temperature must be at least 0, --card-floor and --bid-floor between 0 and 1")
    grades = {"temperature": args.temperature, "card_floor": args.card_floor, "bid_floor": args.bid_floor}
    all_rows: list[dict[str, Any]] = []
    results: dict[str, Any] = {}
    for source in sources:
        deals = args.pimc_deals if source == "pimc" else args.deals
        files = cached_logs(source, deals, args.seed, args.logs, args.chunk)
        rows, pairs = decision_rows(source, files, deals, args.worlds, args.seed, grades)
        all_rows += rows
        results[source] = {"policy": SOURCES[source], "what": WHAT[source], **summary(rows, pairs)}
    command = "python scripts/holders_calibration.py " + " ".join(argv if argv is not None else sys.argv[1:])
    model = dataclasses.replace(model_for(make_rules("trinidad", players=4)), **grades).to_json()
    doc = {"command": command.strip(), "seed": args.seed, "worlds": args.worlds, "rules": "trinidad, 4 players",
           "model": model, "sources": results}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    with args.out.with_suffix(".csv").open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(all_rows[0]))
        writer.writeheader()
        writer.writerows({k: round(v, 6) if isinstance(v, float) else v for k, v in r.items()} for r in all_rows)
    print(markdown(doc))
    print(f"wrote {args.out.with_suffix('.json')} and {args.out.with_suffix('.csv')}")
    return 0


def markdown(doc: dict[str, Any]) -> str:
    """The tables of a calibration document, as markdown."""
    lines = ["| source | decisions (deals) | Brier none | Brier full | full - none (95% CI, by deal) | "
             "bids - none (95% CI) | deciding cards: full - none (95% CI) |", "|---|---|---|---|---|---|---|"]
    for s in doc["sources"].values():
        a, d = s["all"], s["deciding"]
        lines.append(f"| {s['what']} | {s['decisions']:,} ({s['deals']}) | {a['none']:.4f} | {a['full']:.4f} | "
                     f"{a['full_minus_none']:+.4f} ({a['ci95'][0]:+.4f} to {a['ci95'][1]:+.4f}) | "
                     f"{a['bids_minus_none']:+.4f} ({a['bids_ci95'][0]:+.4f} to {a['bids_ci95'][1]:+.4f}) | "
                     f"{d['full_minus_none']:+.4f} ({d['ci95'][0]:+.4f} to {d['ci95'][1]:+.4f}) |")
    lines.append("")
    names = list(doc["sources"])
    lines.append("| band (full) | " + " | ".join(f"{n}: predicted / observed (count)" for n in names) + " |")
    lines.append("|---|" + "---|" * len(names))
    for b in range(BANDS):
        cells = []
        for n in names:
            r = doc["sources"][n]["reliability_full"][b]
            cells.append("-" if not r["count"] else f"{r['predicted']:.3f} / {r['observed']:.3f} ({r['count']:,})")
        lines.append(f"| {doc['sources'][names[0]]['reliability_full'][b]['band']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
