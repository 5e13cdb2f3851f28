"""Long-term memory operations: consolidate, read and edit memory, facts by id, stream leases.

Each runs as a task of the connection and asks the supervisor, the memory's
owner (``MemoryKeeper``) or the forgetter, never a session's mailbox, so
none waits behind appends.
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from typing import Any

import msgspec
import trio

from reverie.actors import Forgetter, MemoryKeeper, Services, Supervisor, validate_name
from reverie.config import Busy, Conflict, InvalidArgument, NotFound
from reverie.store import (
    Fact,
    fact_id,
    fact_key,
    load_session,
    merge_facts,
    parse_memory,
    replace_fact,
)

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
    p.Facts,
    p.FactEdit,
    p.FactHistory,
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
            case p.Facts(scope=scope):
                reply = replier(rid, lambda f: p.FactsReply(rid=rid, facts=f))
                nursery.start_soon(run, reply, self._facts, scope)
            case p.FactEdit(scope=scope, id=fid, text=text):
                reply = replier(rid, lambda f: p.FactEditReply(rid=rid, fact=f))
                nursery.start_soon(run, reply, self._fact_edit, scope, fid, text)
            case p.FactHistory(scope=scope, id=fid):
                reply = replier(rid, lambda e: p.FactHistoryReply(rid=rid, entries=e))
                nursery.start_soon(run, reply, self._fact_history, scope, fid)
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
        record = await self.services.db.read(lambda c: load_session(c, name))
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

    async def _facts(self, scope: str) -> list[p.FactView]:
        validate_name("scope", scope)
        facts, _ = parse_memory(await self.memory.text(scope))
        return [_view(f) for f in facts]

    async def _fact_edit(self, scope: str, fid: str | None, text: str | None) -> p.FactView | None:
        """Add (no ``fid``), replace (``fid`` and ``text``) or forget (``fid``) one fact."""
        validate_name("scope", scope)
        if fid is None:
            return await self._fact_add(scope, _fact_text(text))
        old = await self._fact(scope, fid)
        if text is None:
            await self.forgetter.forget_fact(scope, old.text)
            return None
        return await self._fact_update(scope, fid, _fact_text(text))

    async def _fact_history(self, scope: str, fid: str) -> list[p.HistoryEntryView]:
        validate_name("scope", scope)
        entries = await self.memory.entries(scope)
        return [
            msgspec.convert(e, p.HistoryEntryView, from_attributes=True)
            for e in entries
            if any(fact_id(text) == fid for text in e.facts)
        ]

    async def _fact(self, scope: str, fid: str) -> Fact:
        facts, _ = parse_memory(await self.memory.text(scope))
        found = next((f for f in facts if fact_id(f.text) == fid), None)
        if found is None:
            raise NotFound(f"no fact {fid!r} in scope {scope!r} (`reverie fact list {scope}`)")
        return found

    async def _fact_add(self, scope: str, text: str) -> p.FactView:
        fact = Fact(text=text, date=self._today())
        cfg, tokens = self.services.config.consolidation, self.services.tokens
        await self.memory.change(
            scope, lambda m: merge_facts(m, [fact], cfg.memory_max_tokens, tokens.count)
        )
        return await self._fact_view(scope, fact_id(text))

    async def _fact_update(self, scope: str, fid: str, text: str) -> p.FactView:
        new = Fact(text=text, date=self._today())

        def change(memory: str) -> str:
            facts, _ = parse_memory(memory)
            if any(fact_key(f.text) == fact_key(text) and fact_id(f.text) != fid for f in facts):
                raise Conflict(f"scope {scope!r} already has the fact {text!r}")
            replaced = replace_fact(memory, fid, new)
            if replaced is None:  # deleted since it was looked up
                raise NotFound(f"no fact {fid!r} in scope {scope!r}")
            return replaced

        await self.memory.change(scope, change)
        return await self._fact_view(scope, fact_id(text))

    async def _fact_view(self, scope: str, fid: str) -> p.FactView:
        return _view(await self._fact(scope, fid))

    def _today(self) -> str:
        return time.strftime("%Y-%m-%d", time.gmtime(self.services.now()))

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


#: The longest fact a host may write: one line a person reads at a glance.
MAX_FACT_CHARS = 500


def _fact_text(text: str | None) -> str:
    """``text`` as one fact line, or an ``InvalidArgument`` saying what is wrong with it."""
    line = " ".join((text or "").split())
    if not fact_key(line):
        raise InvalidArgument("a fact needs words: pass its text")
    if len(line) > MAX_FACT_CHARS:
        raise InvalidArgument(f"a fact is at most {MAX_FACT_CHARS} characters; this is {len(line)}")
    if "<!--" in line or line.startswith("#"):
        raise InvalidArgument("a fact cannot start with '#' or hold '<!--' (Markdown markup)")
    return line


def _view(fact: Fact) -> p.FactView:
    return p.FactView(id=fact_id(fact.text), text=fact.text, date=fact.date, sources=fact.sources)
