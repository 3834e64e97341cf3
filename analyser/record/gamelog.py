"""Writing kernel events as ``allfours-log/1`` lines (see docs/game-log.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np

from ..game.cards import SUITS, card_name, names_of
from ..engine.layout import (
    E_BEG, E_BUNCH, E_DEAL, E_DISCARD, E_GAME_TOTALS, E_GIVE, E_HAND, E_MORE, E_PLAY, E_POINTS, E_REDEAL, E_RUN,
    E_STAND, E_TRICK, E_TRUMP, E_TURNUP, REDEAL_REASONS, WHY,
)
from ..game.rules import RuleSet

FORMAT = "allfours-log/1"


def events_to_json(rows: np.ndarray, players: int) -> list[dict[str, Any]]:
    """Kernel event rows (type, a, b, c) as the log's event objects."""
    out: list[dict[str, Any]] = []
    i = 0
    totals: list[int] = []
    while i < len(rows):
        kind, a, b, c = (int(x) for x in rows[i])
        i += 1
        if kind in (E_DEAL, E_MORE):
            hands: list[list[str]] = [[] for _ in range(players)]
            for k in range(players):  # rows carry their seat; runs deal eldest first
                hands[int(rows[i + k][1])] = names_of(int(rows[i + k][2]))
            i += players
            out.append({"event": "deal" if kind == E_DEAL else "more", "hands": hands})
        elif kind == E_TURNUP:
            out.append({"event": "turnup", "card": card_name(a)})
        elif kind in (E_STAND, E_BEG, E_GIVE, E_RUN):
            name = {E_STAND: "stand", E_BEG: "beg", E_GIVE: "give", E_RUN: "run"}[kind]
            out.append({"event": name, "seat": a})
        elif kind == E_REDEAL:
            out.append({"event": "redeal", "reason": REDEAL_REASONS[a]})
        elif kind == E_BUNCH:
            out.append({"event": "bunch", "agreed": bool(a)})
        elif kind == E_TRUMP:
            out.append({"event": "trump", "suit": SUITS[a]})
        elif kind == E_DISCARD:
            out.append({"event": "discard", "seat": a, "cards": names_of(b)})
        elif kind == E_PLAY:
            out.append({"event": "play", "seat": a, "card": card_name(b)})
        elif kind == E_TRICK:
            out.append({"event": "trick", "winner": a})
        elif kind == E_GAME_TOTALS:
            totals.append(b)
        elif kind == E_POINTS:
            event: dict[str, Any] = {"event": "points", "side": a, "n": b, "why": WHY[c]}
            if WHY[c] == "game" and totals:
                event["totals"] = totals
            out.append(event)
        elif kind == E_HAND:
            raise ValueError("hand row outside a deal or more event")
        else:
            raise ValueError(f"unknown event code {kind}")
    return out


def line_object(
    rules: RuleSet, dealer: int, score_before: list[int], events: list[dict[str, Any]],
    score_after: list[int], winner: int | None,
) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "rules": rules.as_log_dict(),
        "dealer": dealer,
        "score_before": score_before,
        "events": events,
        "score_after": score_after,
        "winner": winner,
    }


def dumps(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(", ", ": "))


def read_lines(path: str) -> Iterator[tuple[int, str]]:
    """(line number, text) for every non-blank line of a log file."""
    with open(path, encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if text.strip():
                yield number, text
