"""What the bids and the cards said: the deals of the unseen cards weighed by how the other players chose.

Every deal of the hidden cards consistent with what a seat has seen is possible; the model of the other
players (``engine/inference.py``) says how likely each is, from the others' choices: their bids by the
equilibrium strategy of these rules (the shipped edition's ``equilibrium/``, at the deal's score where the
edition has the equilibrium at every score), their cards by the heuristic's order of preference graded by a
temperature, each with a floor so an odd choice makes a deal less likely, never impossible.

* ``--inference none``: every consistent deal alike (what the seat's choices prove: voids, must-trump);
* ``bids``: deals weighed by the bids only;
* ``full``: by the bids and every card the others played (the default).

Exact enumeration (at most ``worlds.WORLD_LIMIT`` deals) gives posterior means under the weights exactly;
sampled deals (drawn as ``--inference none`` draws them) carry importance weights, and the effective sample
size ``ess`` = (sum w)^2 / sum w^2 says how many deals the answer rests on. ``holders`` says where each unseen
card lies under the same weights.

The temperature and floors are fitted by likelihood on play the model did not generate
(``scripts/fit_inference.py``; docs/search.md).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import numpy as np

from ...engine.bits import rng_state
from ...engine.inference import LEVEL_BIDS, LEVEL_FULL, MODEL_BID_FLOOR, MODEL_CARD_FLOOR, MODEL_TEMPERATURE
from ...engine.worlds import world_log_weights
from ...engine.layout import K_HEURISTIC, N_STATE, PS_PLAYERS, T_BEG, T_GIVE
from ...engine.search import (
    BID_GIVEN, BID_STOOD, BID_UNKNOWN, SB_BID, SB_BID_SCORES, SB_BID_TURNUP, SB_HIST, SB_HIST_N, new_play_buffer,
    unseen_by,
)
from ...engine.evaluator import class_key, possible_classes
from ...players.policy import default_row, read_equilibrium
from ...game.rules import RuleSet

INFERENCES = ("none", "bids", "full")
LEVELS = {"bids": LEVEL_BIDS, "full": LEVEL_FULL}
DEFAULT_INFERENCE = "full"
# The model's grades (engine/inference.py, where pimc:model=full reads them too): fitted by likelihood.
TEMPERATURE = MODEL_TEMPERATURE
CARD_FLOOR = MODEL_CARD_FLOOR
BID_FLOOR = MODEL_BID_FLOOR
RESULTS = Path(__file__).resolve().parents[3] / "results"
FEW_WORLDS = 30.0  # an effective sample size below this is said in the answer: few deals carry it


@dataclasses.dataclass(frozen=True)
class Model:
    """The model of the other players: the strategy row their bids are read by (`strategy` names it), the
    heuristic's card rules in the same row, the cards' temperature and the floors."""

    strategy: str
    params: np.ndarray
    temperature: float = TEMPERATURE
    card_floor: float = CARD_FLOOR
    bid_floor: float = BID_FLOOR

    def to_json(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "temperature": self.temperature, "card_floor": self.card_floor,
                "bid_floor": self.bid_floor}


@dataclasses.dataclass(frozen=True)
class Evidence:
    """What the seat saw the others choose this deal: every card played, in order, and the bidding
    (``search.BID_*``: BID_UNKNOWN when runs dealt more cards, or nothing was bid), on which turn-up and scores
    (by side, as the deal began)."""

    history: tuple[int, ...]
    bid: int = BID_UNKNOWN
    turnup: int = 0
    scores: tuple[int, ...] = ()

    @staticmethod
    def of_bids(history: list[int] | tuple[int, ...], begged: bool | None, gave: bool | None, runs: int,
                turnup: int, scores: tuple[int, ...] | list[int]) -> Evidence:
        """The evidence of a deal: `begged` None where the eldest was not asked (a void deal); a run (`runs` > 0)
        dealt more cards, so the bids say nothing of the hands in play."""
        if begged is None or runs > 0:
            bid = BID_UNKNOWN
        elif not begged:
            bid = BID_STOOD
        else:
            bid = BID_GIVEN if gave else BID_UNKNOWN
        return Evidence(tuple(int(c) for c in history), bid, int(turnup), tuple(int(s) for s in scores))


def evidence_of_line(found: Any, k: int) -> tuple[Evidence, tuple[int, int] | None]:
    """The evidence of the k-th card decision of a refereed line (``logcuts.line_decisions``: `found`), and the
    deal's score as (eldest's side, dealer's side) for ``model_for`` (None without two sides): every card played
    before it, in order, and the deal's bids (its last stand or beg, and the dealer's answer)."""
    plays = found.plays
    history = [int(p.chosen) for p in plays[:k]]
    start = plays[0].event if plays else found.events
    bids = [b for b in found.bids if b.event < start and b.chosen is not None]
    eldest = [i for i, b in enumerate(bids) if b.role == "eldest"]
    if not eldest:
        return Evidence(tuple(history)), None
    first = bids[eldest[-1]]
    answer = next((b for b in bids[eldest[-1] + 1:] if b.role == "dealer"), None)
    gave = answer is not None and answer.chosen == "give"
    ran = answer is not None and answer.chosen == "run"
    evidence = Evidence.of_bids(history, first.chosen == "beg", gave, int(ran), first.turnup, first.score)
    rules = found.rules
    score = None
    if rules.sides == 2:
        e_side = rules.side_of(first.seat)
        score = (int(first.score[e_side]), int(first.score[1 - e_side]))
    return evidence, score


def weighted_worlds(rules: RuleSet, state: np.ndarray, seat: int, evidence: Evidence, model: Model | None,
                    inference: str, worlds: int, seed: int, limit: int | None = None
                    ) -> tuple[np.ndarray, np.ndarray, bool]:
    """The deals of the cards `seat` has not seen, without solving them: every consistent one when at most
    `limit` (default ``worlds.WORLD_LIMIT``), else `worlds` drawn uniformly (``worlds.sample_worlds``, seed
    `seed`); with their weights under `model` (summing to 1; alike for ``none``). Returns (hands by seat,
    weights, exact) for ``holders`` and the like."""
    from ...engine.worlds import WORLD_LIMIT, consistent_worlds, sample_worlds

    found = consistent_worlds(state, seat, WORLD_LIMIT if limit is None else limit)
    exact = found.hands is not None
    hands = found.hands if found.hands is not None else sample_worlds(state, seat, worlds, seed)
    if inference == "none" or model is None:
        return hands, np.full(hands.shape[0], 1.0 / max(1, hands.shape[0])), exact
    return hands, normalised(log_weights(rules, state, seat, hands, model, inference, evidence)), exact


def edition_folder(rules: RuleSet, results: Path = RESULTS) -> Path | None:
    """The shipped edition whose equilibrium is for exactly these rules, or None."""
    from ..bidding.shipped import edition

    return edition(rules, results)


def model_for(rules: RuleSet, strategy: Path | str | None = None, score: tuple[int, int] | None = None,
              results: Path = RESULTS) -> Model:
    """The model for these rules: bids by `strategy` (an equilibrium run folder; default the shipped edition's
    equilibrium, at `score` = (eldest's side, dealer's side) where the edition has every score), else by the
    heuristic's rules."""
    if strategy is not None:
        return Model(f"equilibrium:{strategy}", read_equilibrium(str(strategy)))
    folder = edition_folder(rules, results)
    if folder is None:
        return Model("heuristic", default_row(K_HEURISTIC))
    row = read_equilibrium(str(folder / "equilibrium"))
    name = f"equilibrium:{folder.relative_to(folder.parent.parent)}/equilibrium"
    if score is not None and tuple(score) != (0, 0):
        at = _score_tables(folder, (int(score[0]), int(score[1])))
        if at:
            codes = {class_key(c): c for c in possible_classes()}
            for (role, key), p in at.items():
                row[(T_BEG if role == "eldest" else T_GIVE) + codes[key]] = p
            name += f" at {score[0]}:{score[1]}"
    return Model(name, row)


