"""One line refereed: the phases (bidding, play, scoring) put together, and `UpToPlay`, which stops at
the first lead."""

from __future__ import annotations

from .bidding import BiddingPhase
from .play import PlayPhase
from .reading import LogError, Verdict
from .scoring import MatchOver, Scoring


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
