"""A socket in front of a real daemon that loses the acknowledgement of one append.

``LostAck(daemon_socket, path)`` listens on ``path`` and relays each
connection to the daemon byte for byte. The first ``append`` it relays
reaches the daemon and commits; its reply is dropped, the connection closed
and the listener taken down, so the client sees the failure a host sees when
its daemon's acknowledgement is lost (and cannot get through on a retry).
"""

from __future__ import annotations

import contextlib
import os
import socket
import threading
from pathlib import Path

import msgspec

from reverie.daemon.protocol.framing import FrameReader

__all__ = ["LostAck"]

_CHUNK = 1 << 16


class LostAck:
    def __init__(self, daemon_socket: str | os.PathLike[str], path: Path) -> None:
        self.daemon_socket = str(daemon_socket)
        self.path = path
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
            appended = threading.Event()
            threading.Thread(target=self._requests, args=(client, daemon, appended)).start()
            threading.Thread(target=self._replies, args=(daemon, client, appended)).start()

    def _requests(
        self, client: socket.socket, daemon: socket.socket, appended: threading.Event
    ) -> None:
        reader = FrameReader(1 << 30)
        with contextlib.suppress(OSError):
            while data := client.recv(_CHUNK):
                for body in reader.feed(data):
                    if msgspec.msgpack.decode(body).get("op") == "append":
                        appended.set()
                daemon.sendall(data)

    def _replies(
        self, daemon: socket.socket, client: socket.socket, appended: threading.Event
    ) -> None:
        with contextlib.suppress(OSError):
            while data := daemon.recv(_CHUNK):
                if appended.is_set():  # the append's reply (or the first of it): dropped
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
