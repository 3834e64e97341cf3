"""``allfours play`` with the player's seat played by the computer too: for the benchmark (scripts/play_bench.py)
and the tests, which check that such a match is the engine's own ``play_match`` with the same streams."""

from __future__ import annotations

from ..game.cards import suit_of
from .entry import Built, Entry
from .play import Game


class Autoplay(Game):
    """A `Game` whose seat `options.seat` decides as the computer's seats do, asking nothing."""

    def my_card(self, built: Built, entry: Entry) -> int:
        return self.computer.card(self.me)

    def my_bid(self, built: Built, entry: Entry, role: str) -> str:
        hand, turnup = entry.hands[self.me][:6], entry.turnups[0]
        if role == "eldest":
            return "beg" if self.computer.beg(self.me, hand, turnup, entry.dealer, built.score) else "stand"
        return "give" if self.computer.give(self.me, hand, turnup, entry.dealer, built.score) else "run"

    def my_vote(self, built: Built, entry: Entry) -> bool:
        trump = suit_of(entry.turnups[-1])
        return self.computer.bunch(self.me, entry.hands[self.me], trump, entry.dealer, built.score)

    def my_discard(self, built: Built, entry: Entry) -> list[int]:
        assert built.trump is not None
        return self.computer.discard(self.me, entry.hands[self.me], built.trump)

    def after_match(self) -> None:
        pass


__all__ = ["Autoplay"]
