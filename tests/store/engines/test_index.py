"""The search index on every engine: LanceDB's in tmp_path, PostgreSQL's on pgvector.

``either`` is each engine's ``LiveIndex`` opened over ``CORPUS`` with the real
local model; a case here is what any index must do (writes, filters,
deletes, forgets). How LanceDB does it (its tables, versions, directories)
is in tests/store/test_index*.py, PostgreSQL's in
tests/store/postgres/test_index.py; the parity cases (the same docs, the
same queries, the same answers) are ``test_index_parity``'s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest

from reverie.config import InvalidArgument
from reverie.store import IndexDoc, PrimedEmbedder, SearchQuery
from reverie.store.files.index import AsyncSearchIndex
from reverie.store.files.memory_files import MemoryFiles
from reverie.store.files.memory_store import FileMemoryStore
from reverie.store.postgres.index import PostgresSearchIndex
from reverie.store.postgres.memory_store import MemoryStore
from tests.store.index_corpus import CORPUS, INJECT, NASTY, index_doc, uids_of
from tests.store.postgres.index_fixtures import (
    migrated,
    opened_db,
    pg_db,  # noqa: F401  (the ``db`` fixture)
    pg_index,  # noqa: F401  (the ``index`` fixture)
    primed_embedder,  # noqa: F401  (the ``primed`` fixture)
    search_hits,
    store_messages,
)

pytestmark = pytest.mark.trio


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
            url = migrated(request.getfixturevalue("pg_url"))
            opened = PostgresSearchIndex(await stack.enter_async_context(opened_db(url)), primed)
        await opened.open()
        await opened.add(_corpus(), 8)
        yield opened


def _corpus() -> list[IndexDoc]:
    return [index_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())]


async def _add_messages(index: AnyIndex, docs: list[IndexDoc], chunk: int) -> None:
    """``index.add(docs, chunk)``, the messages of its ``message`` docs stored first in
    Postgres, where a message doc is written only while its message is."""
    if isinstance(index, PostgresSearchIndex):
        await store_messages(index.db, docs)
    await index.add(docs, chunk)


async def _every(index: AnyIndex, **filters: Any) -> list[str]:
    """Every doc's uid (matching ``filters``), sorted."""
    hits = await index.search(SearchQuery(query="any", mode="vector", k=100, **filters))
    return sorted(uids_of(hits))


async def test_added_docs_are_found_with_their_fields(either: AnyIndex) -> None:
    assert await _every(either) == sorted(CORPUS)
    (hit, *_) = await search_hits(either, "watering tomatoes in the morning", k=3)
    assert hit.uid == "d2"
    assert (hit.kind, hit.text, hit.scope, hit.session) == ("episode", CORPUS["d2"], "a", "s1")
    assert (hit.ts, hit.message_ids, hit.source) == (9.0, ["d2"], "messages")


async def test_a_message_keeps_its_vector_but_not_its_text(either: AnyIndex) -> None:
    await _add_messages(either, [index_doc("m1", "pelican pelican", kind="message")], 8)
    assert uids_of(await search_hits(either, "pelican", mode="text")) == []
    (hit,) = await search_hits(either, "pelican pelican", mode="vector", kinds=("message",))
    assert (hit.uid, hit.text) == ("m1", "")


async def test_adding_a_known_uid_replaces_the_doc(either: AnyIndex) -> None:
    new = [
        index_doc("d3", "The ferry to Zanzibar leaves at noon."),
        index_doc("new", "brand new zebra"),
    ]
    await either.add(new, 8)
    assert await _every(either) == sorted([*CORPUS, "new"])
    assert uids_of(await search_hits(either, "Lyon", mode="text")) == []
    assert uids_of(await search_hits(either, "Zanzibar", mode="text")) == ["d3"]


async def test_last_doc_wins_within_one_add(either: AnyIndex) -> None:
    await either.add(
        [index_doc("dup", "first version pelican"), index_doc("dup", "second flamingo")], 8
    )
    assert uids_of(await search_hits(either, "pelican", mode="text")) == []
    assert uids_of(await search_hits(either, "flamingo", mode="text")) == ["dup"]


@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
async def test_scope_filter_isolates_scopes_with_hostile_names(either: AnyIndex, mode: str) -> None:
    await either.add(
        [
            index_doc("n1", "ticket 7Q93KX belongs to the nasty scope", scope=NASTY),
            index_doc("n2", "a kitten on the couch in the nasty scope", scope=NASTY + "x"),
            index_doc("n3", "ticket 7Q93KX for the injection scope", scope=INJECT),
        ],
        8,
    )
    for query in ("ticket 7Q93KX", "kitten couch"):
        for scope, allowed in ((NASTY, {"n1"}), (INJECT, {"n3"})):
            hits = await search_hits(either, query, scope=scope, mode=mode, k=10)
            assert set(uids_of(hits)) <= allowed
        in_a = await search_hits(either, query, scope="a", mode=mode, k=50)
        assert {h.scope for h in in_a} == {"a"}
    for scope, only in ((NASTY, ["n1"]), (INJECT, ["n3"])):
        assert uids_of(await search_hits(either, "ticket 7Q93KX", scope=scope, mode=mode)) == only
    assert await search_hits(either, "kitten", scope="no such scope", mode=mode) == []
    assert await _every(either, scope=NASTY) == ["n1"]


