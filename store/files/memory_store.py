"""The memory tree behind an async facade, as ``Database`` is for SQLite.

``MemoryFiles`` blocks (it reads, writes, fsyncs and renames); actors await
``FileMemoryStore`` instead (the file engine's ``MemoryStore``), which runs each call in a worker thread, so the
event loop never waits on the disk. Each call is one step under the tree's
lock: ``write_consolidation`` checks and writes in one step, so a
consolidation computed from a ``MEMORY.md`` that changed meanwhile (an
edit, a forget, another session of the scope) is refused, never written
over the change.

``files`` is the blocking tree itself, for code that already runs in a
thread (the search index's rebuild, ``backup``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import trio

from ..base.journal import ForgetJob
from ..base.memory_store import Consolidated
from ..history import HistoryEntry
from .memory_files import MemoryFiles
from .memory_forget import forget_files
from .memory_scan import MemoryScan, scope_problems

__all__ = ["FileMemoryStore"]

T = TypeVar("T")


class FileMemoryStore:
    """Async access to the memory tree under ``files.root``; every call runs in a thread."""

    def __init__(self, files: MemoryFiles) -> None:
        self.files = files
        self._scan = MemoryScan(files)

    @property
    def root(self) -> Path:
        return self.files.root

    @staticmethod
    async def _run(fn: Callable[[], T]) -> T:
        return await trio.to_thread.run_sync(fn)

    async def read_memory(self, scope: str) -> str:
        """The scope's ``MEMORY.md`` ("" when it has none)."""
        return await self._run(lambda: self.files.read_memory(scope))

    async def version(self, scope: str) -> tuple[int, float] | None:
        """None: one daemon owns the data dir (a hand edit is the watcher's to report)."""
        return None

    async def write_memory(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` atomically."""
        await self._run(lambda: self.files.write_memory(scope, text))

    async def entries(self, scope: str, limit: int | None = None) -> list[HistoryEntry]:
        """The scope's history entries, oldest first; the newest ``limit`` if given."""
        return await self._run(lambda: self.files.entries(scope, limit=limit))

    async def has_entry(self, scope: str, entry_id: str) -> bool:
        """Whether the scope's history holds the entry ``entry_id``."""
        return await self._run(lambda: entry_id in self.files.entry_ids(scope))

    async def write_consolidation(
        self, entry: HistoryEntry, memory: str, base: str
    ) -> Consolidated:
        """Write a consolidation's ``MEMORY.md`` (``memory``), then its history ``entry``.

        ``base`` is the ``MEMORY.md`` that ``memory`` was computed from: if
        the file holds anything else now, nothing is written ("moved").
        Memory is written first: the entry marks the job's files as done, so
        a replay after a crash finds it ("present") and writes nothing twice.
        """

        def write() -> Consolidated:
            with self.files.paused():
                if entry.id in self.files.entry_ids(entry.scope):
                    return "present"
                if self.files.read_memory(entry.scope) != base:
                    return "moved"
                self.files.write_memory(entry.scope, memory)
                self.files.append_entry(entry)
                return "written"

        return await self._run(write)

    async def forget(self, job: ForgetJob) -> int:
        """Remove ``job``'s traces from the Markdown; how many episodes and facts went."""
        return await self._run(lambda: forget_files(self.files, job))

    async def scopes(self) -> list[str]:
        """Every scope with a directory in the tree, sorted."""
        return await self._run(self.files.scopes)

    async def problems(self, scope: str) -> list[str]:
        """What cannot be read exactly in the scope's Markdown, file by file."""
        return await self._run(lambda: scope_problems(self.files, scope))

    async def scan(self, initial: bool = False) -> dict[str, list[Path]]:
        """The scopes edited outside reverie since the last scan (see ``MemoryScan``).

        One scan at a time: the caller (the memory watcher) is one task.
        """
        return await self._run(lambda: self._scan.scan(initial))
