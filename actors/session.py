"""The session actor: the only writer of one session's state.

A ``SessionActor`` is the session's state; the registry runs it, one batch
at a time, when its mailbox has mail. Requests for the
session are handled strictly in mailbox order, so replies for one session
go out in the order the requests came in, and a read sees every append
queued before it. Consecutive appends waiting in the mailbox are committed
together in one write (many clients appending to one session share one
transaction); each is acknowledged only after that commit.

No lock guards the session: its row in the database is changed only from here.
When other daemons share the database (Postgres), the actor claims the
session as it loads it: its writes carry the epoch of that claim, and once
another daemon has claimed the session since, they write nothing and fail
with ``SessionMoved``; the registry then drops this actor's state, and a
retry claims the session back.
"""

from __future__ import annotations

import logging
import uuid
from collections import deque
from dataclasses import dataclass
from typing import Any

import msgspec

from reverie.config import default_scope
from reverie.store import (
    Job,
    MessageRecord,
    SessionRecord,
    Tx,
    new_job,
)

from .appends import AppendPlan, AppendRequest
from .consolidation.requests import Applied, ApplyRequest, SnapshotRequest
from .consolidation.turns import oldest_turns
from .context_fit import fit_tail
from .mailbox import Envelope
from .names import validate_name
from .services import Services

__all__ = [
    "ContextRequest",
    "ForgetRequest",
    "HistoryRequest",
    "PopRequest",
    "SessionActor",
    "SessionContext",
]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class HistoryRequest:
    after_seq: int = 0
    limit: int = 100


@dataclass(slots=True)
class ContextRequest:
    max_tokens: int = 0  # memory and tail together; 0: the whole tail
    provenance: bool = False  # memory with the facts' source comments (MEMORY.md as it is)
    scope: str | None = None  # for a session with no message yet (None: its own scope)


@dataclass(slots=True)
class ForgetRequest:
    pass


@dataclass(slots=True)
class PopRequest:
    """Remove the newest message unless consolidation has it (``store.pop_newest``)."""


SessionRequest = (
    AppendRequest
    | HistoryRequest
    | ContextRequest
    | ForgetRequest
    | PopRequest
    | SnapshotRequest
    | ApplyRequest
)


@dataclass(slots=True)
class SessionContext:
    """What a host puts in its prompt: the memory prefix, then the tail (``omitted``: the
    oldest messages of the tail left out to fit ``max_tokens``)."""

    memory: str
    messages: list[MessageRecord]
    tokens: int
    memory_tokens: int = 0
    omitted: int = 0


