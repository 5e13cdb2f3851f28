"""The Postgres search index beside the LanceDB one: the same docs added to both engines
and the same queries asked of both must rank, score, filter and cut words alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.store import LocalEmbedder, SearchHit
from reverie.store.files.index_lifecycle import SearchIndex
from reverie.store.postgres.index import PostgresSearchIndex
from tests.store.index_corpus import CORPUS, index_doc, uids_of
from tests.store.postgres.index_fixtures import (
    pg_db,  # noqa: F401  (the ``db`` fixture)
    pg_index,  # noqa: F401  (the ``index`` fixture)
    primed_embedder,  # noqa: F401  (the ``primed`` fixture)
    search_hits,
)

pytestmark = pytest.mark.trio


@pytest.fixture
def lance(tmp_path: Path, embedder: LocalEmbedder) -> SearchIndex:
    idx = SearchIndex(tmp_path / "index", embedder)
    idx.open()
    idx.add([index_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())])
    idx.optimize()
    return idx


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
    ours = await search_hits(index, query, mode=mode, k=8)
    theirs = lance.search(query, mode=mode, k=8)  # type: ignore[arg-type]
    assert uids_of(ours) == uids_of(theirs) or _close(ours, theirs)
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
    if sorted(uids_of(ours)) != sorted(uids_of(theirs)):
        return False
    score = {h.uid: h.score for h in theirs}
    return all(abs(score[a.uid] - b.score) < 2e-3 for a, b in zip(ours, theirs, strict=True))


@pytest.mark.parametrize("min_score", [0.05, 0.2, 0.4])
async def test_min_score_keeps_the_same_hits_on_both_engines(
    index: PostgresSearchIndex, lance: SearchIndex, min_score: float
) -> None:
    for query in _QUERIES:
        ours = {h.uid for h in await search_hits(index, query, k=20) if h.score >= min_score + 2e-3}
        theirs = {h.uid for h in lance.search(query, k=20) if h.score >= min_score}
        assert ours <= theirs
        near = {h.uid for h in lance.search(query, k=20) if h.score >= min_score + 4e-3}
        assert near <= {
            h.uid for h in await search_hits(index, query, k=20) if h.score >= min_score
        }


async def test_filters_give_the_same_hits_on_both_engines(
    index: PostgresSearchIndex, lance: SearchIndex
) -> None:
    extra = [
        index_doc("x1", "ticket 7Q93KX in another session", session="s2", ts=20.0),
        index_doc("x2", "a fact about ticket 7Q93KX", session="", kind="fact", scope="b", ts=30.0),
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
            ours = await search_hits(index, "ticket 7Q93KX", mode=mode, kinds=kinds, **rest)
            theirs = lance.search("ticket 7Q93KX", mode=mode, **filters)  # type: ignore[arg-type]
            assert uids_of(ours) == uids_of(theirs), (filters, mode)


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
    docs = [index_doc(uid, text, kind="fact") for uid, text in _ANALYZER_CASES.items()]
    await index.add(docs, 8)
    lance.add(docs)
    lance.optimize()
    ours = await search_hits(index, query, mode="text")
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
    assert uids_of(ours) == uids_of(theirs) == ["para", "t3", "d1", "t1"] or _close(ours, theirs)
    assert [h.score for h in ours] == pytest.approx([h.score for h in theirs], abs=2e-3)
    assert await index.meaning_among("x", uids, ["another"]) == []
    assert await index.meaning_among("x", [], ["s1"]) == []
