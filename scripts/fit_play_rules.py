"""Rules of play fitted to the search player's values: a decision list of at most 8 rules, the heuristic after.

    .venv/bin/python scripts/fit_play_rules.py [--positions results/play-rules/trinidad-4p] [--rules 8]
                                               [--support 30] [--out DIR]

Reads the table ``scripts/play_positions.py`` writes (every card decision of pimc's deals with each legal card's
value). A rule is a condition on what the seat can see (one or two tests of ``playrules.FEATURES``: equal to a
value, at least or at most a value) and an action class (``playrules.ACTIONS``); the list is read top down and the
first rule whose condition holds and whose action applies picks the card, else the heuristic plays its own. Rules
are added greedily: each step adds, at the bottom, the rule that most lowers the points lost against the best card
(the best legal card's value minus the value of the card played, summed over the decisions), among rules that
change at least ``--support`` decisions. Not agreement with pimc: a rule is worth what it saves in points.

The deals are split in two by their number (even: fitting; odd: checking), so each rule's worth is also measured
on deals it was not fitted to. Written: ``DIR/rules.json`` (the list, each rule's words, its tests and action, and
points a deal it saves on both halves; ``carry``, the fewest top rules within 0.01 points a deal of the most any
length saves on the checking half), ``DIR/carried.json`` (those top ``carry`` rules alone: the list a player would
carry, played by ``rules:DIR/carried.json``, and for a shipped folder ``results/play-rules/NAME`` by ``rules:NAME``)
and ``DIR/steps.csv``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def shown(path: Path) -> str:
    """`path` as a command in the docs writes it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)

OPS = ("==", ">=", "<=")
CARRIED_FILE = "carried.json"
CARRY_WITHIN = 0.01  # the list a player carries: the shortest within this many points a deal of the best (checked)


def decision_arrays(table: pd.DataFrame, actions: tuple[str, ...]) -> dict[str, np.ndarray]:
    """Per decision: the best value, the heuristic card's value and each action's card's value (NaN where it does
    not apply)."""
    n = len(table)
    best = np.empty(n)
    heur = np.empty(n)
    act = np.full((n, len(actions)), np.nan)
    for i, (legal, value) in enumerate(zip(table["legal"], table["value"])):
        by_card = dict(zip((int(c) for c in legal), (float(v) for v in value)))
        best[i] = max(by_card.values())
        heur[i] = by_card[int(table["heuristic"].iat[i])]
        for k, name in enumerate(actions):
            card = int(table[f"a_{name}"].iat[i])
            if card >= 0:
                act[i, k] = by_card[card]
    return {"best": best, "heuristic": heur, "action": act}


def candidate_tests(table: pd.DataFrame, features: tuple[str, ...]) -> list[tuple[str, str, int]]:
    """Every single test worth trying: (feature, op, value) for the values the feature takes."""
    tests = []
    for name in features:
        values = np.unique(table[f"f_{name}"].to_numpy())
        if len(values) < 2:
            continue
        for v in values:
            tests.append((name, "==", int(v)))
            if v != values[0] and v != values[-1] and len(values) > 2:
                tests.append((name, ">=", int(v)))
                tests.append((name, "<=", int(v)))
    return tests


def test_mask(table: pd.DataFrame, test: tuple[str, str, int]) -> np.ndarray:
    name, op, value = test
    col = table[f"f_{name}"].to_numpy()
    return col == value if op == "==" else (col >= value if op == ">=" else col <= value)


def fit(table: pd.DataFrame, features: tuple[str, ...], actions: tuple[str, ...], most: int, support: int,
        fitting: np.ndarray) -> list[dict[str, Any]]:
    """The greedy decision list on the decisions `fitting` marks (module docstring)."""
    arrays = decision_arrays(table, actions)
    tests = candidate_tests(table, features)
    masks = np.stack([test_mask(table, t) for t in tests]).astype(np.float64)  # tests x decisions
    picked = arrays["heuristic"].copy()
    covered = np.zeros(len(table), dtype=bool)
    rules: list[dict[str, Any]] = []
    for _ in range(most):
        open_ = (~covered) & fitting
        applies = ~np.isnan(arrays["action"]) & open_[:, None]
        gain = np.where(applies, np.nan_to_num(arrays["action"]) - picked[:, None], 0.0)
        moved = (applies & (np.nan_to_num(arrays["action"]) != picked[:, None])).astype(np.float64)
        best: tuple[float, Any] = (0.0, None)
        for i in range(len(tests)):
            pair = masks[i][None, :] * masks[i:]  # test i and each later test (i with itself: i alone)
            g = np.round(pair @ gain, 9)  # conditions x actions: points saved (rounded: the same pick on any BLAS)
            s = pair @ moved              # decisions whose card changes
            g[s < support] = -np.inf
            j, k = np.unravel_index(int(np.argmax(g)), g.shape)
            if g[j, k] > best[0]:
                best = (float(g[j, k]), (i, i + j, k))
        if best[1] is None:
            break
        i, j, k = best[1]
        condition = [tests[i]] if i == j else [tests[i], tests[j]]
        where = np.ones(len(table), dtype=bool)
        for t in condition:
            where &= test_mask(table, t)
        takes = where & ~covered & ~np.isnan(arrays["action"][:, k])
        rules.append({"tests": [list(t) for t in condition], "action": actions[k], "decisions": int(takes.sum())})
        picked = np.where(takes, arrays["action"][:, k], picked)
        covered |= takes
    return rules


