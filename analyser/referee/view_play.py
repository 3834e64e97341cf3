"""A seat's view in trick play: the seat's own plays refereed as in a full log, every other seat's play checked
against what the seat saw and the voids that player showed, and after each, that some dealing of the unseen
cards still fits (Hall's condition over the sets of other seats, exact for this matching)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import NamedTuple

from ..game.cards import SUIT_WORDS, card_name, suit_of
from .reading import LogError
from .view_deal import ALL_CARDS, HiddenDeal, seats_text, suit_mask


class Shortfall(NamedTuple):
    """Hidden hands no dealing can fill: `seats` still hold `need` cards together, and only `room` of the unseen
    cards may be theirs."""

    seats: list[int]
    need: int
    room: int


def dealing_shortfall(unseen: int, need: Mapping[int, int],
                      lacks: Mapping[int, int] | Sequence[int]) -> Shortfall | None:
    """Whether the hidden cards of a view can still be dealt: each seat of `need` gets `need[seat]` of the
    `unseen` cards, none of `lacks[seat]` (what it showed it does not hold). None when some dealing fits; else
    the first group of seats (subsets of the sorted seats, in binary order) short of cards. Hall's condition
    over the sets of seats, exact for this matching.

    >>> dealing_shortfall(0b1111, {1: 2, 2: 2}, {1: 0b0011, 2: 0b0011})  # both seats may hold only cards 2, 3
    Shortfall(seats=[1, 2], need=4, room=2)
    """
    seats = sorted(need)
    for subset in range(1, 1 << len(seats)):
        group = [s for i, s in enumerate(seats) if subset >> i & 1]
        room = 0
        for s in group:
            room |= unseen & ~lacks[s]
        wanted = sum(need[s] for s in group)
        if bin(room).count("1") < wanted:
            return Shortfall(group, wanted, bin(room).count("1"))
    return None


def lacks_of_play(card: int, led: int, trump: int, top: int, forbid: bool, void_trump: bool) -> int:
    """The cards a player has shown it does not hold by playing `card` (legally) to a trick led with `led`
    (-1: it leads) whose highest trump is `top` (-1: none): a hand holding any of them could not play it.

    >>> lacks_of_play(40, 1, 0, -1, False, False) == suit_mask(1)  # 3C on a heart lead, spades trump: no heart
    True
    >>> lacks_of_play(1, 1, 0, -1, False, False)  # 3S (a trump) on a heart lead: trumping shows nothing
    0
    """
    if led < 0 or suit_of(card) == led:
        return 0
    tmask = suit_mask(trump)
    if led == trump:  # no trump on a trump lead: none held
        return tmask
    if suit_of(card) == trump:  # a trump on a side lead: permissive, unless a forbidden undertrump
        return (ALL_CARDS & ~tmask) if forbid and top >= 0 and card < top else 0
    lacks = suit_mask(led)
    if void_trump:
        may = tmask & ~((1 << (top + 1)) - 1) if forbid and top >= 0 else tmask
        lacks |= may
    return lacks


def _shown_text(card: int, led: int, trump: int, top: int, forbid: bool, void_trump: bool, event: int) -> str:
    """What a play showed, for the message of a later play that contradicts it."""
    name, at = card_name(card), f"at event {event}"
    if led == trump:
        return f"it had no {SUIT_WORDS[trump]} (trump): it played {name} on a trump lead {at}"
    if suit_of(card) == trump:
        return (f"it held only trumps: it undertrumped with {name} below {card_name(top)} {at} "
                "(undertrump=forbidden)")
    if void_trump:
        which = f"above {card_name(top)}" if forbid and top >= 0 else "it could play"
        return (f"it had no {SUIT_WORDS[led]} and no trump {which}: it played {name} on a {SUIT_WORDS[led]} "
                f"lead {at} (void_play=trump)")
    return f"it had no {SUIT_WORDS[led]}: it played {name} on a {SUIT_WORDS[led]} lead {at}"


class ViewReferee(HiddenDeal):
    """The referee of one seat's view, trick play included (``views``)."""

    # The play phase is the full referee's (play.PlayPhase), with these hooks: the other seats' hands hidden.

    def start_play(self, hands: list[set[int]], trump: int) -> dict[int, int]:
        me = self.seat
        self.trump, self.hands, self.own_start = trump, hands, set(hands[me])
        self.pool = ALL_CARDS & ~self.deal_visible[-1]
        return {c: me for c in hands[me]}

    def turn(self, seat: int | None) -> None:
        self.to_play = seat

    def check_play(self, seat: int, card: int, hands: list[set[int]], led: int, trump: int, top_trump: int,
                   forbid: bool, void_trump: bool) -> None:
        if seat == self.seat:
            super().check_play(seat, card, hands, led, trump, top_trump, forbid, void_trump)
        else:
            self.other_play(seat, card, led, top_trump, forbid, void_trump)
        self.played_at[card] = (seat, self.pos - 1)
        self.plays.append((seat, card))
        self.sizes[seat] -= 1

    def other_play(self, seat: int, card: int, led: int, top: int, forbid: bool,
                   void_trump: bool) -> None:
        """Another seat plays `card` from its hidden hand: one the seat has not seen, that no void it
        showed rules out, and some dealing of the unseen cards still fits."""
        at, name, me = self.pos - 1, card_name(card), self.seat
        if not self.pool >> card & 1:
            if card in self.played_at:
                by, when = self.played_at[card]
                raise LogError(at, f"card {name} played twice: seat {by} played it at event {when}")
            if card in self.own_start:
                raise LogError(at, f"seat {seat} plays {name}, which is in seat {me}'s hand (the view's seat)")
            if card in self.turnups:
                raise LogError(at, f"seat {seat} plays {name}, which was turned up")
            raise LogError(at, f"seat {seat} plays {name}, which seat {me} was dealt and discarded")
        if self.lacks[seat] >> card & 1:
            why = next(text for mask, text in self.shown[seat] if mask >> card & 1)
            raise LogError(at, f"seat {seat} plays {name}, but {why}")
        assert self.trump is not None and self.hands is not None
        lacks = lacks_of_play(card, led, self.trump, top, forbid, void_trump)
        if lacks:
            self.shown[seat].append((lacks, _shown_text(card, led, self.trump, top, forbid, void_trump, at)))
            self.lacks[seat] |= lacks
        self.pool &= ~(1 << card)
        p = max(c for c in self.hands[seat] if c < 0)  # the first dealt of its hidden cards
        self.hands[seat].remove(p)
        self.assign[p] = card
        problem = self.infeasible()
        if problem:
            raise LogError(at, f"seat {seat} plays {name}, and then {problem}")

    def infeasible(self) -> str | None:
        """Why no dealing of the unseen cards fits the other seats' hands (Hall's condition), or None."""
        short = dealing_shortfall(self.pool, self.remaining(), self.lacks)
        if short is None:
            return None
        one = len(short.seats) == 1
        return (f"no dealing of the hidden cards fits: {seats_text(short.seats)} still {'holds' if one else 'hold'} "
                f"{short.need} cards, but only {short.room} of the cards seat {self.seat} has not seen could be "
                f"{'its' if one else 'theirs'} after the voids shown")

    def unchecked(self, complete: bool) -> list[str]:
        """What the view could not check, in words."""
        me, n = self.seat, self.n
        others = seats_text([s for s in range(n) if s != me])
        out = []
        voided = len(self.deal_hidden) - 1
        if voided:
            out.append(f"the other hands of the {'deal' if voided == 1 else f'{voided} deals'} voided by a redeal "
                       f"(hidden): only seat {me}'s cards and the turn-ups are checked there")
        hid = sorted(s for s in self.discarded if s != me)
        if hid:
            out.append(f"which cards {seats_text(hid)} discarded (hidden): any cards seat {me} did not see")
        if self.hands is None:
            if self.deal_hidden:
                out.append(f"the hands of {others} (hidden): the line ends before any card is played")
        elif not sum(self.remaining().values()):
            if self.runs:
                out.append(f"which of the cards {others} played were dealt and which came with the runs "
                           "(every card they held was played, so every play is checked)")
        else:
            held = sum(self.remaining().values())
            out.append(f"whether {others} could have followed suit or trumped: the {held} cards they still hold are "
                       f"hidden; some dealing of the cards seat {me} has not seen fits every play and void shown")
        return out
