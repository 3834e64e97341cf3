"""`void_play`: without the led suit, a classic player holding a trump it may play must trump.

Document 003 (the only source for `classic`): "Un jugador sin cartas del palo salido
ni triunfos puede jugar cualquier carta". Hand-built deals through the kernel, both
referees, the CLI, and exact probabilities for every classic player count.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from analyser.cli import app
from analyser.engine.layout import I_FIRST_KICK, W_HANG_JACK, W_JACK
from analyser.referee import LogError, referee_line
from analyser.game.rules import make_rules

from engine_fixtures import fixed_deck, play_fixed
from test_probabilities import close, lines

try:
    import reference_rules as ref
except ImportError:  # tests/ is a package
    from tests import reference_rules as ref

runner = CliRunner()


def plays_of(line: dict) -> list[tuple[int, str]]:
    return [(e["seat"], e["card"]) for e in line["events"] if e["event"] == "play"]


def both_referees(line: dict) -> None:
    line = json.loads(json.dumps(line))
    referee_line(line)
    ref.referee_line(line)


# Two players, dealer 1: the eldest (seat 0) holds only hearts, so it leads a heart; the
# dealer has no heart and one trump (3S, spades turned up).
TWO = {0: "AH KH QH 9H 8H 7H", 1: "3S 4D 5D 6C 7C 8C"}


def second_card_of_first_trick(rules, seed):
    line, _, _ = play_fixed(rules, 1, [0, 0], fixed_deck(rules, 1, TWO, "9S"), beg=0, seed=seed)
    both_referees(line)
    return line, plays_of(line)[1]


def test_classic_void_player_with_a_trump_must_trump():
    rules = make_rules("classic", players=2)
    assert rules.void_play == "trump"
    for seed in range(30):
        _, (seat, card) = second_card_of_first_trick(rules, seed)
        assert (seat, card) == (1, "3S")


def test_void_play_any_lets_the_void_player_throw_any_card():
    rules = make_rules("classic", players=2, settings=["void_play=any"])
    seconds = {second_card_of_first_trick(rules, seed)[1][1] for seed in range(30)}
    assert "3S" in seconds and seconds - {"3S"}  # random play: sometimes the trump, sometimes a discard


def test_a_log_where_a_void_classic_player_discards_is_rejected(tmp_path):
    loose = make_rules("classic", players=2, settings=["void_play=any"])
    line = next(line for line, (_, card) in (second_card_of_first_trick(loose, s) for s in range(30)) if card != "3S")
    line["rules"]["void_play"] = "trump"
    index = next(i for i, e in enumerate(line["events"]) if e["event"] == "play") + 1
    with pytest.raises(LogError) as err:
        referee_line(json.loads(json.dumps(line)))
    assert err.value.event == index and "seat 1 must trump: holds 3S, no heart" in err.value.reason
    with pytest.raises(ref.RefereeError) as ref_err:
        ref.referee_line(json.loads(json.dumps(line)))
    assert ref_err.value.event_index == index
    # Without the key a classic log still means the preset's rule: trump.
    del line["rules"]["void_play"]
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 1
    assert f"line 1, event {index}: illegal play: seat 1 must trump: holds 3S, no heart" in result.output


# Three players, dealer 2: the eldest (seat 0) leads a heart; seat 1 has no heart and
# only the ace of trump, so it must trump with it; seat 2 has no heart and only the 2 of
# trump, which forbidden undertrumping does not let it play on the ace.
THREE = {0: "AH KH QH 9H 8H 7H", 1: "AS 4D 5D 6D 7D 8D", 2: "2S 9C TC JC QC KC"}


def first_trick(rules, seed):
    line, _, _ = play_fixed(rules, 2, [0, 0, 0], fixed_deck(rules, 2, THREE, "9S"), beg=0, seed=seed)
    both_referees(line)
    return plays_of(line)[:3]


def test_a_forbidden_undertrump_does_not_count_as_a_trump_to_play():
    forbidden = make_rules("classic", players=3, settings=["undertrump=forbidden"])
    allowed = make_rules("classic", players=3)
    thirds = set()
    for seed in range(30):
        trick = first_trick(forbidden, seed)
        assert trick[1] == (1, "AS")
        thirds.add(trick[2][1])
        assert first_trick(allowed, seed)[1:] == [(1, "AS"), (2, "2S")]  # must trump, and may undertrump
    assert "2S" not in thirds and len(thirds) > 1  # plays as under `any`: any club, never the 2


def test_legal_mask_cases_by_hand():
    from analyser.game.cards import mask_of, parse_cards
    from analyser.engine.deal import legal_mask

    def legal(hand, led, top, forbid, void_trump):
        got = int(legal_mask(mask_of(parse_cards(hand)), led, 0, top, forbid, void_trump))
        return sorted(c for c in parse_cards(hand) if got >> c & 1)

    hand = "2S QS 4D 5C"  # trump spades; hearts (1) led
    assert legal(hand, 1, -1, False, False) == sorted(parse_cards(hand))
    assert legal(hand, 1, -1, False, True) == sorted(parse_cards("2S QS"))
    ks = parse_cards("KS")[0]
    assert legal(hand, 1, ks, True, True) == sorted(parse_cards("4D 5C"))  # both trumps forbidden: any non-trump
    js = parse_cards("JS")[0]
    assert legal(hand, 1, js, True, True) == sorted(parse_cards("QS"))  # the queen may overtrump: must
    assert legal("2S 3S", 1, ks, True, True) == sorted(parse_cards("2S 3S"))  # only trumps: undertrump allowed


@pytest.mark.parametrize("players", [2, 3, 4])
def test_classic_exact_probabilities(players):
    """Eldest standing, no runs: the jack of trump is in play with probability 12/13 x 6n/51;
    heels scores the turned jack 1/13 of the time."""
    rules = make_rules("classic", players=players, settings=["target=99"])
    n = 12000
    jack = kick = 0
    for info, pts in lines(rules, "random:beg=0", n, 10 + players):
        jack += int(pts[:, W_JACK].sum() > 0 or pts[:, W_HANG_JACK].sum() > 0)
        kick += int(info[I_FIRST_KICK] == 1)
    assert close(jack, n, 12 / 13 * 6 * players / 51)
    assert close(kick, n, 1 / 13)


@pytest.mark.parametrize("players,settings", [(2, []), (3, []), (4, []), (4, ["--set", "void_play=any"]),
                                              (3, ["--set", "void_play=any", "--set", "undertrump=forbidden"])])
def test_classic_simulate_and_replay_agree(tmp_path, players, settings):
    path = tmp_path / "classic.jsonl"
    result = runner.invoke(app, ["simulate", "--rules", "classic", "--players", str(players), *settings,
                                 "--deals", "400", "--seed", "1", "--log", str(path)])
    assert result.exit_code == 0, result.output
    first = json.loads(path.read_text().splitlines()[0])
    assert first["rules"]["void_play"] == ("any" if "void_play=any" in settings else "trump")
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0 and "400 lines legal" in result.output, result.output
    for text in path.read_text().splitlines()[:100]:
        ref.referee_line(json.loads(text))


def test_partnership_seven_gift_counts_before_the_jack_bonus():
    """rules.md: at 6:6 a beg answered with a gift wins for the eldest's side even when a jack was turned."""
    rules = make_rules("partnership-seven")
    hands = {0: "AH KH QH 9H 8H 7H", 1: "3S 4D 5D 6C 7C 8C", 2: "2H 3H 4H 5H 6H TH", 3: "2C 3C 4C 5C 6D 7D"}
    line, info, _ = play_fixed(rules, 3, [6, 6], fixed_deck(rules, 3, hands, "JS"), beg=1, give=1)
    both_referees(line)
    points = [(e["side"], e["n"], e["why"]) for e in line["events"] if e["event"] == "points"]
    assert points == [(0, 1, "gift")] and line["winner"] == 0 and line["score_after"] == [7, 6]
