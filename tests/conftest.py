"""Shared fixtures: a real daemon process on a Unix socket under tmp_path."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM
from tests.postgres import PgServer, session_server

ENGINES = ("sqlite", "postgres")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "engines: runs on both storage engines (daemon_engine: sqlite, postgres)"
    )
    config.addinivalue_line(
        "markers", "files: about the file engine's own files (hand edits): SQLite only"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test marked ``engines`` that starts a daemon runs once per engine; others on SQLite."""
    if "daemon_engine" in metafunc.fixturenames:
        marked = metafunc.definition.get_closest_marker("engines") is not None
        files = metafunc.definition.get_closest_marker("files") is not None
        metafunc.parametrize("daemon_engine", ENGINES if marked and not files else ENGINES[:1])


@pytest.fixture
def store_env(
    daemon_engine: str, request: pytest.FixtureRequest
) -> Iterator[Callable[[str], dict[str, str]]]:
    """The environment that points the daemon named ``name`` at its store: nothing for
    SQLite (its data dir), ``REVERIE_STORE__URL`` of a database of its own for Postgres
    (the same one when a daemon of that name starts again); dropped after the test."""
    databases: dict[str, str] = {}
    server: PgServer | None = (
        request.getfixturevalue("pg_server") if daemon_engine == "postgres" else None
    )

    def env(name: str) -> dict[str, str]:
        if server is None:
            return {}
        if name not in databases:
            databases[name] = server.create_database()
        return {"REVERIE_STORE__URL": server.url(databases[name])}

    yield env
    for database in databases.values():
        with contextlib.suppress(Exception):
            assert server is not None
            server.drop_database(database)


@pytest.fixture
def make_daemon(
    tmp_path: Path, store_env: Callable[[str], dict[str, str]]
) -> Iterator[Callable[..., DaemonProcess]]:
    """Start daemons (``make_daemon(env=..., config=..., open_files=...)``); all are stopped
    at teardown. Each ``name`` has its own data dir and, on Postgres, its own database."""
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
def daemon(make_daemon: Callable[..., DaemonProcess]) -> DaemonProcess:
    return make_daemon()


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
