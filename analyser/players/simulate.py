"""Playing deals as matches: seeded chunks, and the event log of every deal.

A run of N deals is cut into chunks of ``CHUNK_DEALS`` deals; chunk k draws its
random stream from ``SeedSequence(seed).spawn(...)[k]`` and starts a fresh match,
so a seed gives the same deals however many threads or machines play the chunks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..engine.bits import rng_state
from ..engine.deal import MAX_LINE_EVENTS, N_STATS, new_match_state, simulate_lines
from ..engine.layout import (
    LM_DEALER, LM_END_EVENT, LM_FIRST_EVENT, LM_OVERFLOW, LM_SCORE_AFTER, LM_SCORE_BEFORE, LM_WINNER, N_EV_COLS,
    N_LINE_META,
)
from ..record.gamelog import events_to_json, line_object
from ..game.rules import RuleSet

CHUNK_DEALS = 250_000
LOG_BATCH = 512  # lines recorded per kernel call when writing a log
NO_EVENTS = np.zeros((0, N_EV_COLS), dtype=np.int64)  # simulate_lines without a log: no event rows,
NO_META = np.zeros((0, N_LINE_META), dtype=np.int64)  # no per-line rows


def chunk_sizes(deals: int, chunk: int = CHUNK_DEALS) -> list[int]:
    """Deals in each chunk of a run (all full but the last)."""
    full, rest = divmod(deals, chunk)
    return [chunk] * full + ([rest] if rest else [])


def chunk_rngs(seed: int, index: int) -> tuple[np.ndarray, np.ndarray]:
    """The two random states (cards, players' choices) of chunk `index` of a run."""
    # Exactly SeedSequence(seed).spawn(index + 1)[index], without spawning the others.
    cards, choices = np.random.SeedSequence(seed, spawn_key=(index,)).spawn(2)
    return rng_state(cards), rng_state(choices)


def iter_log_lines(
    rules: RuleSet, deals: int, seed: int, kinds: np.ndarray, params: np.ndarray, chunk: int = CHUNK_DEALS
) -> Iterator[dict[str, Any]]:
    """Every deal of a run as an ``allfours-log/1`` object, in order."""
    rules_array = rules.as_array()
    sides = rules.sides
    ev = np.zeros((LOG_BATCH * 64 + MAX_LINE_EVENTS, N_EV_COLS), dtype=np.int64)
    meta = np.zeros((LOG_BATCH, N_LINE_META), dtype=np.int64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    for index, size in enumerate(chunk_sizes(deals, chunk)):
        deck_rng, rng = chunk_rngs(seed, index)
        mstate = new_match_state(rules.players)
        left = size
        while left:
            done = simulate_lines(rules_array, min(left, LOG_BATCH), mstate, kinds, params, deck_rng, rng, ev, meta, stats)
            left -= done
            for row in meta[:done]:
                if row[LM_OVERFLOW]:
                    raise RuntimeError("a deal needed more events than the buffer holds")
                winner = int(row[LM_WINNER])
                yield line_object(
                    rules,
                    int(row[LM_DEALER]),
                    [int(x) for x in row[LM_SCORE_BEFORE : LM_SCORE_BEFORE + sides]],
                    events_to_json(ev[row[LM_FIRST_EVENT] : row[LM_END_EVENT]], rules.players),
                    [int(x) for x in row[LM_SCORE_AFTER : LM_SCORE_AFTER + sides]],
                    None if winner < 0 else winner,
                )
