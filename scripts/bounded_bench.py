"""Benchmarks of pimc's bounded search (engine/bounded.py): time per card and quality.

    .venv/bin/python scripts/bounded_bench.py speed [--cards 9] [--deals 10] [--policy pimc:model=heuristic] [--seed 1]
                                                    [--json]
    .venv/bin/python scripts/bounded_bench.py quality [--positions 200] [--worlds 20] [--policy pimc:model=heuristic]
                                                      [--seed 1] [--exact-cache F]
    .venv/bin/python scripts/bounded_bench.py analyse [--seed 1] [--log run-deals.jsonl]

Positions are dealt as the solver's benchmark and the bounded search's tests deal them
(``solve.dealt_play_buffer``: a shuffled pack, a random trump suit, no card turned up, the
last seat dealing; earlier versions of this script turned the next card up as trump, so
figures taken before differ by their deals, not by the search).

**speed**: 4-player trinidad deals of `--cards` cards each (9: one run, 12: two; the rest of
the pack unseen) played to the end by the heuristic; at every card
decision with more than one legal card the search player (`--policy`) is asked for its
card, and that call is timed: the thread's CPU time (what one core gives it, whatever else
runs on the machine) and the wall-clock time (compilation excluded: one decision first).
The order of play is recorded, so pimc infers from the others' cards as in a game. `--policy`
defaults to ``pimc:model=heuristic``, the pimc docs/search.md's figures were taken with (pimc's
default model then; ``--policy pimc`` is today's default, ``model=full``). Target: median at most
2 s, worst at most 10 s, default settings.

**quality**: random 4-player positions with 25 to 36 cards in the hands (9 cards dealt to
each seat, then a random number of plies, 0 to 11, played by the heuristic with its default
settings). In each, `--worlds`
worlds are drawn for the seat to move (uniformly, ``sample_world``: no inference), and
every legal card is valued in each world twice: exactly (the solver, no limit) and by
the method of `--policy` (its horizon and node budget: exact where the solver finishes
within it, bounded otherwise; pimc's model of the others does not enter). The method's card
is the best mean of its values (the heuristic's card winning ties, as ``search_card`` plays);
its **loss** is the exact mean of the best card minus the exact mean of that card, over the
same worlds; the heuristic's card's loss is taken the same way. Means over the positions with
95% CIs. Target (issue 31): the method's loss at most 0.05 net points.

**analyse**: the first two 9-card deals and the first 12-card deal of 40 trinidad deals
played by the heuristic (``iter_log_lines``, `--seed`; as `allfours simulate --policy
heuristic --deals 40 --seed 1 --log`), written to `--log` and analysed with analyse's
default settings except the match-win chance (no equity table); wall-clock time and the
process's CPU time. Target: at most 15 minutes on a 2-core machine, none "not
analysed".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np

from analyser.engine.heuristic import heuristic_card
from analyser.engine.layout import N_STATE, PS_TO_PLAY, X_HORIZON, X_NODES
from analyser.engine.policies import choose_card
from analyser.engine.search import (
    SB_EXACT, bounded_world_values, cards_in_hands, new_play_buffer, record_play, sample_world,
)
from analyser.engine.solver import DEFAULT_TT_BITS, NO_VALUE, SolverWork, solve_cards
from analyser.engine.state import apply, is_over, legal
from analyser.players.policy import parse_policy
from analyser.game.rules import make_rules
from analyser.players.simulate import chunk_rngs
from analyser.players.solve import dealt_play_buffer

SPEED_TARGET_MEDIAN_S = 2.0
SPEED_TARGET_MAX_S = 10.0
QUALITY_TARGET = 0.05
DEALS = "solve.dealt_play_buffer"  # how the positions are dealt, kept in an --exact-cache file
POLICY = "pimc:model=heuristic"  # the pimc docs/search.md's figures were measured with (pimc's default model then)


def speed(policy: str, cards: int, deals: int, seed: int) -> dict:
    table = make_rules("trinidad", players=4)
    rules = table.as_array()
    kind, params = parse_policy(policy)
    hkind, hparams = parse_policy("heuristic")
    rng = np.random.default_rng(seed)
    choice = chunk_rngs(seed, 0)[1]
    warm = dealt_play_buffer(table, cards, np.random.default_rng(0))
    choose_card(kind, params, warm, legal(warm), rules, choice)  # compile or load the cache first
    seconds, cpu_seconds, exact = [], [], []
    for _ in range(deals):
        state = dealt_play_buffer(table, cards, rng)
        while not is_over(state):
            mask = legal(state)
            if int(mask) & (int(mask) - 1):
                start, cpu = time.perf_counter(), time.thread_time()
                card = choose_card(kind, params, state, mask, rules, choice)
                seconds.append(time.perf_counter() - start)
                cpu_seconds.append(time.thread_time() - cpu)
                assert int(mask) >> int(card) & 1, "an illegal card"
                exact.append(int(state[SB_EXACT]))
            card = choose_card(hkind, hparams, state, mask, rules, choice)
            record_play(state, card)
            apply(state, card)
    s, c = np.array(seconds), np.array(cpu_seconds)
    return {"bench": "speed", "policy": policy, "cards": cards, "deals": deals, "seed": seed, "decisions": len(s),
            "median_s": float(np.median(s)), "p90_s": float(np.percentile(s, 90)), "max_s": float(s.max()),
            "cpu_median_s": float(np.median(c)), "cpu_p90_s": float(np.percentile(c, 90)), "cpu_max_s": float(c.max()),
            "worlds_exact": float(np.mean(exact)), "targets": {"median_s": SPEED_TARGET_MEDIAN_S, "max_s": SPEED_TARGET_MAX_S}}


def _mean_ci(x: np.ndarray) -> dict:
    se = float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else 0.0
    m = float(x.mean())
    return {"mean": m, "se": se, "ci95": [m - 1.96 * se, m + 1.96 * se]}


def _text(x: np.ndarray) -> str:
    e = _mean_ci(x)
    return f"{e['mean']:.4f} ({e['ci95'][0]:.4f} to {e['ci95'][1]:.4f})"


def _load_exact(path: str | None, seed: int, worlds: int) -> list[list[list[int]]]:
    """The exact values kept by an earlier run with the same seed and worlds (its positions come first)."""
    if not path or not os.path.isfile(path):
        return []
    doc = json.loads(open(path, encoding="utf-8").read())
    if doc.get("seed") != seed or doc.get("worlds") != worlds:
        raise SystemExit(f"{path} holds exact values for seed {doc.get('seed')} and {doc.get('worlds')} worlds, "
                         f"not seed {seed} and {worlds}: give another --exact-cache")
    if doc.get("deals") != DEALS:
        raise SystemExit(f"{path} holds exact values of positions dealt otherwise (before the positions were "
                         f"dealt by {DEALS}): give another --exact-cache")
    return doc["exact"]


def _save_exact(path: str, seed: int, worlds: int, kept: list[list[list[int]]]) -> None:
    temp = path + ".tmp"
    with open(temp, "w", encoding="utf-8") as stream:
        json.dump({"bench": "quality exact values", "seed": seed, "worlds": worlds, "deals": DEALS, "exact": kept},
                  stream)
    os.replace(temp, path)


def quality(policies: list[str], positions: int, worlds: int, seed: int, progress: bool,
            exact_cache: str | None = None) -> dict:
    """Every policy's loss on the same positions and worlds (the exact solves, the costly part, done once).
    `exact_cache`: a file keeping the exact values of the positions solved so far (the positions and worlds
    are drawn from the seed alone, the methods draw nothing), so that other methods are compared on them
    later without solving again."""
    kept = _load_exact(exact_cache, seed, worlds)
    table = make_rules("trinidad", players=4)
    rules = table.as_array()
    heuristic = parse_policy("heuristic")[1]
    rows = [parse_policy(p)[1] for p in policies]
    params = rows[0]
    rng = np.random.default_rng(seed)
    stream = chunk_rngs(seed, 0)[1]
    buf = new_play_buffer(True)
    work = SolverWork(DEFAULT_TT_BITS)  # the exact solves: the solver's own, bigger table (2**20 entries)
    method_row = np.zeros((1, 52), dtype=np.int64)
    losses: list[list[float]] = [[] for _ in policies]
    heuristic_loss: list[float] = []
    lefts: list[int] = []
    exact_worlds = [0] * len(policies)
    method_s = [0.0] * len(policies)
    start = time.perf_counter()
    solve_s = 0.0
    while len(heuristic_loss) < positions:
        state = dealt_play_buffer(table, 9, rng, plies=int(rng.integers(0, 12)), heuristic=heuristic)
        mask = int(legal(state))
        if mask & (mask - 1) == 0:
            continue  # one legal card: nothing to choose
        cards = [c for c in range(52) if mask >> c & 1]
        index = len(heuristic_loss)
        exact = np.array(kept[index], dtype=float) if index < len(kept) else np.zeros((worlds, len(cards)))
        method = np.zeros((len(policies), worlds, len(cards)))
        budgets = [np.int64(row[X_NODES]) for row in rows]
        for w in range(worlds):
            sample_world(state, int(state[PS_TO_PLAY]), stream, buf)
            if index >= len(kept):
                t0 = time.perf_counter()
                world = buf[:N_STATE].copy()
                solve_cards(world, rules, work.states, work.moves, work.frames, work.tt, work.ctx, work.values)
                solve_s += time.perf_counter() - t0
                for j, c in enumerate(cards):
                    exact[w, j] = work.values[c]
            for i, row in enumerate(rows):
                horizon = np.int64(row[X_HORIZON])
                t1 = time.perf_counter()
                got = bounded_world_values(buf, rules, 0, stream, method_row, row, horizon, budgets[i])
                method_s[i] += time.perf_counter() - t1
                exact_worlds[i] += got
                if not got and budgets[i] > 0 and cards_in_hands(buf) > horizon:
                    budgets[i] = np.int64(0)  # as solve_worlds: no more exact tries once one failed
                for j, c in enumerate(cards):
                    assert exact[w, j] != NO_VALUE and method_row[0, c] != NO_VALUE
                    method[i, w, j] = method_row[0, c]
        if index >= len(kept) and exact_cache:
            kept.append(exact.astype(int).tolist())
            _save_exact(exact_cache, seed, worlds, kept)
        h = cards.index(int(heuristic_card(params, state, np.uint64(mask), rules, stream)))
        truth = exact.mean(axis=0)
        for i in range(len(policies)):
            means = method[i].mean(axis=0)
            pick = h
            for j in range(len(cards)):
                if means[j] > means[pick]:
                    pick = j
            losses[i].append(truth.max() - truth[pick])
        heuristic_loss.append(truth.max() - truth[h])
        lefts.append(int(cards_in_hands(state)))
        if progress and len(heuristic_loss) % 10 == 0:
            print(f"{len(heuristic_loss)} positions, {time.perf_counter() - start:.0f} s: losses (95% CI) "
                  + ", ".join(f"{p} {_text(np.array(x))}" for p, x in zip(policies, losses))
                  + f", heuristic {_text(np.array(heuristic_loss))}", file=sys.stderr, flush=True)
    hl = np.array(heuristic_loss)
    methods = [{"policy": p, "loss": _mean_ci(np.array(x)), "loss_minus_heuristic": _mean_ci(np.array(x) - hl),
                "worse_than_best": float((np.array(x) > 1e-9).mean()),
                "worlds_exact_by_budget": exact_worlds[i] / (positions * worlds), "seconds": method_s[i]}
               for i, (p, x) in enumerate(zip(policies, losses))]
    return {"bench": "quality", "positions": positions, "worlds": worlds, "seed": seed,
            "cards_left": [min(lefts), max(lefts)], "methods": methods, "heuristic_loss": _mean_ci(hl),
            "heuristic_worse_than_best": float((hl > 1e-9).mean()), "exact_solve_s": solve_s,
            "seconds": time.perf_counter() - start, "target": QUALITY_TARGET}


def analyse_bench(seed: int, log: str) -> dict:
    from pathlib import Path

    from analyser.analysis.play.analyse import Settings, analyse, read_log
    from analyser.record.gamelog import dumps, read_lines
    from analyser.players.policy import seat_policies
    from analyser.players.simulate import iter_log_lines

    rules = make_rules("trinidad")
    kinds, params = seat_policies(["heuristic"], 4)
    nine: list[str] = []
    twelve: list[str] = []
    for line in iter_log_lines(rules, 40, seed, kinds, params):
        plays = dumps(line).count('"play"')
        (nine if plays == 36 else twelve if plays == 48 else []).append(dumps(line))
    chosen = nine[:2] + twelve[:1]
    Path(log).write_text("".join(x + "\n" for x in chosen), encoding="utf-8")
    wall, cpu = time.perf_counter(), time.process_time()
    report = analyse(read_log(read_lines(log)), Settings(), log)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    decisions = report.decisions
    return {"bench": "analyse", "seed": seed, "log": log, "deals": len(chosen), "wall_s": wall, "cpu_s": cpu,
            "card_decisions": sum(d.kind == "card" for d in decisions),
            "bounded": sum(d.method == "bounded" for d in decisions),
            "not_analysed": sum(not d.analysed for d in decisions),
            "luck": [(line.luck_trick, line.luck_method) for line in report.lines], "target_s": 900}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", choices=("speed", "quality", "analyse"))
    parser.add_argument("--log", default="run-deals.jsonl", help="analyse: where the three deals are written")
    parser.add_argument("--cards", type=int, default=9, help="speed: cards dealt to each seat (9 or 12)")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=20, help="quality: worlds per position")
    parser.add_argument("--policy", action="append", help=f"a pimc spec (default {POLICY}); quality: repeat to compare")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--exact-cache", help="quality: a JSON file keeping the exact values (read, then extended)")
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    if opts.bench == "speed":
        out = speed((opts.policy or [POLICY])[0], opts.cards, opts.deals, opts.seed)
        text = (f"{out['policy']}, {opts.cards} cards each, {out['decisions']} decisions: CPU time (one thread) median "
                f"{out['cpu_median_s']:.3f} s, 90th percentile {out['cpu_p90_s']:.3f} s, worst {out['cpu_max_s']:.3f} s "
                f"(targets <= 2 s, <= 10 s); wall-clock median {out['median_s']:.3f} s, worst {out['max_s']:.3f} s")
    elif opts.bench == "analyse":
        out = analyse_bench(opts.seed, opts.log)
        text = (f"{out['deals']} run deals, {out['card_decisions']} card decisions ({out['bounded']} by the bounded "
                f"search, {out['not_analysed']} not analysed): {out['wall_s']:.0f} s wall, {out['cpu_s']:.0f} s CPU "
                f"(target <= 900 s); luck (trick, method): {out['luck']}")
    else:
        out = quality(opts.policy or [POLICY], opts.positions, opts.worlds, opts.seed, True, opts.exact_cache)
        hl = out["heuristic_loss"]
        lines = [f"{out['positions']} positions ({out['cards_left'][0]}-{out['cards_left'][1]} cards in the hands), "
                 f"{out['worlds']} worlds each; loss against the best card in net points (95% CI):"]
        for m in out["methods"]:
            ml = m["loss"]
            lines.append(f"  {m['policy']}: {ml['mean']:.4f} ({ml['ci95'][0]:.4f} to {ml['ci95'][1]:.4f}), "
                         f"{m['worlds_exact_by_budget']:.0%} of worlds exact within the budget, {m['seconds']:.0f} s")
        lines.append(f"  heuristic: {hl['mean']:.4f} ({hl['ci95'][0]:.4f} to {hl['ci95'][1]:.4f}); "
                     f"{out['seconds']:.0f} s in all")
        text = "\n".join(lines)
    print(json.dumps(out, indent=2) if opts.json else text)


if __name__ == "__main__":
    main()
