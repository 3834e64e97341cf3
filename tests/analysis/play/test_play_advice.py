"""Document 003's play advice (issue 15): each tip a switch of the heuristic, on hand-made positions;
switching a tip off never plays an illegal card; check-advice lists the tips beside the bidding claims,
and a fixed seed gives the same numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from analyser.analysis.play.play_advice import TIPS, check_play_advice
from analyser.game.cards import card_name, parse_card, parse_cards
from analyser.cli import app
from analyser.engine.bits import unit_keys
from analyser.engine.decisions import strong_side_suit as advice_strong_side_suit
from analyser.engine.heuristic import HEURISTIC_DEFAULTS, heuristic_card, heuristic_give
from analyser.engine.layout import K_HEURISTIC, N_STATE, PS_TO_PLAY
from analyser.engine.state import apply, init_state, is_over, legal
from analyser.engine.tipcheck import TO_FOLLOWED, TO_SITUATIONS, observe_tips
from analyser.engine.tips import N_CARD_TIPS, N_TIPS, TIP_SLOTS, strong_side_suit, tip_masks
from analyser.work.executor import LocalExecutor
from analyser.players.policy import parse_policy, seat_policies
from analyser.referee import referee_line
from analyser.game.rules import make_rules
from analyser.players.simulate import iter_log_lines

runner = CliRunner()
SWITCHES = [t.switch for t in TIPS]
CARD_SWITCHES = SWITCHES[:N_CARD_TIPS]

# A deal of trinidad, 4 players, spades trump (the turn-up K♠), seat 3 deals, seat 0 leads.
HANDS = {0: "AH AD 3S QC 9C 2C", 1: "JS 7H 8D TC KC 6H", 2: "AS 9H 2D 3C 5C 8H", 3: "4S KH 7D 4C 6C TH"}


def position(hands: dict[int, str], played: str = "", turnup: str = "KS", players: int = 4,
             preset: str = "trinidad") -> tuple[np.ndarray, np.ndarray]:
    """(rules array, play state) of a hand-made deal (the dealer the last seat) after the cards `played`,
    in order (each must be legal)."""
    rules = make_rules(preset, players=players).as_array()
    masks = np.zeros(4, dtype=np.uint64)
    for seat, text in hands.items():
        masks[seat] = np.uint64(sum(1 << c for c in parse_cards(text)))
    state = np.zeros(N_STATE, dtype=np.int64)
    up = parse_card(turnup)
    init_state(state, rules, masks, up // 13, up, players - 1, np.zeros(4, dtype=np.int64))
    for card in parse_cards(played):
        assert legal(state) & np.uint64(1 << card), card_name(card)
        apply(state, card)
    return rules, state


def play(state: np.ndarray, rules: np.ndarray, spec: str = "heuristic") -> str:
    """The heuristic's card (with the switches of `spec`) for the seat to play; it must be legal."""
    mask = legal(state)
    card = heuristic_card(parse_policy(spec)[1], state, mask, rules, np.ones(4, dtype=np.uint64))
    assert mask & np.uint64(1 << card), "an illegal card"
    return card_name(card)


def on_off(state: np.ndarray, rules: np.ndarray, switch: str) -> tuple[str, str, str]:
    """(default, on, off) cards of one switch."""
    return play(state, rules), play(state, rules, f"heuristic:{switch}=1"), play(state, rules, f"heuristic:{switch}=0")


def test_switches_are_named_parameters_defaulting_to_the_heuristic_as_it_plays():
    for tip in TIPS:
        slot, default = HEURISTIC_DEFAULTS[tip.switch]
        assert slot == TIP_SLOTS[tip.tip] and default == -1.0
        assert 13 <= slot <= 19
        assert parse_policy(f"heuristic:{tip.switch}=1")[1][slot] == 1.0


def test_capture_jack_leads_the_smallest_trump_or_none():
    # Seat 0 holds one small trump (3♠), the jack is out: the heuristic leads a side card.
    rules, state = position({**HANDS, 0: "3S QH 5D 9C 2C 4H", 2: "AS 9H 2D 3C 5C 8D"})
    default, on, off = on_off(state, rules, "tip_capture_jack")
    assert on == "3S" and default != "3S" and off == default
    # With two small trumps the heuristic draws the jack itself (DRAW_JACK); off, it leads no small trump.
    rules, state = position({**HANDS, 0: "3S 6S QH 5D 9C 2C", 2: "AS 9H 2D 3C 5C 8D"})
    default, on, off = on_off(state, rules, "tip_capture_jack")
    assert default == on == "3S" and off not in ("3S", "6S")


