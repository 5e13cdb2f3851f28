"""A forget whose Markdown change lands in a scope's index write, on the file engine (issue 57).

One daemon writes the index, under its follower's write lock; a forget
changes the scope's Markdown without that lock, so the follower's write
of a scope it read before the change puts the forgotten fact back. The
forget's purge takes the lock after that write and reads the scope again,
and only then does the forget return: nothing forgotten is left. Forced
here with the real indexer, keeper and forgetter on the file engine: the
forget runs while the follower's write holds the lock between its read of
the scope and its write (the embedder's call there is held).
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import trio

from reverie.actors import Forgetter, MemoryKeeper, Services
from reverie.actors.search import Indexer
from reverie.config import load_config
from reverie.store import HistoryEntry, SearchHit, SearchQuery, Store, TokenCounter, open_store

from ...store.index_corpus import FakeEmbedder

pytestmark = pytest.mark.trio

SCOPE = "project/x"
FORGOTTEN = "s1 loves beekeeping"
#: A fact written while the scope's docs are primed: the follower's read under the lock
#: finds it and embeds it there, between that read and the write.
LATE = "s1 mends bicycles"


class _HeldEmbedder(FakeEmbedder):
    """``FakeEmbedder`` holding the calls that embed a text holding ``word`` (``entered``
    set) until ``release`` is set."""

    def __init__(self) -> None:
        self.word = ""
        self.entered, self.release = threading.Event(), threading.Event()

    def hold(self, word: str) -> None:
        """Hold the calls embedding ``word`` from now, and let a call held before go."""
        held = self.release
        self.word, self.release = word, threading.Event()
        self.entered.clear()
        held.set()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        release = self.release
        if self.word and any(self.word in t for t in texts):
            self.entered.set()
            release.wait()
        return super().embed(texts)


def _fact(text: str) -> str:
    return f'- [2026-11-18] {text} <!-- from {{"s1":["s1-m1"]}} -->\n'


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    config = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(tmp_path)})
    opened = open_store(config.store, tmp_path, config.cluster)
    await opened.open()
    yield opened
    await opened.close()


async def test_a_forget_landing_in_a_scope_write_is_purged_before_it_returns(
    tmp_path: Path, store: Store
) -> None:
    config = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(tmp_path)})
    services = Services(config=config, db=store.db, tokens=TokenCounter())
    embedder = _HeldEmbedder()
    indexer = Indexer(services, store.memory, lambda: embedder, store.open_index)
    keeper = MemoryKeeper(store.memory, indexer)
    forgetter = Forgetter(services, keeper, indexer, store.drop_index)
    entry = HistoryEntry(
        id="ep_s1",
        scope=SCOPE,
        session="s1",
        start_ts=1_795_000_000.0,
        end_ts=1_795_000_060.0,
        message_ids=["s1-m1"],
        first_seq=1,
        last_seq=2,
        summary="s1 talked for a while.",
        facts=[FORGOTTEN],
    )
    history: list[str] = []
    async with trio.open_nursery() as nursery:
        await nursery.start(indexer.run)
        try:
            hits = await _race(store, indexer, forgetter, embedder, entry, history)
        finally:
            embedder.hold("")  # no embedding stays held, whatever failed
            nursery.cancel_scope.cancel()
    texts = [h.text for h in hits]
    assert not [t for t in texts if "beekeeping" in t], (history, texts)
    assert any(LATE in t for t in texts), (history, texts)  # the fact it kept is indexed


async def _race(
    store: Store,
    indexer: Indexer,
    forgetter: Forgetter,
    embedder: _HeldEmbedder,
    entry: HistoryEntry,
    history: list[str],
) -> list[SearchHit]:
    """The forget run while the follower's scope write holds the lock; every doc after."""

    async def entered() -> None:
        assert await trio.to_thread.run_sync(embedder.entered.wait, 30), history

    await indexer._ready.wait()
    first = "# Memory\n\n" + _fact(FORGOTTEN)
    assert await store.memory.write_consolidation(entry, first, "") == "written"
    # The follower primes the scope's docs without the lock: held there, a fact is added.
    embedder.hold(FORGOTTEN)
    indexer.memory_edited(SCOPE)
    await entered()
    await store.memory.write_memory(SCOPE, first + _fact(LATE))
    embedder.hold(LATE)  # the read under the lock finds it and embeds it there
    await entered()
    lock = indexer._follower.write_lock
    assert lock.locked()
    history.append("the scope's write read it and holds the lock")
    forgot = trio.Event()

    async def forget() -> None:
        await forgetter.forget_fact(SCOPE, FORGOTTEN)
        history.append("forget returned")
        forgot.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(forget)
        try:
            with trio.move_on_after(30) as waited:  # its Markdown changed, its purge waits
                while FORGOTTEN in await store.memory.read_memory(SCOPE) or not (
                    lock.statistics().tasks_waiting
                ):
                    assert not forgot.is_set(), history
                    await trio.sleep(0.01)
            assert not waited.cancelled_caught, ("the purge never waited for the lock", history)
            history.append("forget changed the Markdown, its purge waits")
        finally:
            embedder.hold("")  # the write puts the forgotten fact back ...
        with trio.move_on_after(30):
            await forgot.wait()  # ... and the purge after it takes it out again
        assert forgot.is_set(), ("the forget did not return", history)
    assert indexer.index is not None
    return await indexer.index.search(SearchQuery(query="any", mode="vector", k=100))
