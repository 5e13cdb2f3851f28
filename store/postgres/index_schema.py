"""What the Postgres search index's table holds, its indexes, and how its rows are written.

The columns are LanceDB's (``store/index_schema.py``), so a hit reads the
same from either engine, plus two for the words of episodes and facts
(``index_words``): ``words``, their analysed tokens, and ``len``, how many.
A message has neither (NULL): its words are ranked from the log, and it
counts for no BM25 statistic, as LanceDB's home table holds no message.

The vector column has the embedder's dimension, so the table is made when
the index is opened or reset, not by the schema's migration. Its indexes:
HNSW over the cosine of the half-float vectors (nearest neighbours), GIN
over ``words`` (the docs holding a query word), a partial B-tree over
``len`` (``N`` and ``avgdl`` read from the worded docs alone), and B-trees
on the columns a search or a delete filters by.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import sql

from reverie.store import HistoryEntry, IndexDoc
from reverie.store.ranking import stored_text

from .index_words import analyzed
from .memory_rows import scope_memory

__all__ = ["ScopeMemory", "create_table", "replace_scope_rows", "upsert"]

#: A scope's ``MEMORY.md`` and history entries, as ``memory_rows.scope_memory`` reads them.
ScopeMemory = tuple[str, list[HistoryEntry]]

#: The table's columns as ``_row`` gives them.
_COLUMNS = "uid kind text vector scope session ts message_ids source words len".split()  # noqa: SIM905
_TABLE = (
    "CREATE TABLE {t} (uid text PRIMARY KEY, kind text NOT NULL, text text NOT NULL,"
    " vector halfvec({dim}) NOT NULL, scope text NOT NULL, session text NOT NULL,"
    " ts float8 NOT NULL, message_ids text[] NOT NULL, source text NOT NULL,"
    " words text[], len int)",
    "CREATE INDEX ON {t} USING hnsw (vector halfvec_cosine_ops)",
    "CREATE INDEX ON {t} USING gin (words)",
    "CREATE INDEX ON {t} (len) WHERE words IS NOT NULL",
    "CREATE INDEX ON {t} (scope)",
    "CREATE INDEX ON {t} (session)",
    "CREATE INDEX ON {t} (kind)",
)


def create_table(conn: psycopg.Connection[Any], table: sql.Identifier, dimension: int) -> None:
    """Make the empty table for vectors of ``dimension``, with its indexes."""
    for statement in _TABLE:
        conn.execute(sql.SQL(statement).format(t=table, dim=sql.Literal(int(dimension))))


#: The stored messages a batch of message docs was made from, each found by its session,
#: id and time (a session re-created under the name has other rows) and share-locked.
_LIVE_MESSAGES = (
    "SELECT m.session, m.id, m.ts FROM messages m"
    " JOIN unnest(%s::text[], %s::text[], %s::float8[]) AS d(session, id, ts)"
    " ON m.session = d.session AND m.id = d.id AND m.ts = d.ts FOR KEY SHARE OF m"
)


def upsert(
    conn: psycopg.Connection[Any], table: sql.Identifier, rows: list[tuple[IndexDoc, str]]
) -> None:
    """Insert or replace ``rows`` (each doc with its vector as pgvector text), the words of
    episodes and facts analysed first: three round trips, whatever the number of rows.

    A message doc is written only while its message is stored (``_live``): a
    doc read from the log before another member's forget or pop is not
    written back after it (docs/design.md, "Several daemons on one database").
    """
    rows = _live(conn, rows)
    if not rows:
        return
    texts = [stored_text(d) for d, _ in rows]
    words = analyzed(conn, texts)
    columns = sql.SQL(", ").join(map(sql.Identifier, _COLUMNS))
    query = sql.SQL(
        "INSERT INTO {t} ({columns}) VALUES ({values})"
        " ON CONFLICT (uid) DO UPDATE SET ({columns}) = ROW({excluded})"
    ).format(
        t=table,
        columns=columns,
        values=sql.SQL(", ").join(sql.Placeholder() * len(_COLUMNS)),
        excluded=sql.SQL(", ").join(sql.Identifier("excluded", c) for c in _COLUMNS),
    )
    with conn.cursor() as cur:
        cur.executemany(query, list(map(_row, rows, texts, words)))


def replace_scope_rows(
    conn: psycopg.Connection[Any],
    table: sql.Identifier,
    scope: str,
    limit: int | None,
    read: ScopeMemory,
    rows: list[tuple[IndexDoc, str]],
) -> bool:
    """Replace the scope's fact docs and upsert its episode docs with ``rows``, made of
    ``read`` (its memory and newest ``limit`` entries), if the scope still holds exactly
    that; False, writing nothing, when it changed since.

    The scope's rows are read again share-locked (``scope_memory``), so a
    forget in another member either committed before (its rows are not
    ``read`` any more: nothing is written back) or waits for this commit,
    and the index purge that follows it deletes the docs
    (docs/design.md, "Several daemons on one database").
    """
    if scope_memory(conn, scope, limit, share=True) != read:
        return False
    mine = "" if limit is None else " AND session = ''"  # retired facts stay with their entries
    conn.execute(
        sql.SQL("DELETE FROM {} WHERE scope = %s AND kind = 'fact'" + mine).format(table),
        (scope,),
    )
    if rows:
        upsert(conn, table, rows)
    return True


def _live(
    conn: psycopg.Connection[Any], rows: list[tuple[IndexDoc, str]]
) -> list[tuple[IndexDoc, str]]:
    """``rows`` but the message docs whose message is no longer stored.

    The messages found are locked ``FOR KEY SHARE`` until the transaction
    ends, so a forget or a pop deleting one (in any member) either committed
    before (the doc is dropped here) or waits for this commit, and the index
    purge that follows it deletes the doc.
    """
    messages = [d for d, _ in rows if d.kind == "message"]
    if not messages:
        return rows
    keys = list(map(_message_key, messages))
    found = conn.execute(_LIVE_MESSAGES, [list(k) for k in zip(*keys, strict=True)]).fetchall()
    stored = {(s, i, float(t)) for s, i, t in found}
    return [(d, v) for d, v in rows if d.kind != "message" or _message_key(d) in stored]


def _message_key(doc: IndexDoc) -> tuple[str, str, float]:
    """What finds a message doc's message: its session, id (``message_doc``) and time."""
    return doc.session, doc.message_ids[0] if doc.message_ids else "", doc.ts


def _row(doc_vector: tuple[IndexDoc, str], text: str, words: list[str]) -> tuple[Any, ...]:
    """A doc's values for ``_COLUMNS``; a message has no words (it counts for no BM25)."""
    d, vector = doc_vector
    worded = (None, None) if d.kind == "message" else (words, len(words))
    return (d.uid, d.kind, text, vector, d.scope, d.session, d.ts, d.message_ids, d.source, *worded)
