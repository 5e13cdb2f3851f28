"""The message log in Postgres: every session's messages, in order, and each session's row.

The same contract as the SQLite engine's ``reverie.store.journal``: seqs are
given in the caller's transaction, gap free, in submission order; a retried
id keeps its seq; a request that conflicts appends nothing. What differs is
the number of round trips, which costs on a network: ``append_requests`` asks
once for the ids a batch already holds, plans every request in Python, and
writes all the new rows and the session's row in one statement.

Session names are compared byte-wise (``COLLATE "C"``), as SQLite compares
text, so ``list_sessions`` pages and prefixes exactly as the SQLite engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import psycopg

from reverie.config import Conflict, default_scope
from reverie.store import (
    AppendOutcome,
    ForgetJob,
    MessageRecord,
    NewMessage,
    SessionRecord,
)
from reverie.store.journal import (
    _FORGET_PREFIX,
    _MSG_COLUMNS,
    _SESSION_COLUMNS,
    _encode_tool_calls,
    _record,
    _same,
    _session,
)

from .index_feed import read_cursor, write_cursor
from .markers import drop_markers, read_markers, write_marker
from .working_memory import delete_scope_state

__all__ = [
    "append_requests",
    "count_sessions",
    "delete_session",
    "finish_forget",
    "list_sessions",
    "load_session",
    "pending_forgets",
    "read_history",
    "read_tail",
    "record_forget",
    "save_session",
    "sessions_over",
]


_SESSION_UPSERT = (
    f"INSERT INTO sessions ({_SESSION_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
    " ON CONFLICT (name) DO UPDATE SET scope = excluded.scope, created = excluded.created,"
    " last_seq = excluded.last_seq, cursor_seq = excluded.cursor_seq,"
    " tail_tokens = excluded.tail_tokens, tail_count = excluded.tail_count,"
    " last_active = excluded.last_active"
)

#: The new messages of a batch, one array per column, and then the session's row.
_APPEND = (
    "WITH added AS (INSERT INTO messages"
    " (session, seq, id, role, content, name, tool_calls, tool_call_id, ts, tokens)"
    " SELECT %s, * FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::float8[], %s::integer[]))"
    f" {_SESSION_UPSERT}"
)

#: What a stored message is compared on when its id comes again (``journal._same``).
_Stored = tuple[int, tuple[Any, ...]]


def _stored_fields(msg: NewMessage) -> tuple[Any, ...]:
    return (msg.role, msg.content, msg.name, _encode_tool_calls(msg.tool_calls), msg.tool_call_id)


def _known(
    conn: psycopg.Connection[Any], session: str, requests: Sequence[Sequence[NewMessage]]
) -> dict[str, _Stored]:
    """The messages of ``session`` already stored under the ids of ``requests``: one query."""
    ids = sorted({msg.id for messages in requests for msg in messages})
    if not ids:
        return {}
    rows = conn.execute(
        "SELECT id, seq, role, content, name, tool_calls, tool_call_id FROM messages"
        " WHERE session = %s AND id = ANY(%s::text[])",
        (session, ids),
    )
    return {row[0]: (row[1], tuple(row[2:])) for row in rows}


def _conflict(messages: Sequence[NewMessage], known: dict[str, _Stored]) -> Conflict | None:
    """Why the request cannot be appended, or None (the same checks as SQLite's, in order)."""
    seen: dict[str, NewMessage] = {}
    for msg in messages:
        twin = seen.setdefault(msg.id, msg)
        if twin is not msg:
            if twin != msg:
                return Conflict(
                    f"message id {msg.id!r} appears twice in one batch with different content"
                )
            continue
        found = known.get(msg.id)
        if found is not None and not _same(found[1], msg):
            return Conflict(
                f"message id {msg.id!r} was already appended with other content; use a new id"
            )
    return None


def append_requests(
    conn: psycopg.Connection[Any],
    session: SessionRecord,
    requests: Sequence[Sequence[NewMessage]],
) -> list[AppendOutcome]:
    """Append each request's messages atomically; a conflicting request appends nothing.

    Updates ``session`` (the caller's copy) and its row, in two round trips
    whatever the batch: the ids already stored, then every new row and the
    session's row. A later request of the batch sees the earlier ones' ids.
    """
    known = _known(conn, session.name, requests)
    new: list[tuple[int, NewMessage]] = []
    outcomes: list[AppendOutcome] = []
    for messages in requests:
        conflict = _conflict(messages, known)
        if conflict is not None:
            outcomes.append(AppendOutcome([], conflict))
            continue
        for msg in messages:
            if msg.id not in known:
                session.last_seq += 1
                session.tail_tokens += msg.tokens
                session.tail_count += 1
                session.last_active = max(session.last_active, msg.ts)
                known[msg.id] = (session.last_seq, _stored_fields(msg))
                new.append((session.last_seq, msg))
        outcomes.append(AppendOutcome([(known[msg.id][0], msg.id) for msg in messages]))
    if new:
        msgs = [msg for _, msg in new]
        conn.execute(
            _APPEND,
            (
                session.name,
                [seq for seq, _ in new],
                [m.id for m in msgs],
                [m.role for m in msgs],
                [m.content for m in msgs],
                [m.name for m in msgs],
                [_encode_tool_calls(m.tool_calls) for m in msgs],
                [m.tool_call_id for m in msgs],
                [float(m.ts) for m in msgs],
                [int(m.tokens) for m in msgs],
                *_session_values(session),
            ),
        )
    else:
        save_session(conn, session)
    return outcomes


def _session_values(s: SessionRecord) -> tuple[Any, ...]:
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


def save_session(conn: psycopg.Connection[Any], s: SessionRecord) -> None:
    conn.execute(_SESSION_UPSERT, _session_values(s))


def load_session(conn: psycopg.Connection[Any], name: str) -> SessionRecord | None:
    row = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE name = %s", (name,)
    ).fetchone()
    return None if row is None else _session(row)


