"""A message doc written by one member while another forgets its session (issue 57).

Another daemon's index follower reads a session's messages before a forget
and writes their vectors after it; the index's write lock is per daemon. The
interleavings are forced here at the store level, on two connections of one
database, with no daemon: the doc write after the forget's commit, the
forget while the doc write is in flight, and the session made again under
its name before the stale write lands.
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
import trio

from reverie.store import IndexDoc, PrimedEmbedder
from reverie.store.base.index_feed import message_doc
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.index import PostgresSearchIndex
from reverie.store.postgres.index_schema import upsert
from reverie.store.postgres.journal import delete_session

from .index_fixtures import (
    pg_db,  # noqa: F401  (the ``db`` fixture)
    primed_embedder,  # noqa: F401  (the ``primed`` fixture)
    store_messages,
    waits_on_lock,
)

pytestmark = pytest.mark.trio

_SESSION = "s1"


def _docs(ts: float = 1.0) -> list[IndexDoc]:
    """Two messages of ``_SESSION`` as the follower makes their docs."""
    return [
        message_doc(_SESSION, n, f"id{n}", text, ts, f"session/{_SESSION}")
        for n, text in enumerate(("the pelican flies", "the heron waits"), 1)
    ]


async def _index(db: PostgresDatabase, primed: PrimedEmbedder) -> PostgresSearchIndex:
    index = PostgresSearchIndex(db, primed)
    await index.open()
    return index


def _forget(url: str) -> None:
    """The forget of another member: the session's rows, then (after that commit) the
    index purge, as the forget job runs them."""
    with psycopg.connect(url, options="-c reverie.member=other") as conn:
        delete_session(conn, _SESSION)
        conn.commit()
        conn.execute("DELETE FROM index_docs WHERE session = %s", (_SESSION,))
        conn.commit()


async def _stored(db: PostgresDatabase) -> list[tuple[Any, ...]]:
    return await db.read(
        lambda t: t.conn.execute("SELECT uid, vector::text FROM index_docs ORDER BY uid").fetchall()
    )


async def test_docs_of_a_session_forgotten_before_the_write_are_not_stored(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    index = await _index(db, primed)
    docs = _docs()
    await store_messages(db, docs)  # the follower read these ...
    await trio.to_thread.run_sync(_forget, db.url)  # ... another member forgot them ...
    await index.write(docs)  # ... and the follower writes their vectors now
    assert await _stored(db) == []


async def test_a_forget_waits_for_an_upsert_in_flight_and_leaves_nothing(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    index = await _index(db, primed)
    docs = _docs()
    await store_messages(db, docs)
    rows = await index._rows(docs)
    history: list[str] = []
    with psycopg.connect(db.url) as writer:
        upsert(writer, index._table, rows)
        history.append("upsert in flight")
        async with trio.open_nursery() as nursery:
            forgot = trio.Event()

            async def forget() -> None:
                await trio.to_thread.run_sync(_forget, db.url)
                history.append("forget done")
                forgot.set()

            nursery.start_soon(forget)
            # The forget is blocked on the upsert's locks: it waits until it is seen waiting.
            with trio.fail_after(60):
                while not await trio.to_thread.run_sync(
                    waits_on_lock, db.url, "DELETE FROM messages"
                ):
                    await trio.sleep(0.01)
            history.append("forget waiting")
            assert not forgot.is_set(), history
            writer.commit()
            history.append("upsert committed")
    assert history[-1] == "forget done", history
    assert await _stored(db) == [], history


async def test_stale_docs_are_not_written_to_a_session_made_again_under_the_name(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    index = await _index(db, primed)
    stale = _docs(ts=1.0)
    await store_messages(db, stale)
    await trio.to_thread.run_sync(_forget, db.url)
    again = [
        message_doc(_SESSION, 1, "id1", "the new session's first words", 2.0, "session/s1"),
        message_doc(_SESSION, 2, "id2", "and its second", 2.0, "session/s1"),
    ]
    await store_messages(db, again)  # same name, seqs and ids: a client's own ids
    await index.write(again)
    new = await _stored(db)
    assert [uid for uid, _ in new] == [d.uid for d in again]
    await index.write(stale)  # the forgotten session's docs, read before the forget
    assert await _stored(db) == new  # the new session's vectors, not overwritten
