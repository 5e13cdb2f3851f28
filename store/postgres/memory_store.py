"""Each scope's memory and history in Postgres, behind the file engine's ``MemoryStore`` API.

Actors await the same calls as on the Markdown tree (``store/files/memory_store.py``)
and get the same text back, byte for byte; the rows and their SQL are
``memory_rows``'s. Every call is one transaction of the engine's
``PostgresDatabase`` (a read in a snapshot, a write group-committed), so
``write_consolidation`` writes the entry and the new memory version in one
commit or not at all.

What the file engine has and this one does not: a tree on disk. Nothing
edits rows behind the daemon, so ``scan`` always reports nothing, and
history rows are only ever written by reverie, rendered, so only
``MEMORY.md`` (which ``memory edit`` writes as given) can have problems.
Postgres text cannot hold NUL, which a file could: such text is refused.
"""

from __future__ import annotations

from pathlib import Path

from reverie.config import InvalidArgument
from reverie.store import Consolidated, ForgetJob, HistoryEntry, parse_memory, render_entry

from . import memory_rows as rows
from .db import PostgresDatabase
from .memory_changes import MemoryChanges

__all__ = ["MemoryStore", "check_consolidation"]


def _scope(scope: str) -> str:
    """``scope`` if a row can hold it; ``InvalidArgument`` as the file engine gives for ""."""
    if not scope:
        raise InvalidArgument("scope must not be empty")
    return _text(scope, "scope")


def _text(text: str, what: str) -> str:
    """``text`` if Postgres can store it, else ``InvalidArgument`` naming ``what``.

    A lone surrogate raises ``UnicodeEncodeError`` here, before any SQL,
    as writing it to a file does in the file engine.
    """
    text.encode("utf-8")
    if "\x00" in text:
        raise InvalidArgument(
            f"{what} contains a NUL character (\\x00), which the Postgres store cannot keep;"
            " remove it"
        )
    return text


def check_consolidation(entry: HistoryEntry, memory: str) -> None:
    """``InvalidArgument`` unless a row can hold the consolidation's memory and entry."""
    _scope(entry.scope)
    _text(memory, f"the memory of scope {entry.scope!r}")
    _text(entry.session, "the session name")
    _text(render_entry(entry), f"history entry {entry.id!r}")


class MemoryStore:
    """The scopes' ``MEMORY.md`` and history entries as rows of the database ``db``."""

    def __init__(self, db: PostgresDatabase) -> None:
        self.db = db
        self._changes = MemoryChanges()

    async def read_memory(self, scope: str) -> str:
        """The scope's ``MEMORY.md`` ("" when it has none)."""
        _scope(scope)
        return (await self.db.read(lambda t: rows.newest_memory(t.conn, scope)))[1]

    async def version(self, scope: str) -> tuple[int, float] | None:
        """The current version and when it was written: other daemons write it too, and
        a whole scope's forget starts the versions again, so the time tells them apart."""
        _scope(scope)
        return await self.db.read(lambda t: rows.memory_version(t.conn, scope))

    async def write_memory(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` (a new version)."""
        _scope(scope)
        _text(text, f"the memory of scope {scope!r}")
        await self.db.write(lambda t: rows.write_memory(t.conn, scope, text))

    async def entries(self, scope: str, limit: int | None = None) -> list[HistoryEntry]:
        """The scope's history entries, oldest first; the newest ``limit`` if given."""
        _scope(scope)
        return await self.db.read(lambda t: rows.entries(t.conn, scope, limit))

    async def has_entry(self, scope: str, entry_id: str) -> bool:
        """Whether the scope's history holds the entry ``entry_id``."""
        _scope(scope)
        _text(entry_id, "the entry id")
        return await self.db.read(lambda t: rows.has_entry(t.conn, scope, entry_id))

    async def write_consolidation(
        self, entry: HistoryEntry, memory: str, base: str
    ) -> Consolidated:
        """A consolidation's ``MEMORY.md`` (``memory``) and history ``entry``, in one commit.

        "moved" (nothing written) when the memory is no longer ``base``, what
        ``memory`` was computed from; "present" when the entry is already
        there (a replay after a crash); else "written".
        """
        check_consolidation(entry, memory)
        return await self.db.write(lambda t: rows.write_consolidation(t.conn, entry, memory, base))

    async def forget(self, job: ForgetJob) -> int:
        """Remove ``job``'s traces from the scope's memory (every version) and history;
        how many episodes and facts went."""
        _scope(job.scope)
        for text, what in ((job.session, "the session name"), (job.fact, "the fact")):
            if text is not None:
                _text(text, what)
        return await self.db.write(lambda t: rows.forget(t.conn, job))

    async def scopes(self) -> list[str]:
        """Every scope with a memory or a history entry, sorted."""
        return await self.db.read(lambda t: rows.scopes(t.conn))

    async def problems(self, scope: str) -> list[str]:
        """What cannot be read exactly in the scope's ``MEMORY.md`` (history rows are
        written by reverie only, rendered, so they always read back)."""
        return [f"MEMORY.md: {p}" for p in parse_memory(await self.read_memory(scope))[1]]

    async def scan(self, initial: bool = False) -> dict[str, list[Path]]:
        """The scopes whose memory or history another daemon or worker wrote since the
        last scan (``memory_changes``); no file names (there are no files)."""
        if initial:
            await self.db.read(lambda t: self._changes.start(t.conn))
            return {}
        return {scope: [] for scope in await self.db.read(lambda t: self._changes.look(t.conn))}

    async def history_days(self, scope: str) -> dict[str, str]:
        """The scope's history by UTC day, each the text of the file engine's day file."""
        _scope(scope)
        return await self.db.read(lambda t: rows.history_days(t.conn, scope))
