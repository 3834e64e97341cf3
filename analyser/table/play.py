"""``allfours play``: one match at the table against the computer, with a coach.

The match is dealt as the engine deals one (`computer.Shoe`) and the computer's seats decide with the engine's
own players, one decision at a time (`computer.Computer`). The deal itself is kept as ``allfours record`` keeps
a deal typed in: an `entry.Entry` holding every hand, built again after each step (`entry.build`), which says
what is due next (a turn-up, a bid, the run's cards, the bunching vote, a discard, a card), works out trick
winners and every point, and gives the ``allfours-log/1`` line. Each finished deal is appended to the log at
once (a full log: every hand), so ``replay``, ``analyse`` and ``hint`` read it. A match left in the middle of a
deal (``q``, end of input, Ctrl-C) keeps every finished deal and the deal in progress, as an unfinished line
(`resume.unfinished_line`) holding the computer's streams as the deal began; ``play --resume`` (`open_resume`)
deals that deal again from them, takes the player's decisions so far from the line and the computer's afresh
(the same streams give the same decisions: a line that plays out otherwise is refused), and goes on from where
the player left, so a resumed match is the match played straight through.

The player answers each of their decisions: a card (any spelling ``hint`` reads, or its number in the hand as
shown), a bid word, yes or no to bunch, the cards to discard; ``?`` gives the hint from their view
(``hint.hint_text``), ``q`` saves and leaves. A refused answer says why and is asked again. After each bid or
card the coach (`coach.Coach`) judges it as ``allfours analyse`` would and says what was better, when it was
worth saying. After the match: the result, the player's points and decisions, and the costliest of them.
"""

from __future__ import annotations

import dataclasses
import shlex
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from ..analysis.play.analyse import Decision
from ..game.cards import SUIT_SYMBOLS, parse_card, suit_of
from ..record.deal_account import WHY_WORDS, account, card_points
from ..game.errors import AllFoursError
from ..referee import referee_line
from ..game.rules import RuleSet, RulesError, rules_from_log
from ..record.vocabulary import BID_EVENTS
from .answers import BIDS, bid_reader, card_reader, discard_reader, read_vote
from ..analysis.play.inference import DEFAULT_INFERENCE, INFERENCES
from .coach import COACH_MODES, Coach, Judged, review_text
from .computer import OPPONENTS, Computer, Shoe, streams
from .entry import Built, Entry, EntryError, append_line, build, check_appendable
from .hint import hint_text, pretty
from .record import EndOfInput, TableIO
from .resume import LogFile, ResumeError, check_digest, read_unfinished, referee_or_refuse, unfinished_line
from .screen import Names, Style, hand_line, score_text, seating_text, sorted_hand, trick_text, upper, why_word


class Leave(Exception):
    """The player typed q: the finished deals are saved, the match is left."""


@dataclasses.dataclass
class Options:
    rules: RuleSet
    log: Path
    seat: int = 0
    opponent: str = "pimc"
    seed: int = 1
    coach: str = "mistakes"
    inference: str = DEFAULT_INFERENCE  # how the coach weighs a card's worlds (analyse --inference)
    strategy: str | None = None  # the equilibrium run the others' bids are read by (None: the shipped one)


@dataclasses.dataclass
class Resumed:
    """A match taken up again (`open_resume`): the log with its deal in progress, the deal's number in the
    match, the match's finished lines (number, line) and the computer's streams as the deal began."""

    file: LogFile
    deal: int
    earlier: list[tuple[int, dict[str, Any]]]
    cards: np.ndarray
    choices: np.ndarray


def stream_text(state: np.ndarray) -> str:
    return "".join(f"{int(w):016x}" for w in state)


def stream_of(text: Any) -> np.ndarray | None:
    if not isinstance(text, str) or len(text) != 64:
        return None
    try:
        return np.array([int(text[k:k + 16], 16) for k in range(0, 64, 16)], dtype=np.uint64)
    except ValueError:
        return None