def _score_tables(folder: Path, score: tuple[int, int]) -> dict[tuple[str, str], float]:
    from ..bidding.shipped import _by_score

    table = _by_score(folder / "equilibrium-scores" / "scores.csv")
    return {(role, key): p for (e, d, role, key), p in table.items() if (e, d) == score}


def evidence_buffer(state: np.ndarray, evidence: Evidence) -> np.ndarray:
    """A play buffer with the search area holding `state`, the deal's cards in order and its bidding."""
    buf = new_play_buffer(True)
    buf[:N_STATE] = state[:N_STATE]
    buf[SB_HIST_N] = len(evidence.history)
    for i, c in enumerate(evidence.history):
        buf[SB_HIST + i] = c
    buf[SB_BID] = evidence.bid
    buf[SB_BID_TURNUP] = evidence.turnup
    for s, x in enumerate(evidence.scores[:4]):
        buf[SB_BID_SCORES + s] = x
    return buf


def log_weights(rules: RuleSet, state: np.ndarray, seat: int, hands: np.ndarray, model: Model, inference: str,
                evidence: Evidence) -> np.ndarray:
    """The log-likelihood of the others' choices in each deal of `hands` (rows of hand masks by seat, as
    ``worlds.consistent_worlds`` lists them); all zero for ``none``."""
    if inference not in INFERENCES:
        raise ValueError(f"inference must be one of {', '.join(INFERENCES)}, not {inference!r}")
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.zeros(hands.shape[0], dtype=np.float64)
    if inference == "none" or hands.shape[0] == 0:
        return out
    players = int(state[PS_PLAYERS])
    rows = np.zeros((hands.shape[0], 4), dtype=np.int64)
    rows[:, :players] = hands.view(np.int64)
    buf = evidence_buffer(state, evidence)
    rng = rng_state(np.random.SeedSequence(0))  # the model draws nothing: its probabilities are read, not drawn
    world = np.zeros(N_STATE, dtype=np.int64)
    world_log_weights(buf, seat, model.params, rules.as_array(), rng, rows, out, world, LEVELS[inference], model.temperature,
                      model.card_floor, model.bid_floor)
    return out


