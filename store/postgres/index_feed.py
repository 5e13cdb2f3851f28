"""What the search index is fed from in Postgres: the message log after a durable cursor.

The same contract as the SQLite engine's ``reverie.store.base.index_feed``: the
cursor (``meta[CURSOR_KEY]``) says every message with ``gid <=`` it is in the
index, and it never points past the log's last gid. Postgres identity gids
are never reused (SQLite hands a forgotten newest rowid to the next append),
so the clamp never saves an append here; it is kept so that ``log_position``
never reports a negative backlog and both engines answer alike.

``meta.value`` is ``jsonb``: a value written as a Python int, str, list or
dict is read back as the same value. The documents are built by the pure
helpers of the SQLite module (``message_doc``), so both engines index alike.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import psycopg
from psycopg.types.json import Jsonb

from reverie.store import CURSOR_KEY, INDEX_DIR_KEY, IndexDoc, LogPosition
from reverie.store.base.index_feed import message_doc

from .rows import one_row

__all__ = [
    "feed_horizon",
    "log_position",
    "messages_after",
    "move_cursor",
    "read_cursor",
    "read_meta",
    "swap_index",
    "write_cursor",
    "write_meta",
]

_LAST_GID = "SELECT coalesce(max(gid), 0) FROM messages"

#: The advisory lock every append holds, shared, from before its messages take their gids
#: until it ends (``journal.py``): ``feed_horizon`` waits out those holding it.
APPEND_LOCK = 0x7265766C6F67  # "revlog"
_HOLDERS = (
    "SELECT coalesce(array_agg(virtualtransaction), '{}') FROM pg_locks"
    " WHERE locktype = 'advisory' AND classid = %s AND objid = %s AND objsubid = 1"
    " AND granted AND (%s::text[] IS NULL OR virtualtransaction = ANY(%s))"
)
_ALLOCATED = "SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM messages_gid_seq"
_HORIZON_POLL = 0.002  # seconds between looks at the appends still open
_HORIZON_PATIENCE = 5.0  # then none is taken as final this time


def feed_horizon(conn: psycopg.Connection[Any]) -> int:
    """The gid at or below which every message is final: committed, or never to be.

    Daemons sharing the database append at once, and a message takes its gid
    when it is inserted, not when it commits: one with a lower gid may commit
    after one with a higher gid has been indexed, and a cursor past it would
    never index it. The gids handed out so far are final once every append
    holding ``APPEND_LOCK`` now has ended; this waits for those (milliseconds:
    one group commit) and not for appends that start meanwhile. 0 (nothing
    new is final) if one stays open past ``_HORIZON_PATIENCE`` (a frozen
    daemon's, until the server ends it). Run it before, and outside, the
    read that uses it: a snapshot taken earlier would not see those appends.
    """
    (allocated,) = one_row(conn, _ALLOCATED, ())
    key = (APPEND_LOCK >> 32, APPEND_LOCK & 0xFFFFFFFF)
    (holders,) = one_row(conn, _HOLDERS, (*key, None, None))
    deadline = time.monotonic() + _HORIZON_PATIENCE
    while holders:
        if time.monotonic() > deadline:
            return 0
        time.sleep(_HORIZON_POLL)
        (holders,) = one_row(conn, _HOLDERS, (*key, holders, holders))
    return int(allocated)


def read_meta(conn: psycopg.Connection[Any], key: str) -> object:
    row = conn.execute("SELECT value FROM meta WHERE key = %s", (key,)).fetchone()
    return None if row is None else row[0]


def write_meta(conn: psycopg.Connection[Any], key: str, value: object) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (%s, %s)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, Jsonb(value)),
    )


def _cursor_of(value: object) -> int:
    return value if isinstance(value, int) else 0


def read_cursor(conn: psycopg.Connection[Any]) -> int:
    return _cursor_of(read_meta(conn, CURSOR_KEY))


def write_cursor(conn: psycopg.Connection[Any], gid: int) -> None:
    """Move the cursor to ``gid``, never past the log's last message (one statement)."""
    conn.execute(
        "INSERT INTO meta (key, value)"
        f" SELECT %s, to_jsonb(least(%s::bigint, ({_LAST_GID})))"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (CURSOR_KEY, int(gid)),
    )


def move_cursor(conn: psycopg.Connection[Any], start: int, last: int, count: int) -> bool:
    """Move the cursor from ``start`` to ``last`` if it is still at ``start`` and the log
    holds exactly the ``count`` messages just indexed between them; False otherwise.

    Checked in the writer's transaction, as the SQLite engine does: the
    cursor and the count are read in one statement.
    """
    row = conn.execute(
        "SELECT (SELECT value FROM meta WHERE key = %s),"
        " (SELECT count(*) FROM messages WHERE gid > %s AND gid <= %s)",
        (CURSOR_KEY, start, last),
    ).fetchone()
    assert row is not None  # a SELECT of two scalar subqueries yields one row
    if _cursor_of(row[0]) != start or row[1] != count:
        return False
    write_cursor(conn, last)
    return True


def swap_index(conn: psycopg.Connection[Any], name: str, reached: int) -> None:
    """Point the daemon at the index ``name`` and its cursor in one transaction."""
    write_meta(conn, INDEX_DIR_KEY, name)
    write_cursor(conn, reached)


def log_position(conn: psycopg.Connection[Any]) -> LogPosition:
    row = conn.execute(
        f"SELECT (SELECT value FROM meta WHERE key = %s), ({_LAST_GID})", (CURSOR_KEY,)
    ).fetchone()
    assert row is not None  # a SELECT of two scalar subqueries yields one row
    return LogPosition(_cursor_of(row[0]), int(row[1]))


def messages_after(
    conn: psycopg.Connection[Any],
    gid: int,
    limit: int,
    *,
    newest: bool = False,
    upto: int | None = None,
) -> list[tuple[int, IndexDoc]]:
    """Message docs with ``gid`` above the given one (and at most ``upto``: a
    ``feed_horizon`` read in an earlier transaction), oldest first, at most ``limit``;
    with ``newest``, the ``limit`` newest of them (still oldest first)."""
    order = "DESC" if newest else "ASC"
    rows = conn.execute(
        "SELECT m.gid, m.session, m.seq, m.id, m.content, m.ts, s.scope"
        " FROM messages m JOIN sessions s ON s.name = m.session"
        f" WHERE m.gid > %s AND (%s::bigint IS NULL OR m.gid <= %s)"
        f" ORDER BY m.gid {order} LIMIT %s",
        (gid, upto, upto, limit),
    ).fetchall()
    if newest:
        rows.reverse()
    return [
        (row_gid, message_doc(session, seq, mid, content, ts, scope))
        for row_gid, session, seq, mid, content, ts, scope in rows
    ]


if TYPE_CHECKING:  # this module is the engine's ``IndexFeedSql``: mypy checks what ``Tx`` calls
    from ..base.index_feed import IndexFeedSql
    from . import index_feed as _this

    _answers: IndexFeedSql = _this
