"""The architecture's rules, read from the source: layers, the host surface, no cycles.

The import graph is built from the code itself (``ast``), not by importing
it, so a rule broken behind a lazy import or a rarely-taken branch is still
seen. Imports under ``if TYPE_CHECKING:`` are annotations, not imports, and
are left out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"config": "reverie.config", "store": "reverie.store", "actors": "reverie.actors"}
FOLDERS["daemon"] = "reverie.daemon"
#: The top-level ``reverie`` package's folder (pyproject's package-dir maps it).
TOP_LEVEL = ROOT / "daemon" / "client" / "top_level"
LAYERS = ["reverie.daemon", "reverie.actors", "reverie.store"]
HOST_SURFACE = ["reverie", "reverie.daemon.client", "reverie.daemon.protocol"]
HOST_FORBIDDEN = ("reverie.actors", "reverie.store", "trio", "apsw", "lancedb")


def _module_name(path: Path) -> str:
    if path.parent == TOP_LEVEL:
        return "reverie"
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [FOLDERS[rel.parts[0]], *rel.parts[1:]]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def sources() -> dict[str, Path]:
    """Every module of the four code folders (and the top-level package), by name."""
    found = {}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            found[_module_name(path)] = path
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        else:
            yield from _import_nodes(node)


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> list[str]:
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    if node.level:
        base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        base = f"{base}.{node.module}" if node.module else base
    else:
        base = node.module or ""
    # ``from pkg import name``: name may be a submodule; keep it when it is one.
    subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in sources()]
    return [base, *subs]


@cache
def imports_of(module: str) -> frozenset[str]:
    """The modules ``module`` imports (absolute names; third-party ones too)."""
    path = sources()[module]
    names: set[str] = set()
    for node in _import_nodes(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        else:
            names.update(_resolve(module, path, node))
    return frozenset(names)


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _loaded_with(module: str) -> Iterator[str]:
    """``module``'s parent packages: importing a module runs their ``__init__`` first."""
    parts = module.split(".")
    for i in range(2, len(parts)):
        yield ".".join(parts[:i])


def closure(start: str) -> set[str]:
    """Everything importing ``start`` loads, transitively (within reverie, plus the leaves)."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in sources():
            todo.extend(imports_of(name))
            todo.extend(_loaded_with(name))
    return seen


def test_the_source_tree_is_found() -> None:
    names = sources()
    assert {"reverie", "reverie.daemon.client", "reverie.store.db"} <= names.keys()
    assert "reverie.daemon.client.top_level" not in names


def test_layers_point_one_way_daemon_actors_store() -> None:
    broken = []
    for module in sources():
        for i, layer in enumerate(LAYERS):
            if not _within(module, layer):
                continue
            for name in imports_of(module):
                broken += [f"{module} -> {name}" for up in LAYERS[:i] if _within(name, up)]
    assert broken == []


def test_config_is_the_bottom() -> None:
    broken = [
        f"{module} -> {name}"
        for module in sources()
        if _within(module, "reverie.config")
        for name in imports_of(module)
        if any(_within(name, layer) for layer in LAYERS)
    ]
    assert broken == []


def test_hosts_import_the_client_without_the_daemons_machinery() -> None:
    for start in HOST_SURFACE:
        loaded = closure(start)
        bad = sorted(n for n in loaded for f in HOST_FORBIDDEN if _within(n, f))
        assert bad == [], f"importing {start} loads {bad}"


def _cycle_from(graph: dict[str, list[str]], start: str) -> list[str] | None:
    path: list[str] = []
    on_path: set[str] = set()
    done: set[str] = set()

    def visit(node: str) -> list[str] | None:
        if node in on_path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        path.append(node)
        on_path.add(node)
        for nxt in graph[node]:
            found = visit(nxt)
            if found:
                return found
        path.pop()
        on_path.discard(node)
        done.add(node)
        return None

    return visit(start)


def test_no_import_cycles() -> None:
    """A module never needs, through its imports, a module that needs it back.

    A package's ``__init__`` importing its own submodules is not a cycle (it
    is how a package re-exports); a submodule importing its package back is.
    """
    graph = {
        m: sorted(n for n in imports_of(m) if n in sources() and not _within(n, m))
        for m in sources()
    }
    cycles = [c for m in graph if (c := _cycle_from(graph, m))]
    assert cycles == []


_SQL = ("SELECT ", "INSERT ", "UPDATE ", "DELETE ", "CREATE ", "BEGIN", "PRAGMA ")


def _store_skips(module: str) -> list[str]:
    """What of the store's work ``module`` does itself: apsw, SQL text, worker threads."""
    path = sources()[module]
    tree = ast.parse(path.read_text(), str(path))
    found = [f"imports {n}" for n in imports_of(module) if _within(n, "apsw")]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "to_thread":
            found.append(f"line {node.lineno}: to_thread")
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.lstrip().startswith(_SQL)
        ):
            found.append(f"line {node.lineno}: SQL {node.value[:30]!r}")
    return found


def test_the_daemon_leaves_sql_apsw_and_worker_threads_to_the_store() -> None:
    """The server reaches SQLite only through the store's async facade (``Database``)."""
    skips = {
        m: found for m in sources() if _within(m, "reverie.daemon") and (found := _store_skips(m))
    }
    assert skips == {}