def apply_rules(table: pd.DataFrame, rules: list[dict[str, Any]], actions: tuple[str, ...]) -> np.ndarray:
    """The value of the card the list (then the heuristic) plays at each decision."""
    arrays = decision_arrays(table, actions)
    picked = arrays["heuristic"].copy()
    covered = np.zeros(len(table), dtype=bool)
    for rule in rules:
        where = np.ones(len(table), dtype=bool)
        for t in rule["tests"]:
            where &= test_mask(table, (t[0], t[1], int(t[2])))
        k = actions.index(rule["action"])
        takes = where & ~covered & ~np.isnan(arrays["action"][:, k])
        picked = np.where(takes, arrays["action"][:, k], picked)
        covered |= takes
    return picked


def per_deal(saved: np.ndarray, deals: np.ndarray) -> tuple[float, float]:
    """Points a deal (the sum over each deal's decisions, averaged over deals) and its standard error."""
    sums = pd.Series(saved).groupby(deals).sum().to_numpy()
    return float(sums.mean()), float(sums.std(ddof=1) / np.sqrt(len(sums))) if len(sums) > 1 else float("nan")


def carried(saved: np.ndarray, within: float = CARRY_WITHIN) -> int:
    """The fewest rules (the list's top ones) saving within `within` points a deal of the most any length saves.

    >>> carried(np.array([0.0, 0.05, 0.061, 0.058]))
    2
    """
    return int(np.flatnonzero(saved >= saved.max() - within)[0])


def main(argv: list[str] | None = None) -> int:
    from analyser.engine.playrules import ACTIONS, FEATURES
    from analyser.players.rule_words import rule_words

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=Path, default=ROOT / "results" / "play-rules" / "trinidad-4p")
    ap.add_argument("--rules", type=int, default=8, help="rules at most")
    ap.add_argument("--support", type=int, default=30, help="decisions a rule must change, at least")
    ap.add_argument("--out", type=Path, default=None, help="folder (default: --positions)")
    args = ap.parse_args(argv)
    table = pd.read_parquet(args.positions / "positions.parquet")
    key = table["table"].astype(str) + ":" + table["deal"].astype(str)
    deals = pd.factorize(key)[0]
    fitting = (table["deal"].to_numpy() % 2) == 0
    rules = fit(table, FEATURES, ACTIONS, args.rules, args.support, fitting)
    arrays = decision_arrays(table, ACTIONS)
    rows = []
    for n in range(len(rules) + 1):
        picked = apply_rules(table, rules[:n], ACTIONS)
        saved = picked - arrays["heuristic"]
        lost = arrays["best"] - picked
        row: dict[str, Any] = {"rules": n}
        for half, mask in (("fitting", fitting), ("checking", ~fitting)):
            row[f"saved_{half}"], row[f"saved_{half}_se"] = per_deal(saved[mask], deals[mask])
            row[f"lost_{half}"], _ = per_deal(lost[mask], deals[mask])
        rows.append(row)
    steps = pd.DataFrame(rows)
    out = args.out or args.positions
    out.mkdir(parents=True, exist_ok=True)
    steps.to_csv(out / "steps.csv", index=False)
    for n, rule in enumerate(rules, 1):
        rule["words"] = rule_words(rule["tests"], rule["action"])
        rule["saved_fitting"] = float(steps["saved_fitting"].iat[n] - steps["saved_fitting"].iat[n - 1])
        rule["saved_checking"] = float(steps["saved_checking"].iat[n] - steps["saved_checking"].iat[n - 1])
    carry = carried(steps["saved_checking"].to_numpy())
    (out / "rules.json").write_text(json.dumps(
        {"positions": shown(args.positions), "decisions": len(table), "support": args.support, "carry": carry,
         "rules": rules,
         "command": f"python scripts/fit_play_rules.py --positions {shown(args.positions)} --rules {args.rules} "
                    f"--support {args.support}"}, indent=1) + "\n")
    (out / CARRIED_FILE).write_text(json.dumps(
        {"positions": shown(args.positions), "carry": carry, "rules": rules[:carry],
         "command": f"python scripts/fit_play_rules.py --positions {shown(args.positions)} --rules {args.rules} "
                    f"--support {args.support}"}, indent=1) + "\n")
    print(steps.to_string(index=False))
    for rule in rules:
        print(rule)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
