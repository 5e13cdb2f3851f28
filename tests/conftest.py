"""Shared fixtures: a real daemon on a Unix socket under tmp_path, as a process or in-process.

``make_daemon``/``daemon`` start ``reverie serve`` subprocesses (tests/daemon_process.py);
a test module whose tests only talk to the daemon through clients overrides
``make_daemon`` with ``make_served`` (the same daemon in this process,
tests/inprocess.py), and one whose tests only read and write under session
names of their own shares one daemon per module and engine (``shared_daemon``).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import re
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM
from tests.inprocess import InProcessDaemon
from tests.postgres import PgServer, session_server

ENGINES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "engines: runs on both storage engines (daemon_engine: sqlite, postgres)"
    )
    config.addinivalue_line(
        "markers",
        "in_process: make_daemon and daemon run in the test's process (tests/inprocess.py); "
        "in_process(False) on a test of such a module: processes",
    )
    config.addinivalue_line(
        "markers", "files: about the file engine's own files (hand edits): SQLite only"
    )


#: Test files with a test that keeps both cores busy for tens of seconds (daemons under
#: kill -9 and faults, 64 appending threads, thousands of rows embedded, pip installing
#: ~750 MB, the real model). Under ``make test``'s xdist workers they are one work unit,
#: handed out first: they run one after another on one worker while the other takes the
#: rest, so two of them never compete for the 2 cores.
HEAVY_FILES = frozenset(
    {
        "tests/cluster/test_acceptance.py",
        "tests/cluster/test_forget_races.py",
        "tests/daemon/test_backup.py",
        "tests/daemon/test_index_memory.py",
        "tests/llm/test_real_model.py",
        "tests/test_packaging.py",
        "tests/torture/test_crash_loop.py",
    }
)


def _work_unit(nodeid: str) -> str:
    """A test's unit of work under xdist: its file (so a module's shared daemons start
    once), or ``heavy`` for the files of ``HEAVY_FILES``."""
    path = nodeid.split("::", 1)[0]
    return "heavy" if path in HEAVY_FILES else path


@pytest.hookimpl(optionalhook=True)  # a plain `pytest` without xdist installed still runs
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile`` with the heavy files as one unit (xdist 3.8's ``xdist_group``
    marks do not reach its scheduler under pytest 9: they rename ``item._nodeid``)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class FileScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _work_unit(nodeid)

    return FileScheduling(config, log)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """On an xdist worker, the order the units are handed out in (``--no-loadscope-reorder``):
    the heavy unit first (the longest), then the files with the most tests, so that no
    long file starts last while the other worker idles."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        return
    units = {item: _work_unit(item.nodeid) for item in items}
    sizes = Counter(units.values())
    items.sort(key=lambda item: (units[item] != "heavy", -sizes[units[item]]))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``engines`` that starts a daemon runs once per engine; others on SQLite."""
    if "daemon_engine" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker("engines") is not None
        files = metafunc.definition.get_closest_marker("files") is not None
        metafunc.parametrize(
            "daemon_engine",
            ENGINES if marked and not files else ENGINES[:1],
            scope="module",  # so a module's shared daemon can depend on it
        )


class _Databases:
    """A database of its own per daemon name on Postgres (nothing on SQLite); dropped at close."""

    def __init__(self, server: PgServer | None) -> None:
        self.server = server
        self.databases: dict[str, str] = {}

    def env(self, name: str) -> dict[str, str]:
        if self.server is None:
            return {}
        if name not in self.databases:
            self.databases[name] = self.server.create_database()
        return {"REVERIE_STORE__URL": self.server.url(self.databases[name])}

    def close(self) -> None:
        for database in self.databases.values():
            with contextlib.suppress(Exception):
                assert self.server is not None
                self.server.drop_database(database)


def _databases(daemon_engine: str, request: pytest.FixtureRequest) -> _Databases:
    return _Databases(request.getfixturevalue("pg_server") if daemon_engine == "postgres" else None)


@pytest.fixture
def store_env(
    daemon_engine: str, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], dict[str, str]]]:
    """The environment that points the daemon named ``name`` at its store: nothing for
    SQLite (its data dir), ``REVERIE_STORE__URL`` of a database of its own for Postgres
    (the same one when a daemon of that name starts again); dropped after the test."""
    databases = _databases(daemon_engine, request)
    yield databases.env
    databases.close()


@pytest.fixture
def make_daemon_process(
    tmp_path: Path, store_env: Callable[[str], dict[str, str]]
) -> Iterator[Callable[..., DaemonProcess]]:
    """Start daemon processes (``make_daemon(env=..., config=..., open_files=...)``); all are
    stopped at teardown. Each ``name`` has its own data dir and, on Postgres, its own database."""
    started: list[DaemonProcess] = []

    def make(
        env: dict[str, str] | None = None,
        config: str | None = None,
        name: str = "d",
        open_files: int | None = None,
    ) -> DaemonProcess:
        root = tmp_path / name
        root.mkdir(exist_ok=True)
        daemon = DaemonProcess(
            root, env={**store_env(name), **(env or {})}, config=config, open_files=open_files
        )
        started.append(daemon.start())
        return daemon

    yield make
    for daemon in started:
        with contextlib.suppress(Exception):
            daemon.stop()


@pytest.fixture
def make_daemon(
    request: pytest.FixtureRequest, daemon_engine: str
) -> Callable[..., DaemonProcess | InProcessDaemon]:
    """``make_daemon_process`` by default; ``make_served`` for a test marked ``in_process``
    (which still has ``make_daemon_process`` for a daemon whose process is the point, and
    ``in_process(False)`` for a test whose fixtures make it). ``daemon_engine`` is named so
    that the test is parametrized over the engines."""
    marker = request.node.get_closest_marker("in_process")
    if marker is not None and (not marker.args or marker.args[0]):
        return request.getfixturevalue("make_served")
    return request.getfixturevalue("make_daemon_process")


@pytest.fixture
def daemon(
    make_daemon: Callable[..., DaemonProcess | InProcessDaemon],
) -> DaemonProcess | InProcessDaemon:
    return make_daemon()


@pytest.fixture
def daemon_process(make_daemon_process: Callable[..., DaemonProcess]) -> DaemonProcess:
    """A daemon process in a module marked ``in_process``: for a test about the process."""
    return make_daemon_process()


@pytest.fixture(scope="session")
def embedding_model(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """The embedding model's int8 rewrite, made once for the session's in-process daemons
    (tests/inprocess.py); None if it cannot be made (they then make or skip it themselves)."""
    from reverie.store.embed.model_file import compact_model, shipped_model

    made = compact_model(tmp_path_factory.mktemp("models"))
    return None if made == shipped_model() else made


@pytest.fixture
def make_served(
    tmp_path: Path, store_env: Callable[[str], dict[str, str]], embedding_model: Path | None
) -> Iterator[Callable[..., InProcessDaemon]]:
    """Start in-process daemons (``make_served(env=..., config=..., name=...)``), as
    ``make_daemon`` does processes. At teardown each is stopped, and one that crashed
    fails the test there with the daemon's error."""
    started: list[InProcessDaemon] = []

    def make(
        env: dict[str, str] | None = None, config: str | None = None, name: str = "d"
    ) -> InProcessDaemon:
        root = tmp_path / name
        root.mkdir(exist_ok=True)
        daemon = InProcessDaemon(
            root, env={**store_env(name), **(env or {})}, config=config, model=embedding_model
        )
        started.append(daemon.start())
        return daemon

    yield make
    errors = []
    for daemon in started:
        try:
            daemon.stop()
        except RuntimeError as exc:
            errors.append(exc)
    if errors:
        raise errors[0]


