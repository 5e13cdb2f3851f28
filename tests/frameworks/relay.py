"""A socket in front of a real daemon that notes each request and can lose one reply.

``Relay(daemon_socket, path)`` listens on ``path`` and relays each
connection to the daemon byte for byte, noting each request's ``op`` in
``ops``. With ``lose="append"``, the first ``append`` it relays reaches the
daemon and commits; its reply is dropped, the connection closed and the
listener taken down, so the client sees the failure a host sees when its
daemon's acknowledgement is lost (and cannot get through on a retry).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

import msgspec

from reverie.daemon.protocol.framing import FrameReader

__all__ = ["Relay"]

_CHUNK = 1 << 16


class Relay:
    def __init__(
        self, daemon_socket: str | os.PathLike[str], path: Path, *, lose: str | None = None
    ) -> None:
        self.daemon_socket = str(daemon_socket)
        self.path = path
        self.lose = lose
        self.ops: list[str] = []
        self.cut = threading.Event()
        self._listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._listener.bind(str(path))
        self._listener.listen()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.cut.is_set():
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            daemon.connect(self.daemon_socket)
            lost = threading.Event()
            threading.Thread(target=self._requests, args=(client, daemon, lost)).start()
            threading.Thread(target=self._replies, args=(daemon, client, lost)).start()

    def _requests(
        self, client: socket.socket, daemon: socket.socket, lost: threading.Event
    ) -> None:
        reader = FrameReader(1 << 30)
        with contextlib.suppress(OSError):
            while data := client.recv(_CHUNK):
                for body in reader.feed(data):
                    op = msgspec.msgpack.decode(body).get("op")
                    self.ops.append(op)
                    if op == self.lose:
                        lost.set()
                daemon.sendall(data)

    def _replies(self, daemon: socket.socket, client: socket.socket, lost: threading.Event) -> None:
        with contextlib.suppress(OSError):
            while data := daemon.recv(_CHUNK):
                if lost.is_set():  # the reply to lose (or the first of it): dropped
                    self.close()
                    break
                client.sendall(data)
        for end in (client, daemon):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
            end.close()

    def close(self) -> None:
        """Take the listener down: later connections find no socket."""
        self.cut.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
