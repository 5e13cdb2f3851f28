"""The LanceDB search index, on real LanceDB in tmp_path with the real local model."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import lancedb
import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pytest
from lancedb.index import Bitmap

from reverie.config import InvalidArgument
from reverie.store import (
    IndexDoc,
    IndexLimits,
    IndexStale,
    LocalEmbedder,
    SearchHit,
    SearchIndex,
    StoreError,
)

NASTY = "o'brien\"; DROP TABLE docs; --"
INJECT = "a' OR '1'='1"

CORPUS = {
    "rare": "Vaszary handled 7Q93KX.",
    "t1": "Support ticket 7Q39KX was closed by the help desk.",
    "t2": "Ticket 7Q93XK was closed yesterday after the fix.",
    "t3": "The support ticket was closed once the bug was fixed.",
    "t4": "Closed tickets are archived after thirty days.",
    "t5": "Ticket 7Q93KZ was reopened by the customer.",
    "t6": "Ticket 7Q94KX is waiting for a reply.",
    "para": "The kitten naps on the couch after lunch.",
    "d1": "Quarterly revenue grew by twelve percent.",
    "d2": "Remember to water the tomato plants every morning.",
    "d3": "The train to Lyon leaves at nine.",
}


def _doc(
    uid: str,
    text: str,
    *,
    scope: str = "a",
    session: str = "s1",
    ts: float = 0.0,
    kind: str = "episode",
) -> IndexDoc:
    return IndexDoc(
        uid=uid,
        kind=kind,
        text=text,
        scope=scope,
        session=session,
        ts=ts,
        message_ids=[uid],
        source="messages",
    )  # type: ignore[arg-type]


@pytest.fixture
def index(tmp_path: Path, embedder: LocalEmbedder) -> SearchIndex:
    idx = SearchIndex(tmp_path / "index", embedder)
    idx.open()
    idx.add([_doc(uid, text, ts=float(n)) for n, (uid, text) in enumerate(CORPUS.items())])
    return idx


def _uids(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


class FakeEmbedder:
    """Another vector space (8 dims): stands in for a changed embedding configuration."""

    model_id = "fake-8"
    dimension = 8

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        rows = np.ones((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            rows[i, len(text) % self.dimension] += 1.0
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_added_docs_are_found_with_their_fields(index: SearchIndex) -> None:
    assert index.count() == len(CORPUS)
    (hit, *_) = index.search("watering tomatoes in the morning", k=3)
    assert hit.uid == "d2"
    assert (hit.kind, hit.text, hit.scope, hit.session) == ("episode", CORPUS["d2"], "a", "s1")
    assert (hit.ts, hit.message_ids, hit.source) == (9.0, ["d2"], "messages")


def test_hybrid_finds_paraphrase_that_text_mode_misses(index: SearchIndex) -> None:
    query = "a young cat sleeping on the sofa"
    assert "para" not in _uids(index.search(query, mode="text", k=3))
    assert _uids(index.search(query, mode="vector", k=1)) == ["para"]
    assert "para" in _uids(index.search(query, mode="hybrid", k=3))


def test_hybrid_finds_rare_identifier_that_vector_mode_misses(index: SearchIndex) -> None:
    query = "ticket 7Q93KX"
    assert "rare" not in _uids(index.search(query, mode="vector", k=3))
    assert _uids(index.search(query, mode="text", k=3))[0] == "rare"
    assert "rare" in _uids(index.search(query, mode="hybrid", k=3))


def test_adding_a_known_uid_replaces_the_doc(index: SearchIndex) -> None:
    index.add(
        [_doc("d3", "The ferry to Zanzibar leaves at noon."), _doc("new", "brand new zebra row")]
    )
    assert index.count() == len(CORPUS) + 1
    assert _uids(index.search("Lyon", mode="text")) == []
    assert _uids(index.search("Zanzibar", mode="text")) == ["d3"]


def test_last_doc_wins_within_one_add(index: SearchIndex) -> None:
    index.add([_doc("dup", "first version pelican"), _doc("dup", "second version flamingo")])
    assert _uids(index.search("pelican", mode="text")) == []
    assert _uids(index.search("flamingo", mode="text")) == ["dup"]


@pytest.mark.parametrize("mode", ["hybrid", "vector", "text"])
def test_scope_filter_isolates_scopes_with_hostile_names(index: SearchIndex, mode: str) -> None:
    index.add(
        [
            _doc("n1", "ticket 7Q93KX belongs to the nasty scope", scope=NASTY),
            _doc("n2", "a kitten on the couch in the nasty scope", scope=NASTY + "x"),
            _doc("n3", "ticket 7Q93KX for the injection scope", scope=INJECT),
        ]
    )
    for query in ("ticket 7Q93KX", "kitten couch"):
        in_nasty = index.search(query, scope=NASTY, mode=mode, k=50)  # type: ignore[arg-type]
        assert {h.scope for h in in_nasty} <= {NASTY}
        in_a = index.search(query, scope="a", mode=mode, k=50)  # type: ignore[arg-type]
        assert {h.scope for h in in_a} == {"a"}
        in_inject = index.search(query, scope=INJECT, mode=mode, k=50)  # type: ignore[arg-type]
        assert {h.scope for h in in_inject} <= {INJECT}
    assert _uids(index.search("ticket 7Q93KX", scope=NASTY, mode=mode, k=50)) == ["n1"]  # type: ignore[arg-type]
    assert _uids(index.search("ticket 7Q93KX", scope=INJECT, mode=mode, k=50)) == ["n3"]  # type: ignore[arg-type]
    assert index.search("kitten", scope="no such scope", mode=mode) == []  # type: ignore[arg-type]


def test_session_kind_and_time_filters(index: SearchIndex) -> None:
    index.add(
        [
            _doc(
                "other", "ticket 7Q93KX in another session", session=NASTY, ts=100.0, kind="message"
            ),
            _doc("ep", "ticket 7Q93KX episode summary", session=NASTY, ts=200.0, kind="episode"),
        ]
    )
    assert set(_uids(index.search("ticket 7Q93KX", session=NASTY, k=50))) == {"other", "ep"}
    assert _uids(index.search("ticket 7Q93KX", session=NASTY, kinds=["episode"], k=50)) == ["ep"]
    assert _uids(index.search("ticket 7Q93KX", session=NASTY, since=150.0, k=50)) == ["ep"]
    assert _uids(index.search("ticket 7Q93KX", session=NASTY, until=200.0, k=50)) == ["other"]
    assert index.search("ticket", kinds=[], k=50) == []
    assert {h.session for h in index.search("ticket", session="s1", k=50)} == {"s1"}


@pytest.mark.parametrize("query", ["", "   \n", "\x00"])
def test_empty_query_is_invalid_argument(index: SearchIndex, query: str) -> None:
    with pytest.raises(InvalidArgument):
        index.search(query)


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


def test_operator_only_query_falls_back_to_vector_ranking(index: SearchIndex) -> None:
    query = '"*:(){}[]^~'
    assert index.search(query, mode="text") == []
    assert _uids(index.search(query, mode="hybrid", k=4)) == _uids(
        index.search(query, mode="vector", k=4)
    )


def test_rare_identifier_survives_nul_and_operators(index: SearchIndex) -> None:
    assert _uids(index.search('"7Q93KX\x00"^~', mode="text")) == ["rare"]


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
            _doc("s2a", "ticket 7Q93KX second session", session="s2"),
            _doc("b1", "ticket in scope b", scope="b"),
        ]
    )
    index.delete_session("s2")
    assert "s2a" not in _uids(index.search("ticket 7Q93KX", k=50))
    assert index.count() == len(CORPUS) + 1
    index.delete_uids(["rare", "t1", "unknown"])
    assert index.count() == len(CORPUS) - 1
    assert _uids(index.search("7Q93KX", mode="text", k=50)) == []
    index.delete_scope("a")
    assert index.count() == 1
    assert _uids(index.search("ticket", k=50)) == ["b1"]


def test_identical_searches_give_identical_order_and_ties_go_by_uid(index: SearchIndex) -> None:
    index.add([_doc(f"twin{n}", "identical twin sentence about walruses") for n in (3, 1, 2)])
    first = index.search("walruses", k=3)
    assert _uids(first) == ["twin1", "twin2", "twin3"]
    for mode in ("hybrid", "vector", "text"):
        runs = [index.search("ticket closed 7Q93KX", mode=mode, k=8) for _ in range(3)]  # type: ignore[arg-type]
        assert runs[0] == runs[1] == runs[2]


def test_optimize_keeps_every_row_searchable(index: SearchIndex) -> None:
    for n in range(5):
        index.add([_doc(f"batch{n}", f"batch number {n} about heron{n}")])
    before = index.search("ticket 7Q93KX", k=5)
    index.optimize()
    assert index.count() == len(CORPUS) + 5
    assert index.search("ticket 7Q93KX", k=5) == before
    assert _uids(index.search("heron4", mode="text")) == ["batch4"]


def _text_scores(index: SearchIndex, query: str) -> list[tuple[str, float]]:
    return [(h.uid, round(h.score, 6)) for h in index.search(query, k=400, mode="text")]


def test_optimized_index_scores_text_like_one_built_from_scratch(
    index: SearchIndex, tmp_path: Path, embedder: LocalEmbedder
) -> None:
    """Replaced and deleted rows leave LanceDB's BM25 statistics until optimize rebuilds them.

    Few enough of them (under a tenth of a fragment) that compaction alone keeps them.
    """
    filler = {f"f{n}": f"Filler note {n}: the ticket queue was quiet." for n in range(300)}
    index.add([_doc(uid, text) for uid, text in filler.items()])
    index.optimize()
    for n in range(3):  # replace some docs, delete others, add new ones
        index.add([_doc(f"t{n + 1}", f"Ticket {n} was closed, then reopened, then closed.")])
        index.add([_doc(f"new{n}", f"A new support ticket number {n} was opened today.")])
    index.delete_uids(["t5", "t6"])
    index.optimize()
    rebuilt = SearchIndex(tmp_path / "rebuilt", embedder)
    rebuilt.open()
    docs = {uid: text for uid, text in {**CORPUS, **filler}.items() if uid not in ("t5", "t6")}
    docs.update(
        {f"t{n + 1}": f"Ticket {n} was closed, then reopened, then closed." for n in range(3)}
    )
    docs.update({f"new{n}": f"A new support ticket number {n} was opened today." for n in range(3)})
    rebuilt.add([_doc(uid, text) for uid, text in docs.items()])
    rebuilt.optimize()
    for query in ("support ticket closed", "ticket reopened", "closed tickets archived"):
        assert _text_scores(index, query) == _text_scores(rebuilt, query)
    assert len(_text_scores(index, "support ticket closed")) >= 5


def test_reopening_with_the_same_embedder_keeps_rows(
    index: SearchIndex, embedder: LocalEmbedder
) -> None:
    again = SearchIndex(index.path, embedder)
    again.open()
    assert not again.stale
    assert again.count() == len(CORPUS)


def test_changed_embedder_marks_stale_and_reset_recreates(index: SearchIndex) -> None:
    other = SearchIndex(index.path, FakeEmbedder())
    other.open()
    assert other.stale
    with pytest.raises(IndexStale):
        other.add([_doc("x", "anything")])
    with pytest.raises(IndexStale):
        other.search("anything")
    other.reset()
    assert not other.stale
    assert other.count() == 0
    other.add([_doc("x", "anything at all"), _doc("y", "something else")])
    assert set(_uids(other.search("anything", mode="vector", k=5))) == {"x", "y"}
    reopened = SearchIndex(index.path, FakeEmbedder())
    reopened.open()
    assert not reopened.stale
    assert reopened.count() == 2


def _vector_type(path: Path) -> pa.DataType:
    return lancedb.connect(str(path)).open_table("docs").schema.field("vector").type.value_type


def test_vectors_are_stored_as_half_floats_and_rank_as_single_floats_would(
    index: SearchIndex, embedder: LocalEmbedder
) -> None:
    """Half floats halve what each optimize rewrites; the order of hits must not change."""
    assert _vector_type(index.path) == pa.float16()
    query = "a customer asked about a closed support ticket"
    docs = embedder.embed(list(CORPUS.values()))
    cosine = docs @ embedder.embed([query])[0]
    exact = [uid for _, uid in sorted(zip(-cosine, CORPUS, strict=True))]
    assert _uids(index.search(query, mode="vector", k=len(CORPUS))) == exact


def test_a_table_of_single_float_vectors_from_an_older_release_keeps_working(
    index: SearchIndex, embedder: LocalEmbedder, tmp_path: Path
) -> None:
    schema = lancedb.connect(str(index.path)).open_table("docs").schema
    field = schema.get_field_index("vector")
    old = schema.set(field, pa.field("vector", pa.list_(pa.float32(), embedder.dimension)))
    lancedb.connect(str(tmp_path / "old")).create_table("docs", schema=old)
    reopened = SearchIndex(tmp_path / "old", embedder)
    reopened.open()
    assert not reopened.stale
    reopened.add([_doc(uid, text) for uid, text in CORPUS.items()])
    reopened.optimize()
    assert _vector_type(reopened.path) == pa.float32()
    assert _uids(reopened.search("watering tomatoes in the morning", mode="vector", k=1)) == ["d2"]


def _io_threads_after_open(tmp_path: Path, preset: str | None) -> str:
    """``LANCE_IO_THREADS`` in a fresh process once an index has opened there."""
    env = {k: v for k, v in os.environ.items() if k != "LANCE_IO_THREADS"}
    if preset is not None:
        env["LANCE_IO_THREADS"] = preset
    code = (
        "import os, sys; from reverie.store import IndexLimits;"
        " import lancedb; lancedb.connect(sys.argv[1], session=IndexLimits().session);"
        " print(os.environ['LANCE_IO_THREADS'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "db")],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_lance_reads_in_flight_follow_the_cores_unless_the_operator_set_them(
    tmp_path: Path,
) -> None:
    cores = os.cpu_count() or 2
    assert _io_threads_after_open(tmp_path, None) == str(min(8, max(2, cores)))
    assert _io_threads_after_open(tmp_path, "5") == "5"


def test_use_before_open_is_store_error(tmp_path: Path, embedder: LocalEmbedder) -> None:
    with pytest.raises(StoreError, match="before open"):
        SearchIndex(tmp_path / "index", embedder).search("x")


def test_lancedb_and_os_failures_become_store_error(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the index directory should be")
    with pytest.raises(StoreError, match="open failed"):
        SearchIndex(blocker, embedder).open()


def test_open_recreates_missing_indexes(index: SearchIndex, embedder: LocalEmbedder) -> None:
    table = lancedb.connect(str(index.path)).open_table("docs")
    for ix in table.list_indices():
        table.drop_index(ix.name)
    reopened = SearchIndex(index.path, embedder)
    reopened.open()
    table.checkout_latest()
    assert {tuple(ix.columns) for ix in table.list_indices()} == {
        ("scope",),
        ("session",),
        ("kind",),
        ("text",),
    }
    assert _uids(reopened.search("7Q93KX", mode="text")) == ["rare"]


def test_open_replaces_bitmap_session_and_scope_indexes_by_btrees(
    index: SearchIndex, embedder: LocalEmbedder
) -> None:
    """Older releases indexed ``session`` and ``scope`` by bitmaps, whose optimize cost
    grows with the sessions and scopes seen."""
    table = lancedb.connect(str(index.path)).open_table("docs")
    for column in ("session", "scope"):
        (old,) = [ix for ix in table.list_indices() if ix.columns == [column]]
        table.drop_index(old.name)
        table.create_index(column, config=Bitmap())
    reopened = SearchIndex(index.path, embedder)
    reopened.open()
    table.checkout_latest()
    types = {ix.columns[0]: ix.index_type for ix in table.list_indices()}
    assert types == {"scope": "BTree", "session": "BTree", "kind": "Bitmap", "text": "FTS"}
    assert _uids(reopened.search("7Q93KX", mode="text", session="s1")) == ["rare"]
    assert _uids(reopened.search("7Q93KX", mode="text", scope="a")) == ["rare"]


def test_an_idle_index_closes_its_table_and_caches_and_opens_again_when_used(
    index: SearchIndex,
) -> None:
    before = _uids(index.search("ticket 7Q93KX", k=5))
    assert index.limits.cached_bytes() > 0
    assert not index.release_idle(3600)  # used a moment ago: kept open
    assert index.release_idle(0)
    assert (index.open_now, index.limits.cached_bytes(), index.opens) == (False, 0, 1)
    assert not index.release_idle(0)  # nothing left to close
    assert _uids(index.search("ticket 7Q93KX", k=5)) == before  # opened again, same answer
    assert (index.open_now, index.opens) == (True, 2)
    assert index.release_idle(0)
    index.add([_doc("late", "A note written after the index was closed.")])  # a write opens it
    assert index.count() == len(CORPUS) + 1
    assert index.release_idle(0)
    index.reset()  # so does a reset
    assert index.count() == 0 and index.opens == 4


def test_searches_running_while_optimize_folds_versions_never_fail(tmp_path: Path) -> None:
    """Optimize used to delete a replaced version's files at once, under a running search."""
    index = SearchIndex(tmp_path / "raced", FakeEmbedder())  # type: ignore[arg-type]
    index.open()
    index.add([_doc(f"u{i}", f"ticket {i} about lisbon") for i in range(2000)])
    stop, errors = threading.Event(), []

    def search() -> None:
        while not stop.is_set():
            try:
                index.search("ticket lisbon", k=10)
            except StoreError as exc:
                errors.append(exc)
                stop.set()

    searchers = [threading.Thread(target=search) for _ in range(3)]
    for t in searchers:
        t.start()
    try:
        for n in range(25):  # replace a fiftieth of the rows, then fold: a new version each time
            index.add([_doc(f"u{i}", f"ticket {i} rev {n}") for i in range(n % 50, 2000, 50)])
            index.optimize()
            if stop.is_set():
                break
    finally:
        stop.set()
        for t in searchers:
            t.join()
    assert errors == []


