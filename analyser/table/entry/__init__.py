"""A deal as a player enters it: an ``allfours-log/1`` line from the hand, the turn-ups, the bids and the cards
played so far, each one checked the moment it is given.

What a player types is an `Entry`: the rules, the dealer, the score, whose view it is (or every hand, when all
are known), the cards each known seat was dealt (its first six, then ``run_cards`` per run), the turn-ups, the
bids, the discards and every card played, in order from the first lead. `build` turns it into the line
(docs/game-log.md): a full log when every hand is known, else the seat's view, where every card the seat did
not see is ``??``. It works out whose turn each card was (the eldest leads; each trick's winner leads the
next), the trick winners, every point (kicks, the gift, the jack bonus, and High, Low, Jack and Game once the
last card is played, in the referee's own words and order) and what is due next: a bid, a card, or something
still to be entered. Bad input is an `EntryError` naming the card or the event and why; nothing is built.

`PlayWalk` is the walk over the plays the hint, the recorder and the player share: whose turn, the led suit,
the trick winners, the card points each side captured, and what each seat has shown it cannot hold (a void it
showed by not following, not trumping, or undertrumping where that is forbidden).

`entry_line` is the one-line form (``allfours hint --rules ... --hand ... --played ...``), `decision_due` the
decision a line stops at, `append_line` adds a line to a log file.

The parts, by what each asks:

* ``base``: the `Entry`, what is `Due`, the `Built` line, `EntryError`, the card helpers;
* ``setup``: the set-up (seats, score, where each card is, the turn-ups, the discards, the points): `SetUp`;
* ``bids``: the eldest's and the dealer's bids and the runs: `BidPhase`, ``--bids``;
* ``cards``: the plays (`PlayWalk`) and each card checked: `CardPhase`; whether the hidden cards of a seat's
  view can still be dealt is the view referee's decision (``referee.views.dealing_shortfall``);
* ``build``: the parts put together (`build`) and the one-line form (`entry_line`);
* ``lines``: a line read back (`check_line`, `decision_due`) and appended to a log file (`append_line`).
"""

from .base import (
    ALL_CARDS, BUNCHED, EXHAUSTED, HIDDEN, Built, Due, Entry, EntryError, mask_of, names, plural, suit_cards,
)
from .bids import BID_FORMS, BID_WORDS, BidPhase, read_bids
from .build import Builder, build, entry_line
from .cards import CardPhase, PlayWalk, Shown, Trick, read_card, read_cards, walk_plays
from .lines import append_line, check_appendable, check_line, decision_due, entry_from_line
from .setup import SetUp, check_seat, read_score, side_scores

__all__ = [
    "ALL_CARDS", "BID_FORMS", "BID_WORDS", "BUNCHED", "EXHAUSTED", "HIDDEN", "BidPhase", "Builder", "Built",
    "CardPhase", "Due", "Entry", "EntryError", "PlayWalk", "SetUp", "Shown", "Trick", "append_line", "build",
    "check_appendable", "check_line", "check_seat", "decision_due", "entry_from_line", "entry_line", "mask_of",
    "names", "plural", "read_bids", "read_card", "read_cards", "read_score", "side_scores", "suit_cards",
    "walk_plays",
]
