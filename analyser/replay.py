"""The referee: checks an ``allfours-log/1`` line against the rules, event by event.

It walks the grammar of docs/game-log.md with the rules' own kernels (legal
moves, trick winner, kick and Game points) and recomputes every point. A line with
``points`` events has them checked (side, amount, category, order, and that the log
ends the moment a side reaches the target); a line without any is scored.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .cards import SUIT_WORDS, SUITS, CardError, card_name, parse_card, parse_suit, rank_of, suit_of
from .engine.bits import game_points
from .engine.deal import HAND_SIZE, kick_points, legal_mask, trick_winner
from .gamelog import FORMAT
from .errors import AllFoursError
from .rules import KICKS, RuleSet, RulesError, rules_from_log


class LogError(AllFoursError):
    """A line that breaks the rules or the format: `event` is the event index (-1: the line itself)."""

    def __init__(self, event: int, reason: str):
        super().__init__(reason)
        self.event = event
        self.reason = reason


@dataclass
class Verdict:
    points: list[tuple[int, int, str]] = field(default_factory=list)
    score_after: list[int] = field(default_factory=list)
    winner: int | None = None
    scored: bool = False  # True when the line had no points events and was scored here


class _MatchOver(Exception):
    pass


def _mask(cards: set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


class _Referee:
    def __init__(self, obj: dict[str, Any]):
        if not isinstance(obj, dict):
            raise LogError(-1, "a line must be a JSON object")
        if obj.get("format") != FORMAT:
            raise LogError(-1, f"format must be {FORMAT!r}, not {obj.get('format')!r}")
        try:
            self.rules: RuleSet = rules_from_log(obj.get("rules"))
        except RulesError as err:
            reason = str(err)
            raise LogError(-1, reason if reason.startswith("rules") else f"rules: {reason}") from None
        r = self.rules
        self.n = r.players
        self.dealer = self._int(obj.get("dealer"), "dealer", 0, self.n - 1)
        self.eldest = (self.dealer + 1) % self.n
        before = obj.get("score_before")
        if not isinstance(before, list) or len(before) != r.sides:
            raise LogError(-1, f"score_before must list {r.sides} scores, one per side")
        self.score = [self._int(s, "score_before", 0, r.target - 1) for s in before]
        events = obj.get("events")
        if not isinstance(events, list):
            raise LogError(-1, "events must be a list")
        self.events: list[Any] = events
        self.check = any(isinstance(e, dict) and e.get("event") == "points" for e in self.events)
        self.pos = 0
        self.verdict = Verdict(scored=not self.check)
        self.obj = obj

    # --- reading events ------------------------------------------------------

    @staticmethod
    def _int(value: Any, what: str, lo: int, hi: int, event: int = -1) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise LogError(event, f"{what} must be a whole number, not {value!r}")
        if not lo <= value <= hi:
            raise LogError(event, f"{what}={value} is out of range {lo}..{hi}")
        return value

    def _take(self, *names: str) -> dict[str, Any]:
        want = " or ".join(names)
        if self.pos >= len(self.events):
            raise LogError(self.pos, f"the log ends early: expected {want}")
        event = self.events[self.pos]
        if not isinstance(event, dict) or "event" not in event:
            raise LogError(self.pos, "an event must be an object with an 'event' name")
        name = event["event"]
        if name not in names:
            if name == "points":
                raise LogError(self.pos, f"extra points event ({self._points_text(event)}): expected {want}")
            raise LogError(self.pos, f"unexpected event {name!r}: expected {want}")
        self.pos += 1
        return event

    def _peek(self) -> str | None:
        if self.pos < len(self.events) and isinstance(self.events[self.pos], dict):
            return self.events[self.pos].get("event")
        return None

    def _seat(self, event: dict[str, Any], expected: int, role: str) -> None:
        seat = self._int(event.get("seat"), "seat", 0, self.n - 1, self.pos - 1)
        if seat != expected:
            raise LogError(self.pos - 1, f"{event['event']} by seat {seat} out of turn: the {role} is seat {expected}")

    def _card(self, token: Any) -> int:
        try:
            return parse_card(token)
        except CardError as err:
            raise LogError(self.pos - 1, str(err)) from None

    def _cards(self, tokens: Any, count: int, what: str) -> list[int]:
        if not isinstance(tokens, list) or len(tokens) != count:
            raise LogError(self.pos - 1, f"{what} must be a list of {count} cards")
        return [self._card(t) for t in tokens]

    def _fresh(self, card: int, used: set[int]) -> None:
        if card in used:
            raise LogError(self.pos - 1, f"card {card_name(card)} dealt twice")
        used.add(card)

    @staticmethod
    def _points_text(event: dict[str, Any]) -> str:
        return f"side {event.get('side')} {event.get('n')} {event.get('why')}"

    # --- points --------------------------------------------------------------

    def _score(self, side: int, n: int, why: str, totals: list[int] | None = None) -> None:
        if n <= 0 or self.verdict.winner is not None:  # nothing scores once the match is won
            return
        if self.check:
            if self._peek() != "points":
                got = self._peek() or "the end of the log"
                raise LogError(self.pos, f"missing points: side {side} scores {n} for {why}, log has {got}")
            event = self.events[self.pos]
            if (event.get("side"), event.get("n"), event.get("why")) != (side, n, why):
                raise LogError(
                    self.pos, f"wrong points: log has {self._points_text(event)}, the rules give side {side} {n} {why}"
                )
            if why == "game" and "totals" in event and event["totals"] != totals:
                raise LogError(self.pos, f"wrong game totals: log has {event['totals']}, captured {totals}")
            self.pos += 1
        self.verdict.points.append((side, n, why))
        self.score[side] += n
        if self.score[side] >= self.rules.target:
            self.verdict.winner = side
            # A checked log ends right here; an unchecked one (a record of a real deal)
            # may end here or go on with the rest of the deal, which is still refereed.
            if self.check or self.pos >= len(self.events):
                raise _MatchOver

    # --- the deal ------------------------------------------------------------

    def run(self) -> Verdict:
        try:
            self._line()
        except _MatchOver:
            pass
        if self.pos < len(self.events):
            what = "the target was reached" if self.verdict.winner is not None else "the deal is over"
            raise LogError(self.pos, f"unexpected event {self.events[self.pos].get('event')!r} after {what}")
        self.verdict.score_after = list(self.score)
        if not self.check:  # scored, not checked: score_after and winner may be absent
            return self.verdict
        after = self.obj.get("score_after")
        if after != self.score:
            raise LogError(-1, f"wrong score_after: log has {after}, the rules give {self.score}")
        if self.obj.get("winner", None) != self.verdict.winner:
            raise LogError(-1, f"wrong winner: log has {self.obj.get('winner')}, the rules give {self.verdict.winner}")
        return self.verdict

    def _line(self) -> None:
        r, n = self.rules, self.n
        side = self.rules.side_of
        dside, eside = side(self.dealer), side(self.eldest)
        kick = KICKS.index(r.kick)
        while True:
            event = self._take("deal")
            if not isinstance(event.get("hands"), list) or len(event["hands"]) != n:
                raise LogError(self.pos - 1, f"deal must list {n} hands, one per seat")
            used: set[int] = set()
            hands = []
            for seat, tokens in enumerate(event["hands"]):
                cards = self._cards(tokens, HAND_SIZE, f"hand of seat {seat}")
                for c in cards:
                    self._fresh(c, used)
                hands.append(set(cards))
            turnup = self._card(self._take("turnup").get("card"))
            self._fresh(turnup, used)
            self._score(dside, kick_points(kick, turnup), "kick")
            trump = suit_of(turnup)
            decision = self._take("stand", "beg")
            self._seat(decision, self.eldest, "eldest")
            ran = void = False
            if decision["event"] == "beg":
                answer = self._take("give", "run")
                self._seat(answer, self.dealer, "dealer")
                if answer["event"] == "give":
                    self._score(eside, r.gift, "gift")
                else:
                    ran = True
                    while True:
                        left = 52 - len(used)
                        if left < r.run_cards * n + 1:
                            redeal = self._take("redeal")
                            if redeal.get("reason") != "exhausted":
                                raise LogError(self.pos - 1, f"redeal reason must be 'exhausted', not {redeal.get('reason')!r}")
                            void = True
                            break
                        if self._peek() == "redeal":
                            raise LogError(self.pos, f"the pack is not exhausted: {left} cards remain for a run")
                        more = self._take("more")
                        if not isinstance(more.get("hands"), list) or len(more["hands"]) != n:
                            raise LogError(self.pos - 1, f"more must list {n} hands, one per seat")
                        for seat, tokens in enumerate(more["hands"]):
                            for c in self._cards(tokens, r.run_cards, f"more cards of seat {seat}"):
                                self._fresh(c, used)
                                hands[seat].add(c)
                        turnup = self._card(self._take("turnup").get("card"))
                        self._fresh(turnup, used)
                        self._score(dside, kick_points(kick, turnup), "kick")
                        if suit_of(turnup) != trump:
                            trump = suit_of(turnup)
                            break
            if void:
                continue
            if ran and r.bunching:
                vote = self._take("bunch")
                if not isinstance(vote.get("agreed"), bool):
                    raise LogError(self.pos - 1, "bunch needs 'agreed': true or false")
                if vote["agreed"]:
                    redeal = self._take("redeal")
                    if redeal.get("reason") != "bunched":
                        raise LogError(self.pos - 1, f"redeal reason must be 'bunched', not {redeal.get('reason')!r}")
                    continue
            break

        fixed = self._take("trump")
        try:
            suit = parse_suit(str(fixed.get("suit")))
        except CardError as err:
            raise LogError(self.pos - 1, str(err)) from None
        if suit != trump:
            raise LogError(self.pos - 1, f"trump is {SUITS[trump]} (the last turn-up), not {SUITS[suit]}")
        if r.kick == "final-jack" and rank_of(turnup) == 9:
            self._score(dside, 1, "jack-bonus")
        if r.discard:
            self._discards(hands)
        self._play(hands, trump)

    def _discards(self, hands: list[set[int]]) -> None:
        due = {s for s in range(self.n) if len(hands[s]) > HAND_SIZE}
        while due:
            event = self._take("discard")
            seat = self._int(event.get("seat"), "seat", 0, self.n - 1, self.pos - 1)
            if seat not in due:
                raise LogError(self.pos - 1, f"seat {seat} may not discard (already six cards, or discarded)")
            cards = self._cards(event.get("cards"), len(hands[seat]) - HAND_SIZE, f"discard of seat {seat}")
            for c in cards:
                if c not in hands[seat]:
                    raise LogError(self.pos - 1, f"seat {seat} discards {card_name(c)}, which it does not hold")
            if len(set(cards)) != len(cards):
                raise LogError(self.pos - 1, f"seat {seat} discards a card twice")
            hands[seat] -= set(cards)
            due.remove(seat)

    def _play(self, hands: list[set[int]], trump: int) -> None:
        r, n = self.rules, self.n
        side = r.side_of
        sizes = {len(h) for h in hands}
        if len(sizes) != 1:
            raise LogError(self.pos, f"hands must be equal before play, not of sizes {sorted(sizes)}")
        in_play = {c for h in hands for c in h if suit_of(c) == trump}
        holder = {c: s for s, h in enumerate(hands) for c in h}
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
                event = self._take("play")
                played_by = self._int(event.get("seat"), "seat", 0, n - 1, self.pos - 1)
                if played_by != seat:
                    raise LogError(self.pos - 1, f"play by seat {played_by} out of turn: seat {seat} is to play")
                card = self._card(event.get("card"))
                if card not in hands[seat]:
                    raise LogError(self.pos - 1, f"seat {seat} plays {card_name(card)}, which it does not hold")
                led = suit_of(trick[0]) if trick else -1
                legal = int(legal_mask(np.uint64(_mask(hands[seat])), led, trump, top_trump, forbid, void_trump))
                if not legal >> card & 1:
                    raise LogError(self.pos - 1, self._illegal(seat, card, hands[seat], led, trump, top_trump))
                hands[seat].remove(card)
                trick.append(card)
                if suit_of(card) == trump:
                    top_trump = max(top_trump, card)
            winner = (leader + trick_winner(np.array(trick, dtype=np.int64), trump)) % n
            event = self._take("trick")
            if event.get("winner") != winner:
                raise LogError(self.pos - 1, f"wrong trick winner: log says {event.get('winner')}, seat {winner} wins")
            captured[side(winner)] |= _mask(set(trick))
            if jack in trick:
                jack_captor = side(winner)
            leader = winner
        if in_play:
            self._score(side(holder[max(in_play)]), 1, "high")
            self._score(side(holder[min(in_play)]), 1, "low")
        if jack in in_play:
            if r.hang_jack and side(holder[jack]) != jack_captor:
                self._score(jack_captor, 3, "hang-jack")
            else:
                self._score(jack_captor, 1, "jack")
        totals = [int(game_points(np.uint64(m))) for m in captured]
        best = max(totals)
        tied = [s for s, t in enumerate(totals) if t == best]
        if len(tied) == 1:
            self._score(tied[0], 1, "game", totals)
        elif r.game_tie != "none":
            others = [s for s in tied if s != side(self.dealer)]
            if len(others) == 1:
                self._score(others[0], 1, "game", totals)

    def _illegal(self, seat: int, card: int, hand: set[int], led: int, trump: int, top_trump: int) -> str:
        name = card_name(card)
        if led == trump:
            return f"illegal play: seat {seat} plays {name} on a trump lead while holding trump"
        if suit_of(card) not in (led, trump) and any(suit_of(c) == led for c in hand):
            return f"illegal play: seat {seat} plays {name} holding {SUITS[led]}: must follow suit or trump"
        if suit_of(card) != trump and not any(suit_of(c) == led for c in hand):
            held = " ".join(card_name(c) for c in sorted(hand, reverse=True) if suit_of(c) == trump)
            return (f"illegal play: seat {seat} must trump: holds {held}, no {SUIT_WORDS[led]} "
                    f"(void_play=trump)")
        return f"illegal play: seat {seat} undertrumps with {name} below {card_name(top_trump)}"


def referee_line(obj: Any) -> Verdict:
    """Referee one parsed log line; raises LogError naming the first wrong event."""
    return _Referee(obj).run()


def referee_text(text: str) -> Verdict:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        # json's messages may end in "at" ("Invalid control character at"): the column follows once.
        what = err.msg.removesuffix(" at").rstrip(":")
        raise LogError(-1, f"not valid JSON: {what[:1].lower() + what[1:]} at column {err.colno}") from None
    return referee_line(obj)
