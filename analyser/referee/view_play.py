"""A seat's view in trick play: the seat's own plays refereed as in a full log, every other seat's play checked
against what the seat saw and the voids that player showed, and after each, that some dealing of the unseen
cards still fits (Hall's condition over the sets of other seats, exact for this matching)."""

from __future__ import annotations

import numpy as np

from ..cards import SUIT_WORDS, card_name, suit_of
from ..engine.deal import legal_mask, trick_winner
from .play import illegal_reason
from .reading import LogError, card_mask
from .view_deal import ALL_CARDS, HiddenDeal, seats_text, suit_mask


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

    def play_phase(self, hands: list[set[int]], trump: int) -> None:
        """As the full referee's, with the other seats' hands hidden (module docstring)."""
        r, n, me = self.rules, self.n, self.seat
        side = r.side_of
        sizes = {len(h) for h in hands}
        if len(sizes) != 1:
            raise LogError(self.pos, f"hands must be equal before play, not of sizes {sorted(sizes)}")
        self.trump, self.hands, self.own_start = trump, hands, set(hands[me])
        self.pool = ALL_CARDS & ~self.deal_visible[-1]
        holder = {c: me for c in hands[me]}
        jack = trump * 13 + 9
        captured = [0] * r.sides
        jack_captor = -1
        leader = self.eldest
        forbid = r.undertrump == "forbidden"
        void_trump = r.void_play == "trump"
        for _ in range(sizes.pop()):
            trick: list[int] = []
            top_trump = -1
            for k in range(n):
                seat = (leader + k) % n
                self.to_play = seat
                event = self.take("play")
                played_by = self.seat_of(event)
                if played_by != seat:
                    raise LogError(self.pos - 1, f"play by seat {played_by} out of turn: seat {seat} is to play")
                card = self.card(event.get("card"))
                led = suit_of(trick[0]) if trick else -1
                if seat == me:
                    if card not in hands[me]:
                        raise LogError(self.pos - 1, f"seat {seat} plays {card_name(card)}, which it does not hold")
                    legal = int(legal_mask(np.uint64(card_mask(hands[me])), led, trump, top_trump, forbid,
                                           void_trump))
                    if not legal >> card & 1:
                        raise LogError(self.pos - 1, illegal_reason(seat, card, hands[me], led, trump, top_trump))
                    hands[me].remove(card)
                else:
                    self.other_play(seat, card, led, top_trump, forbid, void_trump)
                holder[card] = seat
                self.played_at[card] = (seat, self.pos - 1)
                self.plays.append((seat, card))
                self.sizes[seat] -= 1
                trick.append(card)
                if suit_of(card) == trump:
                    top_trump = max(top_trump, card)
            winner = (leader + trick_winner(np.array(trick, dtype=np.int64), trump)) % n
            self.to_play = winner
            event = self.take("trick")
            if event.get("winner") != winner:
                raise LogError(self.pos - 1, f"wrong trick winner: log says {event.get('winner')}, seat {winner} wins")
            captured[side(winner)] |= card_mask(set(trick))
            if jack in trick:
                jack_captor = side(winner)
            leader = winner
        self.to_play = None
        # Every card in play has been played: its holder is the seat that played it.
        in_play = {c for c in holder if suit_of(c) == trump}
        self.score_play(holder, in_play, jack, jack_captor, captured)

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
        need = self.remaining()
        others = sorted(need)
        for subset in range(1, 1 << len(others)):
            group = [o for i, o in enumerate(others) if subset >> i & 1]
            could = 0
            for o in group:
                could |= self.pool & ~self.lacks[o]
            wanted = sum(need[o] for o in group)
            if bin(could).count("1") < wanted:
                return (f"no dealing of the hidden cards fits: {seats_text(group)} still "
                        f"{'holds' if len(group) == 1 else 'hold'} {wanted} cards, but only {bin(could).count('1')} "
                        f"of the cards seat {self.seat} has not seen could be "
                        f"{'its' if len(group) == 1 else 'theirs'} after the voids shown")
        return None

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
