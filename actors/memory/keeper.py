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

from reverie.store import Consolidated, ForgetJob, HistoryEntry, MemoryStore, MemoryUnreadable

from ..services import SessionHooks

__all__ = ["MemoryKeeper"]

log = logging.getLogger(__name__)
#: Scopes whose memory prefix is kept in memory, least recently read dropped first.
PREFIX_CACHE = 1024


class MemoryKeeper:
    """Reads and writes the memory tree; ``followers`` hear of edits (``memory_edited``)."""

    def __init__(self, store: MemoryStore, followers: SessionHooks) -> None:
        self.store = store
        self.followers = followers
        self._prefixes: OrderedDict[str, str] = OrderedDict()
        self._changes = 0  # bumped on every change: a read racing one is not cached

    async def prefix(self, scope: str) -> str:
        """The scope's ``MEMORY.md``, as ``context`` puts it before the tail.

        An unreadable one (``MemoryUnreadable``: not UTF-8, a symbolic link)
        gives "", uncached: the tail is still served, the file is logged, and
        the watcher lists it in ``status`` until it is fixed.
        """
        cached = self._prefixes.get(scope)
        if cached is not None:
            self._prefixes.move_to_end(scope)
            return cached
        changes = self._changes
        try:
            text = await self.store.read_memory(scope)
        except MemoryUnreadable as exc:  # one bad file must not take every session's context
            log.warning("%s; contexts of scope %r are served without it", exc.message, scope)
            return ""
        if changes == self._changes:
            self._prefixes[scope] = text
            if len(self._prefixes) > PREFIX_CACHE:
                self._prefixes.popitem(last=False)
        return text

    async def read(self, scope: str, limit: int) -> tuple[str, list[HistoryEntry]]:
        """The scope's ``MEMORY.md`` and its newest ``limit`` history entries."""
        return await self.prefix(scope), await self.store.entries(scope, limit=limit)

    async def edit(self, scope: str, text: str) -> None:
        """Replace the scope's ``MEMORY.md`` (an explicit edit: the memory prefix changes)."""
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

    async def problems(self, scope: str) -> list[str]:
        """What cannot be read exactly in the scope's Markdown, file by file."""
        return await self.store.problems(scope)
