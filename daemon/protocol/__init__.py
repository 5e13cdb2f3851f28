"""The wire protocol: every frame a msgspec Struct in one tagged union per direction.

A frame is a 4-byte big-endian length followed by that many bytes of
msgpack (``framing``). Each request carries a client-chosen ``rid`` that its
reply echoes, so a connection can pipeline many requests; replies for one
session come back in request order, replies for different sessions in any
order.

The frames live one module per feature (``sessions``, ``memory``,
``streams``, ``admin``, ``backup``, ``working_memory``, ``search``) over the
bases in ``frames``; this package folds them into the ``Request`` and
``Reply`` unions and owns the codec. A module imports ``frames`` and nothing
else of the package, so there is no cycle.

Schema evolution: new fields get defaults and go last; a field's type never
changes; tags are never renamed. ``PROTOCOL_VERSION`` rises only for a
change old clients cannot ignore. See docs/protocol.md.

This package imports neither the actors nor the store: hosts import it (with
the client) without the daemon's machinery.
"""

from __future__ import annotations

import reprlib

import msgspec

from reverie.config import BadFrame, InvalidArgument, ProtocolError, ReverieError, UnknownOp

from .admin import (
    BackendStatus,
    ClusterStatus,
    DaemonStatus,
    ForgetStatus,
    IndexStatus,
    MemberStatus,
    MemoryStatus,
    Metrics,
    MetricsReply,
    ProcessStatus,
    ReindexStatus,
    ScopeCounts,
    SessionCounts,
    Status,
    StatusReply,
    StoreStatus,
)
from .backup import Backup, BackupReply, BackupView
from .frames import MAX_PAGE, PROTOCOL_VERSION, Data, ErrorReply, Frame, Hello, HelloReply, Page
from .framing import FrameReader, frame
from .memory import (
    Consolidate,
    ConsolidateReply,
    FactEdit,
    FactEditReply,
    FactHistory,
    FactHistoryReply,
    Facts,
    FactsReply,
    FactView,
    HistoryEntryView,
    JobOutcome,
    Memory,
    MemoryEdit,
    MemoryEditReply,
    MemoryForgetFact,
    MemoryForgetFactReply,
    MemoryReply,
    MemoryView,
)
from .search import SearchReplyFrame, SearchRequest
from .sessions import (
    MAX_ID_CHARS,
    Ack,
    Append,
    AppendReply,
    Context,
    ContextReply,
    ContextView,
    Forget,
    ForgetReply,
    History,
    HistoryReply,
    Message,
    MessageId,
    MessageIn,
    Pop,
    PopReply,
    Role,
    Seq,
    SessionInfo,
    Sessions,
    SessionsReply,
)
from .streams import MAX_STREAM_TTL, StreamBegin, StreamBeginReply, StreamEnd, StreamEndReply
from .working_memory import WmReply, WmRequest

__all__ = [
    "MAX_ID_CHARS",
    "MAX_PAGE",
    "MAX_STREAM_TTL",
    "PROTOCOL_VERSION",
    "REQUEST_OPS",
    "UNDECODABLE",
    "Ack",
    "Append",
    "AppendReply",
    "BackendStatus",
    "Backup",
    "BackupReply",
    "BackupView",
    "ClusterStatus",
    "Consolidate",
    "ConsolidateReply",
    "Context",
    "ContextReply",
    "ContextView",
    "DaemonStatus",
    "Data",
    "ErrorReply",
    "FactEdit",
    "FactEditReply",
    "FactHistory",
    "FactHistoryReply",
    "FactView",
    "Facts",
    "FactsReply",
    "Forget",
    "ForgetReply",
    "ForgetStatus",
    "Frame",
    "FrameReader",
    "Hello",
    "HelloReply",
    "History",
    "HistoryEntryView",
    "HistoryReply",
    "IndexStatus",
    "JobOutcome",
    "MemberStatus",
    "Memory",
    "MemoryEdit",
    "MemoryEditReply",
    "MemoryForgetFact",
    "MemoryForgetFactReply",
    "MemoryReply",
    "MemoryStatus",
    "MemoryView",
    "Message",
    "MessageId",
    "MessageIn",
    "Metrics",
    "MetricsReply",
    "Page",
    "Pop",
    "PopReply",
    "ProcessStatus",
    "ReindexStatus",
    "Reply",
    "Request",
    "Role",
    "ScopeCounts",
    "Seq",
    "SessionCounts",
    "SessionInfo",
    "Sessions",
    "SessionsReply",
    "Status",
    "StatusReply",
    "StoreStatus",
    "StreamBegin",
    "StreamBeginReply",
    "StreamEnd",
    "StreamEndReply",
    "WmReply",
    "WmRequest",
    "decode_reply",
    "decode_request",
    "encode",
    "frame",
    "why_undecodable",
]

