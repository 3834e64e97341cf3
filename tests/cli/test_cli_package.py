"""The command line as a package: its help text, its imports, and which errors are one line."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from analyser.analysis import AnalysisError
from analyser.cli import app
from analyser.game.errors import AllFoursError
from analyser.players.policy import PolicyError
from conftest import ROOT, TESTS

GOLDEN = TESTS / "golden" / "help"
# In the order of the top-level help; "" is the top level itself (stored as allfours.txt).
COMMANDS = ["rules", "simulate", "replay", "solve", "tournament", "bench", "equity", "hint", "whatif", "analyse", "strategy", "equilibrium",
            "check-advice", "report", "card", "record", "play"]
# Options whose entries a help text may change without a new stored copy (none now).
PENDING: dict[str, set[str]] = {}


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
    commands = help_text("").split("Commands:\n", 1)[1].split("\n\n", 1)[0]  # (the exit status follows them)
    listed = [line.split()[0] for line in commands.splitlines() if line.strip()]
    assert listed == COMMANDS


# --- the package's imports -------------------------------------------------------------------

CLI_DIR = ROOT / "analyser" / "cli"
SHARED = {"analyser.cli", "analyser.cli.options"}  # what a command module may import from the CLI


def imported(path: Path, package: str) -> set[str]:
    """Every module `path` imports (at the top or inside functions), relative imports resolved;
    `from X import name` also counts X.name, in case it is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def cli_graph() -> dict[str, set[str]]:
    """Module -> the modules of analyser.cli it imports."""
    modules = {("analyser.cli" if p.stem == "__init__" else f"analyser.cli.{p.stem}"): p
               for p in CLI_DIR.glob("*.py")}
    return {name: {m for m in imported(path, "analyser.cli") if m in modules and m != name}
            for name, path in modules.items()}


def test_command_modules_import_only_the_shared_options() -> None:
    graph = cli_graph()
    commands = set(graph) - SHARED
    assert {"analyser.cli.simulate", "analyser.cli.equity", "analyser.cli.advice"} <= commands
    for name in sorted(commands):
        assert graph[name] <= {"analyser.cli.options"}, f"{name} imports {sorted(graph[name] - SHARED)}"
        assert "analyser.cli" not in graph[name], f"{name} imports the package (its app)"
    assert graph["analyser.cli.options"] == set(), "options must not import a command or the app"


def test_the_cli_has_no_import_cycle() -> None:
    graph = cli_graph()
    state: dict[str, str] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = "open"
        for nxt in graph[node]:
            assert state.get(nxt) != "open", "import cycle: " + " -> ".join(path + [node, nxt])
            if nxt not in state:
                visit(nxt, path + [node])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [])


def test_nothing_outside_the_cli_imports_it() -> None:
    root = CLI_DIR.parent
    for path in root.rglob("*.py"):
        if CLI_DIR in path.parents or path.name == "__main__.py":
            continue
        package = ".".join(("analyser",) + path.relative_to(root).parent.parts)
        hits = [m for m in imported(path, package) if m == "analyser.cli" or m.startswith("analyser.cli.")]
        assert not hits, f"{path} imports {hits}"


def test_every_cli_module_can_be_imported_first() -> None:
    names = sorted(cli_graph())
    runs = {name: subprocess.Popen([sys.executable, "-c", f"import {name}"], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True) for name in names}
    for name, proc in runs.items():
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, f"import {name} first fails:\n{err}"


# --- which errors are one line ---------------------------------------------------------------

TOURNAMENT = ["tournament", "--matches", "2"]


