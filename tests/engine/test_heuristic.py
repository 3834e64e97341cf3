"""The heuristic player: legal in every preset, deterministic, and its named rules."""

from __future__ import annotations

import numpy as np
import pytest

from analyser.game.cards import parse_card, parse_cards, parse_suit
from analyser.engine import heuristic
from analyser.engine.state import apply, init_state, legal
from analyser.engine.heuristic import heuristic_beg, heuristic_card, heuristic_discard, heuristic_give
from analyser.engine.layout import K_HEURISTIC, N_STATE, PS_PLAYED, PS_TO_PLAY
from analyser.players.policy import PARAMS_BY_KIND, PolicyError, parse_policy, seat_policies
from analyser.referee import referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

DEFAULT = parse_policy("heuristic")[1]


def mask(text: str) -> np.uint64:
    return np.uint64(sum(1 << c for c in parse_cards(text)))


def card_played(hand: str, trick: list[str], trump: str = "S", leader: int = 0, played: str = "",
                players: int = 4, spec: str = "heuristic", void_trump: bool = False) -> str:
    """The heuristic's card for the seat after the trick so far (led by `leader`), through the play state."""
    t = parse_suit(trump)
    cards = parse_cards(" ".join(trick))
    seat = (leader + len(cards)) % players
    hands = np.zeros(4, dtype=np.uint64)
    hands[seat] = mask(hand)
    for k, c in enumerate(cards):
        hands[(leader + k) % players] |= np.uint64(1 << c)
    rules = make_rules("trinidad", players=players, settings=[f"void_play={'trump' if void_trump else 'any'}"])
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, t, t * 13, (leader - 1) % players, np.zeros(4, dtype=np.int64))
    state[PS_PLAYED] = np.int64(mask(played))
    for c in cards:
        assert apply(state, c) == -1
    assert state[PS_TO_PLAY] == seat
    legal_cards = legal(state)
    params = parse_policy(spec)[1]
    card = heuristic_card(params, state, legal_cards, rules.as_array(), np.ones(4, dtype=np.uint64))
    assert legal_cards & np.uint64(1 << card)
    from analyser.game.cards import card_name

    return card_name(card)


# --- card play: each named rule on a hand-built trick (trump spades; we are the next seat) ---


def test_smear_ten_onto_partners_trick_that_holds():
    # Seat 3 plays last; partner (seat 1) is winning with the ace of trump.
    assert card_played("TH 2H 9D", ["5H", "AS", "7H"]) == "TH"


def test_save_jack_on_partners_trick():
    assert card_played("JS 3S 4H", ["5H", "AS", "7H"]) == "JS"


def test_smear_is_a_parameter():
    assert card_played("TH 2H 9D", ["5H", "AS", "7H"], spec="heuristic:smear=0") == "2H"


def test_no_overtrump_partner_on_a_cheap_trick():
    # Partner led 9H, an opponent followed; the trick is worth nothing: keep the trump.
    assert card_played("KS 5H 8D", ["9H", "3H"]) == "5H"


def test_trump_the_ace_when_last():
    # Permissive trumping: we hold a heart but trump the opponents' ace.
    assert card_played("3S 7H KD", ["AH", "4H", "5H"]) == "3S"


def test_capture_the_jack_with_a_trump_that_holds():
    # The opponents' jack of trump is winning; our king holds (the ace is played).
    assert card_played("KS 2S 7H", ["JS", "4S"], played="AS 2D 3D 4D") == "KS"


def test_guard_the_jack_on_a_trump_lead():
    assert card_played("JS 3S 7H", ["QS"]) == "3S"


def test_free_win_with_a_side_card_when_last():
    assert card_played("QH 2H 5C", ["5H", "3H", "9H"]) == "QH"


def test_duck_keeps_tens():
    assert card_played("2H TH KD", ["AH"]) == "2H"


def test_cash_the_jack_once_it_holds():
    assert card_played("JS 4H 7D", [], played="AS KS QS 2H 3H 4C") == "JS"


def test_forced_to_trump_spends_the_cheapest_trump_that_does_the_job():
    # void_play=trump (classic): no heart, so a trump; on a worthless trick the smallest.
    assert card_played("4S 9S KD", ["5H", "2H"], void_trump=True) == "4S"
    assert card_played("4S 9S KD", ["5H", "2H"]) == "KD"  # with any card allowed: a side card
    # The opponents' 6S holds an ace: overtrump with the cheapest trump that beats it.
    assert card_played("4S 9S KD", ["AH", "2H", "6S"], void_trump=True) == "9S"
    # Worthless and already trumped by an opponent: underplay with the smallest trump.
    assert card_played("4S 9S KD", ["5H", "2H", "6S"], void_trump=True) == "4S"


