"""The frame every message on the wire is: a tagged msgspec Struct carrying its request id.

``Frame`` is the base of every request and reply (tagged by ``op``); ``Data``
the base of the values inside them. ``Hello`` and ``ErrorReply`` belong to
the connection rather than to a feature.
"""

from __future__ import annotations

import msgspec

__all__ = ["PROTOCOL_VERSION", "Data", "ErrorReply", "Frame", "Hello", "HelloReply"]

PROTOCOL_VERSION = 1


class Frame(msgspec.Struct, frozen=True, kw_only=True, tag_field="op"):
    """Every frame: tagged by ``op`` and carrying the request id it belongs to."""

    rid: int


class Data(msgspec.Struct, frozen=True, kw_only=True):
    """A value inside a frame."""


class Hello(Frame, tag="hello"):
    version: int = PROTOCOL_VERSION
    client: str = ""


class HelloReply(Frame, tag="hello"):
    version: int
    server: str
    max_frame_bytes: int


class ErrorReply(Frame, tag="error"):
    """A typed failure: ``code`` is stable, ``message`` says what to do."""

    code: str
    message: str
