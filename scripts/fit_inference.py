"""Fit the model of the other players (engine/inference.py) by likelihood, on play it did not generate.

    python scripts/fit_inference.py [--pimc-deals 600] [--bid-deals 10000] [--seed 61000] [--logs runs/inference]
                                    [--bootstrap 1000] [--out results/inference/fit.json]

* **Cards** (temperature T and card_floor): every card decision with at least 2 legal cards in logs of ``pimc``
  at every seat of trinidad 4 players (its card play; it bids by the shipped strategy's tables and reads the others
  by the heuristic's model, ``pimc:tables=results/trinidad-4p/strategy,model=heuristic``: the pimc the shipped fit
  was made with, pimc's default then). For each, the preference rank r of the card played among the n legal cards
  (``engine.inference.preference_rank`` with the model's row, on the true position: the heuristic reads only the
  mover's hand and what is public); the model gives it
  ``(1 - card_floor) * exp(-r/T) / sum_k<n exp(-k/T) + card_floor / n``.
* **Bids** (bid_floor): every stand/beg and give/run in logs of the shipped best-response strategy
  (``tuned:results/trinidad-4p/strategy``, heuristic card play), judged by the model's equilibrium row at the
  deal's score (``model_for``): ``(1 - bid_floor) * p + bid_floor / 2``.

Both by maximum likelihood (scipy.optimize), with 95% intervals from a bootstrap over deals (a deal's decisions
are resampled together). The logs are simulated once and kept under --logs, one file a chunk of --chunk deals
(seed --seed + chunk; one folder a source, named by its key in SOURCES, not by its spec, so the pimc logs kept
before ``model=heuristic`` was written out are read as they are: they were played by it): an interrupted run keeps
every finished chunk. Writes --out (JSON: the figures, the command, the seeds) and prints a short table.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize, minimize_scalar

from analyser.analysis.play.inference import Model, model_for
from analyser.analysis.play.logcuts import line_decisions
from analyser.engine.bits import popcount, rng_state
from analyser.engine.inference import beg_probability, give_probability, preference_rank
from analyser.engine.state import legal
from analyser.game.rules import RuleSet, make_rules

ROOT = Path(__file__).resolve().parent.parent
STRATEGY = "results/trinidad-4p/strategy"
BEFORE = {"temperature": 0.7, "card_floor": 0.05, "bid_floor": 0.05}  # the model's grades before they were fitted
SOURCES = {  # a log source: the policy at every seat (its logs kept under --logs/KEY)
    "pimc": f"pimc:tables={STRATEGY},model=heuristic",  # the shipped fit's pimc (its default model then)
    "tuned": f"tuned:{STRATEGY}",
    "heuristic": "heuristic",
}


# --- the logs ---------------------------------------------------------------------------------------------------


def cached_logs(source: str, deals: int, seed: int, logs: Path, chunk: int = 200, quiet: bool = False) -> list[Path]:
    """Chunk files holding at least `deals` deals of trinidad 4 players with SOURCES[source] at every seat: chunk i
    is `chunk` deals (at most `deals`) of seed `seed` + i, the lines ``allfours simulate --log`` writes
    (``simulate.iter_log_lines``), simulated unless already kept (a chunk is written whole or not at all)."""
    from analyser.record.gamelog import dumps
    from analyser.players.policy import seat_policies
    from analyser.players.simulate import iter_log_lines

    folder = logs / source
    folder.mkdir(parents=True, exist_ok=True)
    chunk = min(chunk, deals)
    rules = make_rules("trinidad", players=4)
    kinds, params = seat_policies([SOURCES[source]], rules.players)
    files = []
    for i in range(math.ceil(deals / chunk)):
        path = folder / f"seed-{seed + i}-{chunk}.jsonl"
        if not path.exists():
            part = path.with_suffix(".jsonl.part")
            if not quiet:
                print(f"simulating {chunk} deals of {SOURCES[source]} (seed {seed + i}) into {path}", file=sys.stderr)
            with part.open("w", encoding="utf-8") as f:
                for line in iter_log_lines(rules, chunk, seed + i, kinds, params):
                    f.write(dumps(line) + "\n")
            part.rename(path)
        files.append(path)
    return files


def log_lines(files: list[Path], deals: int) -> Iterator[tuple[int, dict[str, Any]]]:
    """(deal index, line) for the first `deals` lines of the chunk files, in order."""
    index = 0
    for path in files:
        with path.open(encoding="utf-8") as f:
            for text in f:
                if index >= deals:
                    return
                yield index, json.loads(text)
                index += 1


# --- the data ---------------------------------------------------------------------------------------------------


def card_ranks(lines: Iterator[tuple[int, dict[str, Any]]], model: Model) -> np.ndarray:
    """One row (deal, rank, n) per card decision with n >= 2 legal cards: the preference rank of the card played."""
    rng = rng_state(np.random.SeedSequence(0))  # the heuristic's preferences draw nothing (as log_weights reads them)
    rows = []
    for deal, line in lines:
        found = line_decisions(line)
        rules = found.rules.as_array()
        for play in found.plays:
            state = play.position.state
            options = legal(state)
            n = int(popcount(options))
            if n >= 2 and play.chosen is not None:
                rank = int(preference_rank(model.params, state, options, int(play.chosen), rules, rng))
                if rank < 0:  # pragma: no cover - a refereed card is legal
                    raise AssertionError(f"deal {deal}: card {play.chosen} not among the legal cards")
                rows.append((deal, rank, n))
    return np.array(rows, dtype=np.int64).reshape(-1, 3)


@lru_cache(maxsize=None)
def _model_at(rules: RuleSet, score: tuple[int, int] | None) -> Model:
    return model_for(rules, score=score)


def bid_probabilities(lines: Iterator[tuple[int, dict[str, Any]]], rules: RuleSet) -> tuple[np.ndarray, np.ndarray]:
    """(deal, role: 0 eldest 1 dealer) rows and the model's probability of each bid made (the equilibrium row at the
    deal's score, eldest's side first), before the floor."""
    rows, probs = [], []
    arr = rules.as_array()
    for deal, line in lines:
        found = line_decisions(line)
        for bid in found.bids:
            if bid.chosen is None:
                continue
            eldest = (bid.seat + 1) % rules.players if bid.role == "dealer" else bid.seat
            e_side = rules.side_of(eldest)
            score = (int(bid.score[e_side]), int(bid.score[1 - e_side])) if rules.sides == 2 else None
            model = _model_at(rules, score)
            hand = np.uint64(sum(1 << c for c in bid.hand))
            if bid.role == "eldest":
                p = float(beg_probability(model.params, hand, bid.turnup, arr))
                p = p if bid.chosen == "beg" else 1.0 - p
            else:
                scores = np.zeros(4, dtype=np.int64)
                scores[:len(bid.score)] = bid.score
                p = float(give_probability(model.params, hand, bid.turnup, bid.seat, scores, arr))
                p = p if bid.chosen == "give" else 1.0 - p
            rows.append((deal, 0 if bid.role == "eldest" else 1))
            probs.append(p)
    return np.array(rows, dtype=np.int64).reshape(-1, 2), np.array(probs, dtype=np.float64)


# --- the likelihoods ------------------------------------------------------------------------------------------------


def card_probability(rank: np.ndarray, n: np.ndarray, temperature: float, floor: float) -> np.ndarray:
    """The model's probability of the card of preference rank `rank` among `n` legal cards (engine
    ``rank_probability``, vectorised)."""
    rank = np.asarray(rank, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if temperature <= 0:
        top = (rank == 0).astype(np.float64)
    else:
        q = math.exp(-1.0 / temperature)
        total = n if q == 1.0 else (1.0 - q ** n) / (1.0 - q)
        top = q ** rank / total
    return (1.0 - floor) * top + floor / n


def card_counts(data: np.ndarray, max_n: int | None = None) -> np.ndarray:
    """counts[rank, n] of (deal, rank, n) rows."""
    size = int(data[:, 2].max()) + 1 if max_n is None else max_n + 1
    counts = np.zeros((size, size), dtype=np.float64)
    np.add.at(counts, (data[:, 1], data[:, 2]), 1.0)
    return counts


def card_nll(counts: np.ndarray, temperature: float, floor: float) -> float:
    """Minus the log-likelihood of the decisions counted in counts[rank, n]."""
    r, n = np.nonzero(counts)
    return -float(counts[r, n] @ np.log(card_probability(r, n, temperature, floor)))


def fit_cards(counts: np.ndarray, start: tuple[float, float] = (0.7, 0.05)) -> tuple[float, float, float]:
    """(temperature, card_floor, minus the log-likelihood) maximising the likelihood of counts[rank, n], with the
    temperature in [0.01, 100] and the floor in [0, 1]."""
    def nll(x: np.ndarray) -> float:
        return card_nll(counts, math.exp(x[0]), 1.0 / (1.0 + math.exp(-x[1])))

    best = None
    for t0, f0 in (start, (0.3, 0.2), (2.0, 0.01)):
        x0 = np.array([math.log(t0), math.log(f0 / (1.0 - f0))])
        got = minimize(nll, x0, method="Nelder-Mead", options={"xatol": 1e-7, "fatol": 1e-9, "maxiter": 4000})
        if best is None or got.fun < best.fun:
            best = got
    assert best is not None
    t = min(100.0, max(0.01, math.exp(best.x[0])))
    f = 1.0 / (1.0 + math.exp(-best.x[1]))
    return t, f, card_nll(counts, t, f)


def bid_nll(probs: np.ndarray, floor: float) -> float:
    """Minus the log-likelihood of bids the model gives probabilities `probs` (before the floor)."""
    with np.errstate(divide="ignore"):  # floor 0 and a bid the model rules out: infinitely unlikely
        return -float(np.log((1.0 - floor) * probs + floor / 2.0).sum())


def fit_bids(probs: np.ndarray) -> tuple[float, float]:
    """(bid_floor, minus the log-likelihood) maximising the likelihood, the floor in [0, 1]."""
    got = minimize_scalar(lambda f: bid_nll(probs, f), bounds=(0.0, 1.0), method="bounded",
                          options={"xatol": 1e-9})
    f = float(got.x)
    for edge in (0.0, 1.0):  # the bounded search never reaches its ends
        if bid_nll(probs, edge) < bid_nll(probs, f):
            f = edge
    return f, bid_nll(probs, f)


def bootstrap_cards(data: np.ndarray, resamples: int, seed: int, start: tuple[float, float]) -> np.ndarray:
    """(temperature, floor) fitted on `resamples` resamples of the deals (each deal's decisions together)."""
    deals, index = np.unique(data[:, 0], return_inverse=True)
    size = int(data[:, 2].max()) + 1
    per = np.zeros((len(deals), size, size), dtype=np.float64)
    np.add.at(per, (index, data[:, 1], data[:, 2]), 1.0)
    rng = np.random.default_rng(seed)
    out = np.zeros((resamples, 2))
    for b in range(resamples):
        times = np.bincount(rng.integers(0, len(deals), len(deals)), minlength=len(deals)).astype(np.float64)
        counts = np.tensordot(times, per, axes=1)
        t, f, _ = fit_cards(counts, start)
        out[b] = t, f
    return out


def bootstrap_bids(deal: np.ndarray, probs: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    deals, index = np.unique(deal, return_inverse=True)
    rng = np.random.default_rng(seed)
    out = np.zeros(resamples)
    for b in range(resamples):
        times = np.bincount(rng.integers(0, len(deals), len(deals)), minlength=len(deals))
        out[b] = fit_bids(np.repeat(probs, times[index]))[0]
    return out


def by_n(data: np.ndarray, temperature: float, floor: float) -> list[dict[str, Any]]:
    """For each number n of legal cards: the decisions, and the share that chose the heuristic's card and its
    second, observed and under the fitted model."""
    out = []
    for n in np.unique(data[:, 2]):
        ranks = data[data[:, 2] == n, 1]
        model = card_probability(np.array([0, 1]), np.array([n, n]), temperature, floor)
        out.append({"n": int(n), "decisions": int(len(ranks)), "rank0_observed": float((ranks == 0).mean()),
                    "rank0_model": float(model[0]), "rank1_observed": float((ranks == 1).mean()),
                    "rank1_model": float(model[1])})
    return out


def interval(values: np.ndarray) -> list[float]:
    return [float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))]