@pytest.fixture(scope="module")
def shared_daemon(
    daemon_engine: str,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    embedding_model: Path | None,
) -> Iterator[InProcessDaemon]:
    """One in-process daemon with the default configuration for every test of a module (per
    engine): for tests that only read and write, each under session names of its own
    (``unique``), so that no test sees another's data."""
    databases = _databases(daemon_engine, request)
    daemon = InProcessDaemon(
        tmp_path_factory.mktemp("shared"), env=databases.env("shared"), model=embedding_model
    )
    try:
        yield daemon.start()
        daemon.stop()
    finally:
        databases.close()


_names = itertools.count(1)


@pytest.fixture
def unique(request: pytest.FixtureRequest) -> Callable[[str], str]:
    """Names of this test's own on a shared daemon: ``unique("s")`` is ``s`` suffixed with
    the test's name and a counter (sessions, scopes, keys)."""
    test = re.sub(r"[^a-z0-9]+", "-", request.node.name.lower()).strip("-")[-40:]

    def name(base: str) -> str:
        return f"{base}-{test}-{next(_names)}"

    return name


@pytest.fixture(autouse=True)
def _tiktoken_cache_dir_kept() -> Iterator[None]:
    """A daemon served in the test's process sets ``TIKTOKEN_CACHE_DIR`` for the process
    (daemon/app.py); the tests after it on this worker must not inherit it
    (tests/daemon/test_data_dir.py skips when it is set)."""
    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    yield
    if before is None:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)
    else:
        os.environ["TIKTOKEN_CACHE_DIR"] = before


@pytest.fixture
def fake_llm() -> Iterator[FakeLLM]:
    """A scripted OpenAI-compatible server on 127.0.0.1, closed after the test."""
    with FakeLLM() as server:
        yield server


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One real PostgreSQL with pgvector for the session (tests/postgres.py)."""
    yield from session_server()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """A fresh database of its own for one test, with the extensions; dropped after."""
    name = pg_server.create_database()
    yield pg_server.url(name)
    with contextlib.suppress(Exception):
        pg_server.drop_database(name)
