"""Policies by name: ``random``, ``heuristic``, ``oracle`` or ``pimc``, with optional parameter overrides,
or ``tuned:RUN_DIR`` / ``equilibrium:RUN_DIR`` / ``rules:FILE``.

``oracle`` plays the open-hand solver's best card seeing every hand (it cheats: the
ceiling for any card player); ``pimc`` samples ``worlds`` deals of the cards it has
not seen and plays the best mean (``pimc:worlds=80``). It weighs the worlds by the
others' bids and cards through its model of them: ``pimc:model=full`` (the default: the
shared model of the other players that the hint uses, engine/inference.py: graded card
preferences with a floor, bids read by pimc's own tables) or ``pimc:model=heuristic`` (they
play by pimc's own rules, a world losing weight by ``doubt``, 0.1, for each choice those
rules would not have made; any ``doubt`` picks this model, and ``pimc:doubt=1`` infers nothing). Both play the heuristic's card while more than
``max_cards`` cards are left in the hands (oracle 24, pimc 52: every position), and bid
as it does (engine/search.py). Above ``horizon`` cards (24) pimc solves a world exactly
only if the solver finishes within ``nodes`` nodes, else by the bounded search
(engine/bounded.py); ``pimc:max_cards=24`` is the pimc of before (the heuristic's card
above 24 cards).

A policy spec is ``NAME`` or ``NAME:key=value,key=value``, e.g. ``random:beg=0``
(the eldest always stands). The kernels see an int kind and a float64 row per seat.

``tuned:RUN_DIR`` reads ``RUN_DIR/tuned.json`` (written by ``allfours strategy``; a
path to the .json file itself works too): the heuristic with its parameters as
stored there, and stand/beg and give/run by hand class (engine/tuned.py).
``equilibrium:RUN_DIR`` reads ``RUN_DIR/equilibrium.json`` (written by ``allfours
equilibrium``): the same player with the equilibrium's P(beg) and P(give) per hand class
as its tables, mixed entries drawn from the choice stream.

``rules:FILE`` reads a decision list of rules of play from FILE (a ``rules.json`` as
``scripts/fit_play_rules.py`` writes it, or a folder holding one; ``rules:NAME``, e.g.
``rules:trinidad-4p``, the shipped list a player would carry, ``results/play-rules/NAME/carried.json``):
the heuristic (kind
``heuristic``, every parameter at its default) that plays the card of the first rule whose tests
hold and whose action applies, and its own card where none does (engine/rulesplayer.py; at most
8 rules of 1 or 2 tests, each ``[FEATURE, OP, VALUE]`` with OP ``==``, ``>=`` or ``<=``, FEATURE a
name of ``playrules.FEATURES`` and the action one of ``playrules.ACTIONS``). It bids, discards
and bunches as the heuristic does.

>>> kind, row = parse_policy("random:beg=0.25")
>>> kind, float(row[0]), float(row[1])
(0, 0.25, 0.5)
>>> kind, row = parse_policy("heuristic:beg_trumps=3")
>>> kind, float(row[HEURISTIC_PARAMS["beg_trumps"][0]]), float(row[HEURISTIC_PARAMS["win_points"][0]])
(1, 3.0, 4.0)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from ..record.vocabulary import ROLES
from ..game.errors import AllFoursError
from ..engine.evaluator import N_HAND_CLASSES, class_key, possible_classes
from ..engine.heuristic import HEURISTIC_DEFAULTS
from ..engine.layout import (
    K_HEURISTIC, K_ORACLE, K_PIMC, K_RANDOM, K_TUNED, N_PARAMS, P_BEG, P_BUNCH, P_GIVE, POLICY_KINDS, RL_COUNT,
    RL_MAX, RULE_OPS, T_BEG, T_GIVE, X_DOUBT, X_HORIZON, X_MAX_CARDS, X_NODES, X_TRIES, X_WORLDS,
)
from ..engine.rulesplayer import set_rules
from ..engine.bounded import BOUNDED_HORIZON, BOUNDED_NODES
from ..engine.inference import MODEL_FULL
from ..engine.search import PIMC_DOUBT, PIMC_MAX_CARDS, PIMC_TRIES, PIMC_WORLDS, SEARCH_KINDS, SEARCH_MAX_CARDS


class PolicyError(AllFoursError):
    """An unknown policy name or parameter."""


# Parameter names per kind, with defaults, in the kernels' row order.
RANDOM_PARAMS: dict[str, tuple[int, float]] = {"beg": (P_BEG, 0.5), "give": (P_GIVE, 0.5), "bunch": (P_BUNCH, 0.5)}
# The heuristic's rules and defaults are documented in engine/heuristic.py; its beg, give
# and bunch default to -1 (decide by the rules), a value in [0, 1] is a fixed probability.
HEURISTIC_PARAMS: dict[str, tuple[int, float]] = dict(HEURISTIC_DEFAULTS)
# The search players (engine/search.py) bid and discard as the heuristic does, with its parameters.
ORACLE_PARAMS: dict[str, tuple[int, float]] = {**HEURISTIC_PARAMS, "max_cards": (X_MAX_CARDS, float(SEARCH_MAX_CARDS))}
PIMC_PARAMS: dict[str, tuple[int, float]] = {**ORACLE_PARAMS, "max_cards": (X_MAX_CARDS, float(PIMC_MAX_CARDS)),
                                              "worlds": (X_WORLDS, float(PIMC_WORLDS)),
                                              "doubt": (X_DOUBT, MODEL_FULL), "tries": (X_TRIES, float(PIMC_TRIES)),
                                              "horizon": (X_HORIZON, float(BOUNDED_HORIZON)),
                                              "nodes": (X_NODES, float(BOUNDED_NODES))}
# The tuned policy shares the heuristic's named parameters; its tables come from tuned.json.
PARAMS_BY_KIND: dict[int, dict[str, tuple[int, float]]] = {
    K_RANDOM: RANDOM_PARAMS, K_HEURISTIC: HEURISTIC_PARAMS, K_TUNED: HEURISTIC_PARAMS,
    K_ORACLE: ORACLE_PARAMS, K_PIMC: PIMC_PARAMS}
# Words for flags and switches: heuristic:tip_trump_ace=on, heuristic:smear=off; "auto" (-1) leaves a
# play-advice switch to the player's own rules.
SWITCH_WORDS = {"on": 1.0, "off": 0.0, "auto": -1.0}
TUNED_FORMAT = "allfours-tuned/1"
TUNED_FILE = "tuned.json"
EQUILIBRIUM_FORMAT = "allfours-equilibrium/1"
EQUILIBRIUM_FILE = "equilibrium.json"
RULES_NAME = "rules"       # rules:FILE, the heuristic with a decision list of rules of play (engine/rulesplayer.py)
RULES_FILE = "rules.json"  # rules:DIR reads DIR/rules.json
# rules:NAME (e.g. rules:trinidad-4p), NAME no file or folder here: the shipped list a player would carry,
# results/play-rules/NAME/carried.json (scripts/fit_play_rules.py writes it), from any working folder.
SHIPPED_PLAY_RULES = Path(__file__).resolve().parents[2] / "results" / "play-rules"
CARRIED_FILE = "carried.json"
TABLES_KEY = "tables"  # pimc:tables=RUN_DIR, oracle:tables=RUN_DIR: bid by a strategy or equilibrium run's tables
# pimc:model=full (the default: the shared model of the other players, engine/inference.py) or model=heuristic (the
# others play by pimc's own rules: a world weighs doubt ** mismatches, doubt 0.1 unless given); kept in the doubt slot
# (below 0: the shared model; a doubt of 0 or more: the heuristic's). Full won head to head (docs/search.md).
MODEL_KEY = "model"
PIMC_MODELS = {"heuristic": PIMC_DOUBT, "full": MODEL_FULL}
# The options of each tuned table: flag 0, flag 1.
TUNED_CHOICES = {role.name: role.options for role in ROLES}


def parse_policy(spec: str) -> tuple[int, np.ndarray]:
    """The kernel kind and parameter row for a policy spec."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name == "tuned":
        return K_TUNED, read_tuned(rest.strip())
    if name == "equilibrium":
        return K_TUNED, read_equilibrium(rest.strip())
    if name == RULES_NAME:
        return K_HEURISTIC, read_rules(rest.strip())
    if name not in POLICY_KINDS:
        raise PolicyError(f"unknown policy {spec!r}: choose one of {', '.join(POLICY_KINDS)} (or tuned:RUN_DIR, "
                          "equilibrium:RUN_DIR, rules:FILE)")
    kind = POLICY_KINDS.index(name)
    table = PARAMS_BY_KIND[kind]
    row = default_row(kind)
    takes_tables = kind in SEARCH_KINDS  # the search players bid by a strategy or equilibrium run: tables=RUN_DIR
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if eq and key == TABLES_KEY and takes_tables:
            row[T_BEG:T_GIVE + N_HAND_CLASSES] = read_tables(value.strip())[T_BEG:T_GIVE + N_HAND_CLASSES]
            continue
        if eq and key == MODEL_KEY and kind == K_PIMC:
            word = value.strip().lower()
            if word not in PIMC_MODELS:
                raise PolicyError(f"bad value in {item!r}: pimc's model is one of {', '.join(PIMC_MODELS)}")
            row[X_DOUBT] = PIMC_MODELS[word]
            continue
        if not eq or key not in table:
            known = [*table, *([TABLES_KEY] if takes_tables else []), *([MODEL_KEY] if kind == K_PIMC else [])]
            raise PolicyError(f"bad policy parameter {item!r} for {name}: known are {', '.join(known)}")
        word = value.strip().lower()
        if word in SWITCH_WORDS:
            row[table[key][0]] = SWITCH_WORDS[word]
            continue
        try:
            row[table[key][0]] = float(value)
        except ValueError:
            raise PolicyError(f"bad value in {item!r}: expected a number or one of {', '.join(SWITCH_WORDS)}") from None
    return kind, row