def test_capture_jack_does_not_apply_when_we_hold_the_jack_or_have_no_small_trump():
    rules, state = position({**HANDS, 0: "JS 3S QH 5D 9C 2C", 1: "4D 7H 8D TC KC 6H"})
    default, on, off = on_off(state, rules, "tip_capture_jack")
    assert default == on == off
    rules, state = position({**HANDS, 0: "TS QH 5D 9C 2C 4H", 2: "AS 9H 2D 3C 5C 8D"})
    default, on, off = on_off(state, rules, "tip_capture_jack")
    assert default == on == off


def test_early_trumps_only_in_tricks_one_and_two():
    # Trick 1: both switches lead the 3♠.
    rules, state = position(HANDS)
    assert play(state, rules, "heuristic:tip_early_trumps=1") == "3S"
    assert play(state, rules, "heuristic:tip_capture_jack=1") == "3S"
    assert play(state, rules, "heuristic:tip_early_trumps=0") != "3S"
    # Seat 0 wins tricks 1 and 2 with its side aces and leads trick 3: only tip_capture_jack still applies.
    rules, state = position(HANDS, "AH 7H 9H KH AD 8D 2D 7D")
    assert state[PS_TO_PLAY] == 0
    default, on, off = on_off(state, rules, "tip_early_trumps")
    assert default == on == off != "3S"
    assert play(state, rules, "heuristic:tip_capture_jack=1") == "3S"


def test_trump_the_ace_at_all_costs():
    # Seat 0 leads A♥; seat 1's only trump is the jack, which would not hold: the heuristic ducks.
    rules, state = position(HANDS, "AH")
    default, on, off = on_off(state, rules, "tip_trump_ace")
    assert on == "JS" and default == "6H" and off in ("6H", "7H")
    # The partner's ace is not trumped: no situation for seat 2.
    rules, state = position(HANDS, "AH 7H")
    default, on, off = on_off(state, rules, "tip_trump_ace")
    assert default == on == off


def test_trump_the_ace_off_follows_suit_instead():
    # Seat 3 is last, holds a heart and the 4♠: the heuristic trumps the ace (CAPTURE); off, it follows suit.
    rules, state = position(HANDS, "AH 7H 9H")
    default, on, off = on_off(state, rules, "tip_trump_ace")
    assert default == on == "4S" and off in ("KH", "TH")


def test_keep_game_cards_on_and_off():
    # Leading trick 1 with two side aces: kept (on, and the heuristic), cashed (off).
    rules, state = position(HANDS)
    default, on, off = on_off(state, rules, "tip_keep_game_cards")
    assert on == default and on not in ("AH", "AD") and off in ("AH", "AD")
    # Following a 9♥ lead with A♥ 7♥ 6♥ (no trump): the heuristic ducks; off, the ace takes the trick.
    hands = {0: "9H 3S QC 9C 2C 5D", 1: "AH 7H 8D TC KC 6H", 2: "AS 2H 2D 3C 5C 8H", 3: "4S KH 7D 4C 6C TH"}
    rules, state = position(hands, "9H")
    default, on, off = on_off(state, rules, "tip_keep_game_cards")
    assert default == on == "6H" and off == "AH"


def test_keep_game_cards_keeps_what_the_heuristic_would_cash():
    # Seat 1 is last on a 9♥ lead and the A♥ holds: the heuristic takes the trick with it (FREE_WIN); on, it keeps it.
    hands = {0: "9H 3S QC 9C 2C 5D", 1: "AH 7H 8D TC KC 6H"}
    rules, state = position(hands, "9H", players=2)
    default, on, off = on_off(state, rules, "tip_keep_game_cards")
    assert default == off == "AH" and on in ("7H", "6H")


