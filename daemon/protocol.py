"""The wire protocol: every frame a msgspec Struct in one tagged union per direction.

A frame is a 4-byte big-endian length followed by that many bytes of
msgpack. Each request carries a client-chosen ``rid`` that its reply
echoes, so a connection can pipeline many requests; replies for one session
come back in request order, replies for different sessions in any order.

Schema evolution: new fields get defaults and go last; a field's type never
changes; tags are never renamed. ``PROTOCOL_VERSION`` rises only for a
change old clients cannot ignore. See docs/protocol.md.

This module imports neither the actors nor the store: hosts import it (with
the client) without the daemon's machinery.
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = [
    "PROTOCOL_VERSION",
    "Ack",
    "Append",
    "AppendReply",
    "Backup",
    "BackupReply",
    "BackupView",
    "Consolidate",
    "ConsolidateReply",
    "Context",
    "ContextReply",
    "ContextView",
    "ErrorReply",
    "Forget",
    "ForgetReply",
    "Hello",
    "HelloReply",
    "History",
    "HistoryEntryView",
    "HistoryReply",
    "JobOutcome",
    "Memory",
    "MemoryEdit",
    "MemoryEditReply",
    "MemoryForgetFact",
    "MemoryForgetFactReply",
    "MemoryReply",
    "MemoryView",
    "Message",
    "MessageIn",
    "Metrics",
    "MetricsReply",
    "Reply",
    "Request",
    "SessionInfo",
    "Sessions",
    "SessionsReply",
    "Status",
    "StatusReply",
    "StreamBegin",
    "StreamBeginReply",
    "StreamEnd",
    "StreamEndReply",
    "WmReply",
    "WmRequest",
    "decode_reply",
    "decode_request",
    "encode",
]

PROTOCOL_VERSION = 1


class _Frame(msgspec.Struct, frozen=True, kw_only=True, tag_field="op"):
    """Every frame: tagged by ``op`` and carrying the request id it belongs to."""

    rid: int


class _Data(msgspec.Struct, frozen=True, kw_only=True):
    """A value inside a frame."""


# -- values -----------------------------------------------------------------


class MessageIn(_Data):
    """A message to append. ``id`` makes a retry idempotent; ``ts`` defaults to now."""

    role: str
    content: str
    id: str | None = None
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None
    ts: float | None = None


class Message(_Data):
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


class Ack(_Data):
    """An appended (or already present) message: its place in the session."""

    seq: int
    id: str


class ContextView(_Data):
    """What a host puts in its prompt: ``memory`` first (byte-stable), then ``messages``."""

    memory: str
    messages: list[Message]
    tokens: int


class SessionInfo(_Data):
    name: str
    scope: str
    messages: int
    tail_messages: int
    tail_tokens: int
    last_active: float


# -- requests ---------------------------------------------------------------


class Hello(_Frame, tag="hello"):
    version: int = PROTOCOL_VERSION
    client: str = ""


class Append(_Frame, tag="append"):
    """Append one message or a batch, atomically: all of them or none."""

    session: str
    messages: list[MessageIn]
    scope: str | None = None


class History(_Frame, tag="history"):
    """Messages with seq > ``after_seq``, oldest first (page with the last seq seen)."""

    session: str
    after_seq: int = 0
    limit: int = 100


class Context(_Frame, tag="context"):
    session: str


class Sessions(_Frame, tag="sessions"):
    """Sessions ordered by name, after ``after`` (page with the last name seen)."""

    after: str = ""
    limit: int = 100


class Forget(_Frame, tag="forget"):
    """Delete a session and everything derived from it."""

    session: str


class Status(_Frame, tag="status"):
    pass


class Consolidate(_Frame, tag="consolidate"):
    """Consolidate the session's tail now; ``wait`` replies when the job is done."""

    session: str
    wait: bool = False


class Memory(_Frame, tag="memory"):
    """A scope's ``MEMORY.md`` and its most recent history entries."""

    scope: str
    limit: int = 20


class MemoryEdit(_Frame, tag="memory_edit"):
    """Replace a scope's ``MEMORY.md`` (the memory prefix changes)."""

    scope: str
    text: str


class MemoryForgetFact(_Frame, tag="memory_forget_fact"):
    """Delete one fact of a scope: from ``MEMORY.md``, the episodes' fact lists and the index."""

    scope: str
    fact: str


