"""An entry built into its line: `Builder` (the set-up, the bids and the cards put together), `build`, and
`entry_line`, the one-line form (``allfours hint --rules ... --hand ... --played ...``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...game.cards import RANK_JACK, SUIT_WORDS, SUITS, card_name, rank_of, suit_of
from ...engine.deal import HAND_SIZE
from ...record.gamelog import FORMAT
from ...game.rules import RuleSet
from ...record.vocabulary import ASKED, BID_EVENTS, ELDEST
from .base import BUNCHED, HIDDEN, Built, Due, Entry, EntryError, Stop, names
from .bids import BidPhase, read_bids
from .cards import CardPhase, read_cards
from .setup import check_seat, read_score


class Builder(BidPhase, CardPhase):
    """One entry's line built: `run()` says what is due, `leftovers` that nothing is given beyond it, `built`
    the result."""

    def run(self) -> Due:
        try:
            self.deal()
        except Stop as stop:
            return stop.due
        raise AssertionError("the build ended without saying what is due")

    def deal(self) -> None:
        e, r, n = self.e, self.r, self.n
        for s in e.known:
            if len(e.hands.get(s, [])) < HAND_SIZE:
                raise Stop(Due("hand", f"seat {s}'s hand (six cards) is missing", seat=s))
        for s in e.known:
            for c in e.hands[s][:HAND_SIZE]:
                self.place(c, f"seat {s}'s hand")
                self.owner[c] = s
            self.dealt[s] = HAND_SIZE
        self.events.append({"event": "deal", "hands": [
            names(e.hands[s][:HAND_SIZE]) if s in e.known else [HIDDEN] * HAND_SIZE for s in range(n)]})
        turnup = first = self.turnup(0)
        trump = suit_of(first)
        bid = self.bid(ASKED["eldest"], "eldest", self.eldest)
        if bid == "beg":
            answer = self.bid(ASKED["dealer"], "dealer", e.dealer)
            if answer == "give":
                self.award(self.eside, r.gift, "gift")
            else:
                turnup = self.run_cards(trump)
                trump = suit_of(turnup)
                if r.bunching:
                    if e.bunch is None:
                        raise Stop(Due("bunch", "the bunching vote is due (do all four agree to bunch?)"))
                    self.events.append({"event": "bunch", "agreed": bool(e.bunch)})
                    if e.bunch:
                        self.events.append({"event": "redeal", "reason": BUNCHED})
                        raise Stop(Due("redeal", "all four agreed to bunch: the same dealer deals again",
                                       role=BUNCHED))
        self.trump = trump
        self.events.append({"event": "trump", "suit": SUITS[trump]})
        if r.kick == "final-jack" and rank_of(turnup) == RANK_JACK:
            self.award(self.dside, 1, "jack-bonus")
        hands = {s: list(e.hands[s][:self.dealt[s]]) for s in e.known}
        if r.discard:
            self.discards(hands)
        self.play(hands)


    def leftovers(self, due: Due) -> None:
        """Nothing given beyond where the entry stops."""
        e, r = self.e, self.r
        if due.kind in ("hand", "more"):
            return
        if due.kind in ("over", "redeal") and self.walk is None:
            given = [what for what, extra in (
                ("a turn-up", len(e.turnups) > self.turnups_used), ("a bid", len(e.bids) > self.bids_used),
                ("a discard", any(s not in self.discards_used for s in e.discards)), ("a card played", e.played),
                ("a card of the hand", any(len(e.hands.get(s, [])) > self.dealt[s] for s in e.known))) if extra]
            if given:
                raise EntryError(f"{due.text}: nothing follows, but {given[0]} is given")
        if len(e.turnups) > self.turnups_used:
            extra = card_name(e.turnups[self.turnups_used])
            if self.turnups_used == 1 and not self.runs:
                why = "the cards were not run (--bids beg,run): one turn-up"
            elif due.kind == "redeal":
                why = due.text
            elif self.trump is not None or due.kind in ("bunch", "discard", "card", "over"):
                why = f"the turn-up after run {self.runs} fixed trump (a new suit): nothing is turned after it"
            else:
                why = due.text
            raise EntryError(f"turn-up {extra} is one too many: {why}")
        for s in e.known:
            count, used = len(e.hands.get(s, [])), self.dealt[s]
            if count > used:
                how = "no run" if not self.runs else f"6 + {r.run_cards} per run, {self.runs} run" + (
                    "s" if self.runs > 1 else "")
                raise EntryError(f"seat {s}'s hand has {count} cards, but {used} are dealt ({how})")
        if len(e.bids) > self.bids_used:
            last = e.bids[self.bids_used - 1] if self.bids_used else None
            why = f"nothing is bid after {last!r}" if last in BID_EVENTS and last != ELDEST.option1 else due.text
            raise EntryError(f"bid {e.bids[self.bids_used]!r} is one too many: {why}")
        for s in sorted(e.discards):
            if s not in self.discards_used:
                if not r.discard:
                    why = f"the rules ({r.preset}) do not discard: every card is played"
                elif s not in e.known:
                    why = f"the line is seat {e.seat}'s view: other seats' discards are unseen"
                elif self.trump is not None and not self.runs:
                    why = "no cards were run: every seat holds six"
                else:
                    why = due.text
                raise EntryError(f"seat {s}'s discard is given, but {why}")
        if e.played and self.walk is None:
            raise EntryError(f"cards are played, but {due.text}")

    def built(self, due: Due) -> Built:
        e = self.e
        line: dict[str, Any] = {"format": FORMAT, "rules": self.r.as_log_dict(), "dealer": e.dealer,
                                "score_before": list(e.score_before), "events": self.events}
        winner = self.scorer.verdict.winner
        if due.kind == "over":
            line["score_after"] = list(self.scorer.score)
            line["winner"] = winner
        return Built(line, due, self.walk, self.trump, list(self.scorer.verdict.points), list(self.scorer.score),
                     winner, self.hand_size, len(self.scorer.verdict.points) - self.earlier_points)


def build(entry: Entry) -> Built:
    """The line `entry` gives and what is due next; an `EntryError` for anything that cannot be."""
    builder = Builder(entry)
    due = builder.run()
    builder.leftovers(due)
    return builder.built(due)


def entry_line(rules: RuleSet, dealer: int, seat: int, hand: str | Sequence[str], turnups: Sequence[str] | str,
               bids: str | None = None, played: str | Sequence[str] | None = None, score: str | None = None,
               discard: str | Sequence[str] | None = None) -> tuple[dict[str, Any], int]:
    """The one-line form: seat `seat`'s view of the deal up to the decision due now, and that seat.

    `hand` holds every card the seat was dealt (with runs, the run's cards too: the first six in ``deal``, then
    ``run_cards`` per run in ``more``); `turnups` every turn-up, in order (more than one only after a run);
    `bids` as `read_bids`; `played` every card played so far, from the first lead; `score` eldest's side first;
    `discard` the seat's own discards (rules that discard down to six after a run). The decision due must be
    the seat's own bid or card.
    """
    check_seat(rules, dealer, "--dealer")
    check_seat(rules, seat, "--seat")
    cards = read_cards(hand, "--hand")
    ups = read_cards([turnups] if isinstance(turnups, str) else list(turnups), "--turnup")
    bid_list = read_bids(bids)
    plays = read_cards(played, "--played")
    gone = read_cards(discard, "--discard") if discard is not None else None
    score_before = read_score(rules, dealer, score)
    if not ups:
        raise EntryError("--turnup: give the turn-up")
    ran = bid_list[-1:] == ["run"]
    if ran and len(ups) == 1:
        raise EntryError("--bids beg,run: give the turn-up after the run too (repeat --turnup: the first one, then "
                         "each one after a run)")
    if not ran and len(ups) > 1:
        raise EntryError(f"{len(ups)} turn-ups, but the cards were not run: one --turnup unless --bids beg,run")
    runs = len(ups) - 1
    rc = rules.run_cards
    want = HAND_SIZE + rc * runs
    if len(cards) != want:
        how = "six are dealt" if not runs else f"seat {seat} was dealt {want}: 6 + {rc} for " + (
            "the run" if runs == 1 else f"each of the {runs} runs")
        raise EntryError(f"--hand has {len(cards)} cards, but {how} (--hand holds every card the seat was dealt)")
    entry = Entry(rules, dealer, score_before, seat=seat, hands={seat: cards}, turnups=ups, bids=bid_list,
                  bunch=False if rules.bunching else None, discards={} if gone is None else {seat: gone},
                  played=plays)
    built = build(entry)
    due = built.due
    if due.kind in ("turnup", "more"):
        last = ups[-1]
        raise EntryError(f"turn-up {card_name(last)} is a {SUIT_WORDS[suit_of(last)]} again, so the cards are run "
                         "again: give the next turn-up (--turnup) and the run's cards in --hand")
    if due.kind == "discard":
        raise EntryError(f"{due.text} before play: give them with --discard")
    if not due.decision:
        raise EntryError(f"no decision is due: {due.text}")
    if due.seat != seat:
        if due.kind == "card":
            raise EntryError(f"seat {due.seat} is to play, not seat {seat}")
        raise EntryError(f"seat {due.seat} (the {due.role}) is to bid, not seat {seat}")
    return built.line, seat
