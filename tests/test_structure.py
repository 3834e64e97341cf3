"""The package's layers: imports only point down (cli -> report / table -> analysis.play -> analysis.bidding ->
analysis base -> the core modules -> engine -> the foundation).

Every import of every module is read with `ast` (function-level imports included, ``if TYPE_CHECKING:`` blocks
excepted: a type is not a dependency at run time) and its target's layer compared with the importer's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "analyser"

FOUNDATION = {"analyser", "analyser.game", "analyser.game.errors", "analyser.game.cards", "analyser.game.rules", "analyser.work.cache",
              "analyser.game.rules_text"}
# Highest first: a module may import from its own layer or any below it.
LAYERS = [
    ("cli", ("analyser.cli", "analyser.__main__")),
    ("report", ("analyser.report",)),
    ("table", ("analyser.table",)),
    ("analysis.play", ("analyser.analysis.play",)),
    ("analysis.bidding", ("analyser.analysis.bidding",)),
    ("analysis base", ("analyser.analysis",)),
    ("core", ("analyser.",)),
    ("engine", ("analyser.engine",)),
]


def layer_of(module: str) -> int:
    """The layer's depth (0: the foundation, higher: further up)."""
    if module in FOUNDATION:
        return 0
    for depth, (_, prefixes) in zip(range(len(LAYERS), 0, -1), LAYERS):
        if any(module == p or module.startswith(p if p.endswith(".") else p + ".") for p in prefixes):
            return depth
    raise AssertionError(f"no layer for {module}")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in `path` outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text())
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for stmt in node.body for n in ast.walk(stmt))
    found = []
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("analyser"):
                continue
            if node.module is None or target in ("analyser.analysis", "analyser.referee"):
                # `from . import x`: x may be a module of the package
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    spot = PACKAGE.parent / sub.replace(".", "/")
                    found.append((node.lineno, sub if spot.with_suffix(".py").exists() or spot.is_dir() else target))
            else:
                found.append((node.lineno, target))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names if a.name.startswith("analyser")]
    return found


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_has_a_layer():
    for path in MODULES:
        layer_of(module_name(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: module_name(p))
def test_imports_point_down(path: Path):
    me = module_name(path)
    upward = [f"line {line}: {target}" for line, target in imports_of(path) if layer_of(target) > layer_of(me)]
    assert not upward, f"{me} imports from a layer above it: {upward}"


def test_the_two_advice_checks_do_not_import_each_other():
    advice = PACKAGE / "analysis" / "bidding" / "advice.py"
    assert all(not target.startswith("analyser.analysis.play") for _, target in imports_of(advice))


def test_the_referee_is_public_and_split_by_phase():
    from analyser import referee
    from analyser.referee import bidding, play, scoring

    assert {"Referee", "referee_line", "LogError", "UpToPlay"} <= set(referee.__all__)
    assert hasattr(bidding.BiddingPhase, "bidding_phase") and hasattr(play.PlayPhase, "play_phase")
    assert hasattr(scoring.Scoring, "score_play")
    for path in (PACKAGE / "referee").glob("*.py"):
        assert len(path.read_text().splitlines()) < 200, f"{path.name}: a phase fits in one short file"
    # no module subclasses a private class of another
    for path in MODULES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                private = [ast.unparse(b) for b in node.bases if ast.unparse(b).split(".")[-1].startswith("_")]
                assert not private, f"{module_name(path)}.{node.name} subclasses private {private}"


MAX_LINES = 800


def test_no_source_file_is_longer_than_a_reader_can_hold():
    long = {str(path.relative_to(PACKAGE)): n for path in MODULES
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, f"over {MAX_LINES} lines: {long}"


def test_the_solver_is_a_package_of_parts():
    solver = PACKAGE / "engine" / "solver"
    assert not (PACKAGE / "engine" / "solver.py").exists()
    assert {"search.py", "nullwindow.py", "moves.py", "table.py", "endings.py", "bounds.py"} <= {
        p.name for p in solver.glob("*.py")}


def test_the_table_entry_asks_the_view_referee_whether_the_hidden_cards_can_be_dealt():
    entry = PACKAGE / "table" / "entry"
    assert entry.is_dir() and {"setup.py", "bids.py", "cards.py"} <= {p.name for p in entry.glob("*.py")}
    assert any(target == "analyser.referee.views" for path in entry.glob("*.py") for _, target in imports_of(path))
    assert not any("1 << len(" in path.read_text() for path in entry.glob("*.py")), "a dealing check of its own"
