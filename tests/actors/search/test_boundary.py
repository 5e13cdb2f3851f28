"""The store boundary on the search side: actors/search awaits the store, it blocks on nothing.

``tests/test_architecture.py`` keeps apsw, LanceDB and Arrow out of
``reverie.actors.search``; these checks keep out what an import rule cannot
see: handing blocking work to a thread, and SQL written outside the store.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SEARCH = Path(__file__).resolve().parents[3] / "actors" / "search"
MODULES = sorted(SEARCH.glob("*.py"))
_SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA)\b\s", re.IGNORECASE)


def test_the_search_package_is_where_these_checks_look() -> None:
    assert {p.name for p in MODULES} >= {"indexer.py", "query.py", "follow.py", "rebuild.py"}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_blocking_work_is_handed_to_a_thread(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    names |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not {"to_thread", "run_sync", "shutil"} & (names | imported)


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_no_sql_text(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    strings = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docstrings
    ]
    assert not [s for s in strings if _SQL.search(s)]
