"""The deal up to trick play: deal, turn-ups and kicks, stand or beg, give or run, runs and
redeals, the bunching vote, trump, the jack bonus and the discards."""

from __future__ import annotations

from ..game.cards import SUITS, CardError, card_name, parse_suit, rank_of, suit_of
from ..engine.deal import HAND_SIZE, kick_points
from ..game.rules import KICKS
from .reading import LogError
from .scoring import Scoring


class BiddingPhase(Scoring):
    def hand_cards(self, tokens: object, count: int, seat: int, what: str) -> list[int]:
        """The cards `seat` is dealt in a `deal` or `more` event (a seat's view reads hidden ones here)."""
        return self.cards(tokens, count, what)

    def discard_cards(self, tokens: object, count: int, seat: int, hand: set[int]) -> list[int]:
        """The cards of `seat`'s `discard` event, from `hand` (a seat's view reads hidden ones here)."""
        return self.cards(tokens, count, f"discard of seat {seat}")

    def bidding_phase(self) -> tuple[list[set[int]], int]:
        """Referee every event before the first play; the hands as play starts, and trump."""
        while True:
            deal = self.deal_phase()
            if deal is not None:
                hands, trump, turnup = deal
                break
        fixed = self.take("trump")
        try:
            suit = parse_suit(str(fixed.get("suit")))
        except CardError as err:
            raise LogError(self.pos - 1, str(err)) from None
        if suit != trump:
            raise LogError(self.pos - 1, f"trump is {SUITS[trump]} (the last turn-up), not {SUITS[suit]}")
        if self.rules.kick == "final-jack" and rank_of(turnup) == 9:
            self.score_points(self.rules.side_of(self.dealer), 1, "jack-bonus")
        if self.rules.discard:
            self.discards(hands)
        return hands, trump

    def deal_phase(self) -> tuple[list[set[int]], int, int] | None:
        """One deal up to trump: (hands, trump suit, the turn-up that fixed it), or None when it was void
        (the pack exhausted by runs, or bunched) and a new deal follows."""
        r, n = self.rules, self.n
        dside, eside = r.side_of(self.dealer), r.side_of(self.eldest)
        kick = KICKS.index(r.kick)
        event = self.take("deal")
        if not isinstance(event.get("hands"), list) or len(event["hands"]) != n:
            raise LogError(self.pos - 1, f"deal must list {n} hands, one per seat")
        used: set[int] = set()
        hands = []
        for seat, tokens in enumerate(event["hands"]):
            cards = self.hand_cards(tokens, HAND_SIZE, seat, f"hand of seat {seat}")
            for c in cards:
                self.fresh(c, used)
            hands.append(set(cards))
        turnup = self.card(self.take("turnup").get("card"))
        self.fresh(turnup, used)
        self.score_points(dside, kick_points(kick, turnup), "kick")
        trump = suit_of(turnup)
        decision = self.take("stand", "beg")
        self.expect_seat(decision, self.eldest, "eldest")
        if decision["event"] == "stand":
            return hands, trump, turnup
        answer = self.take("give", "run")
        self.expect_seat(answer, self.dealer, "dealer")
        if answer["event"] == "give":
            self.score_points(eside, r.gift, "gift")
            return hands, trump, turnup
        while suit_of(turnup) == trump:  # run until a turn-up of another suit
            left = 52 - len(used)
            if left < r.run_cards * n + 1:
                redeal = self.take("redeal")
                if redeal.get("reason") != "exhausted":
                    raise LogError(self.pos - 1, f"redeal reason must be 'exhausted', not {redeal.get('reason')!r}")
                return None
            if self.peek() == "redeal":
                raise LogError(self.pos, f"the pack is not exhausted: {left} cards remain for a run")
            more = self.take("more")
            if not isinstance(more.get("hands"), list) or len(more["hands"]) != n:
                raise LogError(self.pos - 1, f"more must list {n} hands, one per seat")
            for seat, tokens in enumerate(more["hands"]):
                for c in self.hand_cards(tokens, r.run_cards, seat, f"more cards of seat {seat}"):
                    self.fresh(c, used)
                    hands[seat].add(c)
            turnup = self.card(self.take("turnup").get("card"))
            self.fresh(turnup, used)
            self.score_points(dside, kick_points(kick, turnup), "kick")
        if r.bunching:
            vote = self.take("bunch")
            if not isinstance(vote.get("agreed"), bool):
                raise LogError(self.pos - 1, "bunch needs 'agreed': true or false")
            if vote["agreed"]:
                redeal = self.take("redeal")
                if redeal.get("reason") != "bunched":
                    raise LogError(self.pos - 1, f"redeal reason must be 'bunched', not {redeal.get('reason')!r}")
                return None
        return hands, suit_of(turnup), turnup

    def discards(self, hands: list[set[int]]) -> None:
        """Every seat holding more than six discards down to six, in any order."""
        due = {s for s in range(self.n) if len(hands[s]) > HAND_SIZE}
        while due:
            event = self.take("discard")
            seat = self.seat_of(event)
            if seat not in due:
                raise LogError(self.pos - 1, f"seat {seat} may not discard (already six cards, or discarded)")
            cards = self.discard_cards(event.get("cards"), len(hands[seat]) - HAND_SIZE, seat, hands[seat])
            for c in cards:
                if c not in hands[seat]:
                    raise LogError(self.pos - 1, f"seat {seat} discards {card_name(c)}, which it does not hold")
            if len(set(cards)) != len(cards):
                raise LogError(self.pos - 1, f"seat {seat} discards a card twice")
            hands[seat] -= set(cards)
            due.remove(seat)
