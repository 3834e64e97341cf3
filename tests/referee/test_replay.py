"""The project's referee (`allfours replay`) against the independent reference.

Both referees read the same lines: every line written by either generator, and
many lines with one random corruption each. They must agree on accept or reject
and on the event blamed.
"""

from __future__ import annotations

import copy
import json
import random

import pytest

from analyser.players.policy import seat_policies
from analyser.referee import LogError, referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

try:
    import reference_rules as ref
except ImportError:  # tests/ is a package
    from tests import reference_rules as ref

CONFIGS = [("classic", 2), ("classic", 3), ("classic", 4), ("trinidad", 2), ("trinidad", 4),
           ("trinidad-tobago", 4), ("partnership-seven", 4)]


def ours(obj):
    """(event index, None) on rejection, (None, points) on acceptance."""
    try:
        verdict = referee_line(obj)
    except LogError as err:
        return err.event, err.reason
    return None, verdict.points


def theirs(obj):
    try:
        result = ref.referee_line(obj)
    except ref.RefereeError as err:
        return err.event_index, err.message
    return None, result["points"]


def generated(preset, players, count, seed):
    rules = ref.full_rules(preset, players=players)
    rng = random.Random(seed)
    sides = 2 if players == 4 else players
    for _ in range(count):
        probs = rng.choice([(0.5, 0.5, 0.5), (1.0, 0.0, 0.5), (1.0, 0.0, 0.0), (0.0, 0.5, 0.5), (1.0, 0.0, 0.9)])
        score = [rng.randrange(rules["target"]) for _ in range(sides)]
        yield ref.generate_line(rules, rng.randrange(players), score, rng, *probs)


def simulated(preset, players, count, seed):
    rules = make_rules(preset, players=players)
    kinds, params = seat_policies(["random"], players)
    yield from iter_log_lines(rules, count, seed, kinds, params)


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_reference_lines_pass_our_referee(preset, players):
    for obj in generated(preset, players, 150, seed=players * 31 + len(preset)):
        index, points = ours(obj)
        assert index is None, (points, json.dumps(obj))
        stripped = dict(obj, events=[e for e in obj["events"] if e["event"] != "points"])
        assert referee_line(stripped).points == points


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_simulated_lines_pass_the_reference(preset, players):
    for obj in simulated(preset, players, 400, seed=players):
        obj = json.loads(json.dumps(obj))
        assert ref.referee_line(obj)["score_after"] == obj["score_after"]


def corruptions(obj, rng):
    """A few single-point corruptions of a valid line."""
    events = obj["events"]
    out = []
    for _ in range(6):
        bad = copy.deepcopy(obj)
        ev = bad["events"]
        k = rng.randrange(len(ev))
        e = ev[k]
        kind = rng.randrange(6)
        if kind == 0 and "card" in e:
            e["card"] = rng.choice([c for h in events[0]["hands"] for c in h])
        elif kind == 1 and "seat" in e:
            e["seat"] = (e["seat"] + 1) % bad["rules"]["players"]
        elif kind == 2 and "winner" in e:
            e["winner"] = (e["winner"] + rng.randrange(1, bad["rules"]["players"])) % bad["rules"]["players"]
        elif kind == 3 and e["event"] == "points":
            field = rng.choice(["side", "n", "why"])
            e[field] = {"side": (e["side"] + 1) % len(bad["score_before"]), "n": e["n"] + 1,
                        "why": rng.choice(["high", "low", "jack", "game", "kick"])}[field]
        elif kind == 4:
            del ev[k]
        elif kind == 5:
            ev.insert(k, copy.deepcopy(e))
        else:
            continue
        out.append(bad)
    return out


@pytest.mark.parametrize("preset,players", CONFIGS)
def test_both_referees_reject_the_same_corruptions(preset, players):
    rng = random.Random(7 * players)
    rejected = 0
    lines = list(simulated(preset, players, 40, seed=3)) + list(generated(preset, players, 40, seed=4))
    for obj in lines:
        for bad in corruptions(json.loads(json.dumps(obj)), rng):
            a, b = ours(bad), theirs(bad)
            # accept/reject agree; on rejection, the same event is blamed
            assert (a[0] is None) == (b[0] is None), (a, b, json.dumps(bad))
            if a[0] is not None and b[0] is not None and a[0] >= 0 and b[0] >= 0:
                assert a[0] == b[0], (a, b, json.dumps(bad))
            rejected += a[0] is not None
    assert rejected > 100
