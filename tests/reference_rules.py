"""An independent, slow and obvious pure-Python reference of the All Fours rules.

Written from ``docs/rules.md`` and ``docs/game-log.md`` alone: it imports nothing
from ``analyser`` and uses only the standard library.  It is the second opinion the
tests hold the numba engine and ``allfours replay`` against.

Public API
----------
``referee_line(obj) -> dict``
    Referee one parsed ``allfours-log/1`` line.  Raises ``RefereeError`` on the first
    problem.  A line without any ``points`` event is scored instead of checked.
``generate_line(rules, dealer, score_before, rng, p_beg=0.5, p_give=0.5, p_bunch=0.5) -> dict``
    A random (uniformly legal) player writing one complete, correct line.
``PRESETS`` / ``full_rules(preset, players=None, **overrides)``
    The four presets of rules.md.

Cards are canonical strings internally: rank ``A K Q J T 9 8 7 6 5 4 3 2`` followed by
suit ``S H D C``.
"""

from __future__ import annotations

import random
from typing import Any

__all__ = [
    "ALLOWED_PLAYERS",
    "PRESETS",
    "RefereeError",
    "card_points",
    "full_rules",
    "generate_line",
    "legal_plays",
    "parse_card",
    "referee_line",
    "side_of",
    "trick_winner",
]

FORMAT = "allfours-log/1"

# --------------------------------------------------------------------------- presets

PRESETS: dict[str, dict[str, Any]] = {
    "trinidad": {
        "players": 4,
        "target": 14,
        "kick": "trinidad",
        "discard": False,
        "bunching": False,
        "hang_jack": True,
        "game_tie": "none",
        "undertrump": "allowed",
        "void_play": "any",
        "gift": 1,
        "run_cards": 3,
    },
    "trinidad-tobago": {
        "players": 4,
        "target": 14,
        "kick": "tobago",
        "discard": False,
        "bunching": False,
        "hang_jack": True,
        "game_tie": "none",
        "undertrump": "allowed",
        "void_play": "any",
        "gift": 1,
        "run_cards": 3,
    },
    "partnership-seven": {
        "players": 4,
        "target": 7,
        "kick": "final-jack",
        "discard": True,
        "bunching": True,
        "hang_jack": False,
        "game_tie": "dealer-opponents",
        "undertrump": "allowed",
        "void_play": "any",
        "gift": 1,
        "run_cards": 3,
    },
    "classic": {
        "players": 4,
        "target": 11,
        "kick": "heels",
        "discard": True,
        "bunching": False,
        "hang_jack": False,
        "game_tie": "none",
        "undertrump": "allowed",
        "void_play": "trump",
        "gift": 1,
        "run_cards": 3,
    },
}

# Player counts each preset's source documents allow (rules.md preset table).
ALLOWED_PLAYERS: dict[str, tuple[int, ...]] = {
    "trinidad": (2, 4),
    "trinidad-tobago": (2, 4),
    "partnership-seven": (4,),
    "classic": (2, 3, 4),
}

PARAM_KEYS = ("players", "target", "kick", "discard", "bunching", "hang_jack",
              "game_tie", "undertrump", "void_play", "gift", "run_cards")
KICKS = ("none", "trinidad", "tobago", "heels", "final-jack")
GAME_TIES = ("none", "dealer-opponents", "non-dealer")
UNDERTRUMPS = ("allowed", "forbidden")
VOID_PLAYS = ("any", "trump")


