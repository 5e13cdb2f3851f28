"""``AsyncClient``: the anyio client (asyncio or trio hosts), pipelining calls on one connection.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
import anyio.abc

from reverie.config import ConnectionLost, ProtocolError

from .. import protocol as p
from ..protocol.framing import FrameReader, frame
from .api import MAX_REPLY_BYTES, RETRY_DELAYS, Api, default_socket, moved, raise_for
from .calls import Async
from .unreachable import unreachable

__all__ = ["AsyncClient"]

T = TypeVar("T")
#: How long a failed send waits for what the daemon said before it closed.
_DRAIN_SECONDS = 5.0


class AsyncClient(Api, Async):
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
                    raise unreachable(self.path, exc, "REVERIE_SOCKET") from exc
                self._stream = stream
                self._reached = True
                self._tg.start_soon(self._read_loop, stream)
            return self._stream

    async def _read_loop(self, stream: anyio.abc.SocketStream) -> None:
        reader = FrameReader(MAX_REPLY_BYTES)
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
        event, box = anyio.Event(), list[p.Reply]()
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
        again = iter(RETRY_DELAYS)
        while True:
            try:
                reply = await self._roundtrip(request)
            except ConnectionLost:
                delay = next(delays, None)
                if delay is None:
                    raise
            else:
                delay = next(again, None) if moved(reply) else None
                if delay is None:
                    break
            await anyio.sleep(delay)
        raise_for(reply)
        return convert(reply)
