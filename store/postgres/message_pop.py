"""Taking back a session's newest message in Postgres: the log, the session's row, the
index's marker.

The same contract as the SQLite engine's ``reverie.store.base.message_pop``: the
newest row goes in one transaction with the session's counters (the next
append takes the popped seq again), refused as ``Conflict`` once
consolidation has it; the same commit records an ``Unindex`` marker for the
search index's row. The words of the message go with its row (the words
table cascades).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg

from reverie.config import Conflict
from reverie.store import IndexDoc, MessageRecord, SessionMoved, SessionRecord, Unindex
from reverie.store.base.index_feed import message_doc
from reverie.store.base.journal import _MSG_COLUMNS, _record
from reverie.store.base.message_pop import _PREFIX

from .cluster import ME
from .index_feed import read_cursor, write_cursor
from .jobs import open_job
from .journal import _OWNED, _adopt
from .markers import drop_markers, read_markers, write_marker

__all__ = ["finish_unindex", "pending_unindex", "pop_newest", "unindexed_doc"]


def pop_newest(conn: psycopg.Connection[Any], session: SessionRecord) -> MessageRecord | None:
    """Delete ``session``'s newest message (None: it has none); ``session`` is updated.

    Call inside a write transaction, on the caller's copy of the row. The
    row is read back by its DELETE (one round trip, where SQLite reads, then
    deletes).
    """
    if session.last_seq == 0:
        return None
    seq = session.last_seq
    if seq <= session.cursor_seq:
        raise _consolidated(session.name, seq)
    # The row first: a job another member leases (``job_leases.lease_job``) reads the tail
    # under a share lock of it, so the job checked next is every job made before this pop,
    # and a job made after it reads the tail without the popped message.
    conn.execute("SELECT 1 FROM sessions WHERE name = %s FOR UPDATE", (session.name,))
    job = open_job(conn, session.name)
    if job is not None and job.last_seq >= seq:
        raise Conflict(
            f"the newest message of session {session.name!r} (seq {seq}) is being"
            " consolidated now; it cannot be popped (retry once the job is done)"
        )
    args = (session.name, seq, session.name, session.epoch, seq, seq, session.name, seq)
    row = conn.execute(_POP, args).fetchone()
    if row is None:
        raise _refused(conn, session, seq)
    message = _record(row[:_MSG_FIELDS])
    _adopt(session, row[_MSG_FIELDS:])
    write_marker(conn, Unindex(session=session.name, seq=seq).key)
    write_cursor(conn, read_cursor(conn))  # never above the log's end, as in SQLite
    return message


#: The owner's row one message shorter (fenced by owner and epoch, and refused if a job
#: applied by another member consolidated the message meanwhile) and, in the same
#: statement, the message's delete, only if that row was written.
_POP = (
    "WITH s AS (UPDATE sessions SET last_seq = last_seq - 1, tail_count = tail_count - 1,"
    " tail_tokens = tail_tokens - (SELECT tokens FROM messages WHERE session = %s AND seq = %s)"
    f" WHERE name = %s AND owner = {ME} AND epoch = %s AND last_seq = %s AND cursor_seq < %s"
    f" RETURNING {_OWNED}),"
    " d AS (DELETE FROM messages WHERE session = %s AND seq = %s AND EXISTS (SELECT 1 FROM s)"
    f" RETURNING {_MSG_COLUMNS})"
    " SELECT d.*, s.* FROM d, s"
)
_MSG_FIELDS = len(_MSG_COLUMNS.split(","))


def _refused(conn: psycopg.Connection[Any], session: SessionRecord, seq: int) -> Exception:
    """Why the pop wrote nothing: the message was consolidated meanwhile, or the session
    is another daemon's now."""
    row = conn.execute(
        f"SELECT owner = {ME} AND epoch = %s, cursor_seq FROM sessions WHERE name = %s",
        (session.epoch, session.name),
    ).fetchone()
    if row is not None and row[0] and row[1] >= seq:
        return _consolidated(session.name, seq)
    return SessionMoved(
        f"session {session.name!r} was taken over by another daemon sharing the database;"
        " nothing was popped: retry (the retry takes it back)"
    )


def _consolidated(name: str, seq: int) -> Conflict:
    return Conflict(
        f"the newest message of session {name!r} (seq {seq}) is already"
        " consolidated into its history and memory; it cannot be popped (forget the"
        " session to remove it)"
    )


def pending_unindex(conn: psycopg.Connection[Any]) -> list[Unindex]:
    """The markers of popped messages the search index may still hold, oldest key first."""
    return read_markers(conn, _PREFIX, Unindex)


def unindexed_doc(conn: psycopg.Connection[Any], marker: Unindex) -> IndexDoc | None:
    """The doc the index should hold at the marker's uid now: the message that took the
    popped seq, if the index has already passed it; else None (nothing to write back)."""
    row = conn.execute(
        "SELECT m.gid, m.id, m.content, m.ts, s.scope FROM messages m"
        " JOIN sessions s ON s.name = m.session WHERE m.session = %s AND m.seq = %s",
        (marker.session, marker.seq),
    ).fetchone()
    if row is None or row[0] > read_cursor(conn) or not str(row[2]).strip():
        return None
    _, mid, content, ts, scope = row
    return message_doc(marker.session, marker.seq, mid, content, ts, scope)


def finish_unindex(conn: psycopg.Connection[Any], markers: list[Unindex]) -> None:
    drop_markers(conn, [m.key for m in markers])


if TYPE_CHECKING:  # this module is the engine's ``MessagePopSql``: mypy checks what ``Tx`` calls
    from ..base.message_pop import MessagePopSql
    from . import message_pop as _this

    _answers: MessagePopSql = _this
