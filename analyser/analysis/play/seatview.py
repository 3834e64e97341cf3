"""A seat's view read for analysis: the deal rebuilt from the plays where it can be, and what cannot be judged.

A line typed from one's own seat (``allfours record``, or ``replay``'s views) shows that seat's cards and
every card played; every other card is ``??`` (docs/game-log.md, "A seat's view"). The view referee
(``referee.views``) checks it and gives a *witness*: the line with a card for every ``??``, each card a
hidden hand played where it was played, any consistent cards for the rest.

* **Every hidden card played** (a 4-player deal played to its end, no other seat discarding): the witness
  *is* the deal, so the line is analysed as the full log. Only which of a seat's cards came with a run
  is unknown, so another seat's bid is judged only when its deal had no run (its six cards are then the
  six it played).
* **Some cards never seen** (a line that stops early, others' discards, the hands of a deal voided by a
  redeal): the view's own seat's decisions are judged from the witness, over worlds consistent with what
  that seat saw, as ``hint`` does (a world is dealt from the cards the seat has not seen, so the
  witness's guesses never enter it); the other seats' decisions and the luck of the deal need the hidden
  cards, and are not judged.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ...referee.views import read_view, seats_text, view_seat
from .logcuts import Bid, LineDecisions, line_decisions

__all__ = ["LineView", "view_decisions", "view_seat"]


@dataclasses.dataclass(frozen=True)
class LineView:
    """What a seat's view lets the analysis judge."""

    seat: int                  # the seat whose view the line is
    players: int
    whole: bool                # every hidden card of the deal played was played: the deal is known whole
    known_bids: frozenset[int]  # events of other seats' bids whose hands are known
    why: str | None            # why the other seats (or some of their bids) and the luck cannot be judged

    def judged(self, d: Any) -> bool:
        """Whether decision `d` (a Bid or a Play) can be judged from this view."""
        if d.seat == self.seat:
            return True
        if not self.whole:
            return False
        return not isinstance(d, Bid) or d.event in self.known_bids

    def others(self) -> list[int]:
        return [s for s in range(self.players) if s != self.seat]

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "whole_deal": self.whole, "luck": self.whole,
                "other_seats_judged": self.whole, "bids_known": sorted(self.known_bids), "why": self.why}


def view_decisions(obj: dict[str, Any], partial: bool = False) -> tuple[LineDecisions, LineView]:
    """Referee a seat's view (a LogError names what is wrong) and list its decisions, from the witness:
    the deal itself when every hidden card was played. `partial`: the line may stop anywhere (a deal in
    progress)."""
    view = read_view(obj, cut=partial)
    facts = line_decisions(view.witness, partial=partial)
    seat = view.seat
    n = view.rules.players
    events = obj["events"]
    last_deal = max(i for i, e in enumerate(events) if isinstance(e, dict) and e.get("event") == "deal")
    played = events[last_deal:]
    hid_discards: list[int] = sorted({int(e["seat"]) for e in played if isinstance(e, dict)
                                      and e.get("event") == "discard" and e.get("seat") != seat})
    runs = any(isinstance(e, dict) and e.get("event") == "more" for e in played)
    unplayed = sum(view.sizes[s] for s in range(n) if s != seat) if view.complete and facts.start else None
    whole = unplayed == 0 and not hid_discards and view.complete
    others = seats_text([s for s in range(n) if s != seat])
    why: str | None
    if whole:
        known = frozenset(b.event for b in facts.bids if b.seat != seat and b.event > last_deal and not runs)
        unknown = [b for b in facts.bids if b.seat != seat and b.event not in known and b.chosen is not None]
        causes = []
        if any(b.event > last_deal for b in unknown):
            causes.append("which of the cards they played came with the run is not known")
        if any(b.event < last_deal for b in unknown):
            causes.append("their hands in a deal voided by a redeal are hidden")
        why = (f"the bids of {seats_text(sorted({b.seat for b in unknown}))} are not judged: " + "; ".join(causes)
               if unknown else None)
    else:
        if not view.complete:
            cause = "the line stops before the deal's end, so their cards are not all shown"
        elif facts.start is None:
            cause = "no card was played, so their hands are hidden"
        elif hid_discards:
            cause = f"the cards {seats_text(hid_discards)} discarded are hidden"
        else:
            cause = f"{unplayed} of their cards were never played"
        why = f"{others} and the luck of the deal are not judged: {cause} (seat {seat} saw only its own hand)"
        known = frozenset()
    return facts, LineView(seat, n, whole, known, why)
