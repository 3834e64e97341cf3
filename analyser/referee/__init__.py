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
* ``scoring``: the points (checked against the log's, the match's end) and High, Low, Jack, Game;
* ``line``: `Referee`, the phases put together. Other readers of a log (``solve``'s positions, the
  analysis's decision lists) subclass it and override a phase (`play_phase`) or the cursor (`take`);
* ``views``: a seat's view, every card the seat did not see written ``??``: refereed as far as it
  shows (`read_view`, which also says what the seat knows), and made from a full log (`view_of`);
  ``view_deal`` and ``view_play`` are its two phases.

A refereed line as a person reads it (``replay --show``) is ``deal_account``, outside the referee.
"""

from __future__ import annotations

import json
from typing import Any

from .line import ReachedPlay, Referee, UpToPlay
from .reading import HIDDEN, LogError, Verdict
from .scoring import MatchOver
from .views import View, read_view, view_of, view_seat

__all__ = ["HIDDEN", "LogError", "MatchOver", "ReachedPlay", "Referee", "UpToPlay", "Verdict", "View", "read_view",
           "referee_line", "referee_text", "view_of", "view_seat"]


def referee_line(obj: Any) -> Verdict:
    """Referee one parsed log line, a full log or a seat's view (`read_view`); raises LogError naming the first
    wrong event. A view's verdict names its `seat` and what it could not check (`unchecked`)."""
    if view_seat(obj) is None:
        return Referee(obj).run()
    return read_view(obj).verdict


def referee_text(text: str) -> Verdict:
    """Referee one line of JSON text."""
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as err:
        # json's messages may end in "at" ("Invalid control character at"): the column follows once.
        what = err.msg.removesuffix(" at").rstrip(":")
        raise LogError(-1, f"not valid JSON: {what[:1].lower() + what[1:]} at column {err.colno}") from None
    return referee_line(obj)
