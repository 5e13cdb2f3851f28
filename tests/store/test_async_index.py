"""The search index's async facade, on real LanceDB in tmp_path (a small fake vector space)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import trio
import trio.testing

from reverie.store import IndexDoc, PrimedEmbedder, SearchQuery
from reverie.store.files.index import AsyncSearchIndex

from .index_corpus import FakeEmbedder


@pytest.fixture
def primed() -> Iterator[PrimedEmbedder]:
    embedder = PrimedEmbedder(FakeEmbedder(), workers=1)  # type: ignore[arg-type]
    yield embedder
    embedder.close()


@pytest.fixture
async def index(tmp_path: Path, primed: PrimedEmbedder) -> AsyncSearchIndex:
    opened = AsyncSearchIndex(tmp_path / "index", primed)
    await opened.open()
    return opened


def _doc(uid: str, *, scope: str, session: str, kind: str = "message") -> IndexDoc:
    return IndexDoc(uid=uid, kind=kind, text=f"text of {uid}", scope=scope, session=session)  # type: ignore[arg-type]


async def _uids(index: AsyncSearchIndex) -> list[str]:
    hits = await index.search(SearchQuery(query="text", mode="vector", k=50))
    return sorted(h.uid for h in hits)


@pytest.mark.trio
async def test_open_says_whether_the_directory_existed(
    tmp_path: Path, primed: PrimedEmbedder
) -> None:
    assert await AsyncSearchIndex(tmp_path / "index", primed).open() is False
    assert await AsyncSearchIndex(tmp_path / "index", primed).open() is True


@pytest.mark.trio
async def test_a_copy_serves_the_same_rows_from_its_own_directory(
    tmp_path: Path, index: AsyncSearchIndex
) -> None:
    await index.add([_doc("m1", scope="a", session="s1"), _doc("m2", scope="a", session="s2")], 8)
    await index.forget_session("s2", "a")
    copy = await index.copy_to(tmp_path / "index-copy")
    assert copy.path == tmp_path / "index-copy"
    assert await _uids(copy) == ["m1"]
    await copy.remove_dir(index.path)
    assert not index.path.exists()


@pytest.mark.trio
async def test_a_directory_is_unused_only_once_the_last_search_reading_it_ends(
    tmp_path: Path, primed: PrimedEmbedder
) -> None:
    index = AsyncSearchIndex(tmp_path / "index", primed)
    sibling = index.sibling(tmp_path / "index-2")  # one family: it sees index's readers
    released = False

    async def wait_unused() -> None:
        await sibling.unused(index.path)
        assert released

    async with trio.open_nursery() as nursery:
        with index.reading():
            nursery.start_soon(wait_unused)
            await trio.testing.wait_all_tasks_blocked()
            released = True
