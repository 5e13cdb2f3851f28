"""Taking back a session's newest message: the log, the session's row, and the index's marker.

A pop is the undo of an append (a framework's ``pop_item``). It deletes the
session's newest row in one transaction with the session's counters (seq,
tail count and tokens step back, so seqs stay gap free and the next append
takes the popped seq again); the ``message_text`` delete trigger takes its
words out of the full-text index in the same commit. Refused, as
``Conflict``, when consolidation has the message: behind the cursor (its
words are in a history entry and ``MEMORY.md``) or inside a running job.

The search index is outside SQLite: the same commit records an *unindex*
marker (``markers``, like a forget's job) naming the message's uid. The index
follower applies markers (``pending_unindex``): it deletes the uid's row and,
should the session hold a new message at that seq already indexed, writes
that one back; then it drops the marker. A crash in between leaves the marker
for the next start, so a popped message never stays in the search index.
The index cursor is clamped to the log's end: the popped row's gid may be
the log's last, and SQLite hands it to the next append.
"""

from __future__ import annotations

import apsw
import msgspec

from reverie.config import Conflict

from .index_feed import message_doc, read_cursor, write_cursor
from .jobs import open_job
from .journal import MessageRecord, SessionRecord, read_history, save_session
from .markers import drop_markers, marker_key, read_markers, write_marker
from .ranking import IndexDoc

__all__ = ["Unindex", "finish_unindex", "pending_unindex", "pop_newest", "unindexed_doc"]

_PREFIX = "unindex:"


class Unindex(msgspec.Struct, frozen=True, kw_only=True):
    """The marker of a popped message whose search-index row must go."""

    session: str
    seq: int

    @property
    def key(self) -> str:
        return marker_key(_PREFIX, self)


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
