"""What each operation does: turns requests into actor calls and results into replies.

The server hands every decoded request to ``Handlers.dispatch`` together
with a way to reply. Session operations go through the session's actor (the
only writer of that session); the rest run as tasks of the connection.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import trio

from reverie.actors import (
    AppendRequest,
    Consolidator,
    Context,
    ContextRequest,
    Envelope,
    ForgetRequest,
    Forgetter,
    HistoryRequest,
    MemoryWatcher,
    Services,
    SessionRegistry,
    scope_problems,
    validate_name,
)
from reverie.config import InvalidArgument, ReverieError
from reverie.store import MessageRecord, SessionRecord, backup, list_sessions

from .. import protocol as p
from ..metrics import render_metrics
from ..protocol.errors import Unauthorized, UnknownOp
from ..protocol.search import SEARCH_REQUESTS
from ..protocol.working_memory import WM_REQUESTS
from ..reload import Reloader
from .search import SearchHandlers
from .working_memory import WorkingMemoryHandlers

__all__ = ["Handlers"]

MAX_PAGE = 1000
MAX_STREAM_TTL = 3600.0
Replier = Callable[[int, Callable[[Any], p.Reply]], Callable[[object], None]]


def _message(record: MessageRecord) -> p.Message:
    return msgspec.convert(record, p.Message, from_attributes=True)


def _session_info(record: SessionRecord) -> p.SessionInfo:
    return p.SessionInfo(
        name=record.name,
        scope=record.scope,
        messages=record.last_seq,
        tail_messages=record.tail_count,
        tail_tokens=record.tail_tokens,
        last_active=record.last_active,
    )


def _seq(after: int) -> int:
    """SQLite integers are signed 64-bit; a bigger one would crash the actor's query."""
    if after >= 2**63:
        raise InvalidArgument("after_seq must be below 2**63")
    return after


def _page(limit: int) -> int:
    if not 1 <= limit <= MAX_PAGE:
        raise InvalidArgument(f"limit must be between 1 and {MAX_PAGE}")
    return limit


