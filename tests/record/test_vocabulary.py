"""The decisions' words are spelled once, in analyser/record/vocabulary.py.

Prose (docstrings, comments) may say "beg - stand"; code never spells a role's
difference label or its chart's file name, and outside the engine (whose kernels
name their own integer codes and cannot import the analysis layer) never its pair
of options: it asks ``vocabulary.ROLE``. Tests spell them on purpose: they pin what
users see.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import analyser
from analyser.record.vocabulary import DEALER, ELDEST, ROLE, ROLES, Role
from analyser.engine.decisions import ROLE_DEALER, ROLE_ELDEST
from analyser.engine.layout import T_BEG, T_GIVE

SOURCES = Path(analyser.__file__).parent
VOCABULARY = SOURCES / "record" / "vocabulary.py"


def spelled_labels(role: Role) -> set[str]:
    a, b = role.options
    return {f"{b} - {a}", f"{a} - {b}", f"{b}-minus-{a}", f"{a}-minus-{b}", f"{b}_minus_{a}", f"{a}_minus_{b}"}


def code_strings(tree: ast.AST) -> list[tuple[int, str]]:
    """String constants of a module that are not docstrings (f-strings' literal parts included)."""
    docs = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docs.add(id(first.value))
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def option_pairs(tree: ast.AST, role: Role) -> list[int]:
    """Lines of tuple or list literals holding both options of `role` (in either order)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List)):
            words = {e.value for e in node.elts if isinstance(e, ast.Constant)}
            if set(role.options) <= words:
                lines.append(node.lineno)
    return lines


def test_the_vocabulary_is_the_only_place_the_labels_and_option_pairs_are_spelled() -> None:
    found = []
    for path in sorted(SOURCES.rglob("*.py")):
        if path == VOCABULARY:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(SOURCES.parent)
        for role in ROLES:
            found += [f"{where}:{line}: {text!r}" for line, text in code_strings(tree)
                      if any(label in text for label in spelled_labels(role))]
            if where.parts[1] != "engine":
                found += [f"{where}:{line}: the pair {role.options}" for line in option_pairs(tree, role)]
    assert not found, "spell these through analyser.record.vocabulary:\n" + "\n".join(found)


def test_the_check_itself_finds_a_spelled_label() -> None:
    tree = ast.parse('"""beg - stand in a docstring is prose."""\nx = f"{1} give - run"\ny = ("run", "give")\n')
    assert [text for _, text in code_strings(tree)] == [" give - run", "run", "give"]
    assert option_pairs(tree, DEALER) == [3] and option_pairs(tree, ELDEST) == []


def test_the_words() -> None:
    assert [r.name for r in ROLES] == ["eldest", "dealer"] and ROLE["dealer"] is DEALER
    assert (ELDEST.options, ELDEST.diff, ELDEST.chart_file) == (("stand", "beg"), "beg - stand", "beg-minus-stand.png")
    assert (DEALER.options, DEALER.diff, DEALER.chart_file) == (("run", "give"), "give - run", "give-minus-run.png")
    assert (ELDEST.kernel, ELDEST.table, DEALER.kernel, DEALER.table) == (ROLE_ELDEST, T_BEG, ROLE_DEALER, T_GIVE)
    with pytest.raises(AttributeError):
        ELDEST.name = "x"  # type: ignore[misc]
