"""``allfours record``: a real deal entered as it is played, question by question, each answer checked at once.

The questions follow the deal: the rules, the dealer, whose hand is known (one seat's, or every seat's), the
score, then each deal's hands, turn-ups, bids, run cards, bunching vote, discards and every card in the order
it is played, saying whose turn it is. After each answer the whole deal is built again (`entry.build`): an
answer the deal cannot have is refused with the reason the moment it is given, the trick winners and every
point are worked out and said. A finished deal is appended to the output file at once (a full log, or the
known seat's view), so an interrupted entry keeps every finished deal; then the next deal (the next dealer,
the score carried) or a new match.

An entry stopped in the middle of a deal (end of input, Ctrl-C, or a refused answer through a pipe) keeps the deal
so far as the file's last line, marked unfinished (`resume.unfinished_line`, with the answers given that the line
cannot show yet: hands of a full log before every hand is in); ``record --resume`` reads it back into the same
answers (`resumed_deal`) and asks the same questions from there on.

At a terminal a refused answer is asked again; through a pipe (one answer per line) it ends the entry with the
reason (`RecordError`). ``?`` at a bid or card of a seat whose hand is known prints the hint
(`analyser.table.hint.hint_text`); ``undo`` takes back the last answer of the deal.
"""

from __future__ import annotations

import dataclasses
import importlib
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..game.cards import SUIT_WORDS, CardError, card_name, parse_card, rank_of, suit_of
from ..game.errors import AllFoursError
from ..game.rules import PRESET_PLAYERS, PRESETS, RuleSet, RulesError, make_rules, rules_from_log
from ..record.vocabulary import ASKED, BID_EVENTS
from .entry import (
    Built, Entry, EntryError, append_line, build, check_appendable, read_card, read_cards, read_score,
)

from .resume import LogFile, ResumeError, check_digest, unfinished_line
from ..record.seats import seating_text, side_name, side_scores, winner_words

UNDO = object()
Answer = tuple[str, "int | None", Any]
HINT_MISSING = "the hint is not available"


class RecordError(EntryError):
    """An answer refused while reading answers from a pipe: the entry stops there."""


class EndOfInput(Exception):
    """The answers ran out (end of file, Ctrl-D)."""


@dataclasses.dataclass
class TableIO:
    """Where questions go and answers come from. `read(prompt)` returns one answer line or raises EOFError;
    `interactive`: a person at a terminal (a refused answer is asked again) rather than a pipe."""

    read: Callable[[str], str]
    write: Callable[[str], None]
    interactive: bool


@dataclasses.dataclass
class Start:
    """What the command line pre-answers (None: ask)."""

    preset: str | None = None
    players: int | None = None
    settings: list[str] = dataclasses.field(default_factory=list)
    dealer: int | None = None
    seat: str | None = None    # a seat number, or "all"
    score: str | None = None   # eldest's side first
    seed: int = 1
    resume: LogFile | None = None  # the file whose last line is the deal in progress, to go on with


def score_words(rules: RuleSet, score: list[int], me: int | None = None) -> str:
    """The score named by side: ``side 0 (seats 0 and 2) 6, side 1 (seats 1 and 3) 11``, or from seat `me`'s
    chair ``your side 6, theirs 11``."""
    return f"{side_scores(rules, score, me)} (target {rules.target})"


def card_points_words(rules: RuleSet, points: list[int]) -> str:
    return ", ".join(f"{'side ' if rules.players == 4 else 'seat '}{s} {p}" for s, p in enumerate(points))


