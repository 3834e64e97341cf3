"""A rule of play in a player's words: its tests on what the seat can see (``engine.playrules.FEATURES``) and its
action class (``engine.playrules.ACTIONS``), as the strategy card and the fitted rules file print them.

A test is (feature, op, value) with op ``==``, ``>=`` or ``<=``; a rule is one or two tests and an action.

>>> rule_words([["leading", "==", 1], ["jack_out", "==", 1]], "lead_low_trump")
'Leading, with the jack of trump still out: lead your smallest trump.'
>>> rule_words([["partner_winning", "==", 1], ["best_holds", "==", 1]], "give_partner")
'With your partner winning the trick, no one after you able to beat it: give partner your highest-scoring card (a ten first).'
>>> condition_words("low_trump", "<=", 3)
'holding no trump or your lowest trump the 5 or lower'
>>> condition_words("trumps", ">=", 2)
'holding 2 or more trumps'
>>> condition_words("trick", "<=", 2)
'in the first 2 tricks'
>>> condition_words("trumps", "==", 0)
'holding no trumps'
>>> condition_words("position", "==", 1)
'with 1 card already in the trick'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..engine.playrules import ACTION_WORDS, ACTIONS, FEATURES

RANK_WORDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king", "ace")

# Flags (0 or 1): the words for 1 and for 0.
FLAG_WORDS: dict[str, tuple[str, str]] = {
    "leading": ("leading", "following"),
    "last": ("playing last to the trick", "not last to play to the trick"),
    "trump_led": ("trump led", "a side suit led"),
    "partner_winning": ("your partner winning the trick", "your partner not winning the trick"),
    "opponent_winning": ("an opponent winning the trick", "no opponent winning the trick"),
    "best_trump": ("the trick's winning card a trump", "the trick's winning card not a trump"),
    "best_holds": ("no one after you able to beat it", "someone after you perhaps able to beat it"),
    "trick_jack": ("the jack of trump in the trick", "the jack of trump not in the trick"),
    "trick_ten": ("the ten of trump in the trick", "the ten of trump not in the trick"),
    "hold_ace": ("holding the ace of trump", "without the ace of trump"),
    "hold_king": ("holding the king of trump", "without the king of trump"),
    "hold_queen": ("holding the queen of trump", "without the queen of trump"),
    "hold_jack": ("holding the jack of trump", "without the jack of trump"),
    "hold_ten": ("holding the ten of trump", "without the ten of trump"),
    "ace_out": ("the ace of trump still out", "the ace of trump seen"),
    "king_out": ("the king of trump still out", "the king of trump seen"),
    "queen_out": ("the queen of trump still out", "the queen of trump seen"),
    "jack_out": ("the jack of trump still out", "the jack of trump seen"),
    "ten_out": ("the ten of trump still out", "the ten of trump seen"),
    "can_follow": ("able to follow suit", "unable to follow suit"),
    "can_win": ("able to win the trick", "unable to win the trick"),
    "can_win_sure": ("able to win the trick for sure", "unable to win the trick for sure"),
}
# Counts: the words around the number ({n}: "2", "2 or more", "at most 2").
COUNT_WORDS: dict[str, str] = {
    "position": "with {n} cards already in the trick",
    "trick_points": "with {n} Game points in the trick",
    "trumps": "holding {n} trumps",
    "trumps_out": "with {n} trumps still out",
    "side_tens_out": "with {n} side tens still out",
    "side_tens": "holding {n} side tens",
    "legal": "with {n} cards you may play",
    "hand": "with {n} cards in hand",
    "opps_no_trump": "with {n} opponents shown to have no trump",
    "our_game": "your side having taken {n} Game points",
    "their_game": "the other side having taken {n} Game points",
}
# Ranks (0 = 2 .. 12 = ace, -1 none): the trump named.
RANK_FEATURES: dict[str, str] = {"low_trump": "your lowest trump", "high_trump": "your highest trump"}


class RuleWordsError(ValueError):
    """A test or action the words do not know."""


def condition_words(feature: str, op: str, value: int) -> str:
    """One test in words."""
    if feature in FLAG_WORDS:
        yes, no = FLAG_WORDS[feature]
        if op == "==" and value in (0, 1):
            return yes if value == 1 else no
        if (op == ">=" and value == 1) or (op == "<=" and value == 0):
            return yes if op == ">=" else no
        raise RuleWordsError(f"{feature} is a flag: a test {op} {value} says nothing a player can read")
    if feature == "trick":
        return f"in trick {value}" if op == "==" else (f"from trick {value} on" if op == ">=" else
                                                       f"in the first {value} tricks")
    if feature in COUNT_WORDS:
        none = (op == "==" and value == 0) or (op == "<=" and value == 0)
        n = "no" if none else (str(value) if op == "==" else (f"{value} or more" if op == ">=" else
                                                                f"at most {value}"))
        return re.sub(r"\b1 (card|trump|side ten|opponent)s\b", r"1 \1", COUNT_WORDS[feature].format(n=n))
    if feature in RANK_FEATURES:
        if value < 0:
            if op == "<=" or op == "==":
                return "holding no trump"
            return "holding a trump"
        rank = f"the {RANK_WORDS[value]}"
        tail = "" if op == "==" or (op == "<=" and value == 0) else (" or higher" if op == ">=" else " or lower")
        words = f"{RANK_FEATURES[feature]} {rank}{tail}"
        return f"holding no trump or {words}" if op == "<=" else words  # no trump reads as -1: below every rank
    raise RuleWordsError(f"unknown feature {feature!r}: one of {', '.join(FEATURES)}")


def rule_words(tests: Sequence[Sequence[object]], action: str) -> str:
    """A rule in a player's words: its tests, then what to play."""
    if action not in ACTIONS:
        raise RuleWordsError(f"unknown action {action!r}: one of {', '.join(ACTIONS)}")
    parts = [condition_words(str(t[0]), str(t[1]), int(str(t[2]))) for t in tests]
    when = ", ".join(f"with {w}" if w.startswith(("your ", "the ")) else w for w in parts)
    return f"{when[0].upper()}{when[1:]}: {ACTION_WORDS[ACTIONS.index(action)]}."
