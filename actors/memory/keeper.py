"""The one owner of long-term memory: every scope's ``MEMORY.md`` and history files.

Whatever changes the memory tree goes through the ``MemoryKeeper``: a
consolidation's new memory and history entry, an edit (``memory_edit``),
a forget (a fact, a session's traces, a whole scope), and a hand edit the
watcher noticed. So it alone knows when a scope's memory changed: it keeps
the memory prefix ``context`` puts before the tail in a small LRU cache,
drops a scope's entry on every change, and tells the scope's followers (the
search index) about edits. Nothing here blocks the event loop: the files
are read and written through ``MemoryStore``, in worker threads.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable

import trio

from reverie.store import (
    Consolidated,
    ForgetJob,
    HistoryEntry,
    MemoryStore,
    MemoryUnreadable,
    prompt_view,
)

from ..services import SessionHooks

__all__ = ["MemoryKeeper"]

log = logging.getLogger(__name__)
#: Scopes whose ``MEMORY.md`` and memory prefix are kept in memory, least recently read first out.
PREFIX_CACHE = 1024


class MemoryKeeper:
    """Reads and writes the memory tree; ``followers`` hear of edits (``memory_edited``)."""

    def __init__(self, store: MemoryStore, followers: SessionHooks) -> None:
        self.store = store
        self.followers = followers
        #: scope -> (its ``MEMORY.md``, the prefix ``context`` shows of it, and the store's
        #: version of it when others write it too: a copy of another version is stale)
        self._prefixes: OrderedDict[str, tuple[str, str, object]] = OrderedDict()
        self._changes = 0  # bumped on every change: a read racing one is not cached
        self._editing = trio.Lock()  # explicit edits: one read-modify-write at a time

    async def prefix(self, scope: str) -> str:
        """The scope's memory as ``context`` puts it before the tail: no source comments.

        An unreadable ``MEMORY.md`` (``MemoryUnreadable``: not UTF-8, a symbolic
        link) gives "", uncached: the tail is still served, the file is logged,
        and the watcher lists it in ``status`` until it is fixed.
        """
        try:
            return (await self._cached(scope))[1]
        except MemoryUnreadable as exc:  # one bad file must not take every session's context
            log.warning("%s; contexts of scope %r are served without it", exc.message, scope)
            return ""

    async def text(self, scope: str) -> str:
        """The scope's ``MEMORY.md`` as it is in the file, sources and all (an unreadable one
        raises ``MemoryUnreadable``: nothing is written over a file that was not read)."""
        return (await self._cached(scope))[0]

    async def _cached(self, scope: str) -> tuple[str, str]:
        version = await self.store.version(scope)
        cached = self._prefixes.get(scope)
        if cached is not None and cached[2] == version:
            self._prefixes.move_to_end(scope)
            return cached[0], cached[1]
        changes = self._changes
        text = await self.store.read_memory(scope)
        both = (text, prompt_view(text))
        if changes == self._changes:
            self._prefixes[scope] = (*both, version)
            if len(self._prefixes) > PREFIX_CACHE:
                self._prefixes.popitem(last=False)
        return both

    async def read(self, scope: str, limit: int) -> tuple[str, list[HistoryEntry]]:
        """The scope's ``MEMORY.md`` and its newest ``limit`` history entries."""
        return await self.text(scope), await self.store.entries(scope, limit=limit)

    async def edit(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` (an explicit edit: the memory prefix changes)."""
        async with self._editing:
            await self._write(scope, text)

    async def change(self, scope: str, change: Callable[[str], str | None]) -> str | None:
        """Apply ``change`` to the scope's ``MEMORY.md`` and write the result (None: no change).

        Edits one after another, so two fact edits never lose one another; a
        consolidation that read the file before is refused ("moved") and
        distils again.
        """
        async with self._editing:
            text = await self.text(scope)
            new = change(text)
            if new is not None and new != text:
                await self._write(scope, new)
            return new

    async def _write(self, scope: str, text: str) -> None:
        await self.store.write_memory(scope, text)
        self.edited(scope)

    def edited(self, scope: str) -> None:
        """The scope's Markdown changed outside a consolidation: re-read it, re-index it."""
        self.changed(scope)
        self.followers.memory_edited(scope)

    def changed(self, scope: str) -> None:
        """The scope's Markdown changed: the next ``prefix`` reads the file."""
        self._changes += 1
        self._prefixes.pop(scope, None)

    async def has_entry(self, scope: str, entry_id: str) -> bool:
        """Whether the scope's history holds ``entry_id`` (a job written before a crash)."""
        return await self.store.has_entry(scope, entry_id)

    async def write_consolidation(
        self, entry: HistoryEntry, memory: str, base: str
    ) -> Consolidated:
        """A consolidation's files: ``memory`` as the scope's ``MEMORY.md``, then ``entry``.

        Refused ("moved") when ``MEMORY.md`` is no longer ``base``, what the
        job read: the job is distilled again from the file as it is now.
        """
        outcome = await self.store.write_consolidation(entry, memory, base)
        self.changed(entry.scope)  # also when "moved": the prefix the job read was stale
        return outcome

    async def forget(self, job: ForgetJob) -> int:
        """Remove ``job``'s traces from the scope's Markdown; how many episodes and facts went."""
        removed = await self.store.forget(job)
        self.changed(job.scope)
        return removed

    async def entries(self, scope: str) -> list[HistoryEntry]:
        """Every history entry of the scope, oldest first."""
        return await self.store.entries(scope)

    async def problems(self, scope: str) -> list[str]:
        """What cannot be read exactly in the scope's Markdown, file by file."""
        return await self.store.problems(scope)
