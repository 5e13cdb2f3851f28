"""The LanceDB search index on disk: opening, reopening, a changed embedder, stored
vector types, failures as StoreError, idle closing and what optimize keeps; on real
LanceDB in tmp_path with the real local model. Searches are ``test_index``'s.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path

import lancedb
import pyarrow as pa
import pytest
from lancedb.index import Bitmap

from reverie.store import IndexStale, LocalEmbedder, StoreError
from reverie.store.files.index_lifecycle import IndexLimits, SearchIndex
from tests.store.index_corpus import (
    CORPUS,
    FakeEmbedder,
    corpus_index,  # noqa: F401  (the ``index`` fixture)
    index_doc,
    uids_of,
)


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
        other.add([index_doc("x", "anything")])
    with pytest.raises(IndexStale):
        other.search("anything")
    other.reset()
    assert not other.stale
    assert other.count() == 0
    other.add([index_doc("x", "anything at all"), index_doc("y", "something else")])
    assert set(uids_of(other.search("anything", mode="vector", k=5))) == {"x", "y"}
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
    assert uids_of(index.search(query, mode="vector", k=len(CORPUS))) == exact


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
    reopened.add([index_doc(uid, text) for uid, text in CORPUS.items()])
    reopened.optimize()
    assert _vector_type(reopened.path) == pa.float32()
    assert uids_of(reopened.search("watering tomatoes in the morning", mode="vector", k=1)) == [
        "d2"
    ]


def _io_threads_after_open(tmp_path: Path, preset: str | None) -> str:
    """``LANCE_IO_THREADS`` in a fresh process once an index has opened there."""
    env = {k: v for k, v in os.environ.items() if k != "LANCE_IO_THREADS"}
    if preset is not None:
        env["LANCE_IO_THREADS"] = preset
    code = (
        "import os, sys; from reverie.store.files.index_lifecycle import IndexLimits;"
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
    assert uids_of(reopened.search("7Q93KX", mode="text")) == ["rare"]


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
    assert uids_of(reopened.search("7Q93KX", mode="text", session="s1")) == ["rare"]
    assert uids_of(reopened.search("7Q93KX", mode="text", scope="a")) == ["rare"]


def test_an_idle_index_closes_its_table_and_caches_and_opens_again_when_used(
    index: SearchIndex,
) -> None:
    before = uids_of(index.search("ticket 7Q93KX", k=5))
    assert index.limits.cached_bytes() > 0
    assert not index.release_idle(3600)  # used a moment ago: kept open
    assert index.release_idle(0)
    assert (index.open_now, index.limits.cached_bytes(), index.opens) == (False, 0, 1)
    assert not index.release_idle(0)  # nothing left to close
    assert uids_of(index.search("ticket 7Q93KX", k=5)) == before  # opened again, same answer
    assert (index.open_now, index.opens) == (True, 2)
    assert index.release_idle(0)
    index.add([index_doc("late", "A note written after the index was closed.")])  # a write opens it
    assert index.count() == len(CORPUS) + 1
    assert index.release_idle(0)
    index.reset()  # so does a reset
    assert index.count() == 0 and index.opens == 4


def test_searches_running_while_optimize_folds_versions_never_fail(tmp_path: Path) -> None:
    """Optimize used to delete a replaced version's files at once, under a running search."""
    index = SearchIndex(tmp_path / "raced", FakeEmbedder())  # type: ignore[arg-type]
    index.open()
    index.add([index_doc(f"u{i}", f"ticket {i} about lisbon") for i in range(2000)])
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
            index.add([index_doc(f"u{i}", f"ticket {i} rev {n}") for i in range(n % 50, 2000, 50)])
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
        index.add([index_doc(f"d{n}", f"note number {n}")], new=True)
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
            index_doc(f"r{n}-{i}", f"round {n} note {i} herons", session=f"s{i % 7}")
            for i in range(64)
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
