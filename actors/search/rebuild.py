"""Building a search index from its sources: the message log and the memory tree.

A full rebuild (``Rebuild``) fills a new index directory while the old index
goes on serving: first every message up to the log's end and every scope's
history and facts, then, with the follower held off by the indexer's write
lock, what arrived during the build (``catch_up``). The indexer then swaps
directories in one SQLite commit. The follower shares the pieces with the
rebuild (``text_docs``, ``AsyncSearchIndex.replace_scope``), so both produce
the same rows.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from reverie.store import (
    GroupCommit,
    IndexDoc,
    LiveIndex,
    LogPosition,
    MemoryStore,
    Tx,
)

from ..services import Services

__all__ = ["Progress", "Rebuild", "final_gid", "text_docs"]

#: How the indexer adds docs to an index: embed in chunks, then write.
AddDocs = Callable[[LiveIndex, list[IndexDoc]], Awaitable[None]]


@dataclass(slots=True)
class Progress:
    """A rebuild's progress as ``status`` reports it."""

    state: str = "idle"  # idle | running | done | failed
    done: int = 0
    total: int = 0
    error: str = ""
    started: float = 0.0
    finished: float = 0.0


def text_docs(pairs: Iterable[tuple[int, IndexDoc]]) -> list[IndexDoc]:
    """The docs worth indexing among ``(gid, doc)`` pairs: those with text."""
    return [doc for _, doc in pairs if doc.text.strip()]


async def final_gid(db: GroupCommit[Any]) -> int | None:
    """Up to which gid the log is final, on a database other daemons append to too
    (``Tx.feed_horizon``, read before the batch it bounds); None: one writer, every
    message read is final."""
    return await db.read(Tx.feed_horizon) if db.shared else None


class Rebuild:
    """One rebuild into ``index`` (a new directory); the indexer swaps it in when caught up."""

    def __init__(
        self, services: Services, memory: MemoryStore, index: LiveIndex, add: AddDocs
    ) -> None:
        self.services = services
        self.memory = memory
        self.index = index
        self._add = add
        self.progress = Progress(state="running", started=time.time())
        self._reached = 0  # the log's gid up to which messages are in the new index

    async def build(self) -> None:
        """Everything the log and the memory tree hold now, while the old index serves."""
        await self.index.open()
        pos: LogPosition = await self.services.db.read(Tx.log_position)
        scopes = await self.memory.scopes()
        self.progress.total = pos.max_gid + len(scopes)
        await self._copy_messages()
        for scope in scopes:
            await self.index.replace_scope(self.memory, scope, None)
            self.progress.done += 1

    async def catch_up(self, forgotten: Mapping[str, str], scopes: Iterable[str]) -> int:
        """Copy what arrived during the build and redo forgets and consolidations since.

        Run under the indexer's write lock; returns the log gid the new index
        has reached, the cursor to commit with the swap.
        """
        await self._copy_messages()
        for session, scope in forgotten.items():
            await self.index.forget_session(session, scope)
        for scope in scopes:
            await self.index.replace_scope(self.memory, scope, None)
        await self.index.optimize()
        return self._reached

    async def _copy_messages(self) -> None:
        """Every message after ``_reached``, in batches, optimized every eighth of a
        generation: fragments are folded as the copy goes, at most eight optimizes
        per generation, and the catch-up's optimize (under the indexer's write lock)
        has at most that much left to fold."""
        cfg = self.services.config.index
        size, every = max(1, cfg.batch_size), max(cfg.optimize_rows, cfg.generation_rows // 8)
        progress, unoptimized = self.progress, 0
        while True:
            after, upto = self._reached, await final_gid(self.services.db)
            batch = await self.services.db.read(
                partial(Tx.messages_after, gid=after, limit=size, upto=upto)
            )
            if not batch:
                return
            docs = text_docs(batch)
            await self._add(self.index, docs)
            self._reached = batch[-1][0]
            progress.done = min(self._reached, progress.total)
            progress.total = max(progress.total, self._reached)
            unoptimized += len(docs)
            if unoptimized >= every:
                await self.index.optimize()
                unoptimized = 0
