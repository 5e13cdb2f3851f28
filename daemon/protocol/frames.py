"""The frame every message on the wire is: a tagged msgspec Struct carrying its request id.

``Frame`` is the base of every request and reply (tagged by ``op``); ``Data``
the base of the values inside them. ``Hello`` and ``ErrorReply`` belong to
the connection rather than to a feature.

Every integer field of a request but ``rid`` carries its bounds (``Annotated[int,
Meta(ge=..., le=...)]``), so a value the daemon could not use (past
the database's signed 64 bits, say) is ``invalid_argument`` when the request is
decoded, naming the field, never an ``OverflowError`` further in.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

__all__ = [
    "MAX_INT",
    "MAX_PAGE",
    "PROTOCOL_VERSION",
    "Count",
    "Data",
    "ErrorReply",
    "Frame",
    "Hello",
    "HelloReply",
    "Page",
]

PROTOCOL_VERSION = 1
#: The most items one page of ``history``, ``sessions`` or ``memory`` returns.
MAX_PAGE = 1000

#: A page size: a request outside it is rejected when decoded (``invalid_argument``).
Page = Annotated[int, msgspec.Meta(ge=1, le=MAX_PAGE)]
#: The database's largest integer (signed 64 bits): the top of every bounded integer field, and
#: of the hosts' own checks of one (the MCP tools, the inspector's query strings).
MAX_INT = 2**63 - 1
#: A count, a size or a version: the database's signed 64-bit integers, never negative.
Count = Annotated[int, msgspec.Meta(ge=0, le=MAX_INT)]


class Frame(msgspec.Struct, frozen=True, kw_only=True, tag_field="op"):
    """Every frame: tagged by ``op`` and carrying the request id it belongs to."""

    #: Any integer msgpack carries (-2**63 to 2**64-1, which a bound cannot say): the
    #: daemon only echoes it.
    rid: int


class Data(msgspec.Struct, frozen=True, kw_only=True):
    """A value inside a frame."""


class Hello(Frame, tag="hello"):
    version: Count = PROTOCOL_VERSION
    client: str = ""


class HelloReply(Frame, tag="hello"):
    version: int
    server: str
    max_frame_bytes: int
    max_message_bytes: int = 0  # 0: a daemon from before the limit


class ErrorReply(Frame, tag="error"):
    """A typed failure: ``code`` is stable, ``message`` says what to do."""

    code: str
    message: str
