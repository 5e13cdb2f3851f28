"""The LanceDB search index's own searches, filters and deletes (its sync ``SearchIndex``), on
real LanceDB in tmp_path with the real local model; what every engine's index does is in
tests/store/engines/test_index.py, opening, failures and upkeep ``test_index_lifecycle``'s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reverie.config import InvalidArgument
from reverie.store import LocalEmbedder
from reverie.store.files.index_lifecycle import SearchIndex
from tests.store.index_corpus import (
    CORPUS,
    NASTY,
    corpus_index,  # noqa: F401  (the ``index`` fixture)
    index_doc,
    uids_of,
)


def test_hybrid_finds_paraphrase_that_text_mode_misses(index: SearchIndex) -> None:
    query = "a young cat sleeping on the sofa"
    assert "para" not in uids_of(index.search(query, mode="text", k=3))
    assert uids_of(index.search(query, mode="vector", k=1)) == ["para"]
    assert "para" in uids_of(index.search(query, mode="hybrid", k=3))


def test_hybrid_finds_rare_identifier_that_vector_mode_misses(index: SearchIndex) -> None:
    query = "ticket 7Q93KX"
    assert "rare" not in uids_of(index.search(query, mode="vector", k=3))
    assert uids_of(index.search(query, mode="text", k=3))[0] == "rare"
    assert "rare" in uids_of(index.search(query, mode="hybrid", k=3))


def test_session_kind_and_time_filters(index: SearchIndex) -> None:
    index.add(
        [
            index_doc(
                "other", "ticket 7Q93KX in another session", session=NASTY, ts=100.0, kind="message"
            ),
            index_doc(
                "ep", "ticket 7Q93KX episode summary", session=NASTY, ts=200.0, kind="episode"
            ),
        ]
    )
    assert set(uids_of(index.search("ticket 7Q93KX", session=NASTY, k=50))) == {"other", "ep"}
    assert uids_of(index.search("ticket 7Q93KX", session=NASTY, kinds=["episode"], k=50)) == ["ep"]
    assert uids_of(index.search("ticket 7Q93KX", session=NASTY, since=150.0, k=50)) == ["ep"]
    assert uids_of(index.search("ticket 7Q93KX", session=NASTY, until=200.0, k=50)) == ["other"]
    assert index.search("ticket", kinds=[], k=50) == []
    assert {h.session for h in index.search("ticket", session="s1", k=50)} == {"s1"}


@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
@pytest.mark.parametrize(
    "query",
    [
        '"*:(){}[]^~AND OR NOT',
        "ticket\x007Q93KX",
        'title:ticket AND (7Q93KX OR "closed")~2^3 -fix +*',
        "7Q93KX " * 200_000,  # ~1.4 MB
        "'; DROP TABLE docs; --",
    ],
)
def test_hostile_queries_never_crash(index: SearchIndex, query: str, mode: str) -> None:
    hits = index.search(query, mode=mode, k=5)  # type: ignore[arg-type]
    assert len(hits) <= 5
    assert all(h.uid in CORPUS for h in hits)


def test_rare_identifier_survives_nul_and_operators(index: SearchIndex) -> None:
    assert uids_of(index.search('"7Q93KX\x00"^~', mode="text")) == ["rare"]


@pytest.mark.parametrize(
    ("k", "mode", "kinds"),
    [(0, "hybrid", None), (1001, "hybrid", None), (5, "fuzzy", None), (5, "hybrid", ["note"])],
)
def test_bad_search_arguments_are_invalid(
    index: SearchIndex, k: int, mode: str, kinds: list[str] | None
) -> None:
    with pytest.raises(InvalidArgument):
        index.search("ticket", k=k, mode=mode, kinds=kinds)  # type: ignore[arg-type]


def test_delete_session_scope_and_uids(index: SearchIndex) -> None:
    index.add(
        [
            index_doc("s2a", "ticket 7Q93KX second session", session="s2"),
            index_doc("b1", "ticket in scope b", scope="b"),
        ]
    )
    index.delete_session("s2")
    assert "s2a" not in uids_of(index.search("ticket 7Q93KX", k=50))
    assert index.count() == len(CORPUS) + 1
    index.delete_uids(["rare", "t1", "unknown"])
    assert index.count() == len(CORPUS) - 1
    assert uids_of(index.search("7Q93KX", mode="text", k=50)) == []
    index.delete_scope("a")
    assert index.count() == 1
    assert uids_of(index.search("ticket", k=50)) == ["b1"]


def test_identical_searches_give_identical_order_and_ties_go_by_uid(index: SearchIndex) -> None:
    index.add([index_doc(f"twin{n}", "identical twin sentence about walruses") for n in (3, 1, 2)])
    first = index.search("walruses", k=3)
    assert uids_of(first) == ["twin1", "twin2", "twin3"]
    for mode in ("hybrid", "vector", "text"):
        runs = [index.search("ticket closed 7Q93KX", mode=mode, k=8) for _ in range(3)]  # type: ignore[arg-type]
        assert runs[0] == runs[1] == runs[2]


def test_optimize_keeps_every_row_searchable(index: SearchIndex) -> None:
    for n in range(5):
        index.add([index_doc(f"batch{n}", f"batch number {n} about heron{n}")])
    before = index.search("ticket 7Q93KX", k=5)
    index.optimize()
    assert index.count() == len(CORPUS) + 5
    assert index.search("ticket 7Q93KX", k=5) == before
    assert uids_of(index.search("heron4", mode="text")) == ["batch4"]


def _text_scores(index: SearchIndex, query: str) -> list[tuple[str, float]]:
    return [(h.uid, round(h.score, 6)) for h in index.search(query, k=400, mode="text")]


def test_optimized_index_scores_text_like_one_built_from_scratch(
    index: SearchIndex, tmp_path: Path, embedder: LocalEmbedder
) -> None:
    """Replaced and deleted rows leave LanceDB's BM25 statistics until optimize rebuilds them.

    Few enough of them (under a tenth of a fragment) that compaction alone keeps them.
    """
    filler = {f"f{n}": f"Filler note {n}: the ticket queue was quiet." for n in range(300)}
    index.add([index_doc(uid, text) for uid, text in filler.items()])
    index.optimize()
    for n in range(3):  # replace some docs, delete others, add new ones
        index.add([index_doc(f"t{n + 1}", f"Ticket {n} was closed, then reopened, then closed.")])
        index.add([index_doc(f"new{n}", f"A new support ticket number {n} was opened today.")])
    index.delete_uids(["t5", "t6"])
    index.optimize()
    rebuilt = SearchIndex(tmp_path / "rebuilt", embedder)
    rebuilt.open()
    docs = {uid: text for uid, text in {**CORPUS, **filler}.items() if uid not in ("t5", "t6")}
    docs.update(
        {f"t{n + 1}": f"Ticket {n} was closed, then reopened, then closed." for n in range(3)}
    )
    docs.update({f"new{n}": f"A new support ticket number {n} was opened today." for n in range(3)})
    rebuilt.add([index_doc(uid, text) for uid, text in docs.items()])
    rebuilt.optimize()
    for query in ("support ticket closed", "ticket reopened", "closed tickets archived"):
        assert _text_scores(index, query) == _text_scores(rebuilt, query)
    assert len(_text_scores(index, "support ticket closed")) >= 5
