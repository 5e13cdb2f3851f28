"""SQLite: the index feed (the cursor, meta values, the log after a gid)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import apsw

from ..base.index_feed import (
    CURSOR_KEY,
    INDEX_DIR_KEY,
    LogPosition,
    message_doc,
)
from ..ranking import IndexDoc
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


def read_meta(conn: apsw.Connection, key: str) -> object:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None else row[0]


def write_meta(conn: apsw.Connection, key: str, value: object) -> None:
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))


def read_cursor(conn: apsw.Connection) -> int:
    value = read_meta(conn, CURSOR_KEY)
    return int(value) if isinstance(value, int) else 0


def write_cursor(conn: apsw.Connection, gid: int) -> None:
    """Move the cursor to ``gid``, never past the log's last message.

    ``gid`` is SQLite's rowid, so a forget of the newest messages lets the
    next append reuse their gids: a cursor left above the log's end would
    skip those appends for good (and count "-1 messages behind").
    """
    last = one_row(conn, "SELECT coalesce(max(gid), 0) FROM messages")[0]
    write_meta(conn, CURSOR_KEY, min(int(gid), int(last)))


def move_cursor(conn: apsw.Connection, start: int, last: int, count: int) -> bool:
    """Move the cursor from ``start`` to ``last`` if it is still at ``start`` and the log
    holds exactly the ``count`` messages just indexed between them; False otherwise.

    Checked in the writer's transaction, so no append slips in between: one
    that reused the gid of a forgotten newest message inside the range would
    otherwise be skipped for good.
    """
    held = one_row(conn, "SELECT count(*) FROM messages WHERE gid > ? AND gid <= ?", (start, last))
    if read_cursor(conn) != start or held[0] != count:
        return False
    write_cursor(conn, last)
    return True


def swap_index(conn: apsw.Connection, name: str, reached: int) -> None:
    """Point the daemon at the index directory ``name`` and its cursor in one commit."""
    write_meta(conn, INDEX_DIR_KEY, name)
    write_cursor(conn, reached)


def log_position(conn: apsw.Connection) -> LogPosition:
    max_gid = one_row(conn, "SELECT coalesce(max(gid), 0) FROM messages")[0]
    return LogPosition(read_cursor(conn), int(max_gid))


#: No gid is above this (SQLite's largest rowid).
_UNBOUNDED = 2**63 - 1


def feed_horizon(conn: apsw.Connection) -> int:
    """Every gid is final once read: one writer commits the log in the order of its gids."""
    return _UNBOUNDED


def messages_after(
    conn: apsw.Connection,
    gid: int,
    limit: int,
    *,
    newest: bool = False,
    upto: int | None = None,
) -> list[tuple[int, IndexDoc]]:
    """Message docs with ``gid`` above the given one (and at most ``upto``), oldest first,
    at most ``limit``.

    With ``newest`` the ``limit`` newest of them are returned (still oldest
    first): what a fresh search merges when the index lags far behind.
    Messages with no text (a bare tool call) are skipped but still counted
    by the gid returned with the others.
    """
    order = "DESC" if newest else "ASC"
    # apsw types each value as any SQLite value; the schema fixes these columns' types.
    rows: list[Any] = conn.execute(
        "SELECT m.gid, m.session, m.seq, m.id, m.content, m.ts, s.scope"
        " FROM messages m JOIN sessions s ON s.name = m.session"
        f" WHERE m.gid > ? AND m.gid <= ? ORDER BY m.gid {order} LIMIT ?",
        (gid, _UNBOUNDED if upto is None else upto, limit),
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