def test_run_strong_side_switch():
    rules = make_rules("trinidad").as_array()
    scores = np.zeros(4, dtype=np.int64)
    rng = np.ones(4, dtype=np.uint64)
    turnup = parse_card("KS")

    def give(hand: str, spec: str) -> bool:
        h = np.uint64(sum(1 << c for c in parse_cards(hand)))
        return bool(heuristic_give(parse_policy(spec)[1], h, turnup, 3, 3, scores, rules, rng))

    weak, strong = "AH 7H 3H 2S 5D 9C", "AS JS 3S AH 7H 3H"  # both strong in hearts
    assert not give(weak, "heuristic") and give(strong, "heuristic")
    assert not give(weak, "heuristic:tip_run_strong_side=1") and not give(strong, "heuristic:tip_run_strong_side=1")
    assert give(weak, "heuristic:tip_run_strong_side=0") and give(strong, "heuristic:tip_run_strong_side=0")
    plain = "AS JS 3S 7H 3H 5D"  # no strong side suit: the switch does nothing
    assert give(plain, "heuristic:tip_run_strong_side=1") and give(plain, "heuristic:tip_run_strong_side=0")


def test_strong_side_suit_is_the_advice_checks_test():
    rng = np.random.default_rng(5)
    for _ in range(500):
        hand = np.uint64(sum(1 << int(c) for c in rng.choice(52, size=int(rng.integers(1, 13)), replace=False)))
        trump = int(rng.integers(0, 4))
        assert strong_side_suit(hand, trump) == advice_strong_side_suit(hand, trump)


