"""A seat's view: a line with every card one seat did not see written ``??`` (docs/game-log.md, "A seat's view").

A view's seat is the one seat whose hand the first ``deal`` shows; every other hand there is all
``??`` (a line that shows every hand is a full log). Every other seat's cards in ``deal`` and ``more``
and its ``discard`` are hidden; the seat's own cards, the turn-ups and every play are shown.

`ViewReferee` (``view_deal`` up to trick play, ``view_play`` for the tricks) referees what the view shows, with the phases of the full referee:

* the seat's own cards and plays exactly as in a full log (dealt once, held, legal);
* every other seat's play: a card the seat has not seen (not its own, not a turn-up, not played
  before), that does not contradict a void the player showed earlier: not following suit shows
  it holds none of the led suit; under ``void_play = trump`` not trumping shows no trump it could
  play; a forbidden undertrump shows a hand of trumps only;
* after each of those plays, that some dealing of the unseen cards still fits: each other seat
  holds as many as it has left, none of a kind it has shown it lacks (`dealing_shortfall`: Hall's
  condition over the sets of other seats, exact for this matching; the table's entry asks it too);
* trick winners and every point: all plays are shown, and at the end of a deal every card in play
  has been played, so High, Low, Jack and Game are decided by the visible cards.

What it cannot check is said in words (`Verdict.unchecked`). `read_view` also returns what the
seat knows (`View`) and a *witness*: the line with a card for every ``??``, a full log consistent
with the view. `view_of` makes a seat's view from a full log.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from ..game.rules import RuleSet, RulesError, rules_from_log
from .reading import HIDDEN, LogError, Verdict
from .view_deal import ALL_CARDS, cards_in, seats_text, suit_mask
from .view_play import Shortfall, ViewReferee, dealing_shortfall, lacks_of_play

__all__ = ["Shortfall", "View", "ViewReferee", "dealing_shortfall", "lacks_of_play", "read_view", "seats_text", "view_of",
           "view_seat"]


def view_seat(obj: Any) -> int | None:
    """The seat whose view the line is, or None for a full log (or a line too broken to tell: the referee
    then names what is wrong). Raises LogError for a first deal that is neither: a hand mixing cards and
    ``??``, every hand hidden, or several hands shown beside hidden ones."""
    if not isinstance(obj, dict) or not isinstance(obj.get("events"), list):
        return None
    for index, event in enumerate(obj["events"]):
        if not (isinstance(event, dict) and event.get("event") == "deal"):
            continue
        hands = event.get("hands")
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            return None
        shown: list[int] = []
        hidden: list[int] = []
        for seat, hand in enumerate(hands):
            k = sum(token == HIDDEN for token in hand)
            if k and k < len(hand):
                raise LogError(index, f"hand of seat {seat} mixes cards and ??: a seat's view shows its own hand "
                                      "whole and hides every other hand")
            (hidden if k else shown).append(seat)
        if not hidden:
            return None
        if not shown:
            raise LogError(index, "every hand is hidden (??): a seat's view shows its own seat's hand")
        if len(shown) > 1:
            raise LogError(index, f"{seats_text(shown)} show their hands and {seats_text(hidden)} "
                                  f"{'is' if len(hidden) == 1 else 'are'} hidden: a seat's view shows one hand "
                                  "(its seat's), a full log every hand")
        return shown[0]
    return None


def view_of(obj: Any, seat: int) -> dict[str, Any]:
    """Seat `seat`'s view of a full log line: every other seat's cards in ``deal``, ``more`` and ``discard``
    written ``??`` (the same events, in the same order). A line that already is `seat`'s view comes back as
    it is; another seat's view, or a seat the rules do not have, is a LogError."""
    if not isinstance(obj, dict):
        raise LogError(-1, "a line must be a JSON object")
    try:
        players = rules_from_log(obj.get("rules")).players
    except RulesError as err:
        raise LogError(-1, f"rules: {err}") from None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise LogError(-1, f"seat {seat!r}: the rules have seats 0..{players - 1}")
    already = view_seat(obj)
    if already is not None:
        if already != seat:
            raise LogError(-1, f"the line is seat {already}'s view: it cannot show what seat {seat} saw")
        return copy.deepcopy(obj)
    out = copy.deepcopy(obj)
    for event in out.get("events") or []:
        if not isinstance(event, dict):
            continue
        if event.get("event") in ("deal", "more") and isinstance(event.get("hands"), list):
            event["hands"] = [hand if s == seat or not isinstance(hand, list) else [HIDDEN] * len(hand)
                              for s, hand in enumerate(event["hands"])]
        elif event.get("event") == "discard" and event.get("seat") != seat and isinstance(event.get("cards"), list):
            event["cards"] = [HIDDEN] * len(event["cards"])
    return out


