"""The Postgres search index on a real PostgreSQL with pgvector: what only it does.

Its table and vectors, members opening it at once, a changed embedder, the
HNSW index under filters, searches racing writes; what every engine's index
does is in tests/store/engines/test_index.py.
"""

from __future__ import annotations

import zlib
from contextlib import AsyncExitStack

import numpy as np
import numpy.typing as npt
import pytest
import trio

from reverie.store import IndexStale, PrimedEmbedder, SearchHit, StoreError
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.index import PostgresSearchIndex
from tests.store.engines.test_index import _FORGET_DOCS, _add_messages
from tests.store.index_corpus import FakeEmbedder, index_doc, uids_of

from .index_fixtures import (
    migrated,
    opened_db,
    pg_db,  # noqa: F401  (the ``db`` fixture)
    pg_index,  # noqa: F401  (the ``index`` fixture)
    primed_embedder,  # noqa: F401  (the ``primed`` fixture)
    search_hits,
)

pytestmark = pytest.mark.trio


async def test_forgetting_a_session_leaves_no_vector_of_it(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    index = PostgresSearchIndex(db, primed)
    await index.open()
    await _add_messages(index, _FORGET_DOCS, 2)
    await index.forget_session("s1", "session/s1")
    rows = await db.read(
        lambda t: t.conn.execute("SELECT uid, session, scope, vector FROM index_docs").fetchall()
    )
    assert sorted(uid for uid, *_ in rows) == ["f2", "m3"]
    assert all(session != "s1" and scope != "session/s1" for _, session, scope, _ in rows)


async def test_open_says_whether_the_table_existed(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    assert await PostgresSearchIndex(db, primed).open() is False
    assert await PostgresSearchIndex(db, primed).open() is True
    assert await PostgresSearchIndex(db, primed, table="index_docs_next").open() is False


async def test_members_opening_a_new_index_at_once_make_it_once(
    pg_url: str, db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    """Daemons started together on one store (docs/scale-out.md): each opens the index
    on its own connections; one makes the table, the others find it."""
    opened: list[bool] = []
    async with AsyncExitStack() as stack:
        dbs = [await stack.enter_async_context(opened_db(pg_url)) for _ in range(3)]

        async def open_one(member: PostgresDatabase) -> None:
            opened.append(await PostgresSearchIndex(member, primed).open())

        async with trio.open_nursery() as nursery:
            for member in dbs:
                nursery.start_soon(open_one, member)
    assert sorted(opened) == [False, True, True]


async def test_use_before_open_is_store_error(db: PostgresDatabase, primed: PrimedEmbedder) -> None:
    with pytest.raises(StoreError, match="before open"):
        await search_hits(PostgresSearchIndex(db, primed), "x")


async def test_changed_embedder_marks_stale_and_reset_recreates(
    index: PostgresSearchIndex, db: PostgresDatabase
) -> None:
    other = PrimedEmbedder(FakeEmbedder(), workers=1)  # type: ignore[arg-type]
    try:
        stale = PostgresSearchIndex(db, other)
        assert await stale.open() is True
        assert stale.stale
        with pytest.raises(IndexStale):
            await search_hits(stale, "ticket")
        with pytest.raises(IndexStale):
            await stale.add([index_doc("z", "zebra")], 8)
        await stale.reset()
        assert not stale.stale
        assert await stale.count() == 0
        await stale.add([index_doc("z", "zebra")], 8)
        assert uids_of(await search_hits(stale, "zebra", mode="text")) == ["z"]
        again = PostgresSearchIndex(db, other)
        await again.open()
        assert not again.stale
    finally:
        other.close()


class _SpreadEmbedder:
    """16 dims, a pseudo-random unit vector per text: an HNSW graph of distinct points."""

    model_id = "spread-16"
    dimension = 16

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = np.stack(
            [np.random.default_rng(zlib.crc32(t.encode())).standard_normal(16) for t in texts]
        ).astype(np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


async def test_a_filtered_nearest_search_returns_every_match_through_the_hnsw_index(
    pg_url: str,
) -> None:
    """With the other plans off, the HNSW index serves a filtered search: without
    iterative scans it would stop at ``ef_search`` candidates, most of them in the other
    scope, and return fewer hits than the scope holds."""
    off = ("SET enable_seqscan = off", "SET enable_bitmapscan = off", "SET enable_sort = off")
    spread = PrimedEmbedder(_SpreadEmbedder(), workers=1)  # type: ignore[arg-type]
    try:
        async with opened_db(migrated(pg_url, *off)) as db:
            index = PostgresSearchIndex(db, spread)
            await index.open()
            many = [
                index_doc(f"b{n}", f"big {n}", scope="big", kind="message") for n in range(3000)
            ]
            few = [
                index_doc(f"s{n}", f"small {n}", scope="small", kind="message") for n in range(60)
            ]
            await _add_messages(index, many + few, 512)
            plan = await db.read(
                lambda t: t.conn.execute(
                    "EXPLAIN SELECT uid FROM index_docs WHERE scope = 'small'"
                    " ORDER BY vector <=> %s::halfvec LIMIT 60",
                    ("[" + ",".join(["0.25"] * 16) + "]",),
                ).fetchall()
            )
            assert "index_docs_vector_idx" in str(plan)
            hits = await search_hits(index, "small 3", scope="small", mode="vector", k=60)
            assert sorted(uids_of(hits)) == sorted(d.uid for d in few)
    finally:
        spread.close()


async def test_concurrent_searches_and_writes_do_not_fail(index: PostgresSearchIndex) -> None:
    results: list[list[SearchHit]] = []

    async def search() -> None:
        results.append(await search_hits(index, "ticket closed", k=5))

    async with trio.open_nursery() as nursery:
        for _ in range(4):
            nursery.start_soon(search)
        nursery.start_soon(index.add, [index_doc("w", "written meanwhile")], 8)
    assert len(results) == 4 and all(len(r) == 5 for r in results)
