"""The Postgres search index, on a real PostgreSQL with pgvector, beside the LanceDB one.

Each case that ``tests/store/test_index.py`` and ``test_async_index.py`` hold
for LanceDB and that means something on a table is run here; the parity
cases add the same docs to both engines and ask both the same queries.
"""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import psycopg
import pytest
import trio
from psycopg import sql

from reverie.config import InvalidArgument
from reverie.store import (
    AsyncSearchIndex,
    FileMemoryStore,
    IndexDoc,
    IndexStale,
    LocalEmbedder,
    MemoryFiles,
    PrimedEmbedder,
    SearchHit,
    SearchIndex,
    SearchQuery,
    StoreError,
)
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.index import PostgresSearchIndex
from reverie.store.postgres.schema import migrate

from ..test_index import CORPUS, INJECT, NASTY, FakeEmbedder, _doc

T = TypeVar("T")
pytestmark = pytest.mark.trio


def _migrated(url: str, *settings: str) -> str:
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


@pytest.fixture
def primed(embedder: LocalEmbedder) -> Iterator[PrimedEmbedder]:
    primed = PrimedEmbedder(embedder, workers=1)
    yield primed
    primed.close()


@asynccontextmanager
async def _opened(url: str) -> AsyncIterator[PostgresDatabase]:
    db = PostgresDatabase(url, read_connections=2)
    await db.open()
    try:
        yield db
    finally:
        await db.close()


@pytest.fixture
async def db(pg_url: str) -> AsyncIterator[PostgresDatabase]:
    async with _opened(_migrated(pg_url)) as db:
        yield db


@pytest.fixture
async def index(db: PostgresDatabase, primed: PrimedEmbedder) -> PostgresSearchIndex:
    opened = PostgresSearchIndex(db, primed)
    await opened.open()
    await opened.add(
        [_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())], 8
    )
    return opened


@pytest.fixture
def lance(tmp_path: Path, embedder: LocalEmbedder) -> SearchIndex:
    idx = SearchIndex(tmp_path / "index", embedder)
    idx.open()
    idx.add([_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())])
    idx.optimize()
    return idx


