"""``allfours card``: the rules of thumb on one printable page (report/card.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import (
    ForceOpt, JsonOpt, PlayersOpt, Preset, RulesOpt, SeedOpt, ThreadsOpt, announce_engine, build_rules,
    check_output, file_errors, print_json, progress_bar,
)


def card(
    rules: RulesOpt = Preset("trinidad"),
    players: PlayersOpt = None,
    out: Annotated[Optional[Path], typer.Option(
        "--out", help="Write the card to this file: .png, .pdf, .svg or another type matplotlib writes "
                      "(without it the card is printed as text).")] = None,
    force: ForceOpt = False,
    seed: SeedOpt = 1,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One page for the table: the eldest's and the dealer's rule of thumb, what each costs against the
    equilibrium, how they shift near the target, and the published advice checked. Reads the shipped
    results (results/PRESET-Np) for seed 1; computes what is missing otherwise."""
    ruleset = build_rules(rules, players, None)
    check_output(out, "--out", folder=False, force=force, image=True)
    from ..executor import LocalExecutor
    from ..analysis.bidding.rules_of_thumb import MEASURE_DEALS
    from ..report.card import card_text, draw_card, load_card

    messages: list[str] = []

    def say(message: str) -> None:
        if not messages:
            announce_engine("equilibrium")
        messages.append(message)
        typer.echo(message, err=True)

    with progress_bar("deals", 2 * MEASURE_DEALS) as bar:  # at most: a fit measures on two tensors
        found = load_card(ruleset, seed, executor=LocalExecutor(threads), progress=bar.advance, say=say)
    if out is not None:
        with file_errors(out):
            draw_card(found, out)
        typer.echo(f"card written to {out}", err=True)
    if json_out:
        print_json({"rules": ruleset.as_log_dict(), "rules_of_thumb": found.thumbs, "claims": found.claims,
                    "source": found.source, "claims_source": found.claims_source})
    elif out is None:
        typer.echo(card_text(found), nl=False)
