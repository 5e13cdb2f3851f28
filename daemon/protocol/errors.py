"""The protocol's branch of the error tree (root: ``reverie.config.errors``).

These are the faults of a peer's bytes: they close or refuse a request
before it reaches an actor.
"""

from __future__ import annotations

from typing import ClassVar

from reverie.config import ReverieError

__all__ = [
    "BadFrame",
    "ConnectionLost",
    "FrameTooLarge",
    "ProtocolError",
    "Unauthorized",
    "UnknownOp",
]


class ProtocolError(ReverieError):
    code: ClassVar[str] = "protocol.error"


class BadFrame(ProtocolError):
    """Not msgpack, not a map, or missing a request id; the connection is closed."""

    code: ClassVar[str] = "bad_frame"


class FrameTooLarge(ProtocolError):
    """A length prefix over the limit; the connection is closed."""

    code: ClassVar[str] = "frame_too_large"


class UnknownOp(ProtocolError):
    """The ``op`` names no operation this daemon knows; upgrade it or fix the client."""

    code: ClassVar[str] = "unknown_op"


class Unauthorized(ProtocolError):
    """The peer's uid/gid is not allowed on this socket."""

    code: ClassVar[str] = "unauthorized"


class ConnectionLost(ProtocolError):
    """The daemon closed the connection or could not be reached (client side)."""

    code: ClassVar[str] = "connection_lost"
