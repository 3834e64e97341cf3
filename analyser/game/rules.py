"""Rule sets: the four presets of ``docs/rules.md`` and their parameters.

>>> r = make_rules("classic", players=3, settings=["undertrump=forbidden", "target=7"])
>>> r.players, r.target, r.undertrump, r.kick, r.void_play
(3, 7, 'forbidden', 'heels', 'trump')
>>> make_rules("trinidad", players=5)
Traceback (most recent call last):
...
analyser.game.rules.RulesError: players=5 is not allowed for trinidad: choose 4 or 2
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
from .errors import AllFoursError

KICKS = ("none", "trinidad", "tobago", "heels", "final-jack")
GAME_TIES = ("none", "dealer-opponents", "non-dealer")
UNDERTRUMPS = ("allowed", "forbidden")
VOID_PLAYS = ("any", "trump")  # without the led suit: any card, or a trump if the player may play one

# Kernel view of a rule set: an int64 array indexed by these constants.
R_PLAYERS, R_TARGET, R_KICK, R_DISCARD, R_BUNCHING, R_HANG_JACK, R_GAME_TIE, R_UNDERTRUMP, R_GIFT, R_RUN_CARDS = range(10)
R_VOID_PLAY = 10
N_RULE_FIELDS = 11

TARGET_MAX = 99
GIFT_MAX = 4
RUN_CARDS_MAX = 6


class RulesError(AllFoursError):
    """An unknown preset or parameter, a value out of range or an impossible combination."""


@dataclasses.dataclass(frozen=True)
class RuleSet:
    preset: str
    players: int
    target: int
    kick: str
    discard: bool
    bunching: bool
    hang_jack: bool
    game_tie: str
    undertrump: str
    void_play: str
    gift: int
    run_cards: int

    @property
    def sides(self) -> int:
        """Number of scoring sides: partnerships with 4 players, else every seat."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    def as_array(self) -> np.ndarray:
        """The int64 array the kernels read (indices ``R_*``)."""
        out = np.zeros(N_RULE_FIELDS, dtype=np.int64)
        out[R_PLAYERS] = self.players
        out[R_TARGET] = self.target
        out[R_KICK] = KICKS.index(self.kick)
        out[R_DISCARD] = int(self.discard)
        out[R_BUNCHING] = int(self.bunching)
        out[R_HANG_JACK] = int(self.hang_jack)
        out[R_GAME_TIE] = GAME_TIES.index(self.game_tie)
        out[R_UNDERTRUMP] = UNDERTRUMPS.index(self.undertrump)
        out[R_VOID_PLAY] = VOID_PLAYS.index(self.void_play)
        out[R_GIFT] = self.gift
        out[R_RUN_CARDS] = self.run_cards
        return out

    def as_log_dict(self) -> dict[str, Any]:
        """The ``rules`` object of an ``allfours-log/1`` line."""
        return dataclasses.asdict(self)

    def describe(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in dataclasses.asdict(self).items())


_COMMON: dict[str, Any] = dict(
    discard=False, bunching=False, hang_jack=False, game_tie="none", undertrump="allowed", void_play="any", gift=1,
    run_cards=3,
)
PRESETS: dict[str, dict[str, Any]] = {
    "trinidad": {**_COMMON, "players": 4, "target": 14, "kick": "trinidad", "hang_jack": True},
    "trinidad-tobago": {**_COMMON, "players": 4, "target": 14, "kick": "tobago", "hang_jack": True},
    "partnership-seven": {
        **_COMMON, "players": 4, "target": 7, "kick": "final-jack", "discard": True, "bunching": True,
        "game_tie": "dealer-opponents",
    },
    "classic": {**_COMMON, "players": 4, "target": 11, "kick": "heels", "discard": True, "void_play": "trump"},
}
# Player counts each preset's source documents allow, default first.
PRESET_PLAYERS: dict[str, tuple[int, ...]] = {
    "trinidad": (4, 2),
    "trinidad-tobago": (4, 2),
    "partnership-seven": (4,),
    "classic": (4, 2, 3),
}
PARAMETERS = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "preset")

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def _coerce(key: str, value: Any) -> Any:
    """Turn a command-line or JSON value into the parameter's type, or fail naming it."""
    if key in ("discard", "bunching", "hang_jack"):
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RulesError(f"{key}={value!r}: expected true or false")
    if key in ("players", "target", "gift", "run_cards"):
        if isinstance(value, bool):
            raise RulesError(f"{key}={value!r}: expected a whole number")
        try:
            return int(str(value).strip())
        except ValueError:
            raise RulesError(f"{key}={value!r}: expected a whole number") from None
    choices = {"kick": KICKS, "game_tie": GAME_TIES, "undertrump": UNDERTRUMPS, "void_play": VOID_PLAYS}[key]
    text = str(value).strip().lower().replace("_", "-")
    if text not in choices:
        raise RulesError(f"{key}={value!r}: expected one of {', '.join(choices)}")
    return text


