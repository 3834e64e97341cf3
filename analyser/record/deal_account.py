"""A refereed line as a person reads it (``allfours replay --show``): the hands, turn-ups and bids,
each trick with who played what and who won it, the card points for Game, every point with its
reason in words, and the score. `account` builds it as plain data (what ``--json`` prints) from a line
and its referee's `Verdict` (the points, where each one stands, a view's seat and what it could not
check); `account_text` writes it out. Full logs and seats' views alike (a hidden hand shows as such).
"""

from __future__ import annotations

from typing import Any

from ..game.cards import RANKS, SUIT_SYMBOLS, SUIT_WORDS, SUITS, card_name, card_symbol, parse_card, parse_suit, rank_of
from ..game.cards import suit_of
from ..engine.deal import kick_points
from ..referee import HIDDEN, Verdict
from ..game.rules import KICKS, RuleSet, rules_from_log
from .seats import play_order_text, seating_text, side_scores
from .vocabulary import BID_EVENTS

GAME_VALUE = {"T": 10, "A": 4, "K": 3, "Q": 2, "J": 1}
RANK_WORDS = {"A": "an ace", "K": "a king", "Q": "a queen", "J": "a jack", "T": "a ten", "9": "a nine",
              "8": "an eight", "7": "a seven", "6": "a six", "5": "a five", "4": "a four", "3": "a three", "2": "a two"}
WHY_WORDS = {"kick": "kick", "gift": "gift", "jack-bonus": "jack bonus", "high": "High", "low": "Low", "jack": "Jack",
             "hang-jack": "hang jack", "game": "Game"}
BID_WORDS = {"stand": "stands", "beg": "begs", "give": "gives one", "run": "runs the cards"}


def side_word(rules: RuleSet, side: int) -> str:
    """``side 1`` with partners, ``seat 1`` when every seat is its own side."""
    return f"side {side}" if rules.players == 4 else f"seat {side}"


def card_points(cards: list[int]) -> int:
    """Card points for Game: ten 10, ace 4, king 3, queen 2, jack 1."""
    return sum(GAME_VALUE.get(RANKS[rank_of(c)], 0) for c in cards)


def _names(tokens: list[Any]) -> list[str] | None:
    """A hand's cards by suit (S H D C) and from high to low; None for a hidden hand."""
    if any(t == HIDDEN for t in tokens):
        return None
    return [card_name(c) for c in sorted((parse_card(t) for t in tokens), key=lambda c: (suit_of(c), -rank_of(c)))]


