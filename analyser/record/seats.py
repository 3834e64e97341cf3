"""Who is who at the table, in words: the player's seat, partner, left and right, which way play goes, and
a score named by side. Light on imports: ``record``, ``play`` and ``replay --show`` all say it."""

from __future__ import annotations

from collections.abc import Sequence

from ..game.rules import RuleSet


def seating_text(n: int, me: int) -> str:
    """Who is who from seat `me`'s chair, and which way play goes (seats are numbered in play order):
    ``you are seat 0, play passes to your left: seat 1, on your left, plays after you; seat 2, opposite, is your
    partner; seat 3, on your right, plays before you``."""
    after, before = (me + 1) % n, (me - 1) % n
    if n == 2:
        return f"you are seat {me}; seat {after}, opposite, plays after you (no partners: each of you scores alone)"
    if n == 3:
        return (f"you are seat {me}, play passes to your left: seat {after}, on your left, plays after you; seat "
                f"{before}, on your right, plays before you (no partners: each seat scores alone)")
    return (f"you are seat {me}, play passes to your left: seat {after}, on your left, plays after you; seat "
            f"{(me + 2) % 4}, opposite, is your partner; seat {before}, on your right, plays before you")


def seat_word(n: int, me: int, other: int) -> str:
    """Another seat named from seat `me`'s chair in one word: ``left``, ``partner``, ``right`` (``opposite`` with
    two players).

    >>> [seat_word(4, 0, s) for s in (1, 2, 3)], seat_word(3, 2, 0), seat_word(2, 1, 0)
    (['left', 'partner', 'right'], 'left', 'opposite')
    """
    if n == 2:
        return "opposite"
    if other == (me + 1) % n:
        return "left"
    if other == (me - 1) % n:
        return "right"
    return "partner"


def side_scores(rules: RuleSet, score: Sequence[int], me: int | None = None, short: bool = False) -> str:
    """A score named by side: ``your side 6, theirs 11`` from seat `me`'s chair (without partners ``you 6, seat 1
    11``), else ``side 0 (seats 0 and 2) 6, side 1 (seats 1 and 3) 11`` (`short`: ``side 0 6, side 1 11``;
    without partners ``seat 0 6, seat 1 11``)."""
    if me is None:
        if rules.players == 4:
            return ", ".join(f"side {s}{'' if short else f' (seats {s} and {s + 2})'} {score[s]}" for s in range(2))
        return ", ".join(f"seat {s} {score[s]}" for s in range(rules.sides))
    mine = rules.side_of(me)
    if rules.players == 4:
        return f"your side {score[mine]}, theirs {score[1 - mine]}"
    order = sorted(range(rules.sides), key=lambda s: (s != mine, s))
    return ", ".join(f"{'you' if s == mine else f'seat {s}'} {score[s]}" for s in order)


def play_order_text(n: int) -> str:
    """Which way play goes, for a log read from no seat's chair."""
    if n == 2:
        return "the two seats play in turn: 0, 1, then 0 again; each scores alone"
    order = ", ".join(str(s) for s in range(n))
    who = "partners sit opposite" if n == 4 else "no partners: each seat scores alone"
    return f"play passes to the left, in seat order: {order}, then 0 again; {who}"


def side_name(rules: RuleSet, side: int, me: int | None = None) -> str:
    """``side 1 (seats 1 and 3)``; from seat `me`'s chair ``your side (seats 0 and 2)``, ``the other side (...)``;
    without partners ``you (seat 1)`` or ``seat 2``."""
    if rules.players == 4:
        pair = f"(seats {side} and {side + 2})"
        if me is None:
            return f"side {side} {pair}"
        return f"{'your side' if side == rules.side_of(me) else 'the other side'} {pair}"
    return f"you (seat {side})" if side == me else f"seat {side}"


def winner_words(rules: RuleSet, side: int, me: int | None = None) -> str:
    """``your side (seats 0 and 2) wins the match``, ``you win the match``, ``side 1 (seats 1 and 3) wins ...``."""
    if rules.players != 4 and side == me:
        return "you win the match"
    return f"{side_name(rules, side, me)} wins the match"


__all__ = ["play_order_text", "seating_text", "side_name", "side_scores", "winner_words"]
