"""How long the computer takes for a card in `allfours play`, with its default settings, on one core.

    NUMBA_NUM_THREADS=1 taskset -c 0 .venv/bin/python scripts/play_bench.py [--matches 3] [--rules trinidad]
        [--players 4] [--opponent pimc] [--seed 1]

Whole matches are played through the game itself (analyser.table.play, every seat the computer's:
table.autoplay.Autoplay, no coach), and every card decision of a computer seat is timed
(Computer.card), forced cards (one legal card) apart. The first decision loads or compiles the kernels
and is not timed. Target: a median of at most 1 s per card decision.

With --coach, also the coach's judgement of seat 0's bids and cards (analyse's, table.coach.Coach.judge),
each timed: what the player waits for after a decision with --coach mistakes or all.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from analyser.engine.state import legal
from analyser.game.rules import make_rules
from analyser.table.autoplay import Autoplay
from analyser.table.computer import Computer
from analyser.table.play import Options
from analyser.table.record import TableIO

TARGET_S = 1.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--matches", type=int, default=3)
    ap.add_argument("--rules", default="trinidad")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="pimc")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--coach", action="store_true", help="also time the coach's judgement of seat 0's decisions")
    args = ap.parse_args()
    rules = make_rules(args.rules, players=args.players)
    timed: list[float] = []
    forced = 0
    first = True
    card = Computer.card

    def timed_card(self: Computer, seat: int) -> int:
        nonlocal forced, first
        mask = int(legal(self.state))
        start = time.perf_counter()
        chosen = card(self, seat)
        took = time.perf_counter() - start
        if first:
            first = False
        elif mask & (mask - 1):
            timed.append(took)
        else:
            forced += 1
        return chosen

    Computer.card = timed_card  # type: ignore[method-assign]
    judged: dict[str, list[float]] = {"bid": [], "card": []}

    class Coached(Autoplay):
        def my_card(self, built, entry):  # type: ignore[no-untyped-def]
            card = super().my_card(built, entry)
            self.judge(built, card, "card")
            return card

        def my_bid(self, built, entry, role):  # type: ignore[no-untyped-def]
            bid = super().my_bid(built, entry, role)
            self.judge(built, bid, "bid")
            return bid

        def judge(self, built, chosen, kind):  # type: ignore[no-untyped-def]
            start = time.perf_counter()
            decision = self.coach.judge(built.line, self.line_number, chosen)
            if decision is not None and decision.analysed:
                judged[kind].append(time.perf_counter() - start)

    deals = 0
    with tempfile.TemporaryDirectory() as folder:
        for k in range(args.matches):
            game = (Coached if args.coach else Autoplay)(TableIO(lambda prompt: "", lambda text: None, False),
                            Options(rules, Path(folder) / "bench.jsonl", seat=0, opponent=args.opponent,
                                    seed=args.seed + k, coach="off"))
            game.run()
            deals += len(game.saved)
    timed.sort()
    p90 = timed[int(0.9 * (len(timed) - 1))]
    median = statistics.median(timed)
    print(f"allfours play, {args.rules} {args.players} players, opponent {args.opponent} (default settings), one "
          f"thread: {args.matches} matches, {deals} deals")
    print(f"{len(timed)} computer card decisions (forced cards apart: {forced}): median {median:.3f} s, "
          f"90th percentile {p90:.3f} s, slowest {timed[-1]:.3f} s (target: median <= {TARGET_S:g} s) "
          + ("ok" if median <= TARGET_S else "TOO SLOW"))
    for kind, seconds in judged.items():
        if seconds:
            print(f"the coach's judgement of seat 0's {kind}s: {len(seconds)} judged, median "
                  f"{statistics.median(seconds):.3f} s, slowest {max(seconds):.3f} s")


if __name__ == "__main__":
    main()
