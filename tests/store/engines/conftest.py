"""The conformance suite (Akka's TCK in small): each test here runs once per engine.

``engine``, ``db`` and ``memory_store`` give each engine in turn on a fresh
store (engine.py); a test here states what every engine must do, once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from reverie.store import GroupCommit
from reverie.store.files.memory_files import MemoryFiles
from reverie.store.files.memory_store import FileMemoryStore
from reverie.store.postgres.memory_store import MemoryStore

from .engine import ENGINES, Engine, database_of, opened, postgres_memory


@pytest.fixture(params=ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    """Each engine in turn, by its package's name."""
    return str(request.param)


@pytest.fixture
def engine(engine_name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """The engine's concept modules and a ``Tx`` on one connection to a fresh store."""
    with opened(engine_name, request, tmp_path) as e:
        yield e


@pytest.fixture
async def db(
    engine_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[GroupCommit[Any]]:
    """The engine's group-commit database on a fresh store, open."""
    database = database_of(engine_name, request, tmp_path)
    await database.open()
    yield database
    await database.close()


@pytest.fixture
async def memory_store(
    engine_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[FileMemoryStore | MemoryStore]:
    """Each engine's ``MemoryStore`` on a fresh store: the Markdown tree under tmp_path, or
    the rows of a database of its own."""
    if engine_name == "files":
        yield FileMemoryStore(MemoryFiles(tmp_path / "memory"))
        return
    async with postgres_memory(request.getfixturevalue("pg_url")) as store:
        yield store
