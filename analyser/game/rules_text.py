"""Rule parameters in words, for people: what each one means at the table.

``docs/rules.md`` is the full explanation; this module is its one-line version,
for commands that print a rule set (``describe`` rows, ``format_rules`` text).

>>> from analyser.game.rules import make_rules
>>> rows = describe(make_rules("classic", players=3, settings=["target=7"]))
>>> rows[0]
('players', '3', 'number of players: 4 play as two partnerships (seats 0+2 against 1+3), 2 or 3 each play alone')
>>> [(name, value) for name, value, _ in rows if name in ("target", "kick", "discard")]
[('target', '7'), ('kick', 'heels'), ('discard', 'true')]
>>> print("\\n".join(format_rules(make_rules("trinidad")).splitlines()[:4]))
rules: trinidad, 4 players (--rules trinidad --players 4)
parameter   value     meaning
----------  --------  -------
players     4         number of players: 4 play as two partnerships (seats 0+2 against 1+3), 2 or 3 each play alone
"""

from __future__ import annotations

import dataclasses

from .rules import RuleSet

# One line per rule parameter (the ``--set KEY=VALUE`` names). ``preset`` is not a
# parameter: it is the rule system the others start from (``--rules``).
PARAM_MEANINGS: dict[str, str] = {
    "players": "number of players: 4 play as two partnerships (seats 0+2 against 1+3), 2 or 3 each play alone",
    "target": "points that win the match; the first side to reach them wins at once, even in mid-deal",
    "kick": "points the dealer's side scores for the card turned up for trump",
    "discard": "true: after a run each player discards down to six before play; false: every card is played",
    "bunching": "true: after a run finds a new trump, the deal is thrown in and redealt if all four agree",
    "hang_jack": "true: capturing the opponents' jack of trump scores 3 (hang jack); false: the jack always scores 1",
    "game_tie": "who scores Game when the highest card-point totals are tied",
    "undertrump": "on a non-trump lead, may a player trump lower than a trump already in the trick",
    "void_play": "what a player without the led suit may play",
    "gift": "points the eldest's side scores when the dealer answers a beg by giving one",
    "run_cards": "cards each player gets from the pack for every run",
}

# What the named values of the choice parameters mean (shown after the parameter's meaning).
VALUE_MEANINGS: dict[str, dict[str, str]] = {
    "kick": {
        "trinidad": "ace 1, six 2, jack 3, on every turn-up",
        "tobago": "ace 1, two 2, jack 3, on every turn-up",
        "heels": "jack 1 (one for his heels), on every turn-up",
        "final-jack": "1 only if the turn-up that finally fixes trump is a jack (not if the deal is bunched)",
        "none": "no points for turned-up cards",
    },
    "game_tie": {
        "none": "nobody",
        "dealer-opponents": "the tied side that is not the dealer's (nobody if two such sides tie, with 3 players)",
        "non-dealer": "the same rule as dealer-opponents: the tied side that is not the dealer's, if only one",
    },
    "undertrump": {
        "allowed": "allowed",
        "forbidden": "forbidden, unless every card left in the hand is a trump",
    },
    "void_play": {
        "any": "any card",
        "trump": "a trump if it holds one it may play, else any card",
    },
}

# Values of the boolean parameters as one would type them for --set.
_BOOL_WORDS = {True: "true", False: "false"}


def value_text(value: object) -> str:
    """A parameter value as it would be typed for ``--set KEY=VALUE``.

    >>> value_text(True), value_text(14), value_text("final-jack")
    ('true', '14', 'final-jack')
    """
    if isinstance(value, bool):
        return _BOOL_WORDS[value]
    return str(value)


def parameters(ruleset: RuleSet) -> list[str]:
    """The user-settable parameters of a rule set, in the dataclass's order (``preset`` left out)."""
    return [f.name for f in dataclasses.fields(ruleset) if f.name != "preset"]


def meaning(name: str, value: object) -> str:
    """The meaning of one parameter, with the meaning of its value where it is a named choice."""
    text = PARAM_MEANINGS.get(name, "")
    gloss = VALUE_MEANINGS.get(name, {}).get(value_text(value))
    return f"{text}: {gloss}" if gloss else text


def describe(ruleset: RuleSet) -> list[tuple[str, str, str]]:
    """(parameter, value as typed for ``--set``, meaning) for every parameter of a resolved rule set."""
    return [
        (name, value_text(getattr(ruleset, name)), meaning(name, getattr(ruleset, name)))
        for name in parameters(ruleset)
    ]


def set_options(ruleset: RuleSet) -> list[str]:
    """``KEY=VALUE`` strings that rebuild this rule set from its preset with ``make_rules``."""
    return [f"{name}={value}" for name, value, _ in describe(ruleset)]


def format_rules(ruleset: RuleSet) -> str:
    """A plain-text table of the rule set: a title line, then parameter, value and meaning."""
    rows = describe(ruleset)
    head = ("parameter", "value", "meaning")
    w_name = max(len(head[0]), *(len(r[0]) for r in rows))
    w_value = max(len(head[1]), *(len(r[1]) for r in rows))
    lines = [
        f"rules: {ruleset.preset}, {ruleset.players} players (--rules {ruleset.preset} --players {ruleset.players})",
        f"{head[0]:<{w_name}}  {head[1]:<{w_value}}  {head[2]}",
        f"{'-' * w_name}  {'-' * w_value}  {'-' * len(head[2])}",
    ]
    lines += [f"{name:<{w_name}}  {value:<{w_value}}  {text}" for name, value, text in rows]
    return "\n".join(lines)
