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

from reverie.store import IndexDoc
from reverie.store.ranking import stored_text

from .index_words import analyzed

__all__ = ["create_table", "upsert"]

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


def upsert(
    conn: psycopg.Connection[Any], table: sql.Identifier, rows: list[tuple[IndexDoc, str]]
) -> None:
    """Insert or replace ``rows`` (each doc with its vector as pgvector text), the words of
    episodes and facts analysed first: two round trips, whatever the number of rows."""
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


def _row(doc_vector: tuple[IndexDoc, str], text: str, words: list[str]) -> tuple[Any, ...]:
    """A doc's values for ``_COLUMNS``; a message has no words (it counts for no BM25)."""
    d, vector = doc_vector
    worded = (None, None) if d.kind == "message" else (words, len(words))
    return (d.uid, d.kind, text, vector, d.scope, d.session, d.ts, d.message_ids, d.source, *worded)
