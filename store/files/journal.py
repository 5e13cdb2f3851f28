"""SQLite: the message log and the sessions (appends, history, tails, delete, forget markers)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import apsw

from reverie.config import Conflict, default_scope

from ..base.journal import (
    _COMPACTION_DUE,
    _FORGET_PREFIX,
    _MSG_COLUMNS,
    _SESSION_COLUMNS,
    AppendOutcome,
    ForgetJob,
    MessageRecord,
    NewMessage,
    SessionRecord,
    _encode_tool_calls,
    _record,
    _same,
    _session,
    _session_values,
)
from .index_feed import read_cursor, write_cursor
from .markers import drop_markers, read_markers, write_marker
from .message_text import purge_deleted_text
from .rows import one_row
from .working_memory import delete_scope_state

__all__ = [
    "append_requests",
    "claim_session",
    "compacted",
    "compaction_due",
    "count_sessions",
    "delete_session",
    "finish_forget",
    "list_sessions",
    "load_session",
    "pending_forgets",
    "read_history",
    "read_tail",
    "record_forget",
    "release_sessions",
    "save_session",
    "sessions_over",
]


def _existing(conn: apsw.Connection, session: str, mid: str) -> tuple[int, Sequence[Any]] | None:
    row = conn.execute(
        "SELECT seq, role, content, name, tool_calls, tool_call_id FROM messages"
        " WHERE session = ? AND id = ?",
        (session, mid),
    ).fetchone()
    return None if row is None else (row[0], row[1:])


def _check(
    conn: apsw.Connection, session: str, messages: Sequence[NewMessage]
) -> AppendOutcome | list[int | None]:
    """For each message, the seq it already has (a retry) or None (new); or a conflict."""
    known: list[int | None] = []
    seen: dict[str, NewMessage] = {}
    for msg in messages:
        if msg.id in seen:
            if seen[msg.id] != msg:
                return AppendOutcome(
                    [],
                    Conflict(
                        f"message id {msg.id!r} appears twice in one batch with different content"
                    ),
                )
            known.append(-1)  # resolved after insert: same as its twin
            continue
        seen[msg.id] = msg
        found = _existing(conn, session, msg.id)
        if found is not None and not _same(found[1], msg):
            return AppendOutcome(
                [],
                Conflict(
                    f"message id {msg.id!r} was already appended with other content; use a new id"
                ),
            )
        known.append(None if found is None else found[0])
    return known


def append_requests(
    conn: apsw.Connection, session: SessionRecord, requests: Sequence[Sequence[NewMessage]]
) -> list[AppendOutcome]:
    """Append each request's messages atomically; a conflicting request appends nothing.

    Updates ``session`` (the caller's copy) and its row; call inside a write
    transaction.
    """
    outcomes: list[AppendOutcome] = []
    for messages in requests:
        checked = _check(conn, session.name, messages)
        if isinstance(checked, AppendOutcome):
            outcomes.append(checked)
            continue
        acks: list[tuple[int, str]] = []
        by_id: dict[str, int] = {}
        for msg, seq in zip(messages, checked, strict=True):
            if seq == -1:
                seq = by_id[msg.id]
            elif seq is None:
                seq = session.last_seq + 1
                _insert(conn, session.name, seq, msg)
                session.last_seq = seq
                session.tail_tokens += msg.tokens
                session.tail_count += 1
                session.last_active = max(session.last_active, msg.ts)
            by_id[msg.id] = seq
            acks.append((seq, msg.id))
        outcomes.append(AppendOutcome(acks))
    save_session(conn, session)
    return outcomes


def _insert(conn: apsw.Connection, session: str, seq: int, msg: NewMessage) -> None:
    conn.execute(
        "INSERT INTO messages (session, seq, id, role, content, name, tool_calls, tool_call_id, ts, tokens)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            session,
            seq,
            msg.id,
            msg.role,
            msg.content,
            msg.name,
            _encode_tool_calls(msg.tool_calls),
            msg.tool_call_id,
            msg.ts,
            msg.tokens,
        ),
    )


def save_session(conn: apsw.Connection, s: SessionRecord) -> None:
    conn.execute(
        f"INSERT OR REPLACE INTO sessions ({_SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        _session_values(s),
    )


def claim_session(conn: apsw.Connection, name: str) -> SessionRecord | None:
    """The session's row: one daemon owns the file (its data dir's lock), so there is
    nothing to claim from another (the Postgres engine's claim bumps an epoch)."""
    return load_session(conn, name)


def release_sessions(conn: apsw.Connection, owned: list[tuple[str, int]]) -> None:
    """Nothing to let go: no other daemon writes the file."""


def load_session(conn: apsw.Connection, name: str) -> SessionRecord | None:
    row = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE name = ?", (name,)
    ).fetchone()
    return None if row is None else _session(row)