def _uids(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


async def _search(index: PostgresSearchIndex, query: str, **kw: Any) -> list[SearchHit]:
    return await index.search(SearchQuery(query=query, **kw))


# -- parity with LanceDB -------------------------------------------------------------

_QUERIES = [
    "ticket 7Q93KX",
    "a young cat sleeping on the sofa",
    "watering tomatoes in the morning",
    "closed support tickets",
    "the ticket was closed, the ticket",
    "café revenue does grow",
]


@pytest.mark.parametrize("mode", ["text", "vector", "hybrid"])
@pytest.mark.parametrize("query", _QUERIES)
async def test_the_same_docs_rank_and_score_the_same_as_in_lancedb(
    index: PostgresSearchIndex, lance: SearchIndex, query: str, mode: str
) -> None:
    ours = await _search(index, query, mode=mode, k=8)
    theirs = lance.search(query, mode=mode, k=8)  # type: ignore[arg-type]
    assert _uids(ours) == _uids(theirs) or _close(ours, theirs)
    for a, b in zip(ours, theirs, strict=True):
        assert a.score == pytest.approx(b.score, abs=2e-3)
        assert (a.kind, a.text, a.scope, a.session, a.ts, a.message_ids, a.source) == (
            b.kind,
            b.text,
            b.scope,
            b.session,
            b.ts,
            b.message_ids,
            b.source,
        )


def _close(ours: list[SearchHit], theirs: list[SearchHit]) -> bool:
    """Same hits, in the same order except where two scores tie within the tolerance."""
    if sorted(_uids(ours)) != sorted(_uids(theirs)):
        return False
    score = {h.uid: h.score for h in theirs}
    return all(abs(score[a.uid] - b.score) < 2e-3 for a, b in zip(ours, theirs, strict=True))


@pytest.mark.parametrize("min_score", [0.05, 0.2, 0.4])
async def test_min_score_keeps_the_same_hits_on_both_engines(
    index: PostgresSearchIndex, lance: SearchIndex, min_score: float
) -> None:
    for query in _QUERIES:
        ours = {h.uid for h in await _search(index, query, k=20) if h.score >= min_score + 2e-3}
        theirs = {h.uid for h in lance.search(query, k=20) if h.score >= min_score}
        assert ours <= theirs
        near = {h.uid for h in lance.search(query, k=20) if h.score >= min_score + 4e-3}
        assert near <= {h.uid for h in await _search(index, query, k=20) if h.score >= min_score}


async def test_filters_give_the_same_hits_on_both_engines(
    index: PostgresSearchIndex, lance: SearchIndex
) -> None:
    extra = [
        _doc("x1", "ticket 7Q93KX in another session", session="s2", ts=20.0),
        _doc("x2", "a fact about ticket 7Q93KX", session="", kind="fact", scope="b", ts=30.0),
    ]
    await index.add(extra, 8)
    lance.add(extra)
    lance.optimize()
    for filters in (
        {"session": "s2"},
        {"scope": "b"},
        {"kinds": ["fact"]},
        {"since": 3.0, "until": 25.0},
    ):
        for mode in ("text", "vector", "hybrid"):
            kinds = filters.get("kinds")
            rest = {k: v for k, v in filters.items() if k != "kinds"}
            ours = await _search(index, "ticket 7Q93KX", mode=mode, kinds=kinds, **rest)
            theirs = lance.search("ticket 7Q93KX", mode=mode, **filters)  # type: ignore[arg-type]
            assert _uids(ours) == _uids(theirs), (filters, mode)


_ANALYZER_CASES = {
    "w1": "She does yoga; they did it themselves, being there.",
    "w2": "Ærøskøbing café, a naïve résumé",
    "w3": "snake_case e-mail a@b.io 3.5 v2",
    "w4": "x" * 39 + " " + "y" * 40 + " done",
}


@pytest.mark.parametrize(
    "query",
    [
        "does",
        "themselves being",
        "cafe resume",
        "Ærøskøbing",
        "snake case",
        "3 5 v2",
        "x" * 39,
        "y" * 40,
        "done does doing",
    ],
)
async def test_words_are_cut_stemmed_and_folded_as_lancedb_does(
    index: PostgresSearchIndex, lance: SearchIndex, query: str
) -> None:
    docs = [_doc(uid, text, kind="fact") for uid, text in _ANALYZER_CASES.items()]
    await index.add(docs, 8)
    lance.add(docs)
    lance.optimize()
    ours = await _search(index, query, mode="text")
    theirs = lance.search(query, mode="text")
    assert [(h.uid, round(h.score, 4)) for h in ours] == [
        (h.uid, round(h.score, 4)) for h in theirs
    ]


async def test_meaning_among_ranks_the_named_docs_as_lancedb_does(
    index: PostgresSearchIndex, lance: SearchIndex
) -> None:
    uids = ["t1", "t3", "para", "d1", "unknown"]
    ours = await index.meaning_among("a kitten on a sofa", uids, ["s1"])
    theirs = lance.meaning_among("a kitten on a sofa", uids, ["s1"])
    assert _uids(ours) == _uids(theirs) == ["para", "t3", "d1", "t1"] or _close(ours, theirs)
    assert [h.score for h in ours] == pytest.approx([h.score for h in theirs], abs=2e-3)
    assert await index.meaning_among("x", uids, ["another"]) == []
    assert await index.meaning_among("x", [], ["s1"]) == []


# -- behaviour, on both engines -------------------------------------------------------

AnyIndex = AsyncSearchIndex | PostgresSearchIndex


@pytest.fixture(params=["lance", "postgres"])
async def either(
    request: pytest.FixtureRequest, tmp_path: Path, primed: PrimedEmbedder
) -> AsyncIterator[AnyIndex]:
    """The LanceDB index or the Postgres one, opened, holding ``CORPUS``."""
    async with AsyncExitStack() as stack:
        if request.param == "lance":
            opened: AnyIndex = AsyncSearchIndex(tmp_path / "index", primed)
        else:
            url = _migrated(request.getfixturevalue("pg_url"))
            opened = PostgresSearchIndex(await stack.enter_async_context(_opened(url)), primed)
        await opened.open()
        await opened.add(_corpus(), 8)
        yield opened


def _corpus() -> list[IndexDoc]:
    return [_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())]


async def _every(index: AnyIndex, **filters: Any) -> list[str]:
    """Every doc's uid (matching ``filters``), sorted."""
    hits = await index.search(SearchQuery(query="any", mode="vector", k=100, **filters))
    return sorted(_uids(hits))