def full_rules(preset: str, players: int | None = None, **overrides: Any) -> dict:
    """The full rules object (as written in a log) for ``preset`` with overrides.

    >>> full_rules("classic", players=3)["players"]
    3
    >>> full_rules("trinidad")["kick"]
    'trinidad'
    """
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    rules: dict[str, Any] = {"preset": preset}
    rules.update(PRESETS[preset])
    if players is not None:
        rules["players"] = players
    for key, value in overrides.items():
        if key not in PARAM_KEYS:
            raise ValueError(f"unknown rule parameter {key!r}")
        rules[key] = value
    problem = _rules_problem(rules)
    if problem:
        raise ValueError(problem)
    return rules


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _rules_problem(r: dict) -> str | None:
    """None if the merged rules are valid, else a message."""
    preset = r["preset"]
    if not _is_int(r["players"]) or r["players"] not in ALLOWED_PLAYERS[preset]:
        return f"players={r['players']!r} not allowed for preset {preset} (allowed: {ALLOWED_PLAYERS[preset]})"
    if not _is_int(r["target"]) or r["target"] < 1:
        return f"target must be a positive integer, got {r['target']!r}"
    if r["kick"] not in KICKS:
        return f"kick must be one of {KICKS}, got {r['kick']!r}"
    for key in ("discard", "bunching", "hang_jack"):
        if not isinstance(r[key], bool):
            return f"{key} must be true or false, got {r[key]!r}"
    if r["game_tie"] not in GAME_TIES:
        return f"game_tie must be one of {GAME_TIES}, got {r['game_tie']!r}"
    if r["undertrump"] not in UNDERTRUMPS:
        return f"undertrump must be one of {UNDERTRUMPS}, got {r['undertrump']!r}"
    if r["void_play"] not in VOID_PLAYS:
        return f"void_play must be one of {VOID_PLAYS}, got {r['void_play']!r}"
    if not _is_int(r["gift"]) or r["gift"] < 0:
        return f"gift must be a non-negative integer, got {r['gift']!r}"
    if not _is_int(r["run_cards"]) or r["run_cards"] < 1:
        return f"run_cards must be a positive integer, got {r['run_cards']!r}"
    return None


def _merge_rules(rules_obj: Any) -> dict:
    """Log ``rules`` object -> full rules (preset defaults + overrides). ValueError if bad."""
    if not isinstance(rules_obj, dict):
        raise TypeError("rules must be an object")
    preset = rules_obj.get("preset")
    if preset is None:
        raise ValueError("rules.preset is required")
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset!r}")
    merged: dict[str, Any] = {"preset": preset}
    merged.update(PRESETS[preset])
    for key in PARAM_KEYS:  # unknown keys are ignored
        if key in rules_obj:
            merged[key] = rules_obj[key]
    problem = _rules_problem(merged)
    if problem:
        raise ValueError(problem)
    return merged


# --------------------------------------------------------------------------- cards

RANKS = "23456789TJQKA"  # low to high
SUITS = "SHDC"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
POINT_VALUES = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
ALL_CARDS = [r + s for s in SUITS for r in reversed(RANKS)]


def parse_card(text: Any) -> str:
    """Canonical card name from a log card (``10`` and suit symbols accepted).

    >>> parse_card("10♥"), parse_card("TH"), parse_card("2c")
    ('TH', 'TH', '2C')
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be a string, got {text!r}")
    t = text.strip()
    for sym, letter in SUIT_SYMBOLS.items():
        t = t.replace(sym, letter)
    t = t.replace("\ufe0f", "").upper()  # emoji variation selector, lower case
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANKS or t[1] not in SUITS:
        raise ValueError(f"not a card: {text!r}")
    return t


def parse_suit(text: Any) -> str:
    if not isinstance(text, str):
        raise TypeError(f"a suit must be a string, got {text!r}")
    t = SUIT_SYMBOLS.get(text.strip().replace("\ufe0f", ""), text.strip().upper())
    if t not in SUITS:
        raise ValueError(f"not a suit: {text!r}")
    return t


def rank_of(card: str) -> int:
    """2..14 (ace high)."""
    return RANKS.index(card[0]) + 2


def suit_of(card: str) -> str:
    return card[1]


def card_points(card: str) -> int:
    """Card points for Game: T 10, A 4, K 3, Q 2, J 1, else 0."""
    return POINT_VALUES.get(card[0], 0)


def side_of(seat: int, players: int) -> int:
    """4 players: partners opposite (seat % 2); 2 or 3 players: every seat is a side."""
    return seat % 2 if players == 4 else seat


def num_sides(players: int) -> int:
    return 2 if players == 4 else players


def kick_value(card: str, kick: str) -> int:
    """Kick points a turn-up scores for the dealer's side."""
    r = card[0]
    if kick == "trinidad":
        return {"A": 1, "6": 2, "J": 3}.get(r, 0)
    if kick == "tobago":
        return {"A": 1, "2": 2, "J": 3}.get(r, 0)
    if kick == "heels":
        return 1 if r == "J" else 0
    return 0  # none, final-jack (its jack bonus is scored after `trump`)


# --------------------------------------------------------------------------- play rules

