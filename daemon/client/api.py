"""The operations both clients expose, defined once and transport-neutral.

``Api`` holds the session, memory and daemon operations and mixes in the
working-memory and search ones; ``Client`` and ``AsyncClient`` add a
transport (their ``_call``). Also here: where the daemon listens by default,
the reconnect schedule, and turning an ``ErrorReply`` back into its typed
exception.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from reverie.config import InvalidArgument, default_data_dir, default_socket_path, error_class

from .. import protocol as p
from .calls import Call, op
from .search import SearchApi
from .working_memory import WorkingMemoryApi

__all__ = ["MAX_REPLY_BYTES", "RETRY_DELAYS", "Api", "default_socket", "raise_for"]

T = TypeVar("T")
#: The largest reply a client reads (a big history page is well below).
MAX_REPLY_BYTES = 1 << 30
#: Pauses between reconnect attempts of an idempotent call (about 10 s in all,
#: long enough for a supervised daemon to restart).
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 2.0, 2.5, 2.5)


def default_socket() -> Path:
    """``$REVERIE_SOCKET``, else where the daemon listens by default."""
    env = os.environ.get("REVERIE_SOCKET")
    if env:
        return Path(env)
    data = os.environ.get("REVERIE_DAEMON__DATA_DIR")
    return default_socket_path(Path(data) if data else default_data_dir())


#: The error code of a request another daemon sharing the database refused to let
#: through (it took the session over): nothing was written, so any call is retried.
MOVED = "session.moved"


def moved(reply: p.Reply) -> bool:
    """Whether the daemon wrote nothing because the session moved (retry, any call)."""
    return isinstance(reply, p.ErrorReply) and reply.code == MOVED


def raise_for(reply: p.Reply) -> None:
    if isinstance(reply, p.ErrorReply):
        raise error_class(reply.code)(reply.message)


def _message_in(msg: p.MessageIn | Mapping[str, Any]) -> p.MessageIn:
    """A message as the wire takes it; one the daemon would refuse is refused here, typed."""
    try:
        m = msg if isinstance(msg, p.MessageIn) else msgspec.convert(msg, p.MessageIn)
    except msgspec.ValidationError as exc:  # a dict from a file or a host: the caller's error
        raise InvalidArgument(f"message: {exc}") from exc
    return m if m.id else msgspec.structs.replace(m, id=uuid.uuid4().hex)


class Api(WorkingMemoryApi, SearchApi):
    """The operations, transport-neutral. ``_call(request, convert, idempotent)``."""

    _rids = itertools.count(1)
    #: Set once a connection succeeded: only then is a lost connection a restart to wait out.
    _reached = False

    def _call(self, request: p.Request, convert: Callable[[Any], T], idempotent: bool) -> Any:
        raise NotImplementedError

    def _rid(self) -> int:
        return next(self._rids)

    @op
    def hello(self) -> Call[p.HelloReply]:
        """The daemon's protocol version, name and largest frame it accepts."""
        return Call(p.Hello(rid=self._rid()), lambda r: r, True)

    @op
    def append(
        self,
        session: str,
        role: p.Role,
        content: str,
        *,
        id: str | None = None,
        name: str | None = None,
        tool_calls: Any = None,
        tool_call_id: str | None = None,
        ts: float | None = None,
        scope: str | None = None,
    ) -> Call[p.Ack]:
        """Append one message; returns its ``Ack`` (``seq``, ``id``)."""
        msg = p.MessageIn(
            role=role,
            content=content,
            id=id,
            name=name,
            tool_calls=tool_calls,
            tool_call_id=tool_call_id,
            ts=ts,
        )
        request = p.Append(
            rid=self._rid(), session=session, messages=[_message_in(msg)], scope=scope
        )
        return Call(request, lambda r: r.acks[0], True)

    @op
    def append_many(
        self,
        session: str,
        messages: Iterable[p.MessageIn | Mapping[str, Any]],
        *,
        scope: str | None = None,
    ) -> Call[list[p.Ack]]:
        """Append a batch atomically (all or none); returns one ``Ack`` per message."""
        request = p.Append(
            rid=self._rid(),
            session=session,
            messages=[_message_in(m) for m in messages],
            scope=scope,
        )
        return Call(request, lambda r: r.acks, True)

    @op
    def history(
        self, session: str, *, after_seq: int = 0, limit: int = 100
    ) -> Call[list[p.Message]]:
        """Messages with seq > ``after_seq``, oldest first: a list of ``Message``."""
        request = p.History(rid=self._rid(), session=session, after_seq=after_seq, limit=limit)
        return Call(request, lambda r: r.messages, True)

    @op
    def context(
        self,
        session: str,
        *,
        max_tokens: int | None = None,
        provenance: bool = False,
        scope: str | None = None,
    ) -> Call[p.ContextView]:
        """``ContextView``: ``memory`` (byte-stable prefix), ``messages`` (the tail), ``tokens``.

        ``max_tokens`` bounds memory and messages together: the tail is cut at whole
        turns, newest kept (``omitted`` counts what was left out); None: the daemon's
        ``sessions.context_max_tokens``; 0: the whole tail. ``provenance`` gives the
        memory as ``MEMORY.md`` has it, each fact's sources in its HTML comment.
        ``scope``: whose memory a session with no message yet starts with (None: its
        own scope); a session with messages has the scope its first append set.
        """
        request = p.Context(
            rid=self._rid(),
            session=session,
            max_tokens=max_tokens,
            provenance=provenance,
            scope=scope,
        )
        return Call(request, lambda r: r.context, True)

    @op
    def sessions(
        self, *, after: str = "", limit: int = 100, prefix: str = ""
    ) -> Call[list[p.SessionInfo]]:
        """Sessions ordered by name (``SessionInfo``), a page after ``after``, named ``prefix…``."""
        return Call(
            p.Sessions(rid=self._rid(), after=after, limit=limit, prefix=prefix),
            lambda r: r.sessions,
            True,
        )

    @op
    def forget(self, session: str) -> Call[int]:
        """Delete a session and everything derived from it; returns messages deleted."""
        return Call(p.Forget(rid=self._rid(), session=session), lambda r: r.deleted, True)

    @op
    def pop(self, session: str) -> Call[p.Message | None]:
        """Remove the session's newest message and return it (None: the session has none).

        ``Conflict`` when consolidation has it already. Not retried after a lost
        connection: a repeat would take the message before it.
        """
        return Call(p.Pop(rid=self._rid(), session=session), lambda r: r.message, False)

    @op
    def status(self) -> Call[p.DaemonStatus]:
        """The daemon's status: sessions, store, consolidation, index, counters, errors."""
        return Call(p.Status(rid=self._rid()), lambda r: r.status, True)

    @op
    def consolidate(self, session: str, *, wait: bool = False) -> Call[p.JobOutcome | None]:
        """Consolidate the session's tail now; with ``wait``, the ``JobOutcome`` (or None).

        A wait is bounded by the client's ``timeout`` (a job with a local model takes tens
        of seconds) and is not sent again when the connection is lost or times out: the job
        goes on in the daemon, and a second request would queue the session once more.
        """
        return Call(
            p.Consolidate(rid=self._rid(), session=session, wait=wait),
            lambda r: r.outcome,
            not wait,
        )

    @op
    def memory(self, scope: str, *, limit: int = 20) -> Call[p.MemoryView]:
        """``MemoryView``: the scope's ``MEMORY.md`` and recent history entries."""
        return Call(p.Memory(rid=self._rid(), scope=scope, limit=limit), lambda r: r.view, True)

    @op
    def memory_edit(self, scope: str, text: str) -> Call[list[str]]:
        """Replace the scope's ``MEMORY.md``; returns what in ``text`` cannot be read exactly."""
        return Call(
            p.MemoryEdit(rid=self._rid(), scope=scope, text=text), lambda r: r.problems, True
        )

    @op
    def memory_forget_fact(self, scope: str, fact: str) -> Call[int]:
        """Delete one fact of ``scope`` everywhere it is kept; returns how many places had it."""
        return Call(
            p.MemoryForgetFact(rid=self._rid(), scope=scope, fact=fact), lambda r: r.removed, True
        )

    @op
    def facts(self, scope: str) -> Call[list[p.FactView]]:
        """The facts of ``scope``'s ``MEMORY.md`` in file order, each with its ``id``."""
        return Call(p.Facts(rid=self._rid(), scope=scope), lambda r: r.facts, True)

    @op
    def fact_history(self, scope: str, id: str) -> Call[list[p.HistoryEntryView]]:
        """The history entries that recorded fact ``id`` (also one superseded or deleted since)."""
        request = p.FactHistory(rid=self._rid(), scope=scope, id=id)
        return Call(request, lambda r: r.entries, True)

    @op
    def fact_add(self, scope: str, text: str) -> Call[p.FactView]:
        """Add a fact to ``scope`` (dated today, no sources); one with the same words is kept."""
        return Call(p.FactEdit(rid=self._rid(), scope=scope, text=text), lambda r: r.fact, True)

    @op
    def fact_update(self, scope: str, id: str, text: str) -> Call[p.FactView]:
        """Replace fact ``id`` in its place; the new words are a new fact with a new id."""
        return Call(
            p.FactEdit(rid=self._rid(), scope=scope, id=id, text=text), lambda r: r.fact, False
        )

    @op
    def fact_delete(self, scope: str, id: str) -> Call[None]:
        """Forget fact ``id`` everywhere it is kept (``MEMORY.md``, episodes, index)."""
        return Call(p.FactEdit(rid=self._rid(), scope=scope, id=id), lambda r: None, False)

    @op
    def stream_begin(self, backend: str = "default", ttl: float = 60.0) -> Call[str]:
        """Declare your own live LLM stream on ``backend``; returns the lease to end it."""
        return Call(
            p.StreamBegin(rid=self._rid(), backend=backend, ttl=ttl), lambda r: r.lease, False
        )

    @op
    def stream_end(self, lease: str) -> Call[bool]:
        """End a stream lease; True if it was still live."""
        return Call(p.StreamEnd(rid=self._rid(), lease=lease), lambda r: r.ended, True)

    @op
    def backup(self, dest: str | os.PathLike[str]) -> Call[p.BackupView]:
        """Copy the data dir into ``dest`` (a new directory, as the daemon sees it).

        Not retried after a lost connection: the first attempt may have made ``dest``.
        """
        request = p.Backup(rid=self._rid(), dest=os.fspath(dest))
        return Call(request, lambda r: r.backup, False)

    @op
    def metrics(self) -> Call[str]:
        """The daemon's status in Prometheus text exposition format (a ``str``)."""
        return Call(p.Metrics(rid=self._rid()), lambda r: r.text, True)