def normalised(logw: np.ndarray) -> np.ndarray:
    """Weights summing to 1 from log-weights."""
    logw = np.asarray(logw, dtype=np.float64)
    if logw.size == 0:
        return logw
    w = np.exp(logw - logw.max())
    return w / w.sum()


def effective_size(weights: np.ndarray) -> float:
    """Kish's effective sample size (sum w)^2 / sum w^2: as many deals, drawn without weights, would be as precise."""
    w = np.asarray(weights, dtype=np.float64)
    total = float(w.sum())
    return 0.0 if total <= 0 else total * total / float((w * w).sum())


def holders(state: np.ndarray, seat: int, hands: np.ndarray, weights: np.ndarray) -> dict[int, dict[str, float]]:
    """Where each card `seat` has not seen lies under `weights` (summing to 1, one a deal of `hands`): card ->
    {"0": p, "1": p, ..., "out": p} (seat numbers as strings; "out": in no hand), each summing to 1; the seat's
    own key is left out (it holds none of them)."""
    hands = np.asarray(hands, dtype=np.uint64)
    w = np.asarray(weights, dtype=np.float64)
    players = int(state[PS_PLAYERS])
    unseen = int(np.uint64(unseen_by(state, seat)))
    out: dict[int, dict[str, float]] = {}
    cards = [c for c in range(52) if unseen >> c & 1]
    if not cards:
        return out
    bits = np.array([1 << c for c in cards], dtype=np.uint64)
    held = np.zeros((len(cards), players), dtype=np.float64)
    for s in range(players):
        if s == seat:
            continue
        has = (hands[:, s][:, None] & bits[None, :]) != 0  # deals x cards
        held[:, s] = w @ has
    for i, c in enumerate(cards):
        row = {str(s): float(held[i, s]) for s in range(players) if s != seat}
        row["out"] = max(0.0, 1.0 - sum(row.values()))
        out[c] = row
    return out


def weight_note(ess: float, deals: int) -> str | None:
    """A sentence when few deals carry a weighted answer, else None."""
    if deals > 0 and ess < min(FEW_WORLDS, deals / 2):
        return (f"the others' choices make a few deals far likelier than the rest: the answer rests on about "
                f"{ess:.0f} of the {deals:,} deals")
    return None

