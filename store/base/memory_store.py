"""What the actors ask of a scope's long-term memory, whichever engine keeps it.

Each scope has one ``MEMORY.md`` text and a history of entries. The file
engine keeps them as Markdown files in the data dir (``FileMemoryStore``),
the Postgres engine as versioned rows (``postgres.memory_store``); both give
back the same text, byte for byte, for the same calls.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from ..history import HistoryEntry
    from .journal import ForgetJob

__all__ = ["Consolidated", "MemoryStore"]

#: What ``write_consolidation`` did: wrote the entry and the memory; found the entry
#: already written (a replay: nothing to do); or refused, ``MEMORY.md`` having moved on.
Consolidated = Literal["written", "present", "moved"]


class MemoryStore(Protocol):
    """A scope's ``MEMORY.md`` and history; every call is one step, off the event loop."""

    async def read_memory(self, scope: str) -> str:
        """The scope's ``MEMORY.md`` ("" when it has none)."""
        ...

    async def write_memory(self, scope: str, text: str) -> None: ...

    async def version(self, scope: str) -> tuple[int, float] | None:
        """What identifies the scope's current ``MEMORY.md`` when other processes may write
        it (a copy read at another value is stale); None when only this process writes it
        (what it last read or wrote is still true)."""
        ...

    async def entries(self, scope: str, limit: int | None = None) -> list[HistoryEntry]:
        """The scope's history entries, oldest first; the newest ``limit`` if given."""
        ...

    async def has_entry(self, scope: str, entry_id: str) -> bool: ...

    async def write_consolidation(
        self, entry: HistoryEntry, memory: str, base: str
    ) -> Consolidated:
        """The entry and the new memory in one step, unless the memory is no longer ``base``."""
        ...

    async def forget(self, job: ForgetJob) -> int:
        """Remove ``job``'s traces; how many episodes and facts went."""
        ...

    async def scopes(self) -> list[str]: ...

    async def problems(self, scope: str) -> list[str]:
        """What cannot be read exactly in the scope's memory (edited by hand)."""
        ...

    async def scan(self, initial: bool = False) -> dict[str, list[Path]]:
        """The scopes edited outside reverie since the last scan, with the files edited."""
        ...
