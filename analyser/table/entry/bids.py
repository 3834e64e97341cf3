"""The bids of a deal as entered: the eldest's stand or beg, the dealer's give or run, and the runs a run
brings (`BidPhase`); the ``--bids`` option that gives them."""

from __future__ import annotations

from ...game.cards import suit_of
from ...engine.deal import HAND_SIZE
from ...record.vocabulary import ASKED, ELDEST
from .base import EXHAUSTED, HIDDEN, Due, EntryError, Stop, names
from .setup import SetUp


class BidPhase(SetUp):
    """The bids and the runs (`SetUp` holds the rest of the build)."""

    def bid(self, options: tuple[str, ...], role: str, seat: int) -> str:
        e = self.e
        k = self.bids_used
        if len(e.bids) <= k:
            what = " or ".join(options)
            raise Stop(Due("bid", f"the {role} (seat {seat}) is to {what}", seat=seat, role=role))
        bid = e.bids[k]
        if bid not in options:
            raise EntryError(f"the {role} (seat {seat}) may {' or '.join(options)} here, not {bid!r}")
        self.bids_used = k + 1
        self.events.append({"event": bid, "seat": seat})
        return bid

    def run_cards(self, trump: int) -> int:
        """The runs after a beg, until a turn-up of another suit; the turn-up that fixes trump."""
        e, n, rc = self.e, self.n, self.r.run_cards
        k = 0
        while True:
            k += 1
            used = HAND_SIZE * n + 1 + (k - 1) * (rc * n + 1)
            if 52 - used < rc * n + 1:
                self.events.append({"event": "redeal", "reason": EXHAUSTED})
                raise Stop(Due("redeal", f"the pack is exhausted after {k - 1} runs ({52 - used} left, a run "
                                         f"needs {rc * n + 1} cards): the deal is void and the same dealer deals again",
                               role=EXHAUSTED))
            need = HAND_SIZE + rc * k
            for s in e.known:
                if len(e.hands[s]) < need:
                    raise Stop(Due("more", f"seat {s}'s {rc} cards from run {k} are missing", seat=s, run=k))
            for s in e.known:
                for c in e.hands[s][need - rc:need]:
                    self.place(c, f"seat {s}'s cards from run {k}")
                    self.owner[c] = s
                self.dealt[s] = need
            self.runs = k
            self.events.append({"event": "more", "hands": [
                names(e.hands[s][need - rc:need]) if s in e.known else [HIDDEN] * rc for s in range(n)]})
            turnup = self.turnup(k)
            if suit_of(turnup) != trump:
                return turnup


BID_WORDS = {"stand": "stand", "s": "stand", "beg": "beg", "b": "beg", "give": "give", "g": "give", "run": "run",
             "r": "run"}
BID_FORMS = (*ELDEST.options, *(f"{ELDEST.option1},{answer}" for answer in ASKED["dealer"]))


def read_bids(text: str | None) -> list[str]:
    """``stand``, ``beg``, ``beg,give`` or ``beg,run`` (the eldest's bid, then the dealer's answer)."""
    if text is None or not text.strip():
        return []
    words = text.replace(",", " ").lower().split()
    bids = [BID_WORDS.get(w, w) for w in words]
    if ",".join(bids) not in BID_FORMS:
        raise EntryError(f"--bids {text!r}: give one of {', '.join(BID_FORMS[:-1])} or {BID_FORMS[-1]} (the eldest's "
                         "bid, then the dealer's answer to a beg)")
    return bids
