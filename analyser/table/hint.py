"""Which card now, or which bid, from what one seat knows: the hint.

A hint reads a *seat's view* of the deal so far (``allfours-log/1`` with ``??`` for every card
the seat has not seen; a full log is first turned into the view of the seat asked for, and the
one-line form of ``allfours hint`` builds the same view: ``entry.entry_line``), so the three ways
in give the same answer with the same seed.

* **A card** (``card_hint``): the seat's knowledge becomes a play state (``view_state``: its own
  hand, the turn-ups, its discards, every card played and by whom, so every void the others
  showed). The hidden cards are then dealt to the other seats in every way consistent with that
  (``engine.worlds``): when there are at most ``WORLD_LIMIT`` such deals, all of them (the values
  are exact means over them), otherwise `worlds` of them drawn at
  random (``engine.search.sample_world``). Each deal is solved with every hand open, and every
  legal card valued on the same deals: the difference of two cards is paired deal by deal. With
  more than 24 cards in the hands (a trinidad deal after runs) a deal the solver does not finish
  within its node budget is valued by the bounded search (``cardvalues.py``, ``engine/bounded.py``:
  the heuristic's play down to 24 cards, the solver after), and the answer says so.
* **A bid** (stand/beg, give/run): the paired rollouts of ``whatif --hand`` from the seat's hand,
  the turn-up and the score as the deal began.

Inference (``analysis/play/inference.py``): by default (``--inference full``) each consistent deal is weighed
by how likely the others' bids and cards make it (the model of the other players: the equilibrium's bids, the
heuristic's preferences graded by a temperature, each with a floor); ``bids`` reads the bids only, ``none``
weighs every consistent deal alike (the bids and plays read only for what they prove). The same model says
where the unseen cards lie (``holders``): over every consistent deal when they are listed, else over
HOLDER_WORLDS deals drawn for it (no solving needed, so many more than the values are solved on).
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np

from ..analysis.bidding.equity import EquityTable
from ..analysis.bidding.whatif import Situation
from ..analysis.play.cardvalues import BOUNDED, Buffers, CardValues, card_values, exact_card_values
from ..analysis.play.inference import (
    DEFAULT_INFERENCE, INFERENCES, Evidence, Model, holders, log_weights, model_for, normalised, weight_note,
    weighted_worlds,
)
from ..analysis.stats import Estimate
from ..game.cards import SUIT_SYMBOLS, card_name, rank_of, suit_of
from ..record.seats import seat_word
from ..engine.bits import rng_state
from ..engine.layout import N_STATE, PS_TRUMP
from ..engine.search import cards_in_hands
from ..engine.state import apply, init_state, set_out_of_play
from ..engine.worlds import WORLD_LIMIT, consistent_worlds, world_states
from ..game.errors import AllFoursError
from ..referee.views import view_of, view_seat
from ..game.rules import RuleSet
from ..players.solve import Position
from .entry import Built, Entry, build, entry_from_line

# Worlds sampled for a card when the consistent deals are too many to list. A 6-card 4-player first
# lead answers in about 2 s warm on one core with this many (scripts/hint_bench.py).
HINT_WORLDS = 300
HINT_MAX_CARDS = 52     # cards in the hands above which a card hint is refused (52: none; above 24, bounded)
HINT_STREAM = 29        # the hint's own random stream: SeedSequence(seed, spawn_key=(HINT_STREAM,))
# Where the unseen cards lie, when the deals are sampled: from this many drawn (``inference.weighted_worlds``: no
# solving, milliseconds), under the values' model; the 300 solved deals alone leave the weights too noisy
# (scripts/holders_calibration.py, docs/search.md). Every consistent deal when they can be listed.
HOLDER_WORLDS = 2000
HOLDER_STREAM = 30
RANK_WORDS = "23456789TJQKA"


class HintError(AllFoursError):
    """A position a hint cannot answer: nobody's decision, another seat's, too many cards."""


def pretty(card: int) -> str:
    """A card as a player reads it: ``J♣``, ``10♥``.

    >>> pretty(9 + 13 * 3), pretty(8 + 13)
    ('J♣', '10♥')
    """
    rank = RANK_WORDS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]


@dataclasses.dataclass
class Decision:
    """The decision due in a seat's view: `kind` "bid" (`role` eldest or dealer) or "card"."""

    view: dict[str, Any]
    seat: int
    kind: str
    role: str | None
    entry: Entry
    built: Built

    @property
    def rules(self) -> RuleSet:
        return self.entry.rules


