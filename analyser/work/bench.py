"""How many whole deals per second the kernel plays (shuffle, deal, decisions, play, scoring).

Each thread plays its own chunk stream in a loop of kernel calls until the time is up;
the figure is all threads' deals over the wall time. Compilation is excluded: the
kernel is called once before the clock starts. This measures speed; tests never do.
"""

from __future__ import annotations

import resource
import sys
import threading
import time
from typing import Any

import numpy as np

from ..engine.bits import nth_card_choice, private_zeros
from ..engine.deal import N_STATS, new_match_state, simulate_lines
from ..players.policy import PolicyError, parse_policy, seat_policies
from ..game.rules import RuleSet, make_rules
from ..players.simulate import NO_EVENTS, NO_META, chunk_rngs

BENCH_RULES = "trinidad"
BENCH_POLICIES = {"random": "random:beg=0", "heuristic": "heuristic"}  # random: the eldest always stands
CALL_LINES = 2000  # lines per kernel call: a few milliseconds, so the deadline is overshot by little


def deals_per_second(policy: str, threads: int, seconds: float, seed: int = 0, rules: RuleSet | None = None) -> float:
    """Whole deals per second on `threads` threads, each looping over its own chunk stream."""
    rules = rules or make_rules(BENCH_RULES)
    rules_array = rules.as_array()
    kinds, params = seat_policies([policy], rules.players)
    stats = np.zeros(N_STATS, dtype=np.int64)
    simulate_lines(rules_array, 10, new_match_state(rules.players), kinds, params, *chunk_rngs(seed, 0),
                   NO_EVENTS, NO_META, stats)  # compile (or load the cache) before the clock starts
    start: list[float] = []
    played = [0] * threads
    barrier = threading.Barrier(threads, action=lambda: start.append(time.perf_counter()))

    def loop(index: int) -> None:
        deck_rng, rng = chunk_rngs(seed, index)
        mstate = new_match_state(rules.players)
        own = private_zeros(N_STATS, np.int64)
        barrier.wait()
        deadline = start[0] + seconds
        while time.perf_counter() < deadline:
            played[index] += simulate_lines(rules_array, CALL_LINES, mstate, kinds, params, deck_rng, rng,
                                            NO_EVENTS, NO_META, own)

    workers = [threading.Thread(target=loop, args=(k,), name=f"allfours-bench-{k}") for k in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(played) / (time.perf_counter() - start[0])


def peak_rss_mib() -> float:
    """Peak resident memory of this process so far, in MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes on macOS, KiB on Linux


def bench_policy(spec: str, threads: int, seconds: float, rules: RuleSet | None = None) -> dict[str, Any]:
    """One policy's figures: `threads` threads, and 1 thread too when `threads` > 1."""
    try:
        parse_policy(spec)
    except PolicyError as err:
        return {"available": False, "reason": str(err)}
    result: dict[str, Any] = {"available": True, "policy": spec}
    if threads > 1:
        one = deals_per_second(spec, 1, seconds, rules=rules)
        result["one_thread_deals_per_second"] = one
    result["threads"] = threads
    result["deals_per_second"] = deals_per_second(spec, threads, seconds, rules=rules)
    if threads > 1:
        result["speedup"] = result["deals_per_second"] / one
    return result


def run_bench(threads: int, seconds: float, rules: RuleSet | None = None) -> dict[str, Any]:
    """``{"random": {...}, "heuristic": {...}, "peak_rss_mib": ...}`` (trinidad unless `rules` say otherwise)."""
    rules = rules or make_rules(BENCH_RULES)
    out: dict[str, Any] = {name: bench_policy(spec, threads, seconds, rules) for name, spec in BENCH_POLICIES.items()}
    out["rules"] = rules.preset if rules.players == 4 else f"{rules.preset}, {rules.players} players"
    out["seconds"] = seconds
    out["peak_rss_mib"] = peak_rss_mib()
    out["nth_card"] = nth_card_choice()
    return out


def bench_table(result: dict[str, Any]) -> str:
    lines = [f"whole deals per second, {result['rules']} (compilation excluded, {result['seconds']:g} s per figure)"]
    for name in BENCH_POLICIES:
        item = result[name]
        if not item["available"]:
            lines.append(f"{name:<10} unavailable: {item['reason']}")
            continue
        plural = "s" if item["threads"] > 1 else ""
        text = f"{name:<10} {item['threads']} thread{plural}: {item['deals_per_second']:>12,.0f}"
        if "one_thread_deals_per_second" in item:
            text += f"   1 thread: {item['one_thread_deals_per_second']:>12,.0f}   speed-up x{item['speedup']:.2f}"
        lines.append(text)
    if "nth_card" in result:
        lines.append(f"n-th card: {result['nth_card']['kernel']} ({result['nth_card']['why']})")
    lines.append(f"peak memory: {result['peak_rss_mib']:.0f} MiB")
    return "\n".join(lines)
