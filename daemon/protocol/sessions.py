"""Wire frames for sessions: append, read back (history, context), list and forget.

Same conventions as the package (which folds these into its ``Request`` and
``Reply`` unions): the tag is the op name, and a reply has the same tag as
its request.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from .frames import MAX_INT, Count, Data, Frame, Page

#: The roles a message may have.
Role = Literal["system", "user", "assistant", "tool"]
#: The longest client-supplied message id.
MAX_ID_CHARS = 128
#: A message id (printable too, which the schema cannot say: the session checks it).
MessageId = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_ID_CHARS)]
#: The database's integers are signed 64-bit: a bigger seq would fail the query.
Seq = Annotated[int, msgspec.Meta(ge=-MAX_INT - 1, le=MAX_INT)]

__all__ = [
    "MAX_ID_CHARS",
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
    "MessageId",
    "MessageIn",
    "Pop",
    "PopReply",
    "Role",
    "Seq",
    "SessionInfo",
    "Sessions",
    "SessionsReply",
]


class MessageIn(Data):
    """A message to append. ``id`` makes a retry idempotent; ``ts`` defaults to now."""

    role: Role
    content: str
    id: MessageId | None = None
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None
    ts: float | None = None


class Message(Data):
    """A stored message."""

    seq: int
    id: str
    role: Role
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
    """What a host puts in its prompt: ``memory`` first (byte-stable), then ``messages``.

    ``tokens`` counts what the prompt gets, memory and messages, ``memory_tokens``
    the memory alone; ``omitted``
    is how many of the tail's oldest messages were left out to fit
    ``max_tokens`` (they stay in the tail and in ``history``).
    """

    memory: str
    messages: list[Message]
    tokens: int
    memory_tokens: int = 0
    omitted: int = 0


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
    messages: Annotated[list[MessageIn], msgspec.Meta(min_length=1)]
    scope: str | None = None


class History(Frame, tag="history"):
    """Messages with seq > ``after_seq``, oldest first (page with the last seq seen)."""

    session: str
    after_seq: Seq = 0
    limit: Page = 100


class Context(Frame, tag="context"):
    """``max_tokens``: memory and messages together, the tail cut at whole turns (newest
    kept); None: the daemon's ``sessions.context_max_tokens``; 0: the whole tail."""

    session: str
    max_tokens: Count | None = None
    provenance: bool = False  # memory as MEMORY.md has it, each fact's sources included
    #: The memory of a session with no message yet: this scope's (None: the session's own,
    #: ``session/<name>``). A session that has messages keeps the scope its first append set.
    scope: str | None = None


class Sessions(Frame, tag="sessions"):
    """Sessions ordered by name, after ``after`` (page with the last name seen), named ``prefix…``."""

    after: str = ""
    limit: Page = 100
    prefix: str = ""


class Forget(Frame, tag="forget"):
    """Delete a session and everything derived from it."""

    session: str


class Pop(Frame, tag="pop"):
    """Remove the session's newest message, unless consolidation has taken it.

    The undo of an append (the OpenAI Agents SDK's ``Session.pop_item``): the
    message leaves the log, its words the full-text index and its row the
    search index; the session's seq and tail counters step back. A message
    already consolidated (or in a running consolidation job) is refused with
    ``conflict``: its words are in the history and ``MEMORY.md`` by then.
    """

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


class PopReply(Frame, tag="pop"):
    """The message removed; None when the session had none."""

    message: Message | None = None