def legal_plays(hand: list[str], trick: list[str], trump: str, undertrump: str = "allowed",
                void_play: str = "any") -> list[str]:
    """Cards of ``hand`` (in hand order) that may be played to ``trick`` (cards so far).

    >>> legal_plays(["2H", "3S", "4D"], ["5H"], "S")   # hold hearts: heart or trump
    ['2H', '3S']
    >>> legal_plays(["2H", "3S", "4D"], ["5S"], "S")   # trump lead: must trump
    ['3S']
    >>> legal_plays(["2H", "3S", "4D"], ["5C"], "S")   # no clubs: anything
    ['2H', '3S', '4D']
    >>> legal_plays(["2H", "3S", "4D"], ["5C"], "S", void_play="trump")   # no clubs, a trump: must trump
    ['3S']
    """
    hand = list(hand)
    if not trick:
        return hand
    led = suit_of(trick[0])
    trumps = [c for c in hand if suit_of(c) == trump]
    if led == trump:
        return trumps if trumps else hand

    def may_play_trump(c: str) -> bool:
        # Forbidden undertrumping: no trump below the trick's highest trump, unless
        # the hand holds nothing but trumps.
        if undertrump != "forbidden" or len(trumps) == len(hand):
            return True
        played = [rank_of(x) for x in trick if suit_of(x) == trump]
        return not played or rank_of(c) > max(played)

    playable_trumps = [c for c in trumps if may_play_trump(c)]
    followers = [c for c in hand if suit_of(c) == led]
    if followers:
        return [c for c in hand if suit_of(c) == led or c in playable_trumps]
    if void_play == "trump" and playable_trumps:
        return playable_trumps
    return [c for c in hand if suit_of(c) != trump or c in playable_trumps]


def _illegal_reason(hand: list[str], trick: list[str], card: str, trump: str, undertrump: str,
                    void_play: str = "any") -> str:
    led = suit_of(trick[0])
    has_trump = any(suit_of(c) == trump for c in hand)
    has_led = any(suit_of(c) == led for c in hand)
    if led == trump and has_trump and suit_of(card) != trump:
        return f"a trump ({trump}) was led and the player holds trump"
    if led != trump and has_led and suit_of(card) not in (led, trump):
        return f"{led} was led and the player holds {led}: must follow suit or play trump"
    if led != trump and not has_led and suit_of(card) != trump:
        return f"{led} was led, the player has none and must trump (void_play=trump)"
    return "undertrumping is forbidden: a trump lower than the highest trump in the trick"


def trick_winner(plays: list[tuple[int, str]], trump: str) -> int:
    """Seat winning a trick given ``[(seat, card), ...]`` in play order."""
    trumps = [(rank_of(c), seat) for seat, c in plays if suit_of(c) == trump]
    if trumps:
        return max(trumps)[1]
    led = suit_of(plays[0][1])
    return max((rank_of(c), seat) for seat, c in plays if suit_of(c) == led)[1]


def score_after_play(start_hands: list[list[str]], tricks: list[tuple[int, list[str]]],
                     trump: str, dealer: int, rules: dict) -> list[tuple[int, int, str, dict]]:
    """High, Low, Jack/hang-jack, Game awards (in that order) after the last trick.

    ``start_hands``: hands by seat when trick play starts (after discards).
    ``tricks``: ``(winner_seat, cards)`` per trick.  Returns ``(side, n, why, extra)``.
    """
    n = rules["players"]
    awards: list[tuple[int, int, str, dict]] = []
    in_play = [(rank_of(c), seat, c) for seat, hand in enumerate(start_hands)
               for c in hand if suit_of(c) == trump]
    if in_play:
        awards.append((side_of(max(in_play)[1], n), 1, "high", {}))
        awards.append((side_of(min(in_play)[1], n), 1, "low", {}))
    jack = "J" + trump
    holder = next((seat for seat, hand in enumerate(start_hands) if jack in hand), None)
    if holder is not None:
        captor = next(w for w, cards in tricks if jack in cards)
        cap_side, hold_side = side_of(captor, n), side_of(holder, n)
        if rules["hang_jack"] and cap_side != hold_side:
            awards.append((cap_side, 3, "hang-jack", {}))
        else:
            awards.append((cap_side, 1, "jack", {}))
    totals = [0] * num_sides(n)
    for w, cards in tricks:
        totals[side_of(w, n)] += sum(card_points(c) for c in cards)
    best = max(totals)
    tied = [s for s in range(len(totals)) if totals[s] == best]
    game_side = None
    if len(tied) == 1:
        game_side = tied[0]
    elif rules["game_tie"] in ("dealer-opponents", "non-dealer"):
        others = [s for s in tied if s != side_of(dealer, n)]
        if len(others) == 1:
            game_side = others[0]
    if game_side is not None:
        awards.append((game_side, 1, "game", {"totals": totals}))
    return awards