class Recorder:
    def __init__(self, io: TableIO, out: Path, start: Start):
        self.io = io
        self.out = check_appendable(out)
        self.start = start
        self.saved = 0
        self.answer_count = 0
        self.in_progress = False
        self.current: Built | None = None  # the deal in progress, as far as it is entered
        self.partial = False               # the deal in progress was kept, as the file's last line
        self.pending: LogFile | None = start.resume  # the file, while its last line is our deal in progress
        self.seat: int | None = None
        self.answers: list[Answer] = []    # the answers of the deal in progress

    # talking

    def say(self, text: str = "") -> None:
        self.io.write(text)

    def ask(self, prompt: str) -> str:
        try:
            text = self.io.read(prompt + " ")
        except EOFError:
            raise EndOfInput from None
        self.answer_count += 1
        return text.strip()

    def refuse(self, answer: str, reason: str) -> None:
        if not self.io.interactive:
            raise RecordError(f"answer {self.answer_count} ({answer!r}): {reason}")
        self.say(f"  no: {reason}")

    def question(self, prompt: str, parse: Callable[[str], Any], default: str | None = None,
                 hint: Callable[[], None] | None = None, undo: bool = False) -> Any:
        """Ask until `parse` takes the answer (an AllFoursError refuses it); `default` for an empty answer."""
        while True:
            text = self.ask(prompt)
            if not text and default is not None:
                text = default
            if text == "?":
                if hint is None:
                    self.refuse(text, "the hint is for a bid or a card of a seat whose hand is known")
                else:
                    hint()
                continue
            if undo and text.lower() == "undo":
                return UNDO
            try:
                return parse(text)
            except AllFoursError as err:
                self.refuse(text, str(err))

    # the match

    def run(self) -> None:
        earlier: list[dict[str, Any]] = []
        answers: list[Answer] = []
        if self.pending is not None:
            rules, dealer, seat, score, earlier, answers = resumed_deal(self.pending)
            self.say(f"Resuming the entry in {self.out}: line {self.pending.number}, "
                     f"{rules.preset}, {rules.players} players, target {rules.target}.")
        else:
            rules = self.ask_rules()
            dealer = self.ask_dealer(rules, self.start.dealer)
            seat = self.ask_seat(rules)
            score = self.ask_score(rules, dealer)
        self.seat = seat
        if seat is not None:
            self.say(upper(seating_text(rules.players, seat)) + ".")
        first = True
        while True:
            built = self.deal(rules, dealer, seat, score, first, earlier, answers)
            first, earlier, answers = False, [], []
            if built.winner is not None:
                self.say(upper(winner_words(rules, built.winner, seat)) + ".")
                if not self.yes("Record another deal, a new match? [Y/n]"):
                    return
                dealer = self.ask_dealer(rules, None)
                score = [0] * rules.sides
            else:
                dealer = (dealer + 1) % rules.players
                score = built.score
                if not self.yes(f"Record another deal (seat {dealer} deals)? [Y/n]"):
                    return

    def yes(self, prompt: str) -> bool:
        def parse(text: str) -> bool:
            word = text.lower()
            if word in ("y", "yes"):
                return True
            if word in ("n", "no"):
                return False
            raise EntryError("answer y or n")
        return bool(self.question(prompt, parse, default="y"))

    def ask_rules(self) -> RuleSet:
        preset = self.start.preset
        if preset is None:
            def pick(text: str) -> str:
                word = text.lower()
                if word in PRESETS:
                    return word
                raise EntryError(f"{text!r} is not a preset: choose {', '.join(PRESETS)}")
            preset = self.question(f"Rules ({', '.join(PRESETS)}) [trinidad]:", pick, default="trinidad")
        assert preset is not None
        players = self.start.players
        allowed = PRESET_PLAYERS[preset]
        if players is None and len(allowed) > 1:
            def count(text: str) -> int:
                if text.isdigit() and int(text) in allowed:
                    return int(text)
                raise EntryError(f"{preset} is played by {' or '.join(map(str, allowed))} players")
            players = self.question(f"Players ({' or '.join(map(str, allowed))}) [{allowed[0]}]:", count,
                                    default=str(allowed[0]))
        rules = make_rules(preset, players=players, settings=self.start.settings)
        if self.start.preset is None or self.start.players is None:
            self.say(f"Rules: {rules.preset}, {rules.players} players, target {rules.target}.")
        return rules

    def ask_dealer(self, rules: RuleSet, given: int | None) -> int:
        n = rules.players
        if given is not None:
            if not 0 <= given < n:
                raise EntryError(f"--dealer {given}: the rules have seats 0 to {n - 1} ({n} players)")
            return given

        def parse(text: str) -> int:
            if text.isdigit() and int(text) < n:
                return int(text)
            raise EntryError(f"give the dealer's seat, 0 to {n - 1}")
        return int(self.question(f"Dealer's seat (0-{n - 1}):", parse))

    def ask_seat(self, rules: RuleSet) -> int | None:
        n = rules.players

        def parse(text: str) -> int | None:
            if text.lower() == "all":
                return None
            if text.isdigit() and int(text) < n:
                return int(text)
            raise EntryError(f"give your seat, 0 to {n - 1}, or 'all' when every hand is known")
        if self.start.seat is not None:
            try:
                return parse(self.start.seat)
            except EntryError:
                raise EntryError(f"--seat {self.start.seat}: the rules have seats 0 to {n - 1} ({n} players), "
                                 "or give 'all' when every hand is known") from None
        return self.question(f"Your seat (0-{n - 1}), or 'all' when you know every hand:", parse)

    def ask_score(self, rules: RuleSet, dealer: int) -> list[int]:
        if self.start.score is not None:
            return read_score(rules, dealer, self.start.score)
        shape = "ELDEST:DEALER" if rules.sides == 2 else "ELDEST:NEXT:DEALER"
        zero = ":".join("0" * rules.sides)
        return list(self.question(f"Score before this deal, the eldest's side first ({shape}) [{zero}]:",
                                  lambda text: read_score(rules, dealer, text), default=zero))

    # one deal

    def deal(self, rules: RuleSet, dealer: int, seat: int | None, score: list[int], first: bool,
             earlier: list[dict[str, Any]] | None = None, answers: list[Answer] | None = None) -> Built:
        """One dealer's turn, from the answers given so far (a resumed deal) or from its first question."""
        n = rules.players
        eldest = (dealer + 1) % n
        self.say()
        who = "every hand known" if seat is None else f"your seat {seat}"
        self.say(f"Deal: seat {dealer} deals, seat {eldest} is the eldest ({who}). "
                 f"Score: {score_words(rules, score, seat)}.")
        if first:
            self.say("Answer each question; 'undo' takes back the last answer, '?' at a bid or a card of a known "
                     "hand asks for the hint.")
        earlier = list(earlier or [])
        answers = self.answers = list(answers or [])
        said = 0  # points already said
        if answers or earlier:
            said = len(build(self.entry(rules, dealer, seat, score, earlier, answers)).points)
            self.say(f"So far: {', '.join(self.answer_text(a) for a in answers) or 'nothing of this deal'}.")
        self.in_progress = True
        while True:
            entry = self.entry(rules, dealer, seat, score, earlier, answers)
            built = self.current = build(entry)
            said = self.tell(rules, built, answers, said)
            due = built.due
            if due.kind == "redeal":
                self.say(f"  {due.text}.")
                earlier = built.line["events"]
                answers = self.answers = []
                continue
            if due.kind == "over":
                if self.pending is not None:
                    self.pending.replace_last(built.line)
                    self.pending = None
                else:
                    append_line(self.out, built.line)
                self.saved += 1
                self.in_progress = False
                self.say(f"Score: {score_words(rules, built.score, seat)}.")
                kind = "a full log" if seat is None else f"seat {seat}'s view"
                self.say(f"Saved to {self.out} ({kind}).")
                return built
            answer = self.ask_due(rules, built, entry, answers)
            if answer is UNDO:
                if answers:
                    gone = answers.pop()
                    self.say(f"  undone: {self.answer_text(gone)}")
                    said = min(said, len(build(self.entry(rules, dealer, seat, score, earlier, answers)).points))
                else:
                    self.say("  nothing to undo in this deal")
                continue
            answers.append(answer)

    def keep_deal(self) -> None:
        """The entry stops in the middle of a deal: the deal so far is kept as the file's last line, unfinished,
        with the answers the line cannot show yet (`resume.unfinished_line`); nothing when nothing of it is
        entered."""
        built = self.current
        if not self.in_progress or built is None or not (self.answers or built.line["events"]):
            return
        known = [s for s in range(built.line["rules"]["players"]) if self.seat is None or s == self.seat]
        shown = shown_answers(built.line["events"], known)
        entered = [{"kind": kind, "seat": who, "cards": [card_name(c) for c in value]}
                   for kind, who, value in self.answers[len(shown):]]
        resume: dict[str, Any] = {"command": "record", "seat": "all" if self.seat is None else self.seat,
                                  "seed": self.start.seed}
        if entered:
            resume["entered"] = entered
        line = unfinished_line(built, resume)
        if self.pending is not None:
            self.pending.replace_last(line)
        else:
            append_line(self.out, line)
        self.partial = True

    @staticmethod
    def answer_text(answer: tuple[str, int | None, Any]) -> str:
        kind, seat, value = answer
        if isinstance(value, list):
            value = " ".join(card_name(c) for c in value)
        elif isinstance(value, int) and kind in ("turnup", "card"):
            value = card_name(value)
        return f"{kind} {value}" if seat is None else f"seat {seat}'s {kind} {value}"

    @staticmethod
    def entry(rules: RuleSet, dealer: int, seat: int | None, score: list[int], earlier: list[dict[str, Any]],
              answers: list[tuple[str, int | None, Any]]) -> Entry:
        """The deal as the answers so far give it."""
        e = Entry(rules, dealer, list(score), seat=seat, earlier=list(earlier))
        for kind, who, value in answers:
            if kind == "hand":
                e.hands[who] = list(value)  # type: ignore[index]
            elif kind == "more":
                e.hands[who] = e.hands[who] + list(value)  # type: ignore[index]
            elif kind == "turnup":
                e.turnups.append(value)
            elif kind == "bid":
                e.bids.append(value)
            elif kind == "bunch":
                e.bunch = value
            elif kind == "discard":
                e.discards[who] = list(value)  # type: ignore[index]
            elif kind == "card":
                e.played.append(value)
        return e

    def tell(self, rules: RuleSet, built: Built, answers: list[tuple[str, int | None, Any]], said: int) -> int:
        """Say what the last answer brought: a trick's winner, trump, the points scored since `said`."""
        walk = built.walk
        last = answers[-1][0] if answers else None
        if last == "card" and walk is not None and walk.done and not walk.trick.cards:
            trick = walk.done[-1]
            best = trick.cards[(trick.winner - trick.leader) % rules.players]  # type: ignore[operator]
            self.say(f"  seat {trick.winner} wins trick {len(walk.done)} with {card_name(best)}; card points: "
                     f"{card_points_words(rules, walk.card_points())}")
        if built.trump is not None and last in ("turnup", "bid", "bunch") and built.due.kind != "over":
            self.say(f"  trump: {SUIT_WORDS[built.trump]}s")
        for side, n, why in built.points[said:]:
            self.say(f"  {side_name(rules, side, self.seat)} scores {n} for {self.why_words(built, why)}")
        return len(built.points)

    @staticmethod
    def why_words(built: Built, why: str) -> str:
        walk = built.walk
        trumps = [c for c in walk.cards if suit_of(c) == walk.trump] if walk is not None else []
        if why == "kick":
            ups = [ev["card"] for ev in built.line["events"] if ev["event"] == "turnup"]
            return f"the kick ({ups[-1]} turned up)"
        if why == "high" and trumps:
            return f"High ({card_name(max(trumps))})"
        if why == "low" and trumps:
            return f"Low ({card_name(min(trumps))})"
        if why in ("jack", "hang-jack") and walk is not None:
            word = "Jack" if why == "jack" else "hanging the Jack"
            return f"{word} ({card_name(walk.trump * 13 + 9)})"
        if why == "game" and walk is not None:
            return f"Game (card points {' to '.join(map(str, walk.card_points()))})"
        return {"gift": "the gift", "jack-bonus": "the jack bonus"}.get(why, why)

    def ask_due(self, rules: RuleSet, built: Built, entry: Entry, answers: list[tuple[str, int | None, Any]]) -> Any:
        """Ask for what is due; the answer as (kind, seat, value), once the deal takes it, or UNDO."""
        due = built.due
        rc = rules.run_cards

        def taken(kind: str, who: int | None, value: Any) -> tuple[str, int | None, Any]:
            build(self.entry(rules, entry.dealer, entry.seat, entry.score_before, entry.earlier,
                             [*answers, (kind, who, value)]))
            return kind, who, value

        def cards_of(count: int, kind: str, who: int | None) -> Callable[[str], Any]:
            def parse(text: str) -> Any:
                cards = read_cards(text, "")
                if len(cards) != count:
                    raise EntryError(f"give {count} cards, not {len(cards)}")
                return taken(kind, who, cards)
            return parse

        hint = self.hint_for(built, entry) if due.decision else None
        if due.kind == "hand":
            return self.question(f"Seat {due.seat}'s hand (6 cards):", cards_of(6, "hand", due.seat), undo=True)
        if due.kind == "more":
            return self.question(f"Seat {due.seat}'s {rc} cards from run {due.run}:", cards_of(rc, "more", due.seat),
                                 undo=True)
        if due.kind == "discard":
            held = len(entry.hands[due.seat]) - 6  # type: ignore[index]
            return self.question(f"Seat {due.seat} discards ({held} cards):", cards_of(held, "discard", due.seat),
                                 undo=True)
        if due.kind == "turnup":
            prompt = "Turn-up:" if due.run == 0 else f"Turn-up after run {due.run}:"
            return self.question(prompt, lambda text: taken("turnup", None, read_card(text)), undo=True)
        if due.kind == "bunch":
            def vote(text: str) -> Any:
                word = text.lower()
                if word not in ("y", "yes", "n", "no"):
                    raise EntryError("answer y (all four agree to bunch) or n")
                return taken("bunch", None, word.startswith("y"))
            return self.question("Do all four agree to bunch? [y/n]:", vote, undo=True)
        if due.kind == "bid":
            assert due.role is not None  # a bid is always due from a role
            options = ASKED[due.role]
            short = "/".join(o[0] for o in options)

            def bid(text: str) -> Any:
                word = text.lower()
                for o in options:
                    if word in (o, o[0]):
                        return taken("bid", None, o)
                raise EntryError(f"the {due.role} may {' or '.join(options)} ({short}), not {text!r}")
            extra = ", ? for the hint" if hint is not None else ""
            return self.question(f"Seat {due.seat} ({due.role}): {' or '.join(options)}? [{short}{extra}]", bid,
                                 hint=hint, undo=True)
        assert due.kind == "card" and built.walk is not None
        walk = built.walk
        seat = due.seat
        assert seat is not None
        if walk.trick.cards:
            where = f"seat {seat} to play ({plural_word(walk.led)} led)"
        else:
            where = f"seat {seat} to lead"
        holds = ""
        if seat in entry.known:
            left = self.left(entry, built, seat)
            holds = f", holding {' '.join(card_name(c) for c in left)}"
        extra = " (? for the hint)" if hint is not None else ""
        return self.question(f"Trick {walk.number}: {where}{holds}{extra}:",
                             lambda text: taken("card", seat, read_card(text)), hint=hint, undo=True)

    @staticmethod
    def left(entry: Entry, built: Built, seat: int) -> list[int]:
        """The cards a known seat still holds, by suit, high first."""
        walk = built.walk
        played = {c for c, s in zip(walk.cards, walk.seats) if s == seat} if walk is not None else set()
        gone = set(entry.discards.get(seat, [])) | played
        return sorted((c for c in entry.hands[seat] if c not in gone), key=lambda c: (suit_of(c), -rank_of(c)))

    def hint_for(self, built: Built, entry: Entry) -> Callable[[], None] | None:
        """The hint for the decision due, when its seat's hand is known."""
        seat = built.due.seat
        if seat is None or seat not in entry.known:
            return None

        def show() -> None:
            try:  # written beside this module; it may not be there yet
                hint_text = importlib.import_module(f"{__package__}.hint").hint_text
            except (ImportError, AttributeError):
                self.say(f"  {HINT_MISSING}")
                return
            try:
                self.say(hint_text(built.line, seat, self.start.seed))
            except AllFoursError as err:
                self.say(f"  no hint: {err}")
        return show


