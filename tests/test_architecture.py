"""The architecture's rules, read from the source: layers, the host surface, no cycles
(and one top-level definition per name in the folders no type checker reads).

The import graph is built from the code itself (``ast``), not by importing
it, so a rule broken behind a lazy import or a rarely-taken branch is still
seen. Imports under ``if TYPE_CHECKING:`` load nothing at run time, so the
layer rules leave them out; the cycle rule reads them too (a cycle a type
checker needs is still two modules that need each other).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = {"config": "reverie.config", "store": "reverie.store", "actors": "reverie.actors"}
FOLDERS["daemon"] = "reverie.daemon"
#: The top-level ``reverie`` package's folder (pyproject's package-dir maps it).
TOP_LEVEL = ROOT / "daemon" / "client" / "top_level"
LAYERS = ["reverie.daemon", "reverie.actors", "reverie.store"]
_RUNTIME = ["reverie.actors.session", "reverie.actors.scope", "reverie.actors.registry"]
#: Inside a layer: (why, the modules, what they must not need, directly or not).
BOUNDARIES = [
    (
        "consolidation calls the actors only through requests.Sessions",
        ["reverie.actors.consolidation"],
        [*_RUNTIME, "reverie.actors.mailbox", "reverie.daemon"],
    ),
    (
        "long-term memory's owner needs neither consolidation nor the runtime",
        ["reverie.actors.memory"],
        ["reverie.actors.consolidation", *_RUNTIME, "reverie.daemon"],
    ),
    (
        "the generic runtime and the scope actor do not need the session actor",
        ["reverie.actors.registry", "reverie.actors.mailbox", "reverie.actors.scope"],
        ["reverie.actors.session"],
    ),
    (
        "the runtime sees consolidation only through its requests and turn boundaries",
        ["reverie.actors.session", "reverie.actors.registry", "reverie.actors.services"],
        [
            *(f"reverie.actors.consolidation.{m}" for m in ("supervisor", "workers", "queue")),
            *(f"reverie.actors.consolidation.{m}" for m in ("distill", "llm", "backends")),
            "reverie.actors.memory",
        ],
    ),
]
#: The framework adapters (optional extras): each, and only it, imports its frameworks.
ADAPTERS = {
    "reverie.agents": ("agents", "openai"),
    "reverie.langgraph": ("langgraph", "langchain_core", "langmem"),
    "reverie.nanobot": ("nanobot",),
}
HOST_SURFACE = ["reverie", "reverie.daemon.client", "reverie.daemon.protocol", *ADAPTERS]
HOST_FORBIDDEN = ("reverie.actors", "reverie.store", "trio", "apsw", "lancedb", "psycopg")
SEARCH = "reverie.actors.search"
#: Of the other actors, search uses only what every actor is given (services and hooks).
SEARCH_USES = "reverie.actors.services"
#: The store's dependencies: search awaits them through the store.
SEARCH_FORBIDDEN = ("apsw", "lancedb", "pyarrow", "psycopg")
#: The engines' libraries and folders: what the seam (store.base) must never import.
ENGINE_LIBRARIES = ("apsw", "psycopg", "lancedb", "pyarrow")
ENGINE_FOLDERS = ("reverie.store.postgres", "reverie.store.files")


def _module_name(path: Path) -> str:
    if path.is_relative_to(TOP_LEVEL):  # the top-level package and its framework adapters
        parts = ["reverie", *path.relative_to(TOP_LEVEL).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        return ".".join(parts)
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


def _import_nodes(
    tree: ast.AST, *, typing_too: bool = False
) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node) and not typing_too:
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        else:
            yield from _import_nodes(node, typing_too=typing_too)


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
def imports_of(module: str, *, typing_too: bool = False) -> frozenset[str]:
    """The modules ``module`` imports (absolute names; third-party ones too).

    ``typing_too``: also those imported only for type checkers.
    """
    path = sources()[module]
    names: set[str] = set()
    tree = ast.parse(path.read_text(), str(path))
    for node in _import_nodes(tree, typing_too=typing_too):
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


def closure(start: str, *, parents: bool = True) -> set[str]:
    """Everything importing ``start`` loads, transitively (within reverie, plus the leaves).

    ``parents=False`` leaves out the packages' ``__init__`` run on the way: the
    question is then what the code needs, not what Python happens to load.
    """
    seen: set[str] = set()
    todo = [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in sources():
            todo.extend(imports_of(name))
            if parents:
                todo.extend(_loaded_with(name))
    return seen


def test_the_source_tree_is_found() -> None:
    names = sources()
    assert {"reverie", "reverie.daemon.client", "reverie.store.files.db"} <= names.keys()
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


def test_the_frameworks_are_imported_only_by_their_adapters() -> None:
    """The daemon and the client load without the extras; an adapter only with its own."""
    assert set(ADAPTERS) <= sources().keys()
    broken = [
        f"{module} -> {name}"
        for module in sources()
        for adapter, frameworks in ADAPTERS.items()
        if not _within(module, adapter)
        for name in imports_of(module)
        if any(_within(name, f) for f in frameworks)
    ]
    assert broken == []


@pytest.mark.parametrize(("why", "starts", "forbidden"), BOUNDARIES, ids=[b[0] for b in BOUNDARIES])
def test_boundaries_inside_a_layer(why: str, starts: list[str], forbidden: list[str]) -> None:
    modules = [m for m in sources() if any(_within(m, s) for s in starts)]
    assert modules, f"no module under {starts}"
    bad = sorted(
        f"{m} needs {n}"
        for m in modules
        for n in closure(m, parents=False)
        if any(_within(n, f) for f in forbidden)
    )
    assert bad == [], why


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
    Imports for type checkers count: they hide a cycle, they do not break it.
    """
    graph = {
        m: sorted(n for n in imports_of(m, typing_too=True) if n in sources() and not _within(n, m))
        for m in sources()
    }
    cycles = [c for m in graph if (c := _cycle_from(graph, m))]
    assert cycles == []