def _normalise_key(key: str) -> str:
    name = key.strip().lower().replace("-", "_")
    if name not in PARAMETERS:
        raise RulesError(f"unknown rule parameter {key!r}: known are {', '.join(PARAMETERS)}")
    return name


def parse_settings(settings: Iterable[str]) -> dict[str, str]:
    """Read ``KEY=VALUE`` strings as given to ``--set``."""
    out: dict[str, str] = {}
    for item in settings:
        if "=" not in item:
            raise RulesError(f"bad --set {item!r}: expected KEY=VALUE, e.g. target=7")
        key, value = item.split("=", 1)
        out[_normalise_key(key)] = value
    return out


def make_rules(
    preset: str,
    players: int | None = None,
    settings: Iterable[str] | Mapping[str, Any] = (),
) -> RuleSet:
    """Build and validate a rule set from a preset, a player count and overrides."""
    name = str(preset).strip().lower()
    if name not in PRESETS:
        raise RulesError(f"unknown preset {preset!r}: choose one of {', '.join(PRESETS)}")
    values = dict(PRESETS[name])
    overrides: dict[str, Any] = (
        {_normalise_key(k): v for k, v in settings.items()} if isinstance(settings, Mapping) else parse_settings(settings)
    )
    if players is not None:
        overrides["players"] = players
    for key, value in overrides.items():
        values[key] = _coerce(key, value)
    rules = RuleSet(preset=name, **values)
    validate(rules)
    return rules


def validate(rules: RuleSet) -> None:
    allowed = PRESET_PLAYERS[rules.preset]
    if rules.players not in allowed:
        raise RulesError(
            f"players={rules.players} is not allowed for {rules.preset}: choose {' or '.join(map(str, allowed))}"
        )
    if not 1 <= rules.target <= TARGET_MAX:
        raise RulesError(f"target={rules.target} is out of range 1..{TARGET_MAX}")
    if not 0 <= rules.gift <= GIFT_MAX:
        raise RulesError(f"gift={rules.gift} is out of range 0..{GIFT_MAX}")
    if not 1 <= rules.run_cards <= RUN_CARDS_MAX:
        raise RulesError(f"run_cards={rules.run_cards} is out of range 1..{RUN_CARDS_MAX}")
    if rules.bunching and rules.players != 4:
        raise RulesError(f"bunching needs 4 players (all four must agree), not {rules.players}")


def rules_from_log(data: Any) -> RuleSet:
    """The rule set named by a log line's ``rules`` object (``preset`` required)."""
    if not isinstance(data, Mapping) or "preset" not in data:
        raise RulesError('rules must be an object naming at least the preset, e.g. {"preset": "trinidad"}')
    extra = {k: v for k, v in data.items() if k != "preset"}
    unknown = [k for k in extra if k.replace("-", "_") not in PARAMETERS]
    for key in unknown:  # keys not named in the format are ignored
        extra.pop(key)
    players = extra.pop("players", None)
    return make_rules(str(data["preset"]), players=None if players is None else _coerce("players", players), settings=extra)
