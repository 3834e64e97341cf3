"""Cards at the edge: parsing loose input and printing canonical names.

A card is an int ``suit * 13 + rank``: suits ``S H D C`` are 0..3, ranks ``2..A``
are 0..12, so a higher int is a higher card within its suit. A set of cards is a
uint64 bitmask with bit ``card`` set. Everything inside the engine works on these
ints; this module is the only place that reads or writes card names.

>>> parse_card("10♠"), parse_card("ts"), parse_card("AS")
(8, 8, 12)
>>> card_name(parse_card("10h"))
'TH'
>>> [card_name(c) for c in parse_cards("AS JS 4H")]
['AS', 'JS', '4H']
"""

from __future__ import annotations

from collections.abc import Iterable
from .errors import AllFoursError

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_WORDS = ("spade", "heart", "diamond", "club")
RANKS = "23456789TJQKA"
N_CARDS = 52
N_RANKS = 13

RANK_TEN = RANKS.index("T")
RANK_JACK = RANKS.index("J")
RANK_ACE = RANKS.index("A")

_SUIT_ALIASES = {**{s: i for i, s in enumerate(SUITS)}, **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
# Text-presentation variants that terminals and editors often produce.
_SUIT_ALIASES.update({"♤": 0, "♡": 1, "♢": 2, "♧": 3})


class CardError(AllFoursError):
    """A card or suit that cannot be read, or a set of cards that breaks a rule."""


def card_of(suit: int, rank: int) -> int:
    """The card int for a suit index and a rank index."""
    return suit * N_RANKS + rank


def suit_of(card: int) -> int:
    return card // N_RANKS


def rank_of(card: int) -> int:
    return card % N_RANKS


def parse_suit(token: str) -> int:
    """Read a suit: ``S H D C`` (any case) or ``♠ ♥ ♦ ♣``.

    >>> parse_suit("h"), parse_suit("♣")
    (1, 3)
    """
    key = token.strip().replace("\ufe0f", "").upper()
    if key in _SUIT_ALIASES:
        return _SUIT_ALIASES[key]
    raise CardError(f"bad suit {token!r}: expected one of S H D C or ♠ ♥ ♦ ♣")


def parse_card(token: str) -> int:
    """Read one card such as ``AS``, ``as``, ``10S``, ``TS``, ``10♠`` or ``A♠``."""
    if not isinstance(token, str):
        raise CardError(f"bad card {token!r}: expected text such as 'AS' or '10♠'")
    text = token.strip().replace("\ufe0f", "").upper()
    if len(text) >= 2:
        rank_text, suit_text = text[:-1], text[-1]
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) == 1 and rank_text in RANKS and suit_text in _SUIT_ALIASES:
            return card_of(_SUIT_ALIASES[suit_text], RANKS.index(rank_text))
    raise CardError(f"bad card {token!r}: expected a rank A K Q J 10/T 9..2 and a suit S H D C or ♠ ♥ ♦ ♣")


def parse_cards(text: str | Iterable[str], *, count: int | None = None, what: str = "cards") -> list[int]:
    """Read several cards (a string split on spaces/commas, or a list of tokens).

    Duplicates are an error naming the card; ``count`` checks how many there are.

    >>> parse_cards("AS, as")
    Traceback (most recent call last):
    ...
    analyser.game.cards.CardError: duplicate card 'as' in cards
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[int] = []
    for token in tokens:
        card = parse_card(token)
        if card in cards:
            raise CardError(f"duplicate card {token!r} in {what}")
        cards.append(card)
    if count is not None and len(cards) != count:
        raise CardError(f"{what}: expected {count} cards, got {len(cards)}")
    return cards


def card_name(card: int) -> str:
    """Canonical log name of a card, e.g. ``'TH'``."""
    if not 0 <= card < N_CARDS:
        raise CardError(f"card index {card} out of range 0..51")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def card_symbol(card: int) -> str:
    """Human-friendly name, e.g. ``'10♥'``."""
    rank = RANKS[rank_of(card)]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[suit_of(card)]


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of a set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[int]:
    """Cards in a bitmask, highest suit-major order: spades first, high rank first."""
    mask = int(mask)
    return sorted((c for c in range(N_CARDS) if mask >> c & 1), key=lambda c: (suit_of(c), -rank_of(c)))


def names_of(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]
