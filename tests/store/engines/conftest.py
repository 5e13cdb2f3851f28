"""The conformance suite (Akka's TCK in small): each test here runs once per engine.

``engine`` and ``memory_store`` give each engine in turn on a fresh store
(engine.py); a test here states what every engine must do, once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from reverie.store.files.memory_files import MemoryFiles
from reverie.store.files.memory_store import FileMemoryStore
from reverie.store.postgres.memory_store import MemoryStore

from .engine import ENGINES, Engine, opened, postgres_memory


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    with opened(request.param, request, tmp_path) as e:
        yield e


@pytest.fixture(params=ENGINES)
async def memory_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[FileMemoryStore | MemoryStore]:
    """Each engine's ``MemoryStore`` on a fresh store: the Markdown tree under tmp_path, or
    the rows of a database of its own."""
    if request.param == "files":
        yield FileMemoryStore(MemoryFiles(tmp_path / "memory"))
        return
    async with postgres_memory(request.getfixturevalue("pg_url")) as store:
        yield store