class StreamBegin(_Frame, tag="stream_begin"):
    """A host declares its own live completion on ``backend``: consolidation waits."""

    backend: str = "default"
    ttl: float = 60.0


class StreamEnd(_Frame, tag="stream_end"):
    lease: str


class Metrics(_Frame, tag="metrics"):
    """The daemon's status as Prometheus text exposition (the same data as ``status``)."""


from .backup_protocol import Backup, BackupReply, BackupView  # noqa: E402  (same)
from .search_protocol import SearchReplyFrame, SearchRequest  # noqa: E402  (same)
from .wm_protocol import WmReply, WmRequest  # noqa: E402  (its frames subclass _Frame above)

Request = (
    Hello
    | Append
    | History
    | Context
    | Sessions
    | Forget
    | Status
    | Consolidate
    | Memory
    | MemoryEdit
    | MemoryForgetFact
    | StreamBegin
    | StreamEnd
    | WmRequest
    | Metrics
    | SearchRequest
    | Backup
)

# -- replies ----------------------------------------------------------------


class HelloReply(_Frame, tag="hello"):
    version: int
    server: str
    max_frame_bytes: int


class AppendReply(_Frame, tag="append"):
    acks: list[Ack]


class HistoryReply(_Frame, tag="history"):
    messages: list[Message]


class ContextReply(_Frame, tag="context"):
    context: ContextView


class SessionsReply(_Frame, tag="sessions"):
    sessions: list[SessionInfo]


class ForgetReply(_Frame, tag="forget"):
    deleted: int


class StatusReply(_Frame, tag="status"):
    status: dict[str, Any]


class HistoryEntryView(_Data):
    """One history entry: what a consolidation made of a range of messages."""

    id: str
    session: str
    start_ts: float
    end_ts: float
    message_ids: list[str]
    summary: str
    facts: list[str]
    raw: bool


class MemoryView(_Data):
    scope: str
    memory: str
    entries: list[HistoryEntryView]
    problems: list[str] = []  # what cannot be read exactly (kept in the files as it is)


class JobOutcome(_Data):
    job: str
    entry: str
    state: str
    messages: int


class ConsolidateReply(_Frame, tag="consolidate"):
    """``outcome`` is None when not waiting, or when there was nothing to consolidate."""

    outcome: JobOutcome | None = None


class MemoryReply(_Frame, tag="memory"):
    view: MemoryView


class MemoryEditReply(_Frame, tag="memory_edit"):
    problems: list[str] = []  # what in the new text cannot be read exactly (kept as it is)


class MemoryForgetFactReply(_Frame, tag="memory_forget_fact"):
    removed: int


class StreamBeginReply(_Frame, tag="stream_begin"):
    lease: str
    expires_in: float


class StreamEndReply(_Frame, tag="stream_end"):
    ended: bool


class MetricsReply(_Frame, tag="metrics"):
    text: str


class ErrorReply(_Frame, tag="error"):
    """A typed failure: ``code`` is stable, ``message`` says what to do."""

    code: str
    message: str


Reply = (
    HelloReply
    | AppendReply
    | HistoryReply
    | ContextReply
    | SessionsReply
    | ForgetReply
    | StatusReply
    | ConsolidateReply
    | MemoryReply
    | MemoryEditReply
    | MemoryForgetFactReply
    | StreamBeginReply
    | StreamEndReply
    | ErrorReply
    | WmReply
    | MetricsReply
    | SearchReplyFrame
    | BackupReply
)

REQUEST_OPS = frozenset(cls.__struct_config__.tag for cls in Request.__args__)  # type: ignore[attr-defined]

_encoder = msgspec.msgpack.Encoder()
_request_decoder = msgspec.msgpack.Decoder(Request)
_reply_decoder = msgspec.msgpack.Decoder(Reply)


def encode(frame: _Frame) -> bytes:
    """The frame's msgpack body (without the length prefix)."""
    return _encoder.encode(frame)


def decode_request(body: bytes) -> Request:
    """Raises ``msgspec.DecodeError`` (not msgpack) or ``msgspec.ValidationError`` (wrong shape)."""
    return _request_decoder.decode(body)


def decode_reply(body: bytes) -> Reply:
    return _reply_decoder.decode(body)