async def test_added_docs_are_found_with_their_fields(either: AnyIndex) -> None:
    assert await _every(either) == sorted(CORPUS)
    (hit, *_) = await _search(either, "watering tomatoes in the morning", k=3)
    assert hit.uid == "d2"
    assert (hit.kind, hit.text, hit.scope, hit.session) == ("episode", CORPUS["d2"], "a", "s1")
    assert (hit.ts, hit.message_ids, hit.source) == (9.0, ["d2"], "messages")


async def test_a_message_keeps_its_vector_but_not_its_text(either: AnyIndex) -> None:
    await either.add([_doc("m1", "pelican pelican", kind="message")], 8)
    assert _uids(await _search(either, "pelican", mode="text")) == []
    (hit,) = await _search(either, "pelican pelican", mode="vector", kinds=("message",))
    assert (hit.uid, hit.text) == ("m1", "")


async def test_adding_a_known_uid_replaces_the_doc(either: AnyIndex) -> None:
    new = [_doc("d3", "The ferry to Zanzibar leaves at noon."), _doc("new", "brand new zebra")]
    await either.add(new, 8)
    assert await _every(either) == sorted([*CORPUS, "new"])
    assert _uids(await _search(either, "Lyon", mode="text")) == []
    assert _uids(await _search(either, "Zanzibar", mode="text")) == ["d3"]


async def test_last_doc_wins_within_one_add(either: AnyIndex) -> None:
    await either.add([_doc("dup", "first version pelican"), _doc("dup", "second flamingo")], 8)
    assert _uids(await _search(either, "pelican", mode="text")) == []
    assert _uids(await _search(either, "flamingo", mode="text")) == ["dup"]


@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
async def test_scope_filter_isolates_scopes_with_hostile_names(either: AnyIndex, mode: str) -> None:
    await either.add(
        [
            _doc("n1", "ticket 7Q93KX belongs to the nasty scope", scope=NASTY),
            _doc("n2", "a kitten on the couch in the nasty scope", scope=NASTY + "x"),
            _doc("n3", "ticket 7Q93KX for the injection scope", scope=INJECT),
        ],
        8,
    )
    for query in ("ticket 7Q93KX", "kitten couch"):
        for scope, allowed in ((NASTY, {"n1"}), (INJECT, {"n3"})):
            hits = await _search(either, query, scope=scope, mode=mode, k=10)
            assert set(_uids(hits)) <= allowed
    assert await _every(either, scope=NASTY) == ["n1"]


@pytest.mark.parametrize("query", ["", "   ", "\x00"])
async def test_empty_query_is_invalid_argument(either: AnyIndex, query: str) -> None:
    with pytest.raises(InvalidArgument):
        await _search(either, query)


async def test_bad_kinds_and_k_are_invalid(either: AnyIndex) -> None:
    with pytest.raises(InvalidArgument):
        await _search(either, "x", kinds=("bogus",))
    with pytest.raises(InvalidArgument):
        await _search(either, "x", k=0)
    with pytest.raises(InvalidArgument):
        await either.add([_doc("b", "x", kind="bogus")], 8)


async def test_operator_only_query_falls_back_to_vector_ranking(either: AnyIndex) -> None:
    assert len(await _search(either, '"(*)"', k=3)) == 3
    assert await _search(either, '"(*)"', mode="text") == []


#: Session s1's messages and its own scope's fact, beside a shared scope's docs.
_FORGET_DOCS = [
    _doc("m1", "one", scope="session/s1", session="s1", kind="message"),
    _doc("f1", "two", scope="session/s1", session="", kind="fact"),
    _doc("m2", "three", scope="shared", session="s1", kind="message"),
    _doc("m3", "four", scope="shared", session="s2", kind="message"),
    _doc("f2", "five", scope="shared", session="", kind="fact"),
]


async def test_forgetting_a_session_takes_its_own_scope_and_nothing_else(
    either: AnyIndex,
) -> None:
    await either.add(_FORGET_DOCS, 2)
    await either.forget_session("s1", "session/s1")
    assert await _every(either, scope="shared") == ["f2", "m3"]
    assert await _every(either, scope="session/s1") == []
    await either.forget_session("s2", "shared")  # a shared scope stays
    assert await _every(either, scope="shared") == ["f2"]


