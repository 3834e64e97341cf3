"""Whether the hidden cards of a seat's view can still be dealt (`referee.views.dealing_shortfall`): one judge,
asked by the view referee (`read_view`) and by the table's entry (`table.entry`) alike."""

from __future__ import annotations

import itertools
import random

import pytest

from analyser.game.cards import parse_card
from analyser.referee import LogError, read_view, view_of
from analyser.referee.view_deal import hidden_dealing
from analyser.referee.views import Shortfall, dealing_shortfall
from analyser.game.rules import make_rules
from analyser.table import entry as entry_package
from analyser.table.entry import EntryError, entry_line


def mask(*cards: int) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def test_a_dealing_that_fits_is_no_shortfall():
    assert dealing_shortfall(mask(0, 1, 2, 3), {1: 2, 2: 2}, {1: mask(0, 1), 2: mask(2, 3)}) is None
    assert dealing_shortfall(0, {}, {}) is None
    assert dealing_shortfall(mask(5), {1: 0, 2: 1}, [0, mask(4), 0]) is None  # lacks by seat, as the referee keeps them


def test_one_seat_short():
    # seat 2 still holds 3 cards, and only 2 of the unseen ones are not of a kind it showed it lacks
    assert dealing_shortfall(mask(0, 1, 2, 3), {2: 3}, {2: mask(0, 1)}) == Shortfall([2], 3, 2)


def test_two_seats_short_together_though_each_fits_alone():
    unseen, lacks = mask(0, 1, 2, 3, 4), {1: mask(2, 3, 4), 3: mask(2, 3, 4)}  # both may hold only cards 0 and 1
    assert dealing_shortfall(unseen, {1: 1, 3: 2}, lacks) == Shortfall([1, 3], 3, 2)
    assert dealing_shortfall(unseen, {1: 1, 3: 1}, lacks) is None


def test_the_first_group_short_is_named():
    # seat 1 alone is short, and so is every group holding it: the first in binary order is seat 1 alone
    assert dealing_shortfall(mask(0, 1), {1: 2, 2: 1, 3: 1}, {1: mask(0), 2: 0, 3: 0}) == Shortfall([1], 2, 1)


def test_a_shortfall_exactly_when_no_dealing_exists():
    rng = random.Random(11)
    for _ in range(400):
        seats = rng.sample(range(4), rng.randint(1, 3))
        unseen = rng.getrandbits(10)
        need = {s: rng.randint(0, 3) for s in seats}
        lacks = {s: rng.getrandbits(10) for s in seats}
        short = dealing_shortfall(unseen, need, lacks)
        dealing = hidden_dealing(unseen, need, {s: ~lacks[s] for s in seats})
        assert (short is None) == (dealing is not None), (unseen, need, lacks)
        if short is not None:  # the group named is short, and no group before it in binary order is
            room = 0
            for s in short.seats:
                room |= unseen & ~lacks[s]
            assert short.need == sum(need[s] for s in short.seats) > short.room == bin(room).count("1")
            order = sorted(seats)
            groups = [[s for i, s in enumerate(order) if k >> i & 1] for k in range(1, 1 << len(order))]
            for group in itertools.takewhile(lambda g: g != short.seats, groups):
                could = 0
                for s in group:
                    could |= unseen & ~lacks[s]
                assert bin(could).count("1") >= sum(need[s] for s in group)


# --- both asking it --------------------------------------------------------------------------------------------


def a_judge_that_always_says_short(monkeypatch: pytest.MonkeyPatch, module: object) -> None:
    monkeypatch.setattr(module, "dealing_shortfall", lambda unseen, need, lacks: Shortfall([1], 5, 2))


def test_the_entry_asks_the_view_referee(monkeypatch: pytest.MonkeyPatch):
    args = dict(rules=make_rules("trinidad"), dealer=0, seat=0, hand="AH KH 9S 4D 2C JC", turnups=["7H"],
                bids="stand", played="2D 3D 5D")
    entry_line(**args)  # fits
    a_judge_that_always_says_short(monkeypatch, entry_package.cards)
    with pytest.raises(EntryError) as err:
        entry_line(**args)
    assert str(err.value) == ("seat 1 plays 2D: then no dealing of the unseen cards fits the plays: seat 1 must still "
                              "hold 5 cards, and only 2 unseen cards are left that the voids it showed allow")


def test_the_view_referee_asks_it_too(monkeypatch: pytest.MonkeyPatch):
    import analyser.referee.view_play as view_play

    rules = make_rules("trinidad", players=2)
    line = {"format": "allfours-log/1", "rules": rules.as_log_dict(), "dealer": 1, "score_before": [0, 0],
            "events": [{"event": "deal", "hands": [["AS", "KS", "QS", "JS", "TS", "9S"],
                                                   ["2H", "3H", "4H", "5H", "6H", "7H"]]},
                       {"event": "turnup", "card": "2C"}, {"event": "stand", "seat": 0},
                       {"event": "trump", "suit": "C"}, {"event": "play", "seat": 0, "card": "AS"},
                       {"event": "play", "seat": 1, "card": "2H"}]}
    view = view_of(line, 0)
    assert read_view(view, cut=True).plays == [(0, parse_card("AS")), (1, parse_card("2H"))]
    a_judge_that_always_says_short(monkeypatch, view_play)
    with pytest.raises(LogError) as err:
        read_view(view, cut=True)
    assert err.value.event == 5
    assert err.value.reason == ("seat 1 plays 2H, and then no dealing of the hidden cards fits: seat 1 still holds 5 "
                                "cards, but only 2 of the cards seat 0 has not seen could be its after the voids shown")