@pytest.mark.parametrize("preset,players,settings", [
    ("trinidad", 4, []), ("trinidad", 2, []), ("classic", 3, []),
    ("trinidad", 4, ["undertrump=forbidden", "void_play=trump"]),
])
def test_switches_never_play_an_illegal_card(preset, players, settings):
    """Random positions: every switch on and off (and all at once), the card is always legal, and the tips'
    masks are non-empty subsets of the legal cards."""
    rules = make_rules(preset, players=players, settings=settings).as_array()
    rng = np.random.default_rng(7)
    rows = [parse_policy(f"heuristic:{s}={v}")[1] for s in CARD_SWITCHES for v in (0, 1)]
    rows += [parse_policy("heuristic:" + ",".join(f"{s}={v}" for s in CARD_SWITCHES))[1] for v in (0, 1)]
    unit = np.ones(4, dtype=np.uint64)
    checked = 0
    for _ in range(60):
        deck = rng.permutation(52)
        hands = np.zeros(4, dtype=np.uint64)
        for seat in range(players):
            hands[seat] = np.uint64(sum(1 << int(c) for c in deck[6 * seat: 6 * seat + 6]))
        up = int(deck[6 * players])
        state = np.zeros(N_STATE, dtype=np.int64)
        init_state(state, rules, hands, up // 13, up, players - 1, np.zeros(4, dtype=np.int64))
        while not is_over(state):
            mask = legal(state)
            for tip in range(N_CARD_TIPS):
                situation, on, off = tip_masks(tip, state, mask)
                assert on and off and (on & ~mask) == 0 and (off & ~mask) == 0
                if not situation:
                    assert on == off == mask
            for row in rows:
                card = heuristic_card(row, state, mask, rules, unit)
                assert mask & np.uint64(1 << card)
                checked += 1
            # play on with a random legal card, so positions differ from the heuristic's own
            cards = [c for c in range(52) if mask & np.uint64(1 << c)]
            apply(state, int(rng.choice(cards)))
    assert checked > 1000


def test_whole_deals_with_every_switch_off_are_legal():
    """The referee replays deals played with every tip forced off (and on): every card legal."""
    for preset, players in (("trinidad", 4), ("classic", 3), ("partnership-seven", 4)):
        rules = make_rules(preset, players=players)
        for v in (0, 1):
            kinds, params = seat_policies(["heuristic:" + ",".join(f"{s}={v}" for s in SWITCHES)], players)
            lines = list(iter_log_lines(rules, 120, 3, kinds, params))
            for line in lines:
                referee_line(line)
            assert len(lines) == 120


def test_observation_of_a_player_forced_to_follow_a_tip():
    """Replaying the log: a player with a tip forced on follows it in every situation."""
    rules = make_rules("trinidad")
    for tip in TIPS:
        kinds, params = seat_policies([f"heuristic:{tip.switch}=1"], 4)
        counts = np.zeros((N_TIPS, 2), dtype=np.int64)
        deck_key, key = unit_keys(4, 0, 2)
        observe_tips(rules.as_array(), 0, 400, np.zeros(4, dtype=np.int64), kinds, params, deck_key, key,
                     np.zeros(N_STATE, dtype=np.int64), counts)
        assert counts[tip.tip, TO_SITUATIONS] > 0
        assert counts[tip.tip, TO_FOLLOWED] == counts[tip.tip, TO_SITUATIONS], tip.switch
    assert kinds[0] == K_HEURISTIC


def test_same_seed_same_numbers_on_any_number_of_threads():
    rules = make_rules("trinidad", players=2)
    quick = "pimc:worlds=6"  # a seeded pimc all the same, at a tenth of the default's time
    one = check_play_advice(rules, deals=600, matches=60, seed=3, executor=LocalExecutor(1), observer=quick)
    two = check_play_advice(rules, deals=600, matches=60, seed=3, executor=LocalExecutor(2), observer=quick)
    assert [c.to_json() for c in one.claims] == [c.to_json() for c in two.claims]
    other = check_play_advice(rules, deals=600, matches=60, seed=4, executor=LocalExecutor(2), observer=quick)
    assert [c.estimate for c in one.claims] != [c.estimate for c in other.claims]


def test_check_advice_json_lists_the_play_tips_beside_the_bidding_claims():
    args = ["check-advice", "--rules", "trinidad", "--deals", "2000", "--no-equilibrium", "--threads", "2", "--json"]
    result = runner.invoke(app, args + ["--play-deals", "500", "--play-matches", "50", "--observer", "pimc:worlds=6"])
    assert result.exit_code == 0, result.output
    claims = json.loads(result.stdout)
    plain = json.loads(runner.invoke(app, args + ["--play-deals", "0"]).stdout)
    assert claims[: len(plain)] == plain  # the bidding claims, unchanged
    play = claims[len(plain):]
    assert [c["switch"] for c in play] == SWITCHES
    for c in play:
        for key in ("claim", "test", "estimate", "ci95", "verdict", "deals"):
            assert key in c, key
        assert c["verdict"] in ("supported", "contradicted", "inconclusive")
        assert c["method"] == "duplicated deals" and c["deals"] == 500
        lo, hi = c["ci95"]
        assert lo <= c["estimate"] <= hi
        separated = lo > 0 or hi < 0
        assert separated == (c["verdict"] != "inconclusive")
        assert (c["deals_needed"] is not None) == (c["verdict"] == "inconclusive" and c["estimate"] != 0)
        assert 0 <= c["changed_share"]["estimate"] <= 1
        assert c["match_win_rate"]["matches"] == 50
        assert c["followed_by_player"]["player"] == "pimc:worlds=6"  # the default, pimc: tests/golden/pins.json
        assert "Consejos y estrategias" in c["source"]
    text = runner.invoke(app, args[:-1] + ["--play-deals", "500", "--play-matches", "50"]).stdout
    assert "Play advice (the Spanish-language guide)" in text and all(f"switch {s}:" in text for s in SWITCHES)


def test_same_deals_for_every_tip():
    """Every tip is measured on the same deals: a switch that changes nothing leaves identical net points."""
    rules = make_rules("trinidad")
    res = check_play_advice(rules, deals=300, matches=0, seed=2, executor=LocalExecutor(1), observer="heuristic")
    for c in res.claims:
        assert "match_win_rate" not in c.details
        on, off = c.details["tip_on_against_policy"], c.details["tip_off_against_policy"]
        assert abs((on["estimate"] - off["estimate"]) - c.estimate) < 1e-9


def test_the_observation_reads_any_card_player_from_its_log():
    """The observation replays the log, so it reads a player without tip switches too (the hook for pimc)."""
    rules = make_rules("trinidad", players=2)
    res = check_play_advice(rules, deals=300, matches=0, seed=5, executor=LocalExecutor(1), observer="random:beg=1",
                            observe_deals=400)
    for c in res.claims:
        f = c.details["followed_by_player"]
        assert f["player"] == "random:beg=1" and "note" not in f
        assert 0 < f["situations"] and 0 <= f["followed"] <= f["situations"]
    assert res.observed_deals == 400
