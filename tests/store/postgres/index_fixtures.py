"""The fixtures and helpers the Postgres search index's tests use (here, and its parity with
LanceDB in tests/store/engines/test_index_parity.py): a migrated
database, the primed embedder, the opened ``PostgresSearchIndex`` over the
corpus of ``tests/store/index_corpus``, and a search by query text.

A test module imports a fixture's function (``pg_db``, ``primed_embedder``,
``pg_index``) to have pytest find it; its tests ask for it by its name.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import psycopg
import pytest
from psycopg import sql

from reverie.store import (
    IndexDoc,
    LocalEmbedder,
    PrimedEmbedder,
    SearchHit,
    SearchQuery,
    Tx,
)
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.index import PostgresSearchIndex
from reverie.store.postgres.schema import migrate

from ..index_corpus import CORPUS, index_doc


def migrated(url: str, *settings: str) -> str:
    """``url``'s database migrated, with ``settings`` for every
    connection to it (``SET name = value`` made ``ALTER DATABASE``)."""
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
        name = conn.execute("SELECT current_database()").fetchone()[0]  # type: ignore[index]
        for setting in settings:
            conn.execute(
                sql.SQL("ALTER DATABASE {} ").format(sql.Identifier(name)) + sql.SQL(setting)
            )
    return url


@pytest.fixture(name="primed")
def primed_embedder(embedder: LocalEmbedder) -> Iterator[PrimedEmbedder]:
    primed = PrimedEmbedder(embedder, workers=1)
    yield primed
    primed.close()


@asynccontextmanager
async def opened_db(url: str) -> AsyncIterator[PostgresDatabase]:
    db = PostgresDatabase(url, read_connections=2)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture(name="db")
async def pg_db(pg_url: str) -> AsyncIterator[PostgresDatabase]:
    async with opened_db(migrated(pg_url)) as db:
        yield db


@pytest.fixture(name="index")
async def pg_index(db: PostgresDatabase, primed: PrimedEmbedder) -> PostgresSearchIndex:
    opened = PostgresSearchIndex(db, primed)
    await opened.open()
    await opened.add(
        [index_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())], 8
    )
    return opened


async def store_messages(db: PostgresDatabase, docs: list[IndexDoc]) -> None:
    """The sessions and messages the ``message`` docs of ``docs`` were read from, as an
    append stores them, in one commit: the index writes a message doc only while its
    message is stored (``index_schema.upsert``)."""
    messages = [d for d in docs if d.kind == "message"]
    sessions = sorted({(d.session, d.scope) for d in messages})

    def store(tx: Tx) -> None:
        tx.conn.execute(
            "INSERT INTO sessions (name, scope, created, last_seq, last_active)"
            " SELECT n, s, 0, 0, 0 FROM unnest(%s::text[], %s::text[]) AS b(n, s)"
            " ON CONFLICT (name) DO NOTHING",
            ([n for n, _ in sessions], [s for _, s in sessions]),
        )
        last = dict(tx.conn.execute("SELECT name, last_seq FROM sessions").fetchall())
        rows = []
        for d in messages:
            last[d.session] += 1
            rows.append((d.session, last[d.session], d.message_ids[0], d.text, d.ts))
        tx.conn.execute(
            "WITH b AS (INSERT INTO messages (session, seq, id, role, content, ts, tokens)"
            " SELECT n, s, i, 'user', c, t, 1 FROM unnest("
            "%s::text[], %s::bigint[], %s::text[], %s::text[], %s::float8[]) AS b(n, s, i, c, t)"
            " RETURNING session, seq)"
            " UPDATE sessions SET last_seq = m.seq"
            " FROM (SELECT session, max(seq) AS seq FROM b GROUP BY session) m"
            " WHERE name = m.session",
            [list(c) for c in zip(*rows, strict=True)],
        )

    if messages:
        await db.write(store)


async def search_hits(index: PostgresSearchIndex, query: str, **kw: Any) -> list[SearchHit]:
    """``index.search`` of a ``SearchQuery`` made of ``query`` and ``kw``."""
    return await index.search(SearchQuery(query=query, **kw))


def waits_on_lock(url: str, statement: str) -> bool:
    """Whether a query starting with ``statement`` (another member's forget, in the race
    tests) waits on a lock now."""
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND query LIKE %s",
            (statement + "%",),
        ).fetchone()
    return bool(row and row[0])
