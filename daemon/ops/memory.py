"""Long-term memory operations: consolidate, read and edit memory, forget a fact, stream leases.

Each runs as a task of the connection and asks the consolidator (or the
forgetter), never a session's mailbox, so none waits behind appends.
"""

from __future__ import annotations

from typing import Any

import msgspec
import trio

from reverie.actors import Consolidator, Forgetter, MemoryWatcher, validate_name
from reverie.config import InvalidArgument

from .. import protocol as p
from .calls import Replier, run
from .sessions import page

__all__ = ["MAX_STREAM_TTL", "MEMORY_REQUESTS", "MemoryOps"]

MAX_STREAM_TTL = 3600.0
MEMORY_REQUESTS = (
    p.Consolidate,
    p.Memory,
    p.MemoryEdit,
    p.MemoryForgetFact,
    p.StreamBegin,
    p.StreamEnd,
)


class MemoryOps:
    """The memory operations, bound to the consolidator and the forgetter."""

    def __init__(
        self, consolidator: Consolidator, forgetter: Forgetter, watcher: MemoryWatcher
    ) -> None:
        self.consolidator = consolidator
        self.forgetter = forgetter
        self.watcher = watcher

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case p.Consolidate(session=session, wait=wait):
                reply = replier(
                    rid, lambda o: p.ConsolidateReply(rid=rid, outcome=o and p.JobOutcome(**o))
                )
                nursery.start_soon(run, reply, self._consolidate, session, wait)
            case p.Memory(scope=scope, limit=limit):
                reply = replier(rid, lambda v: p.MemoryReply(rid=rid, view=v))
                nursery.start_soon(run, reply, self._memory, scope, limit)
            case p.MemoryEdit(scope=scope, text=text):
                reply = replier(rid, lambda pr: p.MemoryEditReply(rid=rid, problems=pr))
                nursery.start_soon(run, reply, self._memory_edit, scope, text)
            case p.MemoryForgetFact(scope=scope, fact=fact):
                reply = replier(rid, lambda n: p.MemoryForgetFactReply(rid=rid, removed=n))
                nursery.start_soon(run, reply, self.forgetter.forget_fact, scope, fact)
            case p.StreamBegin(backend=backend, ttl=ttl):
                reply = replier(
                    rid, lambda lease: p.StreamBeginReply(rid=rid, lease=lease, expires_in=ttl)
                )
                nursery.start_soon(run, reply, self._stream_begin, backend, ttl)
            case p.StreamEnd(lease=lease):
                reply = replier(rid, lambda ended: p.StreamEndReply(rid=rid, ended=ended))
                nursery.start_soon(run, reply, self._stream_end, lease)

    async def _consolidate(self, session: str, wait: bool) -> dict[str, Any] | None:
        validate_name("session", session)
        return await self.consolidator.consolidate_now(session, wait=wait)

    async def _memory(self, scope: str, limit: int) -> p.MemoryView:
        validate_name("scope", scope)
        text, entries = await self.consolidator.read_memory(scope, page(limit))
        views = [msgspec.convert(e, p.HistoryEntryView, from_attributes=True) for e in entries]
        problems = await self.watcher.problems_of(scope)
        return p.MemoryView(scope=scope, memory=text, entries=views, problems=problems)

    async def _memory_edit(self, scope: str, text: str) -> list[str]:
        validate_name("scope", scope)
        await self.consolidator.edit_memory(scope, text)
        return await self.watcher.problems_of(scope)

    async def _stream_begin(self, backend: str, ttl: float) -> str:
        if not 0 < ttl <= MAX_STREAM_TTL:
            raise InvalidArgument(f"ttl must be between 0 and {MAX_STREAM_TTL} seconds")
        return self.consolidator.stream_begin(backend, ttl)

    async def _stream_end(self, lease: str) -> bool:
        return self.consolidator.stream_end(lease)
