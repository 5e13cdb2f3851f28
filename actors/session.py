"""The session actor: the only writer of one session's state.

A ``SessionActor`` is the session's state; the registry runs it, one batch
at a time, when its mailbox has mail. Requests for the
session are handled strictly in mailbox order, so replies for one session
go out in the order the requests came in, and a read sees every append
queued before it. Consecutive appends waiting in the mailbox are committed
together in one write (many clients appending to one session share one
transaction); each is acknowledged only after that commit.

No lock guards the session: its row in SQLite is changed only from here.
"""

from __future__ import annotations

import logging
import math
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from reverie.config import InvalidArgument, default_scope
from reverie.store import (
    AppendOutcome,
    Job,
    MessageRecord,
    NewMessage,
    SessionRecord,
    append_requests,
    create_job,
    delete_session,
    finish_job,
    load_session,
    open_job,
    read_history,
    read_tail,
)

from .consolidation.requests import Applied, ApplyRequest, SnapshotRequest
from .consolidation.turns import oldest_turns
from .names import validate_name
from .services import Services

__all__ = [
    "AppendRequest",
    "ContextRequest",
    "Envelope",
    "ForgetRequest",
    "HistoryRequest",
    "MessageLike",
    "SessionActor",
    "SessionContext",
]

log = logging.getLogger(__name__)


class MessageLike(Protocol):
    """A message as a client sends it: the wire struct satisfies this."""

    @property
    def role(self) -> str: ...
    @property
    def content(self) -> str: ...
    @property
    def id(self) -> str | None: ...
    @property
    def name(self) -> str | None: ...
    @property
    def tool_calls(self) -> Any: ...
    @property
    def tool_call_id(self) -> str | None: ...
    @property
    def ts(self) -> float | None: ...


@dataclass(slots=True)
class AppendRequest:
    messages: Sequence[MessageLike]
    scope: str | None = None


@dataclass(slots=True)
class HistoryRequest:
    after_seq: int = 0
    limit: int = 100


@dataclass(slots=True)
class ContextRequest:
    pass


@dataclass(slots=True)
class ForgetRequest:
    pass


SessionRequest = (
    AppendRequest | HistoryRequest | ContextRequest | ForgetRequest | SnapshotRequest | ApplyRequest
)


R = TypeVar("R")


@dataclass(slots=True)
class Envelope(Generic[R]):
    """A request in a mailbox and where its outcome goes (a result or an exception).

    ``reply`` answers it at most once: a second outcome is dropped, so the
    registry can answer whatever a failed batch left unanswered without
    tracking each reply, and a connection's slot is never freed twice.
    """

    request: R
    to: Callable[[object], None]
    answered: bool = False

    def reply(self, outcome: object) -> None:
        """Hand ``outcome`` to whoever asked (only data passes; it never raises)."""
        if not self.answered:
            self.answered = True  # marked before the hand-off
            self.to(outcome)


@dataclass(slots=True)
class SessionContext:
    """What a host puts in its prompt: the memory prefix, then the tail."""

    memory: str
    messages: list[MessageRecord]
    tokens: int


