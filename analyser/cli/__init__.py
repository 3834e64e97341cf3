"""The ``allfours`` command line: one thin command per job, one module per command.

`options` holds what the commands share; each command module imports only from it (and from
the analyser outside the CLI), and is registered on `app` here, in the order of the help.
Bad input (an `AllFoursError`, a usage error) is one line on stderr and a non-zero exit; any other
exception is a bug and keeps its traceback.
"""

from __future__ import annotations

import enum
import importlib
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from .. import __version__
from ..game.errors import AllFoursError
from . import advice, bench, equilibrium, equity, replay, report, simulate, strategy, tournament, whatif
from . import rules
from . import solve
from . import analyse
from . import hint
from . import record
from . import play
from . import card

# The click that typer runs on (its own copy in newer typers, click itself in older ones), found
# through an exception class typer exports.
_click_exceptions = importlib.import_module(typer.BadParameter.__module__)
_NO_ARGS_IS_HELP = getattr(_click_exceptions, "NoArgsIsHelpError", ())


def _given(args: Sequence[str], opts: Sequence[str]) -> str | None:
    """The last value the command line gives one of `opts` (``--players 5`` or ``--players=5``)."""
    value = None
    for i, word in enumerate(args):
        for opt in opts:
            if word == opt and i + 1 < len(args):
                value = args[i + 1]
            elif word.startswith(opt + "="):
                value = word[len(opt) + 1:]
    return value


def _or_list(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def _number(value: Any) -> str:
    return f"{int(value):,}" if float(value).is_integer() else f"{value:g}"


def _range(lo: Any, hi: Any) -> str:
    if lo is not None and hi is not None:
        if isinstance(lo, int) and isinstance(hi, int) and hi - lo <= 2:
            return _or_list([str(v) for v in range(lo, hi + 1)])
        return f"{_number(lo)} to {_number(hi)}"
    return f"at least {_number(lo)}" if lo is not None else f"at most {_number(hi)}"


def usage_message(err: Any, args: Sequence[str]) -> str:
    """A usage error as one plain line: the option, the bad value and what it may be."""
    param = getattr(err, "param", None)
    opts = list(getattr(param, "opts", None) or [])
    errors = getattr(err.__cause__, "errors", None)
    if not opts or errors is None or isinstance(err, _click_exceptions.MissingParameter):
        return f"{err.format_message()} (see --help)"
    detail = (errors() or [{}])[0]
    name = next((o for o in opts if any(w == o or w.startswith(o + "=") for w in args)), opts[0])
    value = _given(args, opts)
    value = str(detail.get("input")) if value is None else value
    kind = detail.get("type", "")
    choices = getattr(getattr(param, "type_descriptor", None), "annotation", None)
    if isinstance(choices, type) and issubclass(choices, enum.Enum):
        return f"{name} {value}: not one of the choices; choose {_or_list([str(c.value) for c in choices])}"
    lo, hi = getattr(param, "min", None), getattr(param, "max", None)
    bounded = lo is not None or hi is not None
    if kind.endswith("_parsing") or kind.endswith("_type"):
        number = "a whole number" if kind.startswith("int") else "a number"
        return f"{name} {value}: not {number}" + (f"; give {_range(lo, hi)}" if bounded else "")
    if kind.startswith(("greater_than", "less_than")) and bounded:
        return f"{name} {value}: out of range; give {_range(lo, hi)}"
    return f"{name} {value}: {detail.get('msg') or err.format_message()} (see --help)"


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
                words = list(args) if args is not None else sys.argv[1:]
                typer.echo(f"error: {usage_message(err, words)}", err=True)
            sys.exit(err.exit_code)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


EXIT_CODES = ("Exit status: 0 done; 1 failed while working (a log the referee rejects, a file that could not be "
              "written); 2 a usage error, found before any work (a bad option value, an input file missing, unreadable "
              "or a folder, an output that cannot be written); 130 interrupted (Ctrl-C).")

app = typer.Typer(cls=AllFoursGroup, add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  rich_markup_mode=None, help="Monte Carlo strategy analyser for the card game All Fours.",
                  epilog=EXIT_CODES, context_settings={"help_option_names": ["-h", "--help"]})


def _print_version(given: bool) -> None:
    if given:
        typer.echo(f"allfours {__version__}")
        raise typer.Exit()


@app.callback()
def _top(version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                               help="Print the version (allfours X.Y.Z) and exit.")] = False) -> None:
    """Monte Carlo strategy analyser for the card game All Fours."""


app.command("rules")(rules.show_rules)
app.command("simulate")(simulate.simulate)
app.command("replay")(replay.replay)
app.command("solve")(solve.solve)
app.command("tournament")(tournament.tournament)
app.command("bench")(bench.bench)
app.command("equity")(equity.equity)
app.command("hint")(hint.hint)
app.command("whatif")(whatif.whatif)
app.command("analyse")(analyse.analyse)
app.command("strategy")(strategy.strategy)
app.command("equilibrium")(equilibrium.equilibrium)
app.command("check-advice")(advice.check_advice)
app.command("report")(report.report)
app.command("card")(card.card)
app.command("record")(record.record)
app.command("play")(play.play)


def main() -> None:
    """The console script `allfours` (and `python -m analyser`)."""
    try:
        app()
    except KeyboardInterrupt:  # outside a command, e.g. while the command line is read
        typer.echo("interrupted", err=True)
        sys.exit(130)