def decision_of(line: dict[str, Any], seat: int | None = None) -> Decision:
    """The decision due where `line` stops, seen by `seat`: a full log is turned into `seat`'s view (default:
    the seat to act); a view is its own seat's (`seat`, if given, must be that seat). The seat must be the one
    whose decision is due."""
    shown = view_seat(line)
    if shown is None:  # a full log: every hand shown
        if seat is None:
            built = build(entry_from_line(line)[0])
            if not built.due.decision:
                raise HintError(f"the line stops where no decision is due: {built.due.text}")
            seat = int(built.due.seat)  # type: ignore[arg-type]
        view = view_of(line, seat)
    else:
        if seat is not None and seat != shown:
            raise HintError(f"--seat {seat}: the line is seat {shown}'s view")
        seat, view = shown, line
    entry, _ = entry_from_line(view)
    built = build(entry)
    due = built.due
    if not due.decision:
        raise HintError(f"the line stops where no decision is due: {due.text}")
    if due.seat != seat:
        doing = "play" if due.kind == "card" else f"bid (the {due.role})"
        raise HintError(f"seat {due.seat} is to {doing} where the line stops, not seat {seat}")
    return Decision(view, seat, due.kind, due.role, entry, built)


# --- a card ------------------------------------------------------------------------------------------------------


def view_state(decision: Decision) -> Position:
    """The play state of a card decision as its seat knows it: its own hand, the turn-ups, its discards and every
    card played, by whom. The other hands hold the cards they played and, for the rest, unseen cards in no
    particular way: every use of the state deals those again (``sample_world``, ``consistent_worlds``)."""
    entry, built, seat = decision.entry, decision.built, decision.seat
    rules = entry.rules
    n = rules.players
    walk = built.walk
    assert walk is not None and built.trump is not None  # a card decision is in trick play
    own = set(entry.hands[seat]) - set(entry.discards.get(seat, []))
    played: dict[int, set[int]] = {s: set() for s in range(n)}
    for s, c in zip(walk.seats, walk.cards):
        played[s].add(c)
    seen = own | set(walk.cards) | set(entry.turnups) | set(entry.discards.get(seat, []))
    pool = [c for c in range(52) if c not in seen]
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(n):
        cards = own if s == seat else set(played[s])
        if s != seat:
            while len(cards) < built.hand_size:
                cards.add(pool.pop())
        hands[s] = np.uint64(sum(1 << c for c in cards))
    scores = np.zeros(4, dtype=np.int64)
    scores[:rules.sides] = built.score[:rules.sides]
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, built.trump, entry.turnups[-1], entry.dealer, scores)
    discards = np.zeros(4, dtype=np.uint64)
    discards[seat] = np.uint64(sum(1 << c for c in entry.discards.get(seat, [])))
    set_out_of_play(state, np.uint64(sum(1 << c for c in entry.turnups)), discards)
    for c in walk.cards:
        apply(state, c)
    return Position(rules, state)


def evidence_of(decision: Decision) -> Evidence:
    """What the decision's seat saw the others choose this deal: the cards played, in order, and the bids (which
    say nothing of the hands in play once a run dealt more cards)."""
    entry, walk = decision.entry, decision.built.walk
    assert walk is not None
    bids = list(entry.bids)
    begged = None if not bids else bids[0] == "beg"
    gave = len(bids) > 1 and bids[1] == "give"
    return Evidence.of_bids(list(walk.cards), begged, gave, len(entry.turnups) - 1, entry.turnups[0],
                            deal_score(decision))


def decision_model(decision: Decision, strategy: Any = None) -> Model:
    """The model of the other players for this deal: its bids by the equilibrium run `strategy`, default the shipped
    equilibrium at the deal's score (eldest's side first) where the rules have an edition."""
    rules, entry = decision.rules, decision.entry
    if strategy is not None:
        return model_for(rules, strategy=strategy)
    by_side = deal_score(decision)
    score = None
    if rules.sides == 2:
        eldest_side = rules.side_of(entry.eldest)
        score = (by_side[eldest_side], by_side[1 - eldest_side])
    return model_for(rules, score=score)


