"""The points: each one checked against the log's `points` events, and High, Low, Jack and Game."""

from __future__ import annotations

import numpy as np

from ..engine.bits import game_points
from .reading import EventReader, LogError, points_text


class MatchOver(Exception):
    """A side reached the target: the line ends here."""


class Scoring(EventReader):
    def score_points(self, side: int, n: int, why: str, totals: list[int] | None = None) -> None:
        """`side` scores `n` for `why` (checked against the log's next event when it has points)."""
        if n <= 0 or self.verdict.winner is not None:  # nothing scores once the match is won
            return
        if self.check:
            if self.peek() != "points":
                got = self.peek() or "the end of the log"
                raise LogError(self.pos, f"missing points: side {side} scores {n} for {why}, log has {got}")
            event = self.events[self.pos]
            if (event.get("side"), event.get("n"), event.get("why")) != (side, n, why):
                raise LogError(
                    self.pos, f"wrong points: log has {points_text(event)}, the rules give side {side} {n} {why}"
                )
            if why == "game" and "totals" in event and event["totals"] != totals:
                raise LogError(self.pos, f"wrong game totals: log has {event['totals']}, captured {totals}")
            self.pos += 1
        self.verdict.where.append(self.pos - 1 if self.check else self.pos)
        self.verdict.points.append((side, n, why))
        self.score[side] += n
        if self.score[side] >= self.rules.target:
            self.verdict.winner = side
            # A checked log ends right here; an unchecked one (a record of a real deal)
            # may end here or go on with the rest of the deal, which is still refereed.
            if self.check or self.pos >= len(self.events):
                raise MatchOver

    def score_play(self, holder: dict[int, int], in_play: set[int], jack: int, jack_captor: int,
                   captured: list[int]) -> None:
        """High, Low, Jack (or hang-jack) and Game, in that order: `holder` maps each card held at the start
        of play to its seat, `in_play` the trumps held then, `jack_captor` the side that took the jack of trump
        (-1: none), `captured` each side's captured cards as a mask."""
        r, side = self.rules, self.rules.side_of
        if in_play:
            self.score_points(side(holder[max(in_play)]), 1, "high")
            self.score_points(side(holder[min(in_play)]), 1, "low")
        if jack in in_play:
            if r.hang_jack and side(holder[jack]) != jack_captor:
                self.score_points(jack_captor, 3, "hang-jack")
            else:
                self.score_points(jack_captor, 1, "jack")
        totals = [int(game_points(np.uint64(m))) for m in captured]
        best = max(totals)
        tied = [s for s, t in enumerate(totals) if t == best]
        if len(tied) == 1:
            self.score_points(tied[0], 1, "game", totals)
        elif r.game_tie != "none":
            others = [s for s in tied if s != side(self.dealer)]
            if len(others) == 1:
                self.score_points(others[0], 1, "game", totals)
