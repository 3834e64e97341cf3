"""A line read back into the entry it was built from (`entry_from_line`, `check_line`, `decision_due`), and a
line appended to a log file (`check_appendable`, `append_line`)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...game.cards import CardError, card_name, parse_card, parse_suit
from ...record.gamelog import dumps
from ...referee.reading import EventReader
from ...record.vocabulary import BID_EVENTS
from .base import HIDDEN, Built, Entry, EntryError
from .build import build


def _card_or_hidden(token: Any, where: str) -> int | None:
    if token == HIDDEN:
        return None
    try:
        return parse_card(token)
    except CardError as err:
        raise EntryError(f"{where}: {err}") from None


def entry_from_line(line: Any) -> tuple[Entry, list[dict[str, Any]]]:
    """The entry a line (a full log or a seat's view, possibly stopping at a decision) was built from, and the
    line's events of its last deal (from its ``deal`` on, to compare with what the entry builds)."""
    reader = EventReader(line)  # the header: format, rules, dealer, score_before, events
    rules, n, events = reader.rules, reader.n, reader.events
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or "event" not in ev:
            raise EntryError(f"event {i}: an event must be an object with an 'event' name")
    start = max((i + 1 for i, ev in enumerate(events) if ev["event"] == "redeal"), default=0)
    earlier, current = events[:start], events[start:]
    if not current or current[0]["event"] != "deal":
        raise EntryError("the line stops before a deal: no decision is due" if not current
                         else f"event {start}: expected a deal, not {current[0]['event']!r}")
    hands: dict[int, list[int]] = {}
    seen: list[int | None] = []
    deal = current[0].get("hands")
    if not isinstance(deal, list) or len(deal) != n or not all(isinstance(h, list) for h in deal):
        raise EntryError(f"event {start}: deal must list {n} hands, one per seat")
    for s, hand in enumerate(deal):
        cards = [_card_or_hidden(t, f"event {start}, seat {s}'s hand") for t in hand]
        if all(c is not None for c in cards):
            hands[s] = [c for c in cards if c is not None]
        elif any(c is not None for c in cards):
            raise EntryError(f"event {start}: seat {s}'s hand mixes seen cards and ??: a view hides a whole hand")
        seen.append(s if s in hands else None)
    known = sorted(hands)
    if not known:
        raise EntryError(f"event {start}: every hand is hidden (??): a seat's view shows the seat's own cards")
    if len(known) not in (1, n):
        raise EntryError(f"event {start}: seats {', '.join(map(str, known))} are shown: a seat's view shows one "
                         "hand, a full log every hand")
    seat = known[0] if len(known) == 1 else None
    entry = Entry(rules, reader.dealer, list(line["score_before"]), seat=seat, hands=hands, earlier=earlier)
    for i, ev in enumerate(current[1:], start=start + 1):
        name = ev["event"]
        if name == "turnup":
            card = _card_or_hidden(ev.get("card"), f"event {i}")
            if card is None:
                raise EntryError(f"event {i}: a turn-up is seen by every seat, never ??")
            entry.turnups.append(card)
        elif name in BID_EVENTS:
            entry.bids.append(name)
        elif name == "more":
            more = ev.get("hands")
            if not isinstance(more, list) or len(more) != n:
                raise EntryError(f"event {i}: more must list {n} hands, one per seat")
            for s in known:
                if not isinstance(more[s], list):
                    raise EntryError(f"event {i}: more must list {n} hands, one per seat")
                cards = [_card_or_hidden(t, f"event {i}, seat {s}'s cards") for t in more[s]]
                if any(c is None for c in cards):
                    raise EntryError(f"event {i}: seat {s}'s own cards are hidden (??) in its view")
                hands[s].extend(c for c in cards if c is not None)
        elif name == "bunch":
            entry.bunch = bool(ev.get("agreed"))
        elif name == "discard":
            s = ev.get("seat")
            if s in known:
                cards = [_card_or_hidden(t, f"event {i}") for t in ev.get("cards") or []]
                if any(c is None for c in cards):
                    raise EntryError(f"event {i}: seat {s}'s own discard is hidden (??) in its view")
                entry.discards[s] = [c for c in cards if c is not None]
        elif name == "play":
            card = _card_or_hidden(ev.get("card"), f"event {i}")
            if card is None:
                raise EntryError(f"event {i}: a play of ??: every played card is seen by every seat")
            entry.played.append(card)
        elif name in ("points", "trick", "trump", "deal", "redeal"):
            if name == "deal":
                raise EntryError(f"event {i}: a new deal without a redeal before it")
        else:
            raise EntryError(f"event {i}: unknown event {name!r}")
    return entry, current


def _normal(ev: dict[str, Any], points: bool) -> Any:
    """An event as compared: canonical card names, hands as sets, only the fields the format names."""
    name = ev.get("event")

    def cards(tokens: Any) -> Any:
        if not isinstance(tokens, list):
            return tokens
        return sorted(t if t == HIDDEN else card_name(parse_card(t)) for t in tokens)

    if name in ("deal", "more"):
        return name, tuple(tuple(cards(h)) for h in ev.get("hands", []))
    if name == "turnup" or name == "play":
        return name, ev.get("seat"), card_name(parse_card(str(ev.get("card"))))
    if name in BID_EVENTS:
        return name, ev.get("seat")
    if name == "trump":
        try:
            return name, parse_suit(str(ev.get("suit")))
        except CardError:
            return name, ev.get("suit")
    if name == "discard":
        return name, ev.get("seat"), tuple(cards(ev.get("cards")))
    if name == "trick":
        return name, ev.get("winner")
    if name == "points":
        return (name, ev.get("side"), ev.get("n"), ev.get("why")) if points else None
    if name == "bunch":
        return name, ev.get("agreed")
    if name == "redeal":
        return name, ev.get("reason")
    return name


def check_line(line: Any) -> Built:
    """A line read back into its entry and built again: the build, after checking that the line's last deal
    says what the build says (seats, trick winners, points where the line has them)."""
    entry, current = entry_from_line(line)
    built = build(entry)
    start = len(entry.earlier)
    ours = built.line["events"][start:]
    points = any(ev["event"] == "points" for ev in line["events"])
    theirs_n = [(start + i, x) for i, x in enumerate(_normal(ev, points) for ev in current) if x is not None]
    ours_n = [x for x in (_normal(ev, points) for ev in ours) if x is not None]
    for (at, a), b in zip(theirs_n, ours_n):
        if a != b:
            raise EntryError(f"event {at}: the line has {a}, the rules give {b}")
    if len(theirs_n) > len(ours_n):
        at, a = theirs_n[len(ours_n)]
        raise EntryError(f"event {at}: the line goes on where the entry stops ({built.due.text}): {a}")
    extra = ours_n[len(theirs_n):]
    if extra and built.due.kind == "card" and extra[-1][0] == "trick":
        extra = extra[:-1]  # a line may stop before the trick event of its last full trick
    if built.due.kind == "over" and all(x[0] in ("trick", "points") for x in extra):
        extra = []  # a deal played out: the build says so
    if extra:
        raise EntryError(f"the line stops where no decision is due: next comes {extra[0][0]!r}")
    return built


def decision_due(line: Any) -> tuple[str, str | int]:
    """The decision a line (a full log or a seat's view) stops at: ``("bid", "eldest" | "dealer")`` or
    ``("card", seat)``; an `EntryError` when none is due (the deal over, the match won, a run still to turn)."""
    built = check_line(line)
    due = built.due
    if not due.decision:
        raise EntryError(f"the line stops where no decision is due: {due.text}")
    return ("bid", due.role) if due.kind == "bid" else ("card", due.seat)  # type: ignore[return-value]


def check_appendable(path: str | Path) -> Path:
    """`path` can take appended lines (a file, or a new file in a folder that exists); nothing is created."""
    p = Path(path)
    if p.is_dir():
        raise EntryError(f"{p} is a folder, not a file: give a file to append the deal to")
    if p.exists():
        if not os.access(p, os.W_OK):
            raise EntryError(f"cannot write {p}: permission denied")
        return p
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise EntryError(f"cannot write {p}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise EntryError(f"cannot write {p}: permission denied in {folder}")
    return p


def append_line(path: str | Path, line: dict[str, Any]) -> None:
    """Append one line to a log file (created if missing), in one write, after a newline if the file lacks
    its last one; never overwrites. A folder or an unwritable path is an `EntryError`."""
    p = check_appendable(path)
    text = dumps(line) + "\n"
    try:
        with open(p, "a+b") as handle:
            size = handle.seek(0, os.SEEK_END)
            if size:
                handle.seek(size - 1)
                if handle.read(1) != b"\n":
                    text = "\n" + text
            handle.write(text.encode("utf-8"))
    except OSError as err:
        raise EntryError(f"cannot write {p}: {err.strerror or err}") from None