# --- the run --------------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pimc-deals", type=int, default=600, help="deals of pimc card play (default 600)")
    ap.add_argument("--bid-deals", type=int, default=10000, help="deals of the shipped strategy's bids (default 10000)")
    ap.add_argument("--seed", type=int, default=61000, help="seed of the first chunk of logs and of the bootstrap")
    ap.add_argument("--logs", type=Path, default=ROOT / "runs" / "inference", help="where the logs are kept")
    ap.add_argument("--chunk", type=int, default=200, help="deals a log file (default 200)")
    ap.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples over deals (default 1000)")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "inference" / "fit.json")
    args = ap.parse_args(argv)
    if min(args.pimc_deals, args.bid_deals, args.chunk) < 1 or args.bootstrap < 0:
        ap.error("--pimc-deals, --bid-deals and --chunk must be at least 1, --bootstrap at least 0")
    rules = make_rules("trinidad", players=4)
    model = model_for(rules)

    pimc = cached_logs("pimc", args.pimc_deals, args.seed, args.logs, args.chunk)
    data = card_ranks(log_lines(pimc, args.pimc_deals), model)
    counts = card_counts(data)
    t, f, nll = fit_cards(counts, (BEFORE["temperature"], BEFORE["card_floor"]))
    boot = bootstrap_cards(data, args.bootstrap, args.seed, (t, f)) if args.bootstrap else np.zeros((0, 2))
    decisions = len(data)
    cards: dict[str, Any] = {
        "source": SOURCES["pimc"] + " at every seat", "deals": args.pimc_deals, "decisions": decisions,
        "temperature": t, "card_floor": f,
        "temperature_ci95": interval(boot[:, 0]) if len(boot) else None,
        "card_floor_ci95": interval(boot[:, 1]) if len(boot) else None,
        "nll_per_decision": nll / decisions,
        "nll_per_decision_before": card_nll(counts, BEFORE["temperature"], BEFORE["card_floor"]) / decisions,
        "nll_per_decision_uniform": card_nll(counts, 1.0, 1.0) / decisions,
        "heuristic_card_share": float((data[:, 1] == 0).mean()),
        "rank_share": {str(r): float((data[:, 1] == r).mean()) for r in range(int(data[:, 1].max()) + 1)},
        "by_n": by_n(data, t, f),
    }

    tuned = cached_logs("tuned", args.bid_deals, args.seed, args.logs, args.chunk)
    rows, probs = bid_probabilities(log_lines(tuned, args.bid_deals), rules)
    bf, bnll = fit_bids(probs)
    bboot = bootstrap_bids(rows[:, 0], probs, args.bootstrap, args.seed) if args.bootstrap else np.zeros(0)
    bids: dict[str, Any] = {
        "source": SOURCES["tuned"] + " at every seat", "model": model.strategy + " (at each deal's score)",
        "deals": args.bid_deals, "bids": len(probs), "eldest": int((rows[:, 1] == 0).sum()),
        "dealer": int((rows[:, 1] == 1).sum()), "bid_floor": bf,
        "bid_floor_ci95": interval(bboot) if len(bboot) else None,
        "nll_per_bid": bnll / len(probs), "nll_per_bid_before": bid_nll(probs, BEFORE["bid_floor"]) / len(probs),
        "nll_per_bid_uniform": bid_nll(probs, 1.0) / len(probs),
        "model_says_never": int((probs == 0).sum()), "model_mixed": int(((probs > 0) & (probs < 1)).sum()),
    }
    command = "python scripts/fit_inference.py " + " ".join(argv if argv is not None else sys.argv[1:])
    doc = {"command": command.strip(), "seed": args.seed, "bootstrap": args.bootstrap, "before": BEFORE,
           "rules": "trinidad, 4 players", "cards": cards, "bids": bids}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")

    def ci(v: list[float] | None, fmt: str) -> str:
        return "" if v is None else f"  (95% CI {v[0]:{fmt}} to {v[1]:{fmt}})"

    print(f"cards: {decisions:,} decisions with 2+ legal cards, {args.pimc_deals:,} deals of {SOURCES['pimc']}")
    print(f"  temperature {t:.3f}{ci(cards['temperature_ci95'], '.3f')}")
    print(f"  card_floor  {f:.4f}{ci(cards['card_floor_ci95'], '.4f')}")
    print(f"  nats a decision: fitted {cards['nll_per_decision']:.4f}, before the fit (T 0.7, floor 0.05) "
          f"{cards['nll_per_decision_before']:.4f}, every legal card alike {cards['nll_per_decision_uniform']:.4f}")
    print("  legal cards  decisions  heuristic's card: observed / model   its second: observed / model")
    for row in cards["by_n"]:
        print(f"  {row['n']:>11}  {row['decisions']:>9,}  {row['rank0_observed']:>24.3f} / {row['rank0_model']:.3f}"
              f"  {row['rank1_observed']:>19.3f} / {row['rank1_model']:.3f}")
    print(f"bids: {len(probs):,} bids, {args.bid_deals:,} deals of {SOURCES['tuned']}")
    print(f"  bid_floor   {bf:.4f}{ci(bids['bid_floor_ci95'], '.4f')}")
    print(f"  nats a bid: fitted {bids['nll_per_bid']:.4f}, before the fit (0.05) {bids['nll_per_bid_before']:.4f}, "
          f"either alike {bids['nll_per_bid_uniform']:.4f}")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
