"""Features of a card decision and action classes (engine/playrules.py), read again slowly from their words.

Random positions mid-deal in several presets: hands dealt from a shuffled pack (after runs, and discarded
down to six where the preset discards), a few turn-ups, then random legal cards up to a random point. Each
position is read twice: by the kernels, and here in plain Python from what the seat to play has seen (its
hand, its discards, the turn-ups and the list of cards played, in order, by seat), with the rule book's words
(who wins a trick, what may be played, who showed no trump) written out again rather than borrowed from the
engine. Every feature and every action class's card must agree.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from analyser.engine.layout import N_STATE, PS_DISCARDS, PS_HAND, PS_START, PS_TO_PLAY
from analyser.engine.playrules import (
    ACTION_WORDS, ACTIONS, FEATURE_WORDS, FEATURES, N_ACTIONS, N_FEATURES, action_card, action_cards,
    position_features,
)
from analyser.engine.state import apply, init_state, legal, set_out_of_play
from analyser.game.cards import card_name, parse_cards
from analyser.game.rules import make_rules

CONFIGS = [("trinidad", 4, []), ("trinidad", 2, []), ("classic", 3, []), ("partnership-seven", 4, []),
           ("classic", 4, ["undertrump=forbidden"])]
POSITIONS = 400
POINTS = {8: 10, 9: 1, 10: 2, 11: 3, 12: 4}  # rank index: Game points (10, J, Q, K, A)
TEN, JACK, QUEEN, KING, ACE = 8, 9, 10, 11, 12


def suit(card: int) -> int:
    return card // 13


def rank(card: int) -> int:
    return card % 13


def points(card: int) -> int:
    return POINTS.get(rank(card), 0)


def side(seat: int, n: int) -> int:
    return seat % 2 if n == 4 else seat


class Position:
    """A random position: the play state, and what happened to reach it, as lists."""

    def __init__(self, rnd: random.Random, rules, steps: int | None = None):
        n = rules.players
        self.n = n
        self.forbid = rules.undertrump == "forbidden"
        self.void_trump = rules.void_play == "trump"
        deck = list(range(52))
        rnd.shuffle(deck)
        runs = rnd.choice([k for k in (0, 1, 2) if n * (6 + 3 * k) + 1 + k <= 52])
        size = 6 + 3 * runs
        dealt = [deck[s * size:(s + 1) * size] for s in range(n)]
        rest = deck[n * size:]
        self.turnups = rest[:runs + 1]  # earlier turn-ups, then the one that fixed trump
        self.trump = suit(self.turnups[-1])
        self.discards: list[list[int]] = [[] for _ in range(4)]
        if rules.discard and size > 6:
            for s in range(n):
                rnd.shuffle(dealt[s])
                self.discards[s] = dealt[s][6:]
                dealt[s] = dealt[s][:6]
        hands = np.zeros(4, dtype=np.uint64)
        for s in range(n):
            hands[s] = np.uint64(sum(1 << c for c in dealt[s]))
        self.state = np.zeros(N_STATE, dtype=np.int64)
        dealer = rnd.randrange(n)
        init_state(self.state, rules.as_array(), hands, self.trump, self.turnups[-1], dealer,
                   np.zeros(4, dtype=np.int64))
        discards = np.zeros(4, dtype=np.uint64)
        for s in range(n):
            discards[s] = np.uint64(sum(1 << c for c in self.discards[s]))
        set_out_of_play(self.state, np.uint64(sum(1 << c for c in self.turnups)), discards)
        self.eldest = (dealer + 1) % n
        total = sum(len(h) for h in dealt)
        self.plays: list[tuple[int, int]] = []  # (seat, card) in the order played
        for _ in range(rnd.randrange(total) if steps is None else steps):
            cards = mask_cards(int(legal(self.state)))
            seat = int(self.state[PS_TO_PLAY])
            card = rnd.choice(cards)
            apply(self.state, card)
            self.plays.append((seat, card))
        self.seat = int(self.state[PS_TO_PLAY])
        self.hand = mask_cards(int(self.state[PS_HAND + self.seat]))


def mask_cards(mask: int) -> list[int]:
    return [c for c in range(52) if mask >> c & 1]


# --- the slow reading, from the rule book's words ------------------------------------------------


def takes(card: int, best: int, led: int, trump: int) -> bool:
    """Does `card` take the trick from `best`? The highest trump wins; with no trump, the highest of the led suit."""
    if suit(card) == trump:
        return suit(best) != trump or rank(card) > rank(best)
    return suit(best) != trump and suit(card) == led and rank(card) > rank(best)


class Seen:
    """What the seat to play has seen, read from the plays: tricks, their winners, the trick so far."""

    def __init__(self, pos: Position):
        n, trump = pos.n, pos.trump
        self.trump = trump
        self.tricks: list[list[tuple[int, int]]] = []
        trick: list[tuple[int, int]] = []
        self.no_trump = set()
        for seat, card in pos.plays:
            if trick:
                led = suit(trick[0][1])
                trump_in_trick = any(suit(c) == trump for _, c in trick)
                if led == trump and suit(card) != trump:
                    self.no_trump.add(seat)
                elif (pos.void_trump and led != trump and suit(card) not in (led, trump)
                      and not (pos.forbid and trump_in_trick)):
                    self.no_trump.add(seat)  # must trump if able, and did not
            trick.append((seat, card))
            if len(trick) == n:
                self.tricks.append(trick)
                trick = []
        self.trick = trick
        self.winners = [self.winner(t) for t in self.tricks]

    def winner(self, trick):
        led = suit(trick[0][1])
        best = trick[0]
        for seat, card in trick[1:]:
            if takes(card, best[1], led, self.trump):
                best = (seat, card)
        return best


def slow_legal(pos: Position, seen: Seen) -> list[int]:
    """The cards the rule book lets the seat play."""
    hand, trump = pos.hand, pos.trump
    if not seen.trick:
        return list(hand)
    led = suit(seen.trick[0][1])
    trumps = [c for c in hand if suit(c) == trump]
    if led == trump:
        return trumps or list(hand)
    top = max((rank(c) for _, c in seen.trick if suit(c) == trump), default=-1)
    forbidden = set()
    if pos.forbid and top >= 0 and len(trumps) < len(hand):
        forbidden = {c for c in trumps if rank(c) < top}
    follow = [c for c in hand if suit(c) == led]
    if follow:
        allowed = follow + trumps
    elif pos.void_trump and [c for c in trumps if c not in forbidden]:
        allowed = trumps
    else:
        allowed = list(hand)
    return sorted(c for c in allowed if c not in forbidden)


def slow_features(pos: Position) -> dict[str, int]:
    seen = Seen(pos)
    n, seat, trump, hand = pos.n, pos.seat, pos.trump, pos.hand
    played = [c for _, c in pos.plays]
    unseen = set(range(52)) - set(hand) - set(played) - set(pos.turnups) - set(pos.discards[seat])
    trick = seen.trick
    following = bool(trick)
    last = len(trick) == n - 1
    best_seat, best = seen.winner(trick) if following else (-1, -1)
    led = suit(trick[0][1]) if following else -1
    allowed = slow_legal(pos, seen)
    my_trumps = sorted(rank(c) for c in hand if suit(c) == trump)

    def holds(card: int) -> bool:
        return last or not any(takes(u, card, led, trump) for u in unseen)

    wins = [c for c in allowed if following and takes(c, best, led, trump)]
    taken = [0, 0, 0, 0]
    for t, (w, _) in zip(seen.tricks, seen.winners):
        taken[side(w, n)] += sum(points(c) for _, c in t)
    me = side(seat, n)
    return {
        "trick": len(seen.tricks) + 1,
        "leading": int(not following),
        "position": len(trick),
        "last": int(last),
        "trump_led": int(following and led == trump),
        "partner_winning": int(following and n == 4 and best_seat == (seat + 2) % 4),
        "opponent_winning": int(following and side(best_seat, n) != me),
        "best_trump": int(following and suit(best) == trump),
        "best_holds": int(following and holds(best)),
        "trick_points": sum(points(c) for _, c in trick),
        "trick_jack": int(any(c == trump * 13 + JACK for _, c in trick)),
        "trick_ten": int(any(c == trump * 13 + TEN for _, c in trick)),
        "trumps": len(my_trumps),
        "hold_ace": int(ACE in my_trumps),
        "hold_king": int(KING in my_trumps),
        "hold_queen": int(QUEEN in my_trumps),
        "hold_jack": int(JACK in my_trumps),
        "hold_ten": int(TEN in my_trumps),
        "low_trump": my_trumps[0] if my_trumps else -1,
        "high_trump": my_trumps[-1] if my_trumps else -1,
        "trumps_out": sum(1 for c in unseen if suit(c) == trump),
        "ace_out": int(trump * 13 + ACE in unseen),
        "king_out": int(trump * 13 + KING in unseen),
        "queen_out": int(trump * 13 + QUEEN in unseen),
        "jack_out": int(trump * 13 + JACK in unseen),
        "ten_out": int(trump * 13 + TEN in unseen),
        "side_tens_out": sum(1 for s in range(4) if s != trump and s * 13 + TEN in unseen),
        "side_tens": sum(1 for c in hand if rank(c) == TEN and suit(c) != trump),
        "can_follow": int(following and any(suit(c) == led for c in hand)),
        "can_win": int(bool(wins)),
        "can_win_sure": int(any(holds(c) for c in wins)),
        "legal": len(allowed),
        "hand": len(hand),
        "opps_no_trump": sum(1 for s in seen.no_trump if side(s, n) != me),
        "our_game": taken[me],
        "their_game": max(taken[s] for s in range(2 if n == 4 else n) if s != me),
    }


def slow_action(pos: Position, name: str) -> int:
    """The card a person following the action class's words picks among the legal cards, or -1."""
    seen = Seen(pos)
    trump, seat, n = pos.trump, pos.seat, pos.n
    allowed = slow_legal(pos, seen)
    following = bool(seen.trick)

    def is_trump(c: int) -> int:
        return int(suit(c) == trump)

    def small_key(c):  # smallest: lowest rank, a side card before the trump, then the suit order
        return (rank(c), is_trump(c), suit(c))

    def pick(cards, key):
        return min(cards, key=key) if cards else -1

    if not following:
        trumps = [c for c in allowed if is_trump(c)]
        sides = [c for c in allowed if not is_trump(c)]
        if name == "lead_low_trump":
            return pick(trumps, rank)
        if name == "lead_high_trump":
            return pick(trumps, lambda c: -rank(c))
        if name == "lead_low_side":
            return pick(sides, small_key)
        if name == "lead_high_side":
            return pick(sides, lambda c: (-rank(c), suit(c)))
        if name == "lead_long_side":
            length = {s: sum(1 for c in pos.hand if suit(c) == s) for s in range(4)}
            return pick(sides, lambda c: (-length[suit(c)], suit(c), rank(c)))
        if name == "keep_tens":
            return pick([c for c in allowed if rank(c) != TEN], small_key)
        return -1
    if name.startswith("lead_"):
        return -1
    best_seat, best = seen.winner(seen.trick)
    led = suit(seen.trick[0][1])
    wins = [c for c in allowed if takes(c, best, led, trump)]
    loses = [c for c in allowed if c not in wins]
    if name == "win_cheap":
        return pick(wins, lambda c: (points(c), is_trump(c), rank(c), suit(c)))
    if name == "win_high":  # the winner none of the other winners would beat
        top = [c for c in wins if not any(takes(d, c, led, trump) for d in wins if d != c)]
        assert len(top) <= 1
        return top[0] if top else -1
    if name == "trump_in":
        return pick([c for c in wins if is_trump(c)], rank) if led != trump else -1
    if name == "win_ten":
        return pick([c for c in wins if rank(c) == TEN], is_trump)
    if name == "duck":
        return pick(loses, small_key)
    if name == "keep_tens":
        return pick([c for c in allowed if rank(c) != TEN], small_key)
    if name == "give_partner":
        if n != 4 or best_seat != (seat + 2) % 4:
            return -1
        return pick([c for c in allowed if points(c) > 0], lambda c: (-points(c), is_trump(c), suit(c)))
    raise AssertionError(name)


