"""Messages appended the way the daemon appends them, for tests of the store's reads."""

from __future__ import annotations

import apsw

from reverie.store import NewMessage, SessionRecord
from reverie.store.files.journal import append_requests, load_session


def append_texts(
    conn: apsw.Connection, session: str, *texts: str, scope: str | None = None
) -> None:
    """One append of ``texts`` to ``session`` (created in ``scope`` if new), one commit."""
    record = load_session(conn, session) or SessionRecord(
        name=session, scope=scope or f"session/{session}", created=0.0
    )
    first = record.last_seq
    messages = [
        NewMessage(id=f"{session}-{first + i}", role="user", content=t, ts=float(i), tokens=1)
        for i, t in enumerate(texts)
    ]
    with conn:
        append_requests(conn, record, [messages])
