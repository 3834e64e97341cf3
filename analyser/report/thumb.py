"""Plain-language rules of thumb, read off the final strategy tables.

>>> import pandas as pd
>>> t = pd.DataFrame({"class_key": ["T0", "T1", "T1:A", "T1:J", "T2", "T3", "T4+"], "n": 9,
...                   "share": [.4, .3, .1, .1, .1, .05, .05],
...                   "recommend": ["beg", "beg", "stand", "stand", "stand", "stand", "stand"]})
>>> describe(t, "stand", "beg")
'with no trump, beg; with 1 trump, stand holding the ace or the jack, otherwise beg; with 2 or more trumps, stand.'
"""

from __future__ import annotations

import pandas as pd

from ..record.vocabulary import DEALER, ELDEST

GROUPS = ("T0", "T1", "T2", "T3", "T4+")
FLAG_NAMES = {"A": "the ace", "J": "the jack", "lo": "a low trump (2 to 5)"}
# Candidate descriptions of a set of classes, tried in order: (words, test on the class's flags).
PREDICATES = (
    ("the ace", lambda f: "A" in f),
    ("the jack", lambda f: "J" in f),
    ("the ace or the jack", lambda f: "A" in f or "J" in f),
    ("the ace and the jack", lambda f: "A" in f and "J" in f),
    ("a low trump (2 to 5)", lambda f: "lo" in f),
    ("no low trump", lambda f: "lo" not in f),
    ("the ace, the jack or a low trump", lambda f: bool(f)),
    ("neither ace, jack nor a low trump", lambda f: not f),
)


def flags_of(key: str) -> frozenset[str]:
    _, _, flags = key.partition(":")
    return frozenset(f for f in flags.split(",") if f)


def flags_text(key: str) -> str:
    """'T2:A,lo' -> 'the ace and a low trump (2 to 5)'."""
    names = [FLAG_NAMES[f] for f in sorted(flags_of(key))]
    if not names:
        return "neither ace, jack nor a low trump"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def group_rule(rows: pd.DataFrame, a: str, b: str) -> str:
    """The choice for one trump count: one option, or the other option's cases, then the usual one."""
    choices = set(rows["recommend"])
    if len(choices) == 1:
        return choices.pop()
    weight = rows.groupby("recommend")["share"].sum()
    common = a if weight.get(a, 0) >= weight.get(b, 0) else b
    other = b if common == a else a
    keys = list(rows["class_key"])
    chosen = {k for k in keys if rows.loc[rows["class_key"] == k, "recommend"].iloc[0] == other}
    for words, test in PREDICATES:
        if {k for k in keys if test(flags_of(k))} == chosen:
            return f"{other} holding {words}, otherwise {common}"
    return f"{other} holding " + "; or ".join(flags_text(k) for k in sorted(chosen)) + f"; otherwise {common}"


def span(first: str, last: str) -> str:
    """Words for a run of trump counts, e.g. ('T2', 'T4+') -> 'with 2 or more trumps'."""
    lo, hi = GROUPS.index(first), GROUPS.index(last)
    if first == last:
        return "with no trump" if lo == 0 else f"with {lo} trump{'s' if lo > 1 else ''}" + (
            " or more" if last == "T4+" else "")
    if lo == 0 and last == "T4+":
        return "whatever the trumps"
    if lo == 0:
        return f"with at most {hi} trump{'s' if hi > 1 else ''}"
    if last == "T4+":
        return f"with {lo} or more trumps"
    return f"with {lo} to {hi} trumps"


def describe(table: pd.DataFrame, a: str, b: str) -> str:
    """One sentence for a final strategy table (options a, b)."""
    table = table[table["n"] > 0]
    parts: list[tuple[str, str]] = []
    for group in GROUPS:
        rows = table[table["class_key"].str.split(":").str[0] == group]
        if len(rows):
            parts.append((group, group_rule(rows, a, b)))
    out: list[str] = []
    i = 0
    while i < len(parts):
        j = i
        while j + 1 < len(parts) and parts[j + 1][1] == parts[i][1] and parts[i][1] in (a, b):
            j += 1
        out.append(f"{span(parts[i][0], parts[j][0])}, {parts[i][1]}")
        i = j + 1
    return "; ".join(out) + "."


def rules_of_thumb(eldest: pd.DataFrame, dealer: pd.DataFrame) -> dict[str, str]:
    return {"eldest": describe(eldest, *ELDEST.options), "dealer": describe(dealer, *DEALER.options)}
