"""Generations: messages sealed into tables of bounded size, on real LanceDB with the real model."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import lancedb
import pytest

from reverie.store import IndexDoc, LocalEmbedder, SearchHit
from reverie.store.files.index_lifecycle import IndexLimits, SearchIndex
from reverie.store.files.index_tables import Keys, merge_run

TEXTS = [
    "The train to Lyon leaves at nine.",
    "Remember to water the tomato plants every morning.",
    "Quarterly revenue grew by twelve percent.",
    "The kitten naps on the couch after lunch.",
    "Support ticket 7Q39KX was closed by the help desk.",
    "We hiked up to the lake and swam before dinner.",
    "My sister adopted a rescue greyhound last week.",
    "The bakery on the corner sells sourdough on Fridays.",
]


def _message(n: int, session: str) -> IndexDoc:
    return IndexDoc(
        uid=f"{session}:{n}",
        kind="message",
        text=f"{TEXTS[n % len(TEXTS)]} ({session} {n})",
        scope=f"session/{session}",
        session=session,
        ts=float(n),
        message_ids=[str(n)],
        source="messages",
    )  # type: ignore[arg-type]


def _episode(uid: str, text: str, session: str) -> IndexDoc:
    return IndexDoc(
        uid=uid,
        kind="episode",
        text=text,
        scope=f"session/{session}",
        session=session,
        ts=0.0,
        message_ids=["0"],
        source="HISTORY.md",
    )  # type: ignore[arg-type]


def _tables(path: Path) -> list[str]:
    return sorted(lancedb.connect(str(path)).list_tables().tables)


def _uids(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


def _fill(index: SearchIndex, session: str, count: int, start: int = 0) -> None:
    """``count`` messages of ``session`` in writes of 4, each followed by an optimize."""
    for at in range(start, start + count, 4):
        index.add([_message(n, session) for n in range(at, min(at + 4, start + count))], new=True)
        index.optimize()


@pytest.fixture
def small(tmp_path: Path, embedder: LocalEmbedder) -> SearchIndex:
    index = SearchIndex(tmp_path / "gens", embedder, IndexLimits(generation_rows=8))
    index.open()
    return index


def test_a_full_generation_is_sealed_and_searches_merge_every_table(
    small: SearchIndex, tmp_path: Path, embedder: LocalEmbedder
) -> None:
    _fill(small, "a", 20)
    _fill(small, "b", 4)
    assert _tables(small.path) == ["docs", "docs_1", "docs_2"]
    assert small.count() == 24

    one = SearchIndex(tmp_path / "one", embedder, IndexLimits(generation_rows=10**6))
    one.open()
    _fill(one, "a", 20)
    _fill(one, "b", 4)
    assert _tables(one.path) == ["docs"]
    for session in ("a", "b", None):
        for query in ("a dog from a shelter", "when does the train leave"):
            got = small.search(query, session=session, k=24, mode="vector")
            want = one.search(query, session=session, k=24, mode="vector")
            assert _uids(got) == _uids(want)
            assert [round(h.score, 4) for h in got] == [round(h.score, 4) for h in want]


def test_an_optimize_leaves_sealed_generations_alone(small: SearchIndex) -> None:
    _fill(small, "a", 16)
    _fill(small, "a", 4, start=16)  # the one after sealing docs_1 drops its old versions
    home = lancedb.connect(str(small.path)).open_table("docs")
    sealed = home.version
    _fill(small, "a", 8, start=20)
    assert lancedb.connect(str(small.path)).open_table("docs").version == sealed
    assert small.count() == 28


def test_a_search_skips_the_generations_without_its_session(small: SearchIndex) -> None:
    _fill(small, "old", 8)  # fills and seals the home table
    _fill(small, "new", 4)
    assert _tables(small.path) == ["docs", "docs_1"]
    tables = small._ready()  # the store's own view: which tables a search reads
    assert len(tables.reading(session="new")) == 1
    assert len(tables.reading(session="old")) == 1
    assert len(tables.reading(session="nobody")) == 0
    assert len(tables.reading()) == 2
    hits = small.search("kitten on the couch", session="new", k=5, mode="vector")
    assert hits and {h.session for h in hits} == {"new"}
    assert small.search("kitten", session="nobody", k=5, mode="vector") == []


def test_deletes_reach_sealed_generations(small: SearchIndex) -> None:
    _fill(small, "a", 12)
    _fill(small, "b", 4)
    small.delete_session("a")
    small.optimize()
    assert small.count() == 4
    assert small.search("train to Lyon", session="a", k=10, mode="vector") == []
    small.delete_scope("session/b")
    assert small.count() == 0
    assert small.copy_to(small.path.parent / "copy").count() == 0  # tables emptied, rewritten


def test_a_batch_written_again_after_its_generation_was_sealed_is_not_duplicated(
    small: SearchIndex,
) -> None:
    batch = [_message(n, "a") for n in range(8)]
    small.add(batch, new=True)
    small.optimize()  # the home table is full: the next write of messages seals it
    small.add(batch)  # a retry upserts: the batch leaves the table just sealed
    small.optimize()
    assert small.count() == 8
    hits = small.search("train to Lyon", session="a", k=10, mode="vector")
    assert sorted(_uids(hits)) == sorted(d.uid for d in batch)


def test_episodes_stay_in_the_home_table_and_are_found_by_words(small: SearchIndex) -> None:
    _fill(small, "a", 8)
    small.add([_episode("ep1", "Vaszary planned the Lyon trip.", "a")])
    _fill(small, "a", 8, start=8)
    assert _tables(small.path) == ["docs", "docs_1"]
    assert _uids(small.search("Vaszary", k=3, mode="text")) == ["ep1"]
    assert _uids(small.search("Vaszary", kinds=["episode"], k=3, mode="hybrid")) == ["ep1"]
    small.delete_episodes("session/a")
    assert small.search("Vaszary", kinds=["episode"], k=3) == []


def test_reopened_generations_are_searched_and_copied_whole(
    small: SearchIndex, tmp_path: Path, embedder: LocalEmbedder
) -> None:
    _fill(small, "a", 12)
    _fill(small, "b", 8)
    want = _uids(small.search("greyhound", session="a", k=5, mode="vector"))
    reopened = SearchIndex(small.path, embedder, IndexLimits(generation_rows=8))
    reopened.open()
    assert _uids(reopened.search("greyhound", session="a", k=5, mode="vector")) == want
    copy = reopened.copy_to(tmp_path / "copy")
    assert copy.count() == 20
    assert _uids(copy.search("greyhound", session="a", k=5, mode="vector")) == want
    assert len(_tables(copy.path)) >= 2


def test_a_generation_left_without_its_home_table_is_dropped(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    index = SearchIndex(tmp_path / "gens", embedder, IndexLimits(generation_rows=8))
    index.open()
    _fill(index, "a", 12)
    lancedb.connect(str(index.path)).drop_table("docs")
    again = SearchIndex(index.path, embedder, IndexLimits(generation_rows=8))
    again.open()
    assert _tables(again.path) == ["docs"]
    assert again.count() == 0
    assert not list(again.path.glob("*.keys.npz"))  # the dropped tables' saved keys


def _files(root: Path, table: str) -> dict[Path, os.stat_result]:
    folder = root / f"{table}.lance"
    return {p.relative_to(folder): p.stat() for p in folder.rglob("*") if p.is_file()}


def test_a_copy_rewrites_only_the_generations_rows_were_deleted_from(
    small: SearchIndex, tmp_path: Path
) -> None:
    _fill(small, "a", 8)  # the home table, sealed
    _fill(small, "b", 4)
    _fill(small, "x", 4)  # with b's, docs_1, sealed
    _fill(small, "c", 4)  # docs_2, open
    small.delete_session("b")
    copy = small.copy_to(tmp_path / "copy")
    assert copy.count() == 16
    # The sealed tables' keys: docs's copied, docs_1's read from its new rows, without b.
    assert sorted(p.name for p in copy.path.glob("*.keys.npz")) == [
        "docs.keys.npz",
        "docs_1.keys.npz",
    ]
    keys = Keys.load(copy.path / "docs_1.keys.npz")
    assert keys is not None and keys.may_hold(session="x") and not keys.may_hold(session="b")
    assert _uids(copy.search("greyhound", session="b", k=5, mode="vector")) == []
    for table, shared in (("docs", True), ("docs_1", False), ("docs_2", True)):
        before, after = _files(small.path, table), _files(copy.path, table)
        data = [f for f in after if f.parts[0] == "data"]
        assert data
        linked = [f for f in data if f in before and after[f].st_ino == before[f].st_ino]
        assert bool(linked) == shared, table
    # No byte of the deleted session in the copy: its uids are gone from every file.
    for file in copy.path.rglob("*"):
        assert not file.is_file() or b"b:3" not in file.read_bytes(), file
    # The copy's own next copy links every table: nothing was deleted from it since.
    again = copy.copy_to(tmp_path / "again")
    assert again.count() == 16
    for table in ("docs", "docs_1", "docs_2"):
        first, second = _files(copy.path, table), _files(again.path, table)
        assert any(f.parts[0] == "data" and second[f].st_ino == first[f].st_ino for f in second)


def test_the_first_copy_after_opening_rewrites_every_table(
    small: SearchIndex, tmp_path: Path, embedder: LocalEmbedder
) -> None:
    _fill(small, "a", 12)
    reopened = SearchIndex(small.path, embedder, IndexLimits(generation_rows=8))
    reopened.open()  # a crash may have come between a delete and its copy
    copy = reopened.copy_to(tmp_path / "copy")
    assert copy.count() == 12
    for table in ("docs", "docs_1"):
        before, after = _files(small.path, table), _files(copy.path, table)
        data = [f for f in after if f.parts[0] == "data"]
        assert data
        assert not [f for f in data if f in before and after[f].st_ino == before[f].st_ino]


def test_a_sealed_tables_keys_are_saved_and_opening_reads_them_not_its_rows(
    small: SearchIndex, embedder: LocalEmbedder
) -> None:
    _fill(small, "a", 8)  # the home table, sealed by the next write
    _fill(small, "b", 8)  # docs_1, sealed by the next write
    _fill(small, "c", 4)  # docs_2, open
    saved = sorted(p.name for p in small.path.glob("*.keys.npz"))
    assert saved == ["docs.keys.npz", "docs_1.keys.npz"]
    # docs_1's saved keys swapped for the home table's: a reopened index believes
    # them (it does not read docs_1's rows), so a search for b skips docs_1.
    (small.path / "docs_1.keys.npz").write_bytes((small.path / "docs.keys.npz").read_bytes())
    fooled = SearchIndex(small.path, embedder, IndexLimits(generation_rows=8))
    fooled.open()
    assert fooled.search("greyhound", session="b", k=5, mode="vector") == []
    assert fooled.search("greyhound", session="c", k=5, mode="vector")  # the open one: read
    # Keys that do not read back are read from the table's rows instead.
    (small.path / "docs_1.keys.npz").write_bytes(b"not a keys file")
    again = SearchIndex(small.path, embedder, IndexLimits(generation_rows=8))
    again.open()
    hits = again.search("greyhound", session="b", k=5, mode="vector")
    assert hits and {h.session for h in hits} == {"b"}


def test_saved_keys_read_the_same_in_another_process(small: SearchIndex) -> None:
    """Python salts ``hash`` of a str per process; saved keys must not depend on it."""
    _fill(small, "a", 12)
    probe = (
        "import sys; from pathlib import Path; from reverie.store.files.index_tables import Keys; "
        "keys = Keys.load(Path(sys.argv[1])); "
        "print(keys.may_hold(session='a'), keys.may_hold(session='zz'))"
    )
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", probe, str(small.path / "docs.keys.npz")],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
        )
        assert out.stdout.split() == ["True", "False"]


def test_an_episode_written_to_the_sealed_home_table_is_found_after_reopening(
    small: SearchIndex, embedder: LocalEmbedder
) -> None:
    _fill(small, "a", 12)  # the home table sealed, its keys saved
    small.add([_episode("ep-zed", "Zed booked the ferry to Zanzibar.", "zed")])
    small.optimize()
    reopened = SearchIndex(small.path, embedder, IndexLimits(generation_rows=8))
    reopened.open()
    for filters in ({"session": "zed"}, {"scope": "session/zed"}):
        hits = reopened.search("ferry to Zanzibar", kinds=["episode"], k=3, **filters)
        assert _uids(hits) == ["ep-zed"], filters


def test_the_oldest_four_sealed_tables_of_the_lowest_tier_are_due_to_merge() -> None:
    g = 1024
    assert merge_run([("a", g + 9), ("b", g), ("c", g + 200), ("d", g), ("e", g)], g, 16 * g) == [
        "a",
        "b",
        "c",
        "d",
    ]
    assert merge_run([("a", 4 * g), ("b", g), ("c", g), ("d", g)], g, 16 * g) == []
    tier_one = [("a", 4 * g + 9), ("b", 4 * g), ("c", 3 * g), ("d", 4 * g), ("e", g)]
    assert merge_run(tier_one, g, 16 * g) == ["a", "b", "c", "d"]  # c, thinned, is of them
    assert merge_run(tier_one, g, 4 * g) == []  # they would pass merged_rows
    assert merge_run([("a", 16 * g)] * 4, g, 16 * g) == []
    assert merge_run([("a", g), ("b", g), ("c", g), ("d", g)], g, 0) == []
    assert merge_run([("a", 0), ("b", 7), ("c", g), ("d", g)], g, 4 * g) == ["a", "b", "c", "d"]


def test_merged_generations_rank_as_before_and_the_other_tables_are_linked(
    tmp_path: Path, embedder: LocalEmbedder
) -> None:
    index = SearchIndex(tmp_path / "gens", embedder, IndexLimits(generation_rows=8, merged_rows=32))
    index.open()
    for session in ("a", "b", "c", "d", "e", "f"):
        _fill(index, session, 8)  # docs, then docs_1 to docs_5, each sealed by the next write
    _fill(index, "g", 4)  # docs_6, open
    index.delete_session("a")  # from the home table, which a purge would then rewrite
    assert index.merge_plan() == ["docs_1", "docs_2", "docs_3", "docs_4"]
    merged = index.copy_to(tmp_path / "merged", merge=index.merge_plan())
    assert _tables(merged.path) == ["docs", "docs_4", "docs_5", "docs_6"]
    assert merged.count() == index.count() == 44
    assert merged.merge_plan() == []  # the merged table is as large as merged_rows lets it be
    for session in ("b", "c", "e", "g", None):
        for query in ("a dog from a shelter", "when does the train leave"):
            got = merged.search(query, session=session, k=20, mode="vector")
            want = index.search(query, session=session, k=20, mode="vector")
            assert _uids(got) == _uids(want)
            assert [round(h.score, 4) for h in got] == [round(h.score, 4) for h in want]
    for table, shared in (("docs", True), ("docs_4", False), ("docs_5", True), ("docs_6", True)):
        before, after = _files(index.path, table), _files(merged.path, table)
        linked = [f for f in after if f in before and after[f].st_ino == before[f].st_ino]
        assert bool([f for f in linked if f.parts[0] == "data"]) == shared, table
    # What the home table still holds of the deleted session goes at the next purge.
    purged = merged.copy_to(tmp_path / "purged")
    home_before, home_after = _files(merged.path, "docs"), _files(purged.path, "docs")
    assert not [f for f in home_after if f in home_before and f.parts[0] == "data"]
    assert not any(b"a:3" in f.read_bytes() for f in purged.path.rglob("*") if f.is_file())


def test_a_batch_written_again_on_a_copy_of_the_index_is_not_duplicated(
    small: SearchIndex, tmp_path: Path
) -> None:
    batch = [_message(n, "a") for n in range(8)]
    small.add(batch, new=True)  # fills the home table
    copy = small.copy_to(tmp_path / "copy")  # a forget's purge, between the write and its retry
    copy.add(batch)  # the retry seals the home table there and must take the batch out of it
    assert copy.count() == 8
    hits = copy.search("train to Lyon", session="a", k=10, mode="vector")
    assert sorted(_uids(hits)) == sorted(d.uid for d in batch)
