"""How long `allfours hint` takes for a card, warm, on one core: at the first lead of a 6-card 4-player trinidad
deal and later in the deal (after 1, 2, 3 and 4 tricks), over several simulated deals.

    python scripts/hint_bench.py [--deals 10] [--worlds 300] [--seed 1] [--inference none,full]

Each position is a seat's view cut from a simulated log (heuristic play, no runs), answered with the hint's own
path (table.hint: decision_of, card_hint) without the match-win column (no equity table read). The first answer
compiles the kernels and is not timed. Prints the median and the slowest time per stage, and whether the answer
was exact (every consistent deal listed) or sampled, for each way of weighing the deals asked (`--inference`: the
hint's default full, and none, on the same positions in the same run).
"""

from __future__ import annotations

import argparse
import statistics
import time

from analyser.players.policy import seat_policies
from analyser.referee.views import view_of
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines
from analyser.table.hint import HINT_WORLDS, card_hint, decision_of


def cut(line: dict, plays: int) -> dict:
    at = [i for i, e in enumerate(line["events"]) if e["event"] == "play"][plays]
    return {**line, "events": line["events"][:at]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=10)
    ap.add_argument("--worlds", type=int, default=HINT_WORLDS)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--inference", default="none,full", help="comma-separated: none, bids, full")
    args = ap.parse_args()
    inferences = [x.strip() for x in args.inference.split(",") if x.strip()]
    rules = make_rules("trinidad", players=4)
    kinds, params = seat_policies(["heuristic"], 4)
    lines = [x for x in iter_log_lines(rules, args.deals * 3, args.seed, kinds, params)
             if not any(e["event"] == "more" for e in x["events"]) and sum(e["event"] == "play" for e in x["events"]) == 24]
    lines = lines[:args.deals]
    for inference in inferences:  # compile
        card_hint(decision_of(cut(lines[0], 4)), args.worlds, args.seed, inference=inference)
    print(f"hint for a card, trinidad 4 players, {len(lines)} deals, --worlds {args.worlds}, one thread, warm")
    print(f"{'position':<26}{'inference':>10}{'median s':>10}{'slowest s':>11}  answers")
    for tricks in range(5):
        for inference in inferences:
            times, exact = [], 0
            for line in lines:
                c = cut(line, 4 * tricks)
                seat = decision_of(c).seat
                start = time.perf_counter()
                hint = card_hint(decision_of(view_of(c, seat)), args.worlds, args.seed, inference=inference)
                times.append(time.perf_counter() - start)
                exact += hint.exact
            where = "first lead (6 cards each)" if tricks == 0 else f"lead after {tricks} trick{'s' * (tricks > 1)}"
            print(f"{where:<26}{inference:>10}{statistics.median(times):>10.3f}{max(times):>11.3f}  "
                  f"{exact} exact, {len(times) - exact} sampled")


if __name__ == "__main__":
    main()