def test_pull_with_a_boss_trump_while_the_jack_is_out():
    assert card_played("AS 4S 5S 7H", []) == "AS"
    assert card_played("AS 4S 5S 7H", [], spec="heuristic:pull=0") == "4S"  # then DRAW_JACK


def test_draw_the_jack_with_a_small_trump():
    assert card_played("3S 5S 7H 8D", []) == "3S"
    assert card_played("3S 5S 7H 8D", [], spec="heuristic:draw_trumps=3") == "7H"


def test_lead_low_from_the_longest_side_suit():
    assert card_played("7H 2H KH 5D TC", []) == "2H"


# --- decisions ---


def decide(fn, hand: str, turnup: str, scores=(0, 0), preset: str = "trinidad", spec: str = "heuristic") -> bool:
    rules = make_rules(preset).as_array()
    params = parse_policy(spec)[1]
    sc = np.zeros(4, dtype=np.int64)
    sc[:2] = scores
    # Dealer seat 0 (side 0), eldest seat 1 (side 1).
    seat = 1 if fn is heuristic_beg else 0
    return bool(fn(params, mask(hand), parse_card(turnup), seat, 0, sc, rules, np.ones(4, dtype=np.uint64)))


def test_beg_weak_stand_strong():
    assert decide(heuristic_beg, "2H 3H 4D 5D 6C 7C", "9S")          # no trump: beg
    assert not decide(heuristic_beg, "AS 2H 3H 4D 5D 6C", "9S")      # the ace counts twice: stand
    assert decide(heuristic_beg, "AS 2H 3H 4D 5D 6C", "9S", spec="heuristic:beg_trumps=3")


def test_give_strong_run_weak_and_never_give_the_match_away():
    assert decide(heuristic_give, "AS 3S 4D 5D 6C 7C", "9S")
    assert not decide(heuristic_give, "2S 3H 4D 5D 6C 7C", "9S")
    assert not decide(heuristic_give, "AS JS 4D 5D 6C 7C", "9S", scores=(0, 13))
    assert decide(heuristic_give, "AS JS 4D 5D 6C 7C", "9S", scores=(0, 13), spec="heuristic:score_aware=0")


def test_probability_overrides_the_rules():
    assert decide(heuristic_beg, "AS JS QS KS 6C 7C", "9S", spec="heuristic:beg=1")
    assert not decide(heuristic_give, "AS JS QS KS 6C 7C", "9S", spec="heuristic:give=0")


def test_discard_keeps_trumps_then_tens():
    hand = mask("2S 9S JS AH TH TD 3C 4C 5D")
    gone = heuristic_discard(DEFAULT, hand, 0, 6)
    assert int(gone) == int(mask("3C 4C 5D"))


# --- policy table ---


def test_every_parameter_is_named_and_documented():
    table = PARAMS_BY_KIND[K_HEURISTIC]
    assert len({i for i, _ in table.values()}) == len(table)
    for name in table:
        assert name in heuristic.__doc__, name
    kind, row = parse_policy("heuristic:beg_trumps=3,win_points=8")
    assert kind == K_HEURISTIC and row[table["beg_trumps"][0]] == 3 and row[table["win_points"][0]] == 8
    with pytest.raises(PolicyError, match="known are"):
        parse_policy("heuristic:nonsense=1")


# --- whole deals: legal in every preset, and reproducible ---

SETUPS = [
    ("trinidad", 4, []), ("trinidad", 2, []), ("trinidad-tobago", 4, ["undertrump=forbidden"]),
    ("partnership-seven", 4, []), ("classic", 4, []), ("classic", 3, []), ("classic", 2, ["target=7"]),
]


@pytest.mark.parametrize(("preset", "players", "settings"), SETUPS)
def test_heuristic_logs_are_legal(preset, players, settings):
    rules = make_rules(preset, players=players, settings=settings)
    specs = [["heuristic"], ["heuristic", "random"] * 2 if players == 4 else ["random"] + ["heuristic"] * (players - 1)]
    for spec in specs:
        kinds, params = seat_policies(spec[:players] if len(spec) > 1 else spec, players)
        count = 0
        for line in iter_log_lines(rules, 250, 11, kinds, params):
            referee_line(line)
            count += 1
        assert count == 250


def test_same_seed_same_deals():
    rules = make_rules("partnership-seven")
    kinds, params = seat_policies(["heuristic"], 4)
    first = list(iter_log_lines(rules, 60, 5, kinds, params))
    assert first == list(iter_log_lines(rules, 60, 5, kinds, params))
    assert first != list(iter_log_lines(rules, 60, 6, kinds, params))