@dataclasses.dataclass
class CardHint:
    values: CardValues
    exact: bool
    inference: str
    seed: int
    model: Model | None = None
    holder_deals: tuple[np.ndarray, np.ndarray] | None = None  # (hands, weights) for holders; None: the values'

    @property
    def position(self) -> Position:
        return self.values.position

    def ranked(self) -> list[int]:
        """Card indices, best first (ties in hand order)."""
        means = self.values.means()
        return sorted(range(len(self.values.cards)), key=lambda j: (-means[j], j))

    def holders(self) -> dict[int, dict[str, float]]:
        """Where each card the seat has not seen lies, under the deals' weights (``inference.holders``)."""
        v = self.values
        if self.holder_deals is not None:
            return holders(self.position.state, v.seat, *self.holder_deals)
        assert v.hands is not None
        rows = v.values.shape[0]
        w = v.weights if v.weights is not None else np.full(rows, 1.0 / rows)
        return holders(self.position.state, v.seat, v.hands, w)

    def to_json(self) -> dict[str, Any]:
        v = self.values
        cards = v.to_json()
        for j, name in enumerate(v.names):
            loss = v.loss(v.cards[j])
            cards[name].update(loss=loss.mean, loss_ci95=list(loss.ci95), loss_se=loss.se)
            wl = v.win_loss(v.cards[j])
            if wl is not None:
                cards[name].update(win_loss=wl.mean, win_loss_ci95=list(wl.ci95))
        return {"kind": "card", "seat": v.seat, "side": self.position.side, "cards": cards,
                "best": card_name(v.best), "worlds": int(v.values.shape[0]), "exact": self.exact,
                "method": v.method, "worlds_solved": int(v.values.shape[0] if v.exact_worlds is None
                                                         else v.exact_worlds),
                "inference": self.inference, "model": None if self.model is None else self.model.to_json(),
                "ess": v.ess, "holders": {card_name(c): p for c, p in self.holders().items()},
                "cards_left": int(cards_in_hands(self.position.state)),
                "win_prob": v.win is not None, "seed": self.seed, "rules": self.position.rules.as_log_dict()}


def card_hint(decision: Decision, worlds: int = HINT_WORLDS, seed: int = 1, equity: EquityTable | None = None,
              max_cards: int = HINT_MAX_CARDS, limit: int = WORLD_LIMIT, buffers: Buffers | None = None,
              inference: str = DEFAULT_INFERENCE, model: Model | None = None) -> CardHint:
    """Every legal card of the decision valued over the consistent deals (all of them when at most `limit`), each
    weighed by how likely the others' choices make it (`inference`: none, bids or full; `model` default the
    deal's, ``decision_model``)."""
    if inference not in INFERENCES:
        raise HintError(f"--inference {inference!r}: choose one of {', '.join(INFERENCES)}")
    position = view_state(decision)
    left = int(cards_in_hands(position.state))
    if left > max_cards:
        raise HintError(f"{left} cards are left in the hands, more than --max-cards {max_cards} (raise --max-cards "
                        "to answer: above 24 cards the bounded search values the deals the solver cannot finish)")
    found = consistent_worlds(position.state, decision.seat, limit)
    if found.hands is not None:
        states = world_states(position.state, decision.seat, found.hands)
        values = exact_card_values(position, states, equity, buffers)
        exact = True
    else:
        rng = rng_state(np.random.SeedSequence(seed, spawn_key=(HINT_STREAM,)))
        values = card_values(position, worlds, rng, equity, buffers)
        exact = False
    model = None if inference == "none" else (model if model is not None else decision_model(decision))
    evidence = evidence_of(decision)
    drawn = None
    if not exact:  # where the cards lie needs no solving: more deals, drawn uniformly, under the same model
        stream = int(np.random.SeedSequence(seed, spawn_key=(HOLDER_STREAM,)).generate_state(1)[0])
        hands, weights, _ = weighted_worlds(decision.rules, position.state, decision.seat, evidence, model,
                                            inference, HOLDER_WORLDS, stream)
        drawn = (hands, weights)
    if model is None:
        return CardHint(values, exact, inference, seed, None, drawn)
    assert values.hands is not None
    logw = log_weights(decision.rules, position.state, decision.seat, values.hands, model, inference, evidence)
    return CardHint(values.weighted(normalised(logw)), exact, inference, seed, model, drawn)


# --- a bid -------------------------------------------------------------------------------------------------------


