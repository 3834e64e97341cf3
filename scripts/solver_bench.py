"""Benchmark of the open-hand solver: solve times of whole deals from the first lead, on one thread.

    .venv/bin/python scripts/solver_bench.py [--deals 1000] [--big 5] [--big-cards 12] [--seed 1]
                                             [--table-bits N] [--node-cap N] [--json] [--save FILE]
                                             [--compare FILE]

Positions are random deals (every hand dealt from a shuffled pack, a random trump suit,
seat 0 to lead) under trinidad rules (hang jack): `--deals` of 4 players with 6 cards
each and of 2 players with 6 cards, and `--big` of 4 players with `--big-cards` cards
each (12 is a deal after two runs with nobody discarding). Each is solved for its value
(``Solver.value``) with the table `allfours solve` sizes for it (``solve.table_bits``: 2**20
entries, 2**22 for 40 cards, 2**24 above; `--table-bits` sets one for all); compilation is excluded
(one solve first). Times are wall-clock on a machine that may be shared: the median and
99th percentile, the total, and the search's nodes (the median and all: a machine's noise does
not change them).
`--save FILE` writes every deal's value, nodes and seconds (JSON); `--compare FILE` reads such a file of
the same command at another commit (e.g. one made in a `git worktree` of the commit before) and checks
that every value is the same, then prints both commits' nodes and times per group and the ratios of
their totals and medians. The deals are the same for the same options (the seed draws them).
`--node-cap N` gives up on a deal after N nodes (the exact search itself, unchanged: ``SolverWork.node_cap``),
so that a set with very hard deals ends: such a deal counts as slower than every finished one (its time and
nodes are shown with ">"), and the median is still exact while fewer than half the deals are unfinished.
Targets: 6 cards, 4 players ≤ 1 ms median and ≤ 20 ms p99, 2 players ≤ 0.1 ms median;
4 players with 9 cards ≤ 20 ms median, with 12 cards ≤ 2 s median and none over 120 s.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from analyser.engine.solver import DEFAULT_TT_BITS
from analyser.game.rules import make_rules
from analyser.players.solve import Position, Solver, dealt_positions, table_bits

TARGETS = {"4 players, 6 cards": "median <= 1 ms, p99 <= 20 ms", "2 players, 6 cards": "median <= 0.1 ms",
           "4 players, 9 cards": "median <= 20 ms", "4 players, 12 cards": "median <= 2 s, max <= 120 s"}


def random_positions(players: int, cards: int, count: int, rng: np.random.Generator) -> list[Position]:
    return dealt_positions(make_rules("trinidad", players=players), cards, count, rng)


def measure(solver: Solver, positions: list[Position], verbose: bool = False,
            node_cap: int = 0) -> tuple[dict[str, float], dict]:
    """The group's figures, and each deal's value (None: given up at `node_cap` nodes), nodes and seconds."""
    seconds, nodes = [], []
    values: list[int | None] = []
    solver.work.node_cap = node_cap
    for pos in positions:
        solver.prepare(pos)  # the table's memory mapped before the clock: start-up, not search
        start = time.perf_counter()
        value = solver.value(pos)
        seconds.append(time.perf_counter() - start)
        nodes.append(solver.nodes)
        values.append(None if solver.work.aborted else value)
        if verbose:
            said = "unfinished (node cap)" if values[-1] is None else f"value {value:+d}"
            print(f"  deal {len(values) - 1}: {said}, {nodes[-1]:,} nodes, {seconds[-1]:.3f} s", flush=True)
    solver.work.node_cap = 0
    return summary(seconds, nodes, values), {"values": values, "nodes": nodes, "seconds": seconds}


def summary(seconds: list[float], nodes: list[int], values: list[int | None] | None = None) -> dict[str, float]:
    """Median, 99th percentile, slowest and totals; an unfinished deal (value None) counts as slower than
    every finished one (its figures are lower bounds, and so are the maximum and the totals)."""
    ms = np.array(seconds) * 1e3
    nd = np.array(nodes, dtype=float)
    unfinished = np.array([v is None for v in values]) if values is not None else np.zeros(len(ms), dtype=bool)
    ms_rank, nd_rank = np.where(unfinished, np.inf, ms), np.where(unfinished, np.inf, nd)

    def pct(x: np.ndarray, q: float) -> float:
        with np.errstate(invalid="ignore"):
            v = float(np.percentile(x, q))
        return np.inf if np.isnan(v) else v  # between two unfinished deals (inf - inf)

    return {"n": len(ms), "unfinished": int(unfinished.sum()), "median_ms": pct(ms_rank, 50),
            "p99_ms": pct(ms_rank, 99), "max_ms": float(ms.max()), "total_s": float(ms.sum() / 1e3),
            "median_nodes": pct(nd_rank, 50), "p99_nodes": pct(nd_rank, 99), "total_nodes": int(sum(nodes))}


def compare(results: dict, deals: dict, ref: dict) -> None:
    """Print the reference run's figures next to this one's; stop if any value differs."""
    for name, now in deals.items():
        if name not in ref:
            continue
        before = ref[name]
        if len(before["values"]) != len(now["values"]):
            raise SystemExit(f"{name}: {len(before['values'])} deals in the reference, {len(now['values'])} here")
        # A deal given up (None) in either run is not compared.
        pairs = list(zip(before["values"], now["values"]))
        bad = [i for i, (a, b) in enumerate(pairs) if None not in (a, b) and a != b]
        if bad:
            raise SystemExit(f"{name}: values differ from the reference on deals {bad}")
        old = summary(before["seconds"], before["nodes"], before["values"])
        new = results[name]
        both = sum(None not in (a, b) for a, b in pairs)
        print(f"{name}: same values on the {both} deals finished in both runs; nodes {old['total_nodes']:,} -> "
              f"{new['total_nodes']:,} "
              f"({new['total_nodes'] / max(1, old['total_nodes']):.3f}x, median {old['median_nodes']:,.0f} -> "
              f"{new['median_nodes']:,.0f}); time {old['total_s']:.2f} s -> {new['total_s']:.2f} s, median "
              f"{old['median_ms']:.3f} -> {new['median_ms']:.3f} ms, slowest {old['max_ms']:.1f} -> {new['max_ms']:.1f} ms")
        for i, (a, b, sa, sb) in enumerate(zip(before["nodes"], now["nodes"], before["seconds"], now["seconds"])):
            if len(now["values"]) <= 40:
                pa = ">" if before["values"][i] is None else ""
                pb = ">" if now["values"][i] is None else ""
                print(f"  deal {i}: {pa}{a:,} -> {pb}{b:,} nodes, {pa}{sa:.3f} -> {pb}{sb:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="positions of 6 cards per player count")
    parser.add_argument("--big", type=int, default=5, help="positions of 4 players with --big-cards cards")
    parser.add_argument("--big-cards", type=int, default=12, help="cards per hand of the big positions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--table-bits", type=int, help="table size (bits of index) for every group, instead of "
                        "the one `allfours solve` sizes for its positions")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--save", help="write each deal's value, nodes and seconds to this JSON file")
    parser.add_argument("--compare", help="a --save file of the same command at another commit: check the values "
                        "are the same and print both runs' nodes and times")
    parser.add_argument("--verbose", action="store_true", help="print each deal as it is solved")
    parser.add_argument("--node-cap", type=int, default=0, help="give up on a deal after this many nodes (the "
                        "search unchanged; the deal counts as slower than every finished one): 0, never")
    opts = parser.parse_args()
    rng = np.random.default_rng(opts.seed)
    solver = Solver()
    solver.value(random_positions(4, 2, 1, np.random.default_rng(0))[0])  # compile (or load the cache) first
    groups = [("4 players, 6 cards", 4, 6, opts.deals), ("2 players, 6 cards", 2, 6, opts.deals),
              (f"4 players, {opts.big_cards} cards", 4, opts.big_cards, opts.big)]
    results = {}
    deals = {}
    for name, players, cards, count in groups:
        if count > 0:
            # The table `allfours solve` sizes for such a position (solve.table_bits: bigger for the big ones).
            bits = opts.table_bits or table_bits(players * cards)
            sized = solver if bits == DEFAULT_TT_BITS else Solver(bits)
            figures, deals[name] = measure(sized, random_positions(players, cards, count, rng), opts.verbose,
                                           opts.node_cap)
            results[name] = figures | {"target": TARGETS.get(name, ""), "table_bits": bits}
    if opts.save:
        with open(opts.save, "w", encoding="utf-8") as f:
            json.dump(deals, f)
    if opts.compare:
        with open(opts.compare, encoding="utf-8") as f:
            compare(results, deals, json.load(f))
    if opts.json:
        # Strict JSON: a median or percentile among unfinished deals (inf) is null.
        print(json.dumps({name: {k: None if isinstance(v, float) and np.isinf(v) else v for k, v in r.items()}
                          for name, r in results.items()}, indent=1))
        return
    print("open-hand solver, one thread, trinidad rules, whole deals from the first lead (compilation excluded)")
    print(f"{'positions':<22} {'n':>5} {'median':>10} {'p99':>10} {'max':>10} {'total':>9} {'nodes (median)':>15} "
          f"{'nodes (all)':>14}  target")
    for name, r in results.items():
        print(f"{name:<22} {r['n']:>5} {r['median_ms']:>7.3f} ms {r['p99_ms']:>7.2f} ms {r['max_ms']:>7.1f} ms "
              f"{r['total_s']:>7.2f} s {r['median_nodes']:>15,.0f} {r['total_nodes']:>14,}  {r['target']}")
        if r["unfinished"]:
            print(f"{'':<22} {r['unfinished']} of {r['n']} unfinished at the node cap ({opts.node_cap:,} nodes): they "
                  "count as slower than every finished deal (inf), and the max and totals are lower bounds")


if __name__ == "__main__":
    main()
