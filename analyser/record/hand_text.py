"""Hand classes in words, for the legend of every table that shows their codes.

A hand class (``engine/evaluator.py``) sums up a hand for one trump suit: how many
trumps it holds, and which of three cards that decide High, Low and Jack it holds:
the ace of trump (``A``), the jack of trump (``J``) and a low trump, 2 to 5 (``lo``).

>>> class_words("T2:J,lo")
'two trumps including the jack and a low trump (2-5); not the ace'
>>> class_words("T2")
'two trumps, none of them the ace, the jack or a low trump (2-5)'
>>> class_words("T3:A")
'three trumps including the ace; not the jack or a low trump (2-5)'
>>> class_words("T1:lo"), class_words("T0"), class_words("T4+:A,J,lo")
('one trump, a low one (2-5)', 'no trump', 'four or more trumps including the ace, the jack and a low trump (2-5)')
>>> print(legend(["T0", "T2:J,lo"]))
T0 = no trump; T2:J,lo = two trumps including the jack and a low trump (2-5); not the ace
"""

from __future__ import annotations

from collections.abc import Iterable

from ..engine.evaluator import LOW_TRUMP_MAX_RANK, RANK_NAMES

LOW = f"2-{RANK_NAMES[LOW_TRUMP_MAX_RANK]}"
COUNTS = {"T1": "one trump", "T2": "two trumps", "T3": "three trumps", "T4+": "four or more trumps"}
FLAGS = {"A": "the ace", "J": "the jack", "lo": f"a low trump ({LOW})"}
ONE_TRUMP = {"A": "one trump, the ace", "J": "one trump, the jack", "lo": f"one trump, a low one ({LOW})"}

# The general key, in one line: how to read any code.
KEY = (f"T0 = no trump, T1 to T3 = that many trumps, T4+ = four or more; after the colon, those held of "
       f"A = the ace of trump, J = the jack of trump, lo = a low trump ({LOW})")


def _and(words: list[str], last: str) -> str:
    return ", ".join(words[:-1]) + f" {last} " + words[-1] if len(words) > 1 else "".join(words)


def class_words(key: str) -> str:
    """What a hand class code (``T2:J,lo``) means, in a card player's words."""
    count, _, flags = key.partition(":")
    held = [f for f in flags.split(",") if f] if flags else []
    if count == "T0" and not held:
        return "no trump"
    if count not in COUNTS or any(f not in FLAGS for f in held):
        raise ValueError(f"not a hand class: {key!r}")
    if count == "T1":
        if len(held) > 1:
            raise ValueError(f"not a hand class: {key!r} (one trump is one card)")
        return ONE_TRUMP[held[0]] if held else "one middling trump (6 to king, not the jack)"
    missing = [FLAGS[f] for f in FLAGS if f not in held]
    if not held:
        return f"{COUNTS[count]}, none of them {_and(missing, 'or')}"
    text = f"{COUNTS[count]} including {_and([FLAGS[f] for f in held], 'and')}"
    return text + (f"; not {_and(missing, 'or')}" if missing else "")


def legend(keys: Iterable[str], sep: str = "; ") -> str:
    """``CODE = meaning`` for each distinct code, in the order given."""
    seen = list(dict.fromkeys(keys))
    return sep.join(f"{key} = {class_words(key)}" for key in seen)
