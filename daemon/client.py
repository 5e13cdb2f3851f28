r"""The host's side: ``Client`` (blocking) and ``AsyncClient`` (anyio: asyncio or trio).

Both expose the same methods, defined once in ``_Api`` as ``op``\ s (see
``client_ops``): each builds a ``Call`` that the transport's ``_call`` runs,
returning the converted reply (``Client``) or an awaitable of it
(``AsyncClient``), typed with the wire Struct (``client.append(...).seq``).

Errors come back as the daemon's typed exceptions (rebuilt from their
``code``). After a daemon restart both clients reconnect: an idempotent call
is retried for about 10 s. A client that has never reached the daemon does
not wait: with no daemon listening, its first call fails at once. ``append`` gives every message an id on the client side
when the caller did not, so a retried append can never be applied twice.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import socket as stdsocket
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

import anyio
import msgspec

from reverie.config import default_data_dir, default_socket_path, error_class

from . import protocol as p
from .client_ops import Call, op
from .errors import ConnectionLost, ProtocolError
from .framing import FrameReader, frame
from .search_client import SearchApi
from .wm_client import WorkingMemoryApi

__all__ = ["AsyncClient", "Client", "default_socket"]

T = TypeVar("T")
_MAX_REPLY_BYTES = 1 << 30
#: Pauses between reconnect attempts of an idempotent call (about 10 s in all,
#: long enough for a supervised daemon to restart).
RETRY_DELAYS = (0.05, 0.1, 0.2, 0.4, 0.8, 1.5, 2.0, 2.5, 2.5)
#: How long a failed send waits for what the daemon said before it closed.
_DRAIN_SECONDS = 5.0


def default_socket() -> Path:
    """``$REVERIE_SOCKET``, else where the daemon listens by default."""
    env = os.environ.get("REVERIE_SOCKET")
    if env:
        return Path(env)
    data = os.environ.get("REVERIE_DAEMON__DATA_DIR")
    return default_socket_path(Path(data) if data else default_data_dir())


def _raise_for(reply: p.Reply) -> None:
    if isinstance(reply, p.ErrorReply):
        raise error_class(reply.code)(reply.message)


def _message_in(msg: p.MessageIn | Mapping[str, Any]) -> p.MessageIn:
    m = msg if isinstance(msg, p.MessageIn) else msgspec.convert(msg, p.MessageIn)
    return m if m.id else msgspec.structs.replace(m, id=uuid.uuid4().hex)


class _Api(WorkingMemoryApi, SearchApi):
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
        role: str,
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
    def context(self, session: str) -> Call[p.ContextView]:
        """``ContextView``: ``memory`` (byte-stable prefix), ``messages`` (the tail), ``tokens``."""
        return Call(p.Context(rid=self._rid(), session=session), lambda r: r.context, True)

    @op
    def sessions(self, *, after: str = "", limit: int = 100) -> Call[list[p.SessionInfo]]:
        """Sessions ordered by name (``SessionInfo``), a page after ``after``."""
        return Call(
            p.Sessions(rid=self._rid(), after=after, limit=limit), lambda r: r.sessions, True
        )

    @op
    def forget(self, session: str) -> Call[int]:
        """Delete a session and everything derived from it; returns messages deleted."""
        return Call(p.Forget(rid=self._rid(), session=session), lambda r: r.deleted, True)

    @op
    def status(self) -> Call[dict[str, Any]]:
        """The daemon's status as a dict."""
        return Call(p.Status(rid=self._rid()), lambda r: r.status, True)

    @op
    def consolidate(self, session: str, *, wait: bool = False) -> Call[p.JobOutcome | None]:
        """Consolidate the session's tail now; with ``wait``, the ``JobOutcome`` (or None)."""
        return Call(
            p.Consolidate(rid=self._rid(), session=session, wait=wait), lambda r: r.outcome, True
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


class Client(_Api):
    """Blocking client for scripts and synchronous hosts; one request at a time."""

    def __init__(
        self, socket: str | os.PathLike[str] | None = None, *, timeout: float | None = 60.0
    ) -> None:
        self.path = Path(socket) if socket is not None else default_socket()
        self.timeout = timeout
        self._sock: stdsocket.socket | None = None
        self._reader = FrameReader(_MAX_REPLY_BYTES)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def _connect(self) -> stdsocket.socket:
        if self._sock is None:
            sock = stdsocket.socket(stdsocket.AF_UNIX, stdsocket.SOCK_STREAM)
            sock.settimeout(self.timeout)
            try:
                sock.connect(str(self.path))
            except OSError as exc:
                sock.close()
                raise ConnectionLost(
                    f"cannot connect to the reverie daemon at {self.path}: {exc.strerror or exc}; "
                    "is it running (`reverie serve`)? set REVERIE_SOCKET or --socket"
                ) from exc
            self._sock = sock
            self._reached = True
            self._reader = FrameReader(_MAX_REPLY_BYTES)
        return self._sock

    def _roundtrip(self, request: p.Request) -> p.Reply:
        sock = self._connect()
        try:
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                # A refusing daemon answers (``busy``, rid 0) and closes without reading
                # the request: its answer is still in the receive buffer, so read on.
                sock.sendall(frame(p.encode(request)))
            while True:
                data = sock.recv(256 * 1024)
                if not data:
                    raise ConnectionLost("the daemon closed the connection")
                for body in self._reader.feed(data):
                    reply = p.decode_reply(body)
                    if reply.rid in (request.rid, 0):
                        return reply
        except (OSError, ConnectionLost) as exc:
            self.close()
            if isinstance(exc, ConnectionLost):
                raise
            raise ConnectionLost(f"connection to the daemon failed: {exc}") from exc

    def _call(self, request: p.Request, convert: Callable[[Any], T], idempotent: bool) -> T:
        delays = iter(RETRY_DELAYS if idempotent and self._reached else ())
        while True:
            try:
                reply = self._roundtrip(request)
                break
            except ConnectionLost:
                delay = next(delays, None)
                if delay is None:
                    raise
                time.sleep(delay)
        _raise_for(reply)
        return convert(reply)


class AsyncClient(_Api):
    """anyio client (asyncio or trio hosts); pipelines concurrent calls on one connection.

    Use as ``async with AsyncClient() as client:``; it owns a reader task.
    """

    def __init__(self, socket: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(socket) if socket is not None else default_socket()
        self._stream: anyio.abc.SocketStream | None = None
        self._waiters: dict[int, tuple[anyio.Event, list[p.Reply]]] = {}
        self._send_lock = anyio.Lock()
        self._connect_lock = anyio.Lock()
        self._tg: anyio.abc.TaskGroup | None = None

    async def __aenter__(self) -> AsyncClient:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        return self

    async def __aexit__(self, *exc: Any) -> None:
        assert self._tg is not None
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)
        await self._disconnect()

    async def _disconnect(self) -> None:
        stream, self._stream = self._stream, None
        if stream is not None:
            await stream.aclose()
        for event, _ in self._waiters.values():
            event.set()  # wakes callers with no reply: they see a lost connection

    async def _ensure(self) -> anyio.abc.SocketStream:
        async with self._connect_lock:
            if self._stream is None:
                if self._tg is None:
                    raise ProtocolError("use AsyncClient as `async with AsyncClient() as client:`")
                try:
                    stream = await anyio.connect_unix(str(self.path))
                except OSError as exc:
                    raise ConnectionLost(
                        f"cannot connect to the reverie daemon at {self.path}: {exc.strerror or exc}; "
                        "is it running (`reverie serve`)? set REVERIE_SOCKET"
                    ) from exc
                self._stream = stream
                self._reached = True
                self._tg.start_soon(self._read_loop, stream)
            return self._stream

    async def _read_loop(self, stream: anyio.abc.SocketStream) -> None:
        reader = FrameReader(_MAX_REPLY_BYTES)
        try:
            while True:
                data = await stream.receive(256 * 1024)
                for body in reader.feed(data):
                    self._deliver(p.decode_reply(body))
        except (anyio.EndOfStream, anyio.BrokenResourceError, anyio.ClosedResourceError, OSError):
            pass
        if self._stream is stream:
            await self._disconnect()

    def _deliver(self, reply: p.Reply) -> None:
        if reply.rid == 0:  # a connection-level error: every waiter gets it
            for event, box in self._waiters.values():
                box.append(reply)
                event.set()
            return
        waiter = self._waiters.get(reply.rid)
        if waiter is not None:
            waiter[1].append(reply)
            waiter[0].set()

    async def _roundtrip(self, request: p.Request) -> p.Reply:
        stream = await self._ensure()
        event, box = anyio.Event(), []
        self._waiters[request.rid] = (event, box)
        try:
            async with self._send_lock:
                try:
                    await stream.send(frame(p.encode(request)))
                except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
                    if self._stream is stream:
                        # A refusing daemon answers (``busy``, rid 0) and closes without
                        # reading the request; the reader still delivers that answer.
                        with anyio.move_on_after(_DRAIN_SECONDS):
                            await event.wait()
                    if not box:
                        await self._disconnect()
                        raise ConnectionLost(f"connection to the daemon failed: {exc}") from exc
            await event.wait()
        finally:
            del self._waiters[request.rid]
        if not box:
            raise ConnectionLost("the daemon closed the connection")
        return box[0]

    async def _call(self, request: p.Request, convert: Callable[[Any], T], idempotent: bool) -> T:
        delays = iter(RETRY_DELAYS if idempotent and self._reached else ())
        while True:
            try:
                reply = await self._roundtrip(request)
                break
            except ConnectionLost:
                delay = next(delays, None)
                if delay is None:
                    raise
                await anyio.sleep(delay)
        _raise_for(reply)
        return convert(reply)
