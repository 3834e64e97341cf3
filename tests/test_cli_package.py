"""The command line as a package: its help text, its imports, and which errors are one line."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.cli import app

GOLDEN = Path(__file__).parent / "golden" / "help"
# In the order of the top-level help; "" is the top level itself (stored as allfours.txt).
COMMANDS = ["simulate", "replay", "tournament", "bench", "equity", "whatif", "strategy", "check-advice", "report"]
# `tournament` is to gain these options (the stored copy will be updated then).
PENDING = {"tournament": {"--threads", "--scheduler", "--cluster"}}


def help_text(command: str) -> str:
    """`allfours [COMMAND] --help` at a fixed width (COLUMNS and the terminal do not change it)."""
    result = CliRunner().invoke(app, [command, "--help"] if command else ["--help"], terminal_width=100,
                                prog_name="allfours")
    assert result.exit_code == 0, result.output
    return result.stdout


def option_entries(text: str, drop: set[str]) -> list[str]:
    """The help text with the entries of the options in `drop` taken out (an entry is its first
    line, starting with the option, and the deeper-indented lines that continue it)."""
    lines = text.splitlines()
    kept: list[str] = []
    skipping = False
    for line in lines:
        if line.startswith("  -"):
            skipping = line.split()[0].rstrip(",") in drop
        elif not line.startswith("    "):
            skipping = False
        if not skipping:
            kept.append(line)
    return kept


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_is_unchanged(command: str) -> None:
    stored = (GOLDEN / f"{command or 'allfours'}.txt").read_text(encoding="utf-8")
    now = help_text(command)
    drop = PENDING.get(command, set())
    assert option_entries(now, drop) == option_entries(stored, drop)


def test_top_level_help_lists_the_commands_in_order() -> None:
    listed = [line.split()[0] for line in help_text("").split("Commands:\n", 1)[1].splitlines() if line.strip()]
    assert listed == COMMANDS