# --------------------------------------------------------------------------- referee

class RefereeError(Exception):
    """The first problem found in a log line. ``event_index`` is -1 for line-level problems."""

    def __init__(self, event_index: int, message: str):
        super().__init__(event_index, message)
        self.event_index = event_index
        self.message = message

    def __str__(self) -> str:
        where = "line" if self.event_index < 0 else f"event {self.event_index}"
        return f"{where}: {self.message}"


def _describe(ev: Any) -> str:
    if not isinstance(ev, dict):
        return repr(ev)
    kind = ev.get("event")
    if kind == "points":
        return f"points (side {ev.get('side')!r}, n {ev.get('n')!r}, why {ev.get('why')!r})"
    return repr(kind)


class _Referee:
    def __init__(self, obj: Any):
        if not isinstance(obj, dict):
            raise RefereeError(-1, "a log line must be a JSON object")
        if obj.get("format") != FORMAT:
            raise RefereeError(-1, f"format must be {FORMAT!r}, got {obj.get('format')!r}")
        try:
            self.rules = _merge_rules(obj.get("rules"))
        except (TypeError, ValueError) as exc:
            raise RefereeError(-1, f"bad rules: {exc}") from None
        self.n = self.rules["players"]
        self.sides = num_sides(self.n)
        dealer: Any = obj.get("dealer")
        if not _is_int(dealer) or not 0 <= dealer < self.n:
            raise RefereeError(-1, f"dealer must be a seat 0..{self.n - 1}, got {dealer!r}")
        self.dealer = dealer
        self.eldest = (dealer + 1) % self.n
        sb: Any = obj.get("score_before")
        if not isinstance(sb, list) or len(sb) != self.sides:
            raise RefereeError(-1, f"score_before must list {self.sides} scores (one per side), got {sb!r}")
        if not all(_is_int(x) and 0 <= x < self.rules["target"] for x in sb):
            raise RefereeError(-1, f"score_before must hold scores 0..{self.rules['target'] - 1}, got {sb!r}")
        events = obj.get("events")
        if not isinstance(events, list):
            raise RefereeError(-1, "events must be a list")
        self.obj = obj
        self.events = events
        self.pos = 0
        self.checking = any(isinstance(e, dict) and e.get("event") == "points" for e in events)
        self.score = list(sb)
        self.points: list[tuple[int, int, str]] = []
        self.winner: int | None = None

    # -- event cursor ------------------------------------------------------
    def peek_kind(self) -> str | None:
        if self.pos >= len(self.events):
            return None
        ev = self.events[self.pos]
        return ev.get("event") if isinstance(ev, dict) else None

    def take(self, *kinds: str) -> dict:
        i = self.pos
        want = " or ".join(repr(k) for k in kinds)
        if i >= len(self.events):
            raise RefereeError(i, f"the log ends early: expected {want}")
        ev = self.events[i]
        if not isinstance(ev, dict) or not isinstance(ev.get("event"), str):
            raise RefereeError(i, f"an event must be an object with an 'event' name, got {ev!r}")
        kind = ev["event"]
        if kind not in kinds:
            if kind == "points":
                raise RefereeError(i, f"extra points: {_describe(ev)} is not scored here (expected {want})")
            if kind == "bunch":
                raise RefereeError(i, "a bunch vote is only allowed (and required) when bunching is on and "
                                      f"a run has turned a new trump suit (expected {want})")
            if kind == "redeal":
                raise RefereeError(i, f"redeal {ev.get('reason')!r} not allowed here (expected {want})")
            raise RefereeError(i, f"expected {want}, got {kind!r}")
        self.pos += 1
        return ev

    def seat_field(self, ev: dict, i: int, key: str = "seat") -> int:
        seat: Any = ev.get(key)
        if not _is_int(seat) or not 0 <= seat < self.n:
            raise RefereeError(i, f"{key} must be a seat 0..{self.n - 1}, got {seat!r}")
        return seat

    def card_field(self, value: Any, i: int) -> str:
        try:
            return parse_card(value)
        except (TypeError, ValueError) as exc:
            raise RefereeError(i, str(exc)) from None

    # -- points --------------------------------------------------------------
    def award(self, side: int, n: int, why: str, extra: dict | None = None) -> None:
        """Points the rules score right here: check (or record) and apply them."""
        if n <= 0 or self.winner is not None:
            return
        if self.checking:
            i = self.pos
            if i >= len(self.events) or self.peek_kind() != "points":
                got = "the end of the log" if i >= len(self.events) else _describe(self.events[i])
                raise RefereeError(i, f"missing points: side {side} scores {n} ({why}) here, got {got}")
            ev = self.events[i]
            logged = (ev.get("side"), ev.get("n"), ev.get("why"))
            if logged != (side, n, why) or not all(_is_int(x) for x in logged[:2]):
                raise RefereeError(i, f"wrong points: expected side {side} scores {n} ({why}), "
                                      f"got side {logged[0]!r} scores {logged[1]!r} ({logged[2]!r})")
            if "totals" in ev and extra and "totals" in extra and ev["totals"] != extra["totals"]:
                raise RefereeError(i, f"wrong game totals: expected {extra['totals']}, got {ev['totals']!r}")
            self.pos += 1
        self.points.append((side, n, why))
        self.score[side] += n
        if self.score[side] >= self.rules["target"]:
            self.winner = side
            if self.checking:
                if self.pos < len(self.events):
                    raise RefereeError(self.pos, f"side {side} reached the target {self.rules['target']} "
                                                 "with the previous points event: the log must end there")
                raise _MatchOver
            if self.pos >= len(self.events):  # an unchecked log may end where the match ended
                raise _MatchOver

    # -- walking the deal ------------------------------------------------------
    def run(self) -> dict:
        try:
            self.walk()
        except _MatchOver:
            pass
        if self.checking:
            self.check_result()
        return {"points": list(self.points), "score_after": list(self.score), "winner": self.winner}

    def check_result(self) -> None:
        obj = self.obj
        if "score_after" not in obj:
            raise RefereeError(-1, "score_after is missing")
        if obj["score_after"] != self.score:
            raise RefereeError(-1, f"wrong score_after: expected {self.score}, got {obj['score_after']!r}")
        if "winner" not in obj:
            raise RefereeError(-1, "winner is missing (null when nobody reached the target)")
        if obj["winner"] != self.winner or isinstance(obj["winner"], bool):
            raise RefereeError(-1, f"wrong winner: expected {self.winner!r}, got {obj['winner']!r}")

    def new_deal(self) -> None:
        i = self.pos
        ev = self.take("deal")
        hands = ev.get("hands")
        if not isinstance(hands, list) or len(hands) != self.n:
            raise RefereeError(i, f"deal must list {self.n} hands, got {hands!r}")
        self.used: set[str] = set()
        self.hands: list[list[str]] = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != 6:
                raise RefereeError(i, f"seat {seat} must be dealt 6 cards, got {hand!r}")
            cards = []
            for raw in hand:
                c = self.card_field(raw, i)
                if c in self.used:
                    raise RefereeError(i, f"card {c} dealt twice")
                self.used.add(c)
                cards.append(c)
            self.hands.append(cards)

    def turnup(self) -> str:
        i = self.pos
        ev = self.take("turnup")
        c = self.card_field(ev.get("card"), i)
        if c in self.used:
            raise RefereeError(i, f"turn-up {c} was already dealt in this deal")
        self.used.add(c)
        self.award(side_of(self.dealer, self.n), kick_value(c, self.rules["kick"]), "kick")
        return c

    def more(self) -> None:
        i = self.pos
        ev = self.take("more")
        rc = self.rules["run_cards"]
        hands = ev.get("hands")
        if not isinstance(hands, list) or len(hands) != self.n:
            raise RefereeError(i, f"more must list {self.n} hands, got {hands!r}")
        for seat, hand in enumerate(hands):
            if not isinstance(hand, list) or len(hand) != rc:
                raise RefereeError(i, f"a run gives seat {seat} {rc} cards, got {hand!r}")
            for raw in hand:
                c = self.card_field(raw, i)
                if c in self.used:
                    raise RefereeError(i, f"card {c} dealt twice")
                self.used.add(c)
                self.hands[seat].append(c)

    def fix_trump(self) -> str:
        """From `deal` to `trump` (and jack bonus), through redeals. Returns trump suit."""
        self.new_deal()
        while True:
            first = self.turnup()
            final = first
            i = self.pos
            ev = self.take("stand", "beg")
            if self.seat_field(ev, i) != self.eldest:
                raise RefereeError(i, f"only the eldest (seat {self.eldest}) may {ev['event']}, "
                                      f"not seat {ev['seat']}")
            redeal = False
            if ev["event"] == "beg":
                i = self.pos
                ev = self.take("give", "run")
                if self.seat_field(ev, i) != self.dealer:
                    raise RefereeError(i, f"only the dealer (seat {self.dealer}) may {ev['event']}, "
                                          f"not seat {ev['seat']}")
                if ev["event"] == "give":
                    self.award(side_of(self.eldest, self.n), self.rules["gift"], "gift")
                else:
                    need = self.rules["run_cards"] * self.n + 1
                    while True:
                        left = 52 - len(self.used)
                        i = self.pos
                        if left < need:
                            if self.peek_kind() == "more":
                                raise RefereeError(i, f"the pack is exhausted ({left} cards left, a run needs "
                                                      f"{need}): expected redeal 'exhausted'")
                            ev = self.take("redeal")
                            if ev.get("reason") != "exhausted":
                                raise RefereeError(i, f"redeal reason must be 'exhausted' here, "
                                                      f"got {ev.get('reason')!r}")
                            redeal = True
                            break
                        if self.peek_kind() == "redeal":
                            raise RefereeError(i, f"redeal not allowed: {left} cards remain (a run needs {need}), "
                                                  "the dealer must run the cards")
                        self.more()
                        final = self.turnup()
                        if suit_of(final) != suit_of(first):
                            break
                    if not redeal and self.rules["bunching"]:
                        i = self.pos
                        ev = self.take("bunch")
                        agreed = ev.get("agreed")
                        if not isinstance(agreed, bool):
                            raise RefereeError(i, f"bunch.agreed must be true or false, got {agreed!r}")
                        if agreed:
                            i = self.pos
                            ev = self.take("redeal")
                            if ev.get("reason") != "bunched":
                                raise RefereeError(i, f"after an agreed bunch the redeal reason is 'bunched', "
                                                      f"got {ev.get('reason')!r}")
                            redeal = True
            if redeal:
                self.new_deal()
                continue
            i = self.pos
            if self.peek_kind() == "redeal":
                raise RefereeError(i, "redeal not allowed here: it needs an exhausted pack or an agreed bunch")
            ev = self.take("trump")
            try:
                suit = parse_suit(ev.get("suit"))
            except (TypeError, ValueError) as exc:
                raise RefereeError(i, str(exc)) from None
            if suit != suit_of(final):
                raise RefereeError(i, f"trump must be {suit_of(final)} (the suit of the final turn-up {final}), "
                                      f"got {ev.get('suit')!r}")
            if self.rules["kick"] == "final-jack" and final[0] == "J":
                self.award(side_of(self.dealer, self.n), 1, "jack-bonus")
            return suit

    def discards(self) -> None:
        must = {s for s in range(self.n) if len(self.hands[s]) > 6} if self.rules["discard"] else set()
        done: set[int] = set()
        while self.peek_kind() == "discard":
            i = self.pos
            ev = self.take("discard")
            if not self.rules["discard"]:
                raise RefereeError(i, "discarding is not allowed under these rules: every card is played")
            seat = self.seat_field(ev, i)
            if seat in done:
                raise RefereeError(i, f"seat {seat} discards twice")
            if seat not in must:
                raise RefereeError(i, f"seat {seat} holds {len(self.hands[seat])} cards and may not discard")
            cards = ev.get("cards")
            want = len(self.hands[seat]) - 6
            if not isinstance(cards, list) or len(cards) != want:
                raise RefereeError(i, f"seat {seat} must discard exactly {want} cards, got {cards!r}")
            parsed = [self.card_field(c, i) for c in cards]
            if len(set(parsed)) != len(parsed):
                raise RefereeError(i, f"seat {seat} discards the same card twice: {cards!r}")
            for c in parsed:
                if c not in self.hands[seat]:
                    raise RefereeError(i, f"seat {seat} discards {c}, which it does not hold")
            for c in parsed:
                self.hands[seat].remove(c)
            done.add(seat)
        missing = sorted(must - done)
        if missing:
            s = missing[0]
            raise RefereeError(self.pos, f"seat {s} holds {len(self.hands[s])} cards and must discard down to six")

    def play(self, trump: str) -> list[tuple[int, list[str]]]:
        start = [list(h) for h in self.hands]
        self.start_hands = start
        n_tricks = len(start[0])
        leader = self.eldest
        tricks: list[tuple[int, list[str]]] = []
        for t in range(n_tricks):
            plays: list[tuple[int, str]] = []
            for k in range(self.n):
                seat = (leader + k) % self.n
                i = self.pos
                if self.peek_kind() == "trick":
                    raise RefereeError(i, f"trick {t + 1} has only {k} of {self.n} cards")
                ev = self.take("play")
                who = self.seat_field(ev, i)
                if who != seat:
                    raise RefereeError(i, f"play out of turn: seat {seat} plays next in trick {t + 1}, "
                                          f"not seat {who}")
                c = self.card_field(ev.get("card"), i)
                hand = self.hands[seat]
                if c not in hand:
                    raise RefereeError(i, f"illegal play: seat {seat} plays {c}, which it does not hold")
                trick_cards = [pc for _, pc in plays]
                if c not in legal_plays(hand, trick_cards, trump, self.rules["undertrump"], self.rules["void_play"]):
                    reason = _illegal_reason(hand, trick_cards, c, trump, self.rules["undertrump"],
                                             self.rules["void_play"])
                    raise RefereeError(i, f"illegal play: seat {seat} plays {c} in trick {t + 1} "
                                          f"({' '.join(trick_cards)} so far): {reason}")
                hand.remove(c)
                plays.append((seat, c))
            i = self.pos
            if self.peek_kind() == "play":
                raise RefereeError(i, f"trick {t + 1} already has {self.n} cards: expected 'trick'")
            ev = self.take("trick")
            winner = trick_winner(plays, trump)
            if ev.get("winner") != winner or isinstance(ev.get("winner"), bool):
                raise RefereeError(i, f"wrong trick winner: trick {t + 1} ({' '.join(c for _, c in plays)}, "
                                      f"trump {trump}) is won by seat {winner}, got {ev.get('winner')!r}")
            tricks.append((winner, [c for _, c in plays]))
            leader = winner
        if self.peek_kind() == "play":
            raise RefereeError(self.pos, f"every card has been played ({n_tricks} tricks): no more plays")
        return tricks

    def walk(self) -> None:
        trump = self.fix_trump()
        self.discards()
        tricks = self.play(trump)
        for side, n, why, extra in score_after_play(self.start_hands, tricks, trump, self.dealer, self.rules):
            self.award(side, n, why, extra)
        if self.pos < len(self.events):
            ev = self.events[self.pos]
            if isinstance(ev, dict) and ev.get("event") == "points":
                raise RefereeError(self.pos, f"extra points: {_describe(ev)} is not scored")
            raise RefereeError(self.pos, f"the deal is over: unexpected event {_describe(ev)}")