Request = (
    Hello
    | Append
    | History
    | Context
    | Sessions
    | Forget
    | Pop
    | Status
    | Consolidate
    | Facts
    | FactEdit
    | FactHistory
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

Reply = (
    HelloReply
    | AppendReply
    | HistoryReply
    | ContextReply
    | SessionsReply
    | ForgetReply
    | PopReply
    | StatusReply
    | ConsolidateReply
    | MemoryReply
    | FactsReply
    | FactEditReply
    | FactHistoryReply
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

REQUEST_OPS = frozenset(cls.__struct_config__.tag for cls in Request.__args__)

#: What ``decode_request`` raises for bytes it cannot decode: besides its own errors, a
#: str that is not UTF-8 and nesting past the interpreter's recursion limit.
UNDECODABLE = (msgspec.DecodeError, UnicodeDecodeError, RecursionError)
_encoder = msgspec.msgpack.Encoder()
#: The integers msgpack carries.
_WIRE_INT = (-(2**63), 2**64 - 1)
_request_decoder = msgspec.msgpack.Decoder(Request)
_reply_decoder = msgspec.msgpack.Decoder(Reply)


def encode(frame: Frame) -> bytes:
    """The frame's msgpack body (without the length prefix).

    An integer msgpack cannot carry (below -2**63 or above 2**64-1) is the
    caller's bad value: ``InvalidArgument`` naming the field, raised before
    anything is sent.
    """
    try:
        return _encoder.encode(frame)
    except OverflowError as exc:
        low, high = _WIRE_INT
        fields = [
            f"`$.{name}`"
            for name in frame.__struct_fields__
            if isinstance(value := getattr(frame, name), int) and not low <= value <= high
        ]
        op = frame.__struct_config__.tag
        raise InvalidArgument(
            f"invalid {op} request: an integer outside -2**63 to 2**64-1 (what msgpack "
            f"carries) - at {', '.join(fields) or 'a nested value'}"
        ) from exc


def decode_request(body: bytes) -> Request:
    """Raises ``msgspec.DecodeError`` (not msgpack) or ``msgspec.ValidationError`` (wrong shape)."""
    request: Request = _request_decoder.decode(body)
    return request


def decode_reply(body: bytes) -> Reply:
    reply: Reply = _reply_decoder.decode(body)
    return reply


def why_undecodable(body: bytes, exc: Exception) -> tuple[int, ProtocolError | ReverieError]:
    """Why ``decode_request`` refused ``body``: not a map with an rid (``bad_frame``, rid 0),
    an unknown op, or a field outside the schema (``invalid_argument``, naming it)."""
    try:
        raw = msgspec.msgpack.decode(body)
    except UNDECODABLE:
        return 0, BadFrame(
            "frame is not valid msgpack (or has text that is not UTF-8, or nests deeper "
            "than the decoder allows); the connection is closed"
        )
    if (
        not isinstance(raw, dict)
        or not isinstance(raw.get("rid"), int)
        or isinstance(raw.get("rid"), bool)
    ):
        return 0, BadFrame(
            "frame must be a map with an integer 'rid' and an 'op'; the connection is closed"
        )
    rid = raw["rid"]
    op = raw.get("op")
    if not isinstance(op, str) or op not in REQUEST_OPS:  # a list or map is unhashable
        return rid, UnknownOp(
            f"unknown op {reprlib.repr(op)}; known ops: {', '.join(sorted(REQUEST_OPS))}"
        )
    return rid, InvalidArgument(f"invalid {op} request: {exc}")
