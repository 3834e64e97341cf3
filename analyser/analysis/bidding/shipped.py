"""What the shipped strategy says for one hand: its class, the action and the action's probability.

The strategy card (``allfours card``) and the shipped editions (``results/<preset>-<players>p``) give an
action per *hand class* (``T1:J``: one trump, the jack); ``whatif``, the hint and the coach play out one
hand. `lookup` reads the edition's bidding equilibrium for the hand's class:

* at the hand's own score from ``equilibrium-scores/scores.csv`` (the equilibrium at every score, by
  match-win probability; editions with two sides), where the edition has it and the score is not 0:0;
* else from ``equilibrium/equilibrium.json`` (the equilibrium the card is fitted to: coarse hand classes,
  net points at 0:0, with each class's 95% bootstrap interval), at 0:0 whatever the hand's score.

None where no edition matches the rules and player count exactly (another ``--set``, another player
count). The card's own rule for the class (``rules-of-thumb/rules.json``, the size the card prints) is read
alongside. `disagreement` says in one sentence where a settled per-hand answer differs from the table or
the card, and what sets this hand apart from its class where that can be told (an unsettled class, a score
the table is not for, the turn-up's rank, a strong side suit and the finer table that sees it). A table
lookup: nothing is simulated.
"""

from __future__ import annotations

import csv
import dataclasses
import functools
import json
from pathlib import Path
from typing import Any

from ..stats import probability
from ...game.cards import SUIT_SYMBOLS, rank_of, suit_of
from ...game.rules import KICKS, RuleSet
from ...record.vocabulary import ROLE

RESULTS = Path(__file__).resolve().parents[3] / "results"
RANK_WORDS = "23456789TJQKA"
VERB = {"stand": "stands", "beg": "begs", "give": "gives one", "run": "runs the cards"}
COUNT = {0: "no trump", 1: "one trump", 2: "two trumps", 3: "three trumps", 4: "four or more trumps"}
HONOURS = (("A", "the ace"), ("J", "the jack"), ("lo", "a low one (2 to 5)"))


def card_words(card: int) -> str:
    rank = RANK_WORDS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]


def class_words(key: str) -> str:
    """A hand class in words.

    >>> class_words("T0"), class_words("T1:J"), class_words("T2:A,lo"), class_words("T3")
    ('no trump', 'one trump, the jack', 'two trumps with the ace and a low one (2 to 5)', 'three trumps, none of them the ace, the jack or a low one')
    """
    head, _, flags = key.partition(":")
    trumps = int(head[1:].rstrip("+"))
    words = COUNT[trumps]
    if trumps == 0:
        return words
    held = [w for f, w in HONOURS if f in flags.split(",")]
    if not held:
        return words + (", not the ace, the jack or a low one" if trumps == 1 else
                        ", none of them the ace, the jack or a low one")
    if trumps == 1:
        return f"{words}, {held[0]}"
    return f"{words} with " + (held[0] if len(held) == 1 else ", ".join(held[:-1]) + " and " + held[-1])


@dataclasses.dataclass(frozen=True)
class TableAnswer:
    """The shipped strategy's word on one hand (`p`: the probability of `action` at the equilibrium)."""

    role: str
    cls: str
    action: str
    p: float
    settled: bool | None          # None: the by-score table has no interval
    interval: tuple[float, float] | None   # 95% interval of P(beg) / P(give), the 0:0 table only
    score: tuple[int, ...]        # the score read at, the eldest's side first
    at_hand_score: bool           # False: the hand is at another score and the table at 0:0
    source: str                   # the file read, from the repository's root
    card_action: str | None       # the strategy card's rule for the class
    fine_cls: str | None = None   # the finer table's class (a strong side suit marked /side) and its action
    fine_action: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"class": self.cls, "action": self.action, "p": self.p, "settled": self.settled,
                "p_ci95": None if self.interval is None else list(self.interval), "role": self.role,
                "score_eldest_first": list(self.score), "at_hand_score": self.at_hand_score,
                "card_action": self.card_action, "source": self.source}