def shown_answers(events: list[dict[str, Any]], known: list[int]) -> list[Answer]:
    """The answers a line's last deal shows (from its ``deal`` on), in the order the questions are asked."""
    start = max((i + 1 for i, ev in enumerate(events) if ev.get("event") == "redeal"), default=0)
    out: list[Answer] = []
    for ev in events[start:]:
        name = ev.get("event")
        if name in ("deal", "more"):
            out += [("hand" if name == "deal" else "more", s, [parse_card(c) for c in ev["hands"][s]]) for s in known]
        elif name == "turnup":
            out.append(("turnup", None, parse_card(ev["card"])))
        elif name in BID_EVENTS:
            out.append(("bid", None, name))
        elif name == "bunch":
            out.append(("bunch", None, bool(ev["agreed"])))
        elif name == "discard" and ev.get("seat") in known:
            out.append(("discard", ev["seat"], [parse_card(c) for c in ev["cards"]]))
        elif name == "play":
            out.append(("card", ev["seat"], parse_card(ev["card"])))
    return out


def resumed_deal(log: LogFile) -> tuple[RuleSet, int, int | None, list[int], list[dict[str, Any]], list[Answer]]:
    """The deal in progress that ends `log`, as the entry left it: rules, dealer, seat (None: every hand), score,
    the events of void deals before it, and the answers given so far. A `ResumeError` when the line does not say
    how to go on, was changed by hand, or no longer builds as it was saved."""
    line, number, path = log.line, log.number, log.path
    bad = ResumeError(f"{path}: line {number} does not say how to resume the entry (its resume settings are "
                      "missing or wrong): it cannot be resumed")
    r = line["resume"]
    try:
        rules = rules_from_log(line.get("rules"))
    except RulesError:
        raise bad from None
    seat = r.get("seat")
    if not (seat == "all" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < rules.players)):
        raise bad
    check_digest(line, number, path)
    who = None if seat == "all" else int(seat)
    known = list(range(rules.players)) if who is None else [who]
    events = line.get("events")
    dealer, score = line.get("dealer"), line.get("score_before")
    try:
        if not isinstance(events, list) or not isinstance(dealer, int) or not isinstance(score, list):
            raise bad
        start = max((i + 1 for i, ev in enumerate(events) if isinstance(ev, dict) and ev.get("event") == "redeal"),
                    default=0)
        answers = shown_answers(events, known)
        for item in r.get("entered", []):
            if item.get("kind") not in ("hand", "more") or item.get("seat") not in known:
                raise bad
            answers.append((item["kind"], item["seat"], [parse_card(c) for c in item["cards"]]))
        built = build(Recorder.entry(rules, dealer, who, list(score), events[:start], answers))
    except (AllFoursError, CardError, KeyError, TypeError, ValueError) as err:
        if err is bad:
            raise
        raise ResumeError(f"{path}: line {number} no longer referees ({err}): it cannot be resumed") from None
    if built.line["events"] != events or built.due.kind == "over":
        raise ResumeError(f"{path}: line {number} does not build as it was saved: it cannot be resumed")
    return rules, dealer, who, list(score), events[:start], answers


def upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def plural_word(suit: int) -> str:
    return SUIT_WORDS[suit] + "s"


def saved_words(recorder: Recorder) -> str:
    """How many finished deals the entry saved, and where."""
    n = recorder.saved
    text = f"{n} finished deal{'' if n == 1 else 's'} saved to {recorder.out}"
    if recorder.partial and recorder.current is not None:
        text += f", and the deal in progress up to now ({recorder.current.due.text})"
    elif recorder.in_progress:
        text += " (nothing of the deal in progress was entered)"
    return text


def resume_words(recorder: Recorder) -> str | None:
    """The command that goes on with the deal in progress, when it was kept."""
    if not recorder.partial:
        return None
    return f"To go on with it: allfours record --resume --out {shlex.quote(str(recorder.out))}"


__all__ = ["EndOfInput", "RecordError", "Recorder", "Start", "TableIO", "resume_words", "resumed_deal", "saved_words"]
