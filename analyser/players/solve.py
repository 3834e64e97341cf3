"""Positions for the open-hand solver, and its answers (``allfours solve``).

A position comes from an ``allfours-log/1`` line cut anywhere after ``trump`` (and
the discards): the referee (``replay.py``) checks everything up to trick play and
gives the hands held when play started; the play and trick events after that are
refereed here on the play state's own kernels, and the position is the state after
the line's last event. Or it is typed by hand: every seat's hand (seat 0 first),
trump and the seat to lead, as at the start of trick play.

The value (``engine/solver/``) is in net points for the side of the seat to move:
its High, Low, Jack (or hang jack) and Game points minus the other side's, or with
three players its own points minus the other two players' together, those two
assumed to play together against it ("paranoid"). Kicks, the gift and the match
target are not counted.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..game.cards import SUITS, CardError, card_name, cards_of, parse_card, parse_cards, parse_suit
from ..engine.layout import (
    N_STATE, PS_HAND, PS_LEADER, PS_LED, PS_N_TRICKS, PS_PLAYERS, PS_TO_PLAY, PS_TOP_TRUMP, PS_TRICK_CARD, PS_TRICK_MASK,
    PS_TRICK_NO, PS_TRUMP,
)
from ..engine.heuristic import heuristic_play
from ..engine.search import cards_in_hands, new_play_buffer, record_play, start_history
from ..engine.solver import (
    C_ABORTED, C_NODE_LIMIT, C_STOP, DEFAULT_TT_BITS, NO_VALUE, SolverWork, proved_ranges, solve_cards, solve_value,
    table_rows,
)
from ..engine.state import apply, init_state, is_over, legal, set_out_of_play
from ..game.errors import AllFoursError
from ..referee import LogError, MatchOver, ReachedPlay, UpToPlay
from ..referee.play import illegal_reason
from ..game.rules import RuleSet


class SolveError(AllFoursError):
    """A position the solver cannot take: a log not cut in trick play, a finished deal, bad hands.
    `event` is the event index it concerns in a log line (-1: the line itself, or no log). `cut`: the
    line is a legal one, only not cut where a card is to be played (the others: the log is wrong)."""

    def __init__(self, reason: str, event: int = -1, cut: bool = False):
        super().__init__(reason)
        self.reason = reason
        self.event = event
        self.cut = cut


class SolveInterrupted(KeyboardInterrupt):
    """Ctrl-C during `Solver.solve(..., interruptible=True)`: the search was stopped, and `solution` is what it had
    proved (an unfinished `Solution`)."""

    def __init__(self, solution: Solution) -> None:
        super().__init__()
        self.solution = solution


@dataclass
class Position:
    """A position of trick play: the rule set and the play state (``engine/layout.py``'s PS_*)."""

    rules: RuleSet
    state: np.ndarray

    @property
    def seat(self) -> int:
        """The seat to move."""
        return int(self.state[PS_TO_PLAY])

    @property
    def side(self) -> int:
        return self.rules.side_of(self.seat)

    def cards_in_hands(self) -> int:
        """Cards still held, every hand together (the search's depth, less the trick's cards)."""
        return int(cards_in_hands(self.state))

    def legal_cards(self) -> list[int]:
        """The cards the seat to move may play, in hand order (suits S H D C, high to low)."""
        return cards_of(int(np.uint64(legal(self.state))))

    def describe(self) -> str:
        """One line: who is to move, to which trick, and the trick so far."""
        s = self.state
        n = int(s[PS_PLAYERS])
        trick = int(s[PS_TRICK_NO]) + 1
        where = f"seat {self.seat} to {'lead' if s[PS_LED] < 0 else 'play'} to trick {trick} of {int(s[PS_N_TRICKS])}"
        text = f"{where}, trump {SUITS[int(s[PS_TRUMP])]}"
        if s[PS_LED] >= 0:
            leader = int(s[PS_LEADER])
            played = []
            seat = leader
            while seat != self.seat:
                played.append(f"{seat}:{card_name(int(s[PS_TRICK_CARD + seat]))}")
                seat = (seat + 1) % n
            text += ", trick so far " + " ".join(played)
        return text


@dataclass
class Solution:
    """The solver's answer: the seat to move, the position's value and each legal card's value
    (canonical card names in hand order), all in net points for the mover's side; the nodes the
    search visited and the seconds it took (the search alone: not loading or compiling).

    A search stopped before its end (``Solver.solve``'s `seconds`, Ctrl-C, a node cap) is not `finished`: `value` is
    then None, `value_range` and `card_ranges` say what it proved (at least, at most) of the position's value
    and of every legal card's, and `cards` holds only the cards it solved."""

    seat: int
    value: int | None
    cards: dict[str, int]
    nodes: int = 0
    seconds: float = 0.0
    finished: bool = True
    value_range: tuple[int, int] = (0, 0)
    card_ranges: dict[str, tuple[int, int]] | None = None

    def to_json(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"seat": self.seat, "value": self.value, "cards": dict(self.cards)}
        if not self.finished:
            assert self.card_ranges is not None
            answer["stopped"] = True
            answer["value_range"] = list(self.value_range)
            answer["card_ranges"] = {name: list(r) for name, r in self.card_ranges.items()}
        answer["nodes"] = self.nodes
        answer["seconds"] = round(self.seconds, 6)
        return answer


# Positions with more than BIG_HANDS cards in the hands get a bigger transposition table, as big as a search
# uses (2**(2 + cards out / 2) entries, ``solver.table._use_table``), up to 2**BIG_TABLE_BITS entries (32 bytes
# each: 512 MiB). On 11-card 4-player deals (44 cards) the default's 2**20 entries thrash: the slowest of
# four (`scripts/solver_bench.py --deals 0 --big 4 --big-cards 11 --seed 3 --table-bits B`) took 1,276 s and
# 11.6 billion nodes with 2**20 entries, 750 s with 2**22, 568 s with 2**23 and 433 s with 2**24 (3.3 billion
# nodes); the other three took 2.0, 0.9 and 0.0 s with 2**20 and 3.4, 1.0 and 0.0 s with 2**24, part of that
# the first touch of the bigger table's pages. On twelve 10-card deals (40 cards; `--big 12 --big-cards 10
# --seed 1`) 2**22 entries (128 MiB) take 281 million nodes against 351 million with 2**20 (44 s against
# 53 s); at 9 cards and below a search uses no more than 2**20.
BIG_HANDS = 36
BIG_TABLE_BITS = 24


def table_bits(cards_held: int) -> int:
    """Bits of index of the table for a position with `cards_held` cards in the hands.

    >>> table_bits(24), table_bits(36), table_bits(40), table_bits(44), table_bits(48)
    (20, 20, 22, 24, 24)
    """
    if cards_held <= BIG_HANDS:
        return DEFAULT_TT_BITS
    return max(DEFAULT_TT_BITS, min(BIG_TABLE_BITS, 2 + cards_held // 2))


class Solver:
    """The open-hand solver with its memory allocated once (reuse one for many positions)."""

    def __init__(self, tt_bits: int | None = None) -> None:
        self.work = SolverWork() if tt_bits is None else SolverWork(tt_bits)
        self._rows_touched = 0

    @classmethod
    def for_position(cls, position: Position) -> Solver:
        """A solver whose table is sized for `position` (``table_bits``): a bigger one for very big positions."""
        return cls(table_bits(position.cards_in_hands()))

    def prepare(self, position: Position) -> None:
        """Map the rows of the table a search of `position` uses (``solver.table_rows``) before a clock starts.

        A fresh table's memory is mapped at its first write, page by page: 512 MiB took 5-7 s on a virtual
        machine whose host hands memory over lazily (0.06 s once mapped), all of it inside the first search's
        time. That is start-up, not search. Each row is or'ed with 0 once, so no entry, value or node count
        changes."""
        tt = self.work.tt
        rows = int(table_rows(position.state, tt.shape[0]))
        if rows > self._rows_touched:
            tt[self._rows_touched:rows] |= 0
            self._rows_touched = rows

    def _args(self) -> tuple[np.ndarray, ...]:
        w = self.work
        return w.states, w.moves, w.frames, w.tt, w.ctx

    def value(self, position: Position) -> int:
        """The position's value for the side to move."""
        _playable(position)
        return int(solve_value(position.state, position.rules.as_array(), *self._args()))

    def solve(self, position: Position, interruptible: bool = False, seconds: float | None = None,
              progress: Callable[[Solution], None] | None = None, every: float = 1.0) -> Solution:
        """The position's value and the value of every legal card of the seat to move. `interruptible`: the
        search runs in a thread of its own (the kernel releases the GIL), so Ctrl-C stops the caller at once
        instead of when the search ends (a kernel never looks at signals); the thread dies with the process.
        `seconds`: stop the search after that long (in a thread, as `interruptible`) and answer with what it
        proved by then (an unfinished `Solution`) if it has not finished. `progress` (with `interruptible` or
        `seconds`): called every `every` seconds of search with what is proved so far (an unfinished `Solution`).
        Ctrl-C while it searches raises `SolveInterrupted` with what it had proved."""
        _playable(position)
        values = self.work.values
        ctx = self.work.ctx
        ctx[C_STOP] = 0
        args = (position.state, position.rules.as_array(), *self._args(), values)
        if interruptible or seconds is not None:
            # A daemon thread, not an executor: an executor's thread is joined at exit, which Ctrl-C must not wait for.
            outcome: list[Any] = []
            took: list[float] = []
            started: list[float] = []
            # An event, not Thread.join: a join that Ctrl-C interrupts can leave the thread looking alive for good.
            done = threading.Event()

            def search() -> None:
                try:
                    self._compile(args)
                    self.prepare(position)
                    start = time.perf_counter()
                    started.append(start)
                    outcome.append(int(solve_cards(*args)))
                    took.append(time.perf_counter() - start)
                except BaseException as err:  # handed to the caller below
                    outcome.append(err)
                finally:
                    done.set()

            worker = threading.Thread(target=search, daemon=True)
            worker.start()
            deadline = None
            report = every
            try:
                while not done.wait(0.05 if seconds is not None else 0.2):  # short waits: the main thread sees a signal
                    if seconds is not None and started and deadline is None:
                        deadline = started[0] + seconds
                    now = time.perf_counter()
                    if deadline is not None and now >= deadline:
                        ctx[C_STOP] = 1  # the kernel looks every few thousand nodes, and gives up
                    elif progress is not None and started and not outcome and now - started[0] >= report:
                        report += every
                        progress(self._stopped(position, now - started[0]))
            except KeyboardInterrupt:
                # Ctrl-C loses nothing the search proved: stop it (within milliseconds) and hand that over. Not
                # while it compiles or maps its table (nothing proved yet, and no quick way to stop those).
                if not started:
                    raise
                ctx[C_STOP] = 1
                if not done.wait(2.0) or isinstance(outcome[0], BaseException):
                    raise
                if ctx[C_ABORTED]:
                    raise SolveInterrupted(self._stopped(position, time.perf_counter() - started[0])) from None
                # It had just finished: the whole answer, below.
            if isinstance(outcome[0], BaseException):
                raise outcome[0]
            best = outcome[0]
            elapsed = took[0]
        else:
            self._compile(args)
            self.prepare(position)
            start = time.perf_counter()
            best = int(solve_cards(*args))
            elapsed = time.perf_counter() - start
        if ctx[C_ABORTED]:
            return self._stopped(position, elapsed)
        cards = {card_name(c): int(values[c]) for c in position.legal_cards()}
        assert all(v != NO_VALUE for v in cards.values())
        return Solution(seat=position.seat, value=best, cards=cards, nodes=self.nodes, seconds=elapsed)

    def _stopped(self, position: Position, seconds: float) -> Solution:
        """What a stopped `solve_cards` proved: each legal card's range, and the position's (the best card's
        value lies in the best of the lower and upper bounds)."""
        lo = np.zeros(52, dtype=np.int64)
        hi = np.zeros(52, dtype=np.int64)
        proved_ranges(position.state, self.work.ctx, lo, hi)
        legal_cards = position.legal_cards()
        ranges = {card_name(c): (int(lo[c]), int(hi[c])) for c in legal_cards}
        solved = {name: a for name, (a, b) in ranges.items() if a == b}
        value_range = (max(a for a, _ in ranges.values()), max(b for _, b in ranges.values()))
        return Solution(seat=position.seat, value=None, cards=solved, nodes=self.nodes, seconds=seconds,
                        finished=False, value_range=value_range, card_ranges=ranges)

    @property
    def nodes(self) -> int:
        return self.work.nodes

    def _compile(self, args: tuple[np.ndarray, ...]) -> None:
        """Compile the kernel (or load it from numba's cache) by a solve stopped at its first node, so
        that the time of the real one is the search's alone."""
        if solve_cards.signatures:
            return
        ctx = self.work.ctx
        limit = int(ctx[C_NODE_LIMIT])
        ctx[C_NODE_LIMIT] = 1
        try:
            solve_cards(*args)
        finally:
            ctx[C_NODE_LIMIT] = limit


def _playable(position: Position) -> None:
    if is_over(position.state):
        raise SolveError("the deal is complete: no card is left to play")


# --- positions from a log line ---------------------------------------------------------------


COMPLETE = "the deal is complete: no card is left to play (cut the line at a card decision)"


def position_from_text(text: str) -> Position:
    """The position at the end of a log line (JSON text)."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        raise SolveError(f"not valid JSON: {err.msg[:1].lower() + err.msg[1:]} at column {err.colno}") from None
    return position_from_line(obj)


def position_from_line(obj: Any) -> Position:
    """The position after the last event of a log line cut in trick play (after ``trump`` and the
    discards, up to any ``play``; ``trick`` events may follow their trick's last card)."""
    try:
        ref = UpToPlay(obj)
    except LogError as err:
        raise SolveError(err.reason, err.event) from None
    events = ref.events
    try:
        ref.line()
    except ReachedPlay:
        pass
    except MatchOver:
        raise SolveError("the match was won before trick play: there is no play to solve", ref.pos - 1,
                         cut=True) from None
    except LogError as err:
        if err.event >= len(events) and err.reason.startswith("the log ends early"):
            raise SolveError("the line stops before trick play: cut it after the trump event (and the discards), "
                             "at a play or trick event", cut=True) from None
        raise SolveError(err.reason, err.event) from None
    else:  # pragma: no cover - _line always reaches play or raises
        raise SolveError("the line has no trick play")
    rules = ref.rules
    n = rules.players
    turnup = next(parse_card(e["card"]) for e in reversed(events[: ref.pos]) if e.get("event") == "turnup")
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(n):
        hands[s] = np.uint64(sum(1 << c for c in ref.start_hands[s]))
    scores = np.zeros(4, dtype=np.int64)
    scores[: len(ref.score)] = ref.score
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, ref.trump, turnup, ref.dealer, scores)
    note_out_of_play(state, events[: ref.pos])
    _walk_play(ref, state, events)
    if is_over(state):
        raise SolveError(COMPLETE, cut=True)
    return Position(rules, state)


def note_out_of_play(state: np.ndarray, events: list[Any]) -> None:
    """Record in a state ``init_state`` has just made what the seats know is out of play
    (``engine.state.set_out_of_play``), read from `events` (a line refereed up to trick play): every
    turn-up since the last ``deal`` event, seen by all, and each seat's discards, seen by that seat (a
    hidden card, ``??`` in a seat's view, is skipped). The worlds a seat is dealt never hold them."""
    start = max((i for i, e in enumerate(events) if isinstance(e, dict) and e.get("event") == "deal"), default=0)
    turnups = 0
    discards = np.zeros(4, dtype=np.uint64)
    for event in events[start:]:
        if not isinstance(event, dict):
            continue
        if event.get("event") == "turnup":
            turnups |= 1 << parse_card(event["card"])
        elif event.get("event") == "discard":
            for token in event.get("cards", []):
                if token != "??":
                    discards[int(event["seat"])] |= np.uint64(1 << parse_card(token))
    set_out_of_play(state, np.uint64(turnups), discards)


def _walk_play(ref: UpToPlay, state: np.ndarray, events: list[Any]) -> None:
    """Referee the play and trick events after the start of play, moving `state` on."""
    n = ref.n
    pending = -1  # the winner of a trick just completed, until its trick event
    for i in range(ref.pos, len(events)):
        event = events[i]
        if not isinstance(event, dict) or "event" not in event:
            raise SolveError("an event must be an object with an 'event' name", i)
        name = event["event"]
        if name == "trick":
            if pending < 0:
                raise SolveError("unexpected event 'trick': the trick is not complete", i)
            if event.get("winner") != pending:
                raise SolveError(f"wrong trick winner: log says {event.get('winner')}, seat {pending} wins", i)
            pending = -1
            continue
        if pending >= 0:
            raise SolveError(f"unexpected event {name!r}: expected trick", i)
        if is_over(state):
            raise SolveError(COMPLETE, i, cut=True)
        if name != "play":
            raise SolveError(f"unexpected event {name!r} in trick play: the line must end at a play or trick event", i,
                             cut=True)
        seat = event.get("seat")
        to_play = int(state[PS_TO_PLAY])
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise SolveError(f"seat must be a whole number 0..{n - 1}, not {seat!r}", i)
        if seat != to_play:
            raise SolveError(f"play by seat {seat} out of turn: seat {to_play} is to play", i)
        try:
            card = parse_card(event.get("card"))  # type: ignore[arg-type]
        except CardError as err:
            raise SolveError(str(err), i) from None
        hand = set(cards_of(int(np.uint64(state[PS_HAND + seat]))))
        if card not in hand:
            raise SolveError(f"seat {seat} plays {card_name(card)}, which it does not hold", i)
        if not int(np.uint64(legal(state))) >> card & 1:
            led = int(state[PS_LED])
            reason = illegal_reason(seat, card, hand, led, int(state[PS_TRUMP]), int(state[PS_TOP_TRUMP]))
            raise SolveError(reason, i)
        pending = int(apply(state, card))


# --- positions typed by hand -----------------------------------------------------------------


def position_from_hands(rules: RuleSet, hands: str, trump: str, leader: int) -> Position:
    """The position at the start of trick play with these hands (seat 0 first, separated by ``/`` or
    ``|``), trump suit and the seat to lead (taken as the eldest, so the dealer is the seat before
    it: Game ties go by that). High, Low and the jack's owner are read from these hands."""
    n = rules.players
    parts = hands.replace("|", "/").split("/")
    if len(parts) != n:
        raise SolveError(f"--hands: {n} hands needed (one per seat, seat 0 first, separated by / or |), "
                         f"got {len(parts)}")
    seen: dict[int, int] = {}
    masks = np.zeros(4, dtype=np.uint64)
    for seat, part in enumerate(parts):
        try:
            cards = parse_cards(part, what=f"hand of seat {seat}")
        except CardError as err:
            raise SolveError(f"--hands: {err}") from None
        for c in cards:
            if c in seen:
                raise SolveError(f"--hands: {card_name(c)} is in the hands of seats {seen[c]} and {seat}")
            seen[c] = seat
        masks[seat] = np.uint64(sum(1 << c for c in cards))
    sizes = [int(np.uint64(m)).bit_count() for m in masks[:n]]
    if min(sizes) == 0:
        raise SolveError(f"--hands: seat {sizes.index(0)} holds no card")
    if len(set(sizes)) != 1:
        raise SolveError(f"--hands: every seat must hold as many cards, not {' / '.join(map(str, sizes))}")
    try:
        suit = parse_suit(trump)
    except CardError as err:
        raise SolveError(f"--trump: {err}") from None
    if not 0 <= leader < n:
        raise SolveError(f"--leader {leader}: a seat 0..{n - 1} is needed")
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), masks, suit, -1, (leader - 1) % n, np.zeros(4, dtype=np.int64))
    assert state[PS_TRICK_MASK] == 0
    return Position(rules, state)


def deal_into(state: np.ndarray, rules: RuleSet, cards: int, rng: np.random.Generator) -> None:
    """Deal `cards` cards to each seat into `state` (a play state, or a play buffer with its search area after it)
    from `rng`: a shuffled pack, seat 0's cards first, then a random trump suit (no card turned up: the rest of the
    pack unseen); the last seat deals, the score 0:0, and a buffer's record of the deal is started. The one deal the
    solver's and the search players' benchmarks and tests play from; the same `rng` state gives the same deal."""
    n = rules.players
    pack = rng.permutation(52)
    hands = np.zeros(4, dtype=np.uint64)
    for s in range(n):
        hands[s] = np.uint64(sum(1 << int(c) for c in pack[s * cards:(s + 1) * cards]))
    init_state(state, rules.as_array(), hands, int(rng.integers(4)), -1, n - 1, np.zeros(4, dtype=np.int64))
    start_history(state)


def dealt_positions(rules: RuleSet, cards: int, count: int, rng: np.random.Generator) -> list[Position]:
    """`count` positions at the first lead, each dealt from `rng` in turn (``deal_into``)."""
    out = []
    for _ in range(count):
        state = np.zeros(N_STATE, dtype=np.int64)
        deal_into(state, rules, cards, rng)
        out.append(Position(rules, state))
    return out


def dealt_play_buffer(rules: RuleSet, cards: int, rng: np.random.Generator, *, plies: int = 0,
                      heuristic: np.ndarray | None = None) -> np.ndarray:
    """A play buffer with its search area, dealt from `rng` as ``dealt_positions`` deals (``deal_into``), then
    `plies` cards (fewer if the deal ends first) played by the heuristic with the policy row `heuristic`, each
    recorded as the trick loop records it, so that a search player infers from them as in a game."""
    state = new_play_buffer(True)
    deal_into(state, rules, cards, rng)
    if plies and heuristic is None:
        raise ValueError("dealt_play_buffer: plies need the heuristic's policy row")
    for _ in range(plies):
        if is_over(state):
            break
        card = heuristic_play(heuristic, state, legal(state))
        record_play(state, card)
        apply(state, card)
    return state