def deal_score(decision: Decision) -> list[int]:
    """The score by side as the deal began (the points of void deals earlier in the line included)."""
    entry, built = decision.entry, decision.built
    by_side = list(entry.score_before)
    earlier = built.points[:len(built.points) - built.new_points]
    for side, n, _ in earlier:
        by_side[side] += n
    return by_side


def bid_situation(decision: Decision) -> Situation:
    """The what-if's view of a bid: the seat's six cards, the turn-up and the score as the deal began, its side
    first (the points of void deals earlier in the line included; the turn-up's kick is the rollout's)."""
    entry = decision.entry
    rules = entry.rules
    by_side = deal_score(decision)
    role = decision.role or "eldest"
    decider = entry.eldest if role == "eldest" else entry.dealer
    score: tuple[int, ...]
    if rules.sides == 2:
        mine = rules.side_of(decider)
        score = (by_side[mine], by_side[1 - mine])
    else:
        score = tuple(by_side[(decider + k) % rules.players] for k in range(rules.players))
    return Situation(rules, role, tuple(entry.hands[decision.seat][:6]), entry.turnups[0],
                     tuple(int(x) for x in score))


# --- words -------------------------------------------------------------------------------------------------------


def who_is_who(rules: RuleSet, seat: int) -> str:
    """Which seat is the player's, who is partner, left and right, and which way play goes, in one line (seats
    are numbered in play order: the seat after yours plays after you, and sits on your left); the words of
    ``play``, ``record`` and ``replay --show``.

    >>> from analyser.game.rules import make_rules
    >>> who_is_who(make_rules("trinidad"), 0)
    'you are seat 0, play passes to your left: seat 1, on your left, plays after you; seat 2, opposite, is your partner; seat 3, on your right, plays before you'
    >>> who_is_who(make_rules("classic", 3), 2)
    'you are seat 2, play passes to your left: seat 0, on your left, plays after you; seat 1, on your right, plays before you (no partners: each seat scores alone)'
    >>> who_is_who(make_rules("classic", 2), 1)
    'you are seat 1; seat 0, opposite, plays after you (no partners: each of you scores alone)'
    """
    from ..record.seats import seating_text

    return seating_text(rules.players, seat)


def seat_score_words(rules: RuleSet, by_side: list[int] | tuple[int, ...], seat: int) -> str:
    """The score named by side from `seat`'s chair, and the target: ``your side 6, theirs 11 (to 14)``."""
    from ..analysis.bidding.whatif import score_words

    return f"{score_words(rules, [int(x) for x in by_side], seat)} (to {rules.target})"


def _ci(e: Estimate) -> str:
    lo, hi = e.ci95
    return f"95% CI {lo:.2f} to {hi:.2f}"


def card_sentence(hint: CardHint) -> str:
    """The answer in a player's words: the card, by how much it beats the next best, and how sure that is."""
    v = hint.values
    order = hint.ranked()
    best = v.cards[order[0]]
    if len(order) == 1:
        return f"Play {pretty(best)}: it is your only legal card."
    second = v.cards[order[1]]
    gap = v.loss(second)
    over = (f"over all {v.values.shape[0]:,} deals of the unseen cards that fit what you have seen" if hint.exact
            else f"over {v.values.shape[0]:,} sampled deals of the unseen cards")
    if hint.inference != "none":
        over += f", each weighed by how likely the others' {WEIGHED_BY[hint.inference]} make it"
        few = None if hint.exact else weight_note(v.ess, v.values.shape[0])
        if few:
            over += f" ({few})"
    if v.method == BOUNDED:
        over += f" (bounded search: {cards_in_hands(hint.position.state)} cards in the hands)"
    if hint.exact:
        if gap.mean == 0:
            return f"Play {pretty(best)} or {pretty(second)}: they are worth the same, {over}."
        return f"Play {pretty(best)}: exactly {gap.mean:.2f} points better than {pretty(second)}, the next best, {over}."
    lo, hi = gap.ci95
    if gap.mean == 0 and gap.se == 0:
        return f"Play {pretty(best)} or {pretty(second)}: they are worth the same in every one of the {over[5:]}."
    if lo <= 0 <= hi or not math.isfinite(lo):
        return (f"Too close to call between {pretty(best)} and {pretty(second)}: {pretty(best)} is "
                f"{gap.mean:.2f} points ahead on average ({_ci(gap)}), {over}.")
    return (f"Play {pretty(best)}: on average {gap.mean:.2f} points better than {pretty(second)}, the next best "
            f"({_ci(gap)}), {over}.")


