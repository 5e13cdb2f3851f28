"""Length-prefixed frames: a 4-byte big-endian length, then the body.

Pure byte handling shared by the server (trio) and the clients (anyio and
blocking sockets), so both ends agree on limits and errors.
"""

from __future__ import annotations

import struct

from reverie.config import FrameTooLarge

__all__ = ["FrameReader", "frame"]

_LEN = struct.Struct(">I")


def frame(body: bytes) -> bytes:
    """``body`` with its length prefix."""
    return _LEN.pack(len(body)) + body


class FrameReader:
    """Accumulates received bytes and yields whole frame bodies.

    A length prefix over ``max_bytes`` raises ``FrameTooLarge`` before any of
    the body is buffered, so a hostile prefix costs no memory.
    """

    __slots__ = ("_buf", "max_bytes")

    def __init__(self, max_bytes: int) -> None:
        self._buf = bytearray()
        self.max_bytes = max_bytes

    def feed(self, data: bytes | memoryview) -> list[bytes]:
        self._buf += data
        bodies = []
        while len(self._buf) >= 4:
            (size,) = _LEN.unpack_from(self._buf)
            if size > self.max_bytes:
                raise FrameTooLarge(
                    f"frame of {size} bytes is over the limit of {self.max_bytes}; "
                    "send smaller batches or raise daemon.max_frame_bytes"
                )
            if len(self._buf) < 4 + size:
                break
            bodies.append(bytes(self._buf[4 : 4 + size]))
            del self._buf[: 4 + size]
        return bodies

    @property
    def pending(self) -> int:
        """Bytes received that are not yet a whole frame (a truncated frame at EOF)."""
        return len(self._buf)