def open_resume(path: Path) -> tuple[Options, Resumed]:
    """The match whose deal in progress is the last line of `path`: its options and where it stands. A
    `ResumeError` when there is none to resume, or the file was changed by hand; nothing is written."""
    log = read_unfinished(path, "play")
    line, number = log.line, log.number
    r = line["resume"]
    bad = ResumeError(f"{path}: line {number} does not say how to resume the match (its resume settings are "
                      "missing or wrong): it cannot be resumed")
    try:
        rules = rules_from_log(line.get("rules"))
    except RulesError:
        raise bad from None
    seat, deal, seed = r.get("seat"), r.get("deal"), r.get("seed")
    if not (isinstance(seat, int) and 0 <= seat < rules.players and isinstance(deal, int) and deal >= 1
            and isinstance(seed, int) and seed >= 0 and r.get("opponent") in OPPONENTS
            and r.get("coach") in COACH_MODES and isinstance(r.get("streams"), dict)
            and r.get("inference", DEFAULT_INFERENCE) in INFERENCES
            and isinstance(r.get("strategy", ""), str)):
        raise bad
    cards, choices = stream_of(r["streams"].get("cards")), stream_of(r["streams"].get("choices"))
    if cards is None or choices is None:
        raise bad
    if deal - 1 > len(log.lines):
        raise ResumeError(f"{path}: line {number} is deal {deal} of its match, but only {len(log.lines)} lines come "
                          "before it: it cannot be resumed")
    earlier = log.lines[len(log.lines) - (deal - 1):]
    check_digest(line, number, path, [obj for _, obj in earlier])
    score = [0] * rules.sides
    for k, obj in earlier:
        referee_or_refuse(obj, k, path, cut=False)
        if obj.get("score_before") != score or obj.get("winner") is not None or obj.get("rules") != line["rules"]:
            raise ResumeError(f"{path}: line {k} does not carry on the match's score: it cannot be resumed")
        score = obj["score_after"]
    if line.get("score_before") != score:
        raise ResumeError(f"{path}: line {number} does not carry on the match's score: it cannot be resumed")
    referee_or_refuse(line, number, path, cut=True)
    options = Options(rules, path, seat=seat, opponent=r["opponent"], seed=seed, coach=r["coach"],
                      inference=r.get("inference", DEFAULT_INFERENCE), strategy=r.get("strategy"))
    return options, Resumed(log, deal, earlier, cards, choices)


class Script:
    """The player's decisions in the deal in progress of a resumed match, as its line gives them."""

    def __init__(self, events: list[dict[str, Any]], me: int):
        mine = [ev for ev in events if ev.get("seat") == me]
        self.bids = deque(str(ev["event"]) for ev in mine if ev["event"] in BID_EVENTS)
        self.votes = deque(bool(ev["agreed"]) for ev in events if ev["event"] == "bunch")
        self.discards = deque([parse_card(c) for c in ev["cards"]] for ev in mine if ev["event"] == "discard")
        self.cards = deque(parse_card(ev["card"]) for ev in mine if ev["event"] == "play")
        self.events = events


def lines_in(path: Path) -> int:
    """Lines already in the log (as ``analyse`` numbers them): the next deal is line `lines_in + 1`."""
    if not path.exists():
        return 0
    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
        return sum(1 for _ in handle)


