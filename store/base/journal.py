"""The message log: every session's messages, in order, and each session's row.

A session's row caches what the actor needs without rescanning: its last
seq, its consolidation cursor and the token total of its tail. Messages get
their seq inside the write transaction, in the order the session's actor
submitted them, so seqs are gap free; a retried id never takes a new seq.

Here are the records, ``JournalSql`` (what each engine's ``journal`` module
provides, in the caller's transaction) and ``JournalTx`` (the ``Tx`` calls
of it; docs/design.md, "The store seam").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from reverie.config import Conflict

from .markers import marker_key

__all__ = [
    "AppendOutcome",
    "ForgetJob",
    "JournalSql",
    "JournalTx",
    "MessageRecord",
    "NewMessage",
    "SessionRecord",
]


class NewMessage(msgspec.Struct, frozen=True, kw_only=True):
    """A message as the actor hands it to the store (id and tokens already set)."""

    id: str
    role: str
    content: str
    ts: float
    tokens: int
    name: str | None = None
    tool_calls: Any = None
    tool_call_id: str | None = None


class MessageRecord(msgspec.Struct, frozen=True, kw_only=True):
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


class SessionRecord(msgspec.Struct, kw_only=True):
    """A session's row: what the actor keeps in memory while it is live."""

    name: str
    scope: str
    created: float
    last_seq: int = 0
    cursor_seq: int = 0
    tail_tokens: int = 0
    tail_count: int = 0
    last_active: float = 0.0
    #: The ownership this row was loaded or claimed at (Postgres: ``sessions.epoch``; a
    #: write checks it in its statement). 0: not claimed (a new session, or the files).
    epoch: int = 0


class AppendOutcome(msgspec.Struct, frozen=True):
    """Per request: the (seq, id) acks, or the conflict that refused it whole."""

    acks: list[tuple[int, str]]
    error: Conflict | None = None


_MSG_COLUMNS = "seq, id, role, content, ts, tokens, name, tool_calls, tool_call_id"
_SESSION_COLUMNS = (
    "name, scope, created, last_seq, cursor_seq, tail_tokens, tail_count, last_active"
)


def _record(row: Sequence[Any]) -> MessageRecord:
    seq, mid, role, content, ts, tokens, name, tool_calls, tool_call_id = row
    return MessageRecord(
        seq=seq,
        id=mid,
        role=role,
        content=content,
        ts=ts,
        tokens=tokens,
        name=name,
        tool_calls=json.loads(tool_calls) if tool_calls is not None else None,
        tool_call_id=tool_call_id,
    )


def _session(row: Sequence[Any]) -> SessionRecord:
    name, scope, created, last_seq, cursor_seq, tail_tokens, tail_count, last_active = row
    return SessionRecord(
        name=name,
        scope=scope,
        created=created,
        last_seq=last_seq,
        cursor_seq=cursor_seq,
        tail_tokens=tail_tokens,
        tail_count=tail_count,
        last_active=last_active,
    )


def _session_values(s: SessionRecord) -> tuple[Any, ...]:
    """The row's values in the order of ``_SESSION_COLUMNS`` (``_session``'s inverse)."""
    return (
        s.name,
        s.scope,
        s.created,
        s.last_seq,
        s.cursor_seq,
        s.tail_tokens,
        s.tail_count,
        s.last_active,
    )


def _encode_tool_calls(tool_calls: Any) -> str | None:
    return (
        None
        if tool_calls is None
        else json.dumps(tool_calls, sort_keys=True, separators=(",", ":"))
    )


def _same(stored: Sequence[Any], msg: NewMessage) -> bool:
    """Whether a retried message is the one already stored under its id."""
    role, content, name, tool_calls, tool_call_id = stored
    return (role, content, name, tool_calls, tool_call_id) == (
        msg.role,
        msg.content,
        msg.name,
        _encode_tool_calls(msg.tool_calls),
        msg.tool_call_id,
    )


class ForgetJob(msgspec.Struct, frozen=True, kw_only=True):
    """What a forget still has to remove outside SQLite: a session's, or one fact's, traces."""

    scope: str
    session: str | None = None
    fact: str | None = None

    @property
    def key(self) -> str:
        return marker_key(_FORGET_PREFIX, self)