def edition(rules: RuleSet, results: Path = RESULTS) -> Path | None:
    """The shipped edition for these rules and players (its equilibrium's rules exactly these), or None."""
    folder = Path(results) / f"{rules.preset}-{rules.players}p"
    doc = _json(folder / "equilibrium" / "equilibrium.json")
    if doc is None or doc.get("rules") != rules.as_log_dict() or doc.get("classes") != "coarse":
        return None
    return folder


@functools.lru_cache(maxsize=32)
def _json(path: Path) -> dict[str, Any] | None:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return doc if isinstance(doc, dict) else None


@functools.lru_cache(maxsize=16)
def _by_score(path: Path) -> dict[tuple[int, int, str, str], float]:
    """scores.csv as {(eldest's side, dealer's side, role, class): P(beg) or P(give)}."""
    out: dict[tuple[int, int, str, str], float] = {}
    try:
        with path.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                if row.get("p"):
                    out[(int(row["eldest_score"]), int(row["dealer_score"]), row["role"], row["class"])] = float(row["p"])
    except OSError:
        return {}
    return out


def _where(path: Path, results: Path) -> str:
    root = Path(results).parent
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def hand_class_of(hand: tuple[int, ...], trump: int) -> tuple[str, bool]:
    """(the hand class key, whether a side suit is strong: three or more cards with its ace or ten)."""
    import numpy as np

    from ...engine.evaluator import hand_class, strong_side_suit

    mask = sum(1 << int(c) for c in hand)
    return hand_class(mask, trump), bool(strong_side_suit(np.uint64(mask), trump))


def lookup(rules: RuleSet, role: str, hand: tuple[int, ...], turnup: int, score: tuple[int, ...],
           results: Path = RESULTS) -> TableAnswer | None:
    """What the shipped strategy says for `hand` (the decider's six cards) with `turnup`, `role` deciding, at
    `score` (by side, the eldest's side first); None where no shipped edition has these rules."""
    folder = edition(rules, results)
    if folder is None:
        return None
    option0, option1 = ROLE[role].options
    key = f"p_{option1}"
    cls, strong = hand_class_of(tuple(hand), suit_of(turnup))
    score = tuple(int(x) for x in score)
    p1: float | None = None
    interval = None
    settled: bool | None = None
    at_score = False
    read = score
    scores_csv = folder / "equilibrium-scores" / "scores.csv"
    if rules.sides == 2 and any(score) and scores_csv.is_file():
        p1 = _by_score(scores_csv).get((score[0], score[1], role, cls))
        if p1 is not None:
            at_score, source = True, _where(scores_csv, results)
    if p1 is None:
        eq = folder / "equilibrium" / "equilibrium.json"
        doc = _json(eq) or {}
        entry = next((e for e in doc.get(role) or [] if e.get("class") == cls), None)
        if entry is None or entry.get(key) is None:
            return None
        p1 = float(entry[key])
        interval = (float(entry["ci95"][0]), float(entry["ci95"][1])) if entry.get("ci95") else None
        settled = bool(entry.get("settled", True))
        read = tuple(int(x) for x in doc.get("score") or (0,) * rules.sides)
        at_score = read == score
        source = _where(eq, results)
    action, p = (option1, p1) if p1 >= 0.5 else (option0, 1.0 - p1)
    thumbs = _json(folder / "rules-of-thumb" / "rules.json")
    card_action = None
    if thumbs is not None and thumbs.get("rules") == rules.as_log_dict():
        size = (thumbs.get("chosen") or {}).get(role)
        row = next((r for r in thumbs.get("sizes") or [] if r.get("role") == role and r.get("size") == size), None)
        card_action = None if row is None else (row.get("table") or {}).get(cls)
    fine_cls = fine_action = None
    fine = _json(folder / "equilibrium-fine" / "equilibrium.json")
    if strong and fine is not None and fine.get("rules") == rules.as_log_dict():
        fine_cls = cls + "/side"
        entry = next((e for e in fine.get(role) or [] if e.get("class") == fine_cls), None)
        if entry is not None and entry.get(key) is not None and entry.get("settled"):
            fine_action = option1 if float(entry[key]) >= 0.5 else option0
    return TableAnswer(role, cls, action, float(p), settled, interval, read, at_score, source, card_action,
                       fine_cls, fine_action)