@dataclass
class View:
    """What one seat knows of a line (its view, refereed), as of the line's end.

    The deal meant is the one played (the last of the line, after any redeal). Cards are ints (cards.py),
    sets of cards bitmasks.
    """

    seat: int
    rules: RuleSet
    dealer: int
    score_before: list[int]
    verdict: Verdict              # the points so far; score_after: the score now; unchecked: in words
    witness: dict[str, Any]       # the line with a card for every ??: a full log consistent with the view
    complete: bool                # the line went to its end; False: it stops early (`read_view(cut=True)`)
    expected: tuple[str, ...]     # a line that stops early: the events that may come next
    dealt: list[int]              # the seat's own cards in the deal played, runs included, discards too
    discards: list[int]           # the seat's own discards
    turnups: list[int]            # the turn-ups of the deal played, in order
    bids: list[tuple[str, int]]   # (stand/beg/give/run, seat) in the deal played
    trump: int | None             # None: trump is not fixed yet
    plays: list[tuple[int, int]]  # (seat, card) for every card played, in order
    held: list[int]               # the seat's own cards now
    sizes: list[int]              # how many cards each seat holds now
    lacks: list[int]              # per seat, the cards it has shown it does not hold (its voids; 0 for the seat)
    unseen: int                   # the cards the seat has not seen and nobody has played (others' hands, discards, stock)
    to_play: int | None           # in trick play, the seat to play next

    @property
    def voids(self) -> list[list[int]]:
        """Per seat, the suits it has shown it holds none of."""
        return [[s for s in range(4) if self.lacks[seat] & suit_mask(s) == suit_mask(s)]
                for seat in range(self.rules.players)]


def read_view(obj: Any, cut: bool = False) -> View:
    """Referee a seat's view and say what the seat knows. With `cut`, the line may stop early (where a
    decision is due); without, it must be a whole line, as ``replay`` wants. Raises LogError at the first
    event the view shows to be wrong, or when the line is not a seat's view."""
    seat = view_seat(obj)
    if seat is None:
        raise LogError(-1, "not a seat's view: the first deal shows every hand (a full log); "
                           "view_of(line, seat) makes a seat's view of it")
    ref = ViewReferee(obj, seat)
    complete = True
    expected: tuple[str, ...] = ()
    try:
        ref.run()
    except LogError as err:
        if not (cut and ref.wanted is not None and err.event >= len(ref.events)
                and err.reason.startswith("the log ends early")):
            raise
        complete, expected = False, ref.wanted
        ref.verdict.score_after = list(ref.score)
    return _view(ref, complete, expected)


def _view(ref: ViewReferee, complete: bool, expected: tuple[str, ...]) -> View:
    """The seat's knowledge at the line's end (`read_view`)."""
    me = ref.seat
    ref.verdict.unchecked = ref.unchecked(complete)
    dealt = sorted(c for c in cards_in(ref.deal_visible[-1]) if c not in ref.turnups) if ref.deal_visible else []
    own_discards = sorted(ref.discarded.get(me, []))
    if ref.hands is not None:
        held = sorted(ref.hands[me])
        unseen = ref.pool
    else:
        held = sorted(set(dealt) - set(own_discards))
        unseen = ALL_CARDS & ~(ref.deal_visible[-1] if ref.deal_visible else 0)
    return View(
        seat=me, rules=ref.rules, dealer=ref.dealer, score_before=list(ref.obj["score_before"]),
        verdict=ref.verdict, witness=ref.witness(), complete=complete, expected=expected, dealt=dealt,
        discards=own_discards, turnups=list(ref.turnups), bids=list(ref.bids), trump=ref.trump,
        plays=list(ref.plays), held=held, sizes=list(ref.sizes), lacks=list(ref.lacks), unseen=unseen,
        to_play=ref.to_play,
    )
