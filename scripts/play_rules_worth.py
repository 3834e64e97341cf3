"""What fitted rules of play are worth, on duplicated deals: the rules player against the heuristic, and each rule's
worth (the list against the list with that rule dropped).

    .venv/bin/python scripts/play_rules_worth.py [--rules results/play-rules/trinidad-4p/rules.json]
                                                 [--matches 4000] [--seed 1] [--threads N]

The player is ``rules:FILE`` (engine/rulesplayer.py: the list read top down, the heuristic's card where no rule
speaks); every pairing is an ``allfours tournament`` (each deal played twice, seats swapped) of ``--matches``
matches, trinidad 4 players unless the rules file's positions say otherwise. With three players (no sides for a
tournament) a pairing is one player switched instead, the others playing the heuristic, on 5 x ``--matches``
duplicated deals at 0:0, each player in turn (as the play tips are measured). A's net points a deal minus B's, with
its 95% CI. ``--top N`` plays the list's top N rules (default: the rules file's ``carry``, the list a player would
carry). Writes ``worth-top-N.json`` beside the rules file (each pairing, and the command). ``--versus SPEC`` (e.g.
``pimc``) plays instead the list and the heuristic each against SPEC on the same seed's deals, and their
difference (the list's edge over the heuristic against that player; its CI from both tournaments' standard errors,
not paired): ``worth-top-N-versus-NAME.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from fit_play_rules import shown  # noqa: E402  (the scripts folder is on the path, as it runs)

DEFAULT_RULES = ROOT / "results" / "play-rules" / "trinidad-4p" / "rules.json"


def pairing(rules: Any, a: str, b: str, matches: int, seed: int, threads: int | None) -> dict[str, Any]:
    from analyser.analysis.play.tournament import run_tournament

    if rules.sides == 3:  # a tournament needs two sides: one player switched on duplicated deals instead
        return one_player_pairing(rules, a, b, THREE_PLAYER_DEALS_PER_MATCH * matches, seed)
    result = run_tournament(rules, a, b, matches, seed, threads).as_dict()
    return {k: result[k] for k in ("a", "b", "matches", "deals", "a_win_rate", "a_win_rate_ci95",
                                   "diff_points_per_deal")}


THREE_PLAYER_DEALS_PER_MATCH = 5  # three players: --matches 4000 plays 20,000 duplicated deals a pairing
ONE_PLAYER_CHUNK = 1000


def one_player_pairing(rules: Any, a: str, b: str, deals: int, seed: int) -> dict[str, Any]:
    """`a` against `b` for one player, the others playing the heuristic, on duplicated deals at 0:0: each deal
    played with that player's cards played by `a` and again by `b` (the same cards and chance), each player in
    turn (engine/tipcheck.tip_deals, as the play tips are measured). A's net points a deal minus B's, averaged
    over the players, with its 95% CI over deals."""
    import numpy as np

    from analyser.analysis.play.play_advice import deals_chunk
    from analyser.analysis.stats import Z95
    from analyser.engine.tipcheck import TD_NET_OFF, TD_NET_ON
    from analyser.players.policy import parse_policy, seat_policies

    kinds, params = seat_policies(["heuristic"], rules.players)
    rows = {}
    for spec in (a, b):
        kind, row = parse_policy(spec)
        if kind != kinds[0]:
            raise ValueError(f"{spec}: one player switched needs a row of the heuristic's kind")
        rows[spec] = row
    n = rules.players
    on = np.zeros((1, n, 4, params.shape[1]), dtype=np.float64)
    on[0, :, :n] = params
    off = on.copy()
    for seat in range(n):
        on[0, seat, seat], off[0, seat, seat] = rows[a], rows[b]
    rules_array = rules.as_array()
    scores = np.zeros(4, dtype=np.int64)
    parts = []
    for index, lo in enumerate(range(0, deals, ONE_PLAYER_CHUNK)):
        result = deals_chunk(rules_array, scores, kinds, on, off, seed, index, min(ONE_PLAYER_CHUNK, deals - lo))
        assert result is not None
        parts.append(result[1])
    out = np.concatenate(parts)
    d = (out[:, 0, :, TD_NET_ON] - out[:, 0, :, TD_NET_OFF]).astype(np.float64).mean(axis=1)
    mean, se = float(d.mean()), float(d.std(ddof=1) / np.sqrt(len(d)))
    return {"a": a, "b": b, "matches": None, "deals": int(len(d)), "a_win_rate": None, "a_win_rate_ci95": None,
            "diff_points_per_deal": {"value": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]},
            "method": "one player switched, the others the heuristic, on duplicated deals at 0:0"}


def main(argv: list[str] | None = None) -> int:
    from analyser.game.rules import make_rules

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rules", type=Path, default=DEFAULT_RULES, help="a rules.json of scripts/fit_play_rules.py")
    ap.add_argument("--matches", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--versus", default=None,
                    help="instead: the list and the heuristic each against this player (e.g. pimc), on the same "
                         "seed's deals; writes worth-top-N-versus-NAME.json")
    ap.add_argument("--top", type=int, default=None,
                    help="play only the list's top N rules (default: the rules file's 'carry', else all)")
    args = ap.parse_args(argv)
    fitted = json.loads(args.rules.read_text(encoding="utf-8"))
    top = args.top if args.top is not None else fitted.get("carry", len(fitted["rules"]))
    fitted["rules"] = fitted["rules"][:top]
    positions = json.loads((args.rules.parent / "positions.json").read_text(encoding="utf-8")) \
        if (args.rules.parent / "positions.json").exists() else {"rules": "trinidad", "players": 4}
    rules = make_rules(positions["rules"], players=positions["players"])
    with tempfile.TemporaryDirectory() as tmp:
        played = Path(tmp) / f"top-{top}.json"
        played.write_text(json.dumps({"rules": fitted["rules"]}))
        spec = f"rules:{played}"
        if args.versus:
            return versus(args, rules, spec, top)
        rows = [pairing(rules, spec, "heuristic", args.matches, args.seed, args.threads)]
        rows[-1]["a"] = f"the top {top} rules"
        print(json.dumps(rows[-1]), flush=True)
        for k in range(len(fitted["rules"])):
            dropped = Path(tmp) / f"without-{k + 1}.json"
            dropped.write_text(json.dumps({"rules": fitted["rules"][:k] + fitted["rules"][k + 1:]}))
            row = pairing(rules, spec, f"rules:{dropped}", args.matches, args.seed, args.threads)
            row["a"], row["b"] = f"the top {top} rules", f"without rule {k + 1}"
            row["rule"] = fitted["rules"][k].get("words", "")
            rows.append(row)
            print(json.dumps(row), flush=True)
    out = {"rules": shown(args.rules), "top": top, "matches": args.matches, "seed": args.seed, "pairings": rows,
           "command": f"python scripts/play_rules_worth.py --rules {shown(args.rules)} --matches {args.matches} "
                      f"--seed {args.seed} --top {top}"}
    (args.rules.parent / f"worth-top-{top}.json").write_text(json.dumps(out, indent=1) + "\n")
    return 0


def versus(args: Any, rules: Any, spec: str, top: int) -> int:
    """The list and the heuristic, each against `args.versus` on the same seed's deals, and the list's edge over the
    heuristic there (the two tournaments' difference, its CI from both standard errors: not paired)."""
    rows = []
    for a, name in ((spec, f"the top {top} rules"), ("heuristic", "heuristic")):
        row = pairing(rules, a, args.versus, args.matches, args.seed, args.threads)
        row["a"] = name
        rows.append(row)
        print(json.dumps(row), flush=True)
    d = [r["diff_points_per_deal"] for r in rows]
    edge = d[0]["value"] - d[1]["value"]
    se = (d[0]["se"] ** 2 + d[1]["se"] ** 2) ** 0.5
    label = args.versus.split(":")[0]
    out = {"rules": shown(args.rules), "top": top, "versus": args.versus, "matches": args.matches, "seed": args.seed,
           "pairings": rows, "edge_over_heuristic": {"value": edge, "se": se, "ci95": [edge - 1.96 * se,
                                                                                      edge + 1.96 * se]},
           "command": f"python scripts/play_rules_worth.py --rules {shown(args.rules)} --matches {args.matches} "
                      f"--seed {args.seed} --top {top} --versus {args.versus}"}
    (args.rules.parent / f"worth-top-{top}-versus-{label}.json").write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