def account(obj: dict[str, Any], verdict: Verdict, line: int | None = None) -> dict[str, Any]:
    """The line `obj`, refereed with `verdict`, as plain data: ``entries`` in the order they happened
    (``deal``, ``turnup``, ``bid``, ``more``, ``redeal``, ``bunch``, ``trump``, ``discard``, ``trick``,
    ``card-points``, ``points``, ``note``), with the line's rules, seats, sides and scores."""
    rules = rules_from_log(obj["rules"])
    n, dealer = rules.players, obj["dealer"]
    eldest = (dealer + 1) % n
    events = obj["events"]
    score = list(obj["score_before"])
    entries: list[dict[str, Any]] = []
    scored = list(zip(verdict.where, verdict.points))
    turnup, trump = -1, -1
    plays: list[tuple[int, int]] = []
    played: dict[int, tuple[int, int]] = {}  # card -> (seat, trick number)
    trick_no, leader = 0, eldest
    captured: list[list[int]] = [[] for _ in range(rules.sides)]
    jack_taken: tuple[int, int] | None = None  # (seat, trick) that took the jack of trump

    def reason(why: str) -> str:
        if why == "kick":
            rank = RANKS[rank_of(turnup)]
            return f"the dealer's side, for turning up {card_symbol(turnup)}, {RANK_WORDS[rank]}: kick={rules.kick}"
        if why == "gift":
            return f"the eldest's side: seat {dealer}, the dealer, gives"
        if why == "jack-bonus":
            return f"the dealer's side: trump was fixed by turning up {card_symbol(turnup)}, a jack (kick=final-jack)"
        trumps = sorted(c for c in played if suit_of(c) == trump)
        if why in ("high", "low") and trumps:
            card = trumps[-1] if why == "high" else trumps[0]
            word = "highest" if why == "high" else "lowest"
            return f"{card_symbol(card)} is the {word} trump in play, dealt to seat {played[card][0]}"
        if why in ("jack", "hang-jack") and jack_taken is not None:
            jack = trump * 13 + 9
            text = (f"{card_symbol(jack)}, dealt to seat {played[jack][0]}, taken by seat {jack_taken[0]} "
                    f"in trick {jack_taken[1]}")
            return text + (": the opponents' jack, hung for 3" if why == "hang-jack" else "")
        if why == "game":
            totals = ", ".join(f"{side_word(rules, s)} {card_points(c)}" for s, c in enumerate(captured))
            return "the most card points: " + totals
        return why

    def emit(at: int) -> None:
        while scored and scored[0][0] == at:
            _, (side, points, why) = scored.pop(0)
            score[side] += points
            entries.append({"kind": "points", "side": side, "n": points, "why": why, "reason": reason(why),
                            "score": list(score)})

    for index, event in enumerate(events):
        emit(index)
        kind = event.get("event")
        if kind in ("deal", "more"):
            entries.append({"kind": kind, "hands": [_names(h) for h in event["hands"]],
                            "sizes": [len(h) for h in event["hands"]]})
        elif kind == "turnup":
            turnup = parse_card(event["card"])
            entries.append({"kind": "turnup", "card": card_name(turnup),
                            "kick": kick_points(KICKS.index(rules.kick), turnup)})
        elif kind in BID_WORDS:
            entries.append({"kind": "bid", "bid": kind, "seat": event["seat"],
                            "role": BID_EVENTS[kind]})
        elif kind == "redeal":
            entries.append({"kind": "redeal", "reason": event["reason"]})
        elif kind == "bunch":
            entries.append({"kind": "bunch", "agreed": event["agreed"]})
        elif kind == "trump":
            trump = parse_suit(event["suit"])
            entries.append({"kind": "trump", "suit": SUITS[trump]})
        elif kind == "discard":
            cards = event["cards"]
            entries.append({"kind": "discard", "seat": event["seat"], "cards": _names(cards), "count": len(cards)})
        elif kind == "play":
            plays.append((event["seat"], parse_card(event["card"])))
        elif kind == "trick":
            trick_no += 1
            winner = event["winner"]
            cards = [c for _, c in plays]
            for seat, card in plays:
                played[card] = (seat, trick_no)
            if trump * 13 + 9 in cards:
                jack_taken = (winner, trick_no)
            captured[rules.side_of(winner)].extend(cards)
            entries.append({"kind": "trick", "number": trick_no, "leader": leader,
                            "plays": [{"seat": s, "card": card_name(c)} for s, c in plays],
                            "winner": winner, "side": rules.side_of(winner), "card_points": card_points(cards)})
            leader, plays = winner, []
            if not any(isinstance(e, dict) and e.get("event") == "play" for e in events[index + 1:]):
                totals = [card_points(c) for c in captured]
                entries.append({"kind": "card-points", "totals": totals})
                if totals.count(max(totals)) > 1 and not any(why == "game" for _, (_, _, why) in scored):
                    entries.append({"kind": "note", "text": f"Game: tied at {max(totals)} card points "
                                                            f"(game_tie={rules.game_tie}): nobody scores it"})
    emit(len(events))
    if plays:  # a deal in progress stops in the middle of a trick
        entries.append({"kind": "open-trick", "number": trick_no + 1, "leader": leader,
                        "plays": [{"seat": s, "card": card_name(c)} for s, c in plays]})
    out = {
        "line": line, "rules": rules.as_log_dict(), "players": n, "sides": rules.sides, "dealer": dealer,
        "eldest": eldest, "seat": verdict.seat, "score_before": list(obj["score_before"]),
        "score_after": list(verdict.score_after), "winner": verdict.winner, "entries": entries,
        "unchecked": list(verdict.unchecked),
    }
    if obj.get("unfinished") is True:  # a deal in progress (play and record keep one): where it stops
        resume: dict[str, Any] = obj["resume"] if isinstance(obj.get("resume"), dict) else {}
        out["unfinished"] = True
        out["due"] = due_words(resume.get("due"))
    return out


def due_words(due: Any) -> str:
    """What is due where a deal in progress stops (its ``resume.due``), in words."""
    if not isinstance(due, dict):
        return "the next step"
    kind, seat, role = due.get("kind"), due.get("seat"), due.get("role")
    words = {"hand": f"seat {seat}'s hand", "turnup": "a turn-up", "bid": f"the {role}'s bid (seat {seat})",
             "more": f"seat {seat}'s cards from the run", "bunch": "the bunching vote",
             "discard": f"seat {seat}'s discard", "card": f"seat {seat}'s card"}
    return words.get(str(kind), "the next step")


def hand_text(names: list[str] | None, size: int) -> str:
    """``♠ A 3   ♣ A`` (ranks high to low within each suit), or ``6 hidden cards``."""
    if names is None:
        return f"{size} hidden card{'s' if size != 1 else ''}"
    groups = []
    for s, symbol in enumerate(SUIT_SYMBOLS):
        ranks = [("10" if name[0] == "T" else name[0]) for name in names if name[1] == SUITS[s]]
        if ranks:
            groups.append(symbol + " " + " ".join(ranks))
    return "   ".join(groups) if groups else "no cards"