def pimc_worlds(spec: str) -> int:
    """The worlds a pimc spec samples per card decision; a spec of another player is an error.

    >>> pimc_worlds("pimc:worlds=20")
    20
    """
    kind, row = parse_policy(spec)
    if kind != K_PIMC:
        raise PolicyError(f"{spec!r} is not a pimc player (pimc or pimc:key=value)")
    return int(row[X_WORLDS])


def seat_policies(specs: list[str], players: int) -> tuple[np.ndarray, np.ndarray]:
    """Kinds and parameter rows for every seat: one spec for all, or one per seat."""
    if len(specs) not in (1, players):
        raise PolicyError(f"give one policy or one per seat ({players}), not {len(specs)}")
    parsed = [parse_policy(s) for s in specs]
    if len(parsed) == 1:
        parsed = parsed * players
    kinds = np.array([k for k, _ in parsed], dtype=np.int64)
    params = np.stack([row for _, row in parsed])
    return kinds, params


# --- the tuned policy's file -------------------------------------------------------------


TABLED_KINDS = (K_TUNED, K_ORACLE, K_PIMC)  # kinds that bid by the tuned player's tables (-1: the heuristic's rule)


def default_row(kind: int) -> np.ndarray:
    """The parameter row of a kind with every default (tuned, oracle, pimc: empty tables, -1)."""
    row = np.zeros(N_PARAMS, dtype=np.float64)
    for index, default in PARAMS_BY_KIND[kind].values():
        row[index] = default
    if kind in TABLED_KINDS:
        row[T_BEG:T_BEG + N_HAND_CLASSES] = -1.0
        row[T_GIVE:T_GIVE + N_HAND_CLASSES] = -1.0
    return row