def read_history(
    conn: psycopg.Connection[Any], session: str, after_seq: int, limit: int
) -> list[MessageRecord]:
    """Messages with seq > ``after_seq``, oldest first, at most ``limit`` (all if negative,
    as SQLite's ``LIMIT -1``)."""
    rows = conn.execute(
        f"SELECT {_MSG_COLUMNS} FROM messages WHERE session = %s AND seq > %s"
        " ORDER BY seq LIMIT %s",
        (session, after_seq, _limit(limit)),
    )
    return [_record(r) for r in rows]


def _limit(limit: int) -> int | None:
    """SQLite's negative LIMIT (no limit) as Postgres' ``LIMIT NULL``."""
    return None if limit < 0 else limit


def read_tail(conn: psycopg.Connection[Any], session: str, cursor_seq: int) -> list[MessageRecord]:
    """The tail: every message not yet consolidated."""
    return read_history(conn, session, cursor_seq, -1)


def count_sessions(conn: psycopg.Connection[Any]) -> int:
    """How many sessions the store knows (live or passivated)."""
    row = conn.execute("SELECT count(*) FROM sessions").fetchone()
    assert row is not None  # an aggregate yields one row
    return int(row[0])


def list_sessions(
    conn: psycopg.Connection[Any], after: str, limit: int, prefix: str = ""
) -> list[SessionRecord]:
    """Sessions in byte order of their names, after ``after`` (keyset paging), named
    ``prefix…`` (a range up to ``prefix + U+10FFFF``, which UTF-8 sorts above any name
    with that prefix, as in the SQLite engine)."""
    rows = conn.execute(
        f'SELECT {_SESSION_COLUMNS} FROM sessions WHERE name COLLATE "C" > %s'
        ' AND name COLLATE "C" >= %s AND name COLLATE "C" < %s'
        ' ORDER BY name COLLATE "C" LIMIT %s',
        (after, prefix, prefix + "\U0010ffff", _limit(limit)),
    )
    return [_session(r) for r in rows]


def sessions_over(conn: psycopg.Connection[Any], tokens: int) -> list[SessionRecord]:
    """Sessions whose tail holds more than ``tokens`` (what consolidation follows at start)."""
    rows = conn.execute(
        f"SELECT {_SESSION_COLUMNS} FROM sessions WHERE tail_tokens > %s", (tokens,)
    )
    return [_session(r) for r in rows]


def delete_session(conn: psycopg.Connection[Any], name: str, scope: str | None = None) -> int:
    """Delete a session's row and messages (their words go with them); returns how many
    messages went.

    Its jobs and the working memory of its own scope (``session/<name>``) go
    in the same transaction; with ``scope``, a durable ``ForgetJob`` is
    recorded in it too, for what the memory documents and the index still
    hold of the session.
    """
    deleted = conn.execute("DELETE FROM messages WHERE session = %s", (name,)).rowcount
    conn.execute("DELETE FROM sessions WHERE name = %s", (name,))
    conn.execute("DELETE FROM jobs WHERE session = %s", (name,))
    delete_scope_state(conn, default_scope(name))
    write_cursor(conn, read_cursor(conn))  # back to the log's end if its newest rows went
    if scope is not None:
        record_forget(conn, ForgetJob(scope=scope, session=name))
    return int(deleted)


def record_forget(conn: psycopg.Connection[Any], job: ForgetJob) -> None:
    write_marker(conn, job.key)


def finish_forget(conn: psycopg.Connection[Any], job: ForgetJob) -> None:
    drop_markers(conn, [job.key])


def pending_forgets(conn: psycopg.Connection[Any]) -> list[ForgetJob]:
    """Forget jobs a crash or a stop left unfinished, oldest key first."""
    return read_markers(conn, _FORGET_PREFIX, ForgetJob)
