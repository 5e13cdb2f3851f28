"""The store's rules, read from the source: who may speak SQL or hand work to threads,
and what the seam and each engine may import.

The helpers (the import graph, ``sources``) are ``test_architecture``'s.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

import msgspec

from tests.test_architecture import (
    ENGINE_FOLDERS,
    ENGINE_LIBRARIES,
    _within,
    imports_of,
    sources,
)

#: SQL as this code base writes it: a statement keyword, then a space.
_SQL = re.compile(r"^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|BEGIN|COMMIT)\b\s")
#: Hops to a thread outside store, each for a reason that is not storage.
THREAD_HOPS = {
    # Extractive consolidation is CPU work (sentence scoring), not I/O: it runs
    # on a worker thread so the event loop keeps serving appends meanwhile.
    "reverie.actors.consolidation.distill": 1,
    # LangGraph's abatch, in the host's process: the store's one batch logic, over the
    # blocking client, on a worker thread, so the host's event loop is never held.
    "reverie.langgraph.store": 1,
}


def _docstrings(tree: ast.AST) -> set[int]:
    return {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }


def _is_sql(node: ast.AST, prose: set[int]) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in prose
        and bool(_SQL.match(node.value))
    )


def _store_work(tree: ast.AST) -> Iterator[str]:
    """What only ``store`` may do in ``tree``: hand work to a thread, or write SQL."""
    prose = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "to_thread":
            yield f"{node.lineno}: {node.attr}"
        elif _is_sql(node, prose):
            yield f"{node.lineno}: SQL {node.value.strip()[:30]!r}"


def _shared(module: str) -> bool:
    """The seam (``store.base``) and the records and pure helpers both engines share
    (the modules at the top of ``store``, but for the facade and ``open_store``)."""
    if _within(module, "reverie.store.base"):
        return True
    parts = module.split(".")
    return len(parts) == 3 and parts[:2] == ["reverie", "store"] and parts[2] != "engines"


def test_the_seam_imports_no_engine_and_no_engine_the_other() -> None:
    """The seam and the shared records name no engine; the Postgres engine uses those
    and the embedders, never SQLite, LanceDB or the Markdown tree (``store.files``),
    and the file engine never psycopg or ``store.postgres``."""
    broken = [
        f"{m} imports {n}"
        for m in sources()
        if _shared(m)
        for n in imports_of(m)
        # pyarrow's memory pool is the process's, tuned with glibc's (store.heap)
        if any(_within(n, bad) for bad in (*ENGINE_LIBRARIES, *ENGINE_FOLDERS))
        and not (m == "reverie.store.heap" and _within(n, "pyarrow"))
    ]
    broken += [
        f"{m} imports {n}"
        for m in sources()
        if _within(m, "reverie.store.postgres")
        for n in imports_of(m)
        if any(_within(n, bad) for bad in ("apsw", "lancedb", *ENGINE_FOLDERS[1:]))
    ]
    broken += [
        f"{m} imports {n}"
        for m in sources()
        if _within(m, "reverie.store.files")
        for n in imports_of(m)
        if any(_within(n, bad) for bad in ("psycopg", ENGINE_FOLDERS[0]))
    ]
    assert broken == []


def test_the_actors_and_daemon_reach_an_engine_only_through_the_facade() -> None:
    """Above the store, only ``reverie.store`` itself is imported: which engine runs is
    the composition root's choice (``open_store``), not a layer's."""
    broken = [
        f"{m} imports {n}"
        for m in sources()
        if _within(m, "reverie.actors") or _within(m, "reverie.daemon")
        for n in imports_of(m)
        if _within(n, "reverie.store") and n != "reverie.store"
    ]
    assert broken == []


def _store_names(tree: ast.AST) -> set[str]:
    """The names ``tree`` imports from the ``reverie.store`` facade."""
    return {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "reverie.store"
        for alias in node.names
    }


def _isinstance_classes(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every name an ``isinstance`` call in ``tree`` checks against."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "isinstance"
            and len(node.args) == 2
        ):
            kinds = node.args[1]
            for kind in kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]:
                if isinstance(kind, ast.Name):
                    yield node.lineno, kind.id


def test_the_actors_and_daemon_name_no_engine() -> None:
    """Above the store, which engine runs shows only as flags (``Store.features``) and the
    protocols' methods: no engine's library imported, and no ``isinstance`` on what an
    engine provides (the seam's classes and protocols; records and errors are data)."""
    import reverie.store

    classes = {
        n: c for n in reverie.store.__all__ if isinstance(c := getattr(reverie.store, n), type)
    }
    # records and errors are data a caller sorts; the others are what an engine provides
    store_classes = {n for n, c in classes.items() if not issubclass(c, msgspec.Struct | Exception)}
    broken = []
    for module, path in sources().items():
        if not (_within(module, "reverie.actors") or _within(module, "reverie.daemon")):
            continue
        broken += [
            f"{module} imports {n}"
            for n in imports_of(module)
            if any(_within(n, bad) for bad in ENGINE_LIBRARIES)
        ]
        tree = ast.parse(path.read_text(), str(path))
        from_store = _store_names(tree) & store_classes
        broken += [
            f"{module}:{line}: isinstance(..., {name})"
            for line, name in _isinstance_classes(tree)
            if name in from_store
        ]
    assert broken == []


def test_the_facade_exports_no_engine() -> None:
    """``reverie.store`` and what it loads import no engine: ``open_store`` imports the
    one it opens (``tests/store/test_engine_imports.py`` runs it)."""
    loaded, todo = set(), ["reverie.store"]
    while todo:  # ``closure``, but for what ``open_store`` imports when it opens an engine
        name = todo.pop()
        if name not in loaded:
            loaded.add(name)
            if name in sources() and name != "reverie.store.engines":
                todo.extend(imports_of(name))
    loaded |= {n for n in imports_of("reverie.store.engines") if not _within(n, "reverie.store")}
    broken = sorted(
        n
        for n in loaded
        if any(_within(n, bad) for bad in ("apsw", "psycopg", "lancedb", *ENGINE_FOLDERS))
    )
    assert broken == []


def test_only_the_store_touches_a_database_or_hands_work_to_threads() -> None:
    """No apsw, psycopg, SQL text or thread hop outside ``store``: its async facades own them."""
    broken = []
    for module, path in sources().items():
        if _within(module, "reverie.store"):
            continue
        broken += [
            f"{module} imports {n}"
            for n in imports_of(module)
            if _within(n, "apsw") or _within(n, "psycopg")
        ]
        found = list(_store_work(ast.parse(path.read_text(), str(path))))
        if len(found) != THREAD_HOPS.get(module, 0) or not all("to_thread" in f for f in found):
            broken += [f"{module}:{f}" for f in found]
    assert broken == []
