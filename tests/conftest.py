"""Shared fixtures: a real daemon process on a Unix socket under tmp_path."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM
from tests.postgres import PgServer, session_server


@pytest.fixture
def make_daemon(tmp_path: Path) -> Iterator[Callable[..., DaemonProcess]]:
    """Start daemons (``make_daemon(env=..., config=..., open_files=...)``); all are stopped at teardown."""
    started: list[DaemonProcess] = []

    def make(
        env: dict[str, str] | None = None,
        config: str | None = None,
        name: str = "d",
        open_files: int | None = None,
    ) -> DaemonProcess:
        root = tmp_path / name
        root.mkdir(exist_ok=True)
        daemon = DaemonProcess(root, env=env, config=config, open_files=open_files)
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