@pytest.mark.parametrize("error", [RuntimeError("a bug"), ValueError("a bug"), OSError("a bug"), KeyError("a bug")])
def test_an_internal_error_is_not_shown_as_bad_input(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr("analyser.analysis.play.tournament.run_tournament", broken)
    result = CliRunner().invoke(app, TOURNAMENT)
    assert result.exception is error and result.exit_code == 1
    assert "error:" not in result.stderr
    with pytest.raises(type(error)):
        CliRunner().invoke(app, TOURNAMENT, catch_exceptions=False)


@pytest.mark.parametrize("error", [AllFoursError("made-up bad input"), PolicyError("made-up bad input"),
                                   AnalysisError("made-up bad input")])
def test_bad_input_is_one_line(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr("analyser.analysis.play.tournament.run_tournament", refuse)
    result = CliRunner().invoke(app, TOURNAMENT)
    assert (result.exit_code, result.stderr, result.stdout) == (2, "error: made-up bad input\n", "")
    assert not isinstance(result.exception, AllFoursError)


def test_usage_errors_help_and_exit_codes() -> None:
    runner = CliRunner()
    bad = runner.invoke(app, ["simulate", "--players", "5"])
    assert (bad.exit_code, bad.stderr) == (2, "error: --players 5: out of range; give 2, 3 or 4\n")
    unknown = runner.invoke(app, ["nosuch"])
    assert (unknown.exit_code, unknown.stderr) == (2, "error: No such command 'nosuch'. (see --help)\n")
    assert runner.invoke(app, ["equity", "--help"]).exit_code == 0
    alone = runner.invoke(app, [])
    assert alone.exit_code == 2 and "Commands:" in alone.stderr
    # typer.Exit inside a command keeps its code: a wrong log is 1
    assert runner.invoke(app, ["replay", __file__]).exit_code == 1


def test_ctrl_c_is_interrupted_130(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def stop(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("analyser.analysis.play.tournament.run_tournament", stop)
    result = CliRunner().invoke(app, TOURNAMENT)
    assert (result.exit_code, result.stderr) == (130, "interrupted\n")
    # a run folder: the one line says how to go on
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "meta.json").write_text("{}")
    monkeypatch.setattr("analyser.analysis.runner.run", stop)
    result = CliRunner().invoke(app, ["simulate", "--deals", "10", "--out", str(run_dir), "--force"])
    assert result.exit_code == 130
    assert result.stderr == f"interrupted: finished chunks are kept; continue with --resume {run_dir}\n"


def test_the_console_script_path() -> None:
    """`python -m analyser` (what `allfours` runs): one line and exit 2 for bad input, 0 for --help."""
    bad = subprocess.run([sys.executable, "-m", "analyser", "simulate", "--rules", "classic", "--set", "target=0"],
                         capture_output=True, text=True, timeout=120)
    assert (bad.returncode, bad.stderr) == (2, "error: target=0 is out of range 1..99\n")
    usage = subprocess.run([sys.executable, "-m", "analyser", "simulate", "--players", "5"],
                           capture_output=True, text=True, timeout=120)
    assert (usage.returncode, usage.stderr) == (2, "error: --players 5: out of range; give 2, 3 or 4\n")
    ok = subprocess.run([sys.executable, "-m", "analyser", "--help"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "check-advice" in ok.stdout


def test_start_up_does_not_load_the_analysis_modules():
    """`allfours --help` and light commands start fast: pandas, matplotlib and the analysis
    modules load only inside the commands that use them."""
    code = ("import sys, analyser.cli; heavy = [m for m in ('pandas', 'matplotlib', 'analyser.analysis.bidding.advice', "
            "'analyser.analysis.bidding.strategy', 'analyser.analysis.bidding.whatif', 'analyser.analysis.bidding.equilibrium') "
            "if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_dash_h_is_help(command: str) -> None:
    """`allfours -h` and `allfours COMMAND -h` print the same help as `--help`, exit 0."""
    result = CliRunner().invoke(app, [command, "-h"] if command else ["-h"], terminal_width=100, prog_name="allfours")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(f"Usage: allfours {command}".rstrip() + " ")
    assert result.stdout == help_text(command)
    assert "-h, --help" in result.stdout


def test_dash_h_from_the_console_script() -> None:
    result = subprocess.run([sys.executable, "-m", "analyser", "report", "-h"], capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage:") and "-h, --help" in result.stdout