@pytest.mark.parametrize("query", ["", "   ", "   \n", "\x00"])
async def test_empty_query_is_invalid_argument(either: AnyIndex, query: str) -> None:
    with pytest.raises(InvalidArgument):
        await search_hits(either, query)


async def test_bad_kinds_and_k_are_invalid(either: AnyIndex) -> None:
    with pytest.raises(InvalidArgument):
        await search_hits(either, "x", kinds=("bogus",))
    with pytest.raises(InvalidArgument):
        await search_hits(either, "x", k=0)
    with pytest.raises(InvalidArgument):
        await either.add([index_doc("b", "x", kind="bogus")], 8)


async def test_operator_only_query_falls_back_to_vector_ranking(either: AnyIndex) -> None:
    assert len(await search_hits(either, '"(*)"', k=3)) == 3
    assert await search_hits(either, '"(*)"', mode="text") == []
    query = '"*:(){}[]^~'
    assert await search_hits(either, query, mode="text") == []
    assert uids_of(await search_hits(either, query, mode="hybrid", k=4)) == uids_of(
        await search_hits(either, query, mode="vector", k=4)
    )


#: Session s1's messages and its own scope's fact, beside a shared scope's docs.
_FORGET_DOCS = [
    index_doc("m1", "one", scope="session/s1", session="s1", kind="message"),
    index_doc("f1", "two", scope="session/s1", session="", kind="fact"),
    index_doc("m2", "three", scope="shared", session="s1", kind="message"),
    index_doc("m3", "four", scope="shared", session="s2", kind="message"),
    index_doc("f2", "five", scope="shared", session="", kind="fact"),
]


async def test_forgetting_a_session_takes_its_own_scope_and_nothing_else(
    either: AnyIndex,
) -> None:
    await _add_messages(either, _FORGET_DOCS, 2)
    await either.forget_session("s1", "session/s1")
    assert await _every(either, scope="shared") == ["f2", "m3"]
    assert await _every(either, scope="session/s1") == []
    await either.forget_session("s2", "shared")  # a shared scope stays
    assert await _every(either, scope="shared") == ["f2"]


async def test_delete_scope_episodes_and_uids(either: AnyIndex) -> None:
    other = [
        index_doc("o1", "other scope", scope="b"),
        index_doc("o2", "fact", scope="b", kind="fact", session=""),  # of MEMORY.md
        index_doc("o3", "retired fact", scope="b", kind="fact"),  # of a history entry
    ]
    await either.add(other, 8)
    await either.delete_episodes("b")  # the history's docs: its episodes, what they retired
    assert await _every(either, scope="b") == ["o2"]
    await either.delete_scope("b")
    assert await _every(either, scope="b") == []
    await either.delete_uids(["t1", "t2", "unknown"])
    assert await _every(either) == sorted(set(CORPUS) - {"t1", "t2"})


def _memory_of(index: AnyIndex, tmp_path: Path) -> FileMemoryStore | MemoryStore:
    """The memory store of ``index``'s engine: the Postgres index reads a scope's memory
    from the rows of its own database (``PostgresSearchIndex.replace_scope``)."""
    if isinstance(index, PostgresSearchIndex):
        return MemoryStore(index.db)
    return FileMemoryStore(MemoryFiles(tmp_path / "memory"))


async def test_replacing_a_scope_rewrites_its_facts_and_keeps_other_docs(
    either: AnyIndex, tmp_path: Path
) -> None:
    memory = _memory_of(either, tmp_path)
    await memory.write_memory("a", "# Memory\n\n- Carl lives in Porto\n- Carl drinks tea\n")
    await either.replace_scope(memory, "a", None)
    facts = await search_hits(either, "where does Carl live", kinds=("fact",), k=5)
    assert {h.text for h in facts} == {"Carl lives in Porto", "Carl drinks tea"}
    await memory.write_memory("a", "# Memory\n\n- Carl lives in Lisbon\n")
    await either.replace_scope(memory, "a", None)
    facts = await search_hits(either, "where does Carl live", kinds=("fact",), k=5)
    assert [h.text for h in facts] == ["Carl lives in Lisbon"]
    assert uids_of(await search_hits(either, "Porto", mode="text")) == []
    assert len(await _every(either, kinds=("episode",))) == len(CORPUS)