_FORGET_PREFIX = "forget:"
#: The ``meta`` key counting the forgets finished since the store was last compacted
#: (``Connector.compact``): a stop before the compaction leaves it for the next start.
_COMPACTION_DUE = "compaction due"


class JournalSql(Protocol):
    """What each engine's ``journal`` module provides: the sessions and the message log, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def append_requests(
        self, conn: Any, session: SessionRecord, requests: Sequence[Sequence[NewMessage]], /
    ) -> list[AppendOutcome]: ...

    def save_session(self, conn: Any, s: SessionRecord, /) -> None: ...

    def claim_session(self, conn: Any, name: str, /) -> SessionRecord | None: ...

    def release_sessions(self, conn: Any, owned: list[tuple[str, int]], /) -> None: ...

    def load_session(self, conn: Any, name: str, /) -> SessionRecord | None: ...

    def read_history(
        self, conn: Any, session: str, after_seq: int, limit: int, /
    ) -> list[MessageRecord]: ...

    def read_tail(self, conn: Any, session: str, cursor_seq: int, /) -> list[MessageRecord]: ...

    def count_sessions(self, conn: Any, /) -> int: ...

    def list_sessions(
        self, conn: Any, after: str, limit: int, prefix: str = "", /
    ) -> list[SessionRecord]: ...

    def sessions_over(self, conn: Any, tokens: int, /) -> list[SessionRecord]: ...

    def delete_session(self, conn: Any, name: str, scope: str | None = None, /) -> int: ...

    def record_forget(self, conn: Any, job: ForgetJob, /) -> None: ...

    def finish_forget(self, conn: Any, job: ForgetJob, /) -> None:
        """Drop the job's marker and count one more forget that a compaction is due for."""
        ...

    def pending_forgets(self, conn: Any, /) -> list[ForgetJob]: ...

    def compaction_due(self, conn: Any, /) -> int:
        """The forgets finished since the last compaction (``finish_forget`` counts them)."""
        ...

    def compacted(self, conn: Any, due: int, /) -> None:
        """A compaction covered the ``due`` forgets ``compaction_due`` read: none is due
        now, unless another forget finished since (the count then says so)."""
        ...


class JournalTx:
    """``Tx``'s calls of the sessions and the message log: each is the engine's ``journal``
    function of the same name on the transaction's connection (docs/design.md, "The store
    seam")."""

    conn: Any
    _journal: JournalSql

    def append_requests(
        self, session: SessionRecord, requests: Sequence[Sequence[NewMessage]]
    ) -> list[AppendOutcome]:
        return self._journal.append_requests(self.conn, session, requests)

    def save_session(self, s: SessionRecord) -> None:
        return self._journal.save_session(self.conn, s)

    def claim_session(self, name: str) -> SessionRecord | None:
        return self._journal.claim_session(self.conn, name)

    def release_sessions(self, owned: list[tuple[str, int]]) -> None:
        self._journal.release_sessions(self.conn, owned)

    def load_session(self, name: str) -> SessionRecord | None:
        return self._journal.load_session(self.conn, name)

    def read_history(self, session: str, after_seq: int, limit: int) -> list[MessageRecord]:
        return self._journal.read_history(self.conn, session, after_seq, limit)

    def read_tail(self, session: str, cursor_seq: int) -> list[MessageRecord]:
        return self._journal.read_tail(self.conn, session, cursor_seq)

    def count_sessions(self) -> int:
        return self._journal.count_sessions(self.conn)

    def list_sessions(self, after: str, limit: int, prefix: str = "") -> list[SessionRecord]:
        return self._journal.list_sessions(self.conn, after, limit, prefix)

    def sessions_over(self, tokens: int) -> list[SessionRecord]:
        return self._journal.sessions_over(self.conn, tokens)

    def delete_session(self, name: str, scope: str | None = None) -> int:
        return self._journal.delete_session(self.conn, name, scope)

    def record_forget(self, job: ForgetJob) -> None:
        return self._journal.record_forget(self.conn, job)

    def finish_forget(self, job: ForgetJob) -> None:
        return self._journal.finish_forget(self.conn, job)

    def pending_forgets(self) -> list[ForgetJob]:
        return self._journal.pending_forgets(self.conn)

    def compaction_due(self) -> int:
        return self._journal.compaction_due(self.conn)

    def compacted(self, due: int) -> None:
        return self._journal.compacted(self.conn, due)