class Game:
    """One match: the player at seat `options.seat`, the computer at every other seat."""

    def __init__(self, io: TableIO, options: Options, style: Style | None = None, resumed: Resumed | None = None):
        self.io = io
        self.o = options
        self.rules = options.rules
        self.n = self.rules.players
        self.me = options.seat
        if not 0 <= self.me < self.n:
            raise EntryError(f"--seat {self.me}: the rules have seats 0 to {self.n - 1} ({self.n} players)")
        self.style = style or Style(False)
        self.names = Names(self.rules, self.me)
        self.log = check_appendable(options.log)
        deck_rng, choice_rng = streams(options.seed)
        self.shoe = Shoe(deck_rng)
        self.computer = Computer(self.rules, options.opponent, choice_rng, human=self.me)
        self.coach = Coach(self.rules, self.me, options.seed, options.coach, inference=options.inference,
                           strategy=options.strategy)
        self.first_line = lines_in(self.log) + 1
        self.saved: list[tuple[int, dict[str, Any]]] = []  # (log line number, line) of each finished deal
        self.judged: list[Judged] = []
        self.deal_no = 0
        self.in_deal = False
        self.resumed = resumed
        self.pending: LogFile | None = None   # the log, when its last line is this match's deal in progress
        self.script: Script | None = None     # the player's decisions still to take from it (a resumed deal)
        self.current: Built | None = None     # the deal in progress, as far as it has gone
        self.line_streams = (self.shoe.deck_rng.copy(), self.computer.rng.copy())
        self.kept: int | None = None          # the line the deal in progress was kept as, on leaving
        if resumed is not None:
            self.pending = resumed.file
            self.saved = list(resumed.earlier)
            self.first_line = resumed.earlier[0][0] if resumed.earlier else resumed.file.number
            self.deal_no = resumed.deal - 1
            self.shoe.deck_rng[:] = resumed.cards
            self.computer.rng[:] = resumed.choices
        self.winner: int | None = None
        self.told = 0            # points of the line said so far
        self.tricks_told = 0     # tricks of the deal said so far
        self.trump_told = False

    # talking

    def say(self, text: str = "") -> None:
        self.io.write(text)

    def question(self, prompt: str, parse: Callable[[str], Any], hint: Callable[[], None] | None = None) -> Any:
        """Ask until `parse` takes the answer; ``?``/``hint`` for the hint, ``q`` to leave."""
        while True:
            try:
                text = self.io.read(prompt + " ").strip()
            except EOFError:
                raise EndOfInput from None
            word = text.lower()
            if word in ("q", "quit"):
                raise Leave
            if word in ("?", "hint"):
                if hint is None:
                    self.refuse("the hint is for a bid or a card")
                else:
                    hint()
                continue
            if not text:
                self.refuse("the answer is empty")
                continue
            try:
                return parse(text)
            except AllFoursError as err:
                self.refuse(str(err))

    def refuse(self, reason: str) -> None:
        self.say(self.style.refuse(f"  no: {reason}"))

    def hint_for(self, built: Built) -> Callable[[], None]:
        def show_hint() -> None:
            try:
                self.say(hint_text(built.line, self.me, self.o.seed, self.o.inference, self.o.strategy))
            except AllFoursError as err:
                self.say(f"  no hint: {err}")
        return show_hint

    def coach_on(self, built: Built, chosen: str | int) -> None:
        """Judge the player's decision due in `built`, made as `chosen`; the coach's word on it."""
        if self.coach.mode == "off":
            return
        decision = self.coach.judge(built.line, self.line_number, chosen)
        if decision is None:
            return
        self.judged.append(Judged(self.deal_no, decision))
        words = self.coach.comment(decision)
        if words:
            self.say(self.style.coach(f"  Coach: {words}"))

    @property
    def line_number(self) -> int:
        """The log line the deal in progress will be."""
        if self.resumed is not None:
            return self.resumed.file.number + len(self.saved) - len(self.resumed.earlier)
        return self.first_line + len(self.saved)

    # the match

    def run(self) -> None:
        r, names = self.rules, self.names
        others = [s for s in range(self.n) if s != self.me]
        self.say(self.style.head(f"All Fours: {r.preset}, {self.n} players, to {r.target} points."))
        seats = ", ".join(map(str, others[:-1])) + (" and " if len(others) > 1 else "") + str(others[-1])
        self.say(f"{upper(seating_text(self.n, self.me))}. The computer ({self.o.opponent}) plays seat"
                 f"{'s' * (len(others) > 1)} {seats}.")
        self.say(f"Seed {self.o.seed}; coach: {self.o.coach}. Each deal is added to {self.log} as it ends.")
        self.say("Answer with a card (10h, th, t♥) or its number in your hand, ? for the hint, q to save and leave.")
        if self.resumed is not None:
            line = self.resumed.file.line
            dealer, score = int(line["dealer"]), list(line["score_before"])
            self.say(f"Resuming the match in {self.log}: deal {self.resumed.deal} (line {self.resumed.file.number}), "
                     f"score {score_text(names, score)}. The deal so far:")
        else:
            dealer = self.shoe.cut(self.n)
            score = [0] * r.sides
        while True:
            built = self.dealer_turn(dealer, score)
            if built.winner is not None:
                break
            dealer = (dealer + 1) % self.n
            score = built.score
        self.winner = built.winner
        self.say()
        won = self.names.side(built.winner)
        verb = "win" if won == "you" else "wins"
        self.say(self.style.head(f"Match over: {upper(won)} {verb}: {score_text(names, built.score)}."))
        self.after_match()

    def dealer_turn(self, dealer: int, score: list[int]) -> Built:
        """One dealer's turn (a log line): the deal, and every redeal it needs."""
        self.deal_no += 1
        self.line_streams = (self.shoe.deck_rng.copy(), self.computer.rng.copy())
        self.shoe.new_line()
        self.in_deal = True
        if self.resumed is not None and self.deal_no == self.resumed.deal:
            self.script = Script(self.resumed.file.line["events"], self.me)
        self.told = 0     # points said so far in the line
        eldest = (dealer + 1) % self.n
        self.say()
        self.say(self.style.head(f"── Deal {self.deal_no}: {self.names.seat(dealer)} deal"
                                 f"{'' if dealer == self.me else 's'}, {self.names.seat(eldest)} "
                                 f"{'are' if eldest == self.me else 'is'} the eldest ──"))
        earlier: list[dict[str, Any]] = []
        while True:
            entry = Entry(self.rules, dealer, list(score), seat=None, earlier=list(earlier))
            entry.hands = self.shoe.hands(self.n, eldest)
            result = self.deal(entry)
            if isinstance(result, Built):
                self.in_deal = False
                return result
            earlier = result
            self.shoe.redeal()

    def deal(self, entry: Entry) -> Built | list[dict[str, Any]]:
        """One deal, step by step: the finished build, or the line's events so far when the deal is void."""
        self.tricks_told = 0
        self.trump_told = False
        started = False
        while True:
            built = self.current = build(entry)
            self.tell(built)
            due = built.due
            if due.kind == "redeal":
                self.say(f"Redeal: {due.text}.")
                return list(built.line["events"])
            if due.kind == "over":
                self.finish(built)
                return built
            if due.kind == "turnup":
                card = self.shoe.next()
                entry.turnups.append(card)
                self.say(("Turn-up: " if due.run == 0 else "Turned up after the run: ") + self.style.card(card))
            elif due.kind == "more":
                rc = self.rules.run_cards
                for k in range(self.n):
                    s = (entry.eldest + k) % self.n
                    entry.hands[s] = entry.hands[s] + [self.shoe.next() for _ in range(rc)]
                self.say(f"The cards are run: {rc} more to every seat. Yours: "
                         + " ".join(self.style.card(c) for c in sorted_hand(entry.hands[self.me][-rc:])))
            elif due.kind == "bid":
                entry.bids.append(self.bid(built, entry))
            elif due.kind == "bunch":
                entry.bunch = self.bunch(built, entry)
            elif due.kind == "discard":
                assert due.seat is not None
                entry.discards[due.seat] = self.discard(built, entry, due.seat)
            else:
                assert due.kind == "card" and due.seat is not None and built.trump is not None
                if not started:
                    hands = {s: self.held(entry, s, []) for s in range(self.n)}
                    self.computer.start_play(hands, built.trump, entry.turnups[-1], entry.dealer, built.score,
                                             entry.turnups, entry.discards)
                    started = True
                if due.seat != self.me:
                    card = self.computer.card(due.seat)
                else:
                    card = self.scripted_card(built, entry) if self.catching_up(built, self.script and self.script.cards) \
                        else self.my_card(built, entry)
                entry.played.append(card)
                self.computer.play(card)

    def held(self, entry: Entry, seat: int, played: list[int]) -> list[int]:
        gone = set(entry.discards.get(seat, [])) | set(played)
        return [c for c in entry.hands[seat] if c not in gone]

    def tell(self, built: Built) -> None:
        """What the last step brought: points before play (kicks, the gift, the jack bonus), trump, tricks."""
        names = self.names
        for side, n, why in built.points[self.told:]:
            if why in ("kick", "gift", "jack-bonus"):
                self.say(f"  {upper(names.scores(side))} {n} for the {WHY_WORDS[why]}.")
        self.told = len(built.points)
        if built.trump is not None and not self.trump_told and built.due.kind not in ("redeal", "bunch"):
            self.trump_told = True
            self.say(f"Trump: {self.style.suit(built.trump)}.")
        walk = built.walk
        if walk is None:
            return
        for t in walk.done[self.tricks_told:]:
            assert t.winner is not None
            best = t.cards[(t.winner - t.leader) % self.n]
            points = card_points(t.cards)
            self.say(f"Trick {walk.tricks.index(t) + 1}: {trick_text(self.style, names, t)}: "
                     f"{names.does(t.winner, 'wins', 'win')} with {self.style.card(best)} "
                     f"({points} card point{'s' * (points != 1)}).")
        self.tricks_told = len(walk.done)

    # a resumed deal: the player's decisions so far, from its line

    def catching_up(self, built: Built, left: Any) -> bool:
        """True while the player's decisions are taken from the resumed deal's line (`left`: those still to take
        of the kind due); at the first decision the line does not hold, the deal so far must be the line's."""
        if self.script is None:
            return False
        if left:
            return True
        self.end_catch_up(built)
        return False

    def end_catch_up(self, built: Built) -> None:
        assert self.script is not None and self.resumed is not None
        theirs, ours = self.script.events, built.line["events"]
        if ours[:len(theirs)] != theirs:
            raise ResumeError(f"{self.log}: line {self.resumed.file.number} does not play out as it was saved (the "
                              "computer's decisions differ): it cannot be resumed")
        self.script = None
        self.say(self.style.bold("── You left the match here; it goes on. ──"))

    def off_script(self, what: str) -> ResumeError:
        assert self.resumed is not None
        return ResumeError(f"{self.log}: line {self.resumed.file.number} does not play out as it was saved ({what}): "
                           "it cannot be resumed")

    def scripted_card(self, built: Built, entry: Entry) -> int:
        assert self.script is not None and built.walk is not None
        card = self.script.cards.popleft()
        walk = built.walk
        hand = self.held(entry, self.me, [c for s, c in zip(walk.seats, walk.cards) if s == self.me])
        if card not in hand or not walk.legal(hand) >> card & 1:
            raise self.off_script(f"you could not play {pretty(card)} there")
        return card

    # the player's decisions

    def table(self, built: Built, entry: Entry, hand: list[int], playable: int | None) -> None:
        """The table as the player sees it before a decision."""
        names, style = self.names, self.style
        walk = built.walk
        ups = entry.turnups
        self.say()
        if walk is None:
            self.say(style.bold(f"Deal {self.deal_no} · turn-up {pretty(ups[-1])} · score "
                                f"{score_text(names, built.score)}"))
        else:
            self.say(style.bold(f"Deal {self.deal_no} · trick {walk.number} of {built.hand_size} · trump "
                                f"{SUIT_SYMBOLS[walk.trump]} (turn-up {pretty(ups[-1])}) · score "
                                f"{score_text(names, built.score)}"))
            so_far = trick_text(style, names, walk.trick) if walk.trick.cards else "nothing yet: you lead"
            self.say(f"  This trick: {so_far}")
        self.say(f"  Your hand:  {hand_line(style, hand, playable)}")

    def my_card(self, built: Built, entry: Entry) -> int:
        walk = built.walk
        assert walk is not None
        mine = [c for s, c in zip(walk.seats, walk.cards) if s == self.me]
        hand = sorted_hand(self.held(entry, self.me, mine))
        playable = walk.legal(hand)
        if playable & (playable - 1) == 0:  # one legal card: no decision
            card = next(c for c in hand if playable >> c & 1)
            self.say(f"You play {self.style.card(card)}, your only legal card.")
            return card
        self.table(built, entry, hand, playable)
        turn = "Your lead" if not walk.trick.cards else f"Your turn ({SUIT_SYMBOLS[walk.led]} led)"

        card = int(self.question(f"{turn}: your card (1-{len(hand)}, ? hint, q leave):",
                                 card_reader(hand, walk), self.hint_for(built)))
        self.coach_on(built, card)
        return card

    def bid(self, built: Built, entry: Entry) -> str:
        due = built.due
        role, seat = due.role, due.seat
        assert role is not None and seat is not None
        if seat == self.me and self.catching_up(built, self.script and self.script.bids):
            assert self.script is not None
            bid = self.script.bids.popleft()
            if bid not in BIDS[role]:
                raise self.off_script(f"you are the {role} there, and cannot {bid}")
            self.say(f"You, the {role}, {bid}.")
        elif seat == self.me:
            bid = self.my_bid(built, entry, role)
        elif role == "eldest":
            begs = self.computer.beg(seat, entry.hands[seat][:6], entry.turnups[0], entry.dealer, built.score)
            bid = "beg" if begs else "stand"
        else:
            gives = self.computer.give(seat, entry.hands[seat][:6], entry.turnups[0], entry.dealer, built.score)
            bid = "give" if gives else "run"
        bids = [*entry.bids, bid]
        if bid != "beg":
            self.computer.note_bids(bids, entry.turnups[0], built.score)
        if seat != self.me:
            words = {"stand": "stands", "beg": "begs", "give": "gives one", "run": "runs the cards"}
            self.say(f"{self.names.Seat(seat)}, the {role}, {words[bid]}.")
        return bid

    def my_bid(self, built: Built, entry: Entry, role: str) -> str:
        self.table(built, entry, sorted_hand(entry.hands[self.me][:6]), None)
        first, second = BIDS[role]
        bid = str(self.question(f"You are the {role}: {first} or {second}? ({first[0]}/{second[0]}, ? hint, q leave):",
                                bid_reader(role), self.hint_for(built)))
        self.coach_on(built, bid)
        return bid

    def bunch(self, built: Built, entry: Entry) -> bool:
        trump = suit_of(entry.turnups[-1])
        self.say(f"Bunching: if all four agree, the same dealer deals again; if not, the deal is played with "
                 f"trump {self.style.suit(trump)}.")
        agreed = True
        for k in range(self.n):
            s = (entry.eldest + k) % self.n
            if s == self.me and self.catching_up(built, self.script and self.script.votes):
                assert self.script is not None
                vote = self.script.votes.popleft()  # all four agreed, or the deal was played: your vote so far
                self.say(f"  You: {'yes' if vote else 'no'}.")
            elif s == self.me:
                vote = self.my_vote(built, entry)
            else:
                vote = self.computer.bunch(s, entry.hands[s], trump, entry.dealer, built.score)
                self.say(f"  {self.names.Seat(s)}: {'yes' if vote else 'no'}.")
            agreed = agreed and vote
        self.say("All four agree: the cards are bunched." if agreed else "Not all agree: the deal is played.")
        return agreed

    def my_vote(self, built: Built, entry: Entry) -> bool:
        self.table(built, entry, sorted_hand(entry.hands[self.me]), None)
        return bool(self.question("Do you agree to bunch? (y/n, q leave):", read_vote))

    def discard(self, built: Built, entry: Entry, seat: int) -> list[int]:
        assert built.trump is not None
        if seat == self.me and self.catching_up(built, self.script and self.script.discards):
            assert self.script is not None
            cards = self.script.discards.popleft()
            if len(cards) != len(entry.hands[seat]) - 6 or not set(cards) <= set(entry.hands[seat]):
                raise self.off_script("your discard is not in your hand")
            self.say("You discard " + " ".join(self.style.card(c) for c in sorted_hand(cards)) + ".")
            return cards
        if seat == self.me:
            return self.my_discard(built, entry)
        hand = entry.hands[seat]
        self.say(f"{self.names.Seat(seat)} discards {len(hand) - 6} cards.")
        return self.computer.discard(seat, hand, built.trump)

    def my_discard(self, built: Built, entry: Entry) -> list[int]:
        assert built.trump is not None
        shown = sorted_hand(entry.hands[self.me])
        count = len(shown) - 6
        self.table(built, entry, shown, None)
        return list(self.question(f"Trump is {SUIT_SYMBOLS[built.trump]}: discard {count} of your {len(shown)} "
                                  "cards (cards or numbers, q leave):", discard_reader(shown, count)))

    # the end of a deal, and of the match

    def finish(self, built: Built) -> None:
        """The deal is over: append it to the log; its points with their reasons and the card points."""
        line = built.line
        if self.script is not None:
            self.end_catch_up(built)
        number = self.line_number
        if self.pending is not None:
            self.pending.replace_last(line)
            self.pending = None
        else:
            append_line(self.log, line)
        self.saved.append((number, line))
        names = self.names
        acc = account(line, referee_line(line))
        self.say(self.style.bold(f"Deal {self.deal_no} is over."))
        for item in acc["entries"]:
            if item["kind"] == "card-points":
                totals = ", ".join(f"{names.side(s)} {t}" for s, t in enumerate(item["totals"]))
                self.say(f"  Card points for Game: {totals}")
            elif item["kind"] == "note":
                self.say(f"  {item['text']}")
            elif item["kind"] == "points":
                self.say(f"  {why_word(item['why'])}: {names.side(item['side'])} {item['n']} ({item['reason']})")
        self.say(f"Score: {score_text(names, built.score)}. Saved as line {number} of {self.log}.")

    def decisions(self) -> list[Decision]:
        """Every decision of the player's in the match, judged (by the coach, or now by analyse)."""
        if self.coach.mode != "off" and self.resumed is None:
            return [j.decision for j in self.judged]
        # coach off, or a resumed match (the decisions before it was left were judged in another run): analyse
        self.say(f"Judging your decisions as `allfours analyse` does (seed {self.o.seed})...")
        found = self.coach.review(self.saved)
        deal_of = {number: k + 1 for k, (number, _) in enumerate(self.saved)}
        self.judged = [Judged(deal_of[d.line], d) for d in found]
        return found

    def after_match(self) -> None:
        r = self.rules
        mine = r.side_of(self.me)
        points: dict[str, int] = {}
        for _, line in self.saved:
            for side, n, why in referee_line(line).points:
                if side == mine:
                    points[why_word(why)] = points.get(why_word(why), 0) + n
        whose = "Your side's" if self.n == 4 else "Your"
        got = ", ".join(f"{k} {v}" for k, v in points.items()) or "none"
        self.say(f"{whose} points over {len(self.saved)} deal{'s' * (len(self.saved) != 1)}: {got}.")
        decisions = self.decisions()
        for text in review_text(decisions, self.judged, self.coach.thresholds):
            self.say(text)
        last = self.line_number - 1
        where = f"line {last}" if last == self.first_line else f"lines {self.first_line} to {last}"
        self.say(f"The log: {self.log} ({where}).")
        self.say(f"Its analysis as a web page: {self.analysis_command()}")

    def analysis_command(self) -> str:
        """The command that writes the analysis of the log (your seat, the coach's seed) as a web page."""
        weighed = "" if self.o.inference == DEFAULT_INFERENCE else f" --inference {self.o.inference}"
        if self.o.strategy is not None and self.o.inference != "none":
            weighed += f" --strategy {shlex.quote(self.o.strategy)}"
        return f"allfours analyse {self.log} --seat {self.me} --seed {self.o.seed}{weighed} --out allfours-analysis"

    def keep_deal(self) -> None:
        """Leaving in the middle of a deal: the deal so far is kept as the log's last line, unfinished, with what
        ``play --resume`` needs (`resume.unfinished_line`). Nothing is written while a resumed deal is still being
        dealt again: its line is in the log as it was."""
        if not self.in_deal or self.current is None or self.script is not None or self.winner is not None:
            return
        cards, choices = self.line_streams
        resume = {"command": "play", "seat": self.me, "opponent": self.o.opponent, "seed": self.o.seed,
                  "coach": self.o.coach, "inference": self.o.inference,
                  **({"strategy": self.o.strategy} if self.o.strategy is not None else {}), "deal": self.deal_no,
                  "streams": {"cards": stream_text(cards), "choices": stream_text(choices)}}
        line = unfinished_line(self.current, resume, [obj for _, obj in self.saved])
        number = self.line_number
        if self.pending is not None:
            self.pending.replace_last(line)
        else:
            append_line(self.log, line)
        self.kept = number

    def saved_words(self) -> str:
        n = len(self.saved) - (len(self.resumed.earlier) if self.resumed is not None else 0)
        text = f"{n} finished deal{'s' * (n != 1)} saved to {self.log}"
        if self.kept is not None:
            return text + f", and the deal in progress as line {self.kept}"
        if self.in_deal and self.script is not None and self.resumed is not None:
            return text + f"; the deal in progress stays as it was, in line {self.resumed.file.number}"
        return text + (" (the deal in progress is not saved)" if self.in_deal else "")

    def resume_command(self) -> str | None:
        """The command that goes on with the match, when its deal in progress is in the log."""
        if self.kept is None and not (self.in_deal and self.script is not None):
            return None
        return f"allfours play --resume --log {shlex.quote(str(self.log))}"


__all__ = ["Game", "Leave", "Options", "Resumed", "open_resume"]
