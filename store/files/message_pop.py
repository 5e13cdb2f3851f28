"""SQLite: taking back a session's newest message, and its to-do for the index."""

from __future__ import annotations

from typing import TYPE_CHECKING

import apsw

from reverie.config import Conflict

from ..base.index_feed import message_doc
from ..base.journal import MessageRecord, SessionRecord
from ..base.message_pop import (
    _PREFIX,
    Unindex,
)
from ..ranking import IndexDoc
from .index_feed import read_cursor, write_cursor
from .jobs import open_job
from .journal import read_history, save_session
from .markers import drop_markers, read_markers, write_marker

__all__ = ["finish_unindex", "pending_unindex", "pop_newest", "unindexed_doc"]


def pop_newest(conn: apsw.Connection, session: SessionRecord) -> MessageRecord | None:
    """Delete ``session``'s newest message (None: it has none); ``session`` is updated.

    Call inside a write transaction, on the caller's copy of the row.
    """
    if session.last_seq == 0:
        return None
    seq = session.last_seq
    if seq <= session.cursor_seq:
        raise Conflict(
            f"the newest message of session {session.name!r} (seq {seq}) is already"
            " consolidated into its history and memory; it cannot be popped (forget the"
            " session to remove it)"
        )
    job = open_job(conn, session.name)
    if job is not None and job.last_seq >= seq:
        raise Conflict(
            f"the newest message of session {session.name!r} (seq {seq}) is being"
            " consolidated now; it cannot be popped (retry once the job is done)"
        )
    (message,) = read_history(conn, session.name, seq - 1, 1)
    conn.execute("DELETE FROM messages WHERE session = ? AND seq = ?", (session.name, seq))
    session.last_seq = seq - 1
    session.tail_count -= 1
    session.tail_tokens -= message.tokens
    save_session(conn, session)
    marker = Unindex(session=session.name, seq=seq)
    write_marker(conn, marker.key)
    write_cursor(conn, read_cursor(conn))  # never above the log's end (gid reuse)
    return message


def pending_unindex(conn: apsw.Connection) -> list[Unindex]:
    """The markers of popped messages the search index may still hold, oldest key first."""
    return read_markers(conn, _PREFIX, Unindex)


def unindexed_doc(conn: apsw.Connection, marker: Unindex) -> IndexDoc | None:
    """The doc the index should hold at the marker's uid now: the message that took the
    popped seq, if the index has already passed it; else None (nothing to write back)."""
    row = conn.execute(
        "SELECT m.gid, m.id, m.content, m.ts, s.scope FROM messages m"
        " JOIN sessions s ON s.name = m.session WHERE m.session = ? AND m.seq = ?",
        (marker.session, marker.seq),
    ).fetchone()
    if row is None or row[0] > read_cursor(conn) or not str(row[2]).strip():
        return None
    _, mid, content, ts, scope = row
    return message_doc(marker.session, marker.seq, mid, content, ts, scope)


def finish_unindex(conn: apsw.Connection, markers: list[Unindex]) -> None:
    drop_markers(conn, [m.key for m in markers])


if TYPE_CHECKING:  # this module is the engine's ``MessagePopSql``: mypy checks what ``Tx`` calls
    from ..base.message_pop import MessagePopSql
    from . import message_pop as _this

    _answers: MessagePopSql = _this