def score_pair(score: tuple[int, ...]) -> str:
    return ":".join(map(str, score))


def disagreement(answer: TableAnswer | None, best: str, hand: tuple[int, ...], turnup: int, rules: RuleSet,
                 score_words: str) -> str | None:
    """One sentence where the per-hand answer `best` (settled: the caller decides) differs from the shipped
    table's action or the card's rule for the class; None where they agree or nothing is shipped. Where the
    equilibrium itself agrees with the hand, it says the card's rule is the simpler one (or the rule at 0:0);
    else what sets the hand apart from its class, where that can be told. `score_words`: the hand's score as
    the caller prints it ("your side 6, theirs 11")."""
    from ...engine.deal import kick_points

    if answer is None or (best == answer.action and best == (answer.card_action or answer.action)):
        return None
    words = f"{class_words(answer.cls)} (class {answer.cls})"
    role = ROLE[answer.role]
    said = []
    if answer.card_action is not None:
        said.append(f"The strategy card says {answer.card_action} for {words}")
    at = ("at 0:0" if not any(answer.score) else f"at this score ({score_words})") if answer.at_hand_score else \
        f"at {score_pair(answer.score)}"
    if answer.card_action is None:
        said.append(f"The shipped equilibrium {at} says {answer.action} for {words}")
    elif answer.action != answer.card_action:
        said.append(f"the equilibrium {at} says {answer.action}"
                    + ("" if answer.p == 1.0 else f" (with probability {probability(answer.p)})"))
    if best == answer.action:  # the equilibrium agrees with the hand: only the card's rule leaves it
        if answer.at_hand_score and any(answer.score):
            tail = (f"the card is the rule at 0:0, and at this score the equilibrium itself moves to "
                    f"{answer.action} with this class")
        else:
            tail = ("the card's rule is the simpler one, and it leaves the equilibrium on this class (the card says "
                    "what that costs)")
        return f"{'; '.join(said)}; this hand, played out, {VERB[best]}: {tail}."
    why: list[str] = []
    if answer.settled is False and answer.interval is not None:
        lo, hi = answer.interval
        why.append(f"the equilibrium has not settled this class (its P({role.option1}) lies anywhere from "
                   f"{100 * lo:.0f}% to {100 * hi:.0f}% in its 95% interval)")
    if not answer.at_hand_score:
        why.append(f"the table is for {score_pair(answer.score)} and this hand is at {score_words}")
    kick = int(kick_points(KICKS.index(rules.kick), turnup))
    rank = RANK_WORDS[rank_of(turnup)]
    facts = ([f"is the {'jack' if rank == 'J' else 'ace'} of trump (no one can hold it)"] if rank in "JA" else []) \
        + ([f"kicks {kick} to the dealer's side"] if kick else [])
    if facts:
        why.append(f"the turn-up {card_words(turnup)} {' and '.join(facts)}, which the class does not see")
    if answer.fine_cls is not None:
        if answer.fine_action == best:
            why.append(f"the hand has a strong side suit (three or more cards with its ace or ten), and the finer "
                       f"table that sees it says {best} for {answer.fine_cls}")
        else:
            why.append("the hand has a strong side suit (three or more cards with its ace or ten), which the class "
                       "does not see")
    head = "; ".join(said)
    tail = (f"the card is a rule for the whole class, and what sets this hand apart is: {'; '.join(why)}" if why
            else "the card is a rule for the whole class, and this hand is an exception to it")
    return f"{head}; this hand, played out, {VERB[best]}: {tail}."


def for_result(res: Any, settled: bool, score_words: str) -> tuple[dict[str, Any] | None, str | None]:
    """For a what-if's result `res` (``whatif.WhatIfResult``): the shipped table's word on its hand (``"table"``
    of --json: None where nothing is shipped) and, when the what-if's answer is `settled` and differs from the
    table or the card, the sentence that says so."""
    sit = res.situation
    answer = lookup(sit.rules, sit.seat, sit.hand, sit.turnup, sit.eldest_first())
    said = disagreement(answer, res.best, sit.hand, sit.turnup, sit.rules, score_words) if settled else None
    return (None if answer is None else answer.to_json()), said