def test_optimize_folds_fragments_and_drops_versions_older_than_keep_versions(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    index = SearchIndex(tmp_path / "index", embedder, IndexLimits(timedelta(microseconds=1)))
    index.open()
    for n in range(6):  # one fragment and one version per write
        index.add([_doc(f"d{n}", f"note number {n}")], new=True)
    before = index.layout()
    index.optimize()
    after = index.layout()
    assert before.fragments == 6
    assert after.fragments == 1
    assert after.versions < before.versions


def _cached_after_optimizes(path: Path, limits: IndexLimits) -> int:
    """Bytes LanceDB caches after rounds of add, optimize and searches of every session."""
    idx = SearchIndex(path, FakeEmbedder(), limits)
    idx.open()
    for n in range(12):
        docs = [
            _doc(f"r{n}-{i}", f"round {n} note {i} herons", session=f"s{i % 7}") for i in range(64)
        ]
        idx.add(docs)
        idx.optimize()
        for i in range(7):
            assert idx.search(f"herons round {n}", session=f"s{i}", k=3)
    return limits.cached_bytes()


def test_index_limits_bound_what_lancedb_keeps_of_optimized_indexes(tmp_path: Path) -> None:
    """Each optimize writes new index files whose pages searches cache: the bound caps them.

    The same rounds under an index-cache bound no index reaches and under
    256 KiB, the metadata cache as large in both: what the small bound saves
    is index pages, more than the bound itself.
    """
    small = 256 << 10
    wide = IndexLimits(cache_bytes=1 << 30, metadata_cache_bytes=1 << 30)
    unbounded = _cached_after_optimizes(tmp_path / "unbounded", wide)
    narrow = IndexLimits(cache_bytes=small, metadata_cache_bytes=1 << 30)
    bounded = _cached_after_optimizes(tmp_path / "bounded", narrow)
    assert unbounded - bounded > small, (unbounded, bounded)