# --- the tests ----------------------------------------------------------------------------------


def test_names_and_words():
    assert len(FEATURES) == N_FEATURES == len(FEATURE_WORDS) == len(set(FEATURES))
    assert len(ACTIONS) == N_ACTIONS == len(ACTION_WORDS) == len(set(ACTIONS))
    assert 8 <= N_ACTIONS <= 12


@pytest.mark.parametrize(("preset", "players", "settings"), CONFIGS)
def test_features_and_actions_read_from_their_words(preset, players, settings):
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(f"{preset}-{players}-{settings}")
    out = np.zeros(N_FEATURES, dtype=np.int64)
    cards = np.zeros(N_ACTIONS, dtype=np.int64)
    applied = dict.fromkeys(ACTIONS, 0)
    seen_values: dict[str, set[int]] = {f: set() for f in FEATURES}
    for _ in range(POSITIONS):
        pos = Position(rnd, rules)
        before = pos.state.copy()
        position_features(pos.state, out)
        assert (pos.state == before).all()
        slow = slow_features(pos)
        got = dict(zip(FEATURES, out.tolist()))
        assert got == slow, (pos.plays, {k: (got[k], slow[k]) for k in FEATURES if got[k] != slow[k]})
        allowed = slow_legal(pos, Seen(pos))
        mask = legal(pos.state)
        assert mask_cards(int(mask)) == allowed  # the rule book's words and the engine agree on the legal cards
        action_cards(pos.state, mask, cards)
        for a, name in enumerate(ACTIONS):
            card = action_card(pos.state, mask, a)
            assert card == cards[a]
            assert card == -1 or card in allowed
            assert card == slow_action(pos, name), (name, pos.plays, pos.hand, card, slow_action(pos, name))
            applied[name] += card >= 0
        for f in FEATURES:
            seen_values[f].add(got[f])
    # Every class spoke somewhere (give partner only where there are partners), every feature varied.
    assert all(applied[a] > 0 for a in ACTIONS if a != "give_partner" or players == 4), applied
    if players != 4:
        assert applied["give_partner"] == 0
    constant = {f for f in FEATURES if len(seen_values[f]) < 2}
    assert constant <= ({"partner_winning"} if players != 4 else set()), constant


