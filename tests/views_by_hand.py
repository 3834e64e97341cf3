"""A seat's view of a full log line written by hand, as docs/game-log.md says (not with the referee's view_of):
the reference the entry and record tests compare what the tool writes with."""

from __future__ import annotations

import json


def view_by_hand(line: dict, seat: int) -> dict:
    """What `seat` saw: every card it did not see is ??, in deal, more and others' discards."""
    out = json.loads(json.dumps(line))
    for ev in out["events"]:
        if ev["event"] in ("deal", "more"):
            ev["hands"] = [h if s == seat else ["??"] * len(h) for s, h in enumerate(ev["hands"])]
        elif ev["event"] == "discard" and ev["seat"] != seat:
            ev["cards"] = ["??"] * len(ev["cards"])
    return out
