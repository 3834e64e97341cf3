"""``allfours card``: the rules of thumb on one printable page (report/card.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import (
    ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SeedOpt, SetOpt, ThreadsOpt, announce_engine, build_rules,
    check_output, file_errors, print_json, progress_bar,
)


def card(
    rules: RulesOpt = Preset("trinidad"),
    players: PlayersOpt = None,
    set_: SetOpt = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Write the card to this file: .png, .pdf, .svg or another type matplotlib writes "
                      "(without it the card is printed as text).")] = None,
    force: ForceOpt = False,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """The strategy card for the table, two sides: when to beg and give, and how to play the cards.

    Bidding: the eldest's and the dealer's rule of thumb, what each costs against the equilibrium, how they shift
    near the target and the exact scores where the equilibrium departs from that, the published advice checked,
    and the rules assumed. Playing the cards: the rules of play fitted to the search player, each with its worth,
    the policy that plays them, and the published play tips checked. Reads the shipped results
    (results/PRESET-Np, results/play-rules) for seed 1 when they were made for exactly these rules; computes what
    is missing otherwise (a --set variant: seconds to a minute)."""
    ruleset = build_rules(rules, players, set_)
    check_output(out, "--out", folder=False, force=force, image=True)
    from ..work.executor import LocalExecutor
    from ..report.card import DEPARTURE_AGREEMENT, assumed_rules, card_text, draw_card, load_card, planned_deals

    messages: list[str] = []

    def say(message: str) -> None:
        if not messages:
            announce_engine("equilibrium")
        messages.append(message)
        typer.echo(message, err=True)

    with progress_bar("deals", max(planned_deals(ruleset, seed), 1)) as bar:
        found = load_card(ruleset, seed, executor=LocalExecutor(threads), progress=bar.advance, say=say)
    if out is not None:
        with file_errors(out):
            draw_card(found, out)
        typer.echo(f"card written to {out}", err=True)
    if json_out:
        print_json({"rules": ruleset.as_log_dict(), "assumes": assumed_rules(ruleset),
                    "rules_of_thumb": found.thumbs, "claims": found.claims, "source": found.source,
                    "claims_source": found.claims_source, "departure_threshold": DEPARTURE_AGREEMENT,
                    "departures": found.departures,
                    "play": found.play.to_json() if found.play is not None else None})
    elif out is None:
        typer.echo(card_text(found), nl=False)