class SessionActor:
    """One live session: its row, loaded by ``load``. Created and run by the registry."""

    __slots__ = ("idle_since", "name", "record", "services")

    def __init__(self, name: str, services: Services) -> None:
        self.name = name
        self.services = services
        self.record: SessionRecord | None = None
        self.idle_since = 0.0

    async def load(self) -> None:
        """(Re)read the session's row: the state after a restart or crash. On a database
        other daemons share, claim it (a write): this daemon is its one writer now."""
        db = self.services.db
        if db.shared:
            self.record = await db.write(lambda t: t.claim_session(self.name))
        else:
            self.record = await db.read(lambda t: t.load_session(self.name))

    def take(self, mail: deque[Envelope[SessionRequest]]) -> list[Envelope[SessionRequest]]:
        """The next request, plus the appends queued right behind it (and the first non-append)."""
        first = mail.popleft()
        batch = [first]
        if isinstance(first.request, AppendRequest):
            while mail:
                more = mail.popleft()
                batch.append(more)
                if not isinstance(more.request, AppendRequest):
                    break
        return batch

    async def handle(self, batch: list[Envelope[SessionRequest]]) -> bool:
        """Handle a batch; returns False once the session is forgotten (the actor ends)."""
        appends = [e for e in batch if isinstance(e.request, AppendRequest)]
        if appends:
            await self._append(appends)
        last = batch[-1]
        if isinstance(last.request, AppendRequest):
            return True
        match last.request:
            case HistoryRequest(after_seq=after, limit=limit):
                last.reply(
                    await self.services.db.read(lambda t: t.read_history(self.name, after, limit))
                )
            case ContextRequest(max_tokens=cap, provenance=provenance, scope=scope):
                last.reply(await self._context(cap, provenance, scope))
            case ForgetRequest():
                last.reply(await self._forget())
                return False
            case PopRequest():
                last.reply(await self._pop())
            case SnapshotRequest(target_tokens=target, backend=backend, max_tokens=cap):
                last.reply(await self._snapshot(target, backend, cap))
            case ApplyRequest() as apply:
                last.reply(await self._apply(apply))
        return True

    # -- appends -------------------------------------------------------------

    def plannable(self, mail: deque[Envelope[SessionRequest]]) -> int:
        """How many appends at the head of ``mail`` make one plan (a write the registry can
        commit with other sessions').

        An append with a long text is left to ``handle``, which counts its
        tokens in a worker thread rather than on the event loop.
        """
        count = 0
        for env in mail:
            if not isinstance(env.request, AppendRequest) or self._long(env.request):
                break
            count += 1
        return count

    def prepare(self, batch: list[Envelope[SessionRequest]]) -> AppendPlan:
        """The plan of ``batch`` (appends, as ``plannable`` counted them)."""
        return AppendPlan(self.name, self.record, batch, self.services)

    def finished(self, plan: AppendPlan, written: Any) -> None:
        """A plan's write committed (``written`` is what it returned): answer and adopt its row."""
        self.record = plan.finish(written)

    def _long(self, request: AppendRequest) -> bool:
        return any(self.services.tokens.threaded(m.content) for m in request.messages)

    async def _append(self, envelopes: list[Envelope[SessionRequest]]) -> None:
        tokens = self.services.tokens
        counted = {
            m.content: await tokens.count_async(m.content)
            for env in envelopes
            for m in env.request.messages  # type: ignore[union-attr]
            if tokens.threaded(m.content)
        }
        plan = AppendPlan(self.name, self.record, envelopes, self.services, counted)
        self.finished(plan, await self.services.db.write(plan.write))

    # -- reads and forget ----------------------------------------------------

    async def _context(self, cap: int, provenance: bool, scope: str | None) -> SessionContext:
        """Memory and the tail that fits beside it; a session with no message yet gets the
        memory of ``scope`` (else its own scope's): a new session starts with what is known."""
        record = self.record
        if record is None:
            tail: list[MessageRecord] = []
            scope = default_scope(self.name) if scope is None else validate_name("scope", scope)
        else:
            tail = await self.services.db.read(lambda t: self._tail(t, record))
            scope = record.scope
        keeper = self.services.memory
        if keeper is None:
            memory = ""
        else:
            memory = await (keeper.text if provenance else keeper.prefix)(scope)
        memory_tokens = await self.services.tokens.count_async(memory) if memory else 0
        kept = fit_tail(tail, max(cap - memory_tokens, 0)) if cap else tail
        return SessionContext(
            memory=memory,
            messages=kept,
            tokens=memory_tokens + sum(m.tokens for m in kept),
            memory_tokens=memory_tokens,
            omitted=len(tail) - len(kept),
        )

    def _tail(self, t: Tx, record: SessionRecord) -> list[MessageRecord]:
        """The messages not yet consolidated. On a shared database another member may have
        applied a job since this actor loaded the row: its cursor is read afresh."""
        cursor = record.cursor_seq
        if self.services.db.shared:
            stored = t.load_session(self.name)
            cursor = cursor if stored is None else max(cursor, stored.cursor_seq)
        return t.read_tail(self.name, cursor)

    async def _pop(self) -> MessageRecord | None:
        """Take back the newest message; the index follower removes its row (``popped``)."""
        if self.record is None:
            return None
        base = self.record

        def pop(t: Tx) -> tuple[SessionRecord, MessageRecord | None]:
            work = msgspec.structs.replace(base)  # a copy per run: a batch may be re-run
            return work, t.pop_newest(work)

        work, popped = await self.services.db.write(pop)
        self.record = work
        if popped is not None:
            self.services.hooks.popped(work)
        return popped

    async def _snapshot(
        self, target: int, backend: str, cap: int
    ) -> tuple[Job, list[MessageRecord]] | None:
        if self.record is None:
            return None
        record, db = self.record, self.services.db
        job = await db.read(lambda t: t.open_job(self.name))
        if job is not None:
            span = job.last_seq - job.first_seq + 1
            return job, await db.read(lambda t: t.read_history(self.name, job.first_seq - 1, span))
        tail = await db.read(lambda t: t.read_tail(self.name, record.cursor_seq))
        turns = tail[: oldest_turns(tail, target, cap)]
        if not turns:
            return None
        new = new_job(
            self.name, record.scope, backend, turns, self.services.now(), uuid.uuid4().hex
        )
        return await db.write(lambda t: t.create_job(new)), turns

    async def _apply(self, apply: ApplyRequest) -> Applied:
        """Files first, by the memory's owner (the entry id makes a rewrite a no-op), then
        cursor and job in one commit. In mailbox order: a forgotten session gets nothing.
        """
        if self.record is None:
            return "gone"
        if apply.entry is not None:
            keeper = self.services.memory
            assert keeper is not None, "consolidation runs only with an owner of long-term memory"
            if await keeper.write_consolidation(apply.entry, apply.memory, apply.base) == "moved":
                return "moved"
        job, state, base = apply.job, apply.state, self.record
        now = self.services.now()

        def finish(t: Tx) -> SessionRecord | None:
            work = msgspec.structs.replace(base)  # a copy per run: a batch may be re-run
            return work if t.finish_job(job, work, state, now) else None

        work = await self.services.db.write(finish)
        if work is None:
            return "gone"
        self.record = work
        self.services.hooks.consolidated(work)
        return "applied"

    async def _forget(self) -> tuple[int, str | None]:
        """Delete the session's rows and record the durable job that removes the rest.

        Returns the messages deleted and the session's scope (None: it had none).
        """
        scope = None if self.record is None else self.record.scope
        deleted = await self.services.db.write(lambda t: t.delete_session(self.name, scope))
        if scope is not None:
            self.services.hooks.forgotten(self.name, scope)
        self.record = None
        log.info("session forgotten (%d messages)", deleted, extra={"session": self.name})
        return deleted, scope
