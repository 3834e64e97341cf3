"""Sensitivity of the strategy tables to the card player: heuristic play against pimc play, same deals.

    .venv/bin/python scripts/sensitivity.py [--rules trinidad] [--players 4] [--deals 1500] [--worlds 10]
                                             [--model heuristic|full] [--doubt D] [--seed 1] [--chunk-deals 500]
                                             [--threads N]
                                             [--out results/sensitivity]

Every conclusion of the analyser assumes its card player. This recomputes the eldest's
and the dealer's strategy tables (two best-response rounds of ``allfours strategy``:
eldest, then dealer) twice on the same sampled deals (same seed, same card streams):
once with the heuristic playing the cards, once with ``pimc:worlds=W,model=heuristic`` (the bidding
rules are the heuristic's in both, the tables replace them as the rounds go). pimc reads the others by
the heuristic's model, its doubt 0.1 or ``--doubt D`` (pimc's default when results/sensitivity was
made, so that folder's command gives its table), or with ``--model full`` by the shared model of the
other players (pimc's default now). For every hand class it prints both recommendations with
their 95% CIs and a verdict:

* ``holds``: pimc's recommendation is the heuristic's, and pimc's CI excludes zero;
* ``moves``: pimc recommends the other option, and its CI excludes zero;
* ``unsettled``: pimc's CI includes zero (or there is none: a class dealt once): this
  subsample cannot say.

Writes ``sensitivity.json``, ``sensitivity.csv`` and ``README.md`` (the table, the command,
the sizes and the time taken) to ``--out``; ``allfours report --sensitivity DIR`` puts the
table in a report.

The deals are played in chunks of ``--chunk-deals`` (the chunks run on the threads side by
side; the chunk size is part of what the seed means). Each finished chunk is kept in
``.<out>-chunks/`` beside ``--out`` until the table is written, so the same command after an
interruption plays only the chunks it had not finished.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path

import pandas as pd

from analyser.analysis.bidding.strategy import run_strategy
from analyser.work.executor import KeptExecutor, LocalExecutor
from analyser.game.rules import make_rules

COLUMNS = ["role", "class_key", "n", "heuristic_recommend", "heuristic_diff", "heuristic_ci_lo", "heuristic_ci_hi",
           "pimc_recommend", "pimc_diff", "pimc_ci_lo", "pimc_ci_hi", "verdict"]


def verdict(row: pd.Series) -> str:
    lo, hi = row["pimc_ci_lo"], row["pimc_ci_hi"]
    if pd.isna(lo) or pd.isna(hi) or lo <= 0 <= hi:  # no CI (a class dealt once) settles nothing
        return "unsettled"
    return "holds" if row["pimc_recommend"] == row["heuristic_recommend"] else "moves"


def compare(heuristic, pimc) -> pd.DataFrame:
    frames = []
    for role in ("eldest", "dealer"):
        h = heuristic.final(role).set_index("class_key")
        p = pimc.final(role).set_index("class_key")
        both = h.index.intersection(p.index)
        frame = pd.DataFrame({
            "role": role, "class_key": both, "n": p.loc[both, "n"].to_numpy(),
            "heuristic_recommend": h.loc[both, "recommend"].to_numpy(),
            "heuristic_diff": h.loc[both, "diff_mean"].to_numpy().round(3),
            "heuristic_ci_lo": h.loc[both, "diff_ci_lo"].to_numpy().round(3),
            "heuristic_ci_hi": h.loc[both, "diff_ci_hi"].to_numpy().round(3),
            "pimc_recommend": p.loc[both, "recommend"].to_numpy(),
            "pimc_diff": p.loc[both, "diff_mean"].to_numpy().round(3),
            "pimc_ci_lo": p.loc[both, "diff_ci_lo"].to_numpy().round(3),
            "pimc_ci_hi": p.loc[both, "diff_ci_hi"].to_numpy().round(3)})
        frame["verdict"] = frame.apply(verdict, axis=1)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)[COLUMNS]


def markdown(table: pd.DataFrame, meta: dict) -> str:
    counts = table["verdict"].value_counts().to_dict()
    lines = [f"# Sensitivity of the strategy tables to the card player ({meta['rules']}, {meta['players']} players)", "",
             f"Command: `{meta['command']}`", "",
             f"{meta['deals']:,} paired decision deals per round, two rounds (eldest, then dealer), seed "
             f"{meta['seed']}; the same deals played by the heuristic and by `{meta['pimc']}`. "
             f"Time: {meta['seconds'] / 60:.1f} minutes on {meta['threads']} thread(s) of a {meta['cpus']}-core "
             "machine (any number of threads gives the same table)"
             + (f"; {meta['resumed_chunks']} of its chunks had been played before an interruption and are not "
                "in that time" if meta.get("resumed_chunks") else "") + "."
             + (f" {meta['note'][0].upper()}{meta['note'][1:]}." if meta.get("note") else ""), "",
             "The difference is beg - stand for the eldest and give - run for the dealer (the strategy tables' "
             "`diff`), in net points per deal, with its 95% CI. Verdicts: holds "
             f"{counts.get('holds', 0)}, moves {counts.get('moves', 0)}, unsettled {counts.get('unsettled', 0)}.", "",
             "| role | class | deals | heuristic | diff [95% CI] | pimc | diff [95% CI] | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for _, r in table.iterrows():
        lines.append(f"| {r['role']} | {r['class_key']} | {r['n']} | {r['heuristic_recommend']} | "
                     f"{r['heuristic_diff']:+.3f} [{r['heuristic_ci_lo']:+.3f}, {r['heuristic_ci_hi']:+.3f}] | "
                     f"{r['pimc_recommend']} | {r['pimc_diff']:+.3f} [{r['pimc_ci_lo']:+.3f}, {r['pimc_ci_hi']:+.3f}] "
                     f"| {r['verdict']} |")
    return "\n".join(lines) + "\n"


def pimc_spec(worlds: int, model: str = "heuristic", doubt: float | None = None) -> str:
    """The pimc that plays the cards: `worlds` worlds, reading the others by `model`; a `doubt` is the heuristic
    model's (any doubt picks that model).

    >>> pimc_spec(10), pimc_spec(10, doubt=1), pimc_spec(10, "full")
    ('pimc:worlds=10,model=heuristic', 'pimc:worlds=10,doubt=1', 'pimc:worlds=10,model=full')
    """
    if doubt is not None:
        if model != "heuristic":
            raise ValueError("--doubt is the heuristic model's: it cannot go with --model full")
        return f"pimc:worlds={worlds},doubt={doubt:g}"
    return f"pimc:worlds={worlds},model={model}"


def without_note(argv: list[str]) -> list[str]:
    """The command's arguments without --note and its text (the note is printed on its own)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--note":
            skip = True
        elif not arg.startswith("--note="):
            kept.append(arg)
    return kept


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="trinidad")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--deals", type=int, default=1500, help="paired decision deals per round")
    parser.add_argument("--worlds", type=int, default=10, help="pimc's worlds per card decision")
    parser.add_argument("--model", choices=("heuristic", "full"), default="heuristic",
                        help="pimc's model of the others (default heuristic, as results/sensitivity was made)")
    parser.add_argument("--doubt", type=float, default=None,
                        help="the heuristic model's doubt (default 0.1; 1 infers nothing from the others' choices)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--chunk-deals", type=int, default=500, help="deals per chunk (part of what the seed means)")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--out", type=Path, default=Path("results/sensitivity"))
    parser.add_argument("--note", default=None, help="a remark stored with the run and printed after its time")
    opts = parser.parse_args()
    rules = make_rules(opts.rules, players=opts.players)
    try:
        pimc = pimc_spec(opts.worlds, opts.model, opts.doubt)
    except ValueError as e:
        parser.error(str(e))
    kept_folder = opts.out.parent / f".{opts.out.name}-chunks"
    executor = KeptExecutor(LocalExecutor(opts.threads), kept_folder, key=f"{opts.rules}:{opts.players}:{opts.seed}")
    start = time.perf_counter()
    heuristic = run_strategy(rules, "heuristic", deals=opts.deals, seed=opts.seed, rounds=2, executor=executor,
                             chunk_deals=opts.chunk_deals)
    searched = run_strategy(rules, pimc, deals=opts.deals, seed=opts.seed, rounds=2, executor=executor,
                            chunk_deals=opts.chunk_deals)
    seconds = time.perf_counter() - start
    if executor.found:
        print(f"{executor.found} chunks came from {kept_folder} (finished before an interruption); the time "
              "counts only this run's", file=sys.stderr)
    table = compare(heuristic, searched)
    meta = {"rules": opts.rules, "players": opts.players, "deals": opts.deals, "seed": opts.seed, "pimc": pimc,
            "seconds": round(seconds, 1), "cpus": os.cpu_count(), "threads": opts.threads or os.cpu_count(),
            "chunk_deals": opts.chunk_deals, "resumed_chunks": executor.found,
            "command": "python scripts/sensitivity.py " + " ".join(without_note(sys.argv[1:]))}
    if opts.note:
        meta["note"] = opts.note
    opts.out.mkdir(parents=True, exist_ok=True)
    table.to_csv(opts.out / "sensitivity.csv", index=False)
    (opts.out / "sensitivity.json").write_text(json.dumps({**meta, "rows": json.loads(table.to_json(orient="records"))},
                                                          indent=1) + "\n")
    (opts.out / "README.md").write_text(markdown(table, meta))
    shutil.rmtree(kept_folder, ignore_errors=True)
    print(markdown(table, meta))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