def stored_row(row: np.ndarray) -> list[float]:
    """A parameter row as files store it (the equity tables' ``policy_params``): a row without a decision list of
    rules of play stops before the list's slots, as rows did before they were added, so the tables written then
    are still found."""
    return (row if row[RL_COUNT] > 0 else row[:RL_COUNT]).tolist()


def tuned_row(base: np.ndarray, beg: np.ndarray, give: np.ndarray) -> np.ndarray:
    """A tuned row: the heuristic parameters of `base` with the flag tables `beg` and `give`
    (float[33] each, per hand class code: 1 beg/give, 0 stand/run, -1 the heuristic's rule)."""
    row = np.array(base, dtype=np.float64, copy=True)
    row[T_BEG:T_BEG + N_HAND_CLASSES] = beg
    row[T_GIVE:T_GIVE + N_HAND_CLASSES] = give
    return row


def tuned_tables(kind: int, row: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (beg, give) flag tables of a row: a tuned (oracle, pimc) row's own, all -1 for a heuristic one."""
    if kind in TABLED_KINDS:
        return row[T_BEG:T_BEG + N_HAND_CLASSES].copy(), row[T_GIVE:T_GIVE + N_HAND_CLASSES].copy()
    return np.full(N_HAND_CLASSES, -1.0), np.full(N_HAND_CLASSES, -1.0)


def tuned_document(row: np.ndarray, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """The contents of tuned.json for a tuned row (classes with flag -1 are left out)."""
    tables: dict[str, dict[str, str]] = {}
    for role in ROLES:
        tables[role.name] = {class_key(c): role.options[int(row[role.table + c] > 0.5)] for c in possible_classes()
                             if row[role.table + c] >= 0}
    heuristic = {name: float(row[index]) for name, (index, _) in HEURISTIC_PARAMS.items()}
    return {"format": TUNED_FORMAT, **(extra or {}), "heuristic": heuristic, **tables}


def read_tuned(where: str) -> np.ndarray:
    """The tuned row stored in `where`/tuned.json (or the .json file `where`)."""
    if not where:
        raise PolicyError("tuned needs a run folder: tuned:RUN_DIR (written by `allfours strategy --out RUN_DIR`)")
    path = Path(where)
    file = path if path.suffix == ".json" and not path.is_dir() else path / TUNED_FILE
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PolicyError(f"tuned:{where}: no {file} (write one with `allfours strategy --out {where}`)") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise PolicyError(f"tuned:{where}: cannot read {file}: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != TUNED_FORMAT:
        raise PolicyError(f"tuned:{where}: {file} is not an {TUNED_FORMAT} file")
    row = default_row(K_TUNED)
    codes = {class_key(c): c for c in possible_classes()}
    try:
        for name, value in (doc.get("heuristic") or {}).items():
            if name not in HEURISTIC_PARAMS:
                raise PolicyError(f"tuned:{where}: unknown heuristic parameter {name!r} in {file}")
            row[HEURISTIC_PARAMS[name][0]] = float(value)
        for role in ROLES:
            for key, choice in (doc.get(role.name) or {}).items():
                if key not in codes or choice not in role.options:
                    raise PolicyError(f"tuned:{where}: bad {role.name} entry {key!r}: {choice!r} in {file}")
                row[role.table + codes[key]] = float(role.options.index(choice))
    except (AttributeError, TypeError, ValueError) as err:
        if isinstance(err, PolicyError):
            raise
        raise PolicyError(f"tuned:{where}: malformed {file}: {err}") from None
    return row


# --- the rules player's file ------------------------------------------------------------------------------


def read_rules(where: str) -> np.ndarray:
    """The heuristic's row with the decision list of `where` (a rules.json, ``scripts/fit_play_rules.py``'s, or a
    folder holding one): ``{"rules": [{"tests": [[FEATURE, OP, VALUE], ...], "action": ACTION}, ...]}``, one or
    two tests a rule (OP ``==``, ``>=`` or ``<=``; FEATURE a name of ``playrules.FEATURES``, ACTION of
    ``playrules.ACTIONS``), at most 8 rules; other keys are not read. Played by engine/rulesplayer.py."""
    from ..engine.playrules import ACTIONS, FEATURES

    if not where:
        raise PolicyError("rules needs a file: rules:FILE (a rules.json, as scripts/fit_play_rules.py writes)")
    path = Path(where)
    file = path / RULES_FILE if path.is_dir() else path
    shipped = SHIPPED_PLAY_RULES / where / CARRIED_FILE
    if not path.exists() and "/" not in where and "\\" not in where and shipped.is_file():
        file = shipped
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        names = sorted(p.parent.name for p in SHIPPED_PLAY_RULES.glob(f"*/{CARRIED_FILE}"))
        raise PolicyError(f"rules:{where}: no {file} (shipped lists: "
                          f"{', '.join(f'rules:{n}' for n in names) or 'none'})") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise PolicyError(f"rules:{where}: cannot read {file}: {err}") from None
    items = doc.get("rules") if isinstance(doc, dict) else None
    if not isinstance(items, list):
        raise PolicyError(f'rules:{where}: {file} holds no list of rules ({{"rules": [...]}})')
    if len(items) > RL_MAX:
        raise PolicyError(f"rules:{where}: {len(items)} rules in {file}; a player takes at most {RL_MAX}")
    rules = []
    for i, item in enumerate(items, 1):
        what = f"rules:{where}: rule {i} of {file}"
        tests = item.get("tests") if isinstance(item, dict) else None
        if not isinstance(tests, list) or not 1 <= len(tests) <= 2:
            raise PolicyError(f'{what}: a rule is {{"tests": [1 or 2 tests], "action": NAME}}, not {item!r}')
        coded = []
        for test in tests:
            if not isinstance(test, list) or len(test) != 3:
                raise PolicyError(f"{what}: a test is [FEATURE, OP, VALUE], not {test!r}")
            feature, op, value = test
            if feature not in FEATURES:
                raise PolicyError(f"{what}: unknown feature {feature!r}: known are {', '.join(FEATURES)}")
            if op not in RULE_OPS:
                raise PolicyError(f"{what}: bad op {op!r} in {test!r}: one of {', '.join(RULE_OPS)}")
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
                raise PolicyError(f"{what}: the value in {test!r} is not a whole number")
            coded.append((FEATURES.index(feature), RULE_OPS.index(op), int(value)))
        action = item.get("action")
        if action not in ACTIONS:
            raise PolicyError(f"{what}: unknown action {action!r}: known are {', '.join(ACTIONS)}")
        rules.append((coded, ACTIONS.index(action)))
    return set_rules(default_row(K_HEURISTIC), rules)


def policy_label(spec: str) -> str:
    """A policy spec as printed in titles: a run folder by its name only, not its path on this machine.

    >>> policy_label("tuned:/tmp/report/strategy"), policy_label("heuristic:beg_trumps=3")
    ('tuned:strategy', 'heuristic:beg_trumps=3')
    >>> policy_label("rules:results/play-rules/trinidad-4p/rules.json")
    'rules:trinidad-4p'
    """
    name, sep, rest = spec.partition(":")
    if name.strip().lower() == RULES_NAME and rest:
        path = Path(rest.strip())
        return f"{name}:{path.parent.name if path.name == RULES_FILE and path.parent.name else path.name}"
    if name.strip().lower() in ("tuned", "equilibrium") and rest:
        return f"{name}:{Path(rest.strip()).name}"
    return spec


def read_tables(where: str) -> np.ndarray:
    """The tuned row of a run folder, whichever it holds: a strategy run's tuned.json (its tables: beg or stand,
    give or run) or an equilibrium run's equilibrium.json (its probabilities); or that .json file. The search
    players bid by its tables with ``tables=RUN_DIR`` (``pimc:tables=runs/st``)."""
    path = Path(where)
    if path.suffix == ".json" and not path.is_dir():
        return read_equilibrium(where) if path.name == EQUILIBRIUM_FILE else read_tuned(where)
    if (path / TUNED_FILE).is_file():
        return read_tuned(where)
    if (path / EQUILIBRIUM_FILE).is_file():
        return read_equilibrium(where)
    raise PolicyError(f"tables={where}: no {TUNED_FILE} or {EQUILIBRIUM_FILE} there (write one with `allfours "
                      "strategy --out` or `allfours equilibrium --out`)")


def read_equilibrium(where: str) -> np.ndarray:
    """The tuned row of an equilibrium run: `where`/equilibrium.json (or that .json file); its tables hold
    P(beg) and P(give) per hand class (classes never sampled: -1, the heuristic's rule)."""
    if not where:
        raise PolicyError("equilibrium needs a run folder: equilibrium:RUN_DIR (written by `allfours equilibrium "
                          "--out RUN_DIR`)")
    path = Path(where)
    file = path if path.suffix == ".json" and not path.is_dir() else path / EQUILIBRIUM_FILE
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PolicyError(f"equilibrium:{where}: no {file} (write one with `allfours equilibrium --out "
                          f"{where}`)") from None
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise PolicyError(f"equilibrium:{where}: cannot read {file}: {err}") from None
    if not isinstance(doc, dict) or doc.get("format") != EQUILIBRIUM_FORMAT:
        raise PolicyError(f"equilibrium:{where}: {file} is not an {EQUILIBRIUM_FORMAT} file")
    if doc.get("classes") != "coarse":
        raise PolicyError(f"equilibrium:{where}: its classes are {doc.get('classes')!r}; a policy needs the hand "
                          "classes (--classes coarse)")
    row = default_row(K_TUNED)
    codes = {class_key(c): c for c in possible_classes()}
    try:
        for name, value in (doc.get("heuristic") or {}).items():
            if name not in HEURISTIC_PARAMS:
                raise PolicyError(f"equilibrium:{where}: unknown heuristic parameter {name!r} in {file}")
            row[HEURISTIC_PARAMS[name][0]] = float(value)
        for role in ROLES:
            key = f"p_{role.option1}"
            for entry in doc.get(role.name) or []:
                p = float(entry[key])
                if entry["class"] not in codes or not 0.0 <= p <= 1.0:
                    raise PolicyError(f"equilibrium:{where}: bad {role.name} entry {entry!r} in {file}")
                row[role.table + codes[entry["class"]]] = p
    except (AttributeError, KeyError, TypeError, ValueError) as err:
        if isinstance(err, PolicyError):
            raise
        raise PolicyError(f"equilibrium:{where}: malformed {file}: {err}") from None
    return row
