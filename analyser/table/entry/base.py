"""What every part of an entry shares: the `Entry` (what is known of one deal, as entered), what is `Due` next,
the `Built` line, the `EntryError`, and the card helpers."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ...game.cards import SUIT_WORDS, card_name, rank_of, suit_of
from ...game.errors import AllFoursError
from ...game.rules import RuleSet

if TYPE_CHECKING:
    from .cards import PlayWalk

HIDDEN = "??"
ALL_CARDS = (1 << 52) - 1
EXHAUSTED, BUNCHED = "exhausted", "bunched"


class EntryError(AllFoursError):
    """A deal that cannot be as entered: a card twice or not in the deck, the wrong number of cards, a play out
    of turn, illegal or against a void the seat showed, a line where no decision is due."""


def suit_cards(suit: int) -> int:
    return ((1 << 13) - 1) << (13 * suit)


def mask_of(cards: Sequence[int] | set[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def names(cards: Sequence[int] | set[int]) -> list[str]:
    """Canonical names, as the simulator writes a hand: by suit (S H D C), high card first."""
    return [card_name(c) for c in sorted(cards, key=lambda c: (suit_of(c), -rank_of(c)))]


def plural(suit: int) -> str:
    return SUIT_WORDS[suit] + "s"


@dataclasses.dataclass
class Entry:
    """What is known of one deal, as entered (cards as ints).

    `hands` maps each known seat to every card it was dealt, in order: its first six, then `run_cards` per run.
    `seat` is whose view the line is; None when every hand is known (a full log). `bunch` is the bunching vote
    after a run (partnership-seven). `earlier` holds the events of void deals before this one in the same line
    (each ends with its ``redeal``), as built before.
    """

    rules: RuleSet
    dealer: int
    score_before: list[int]
    seat: int | None = None
    hands: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    turnups: list[int] = dataclasses.field(default_factory=list)
    bids: list[str] = dataclasses.field(default_factory=list)
    bunch: bool | None = None
    discards: dict[int, list[int]] = dataclasses.field(default_factory=dict)
    played: list[int] = dataclasses.field(default_factory=list)
    earlier: list[dict[str, Any]] = dataclasses.field(default_factory=list)

    @property
    def n(self) -> int:
        return self.rules.players

    @property
    def eldest(self) -> int:
        return (self.dealer + 1) % self.n

    @property
    def known(self) -> list[int]:
        """The seats whose cards are known."""
        return list(range(self.n)) if self.seat is None else [self.seat]


@dataclasses.dataclass
class Due:
    """What comes next in an entry: `kind` is one of ``hand`` (a known seat's six cards), ``turnup`` (number
    `run`: 0 the first), ``bid`` (`role` eldest or dealer, at `seat`), ``more`` (`seat`'s cards from run `run`),
    ``bunch`` (the vote), ``discard`` (`seat`), ``card`` (`seat` to play), ``redeal`` (the deal is void:
    `role` is the reason) or ``over`` (the deal is played out, or the match won); `text` says it in words."""

    kind: str
    text: str
    seat: int | None = None
    role: str | None = None
    run: int = 0

    @property
    def decision(self) -> bool:
        """A bid or a card: what a hint answers."""
        return self.kind in ("bid", "card")


@dataclasses.dataclass
class Built:
    """An entry built: the `line` (with ``score_after`` and ``winner`` once the deal is over), what is `due`,
    the plays walked (None before trick play), trump (None before it is fixed), the points so far and the
    score by side."""

    line: dict[str, Any]
    due: Due
    walk: PlayWalk | None
    trump: int | None
    points: list[tuple[int, int, str]]
    score: list[int]
    winner: int | None
    hand_size: int = 0      # cards each seat plays (0 before trick play)
    new_points: int = 0     # how many of `points` this deal scored (the rest: void deals before it)

    @property
    def finished(self) -> bool:
        """The line is complete: the deal played out, or the match won (or the deal void: see due.kind)."""
        return self.due.kind == "over"


class Stop(Exception):
    """The build stops here: `due` says what comes next."""

    def __init__(self, due: Due):
        super().__init__(due.text)
        self.due = due