async def test_delete_scope_episodes_and_uids(either: AnyIndex) -> None:
    other = [_doc("o1", "other scope", scope="b"), _doc("o2", "fact", scope="b", kind="fact")]
    await either.add(other, 8)
    await either.delete_episodes("b")
    assert await _every(either, scope="b") == ["o2"]
    await either.delete_scope("b")
    assert await _every(either, scope="b") == []
    await either.delete_uids(["t1", "t2", "unknown"])
    assert await _every(either) == sorted(set(CORPUS) - {"t1", "t2"})


async def test_replacing_a_scope_rewrites_its_facts_and_keeps_other_docs(
    either: AnyIndex, tmp_path: Path
) -> None:
    memory = FileMemoryStore(MemoryFiles(tmp_path / "memory"))
    await memory.write_memory("a", "# Memory\n\n- Carl lives in Porto\n- Carl drinks tea\n")
    await either.replace_scope(memory, "a", None)
    facts = await _search(either, "where does Carl live", kinds=("fact",), k=5)
    assert {h.text for h in facts} == {"Carl lives in Porto", "Carl drinks tea"}
    await memory.write_memory("a", "# Memory\n\n- Carl lives in Lisbon\n")
    await either.replace_scope(memory, "a", None)
    facts = await _search(either, "where does Carl live", kinds=("fact",), k=5)
    assert [h.text for h in facts] == ["Carl lives in Lisbon"]
    assert _uids(await _search(either, "Porto", mode="text")) == []
    assert len(await _every(either, kinds=("episode",))) == len(CORPUS)


# -- Postgres only ----------------------------------------------------------------------


async def test_forgetting_a_session_leaves_no_vector_of_it(
    db: PostgresDatabase, primed: PrimedEmbedder
) -> None:
    index = PostgresSearchIndex(db, primed)
    await index.open()
    await index.add(_FORGET_DOCS, 2)
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


async def test_use_before_open_is_store_error(db: PostgresDatabase, primed: PrimedEmbedder) -> None:
    with pytest.raises(StoreError, match="before open"):
        await _search(PostgresSearchIndex(db, primed), "x")


async def test_changed_embedder_marks_stale_and_reset_recreates(
    index: PostgresSearchIndex, db: PostgresDatabase
) -> None:
    other = PrimedEmbedder(FakeEmbedder(), workers=1)  # type: ignore[arg-type]
    try:
        stale = PostgresSearchIndex(db, other)
        assert await stale.open() is True
        assert stale.stale
        with pytest.raises(IndexStale):
            await _search(stale, "ticket")
        with pytest.raises(IndexStale):
            await stale.add([_doc("z", "zebra")], 8)
        await stale.reset()
        assert not stale.stale
        assert await stale.count() == 0
        await stale.add([_doc("z", "zebra")], 8)
        assert _uids(await _search(stale, "zebra", mode="text")) == ["z"]
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
        async with _opened(_migrated(pg_url, *off)) as db:
            index = PostgresSearchIndex(db, spread)
            await index.open()
            many = [_doc(f"b{n}", f"big {n}", scope="big", kind="message") for n in range(3000)]
            few = [_doc(f"s{n}", f"small {n}", scope="small", kind="message") for n in range(60)]
            await index.add(many + few, 512)
            plan = await db.read(
                lambda t: t.conn.execute(
                    "EXPLAIN SELECT uid FROM index_docs WHERE scope = 'small'"
                    " ORDER BY vector <=> %s::halfvec LIMIT 60",
                    ("[" + ",".join(["0.25"] * 16) + "]",),
                ).fetchall()
            )
            assert "index_docs_vector_idx" in str(plan)
            hits = await _search(index, "small 3", scope="small", mode="vector", k=60)
            assert sorted(_uids(hits)) == sorted(d.uid for d in few)
    finally:
        spread.close()


async def test_concurrent_searches_and_writes_do_not_fail(index: PostgresSearchIndex) -> None:
    results: list[list[SearchHit]] = []

    async def search() -> None:
        results.append(await _search(index, "ticket closed", k=5))

    async with trio.open_nursery() as nursery:
        for _ in range(4):
            nursery.start_soon(search)
        nursery.start_soon(index.add, [_doc("w", "written meanwhile")], 8)
    assert len(results) == 4 and all(len(r) == 5 for r in results)