class Handlers:
    """The operations, bound to the daemon's services and session registry."""

    def __init__(
        self,
        services: Services,
        registry: SessionRegistry,
        consolidator: Consolidator,
        version: str,
        *,
        wm: WorkingMemoryHandlers,
        forgetter: Forgetter,
        watcher: MemoryWatcher,
        search: SearchHandlers | None = None,
    ) -> None:
        self.services = services
        self.registry = registry
        self.consolidator = consolidator
        self.wm = wm
        self.forgetter = forgetter
        self.watcher = watcher
        self.search = search or SearchHandlers(None)
        self.version = version
        self.started = time.time()
        self.errors: Counter[str] = Counter()
        self.reloader: Reloader | None = None
        self._backups = trio.Lock()  # one backup at a time: each holds the memory tree still

    def count_error(self, code: str) -> None:
        self.errors[code] += 1

    def check_peer(self, sock: socket.socket) -> Unauthorized | None:
        """Refuse a peer whose uid and gid are both outside the configured lists."""
        cfg = self.services.config.daemon
        if not cfg.allowed_uids and not cfg.allowed_gids:
            return None
        creds = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12)
        _pid, uid, gid = (
            int.from_bytes(creds[i : i + 4], "little", signed=True) for i in (0, 4, 8)
        )
        if uid == os.getuid() or uid in cfg.allowed_uids or gid in cfg.allowed_gids:
            return None
        return Unauthorized(
            f"uid {uid} / gid {gid} may not use this socket; ask the operator to add it to daemon.allowed_uids"
        )

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case _ if isinstance(request, WM_REQUESTS):
                await self.wm.dispatch(request, replier, nursery)
            case _ if isinstance(request, SEARCH_REQUESTS):
                await self.search.dispatch(request, replier, nursery)
            case p.Append(session=session, messages=messages, scope=scope):
                await self._to_actor(
                    session, AppendRequest(messages, scope), replier(rid, _acks(rid))
                )
            case p.History(session=session, after_seq=after, limit=limit):
                reply = replier(
                    rid, lambda rs: p.HistoryReply(rid=rid, messages=[_message(r) for r in rs])
                )
                await self._checked(
                    reply,
                    lambda: self._to_actor(
                        session, HistoryRequest(_seq(after), _page(limit)), reply
                    ),
                )
            case p.Context(session=session):
                await self._to_actor(
                    session, ContextRequest(), replier(rid, lambda c: _context(rid, c))
                )
            case p.Forget(session=session):
                reply = replier(rid, lambda n: p.ForgetReply(rid=rid, deleted=n))
                await self._to_actor(
                    session,
                    ForgetRequest(),
                    lambda o: self.forgetter.session_forgotten(session, o, reply),
                )
            case p.MemoryForgetFact(scope=scope, fact=fact):
                reply = replier(rid, lambda n: p.MemoryForgetFactReply(rid=rid, removed=n))
                nursery.start_soon(self._run, reply, self.forgetter.forget_fact, scope, fact)
            case p.Hello():
                replier(rid, lambda _: self._hello(rid))(None)
            case p.Sessions(after=after, limit=limit):
                nursery.start_soon(
                    self._run,
                    replier(rid, lambda s: p.SessionsReply(rid=rid, sessions=s)),
                    self._sessions,
                    after,
                    limit,
                )
            case p.Status():
                nursery.start_soon(
                    self._run, replier(rid, lambda s: p.StatusReply(rid=rid, status=s)), self.status
                )
            case p.Consolidate(session=session, wait=wait):
                reply = replier(
                    rid, lambda o: p.ConsolidateReply(rid=rid, outcome=o and p.JobOutcome(**o))
                )
                nursery.start_soon(self._run, reply, self._consolidate, session, wait)
            case p.Memory(scope=scope, limit=limit):
                reply = replier(rid, lambda v: p.MemoryReply(rid=rid, view=v))
                nursery.start_soon(self._run, reply, self._memory, scope, limit)
            case p.MemoryEdit(scope=scope, text=text):
                reply = replier(rid, lambda pr: p.MemoryEditReply(rid=rid, problems=pr))
                nursery.start_soon(self._run, reply, self._memory_edit, scope, text)
            case p.StreamBegin(backend=backend, ttl=ttl):
                reply = replier(
                    rid, lambda lease: p.StreamBeginReply(rid=rid, lease=lease, expires_in=ttl)
                )
                nursery.start_soon(self._run, reply, self._stream_begin, backend, ttl)
            case p.StreamEnd(lease=lease):
                reply = replier(rid, lambda ended: p.StreamEndReply(rid=rid, ended=ended))
                nursery.start_soon(self._run, reply, self._stream_end, lease)
            case p.Metrics():
                reply = replier(rid, lambda t: p.MetricsReply(rid=rid, text=t))
                nursery.start_soon(self._run, reply, self._metrics)
            case p.Backup(dest=dest):
                reply = replier(rid, lambda b: p.BackupReply(rid=rid, backup=b))
                nursery.start_soon(self._run, reply, self._backup, dest)
            case _:  # a frame type with no handler is a bug; never leave the request unanswered
                replier(rid, lambda r: r)(UnknownOp(f"op {type(request).__name__} has no handler"))

    async def _checked(self, reply: Callable[[object], None], send: Callable[[], Any]) -> None:
        try:
            await send()
        except ReverieError as exc:
            reply(exc)

    async def _to_actor(self, session: str, request: Any, reply: Callable[[object], None]) -> None:
        try:
            await self.registry.send(session, Envelope(request, reply))
        except ReverieError as exc:
            reply(exc)

    async def _run(
        self, reply: Callable[[object], None], fn: Callable[..., Any], *args: Any
    ) -> None:
        try:
            result = await fn(*args)
        except ReverieError as exc:
            reply(exc)
            return
        reply(result)

    async def _consolidate(self, session: str, wait: bool) -> dict[str, Any] | None:
        validate_name("session", session)
        return await self.consolidator.consolidate_now(session, wait=wait)

    async def _memory(self, scope: str, limit: int) -> p.MemoryView:
        validate_name("scope", scope)
        text, entries = await self.consolidator.read_memory(scope, _page(limit))
        views = [msgspec.convert(e, p.HistoryEntryView, from_attributes=True) for e in entries]
        problems = await self._problems(scope)
        return p.MemoryView(scope=scope, memory=text, entries=views, problems=problems)

    async def _memory_edit(self, scope: str, text: str) -> list[str]:
        validate_name("scope", scope)
        await self.consolidator.edit_memory(scope, text)
        return await self._problems(scope)

    async def _problems(self, scope: str) -> list[str]:
        return await trio.to_thread.run_sync(scope_problems, self.consolidator.memory, scope)

    async def _backup(self, dest: str) -> p.BackupView:
        async with self._backups:
            info = await backup(self.services.db, self.consolidator.memory, Path(dest))
        return msgspec.convert(info, p.BackupView, from_attributes=True)

    async def _stream_begin(self, backend: str, ttl: float) -> str:
        if not 0 < ttl <= MAX_STREAM_TTL:
            raise InvalidArgument(f"ttl must be between 0 and {MAX_STREAM_TTL} seconds")
        return self.consolidator.stream_begin(backend, ttl)

    async def _stream_end(self, lease: str) -> bool:
        return self.consolidator.stream_end(lease)

    def _hello(self, rid: int) -> p.HelloReply:
        return p.HelloReply(
            rid=rid,
            version=p.PROTOCOL_VERSION,
            server=f"reverie {self.version}",
            max_frame_bytes=self.services.config.daemon.max_frame_bytes,
        )

    async def _sessions(self, after: str, limit: int) -> list[p.SessionInfo]:
        limit = _page(limit)
        rows = await self.services.db.read(lambda c: list_sessions(c, after, limit))
        return [_session_info(r) for r in rows]

    async def _metrics(self) -> str:
        return render_metrics(await self.status())

    async def status(self) -> dict[str, Any]:
        """The daemon's state for a person or a monitor (never secrets)."""
        known = await self.services.db.read(
            lambda c: c.execute("SELECT count(*) FROM sessions").fetchone()[0]
        )
        db = self.services.db
        size = sum(f.stat().st_size for f in db.path.parent.glob(db.path.name + "*") if f.is_file())
        return {
            "version": self.version,
            "pid": os.getpid(),
            "uptime_seconds": round(time.time() - self.started, 3),
            "socket": self.services.config.daemon.socket,
            "data_dir": self.services.config.daemon.data_dir,
            "sessions": {
                "live": self.registry.live,
                "passivated": max(0, known - self.registry.live),
                "known": known,
            },
            "mailbox_depths": self.registry.mailbox_depths(),
            "scopes": {"live": self.wm.scopes.live, "ttl_deadlines": len(self.wm.scopes.expiries)},
            "store": {
                "bytes": size,
                "batches": db.batches,
                "writes": db.writes,
                "durability": db.durability,
            },
            "consolidation": await self.consolidator.status(),
            "forgets": self.forgetter.status(),
            "memory": self.watcher.status(),
            "index": await self.search.status(),
            "counters": dict(self.services.counters),
            "errors": dict(self.errors),
            "config_reloads": self.reloader.reloads if self.reloader else 0,
            "log_level": logging.getLevelName(logging.getLogger().getEffectiveLevel()).lower(),
        }


def _acks(rid: int) -> Callable[[list[tuple[int, str]]], p.Reply]:
    return lambda acks: p.AppendReply(rid=rid, acks=[p.Ack(seq=s, id=i) for s, i in acks])


def _context(rid: int, ctx: Context) -> p.ContextReply:
    view = p.ContextView(
        memory=ctx.memory, messages=[_message(m) for m in ctx.messages], tokens=ctx.tokens
    )
    return p.ContextReply(rid=rid, context=view)