def _symbol(name: str) -> str:
    return card_symbol(parse_card(name))


def _score(rules: RuleSet, score: list[int], seat: int | None, short: bool = False) -> str:
    """A score named by side (a view's from its seat: ``your side 6, theirs 11``), never a bare ``6:11``."""
    return side_scores(rules, score, seat, short)


def account_text(acc: dict[str, Any]) -> str:
    """The account as text for a person."""
    rules = rules_from_log(acc["rules"])
    n, seat = acc["players"], acc["seat"]
    head = f"line {acc['line']}: " if acc["line"] is not None else ""
    out = [f"{head}{rules.preset}, {n} players, to {rules.target}; seat {acc['dealer']} deals, "
           f"seat {acc['eldest']} is the eldest"]
    if n == 4:
        out.append("sides: side 0 = seats 0 and 2, side 1 = seats 1 and 3")
    if seat is not None:
        out.append(f"seat {seat}'s view: the other seats' cards are hidden until played; "
                   f"{seating_text(n, seat)}")
    else:
        out.append(play_order_text(n))
    out.append(f"score before: {_score(rules, acc['score_before'], seat)}")

    def hands(entry: dict[str, Any]) -> None:
        for s in range(n):
            out.append(f"  seat {s}   {hand_text(entry['hands'][s], entry['sizes'][s])}")

    for entry in acc["entries"]:
        kind = entry["kind"]
        if kind == "deal":
            out += ["", "dealt:"]
            hands(entry)
        elif kind == "turnup":
            out.append(f"turn-up {_symbol(entry['card'])}")
        elif kind == "bid":
            out.append(f"seat {entry['seat']} ({entry['role']}) {BID_WORDS[entry['bid']]}")
        elif kind == "more":
            out.append("the run deals more cards:")
            hands(entry)
        elif kind == "redeal":
            why = "the pack cannot supply another run" if entry["reason"] == "exhausted" else "the players bunch"
            out.append(f"redeal: {why}; the same dealer deals again")
        elif kind == "bunch":
            out.append("bunching: " + ("agreed" if entry["agreed"] else "not agreed"))
        elif kind == "trump":
            s = SUITS.index(entry["suit"])
            out += [f"trump {SUIT_SYMBOLS[s]} ({SUIT_WORDS[s]}s)", ""]
        elif kind == "discard":
            what = (" ".join(_symbol(c) for c in entry["cards"]) if entry["cards"] is not None
                    else f"{entry['count']} hidden card{'s' if entry['count'] != 1 else ''}")
            out.append(f"seat {entry['seat']} discards {what}")
        elif kind == "trick":
            cards = ", ".join(f"seat {p['seat']} {_symbol(p['card'])}" for p in entry["plays"])
            who = f"seat {entry['winner']}" + (f" (side {entry['side']})" if n == 4 else "")
            best = next(_symbol(p["card"]) for p in entry["plays"] if p["seat"] == entry["winner"])
            out.append(f"trick {entry['number']}: {cards}; {who} wins with {best}, {entry['card_points']} card points")
        elif kind == "open-trick":
            cards = ", ".join(f"seat {p['seat']} {_symbol(p['card'])}" for p in entry["plays"])
            out.append(f"trick {entry['number']} so far: {cards}")
        elif kind == "card-points":
            totals = ", ".join(f"{side_word(rules, s)} {t}" for s, t in enumerate(entry["totals"]))
            out += [f"card points for Game: {totals}", "", "points for the deal:"]
        elif kind == "points":
            out.append(f"  {WHY_WORDS[entry['why']]}: {side_word(rules, entry['side'])} scores {entry['n']} "
                       f"({entry['reason']}); score: {_score(rules, entry['score'], seat, short=True)}")
        elif kind == "note":
            out.append(f"  {entry['text']}")
    if acc.get("unfinished"):
        out.append(f"the deal stops here, unfinished: {acc['due']} is next; score so far: "
                   f"{_score(rules, acc['score_after'], seat)}")
    else:
        out.append(f"score after: {_score(rules, acc['score_after'], seat)}"
                   + (f"; {side_word(rules, acc['winner'])} reaches {rules.target} and wins the match"
                      if acc["winner"] is not None else ""))
    if seat is not None:
        if acc["unchecked"]:
            out.append(f"not checked (seat {seat} could not see it):")
            out.extend(f"  - {text}" for text in acc["unchecked"])
        else:
            out.append("not checked: nothing (every card of the other hands was played)")
    return "\n".join(out)
