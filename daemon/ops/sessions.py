"""Session operations: append, history, context, pop and forget go to the session's actor.

The session's actor is the only writer of its rows, so these are answered
in request order per session. ``sessions`` (the list) is a read of its own,
run as a task of the connection.

An append with a message whose content is over ``daemon.max_message_bytes``
is refused whole here, before its actor sees it: nothing of it is stored,
and the bytes it would have cost later (every history, context and export
reply that carries it) are never spent.
"""

from __future__ import annotations

import msgspec
import trio

from reverie.actors import (
    AppendRequest,
    ContextRequest,
    ForgetRequest,
    Forgetter,
    HistoryRequest,
    PopRequest,
    Services,
    SessionContext,
    SessionRegistry,
)
from reverie.config import InvalidArgument
from reverie.store import MessageRecord, SessionRecord

from .. import protocol as p
from .calls import Convert, Replier, ask, run

__all__ = ["SESSION_REQUESTS", "SessionOps"]

SESSION_REQUESTS = (p.Append, p.History, p.Context, p.Forget, p.Pop, p.Sessions)


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


def _oversized(messages: list[p.MessageIn], limit: int) -> InvalidArgument | None:
    """The refusal of an append whose message content is over ``limit`` UTF-8 bytes, if any.

    Content of at most ``limit // 4`` characters cannot be over (UTF-8 takes at
    most 4 bytes a character), so a chat-sized append is never encoded here.
    """
    for n, message in enumerate(messages, start=1):
        if len(message.content) <= limit // 4:
            continue
        size = len(message.content.encode())
        if size > limit:
            return InvalidArgument(
                f"message {n} of {len(messages)} has {size} bytes of content, over the limit "
                f"of {limit} (daemon.max_message_bytes); nothing was appended: split it or "
                "raise the limit"
            )
    return None


def _acks(rid: int) -> Convert:
    return lambda acks: p.AppendReply(rid=rid, acks=[p.Ack(seq=s, id=i) for s, i in acks])


def _context(rid: int, ctx: SessionContext) -> p.ContextReply:
    view = p.ContextView(
        memory=ctx.memory,
        messages=[_message(m) for m in ctx.messages],
        tokens=ctx.tokens,
        memory_tokens=ctx.memory_tokens,
        omitted=ctx.omitted,
    )
    return p.ContextReply(rid=rid, context=view)


class SessionOps:
    """The session operations, bound to the session registry."""

    def __init__(self, services: Services, registry: SessionRegistry, forgetter: Forgetter) -> None:
        self.services = services
        self.registry = registry
        self.forgetter = forgetter

    async def dispatch(self, request: p.Request, replier: Replier, nursery: trio.Nursery) -> None:
        rid = request.rid
        match request:
            case p.Append(session=session, messages=messages, scope=scope):
                reply = replier(rid, _acks(rid))
                refusal = _oversized(messages, self.services.config.daemon.max_message_bytes)
                if refusal is not None:
                    reply(refusal)
                    return
                await ask(self.registry, session, AppendRequest(messages, scope), reply)
            case p.History(session=session, after_seq=after, limit=limit):
                reply = replier(
                    rid, lambda rs: p.HistoryReply(rid=rid, messages=[_message(r) for r in rs])
                )
                await ask(self.registry, session, HistoryRequest(after, limit), reply)
            case p.Context(session=session, max_tokens=cap, provenance=provenance, scope=scope):
                reply = replier(rid, lambda c: _context(rid, c))
                if cap is None:
                    cap = self.services.config.sessions.context_max_tokens
                await ask(self.registry, session, ContextRequest(cap, provenance, scope), reply)
            case p.Forget(session=session):
                reply = replier(rid, lambda n: p.ForgetReply(rid=rid, deleted=n))
                await ask(
                    self.registry,
                    session,
                    ForgetRequest(),
                    lambda o: self.forgetter.session_forgotten(session, o, reply),
                )
            case p.Pop(session=session):
                reply = replier(
                    rid, lambda m: p.PopReply(rid=rid, message=None if m is None else _message(m))
                )
                await ask(self.registry, session, PopRequest(), reply)
            case p.Sessions(after=after, limit=limit, prefix=prefix):
                reply = replier(rid, lambda s: p.SessionsReply(rid=rid, sessions=s))
                nursery.start_soon(run, reply, self._sessions, after, limit, prefix)

    async def _sessions(self, after: str, limit: int, prefix: str) -> list[p.SessionInfo]:
        if "\x00" in after + prefix:  # no name holds one, and PostgreSQL text cannot
            raise InvalidArgument("after and prefix cannot contain a NUL character (\\x00)")
        rows = await self.services.db.read(lambda t: t.list_sessions(after, limit, prefix))
        return [_session_info(r) for r in rows]