class SessionActor:
    """One live session: its row, loaded by ``load``. Created and run by the registry."""

    __slots__ = ("idle_since", "name", "record", "services")

    def __init__(self, name: str, services: Services) -> None:
        self.name = name
        self.services = services
        self.record: SessionRecord | None = None
        self.idle_since = 0.0

    async def load(self) -> None:
        """(Re)read the session's row from SQLite: the state after a restart or crash."""
        self.record = await self.services.db.read(lambda c: load_session(c, self.name))

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
                    await self.services.db.read(lambda c: read_history(c, self.name, after, limit))
                )
            case ContextRequest():
                last.reply(await self._context())
            case ForgetRequest():
                last.reply(await self._forget())
                return False
            case SnapshotRequest(target_tokens=target, backend=backend):
                last.reply(await self._snapshot(target, backend))
            case ApplyRequest() as apply:
                last.reply(await self._apply(apply))
        return True

    # -- appends -------------------------------------------------------------

    async def _prepare(self, messages: Sequence[MessageLike]) -> list[NewMessage]:
        now = self.services.now()
        prepared = []
        for msg in messages:
            prepared.append(
                NewMessage(
                    id=msg.id or uuid.uuid4().hex,
                    role=msg.role,
                    content=msg.content,
                    ts=msg.ts if msg.ts is not None else now,
                    tokens=await self.services.tokens.count_async(msg.content),
                    name=msg.name,
                    tool_calls=msg.tool_calls,
                    tool_call_id=msg.tool_call_id,
                )
            )
        return prepared

    async def _append(self, envelopes: list[Envelope[SessionRequest]]) -> None:
        valid: list[tuple[Envelope[SessionRequest], list[NewMessage]]] = []
        for env in envelopes:
            assert isinstance(env.request, AppendRequest)
            try:
                _validate_messages(env.request.messages)
                valid.append((env, await self._prepare(env.request.messages)))
            except InvalidArgument as exc:
                env.reply(exc)
        if not valid:
            return
        record = self._record_for(valid[0][0].request)
        work = msgspec.structs.replace(record)  # adopted only after the commit
        outcomes: list[AppendOutcome] = await self.services.db.write(
            lambda c: append_requests(c, work, [msgs for _, msgs in valid])
        )
        self.record = work
        for (env, _), outcome in zip(valid, outcomes, strict=True):
            env.reply(outcome.error if outcome.error is not None else outcome.acks)
        self.services.counters["messages_appended"] += sum(len(o.acks) for o in outcomes)
        self.services.hooks.appended(work)

    def _record_for(self, request: SessionRequest) -> SessionRecord:
        if self.record is not None:
            return self.record
        assert isinstance(request, AppendRequest)
        scope = validate_name("scope", request.scope) if request.scope else default_scope(self.name)
        now = self.services.now()
        return SessionRecord(name=self.name, scope=scope, created=now, last_active=now)

    # -- reads and forget ----------------------------------------------------

    async def _context(self) -> SessionContext:
        if self.record is None:
            return SessionContext(memory="", messages=[], tokens=0)
        record = self.record
        tail = await self.services.db.read(lambda c: read_tail(c, self.name, record.cursor_seq))
        keeper = self.services.memory
        memory = "" if keeper is None else await keeper.prefix(record.scope)
        return SessionContext(memory=memory, messages=tail, tokens=sum(m.tokens for m in tail))

    async def _snapshot(self, target: int, backend: str) -> tuple[Job, list[MessageRecord]] | None:
        if self.record is None:
            return None
        record, db = self.record, self.services.db
        job = await db.read(lambda c: open_job(c, self.name))
        if job is not None:
            span = job.last_seq - job.first_seq + 1
            return job, await db.read(lambda c: read_history(c, self.name, job.first_seq - 1, span))
        tail = await db.read(lambda c: read_tail(c, self.name, record.cursor_seq))
        turns = tail[: oldest_turns(tail, target)]
        if not turns:
            return None
        now = self.services.now()
        new = Job(
            id=uuid.uuid4().hex,
            session=self.name,
            scope=record.scope,
            backend=backend,
            first_seq=turns[0].seq,
            last_seq=turns[-1].seq,
            tokens=sum(m.tokens for m in turns),
            count=len(turns),
            created=now,
            updated=now,
        )
        return await db.write(lambda c: create_job(c, new)), turns

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
        job, state = apply.job, apply.state
        work = msgspec.structs.replace(self.record)
        now = self.services.now()
        applied = await self.services.db.write(lambda c: finish_job(c, job, work, state, now))
        if not applied:
            return "gone"
        self.record = work
        self.services.hooks.consolidated(work)
        return "applied"

    async def _forget(self) -> tuple[int, str | None]:
        """Delete the session's rows and record the durable job that removes the rest.

        Returns the messages deleted and the session's scope (None: it had none).
        """
        scope = None if self.record is None else self.record.scope
        deleted = await self.services.db.write(lambda c: delete_session(c, self.name, scope))
        if scope is not None:
            self.services.hooks.forgotten(self.name, scope)
        self.record = None
        log.info("session forgotten (%d messages)", deleted, extra={"session": self.name})
        return deleted, scope


def _validate_messages(messages: Sequence[MessageLike]) -> None:
    """What the wire schema cannot say (it checks roles, batch and id lengths when decoding)."""
    for msg in messages:
        if msg.ts is not None and not _valid_ts(msg.ts):
            raise InvalidArgument(
                f"ts {msg.ts!r} is not a time: send Unix seconds (years 1 to 9999) or omit it"
            )
        if msg.id is not None and not msg.id.isprintable():
            raise InvalidArgument("message id must be printable characters")


def _valid_ts(ts: float) -> bool:
    """A finite time that a dated history file can be named by (a host's clock may be wrong)."""
    if not math.isfinite(ts):
        return False
    try:
        datetime.fromtimestamp(ts, UTC)
    except (OverflowError, ValueError, OSError):
        return False
    return True
