"""Long-term memory operations: consolidate, read and edit memory, forget a fact, stream leases.

Each runs as a task of the connection and asks the supervisor, the memory's
owner (``MemoryKeeper``) or the forgetter, never a session's mailbox, so
none waits behind appends.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import msgspec
import trio

from reverie.actors import Forgetter, MemoryKeeper, Services, Supervisor, validate_name
from reverie.config import Busy

from .. import protocol as p
from .calls import Replier, run

__all__ = ["MAX_LEASES_PER_CONNECTION", "MEMORY_REQUESTS", "MemoryOps", "connection_leases"]

#: The stream leases begun on the connection a request came on; the server sets a fresh
#: set for each connection (its tasks inherit it) and ends them when the connection closes.
connection_leases: ContextVar[set[str] | None] = ContextVar("connection_leases", default=None)
#: More than this many live leases on one connection is a host that leaks them.
MAX_LEASES_PER_CONNECTION = 64

MEMORY_REQUESTS = (
    p.Consolidate,
    p.Memory,
    p.MemoryEdit,
    p.MemoryForgetFact,
    p.StreamBegin,
    p.StreamEnd,
)


class MemoryOps:
    """The memory operations, bound to the supervisor, the memory's owner and the forgetter."""

    def __init__(
        self, supervisor: Supervisor, memory: MemoryKeeper, forgetter: Forgetter, services: Services
    ) -> None:
        self.supervisor = supervisor
        self.memory = memory
        self.forgetter = forgetter
        self.services = services

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
        return await self.supervisor.consolidate_now(session, wait=wait)

    async def _memory(self, scope: str, limit: int) -> p.MemoryView:
        validate_name("scope", scope)
        text, entries = await self.memory.read(scope, limit)
        views = [msgspec.convert(e, p.HistoryEntryView, from_attributes=True) for e in entries]
        problems = await self.memory.problems(scope)
        if not text and not entries:
            problems += await self._session_not_scope(scope)
        return p.MemoryView(scope=scope, memory=text, entries=views, problems=problems)

    async def _session_not_scope(self, name: str) -> list[str]:
        """A hint when an empty scope's name is a session's (a common mix-up), else nothing."""
        record = await self.services.db.read(lambda t: t.load_session(name))
        if record is None:
            return []
        return [
            f"no memory in scope {name!r}, but a session has that name: its memory is in "
            f"scope {record.scope!r} (`reverie memory show {record.scope}`)"
        ]

    async def _memory_edit(self, scope: str, text: str) -> list[str]:
        validate_name("scope", scope)
        await self.memory.edit(scope, text)
        return await self.memory.problems(scope)

    async def _stream_begin(self, backend: str, ttl: float) -> str:
        """A lease that ends at ``ttl``, at ``stream_end``, or when its connection closes."""
        held = connection_leases.get()
        if held is not None:
            held.intersection_update(self.supervisor.live_leases())  # ended or expired: gone
            if len(held) >= MAX_LEASES_PER_CONNECTION:
                raise Busy(
                    f"this connection holds {len(held)} stream leases (the most one may hold); "
                    "end one with stream_end first"
                )
        lease = self.supervisor.stream_begin(backend, ttl)
        if held is not None:
            held.add(lease)
        return lease

    async def _stream_end(self, lease: str) -> bool:
        return self.supervisor.stream_end(lease)

    def end_leases(self, leases: set[str]) -> None:
        """A connection closed: its leases end with it (a crashed host blocks nothing)."""
        for lease in leases:
            self.supervisor.stream_end(lease)
