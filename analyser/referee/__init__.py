"""The referee: checks an ``allfours-log/1`` line against the rules, event by event.

It walks the grammar of docs/game-log.md with the rules' own kernels (legal moves, trick
winner, kick and Game points) and recomputes every point. A line with ``points`` events has
them checked (side, amount, category, order, and that the log ends the moment a side reaches
the target); a line without any is scored.

The rules live by phase, one short module each:

* ``reading``: the event cursor (take the next event, its seat, its cards) and `LogError`;
* ``bidding``: the deal up to trick play (deal, turn-ups and kicks, stand/beg, give/run, runs,
  redeals, the bunching vote, trump, the jack bonus, discards);
* ``play``: the tricks (turn to play, legal cards, trick winners, what each side captured);
* ``scoring``: the points (checked against the log's, the match's end) and High, Low, Jack, Game.

`Referee` puts them together. Other readers of a log (``solve``'s positions, the analysis's
decision lists) subclass it and override a phase (`play_phase`) or the cursor (`take`).
"""

from __future__ import annotations

import json
from typing import Any

from .bidding import BiddingPhase
from .play import PlayPhase
from .reading import LogError, Verdict
from .scoring import MatchOver, Scoring

__all__ = ["LogError", "MatchOver", "ReachedPlay", "Referee", "UpToPlay", "Verdict", "referee_line", "referee_text"]


class Referee(BiddingPhase, PlayPhase, Scoring):
    """One line refereed: `run()` returns its `Verdict` or raises `LogError` at the first wrong event."""

    def run(self) -> Verdict:
        try:
            self.line()
        except MatchOver:
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

    def line(self) -> None:
        """The whole deal: bidding (up to trump and the discards), then trick play and its points."""
        hands, trump = self.bidding_phase()
        self.play_phase(hands, trump)


class ReachedPlay(Exception):
    """`UpToPlay` reached the first lead."""


class UpToPlay(Referee):
    """The referee up to trick play: `line()` keeps the hands as play starts (`start_hands`) and `trump`, and
    stops there with ReachedPlay."""

    def play_phase(self, hands: list[set[int]], trump: int) -> None:
        sizes = {len(h) for h in hands}
        if len(sizes) != 1:
            raise LogError(self.pos, f"hands must be equal before play, not of sizes {sorted(sizes)}")
        self.start_hands = [set(h) for h in hands]
        self.trump = trump
        raise ReachedPlay


def referee_line(obj: Any) -> Verdict:
    """Referee one parsed log line; raises LogError naming the first wrong event."""
    return Referee(obj).run()


def referee_text(text: str) -> Verdict:
    """Referee one line of JSON text."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        # json's messages may end in "at" ("Invalid control character at"): the column follows once.
        what = err.msg.removesuffix(" at").rstrip(":")
        raise LogError(-1, f"not valid JSON: {what[:1].lower() + what[1:]} at column {err.colno}") from None
    return referee_line(obj)
