"""The ``allfours`` command line: one thin command per job, one module per command.

`options` holds what the commands share; each command module imports only from it (and from
the analyser outside the CLI), and is registered on `app` here, in the order of the help.
Bad input (an `AllFoursError`, a usage error) is one line on stderr and a non-zero exit; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

import typer
from typer.core import TyperGroup

from ..errors import AllFoursError
from . import advice, bench, equilibrium, equity, replay, report, simulate, strategy, tournament, whatif

# The click that typer runs on (its own copy in newer typers, click itself in older ones), found
# through an exception class typer exports.
_click_exceptions = importlib.import_module(typer.BadParameter.__module__)
_NO_ARGS_IS_HELP = getattr(_click_exceptions, "NoArgsIsHelpError", ())


class AllFoursGroup(TyperGroup):
    """The top-level command: usage errors and bad input as one line on stderr, Ctrl-C as "interrupted"."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except AllFoursError as err:
            typer.echo(f"error: {err}", err=True)
            raise typer.Exit(2) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130) from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        """As click's `main`; in standalone mode (the console script, CliRunner) a usage error is
        `error: MESSAGE (see --help)` and click's exit code (2)."""
        run = dict(args=args, prog_name=prog_name, complete_var=complete_var, windows_expand_args=windows_expand_args,
                   **extra)
        if not standalone_mode:
            return super().main(standalone_mode=False, **run)
        try:
            code = super().main(standalone_mode=False, **run)  # the exit code, or what the command returned
        except _click_exceptions.ClickException as err:
            if isinstance(err, _NO_ARGS_IS_HELP):  # `allfours` alone: the help, on stderr
                err.show()
            else:
                typer.echo(f"error: {err.format_message()} (see --help)", err=True)
            sys.exit(err.exit_code)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(cls=AllFoursGroup, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo strategy analyser for the card game All Fours.")

app.command("simulate")(simulate.simulate)
app.command("replay")(replay.replay)
app.command("tournament")(tournament.tournament)
app.command("bench")(bench.bench)
app.command("equity")(equity.equity)
app.command("whatif")(whatif.whatif)
app.command("strategy")(strategy.strategy)
app.command("equilibrium")(equilibrium.equilibrium)
app.command("check-advice")(advice.check_advice)
app.command("report")(report.report)


def main() -> None:
    """The console script `allfours` (and `python -m analyser`)."""
    try:
        app()
    except KeyboardInterrupt:  # outside a command, e.g. while the command line is read
        typer.echo("interrupted", err=True)
        sys.exit(130)
