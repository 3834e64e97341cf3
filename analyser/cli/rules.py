"""``allfours rules``: the rule set that --rules, --players and --set give, with what each parameter means."""

from __future__ import annotations

import json

import typer

from ..game.rules_text import describe, format_rules, set_options
from .options import JsonOpt, PlayersOpt, Preset, RulesOpt, SetOpt, build_rules


def show_rules(
    rules: RulesOpt = Preset.trinidad,  # type: ignore[attr-defined]
    players: PlayersOpt = None,
    set_: SetOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Print the rule set these options give: every parameter, its value and one line of meaning.

    docs/rules.md explains the game, every preset and every parameter in full.
    """
    ruleset = build_rules(rules, players, set_)
    if json_out:
        typer.echo(json.dumps({
            "rules": ruleset.as_log_dict(),
            "parameters": [{"name": name, "value": value, "meaning": text} for name, value, text in describe(ruleset)],
            "options": ["--rules", ruleset.preset, *(w for item in set_options(ruleset) for w in ("--set", item))],
        }))
        return
    typer.echo(format_rules(ruleset))
    typer.echo("\nEvery parameter can be changed with --set KEY=VALUE; docs/rules.md explains them in full.")