WEIGHED_BY = {"bids": "bids", "full": "bids and cards"}


def deciding_cards(trump: int) -> list[int]:
    """The cards that decide a deal, in the order the hint names them: trump's ace, king, queen, jack and ten, then
    each side suit's ten."""
    return [13 * trump + r for r in (12, 11, 10, 9, 8)] + [13 * s + 8 for s in range(4) if s != trump]


def cards_where_text(hint: CardHint) -> str:
    """Where the deciding cards the seat has not seen lie, in a line or two: ``J♥: left 61%, partner 27%, right
    12%``, under the same model as the values (``CardHint.holders``)."""
    from ..analysis.stats import probability

    rules, seat = hint.position.rules, hint.values.seat
    found = hint.holders()
    trump = int(hint.position.state[PS_TRUMP])
    parts = []
    for card in deciding_cards(trump):
        if card not in found:
            continue
        row = found[card]
        said = [f"{seat_word(rules.players, seat, int(k))} {probability(p)}" for k, p in row.items()
                if k != "out" and p > 0]
        if row["out"] > 0:
            said.append(f"out of play {probability(row['out'])}")
        parts.append((card, f"{pretty(card)}: {', '.join(said)}"))
    if not parts:
        return "Where the cards are: you have seen every trump honour and every ten."
    trumps = [text for card, text in parts if suit_of(card) == trump]
    tens = [text for card, text in parts if suit_of(card) != trump]
    lines = []
    if trumps:
        lines.append("Where the cards are: " + "; ".join(trumps))
    if tens:
        lines.append(("Where the cards are: " if not trumps else "  tens: ") + "; ".join(tens))
    return "\n".join(lines)


def where_text(decision: Decision) -> str:
    """Where the decision is, in a line: the trick, the cards in it so far, the seat's hand, trump."""
    walk, seat = decision.built.walk, decision.seat
    assert walk is not None and decision.built.trump is not None
    trick = walk.trick
    so_far = ", ".join(f"seat {trick.seat(k, walk.n)} {pretty(c)}" for k, c in enumerate(trick.cards))
    own = set(decision.entry.hands[seat]) - set(decision.entry.discards.get(seat, [])) - set(walk.cards)
    hand = " ".join(pretty(c) for c in sorted(own, key=lambda c: (suit_of(c), -c)))
    rules = decision.rules
    return (f"seat {seat} to play to trick {walk.number}" + (f" after {so_far}" if so_far else ", leading")
            + f"; holds {hand}; trump {SUIT_SYMBOLS[decision.built.trump]}; score as play began: "
            + seat_score_words(rules, decision.built.score[:rules.sides], seat) + "\n" + who_is_who(rules, seat))


def _interval(e: Estimate) -> str:
    lo, hi = e.ci95
    return f"[{lo:+.2f}, {hi:+.2f}]"