class _MatchOver(Exception):
    pass


def referee_line(obj: dict) -> dict:
    """Referee one parsed ``allfours-log/1`` line.

    Returns ``{"points": [(side, n, why), ...], "score_after": [...], "winner": side or None}``.
    Raises ``RefereeError(event_index, message)`` at the first problem.  When the line has
    no ``points`` event at all it is scored (points computed, score_after/winner not
    checked) instead of checked.
    """
    return _Referee(obj).run()


# --------------------------------------------------------------------------- generator

def generate_line(rules: dict, dealer: int, score_before: list[int], rng: random.Random,
                  p_beg: float = 0.5, p_give: float = 0.5, p_bunch: float = 0.5) -> dict:
    """One complete, correct log line for a dealer's turn, played by uniform random legal play."""
    full = _merge_rules(rules)
    n = full["players"]
    target = full["target"]
    rc = full["run_cards"]
    if not 0 <= dealer < n:
        raise ValueError("dealer out of range")
    if len(score_before) != num_sides(n):
        raise ValueError("score_before needs one score per side")
    eldest = (dealer + 1) % n
    dealer_side = side_of(dealer, n)
    events: list[dict] = []
    score = list(score_before)
    state: dict[str, Any] = {"winner": None}

    def award(side: int, pts: int, why: str, **extra: Any) -> None:
        if pts <= 0:
            return
        events.append({"event": "points", "side": side, "n": pts, "why": why, **extra})
        score[side] += pts
        if score[side] >= target:
            state["winner"] = side
            raise _MatchOver

    def turn(deck: list[str]) -> str:
        card = deck.pop(0)
        events.append({"event": "turnup", "card": card})
        award(dealer_side, kick_value(card, full["kick"]), "kick")
        return card

    try:
        for _attempt in range(100000):
            deck = list(ALL_CARDS)
            rng.shuffle(deck)
            hands: list[list[str]] = [[] for _ in range(n)]
            for k in range(n):  # eldest first
                seat = (eldest + k) % n
                hands[seat] = deck[:6]
                del deck[:6]
            events.append({"event": "deal", "hands": [list(h) for h in hands]})

            first = final = turn(deck)
            redeal = False
            if rng.random() < p_beg:
                events.append({"event": "beg", "seat": eldest})
                if rng.random() < p_give:
                    events.append({"event": "give", "seat": dealer})
                    award(side_of(eldest, n), full["gift"], "gift")
                else:
                    events.append({"event": "run", "seat": dealer})
                    while True:
                        if len(deck) < rc * n + 1:
                            events.append({"event": "redeal", "reason": "exhausted"})
                            redeal = True
                            break
                        extra: list[list[str]] = [[] for _ in range(n)]
                        for k in range(n):
                            seat = (eldest + k) % n
                            extra[seat] = deck[:rc]
                            del deck[:rc]
                        for seat in range(n):
                            hands[seat].extend(extra[seat])
                        events.append({"event": "more", "hands": extra})
                        final = turn(deck)
                        if suit_of(final) != suit_of(first):
                            break
                    if not redeal and full["bunching"]:
                        votes = [rng.random() < p_bunch for _ in range(n)]
                        agreed = all(votes)
                        events.append({"event": "bunch", "agreed": agreed})
                        if agreed:
                            events.append({"event": "redeal", "reason": "bunched"})
                            redeal = True
            else:
                events.append({"event": "stand", "seat": eldest})
            if redeal:
                continue
            trump = suit_of(final)
            events.append({"event": "trump", "suit": trump})
            if full["kick"] == "final-jack" and final[0] == "J":
                award(dealer_side, 1, "jack-bonus")
            if full["discard"]:
                seats = [s for s in range(n) if len(hands[s]) > 6]
                rng.shuffle(seats)
                for s in seats:
                    thrown = rng.sample(hands[s], len(hands[s]) - 6)
                    for c in thrown:
                        hands[s].remove(c)
                    events.append({"event": "discard", "seat": s, "cards": thrown})
            start = [list(h) for h in hands]
            leader = eldest
            tricks: list[tuple[int, list[str]]] = []
            for _t in range(len(start[0])):
                plays: list[tuple[int, str]] = []
                for k in range(n):
                    seat = (leader + k) % n
                    card = rng.choice(legal_plays(hands[seat], [c for _, c in plays], trump, full["undertrump"],
                                                 full["void_play"]))
                    hands[seat].remove(card)
                    plays.append((seat, card))
                    events.append({"event": "play", "seat": seat, "card": card})
                leader = trick_winner(plays, trump)
                events.append({"event": "trick", "winner": leader})
                tricks.append((leader, [c for _, c in plays]))
            for side, pts, why, extra_fields in score_after_play(start, tricks, trump, dealer, full):
                award(side, pts, why, **extra_fields)
            break
        else:  # pragma: no cover
            raise RuntimeError("no playable deal after 100000 redeals (bunching always agreed?)")
    except _MatchOver:
        pass
    return {
        "format": FORMAT,
        "rules": dict(rules),
        "dealer": dealer,
        "score_before": list(score_before),
        "events": events,
        "score_after": score,
        "winner": state["winner"],
    }
