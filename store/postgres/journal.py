"""The message log in Postgres: every session's messages, in order, and each session's row.

The same contract as the SQLite engine's ``reverie.store.base.journal``: seqs are
given in the caller's transaction, gap free, in submission order; a retried
id keeps its seq; a request that conflicts appends nothing. What differs is
the number of round trips, which costs on a network: ``append_requests`` asks
once for the ids a batch already holds, plans every request in Python, and
writes all the new rows and the session's row in one statement.

Session names are compared byte-wise (``COLLATE "C"``), as SQLite compares
text, so ``list_sessions`` pages and prefixes exactly as the SQLite engine.

Several daemons may share the database, so a session has an owner and an
epoch (``cluster.py``). A daemon claims the session when it loads it (the
epoch goes up), and every write of its row checks owner and epoch in the
statement that writes: the row's UPDATE (or a new session's INSERT) is
fenced, and the batch's messages are inserted by the same statement only
if that row was written. A daemon that lost the session writes nothing and
gets ``SessionMoved``. The owner moves the tail's counters by its batch's
share and never writes the cursor, which a consolidation applied by another
member moves (``jobs.finish_job``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import psycopg

from reverie.config import Conflict, default_scope
from reverie.store import (
    AppendOutcome,
    ForgetJob,
    MessageRecord,
    NewMessage,
    SessionMoved,
    SessionRecord,
)
from reverie.store.base.journal import (
    _COMPACTION_DUE,
    _FORGET_PREFIX,
    _MSG_COLUMNS,
    _SESSION_COLUMNS,
    _encode_tool_calls,
    _record,
    _same,
    _session,
    _session_values,
)

from .cluster import ME
from .index_feed import APPEND_LOCK, read_cursor, write_cursor
from .markers import drop_markers, read_markers, write_marker
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


#: A session's row with the epoch this member holds it at.
_OWNED = f"{_SESSION_COLUMNS}, epoch"

#: A new session's row, owned by this member at epoch 1; nothing if another made it first.
_CREATE = (
    f"INSERT INTO sessions ({_SESSION_COLUMNS}, owner, epoch)"
    f" VALUES (%s, %s, %s, %s, %s, %s, %s, %s, {ME}, 1)"
    f" ON CONFLICT (name) DO NOTHING RETURNING {_OWNED}"
)
#: The owner's row after a batch: fenced by owner and epoch; the tail's counters move by
#: the batch's share (a job another member applied meanwhile moved them too).
_EXTEND = (
    "UPDATE sessions SET last_seq = %s, tail_tokens = tail_tokens + %s,"
    " tail_count = tail_count + %s, last_active = greatest(last_active, %s)"
    f" WHERE name = %s AND owner = {ME} AND epoch = %s RETURNING {_OWNED}"
)
#: A batch's messages, one array per column, inserted only if the row ``s`` was written,
#: with the index feed's lock held (shared) before they take their gids
#: (``index_feed.feed_horizon``): both conditions are evaluated once, before any row (the
#: function is called FROM a subquery: an EXISTS of it would be folded away, uncalled).
_ADD = (
    "added AS (INSERT INTO messages"
    " (session, seq, id, role, content, name, tool_calls, tool_call_id, ts, tokens)"
    " SELECT %s, u.* FROM unnest(%s::bigint[], %s::text[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s::text[], %s::float8[], %s::integer[]) AS u WHERE EXISTS (SELECT 1 FROM s)"
    f" AND (SELECT 1 FROM pg_advisory_xact_lock_shared({APPEND_LOCK})) = 1)"
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
        rows = (
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
        )
        share = (sum(m.tokens for m in msgs), len(msgs))
        _write_row(conn, session, share, f"WITH s AS ({{}}), {_ADD} SELECT * FROM s", rows)
    else:
        save_session(conn, session)
    return outcomes


def _write_row(
    conn: psycopg.Connection[Any],
    s: SessionRecord,
    share: tuple[int, int],
    statement: str = "{}",
    more: tuple[Any, ...] = (),
) -> None:
    """Write the owner's row (``statement`` wraps the fenced write, ``more`` its other
    parameters) and adopt what the database holds now; ``SessionMoved`` if this member
    no longer owns the session at ``s.epoch``. ``share`` is what the change adds to the
    tail (tokens, messages) since ``s`` was read."""
    if s.epoch == 0:
        fenced: tuple[str, tuple[Any, ...]] = (_CREATE, _session_values(s))
    else:
        fenced = (_EXTEND, (s.last_seq, share[0], share[1], s.last_active, s.name, s.epoch))
    row = conn.execute(statement.format(fenced[0]), (*fenced[1], *more)).fetchone()
    if row is None:
        raise SessionMoved(
            f"session {s.name!r} was taken over by another daemon sharing the database;"
            " nothing was written: retry (the retry takes it back)"
        )
    _adopt(s, row)


def _adopt(s: SessionRecord, row: Any) -> None:
    """Copy the database's row (``_OWNED``) into ``s``, the caller's copy."""
    fresh = _owned(row)
    s.last_seq, s.cursor_seq = fresh.last_seq, fresh.cursor_seq
    s.tail_tokens, s.tail_count = fresh.tail_tokens, fresh.tail_count
    s.last_active, s.epoch = fresh.last_active, fresh.epoch


def _owned(row: Any) -> SessionRecord:
    record = _session(row[:-1])
    record.epoch = int(row[-1])
    return record


def save_session(conn: psycopg.Connection[Any], s: SessionRecord) -> None:
    """Write the owner's row as ``s`` holds it (fenced; ``s`` takes the stored row back).

    Only for a change of the owner's own that moved neither the tail nor the
    cursor (``pop_newest`` and ``finish_job`` move theirs in their own statements).
    """
    _write_row(conn, s, (0, 0))


def claim_session(conn: psycopg.Connection[Any], name: str) -> SessionRecord | None:
    """Take the session over for this member: the epoch goes up, so whoever held it can
    no longer write it. None: no such session (its first append creates it, owned)."""
    row = conn.execute(
        f"UPDATE sessions SET owner = {ME}, epoch = epoch + 1 WHERE name = %s RETURNING {_OWNED}",
        (name,),
    ).fetchone()
    return None if row is None else _owned(row)


def release_sessions(conn: psycopg.Connection[Any], owned: list[tuple[str, int]]) -> None:
    """Let go of sessions (name, epoch) this member no longer serves, unless claimed since."""
    if owned:
        conn.execute(
            "UPDATE sessions s SET owner = NULL FROM unnest(%s::text[], %s::bigint[]) AS r(n, e)"
            f" WHERE s.name = r.n AND s.epoch = r.e AND s.owner = {ME}",
            ([n for n, _ in owned], [e for _, e in owned]),
        )


def load_session(conn: psycopg.Connection[Any], name: str) -> SessionRecord | None:
    """The session's row as stored, with the epoch it is owned at (claiming nothing)."""
    row = conn.execute(f"SELECT {_OWNED} FROM sessions WHERE name = %s", (name,)).fetchone()
    return None if row is None else _owned(row)


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
    # Taken over first, in this transaction: the row's lock waits for an append another
    # member has in flight (its messages are then seen, and deleted, below), and the new
    # epoch fences any later one (``SessionMoved``); after the commit the row is gone, so
    # nothing can be written under the old name but a new session (docs/design.md,
    # "Several daemons on one database").
    claim_session(conn, name)
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
    conn.execute(  # one statement: members finishing forgets at once each count theirs
        "INSERT INTO meta (key, value) VALUES (%s, '1'::jsonb) ON CONFLICT (key)"
        " DO UPDATE SET value = to_jsonb(meta.value::bigint + 1)",
        (_COMPACTION_DUE,),
    )


def pending_forgets(conn: psycopg.Connection[Any]) -> list[ForgetJob]:
    """Forget jobs a crash or a stop left unfinished, oldest key first."""
    return read_markers(conn, _FORGET_PREFIX, ForgetJob)


def compaction_due(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = %s", (_COMPACTION_DUE,)).fetchone()
    return 0 if row is None else int(row[0])


def compacted(conn: psycopg.Connection[Any], due: int) -> None:
    conn.execute(
        "DELETE FROM meta WHERE key = %s AND value = to_jsonb(%s::bigint)", (_COMPACTION_DUE, due)
    )


if TYPE_CHECKING:  # this module is the engine's ``JournalSql``: mypy checks what ``Tx`` calls
    from ..base.journal import JournalSql
    from . import journal as _this

    _answers: JournalSql = _this