def card_text(hint: CardHint, explain: bool = False, where: str | None = None) -> str:
    """The card hint as text: the sentence, where the decision is, then every legal card, best first."""
    v = hint.values
    rules = hint.position.rules
    win = v.win is not None
    lines = [card_sentence(hint)] + ([where] if where else []) + [cards_where_text(hint), "",
             f"{'card':<6}{'net points':>11}  {'95% CI':<16}{'loss':>6}  {'95% CI':<16}"
             + (f"{'match win':>10}  95% CI" if win else "")]
    for j in hint.ranked():
        ev, loss = v.ev(j), v.loss(v.cards[j])
        best = j == v.best_index
        row = (f"{pretty(v.cards[j]):<6}{ev.mean:>+11.2f}  {_interval(ev):<16}"
               + (f"{'best':>6}  {'':<16}" if best else f"{loss.mean:>6.2f}  {_interval(loss):<16}"))
        if win:
            wp = v.win_prob(j)
            assert wp is not None
            lo, hi = wp.clipped_ci95(0.0, 1.0)
            row += f"{100 * wp.mean:>9.1f}%  [{100 * lo:.1f}%, {100 * hi:.1f}%]"
        lines.append(row.rstrip())
    whose = "your side's points minus the other side's" if rules.sides == 2 else (
        "your points minus the other two players' together")
    lines += ["", f"net points: High, Low, Jack and Game of this deal, {whose}; loss: what the card gives up against "
                  "the best one, deal by deal" + ("; match win: your side's chance to win the match" if win else "")]
    if explain:
        how = (f"all {v.values.shape[0]:,} ways the cards you have not seen can lie, given what you have seen (the "
               "cards played and by whom, the suits each player has shown it lacks, the turn-ups and your "
               "discards)" if hint.exact else
               f"{v.values.shape[0]:,} deals of the cards you have not seen, drawn at random among those that fit "
               f"what you have seen (more than {WORLD_LIMIT:,} fit), seed {hint.seed}")
        if hint.model is None:
            weighed = ("each weighed alike: the bids and the others' choices are read only for what they prove "
                       "(--inference none), not for what they suggest")
        else:
            m = hint.model
            weighed = (f"each weighed by how likely the others' {WEIGHED_BY[hint.inference]} make it "
                       f"(--inference {hint.inference}): their bids read by {m.strategy}"
                       + (f", their cards by the heuristic's order of preference, graded (temperature "
                          f"{m.temperature:g}) with room for surprise (floor {m.card_floor:g})"
                          if hint.inference == "full" else "")
                       + f"; the answer rests on about {v.ess:,.0f} deals' worth of weight")
        lines += ["", "How this was computed:",
                  f"- the deals: {how}, {weighed};",
                  ("- each deal is solved with every hand open (perfect play by everyone from here on), and every "
                   "legal card is valued on the same deals;" if v.method != BOUNDED else
                   f"- too many cards to solve every deal whole: {v.method_note()} (every seat plays the heuristic's "
                   "card for the next tricks, then perfectly with every hand open); every legal card is valued on "
                   "the same deals;"),
                  "- the 95% CIs are " + ("zero-width: the means are exact over every deal that fits" if hint.exact
                                          else "the sampling error of the deals drawn (from the effective number of "
                                               "deals where they are weighed); the loss's CI is paired, deal by "
                                               "deal") + ";",
                  "- where the cards are: under the same model, " + ("over every deal that fits" if hint.exact else
                  f"over {HOLDER_WORLDS:,} deals drawn for it (no solving needed)") + ";",
                  "- perfect play with every hand open is more than anyone can do: the values are a guide to which "
                  "card keeps the most chances, not a promise of points."]
        if win:
            lines.append("- match win: the chance your side wins the match after this deal's points, from the "
                         "equity table of heuristic play (an approximation).")
    return "\n".join(lines)


# --- a bid in words ------------------------------------------------------------------------------------------------

BID_DEALS = 4000  # paired deals for a bid asked at the table (record's ``?``): a few seconds
DOING = {"stand": "standing", "beg": "begging", "give": "giving one", "run": "running the cards"}


def bid_sentence(res: Any) -> str:
    """A bid's answer in a player's words: the better option, by how much, and how sure that is (by the match-win
    chance when the rollouts have it, else by net points)."""
    from ..analysis.stats import estimate

    win = res.measure == "win"
    values = res.win if win else res.net
    best = int(values.mean(axis=0).argmax())
    other = 1 - best
    gap = estimate(values[:, best] - values[:, other])
    names = res.names
    over = f"over {res.net.shape[0]:,} deals played out both ways"
    if win:
        lo, hi = (100 * x for x in gap.ci95)
        ahead = f"{DOING[names[best]]} wins the match {100 * gap.mean:.1f}% more often than {DOING[names[other]]}"
        ci = f"(95% CI {lo:.1f}% to {hi:.1f}%)"
    else:
        lo, hi = gap.ci95
        ahead = f"{DOING[names[best]]} nets {gap.mean:.2f} points more than {DOING[names[other]]} on average"
        ci = f"(95% CI {lo:.2f} to {hi:.2f})"
    if lo <= 0 <= hi:
        return f"Too close to call between {DOING[names[best]]} and {DOING[names[other]]}: {ahead} {ci}, {over}."
    return f"{names[best].capitalize()}: {ahead} {ci}, {over}."


def bid_settled(res: Any) -> bool:
    """Whether the bid's answer is settled: the 95% CI of the better option's lead (by the hint's measure)
    leaves out 0."""
    return bool(res.difference(res.measure).ci95[0] > 0)


