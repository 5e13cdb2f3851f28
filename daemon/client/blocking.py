"""``Client``: the blocking client for scripts and synchronous hosts, one request at a time.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import contextlib
import os
import socket as stdsocket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from reverie.config import ConnectionLost

from .. import protocol as p
from ..protocol.framing import FrameReader, frame
from .api import MAX_REPLY_BYTES, RETRY_DELAYS, Api, default_socket, moved, raise_for
from .calls import Blocking
from .unreachable import unreachable

__all__ = ["Client"]

T = TypeVar("T")


class Client(Api, Blocking):
    """Blocking client for scripts and synchronous hosts; one request at a time."""

    def __init__(
        self, socket: str | os.PathLike[str] | None = None, *, timeout: float | None = 60.0
    ) -> None:
        self.path = Path(socket) if socket is not None else default_socket()
        self.timeout = timeout
        self._sock: stdsocket.socket | None = None
        self._reader = FrameReader(MAX_REPLY_BYTES)

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
                raise unreachable(self.path, exc, "REVERIE_SOCKET or --socket") from exc
            self._sock = sock
            self._reached = True
            self._reader = FrameReader(MAX_REPLY_BYTES)
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
        again = iter(RETRY_DELAYS)
        while True:
            try:
                reply = self._roundtrip(request)
            except ConnectionLost:
                delay = next(delays, None)
                if delay is None:
                    raise
            else:
                delay = next(again, None) if moved(reply) else None
                if delay is None:
                    break
            time.sleep(delay)
        raise_for(reply)
        return convert(reply)