@pytest.mark.parametrize(("preset", "players", "settings"), CONFIGS)
def test_features_read_only_what_the_seat_sees(preset, players, settings):
    """The cards the seat has not seen dealt again to the other seats (and their discards forgotten): nothing
    the seat reads changes."""
    rules = make_rules(preset, players=players, settings=settings)
    rnd = random.Random(f"unseen-{preset}-{players}")
    out = np.zeros(N_FEATURES, dtype=np.int64)
    again = np.zeros(N_FEATURES, dtype=np.int64)
    moved = 0
    for _ in range(POSITIONS // 2):
        pos = Position(rnd, rules)
        state = pos.state
        position_features(state, out)
        cards = [action_card(state, legal(state), a) for a in range(N_ACTIONS)]
        others = [s for s in range(players) if s != pos.seat]
        # Every card out for the seat (the others' hands, the stock, the others' discards), dealt again.
        pool = [c for c in range(52) if c not in pos.hand and c not in pos.turnups and c not in pos.discards[pos.seat]
                and c not in [p for _, p in pos.plays]]
        rnd.shuffle(pool)
        redealt = state.copy()
        at = 0
        for s in others:
            k = bin(int(state[PS_HAND + s])).count("1")
            new = sum(1 << c for c in pool[at:at + k])
            at += k
            played = int(state[PS_START + s]) & ~int(state[PS_HAND + s])
            redealt[PS_HAND + s] = new
            redealt[PS_START + s] = played | new
            redealt[PS_DISCARDS + s] = 0
        moved += int((redealt != state).any())
        position_features(redealt, again)
        assert (again == out).all(), [(f, a, b) for f, a, b in zip(FEATURES, out, again) if a != b]
        assert [action_card(redealt, legal(redealt), a) for a in range(N_ACTIONS)] == cards
    assert moved > POSITIONS // 4  # the test did move cards


def hand_state(hand: str, trick: list[str], trump: int = 0, players: int = 4, played: str = ""):
    """A hand-built position: seat `len(trick)` to play after seat 0 led the trick so far (dealer the last seat)."""
    rules = make_rules("trinidad", players=players)
    cards = parse_cards(" ".join(trick))
    seat = len(cards)
    hands = np.zeros(4, dtype=np.uint64)
    hands[seat] = np.uint64(sum(1 << c for c in parse_cards(hand)))
    for k, c in enumerate(cards):
        hands[k] |= np.uint64(1 << c)
    filler = [c for c in range(52) if not any(int(h) >> c & 1 for h in hands)]
    turnup = next(c for c in filler if c // 13 == trump)
    filler.remove(turnup)
    size = len(parse_cards(hand))
    for s in range(players):  # the other seats get cards enough that every hand started the same size
        while bin(int(hands[s])).count("1") < size:
            hands[s] |= np.uint64(1 << filler.pop())
    state = np.zeros(N_STATE, dtype=np.int64)
    init_state(state, rules.as_array(), hands, trump, turnup, players - 1, np.zeros(4, dtype=np.int64))
    for c in cards:
        apply(state, c)
    assert state[PS_TO_PLAY] == seat
    return state


def pick(state, name: str) -> str | None:
    card = action_card(state, legal(state), ACTIONS.index(name))
    return None if card < 0 else card_name(card)


def test_action_classes_on_hand_built_tricks():
    # Trump spades. Seat 2 to play, partner (seat 0) led the ace of hearts, seat 1 followed low.
    state = hand_state("TH KH 3H 2S JS", ["AH", "4H"])
    assert pick(state, "give_partner") == "TH"
    assert pick(state, "duck") == "3H"  # nothing of the led suit beats the ace; a trump would
    assert pick(state, "keep_tens") == "2S"  # the two of spades: rank 2, below the 3 of hearts
    assert pick(state, "trump_in") == "2S"
    assert pick(state, "win_cheap") == "2S"
    assert pick(state, "win_high") == "JS"
    assert pick(state, "win_ten") is None
    assert pick(state, "lead_low_trump") is None
    # Seat 1 (an opponent of the leader) to play: nobody is its partner winning.
    state = hand_state("TH KH 3H 2S JS", ["9H"])
    assert pick(state, "give_partner") is None
    assert pick(state, "win_ten") == "TH"
    assert pick(state, "win_cheap") == "2S"  # no Game points: cheaper than the king (3) or the ten of hearts
    assert pick(state, "duck") == "3H"
    # Leading: trumps 2 and J of spades, hearts longest.
    state = hand_state("TH KH 3H 2S JS 4D", [])
    assert pick(state, "lead_low_trump") == "2S"
    assert pick(state, "lead_high_trump") == "JS"
    assert pick(state, "lead_low_side") == "3H"
    assert pick(state, "lead_long_side") == "3H"
    assert pick(state, "lead_high_side") == "KH"
    assert pick(state, "duck") is None