def bid_table(res: Any, decision: Decision) -> tuple[dict[str, Any] | None, str | None]:
    """What the shipped strategy says for the bid's hand (``"table"`` of --json) and, where the settled answer
    differs from it or from the strategy card, the sentence that says so."""
    from ..analysis.bidding.shipped import for_result

    words = seat_score_words(decision.rules, deal_score(decision), decision.seat)
    return for_result(res, bid_settled(res), words)


def bid_text(res: Any, decision: Decision, explain: bool = False) -> str:
    """The bid hint as text: the sentence, the situation, then both options."""
    sit = res.situation
    hand = " ".join(pretty(c) for c in sorted(sit.hand, key=lambda c: (suit_of(c), -c)))
    said = bid_table(res, decision)[1]
    lines = [bid_sentence(res), *([said] if said else []),
             f"seat {decision.seat}, the {sit.seat}" + (" (the eldest begged)" if sit.seat == "dealer" else "")
             + f", holds {hand}; the turn-up is {pretty(sit.turnup)}; score: "
             + seat_score_words(sit.rules, deal_score(decision), decision.seat),
             who_is_who(sit.rules, decision.seat),
             "", f"{'option':<8}{'net points':>11}  {'95% CI':<16}" + (f"{'match win':>10}  95% CI" if
                                                                        res.measure == "win" else "")]
    for j, name in enumerate(res.names):
        ev = res.ev(j)
        row = f"{name:<8}{ev.mean:>+11.2f}  {_interval(ev):<16}"
        if res.measure == "win":
            wp = res.win_prob(j)
            lo, hi = wp.clipped_ci95(0.0, 1.0)
            row += f"{100 * wp.mean:>9.1f}%  [{100 * lo:.1f}%, {100 * hi:.1f}%]"
        lines.append(row.rstrip())
    lines += ["", "net points: of the rest of the deal, your side's minus the other side's"
              + ("; match win: your side's chance to win the match" if res.measure == "win" else "")]
    if explain:
        lines += ["", "How this was computed:",
                  f"- {res.net.shape[0]:,} deals of the cards you have not seen, each played out once with each "
                  "option (the same cards, the same random choices: common random numbers), every seat playing "
                  f"the {res.policy} policy after the bid;",
                  "- the better option is the one with the higher " + ("match-win chance (from the equity table "
                  "of heuristic play at the score after the deal)" if res.measure == "win" else "net points")
                  + "; the 95% CI of the difference is paired, deal by deal;",
                  "- the deals stop once the better option leads by 3 standard errors of the difference, or at the "
                  "most deals allowed."]
    return "\n".join(lines)


def bid_hint(decision: Decision, policy: str = "heuristic", seed: int = 1, equity: EquityTable | None = None,
             deals: int | None = None, threads: int | None = None, progress: Any = None) -> Any:
    """The paired rollouts of the bid due (``whatif``'s), by match-win chance with an equity table, else by net
    points; `deals` fixes their number (else whatif's stopping rule)."""
    from ..analysis.bidding.whatif import MAX_DEALS, MIN_DEALS, what_if

    sit = bid_situation(decision)
    kwargs: dict[str, Any] = ({"max_deals": MAX_DEALS, "min_deals": MIN_DEALS} if deals is None
                              else {"max_deals": deals, "min_deals": deals})
    if equity is not None:
        return what_if(sit, policy, seed=seed, equity=equity, win_by="table", measure="win", threads=threads,
                       progress=progress, **kwargs)
    return what_if(sit, policy, seed=seed, win_by="playout", measure="points", threads=threads, progress=progress,
                   **kwargs)


def hint_text(line: dict[str, Any], seat: int, seed: int = 1, inference: str = DEFAULT_INFERENCE,
              strategy: str | None = None) -> str:
    """The hint for `seat` where `line` stops, as text (``allfours record``'s ``?``, ``play``'s): a card over the
    consistent deals (every one when few, else HINT_WORLDS) weighed as `inference` says, a bid by BID_DEALS paired
    deals, in net points; the others' bids read by the equilibrium run `strategy` (None: the shipped one)."""
    decision = decision_of(line, seat)
    if decision.kind == "card":
        model = None if inference == "none" else decision_model(decision, strategy)
        return card_text(card_hint(decision, HINT_WORLDS, seed, inference=inference, model=model),
                         where=where_text(decision))
    return bid_text(bid_hint(decision, seed=seed, deals=BID_DEALS), decision)
