"""The C reference translated line by line into numba, timed against the C program itself.

    .venv/bin/python scripts/c_port_speed.py [--deals 2000000] [--rounds 5] [--seed 1] [--json]

What does the engine's generality cost? `allfours bench --against-c` compares the engine
(any player count and rule set, events, a play state that other players read) with
`scripts/c_reference/allfours_random.c`. This script times the same C program against a
numba translation of it (`analyser/engine/c_port.py`, `port_deals`: four players, trinidad, the eldest standing, no
events, the random stream seeded exactly as the C program seeds it; the few one-line helpers
the engine has too, draw, beats and kick_points, are the engine's), so the ratio says
how close numba itself comes to C on this work, on this machine; the gap between that
ratio and the engine's is the price of the engine's generality.

First it checks that the translation does the same work: its totals per category (and
the C program's checksum of them) over 200,000 deals equal the C program's exactly, the
same random stream giving the same deals. Then `--rounds` rounds of `--deals` deals each,
C and numba alternately (compilation excluded); the medians and their ratio.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analyser.work.bench_c import CReferenceUnavailable, _run_c, build_reference  # noqa: E402
from analyser.engine.c_port import Port, same_as_c  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2_000_000, help="deals per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    opts = parser.parse_args()
    try:
        binary, built = build_reference()
    except CReferenceUnavailable as err:
        print(f"c_port_speed: skipped: {err}")
        return

    check = 200_000
    c = _run_c(binary, "totals", str(check), str(opts.seed))
    if not same_as_c(c, check, opts.seed):
        sys.exit(f"the translation's totals differ from the C program's over {check} deals")

    port = Port(opts.seed)
    port.play(1000)  # compile (or load the cache) before the clock starts
    c_rates, port_rates = [], []
    for _ in range(opts.rounds):
        c_rates.append(float(_run_c(binary, "speed", str(opts.deals), str(opts.seed))["deals_per_second"]))
        begin = time.perf_counter()
        port.play(opts.deals)
        port_rates.append(opts.deals / (time.perf_counter() - begin))
    result = {"deals_per_round": opts.deals, "rounds": opts.rounds, "same_totals_over": check,
              "c_deals_per_second": statistics.median(c_rates),
              "numba_port_deals_per_second": statistics.median(port_rates),
              "ratio": statistics.median(port_rates) / statistics.median(c_rates),
              "c_build": built, "samples": {"c": c_rates, "numba_port": port_rates}}
    if opts.json:
        print(json.dumps(result, indent=1))
        return
    print(f"the numba translation of the C reference gives the C program's totals over {check:,} deals exactly")
    print(f"C reference        {result['c_deals_per_second']:>12,.0f} deals/s (median of {opts.rounds} rounds)")
    print(f"numba translation  {result['numba_port_deals_per_second']:>12,.0f} deals/s   x{result['ratio']:.2f} of C")


if __name__ == "__main__":
    main()
