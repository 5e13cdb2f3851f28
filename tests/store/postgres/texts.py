"""Messages written to a Postgres store as tests/store/messages.py writes them to SQLite.

The same ids, seqs, times and scopes, so one corpus on both engines is one
log. Rows go in as the Postgres journal inserts them: one ``INSERT ...
SELECT FROM unnest`` of the batch in a data-modifying CTE beside the session's
row (the words' triggers see the batch's earlier rows as its context).
"""

from __future__ import annotations

from typing import Any

import psycopg

from reverie.store import SearchHit
from reverie.store.postgres.schema import migrate


def words_store(pg_url: str) -> psycopg.Connection[Any]:
    """A connection to a migrated database (the words' DDL is part of the schema)."""
    with psycopg.connect(pg_url, autocommit=True) as admin:
        migrate(admin)
    return psycopg.connect(pg_url)


def append_texts(
    conn: psycopg.Connection[Any], session: str, *texts: str, scope: str | None = None
) -> None:
    """One append of ``texts`` to ``session`` (created in ``scope`` if new), one commit."""
    row = conn.execute("SELECT last_seq FROM sessions WHERE name = %s", (session,)).fetchone()
    first = int(row[0]) if row else 0
    seqs = [first + i + 1 for i in range(len(texts))]
    conn.execute(
        "WITH added AS (INSERT INTO messages (session, seq, id, role, content, ts, tokens)"
        " SELECT %s, s, %s || '-' || (s - 1), 'user', t, i - 1, 1"
        " FROM unnest(%s::bigint[], %s::text[]) WITH ORDINALITY AS b(s, t, i))"
        " INSERT INTO sessions (name, scope, created, last_seq, last_active)"
        " VALUES (%s, %s, 0, %s, 0) ON CONFLICT (name) DO UPDATE SET last_seq = excluded.last_seq",
        (session, session, seqs, list(texts), session, scope or f"session/{session}", seqs[-1]),
    )
    conn.commit()


def delete_session(conn: psycopg.Connection[Any], session: str) -> None:
    """The session's rows gone, as a forget deletes them; one commit."""
    conn.execute("DELETE FROM messages WHERE session = %s", (session,))
    conn.execute("DELETE FROM sessions WHERE name = %s", (session,))
    conn.commit()


def ranked(hits: list[SearchHit]) -> list[tuple[str, float]]:
    """The hits by score to 9 decimals, ties by uid: the order both engines must give."""
    return sorted(((h.uid, round(h.score, 9)) for h in hits), key=lambda h: (-h[1], h[0]))