#: Host-side tools: they reach the daemon through the client, like any host.
HOST_TOOLS = ("reverie.daemon.cli", "reverie.daemon.mcp", "reverie.daemon.ui")
#: What they may import of the daemon besides themselves (``door_token``: the
#: HTTP doors' secret, read from a file; stdlib only).
HOST_TOOLS_MAY_USE = (
    "reverie.daemon.client",
    "reverie.daemon.protocol",
    "reverie.daemon.version",
    "reverie.daemon.door_token",
)
#: ``reverie serve`` and ``install-units`` run the daemon's own machinery;
#: ``reverie cluster --store`` reads the database with it, no daemon asked.
DAEMON_SIDE_COMMANDS = ("reverie.daemon.cli.serve", "reverie.daemon.cli.cluster_store")


def test_the_cli_and_mcp_reach_the_daemon_only_through_the_client() -> None:
    allowed = (*HOST_TOOLS, *HOST_TOOLS_MAY_USE)
    broken = [
        f"{module} -> {name}"
        for module in sources()
        if any(_within(module, tool) for tool in HOST_TOOLS) and module not in DAEMON_SIDE_COMMANDS
        for name in imports_of(module)
        if any(_within(name, layer) for layer in LAYERS)
        and name != "reverie.daemon"
        and not any(_within(name, ok) for ok in allowed)
    ]
    assert broken == []


def test_search_imports_of_the_actors_only_their_shared_services() -> None:
    """Search is a package of its own: it follows the sessions through the hooks alone.

    Not the session or working-memory actors, their registries, nor
    consolidation; and LanceDB, Arrow and SQLite only through the store.
    """
    broken = [
        f"{module} -> {name}"
        for module in sources()
        if _within(module, SEARCH)
        for name in imports_of(module)
        if (_within(name, "reverie.actors") and not _within(name, SEARCH) and name != SEARCH_USES)
        or any(_within(name, bad) for bad in SEARCH_FORBIDDEN)
    ]
    assert broken == []


#: Lines past which a module is a smell: a module holds one concept, and one
#: this long usually holds two. An alarm to look, not a rule to split by:
#: a concept split only to pass a cap (one class over five files) is worse.
SMELL_LINES = 600


def test_no_module_is_over_the_smell_ceiling() -> None:
    long = {
        m: n
        for m, path in sources().items()
        if (n := len(path.read_text().splitlines())) > SMELL_LINES
    }
    assert long == {}, f"over {SMELL_LINES} lines: does each hold one concept?"


#: Folders of Python that no type checker reads (mypy's no-redef guards the code folders).
_UNCHECKED = ["tests", "bench", "evals", "examples"]


def test_no_module_defines_a_top_level_function_or_class_twice() -> None:
    """A second ``def`` of a name silently replaces the first for every caller, the
    earlier ones too (ruff's F811 is quiet once the name was used in between): a test
    once polled another test's helper and so never made the retry it asserted on."""
    twice = {}
    for folder in _UNCHECKED:
        for path in (ROOT / folder).rglob("*.py"):
            body = ast.parse(path.read_text(), str(path)).body
            defs = [
                n.name
                for n in body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
            ]
            if dup := sorted({n for n in defs if defs.count(n) > 1}):
                twice[str(path.relative_to(ROOT))] = dup
    assert twice == {}, "defined twice at top level: the later one replaces the earlier"


def test_every_heavy_test_file_exists() -> None:
    """``make test``'s scheduler runs these one at a time (tests/conftest.py); a renamed
    file would silently leave the unit and compete for the cores again."""
    from tests.conftest import HEAVY_FILES

    root = Path(__file__).resolve().parent.parent
    assert sorted(f for f in HEAVY_FILES if not (root / f).is_file()) == []