def read_history(
    conn: apsw.Connection, session: str, after_seq: int, limit: int
) -> list[MessageRecord]:
    """Messages with seq > ``after_seq``, oldest first, at most ``limit``."""
    rows = conn.execute(
        f"SELECT {_MSG_COLUMNS} FROM messages WHERE session = ? AND seq > ? ORDER BY seq LIMIT ?",
        (session, after_seq, limit),
    )
    return [_record(r) for r in rows]


def read_tail(conn: apsw.Connection, session: str, cursor_seq: int) -> list[MessageRecord]:
    """The tail: every message not yet consolidated."""
    return read_history(conn, session, cursor_seq, -1)


def count_sessions(conn: apsw.Connection) -> int:
    """How many sessions the store knows (live or passivated)."""
    (count,) = one_row(conn, "SELECT count(*) FROM sessions")
    return int(count)


def list_sessions(
    conn: apsw.Connection, after: str, limit: int, prefix: str = ""
) -> list[SessionRecord]:
    """Sessions ordered by name, starting after ``after`` (keyset paging), named ``prefix…``.

    The prefix is a range on the name's index: names are printable, so none
    holds U+10FFFF (a noncharacter), and every name starting with ``prefix``
    sorts below ``prefix + U+10FFFF``.
    """
    rows = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE name > ? AND name >= ? AND name < ?"
        " ORDER BY name LIMIT ?",
        (after, prefix, prefix + "\U0010ffff", limit),
    )
    return [_session(r) for r in rows]


def sessions_over(conn: apsw.Connection, tokens: int) -> list[SessionRecord]:
    """Sessions whose tail holds more than ``tokens`` (what consolidation follows at start)."""
    rows = conn.execute(f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE tail_tokens > ?", (tokens,))
    return [_session(r) for r in rows]


def delete_session(conn: apsw.Connection, name: str, scope: str | None = None) -> int:
    """Delete a session's row and messages (their words too); returns how many messages went.

    The working memory of the session's own scope (``session/<name>``: keys,
    task, scratchpad, checkpoints) goes in the same transaction. With
    ``scope``, a durable forget job (``ForgetJob``) is recorded in the
    same transaction: what the Markdown and the index still hold of the
    session is removed by it, and a crash before it is done leaves the job
    to finish at the next start.
    """
    deleted = one_row(conn, "SELECT count(*) FROM messages WHERE session = ?", (name,))[0]
    conn.execute("DELETE FROM messages WHERE session = ?", (name,))
    purge_deleted_text(conn)
    conn.execute("DELETE FROM sessions WHERE name = ?", (name,))
    conn.execute("DELETE FROM jobs WHERE session = ?", (name,))
    delete_scope_state(conn, default_scope(name))
    write_cursor(conn, read_cursor(conn))  # back to the log's end if its newest rows went
    if scope is not None:
        record_forget(conn, ForgetJob(scope=scope, session=name))
    return int(deleted)


def record_forget(conn: apsw.Connection, job: ForgetJob) -> None:
    write_marker(conn, job.key)


def finish_forget(conn: apsw.Connection, job: ForgetJob) -> None:
    drop_markers(conn, [job.key])
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, 1)"
        " ON CONFLICT (key) DO UPDATE SET value = value + 1",
        (_COMPACTION_DUE,),
    )


def pending_forgets(conn: apsw.Connection) -> list[ForgetJob]:
    """Forget jobs a crash or a stop left unfinished, oldest key first."""
    return read_markers(conn, _FORGET_PREFIX, ForgetJob)


def compaction_due(conn: apsw.Connection) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_COMPACTION_DUE,)).fetchone()
    return 0 if row is None else int(row[0])


def compacted(conn: apsw.Connection, due: int) -> None:
    conn.execute("DELETE FROM meta WHERE key = ? AND value = ?", (_COMPACTION_DUE, due))


if TYPE_CHECKING:  # this module is the engine's ``JournalSql``: mypy checks what ``Tx`` calls
    from ..base.journal import JournalSql
    from . import journal as _this

    _answers: JournalSql = _this
