"""Wire frames for sessions: append, read back (history, context), list and forget.

Same conventions as the package (which folds these into its ``Request`` and
``Reply`` unions): the tag is the op name, and a reply has the same tag as
its request.
"""

from __future__ import annotations

from typing import Any

from .frames import Data, Frame

__all__ = [
    "Ack",
    "Append",
    "AppendReply",
    "Context",
    "ContextReply",
    "ContextView",
    "Forget",
    "ForgetReply",
    "History",
    "HistoryReply",
    "Message",
    "MessageIn",
    "SessionInfo",
    "Sessions",
    "SessionsReply",
]


class MessageIn(Data):
    """A message to append. ``id`` makes a retry idempotent; ``ts`` defaults to now."""

    role: str
    content: str
    id: str | None = None
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None
    ts: float | None = None


class Message(Data):
    """A stored message."""

    seq: int
    id: str
    role: str
    content: str
    ts: float
    tokens: int
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None


class Ack(Data):
    """An appended (or already present) message: its place in the session."""

    seq: int
    id: str


class ContextView(Data):
    """What a host puts in its prompt: ``memory`` first (byte-stable), then ``messages``."""

    memory: str
    messages: list[Message]
    tokens: int


class SessionInfo(Data):
    name: str
    scope: str
    messages: int
    tail_messages: int
    tail_tokens: int
    last_active: float


class Append(Frame, tag="append"):
    """Append one message or a batch, atomically: all of them or none."""

    session: str
    messages: list[MessageIn]
    scope: str | None = None


class History(Frame, tag="history"):
    """Messages with seq > ``after_seq``, oldest first (page with the last seq seen)."""

    session: str
    after_seq: int = 0
    limit: int = 100


class Context(Frame, tag="context"):
    session: str


class Sessions(Frame, tag="sessions"):
    """Sessions ordered by name, after ``after`` (page with the last name seen)."""

    after: str = ""
    limit: int = 100


class Forget(Frame, tag="forget"):
    """Delete a session and everything derived from it."""

    session: str


class AppendReply(Frame, tag="append"):
    acks: list[Ack]


class HistoryReply(Frame, tag="history"):
    messages: list[Message]


class ContextReply(Frame, tag="context"):
    context: ContextView


class SessionsReply(Frame, tag="sessions"):
    sessions: list[SessionInfo]


class ForgetReply(Frame, tag="forget"):
    deleted: int
