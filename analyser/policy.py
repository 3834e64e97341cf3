"""Policies by name: ``random`` or ``heuristic``, with optional parameter overrides.

A policy spec is ``NAME`` or ``NAME:key=value,key=value``, e.g. ``random:beg=0``
(the eldest always stands). The kernels see an int kind and a float64 row per seat.

>>> kind, row = parse_policy("random:beg=0.25")
>>> kind, float(row[0]), float(row[1])
(0, 0.25, 0.5)
>>> kind, row = parse_policy("heuristic:beg_trumps=3")
>>> kind, float(row[HEURISTIC_PARAMS["beg_trumps"][0]]), float(row[HEURISTIC_PARAMS["win_points"][0]])
(1, 3.0, 4.0)
"""

from __future__ import annotations

import numpy as np

from .engine.heuristic import HEURISTIC_DEFAULTS
from .engine.layout import K_HEURISTIC, K_RANDOM, N_PARAMS, P_BEG, P_BUNCH, P_GIVE, POLICY_KINDS


class PolicyError(ValueError):
    """An unknown policy name or parameter."""


# Parameter names per kind, with defaults, in the kernels' row order.
RANDOM_PARAMS: dict[str, tuple[int, float]] = {"beg": (P_BEG, 0.5), "give": (P_GIVE, 0.5), "bunch": (P_BUNCH, 0.5)}
# The heuristic's rules and defaults are documented in engine/heuristic.py; its beg, give
# and bunch default to -1 (decide by the rules), a value in [0, 1] is a fixed probability.
HEURISTIC_PARAMS: dict[str, tuple[int, float]] = dict(HEURISTIC_DEFAULTS)
PARAMS_BY_KIND: dict[int, dict[str, tuple[int, float]]] = {K_RANDOM: RANDOM_PARAMS, K_HEURISTIC: HEURISTIC_PARAMS}


def parse_policy(spec: str) -> tuple[int, np.ndarray]:
    """The kernel kind and parameter row for a policy spec."""
    name, _, rest = spec.strip().partition(":")
    name = name.strip().lower()
    if name not in POLICY_KINDS:
        raise PolicyError(f"unknown policy {spec!r}: choose one of {', '.join(POLICY_KINDS)}")
    kind = POLICY_KINDS.index(name)
    table = PARAMS_BY_KIND[kind]
    row = np.zeros(N_PARAMS, dtype=np.float64)
    for index, default in table.values():
        row[index] = default
    for item in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or key not in table:
            raise PolicyError(f"bad policy parameter {item!r} for {name}: known are {', '.join(table)}")
        try:
            row[table[key][0]] = float(value)
        except ValueError:
            raise PolicyError(f"bad value in {item!r}: expected a number") from None
    return kind, row


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
