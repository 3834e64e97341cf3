"""Card decisions of the search player, each with every legal card's value: the table rules of play are fitted to.

    .venv/bin/python scripts/play_positions.py [--rules trinidad] [--players 4] [--deals 300] [--worlds 20]
                                               [--seed 64000] [--out DIR] [--threads N]

Deals are simulated (``allfours simulate --log``'s lines) under two tables: ``pimc`` at every seat (``self``) and
``pimc`` against the ``heuristic`` (``heuristic``: pimc in seat 0 and, with four players, its partner). Every card
decision with at least two legal cards is valued as ``analyse`` values it: each legal card over ``--worlds`` deals
of the cards the seat has not seen, each solved with every hand open, the deals weighed by how likely the others'
bids and cards before it make them (``--inference full``, the hint's model). A row is one decision: who decided
(the player's spec), what that seat could see (``analyser.engine.playrules.FEATURES``, one column each, ``f_`` and
the name), the legal cards, their mean values and standard errors in net points (the deciding side's points minus
the others'), the card played, the best card, the heuristic's card and the card each action class of
``playrules.ACTIONS`` picks there (``a_`` and the name; -1 where it does not apply). Each deal is the first of its
own match (from 0:0).

The table is written in chunks of ``--chunk`` deals (``DIR/parts/``, one Parquet file each, written whole or not at
all), so an interrupted run computes only the missing chunks; ``DIR/positions.parquet`` joins them, and
``DIR/positions.json`` says how it was made. Each decision's worlds come from its own stream (the seed, the table,
the deal and the event), so a seed gives the same table on any number of threads or chunk size.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TABLES = {"self": ("pimc",), "heuristic": ("pimc", "heuristic")}  # the policies dealt around the table, in turn
TABLE_KEYS = {"self": 1, "heuristic": 2}  # each table's deals and worlds have streams of their own
DEFAULT_OUT = ROOT / "results" / "play-rules"


def seat_specs(table: str, players: int) -> list[str]:
    """The policy of each seat: the table's players in turn (pimc's partner is pimc with four players).

    >>> seat_specs("heuristic", 4), seat_specs("self", 2)
    (['pimc', 'heuristic', 'pimc', 'heuristic'], ['pimc', 'pimc'])
    """
    cycle = TABLES[table]
    return [cycle[s % len(cycle)] for s in range(players)]


def deal_lines(rules: Any, table: str, first: int, count: int, seed: int) -> list[dict[str, Any]]:
    """Deals first .. first + count - 1 of `table`: deal i is the first deal simulated from its own seed, so a
    chunk holds the same deals however the run is cut."""
    from analyser.players.policy import seat_policies
    from analyser.players.simulate import iter_log_lines

    kinds, params = seat_policies(seat_specs(table, rules.players), rules.players)
    lines = []
    for i in range(first, first + count):
        deal_seed = int(np.random.SeedSequence(seed, spawn_key=(TABLE_KEYS[table], i)).generate_state(1)[0])
        lines.append(next(iter(iter_log_lines(rules, 1, deal_seed, kinds, params))))
    return lines


def decision_rows(rules: Any, table: str, deal: int, line: dict[str, Any], worlds: int, seed: int,
                  buffers: Any) -> list[dict[str, Any]]:
    """One row per card decision of `line` with two or more legal cards."""
    from analyser.analysis.play.analyse import weigh
    from analyser.analysis.play.cardvalues import card_values
    from analyser.analysis.play.logcuts import line_decisions
    from analyser.engine.bits import rng_state
    from analyser.engine.layout import PS_TRICK_NO
    from analyser.engine.heuristic import heuristic_play
    from analyser.engine.layout import K_HEURISTIC
    from analyser.engine.playrules import ACTIONS, FEATURES, N_FEATURES, action_card, position_features
    from analyser.players.policy import default_row

    heuristic = default_row(K_HEURISTIC)
    facts = line_decisions(line)
    specs = seat_specs(table, rules.players)
    features = np.zeros(N_FEATURES, dtype=np.int64)
    rows = []
    for play in facts.plays:
        position = play.position
        cards = position.legal_cards()
        if len(cards) < 2:
            continue
        stream = np.random.SeedSequence(seed, spawn_key=(TABLE_KEYS[table], deal, play.event))
        values = card_values(position, worlds, rng_state(stream), None, buffers)
        values, _ = weigh(values, facts, play, "full")
        position_features(position.state, features)
        legal = np.uint64(sum(1 << c for c in cards))
        means = values.means()
        ses = [values.ev(j).se for j in range(len(cards))]
        assert play.chosen is not None
        rows.append({"table": table, "deal": deal, "event": play.event, "seat": play.seat,
                     "player": specs[play.seat], "trick": int(position.state[PS_TRICK_NO]) + 1,
                     **{f"f_{name}": int(features[k]) for k, name in enumerate(FEATURES)},
                     "legal": [int(c) for c in cards], "value": [float(v) for v in means],
                     "value_se": [float(s) for s in ses], "chosen": int(play.chosen), "best": int(values.best),
                     "heuristic": int(heuristic_play(heuristic, position.state, legal)),
                     **{f"a_{name}": int(action_card(position.state, legal, k)) for k, name in enumerate(ACTIONS)},
                     "ess": float(values.ess)})
    return rows


def chunk_rows(rules: Any, table: str, first: int, count: int, worlds: int, seed: int) -> pd.DataFrame:
    from analyser.analysis.play.cardvalues import Buffers

    buffers = Buffers()
    rows = []
    for k, line in enumerate(deal_lines(rules, table, first, count, seed)):
        rows.extend(decision_rows(rules, table, first + k, line, worlds, seed, buffers))
    return pd.DataFrame(rows)


def run(rules_name: str, players: int, deals: int, worlds: int, seed: int, out: Path, chunk: int, threads: int,
        quiet: bool = False) -> pd.DataFrame:
    """The table of `deals` deals at each table, built (or completed) under `out`."""
    from analyser.game.rules import make_rules

    rules = make_rules(rules_name, players=players)
    parts = out / "parts"
    parts.mkdir(parents=True, exist_ok=True)
    key = {"rules": rules_name, "players": players, "worlds": worlds, "seed": seed}
    stamp = parts / "key.json"
    if stamp.exists() and json.loads(stamp.read_text()) != key:
        raise SystemExit(f"error: {parts} holds chunks of another run ({stamp.read_text().strip()}); give another --out")
    stamp.write_text(json.dumps(key) + "\n")
    todo = []
    for table in TABLES:
        for first in range(0, deals, chunk):
            path = parts / f"{table}-{first:06d}-{min(chunk, deals - first)}.parquet"
            if not path.exists():
                todo.append((table, first, min(chunk, deals - first), path))
    started = time.time()

    def work(item: tuple[str, int, int, Path]) -> Path:
        table, first, count, path = item
        frame = chunk_rows(rules, table, first, count, worlds, seed)
        part = path.with_suffix(".part")
        frame.to_parquet(part, index=False)
        part.rename(path)
        return path

    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        for done, path in enumerate(pool.map(work, todo), 1):
            if not quiet:
                print(f"{done}/{len(todo)} chunks: {path.name} ({time.time() - started:.0f} s)", file=sys.stderr)
    frames = [pd.read_parquet(parts / f"{table}-{first:06d}-{min(chunk, deals - first)}.parquet")
              for table in TABLES for first in range(0, deals, chunk)]
    table = pd.concat(frames, ignore_index=True)
    table.to_parquet(out / "positions.parquet", index=False)
    command = (f"python scripts/play_positions.py --rules {rules_name} --players {players} --deals {deals} "
               f"--worlds {worlds} --seed {seed}")
    (out / "positions.json").write_text(json.dumps(
        {**key, "deals": deals, "tables": {t: seat_specs(t, players) for t in TABLES}, "decisions": len(table),
         "inference": "full", "command": command, "seconds_this_run": round(time.time() - started, 1)},
        indent=1) + "\n")
    return table


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", default="trinidad")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--deals", type=int, default=300, help="deals at each table")
    ap.add_argument("--worlds", type=int, default=20, help="deals of the unseen cards each decision is valued on")
    ap.add_argument("--seed", type=int, default=64000)
    ap.add_argument("--chunk", type=int, default=10, help="deals a kept chunk holds")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", type=Path, default=None, help="folder (default results/play-rules/RULES-Np)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.worlds < 2 or args.chunk < 1 or args.threads < 1:
        ap.error("--deals, --chunk and --threads must be at least 1, --worlds at least 2")
    out = args.out or DEFAULT_OUT / f"{args.rules}-{args.players}p"
    table = run(args.rules, args.players, args.deals, args.worlds, args.seed, out, args.chunk, args.threads)
    print(f"{len(table):,} card decisions in {out / 'positions.parquet'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
