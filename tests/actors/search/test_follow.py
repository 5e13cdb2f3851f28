"""The follower optimizes the index under load that never pauses (real SQLite, real LanceDB)."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import trio
from trio.testing import MockClock, wait_all_tasks_blocked

from reverie.actors import Services
from reverie.actors.search.follow import Follower
from reverie.config import load_config
from reverie.store import NewMessage, PrimedEmbedder, SearchQuery, SessionRecord, TokenCounter, Tx
from reverie.store.base.index_feed import message_uid
from reverie.store.files.db import Database
from reverie.store.files.index import AsyncSearchIndex
from reverie.store.files.memory_files import MemoryFiles
from reverie.store.files.memory_store import FileMemoryStore

from ...store.index_corpus import FakeEmbedder

MESSAGES = 40
BATCH = 4


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = Database(tmp_path / "follow.sqlite3", durability="process")
    await database.open()
    messages = [
        NewMessage(id=f"m{i}", role="user", content=f"message number {i}", ts=float(i), tokens=3)
        for i in range(MESSAGES)
    ]
    session = SessionRecord(name="s", scope="session/s", created=0.0)
    await database.write(lambda t: t.append_requests(session, [messages]))
    yield database
    await database.close()


async def _follower(
    tmp_path: Path,
    db: Database,
    pace: float = 0.0,
    embedder: FakeEmbedder | None = None,
    **index: str,
) -> Follower:
    env = {"REVERIE_DAEMON__DATA_DIR": str(tmp_path), "REVERIE_INDEX__BATCH_SIZE": str(BATCH)}
    env.update({f"REVERIE_INDEX__{key.upper()}": value for key, value in index.items()})
    config = load_config(env=env)
    services = Services(config=config, db=db, tokens=TokenCounter())
    follower = Follower(services, FileMemoryStore(MemoryFiles(tmp_path / "memory")))
    follower.optimize_pace = pace  # 0: as often as rows and seconds say
    primed = PrimedEmbedder(embedder or FakeEmbedder(), workers=1)  # type: ignore[arg-type]
    follower.index = AsyncSearchIndex(tmp_path / "index", primed)
    await follower.index.open()
    return follower


async def _fragments(follower: Follower) -> int:
    """The data fragments of the follower's index on disk now."""
    assert follower.index is not None
    return (await follower.index.layout()).fragments


@pytest.mark.trio
async def test_a_drain_that_never_pauses_optimizes_every_optimize_rows(
    tmp_path: Path, db: Database
) -> None:
    follower = await _follower(tmp_path, db, optimize_rows="8", optimize_seconds="3600")
    await follower._drain()  # ten batches back to back: never quiet, so never settled
    assert follower.indexed == MESSAGES
    assert follower.optimized == MESSAGES // 8
    assert await _fragments(follower) <= 2  # ten without an optimize


@pytest.mark.trio
async def test_a_drain_that_never_pauses_optimizes_every_optimize_seconds(
    tmp_path: Path, db: Database
) -> None:
    follower = await _follower(tmp_path, db, optimize_rows="100000", optimize_seconds="0.000001")
    await follower._drain()
    assert follower.optimized == MESSAGES // BATCH  # once before each batch after the first
    assert await _fragments(follower) <= 2  # ten without an optimize


@pytest.mark.trio
async def test_optimizes_under_load_are_paced_by_what_the_last_one_took(
    tmp_path: Path, db: Database
) -> None:
    """An optimize costs more as the index grows: the next waits a multiple of the last's time."""
    follower = await _follower(tmp_path, db, pace=1e9, optimize_rows="8", optimize_seconds="3600")
    await follower._drain()
    assert follower.indexed == MESSAGES
    assert follower.optimized == 1  # the first, due at 8 rows; each later one waits 1e9 x its time


@pytest.mark.trio
async def test_a_quiet_index_settles_no_sooner_than_the_pace_after_the_last_optimize(
    tmp_path: Path, db: Database, mock_clock: MockClock
) -> None:
    """A trickle of messages does not rewrite a large index after each one: the settling
    optimize waits for the pace too. The clock moves only when the test jumps it, so the
    last optimize's time is set as a large index's would be."""
    follower = await _follower(tmp_path, db, write_interval="0", optimize_rows="100000")
    await follower._drain()
    await follower.optimize()
    follower.optimize_pace, follower._optimize_took = 4.0, 10.0  # the next waits 40 s
    await _append(db, "one more")
    async with trio.open_nursery() as nursery:
        nursery.start_soon(follower.run)
        while _next_deadline() == math.inf:
            await wait_all_tasks_blocked()  # until the follower waits to settle
        assert follower.indexed == MESSAGES + 1 and follower.unsettled
        assert _next_deadline() == pytest.approx(40.0)  # not SETTLE_AFTER (0.5 s)
        mock_clock.jump(20)
        await wait_all_tasks_blocked()
        assert _next_deadline() == pytest.approx(20.0)  # still waiting, not optimizing
        assert follower.optimized == 1
        mock_clock.jump(21)
        give_up = time.monotonic() + 120  # real seconds: a failed optimize must not hang
        while follower.unsettled and time.monotonic() < give_up:
            await wait_all_tasks_blocked()  # the optimize runs in a worker thread
            await trio.sleep(0)
        assert follower.optimized == 2
        nursery.cancel_scope.cancel()


async def _append(db: Database, *contents: str) -> None:
    """One more append to the session "s", after the messages it has."""
    messages = [NewMessage(id=c, role="user", content=c, ts=0.0, tokens=1) for c in contents]

    def write(t: Tx) -> None:
        session = t.load_session("s")
        assert session is not None
        t.append_requests(session, [messages])

    await db.write(write)


@pytest.mark.trio
async def test_a_follower_that_caught_up_writes_a_smaller_batch_a_write_interval_after_its_last(
    tmp_path: Path, db: Database, mock_clock: MockClock
) -> None:
    """Behind, full batches go in back to back; caught up, the messages of the next
    ``write_interval`` go in as one fragment, not one per append. The clock is frozen:
    it moves only when the test jumps it."""
    follower = await _follower(tmp_path, db, write_interval="30", optimize_rows="100000")
    await follower._drain()  # ten full batches: none waits (a wait would never end)
    assert follower.batches == MESSAGES // BATCH
    await _append(db, "late one")
    drained = trio.Event()

    async def drain() -> None:
        await follower._drain()
        drained.set()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(drain)
        while not drained.is_set() and _next_deadline() == math.inf:
            await wait_all_tasks_blocked()  # until the follower waits for its interval
        await _append(db, "late two", "late three")
        mock_clock.jump(30)
    assert follower.indexed == MESSAGES + 3 and follower.batches == MESSAGES // BATCH + 1


def _next_deadline() -> float:
    return trio.lowlevel.current_statistics().seconds_to_next_deadline


class _GatedEmbedder(FakeEmbedder):
    """``FakeEmbedder`` that, while ``open`` is clear, holds every call (``entered`` set)."""

    def __init__(self) -> None:
        self.open, self.entered = threading.Event(), threading.Event()
        self.open.set()

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        self.entered.set()
        self.open.wait()
        return super().embed(texts)


@pytest.mark.trio
async def test_a_batch_whose_messages_changed_while_it_was_embedded_is_read_again(
    tmp_path: Path, db: Database
) -> None:
    """The newest message is forgotten while its batch is embedded, and an append takes its
    gid: the write leaves the forgotten one out and the cursor stops before the new one."""
    gate = _GatedEmbedder()
    follower = await _follower(tmp_path, db, write_interval="0", embedder=gate)
    await follower._drain()
    gone = SessionRecord(name="gone", scope="session/gone", created=0.0)
    said = NewMessage(id="g", role="user", content="a forgotten secret", ts=0.0, tokens=3)
    await db.write(lambda t: t.append_requests(gone, [[said]]))
    gate.open.clear()
    gate.entered.clear()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(follower._index_batch)
        await trio.to_thread.run_sync(gate.entered.wait)  # its batch is being embedded
        await db.write(lambda t: t.delete_session("gone"))
        await _append(db, "a fresh note")  # the gid the forgotten message had
        gate.open.set()
    assert follower.indexed == MESSAGES  # nothing written from the changed batch
    await follower._drain()
    assert follower.indexed == MESSAGES + 1
    assert await db.read(Tx.read_cursor) == MESSAGES + 1
    assert follower.index is not None
    every = await follower.index.search(SearchQuery(query="note", mode="vector", k=100))
    assert len(every) == MESSAGES + 1  # message hits carry no text: it is read from the log
    assert message_uid("s", MESSAGES + 1) in {h.uid for h in every}
    assert "gone" not in {h.session for h in every}


@pytest.mark.trio
async def test_an_edited_scope_is_embedded_without_the_write_lock_and_read_again_under_it(
    tmp_path: Path, db: Database
) -> None:
    """A forget's purge takes the write lock: it must not wait for a scope's embedding."""
    gate = _GatedEmbedder()
    follower = await _follower(tmp_path, db, write_interval="0", embedder=gate)
    await follower._drain()
    files = MemoryFiles(tmp_path / "memory")
    files.write_memory("team", "- The build runs on amber servers.\n")
    follower.dirty.edited.add("team")
    gate.open.clear()
    gate.entered.clear()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(follower._index_edits)
        await trio.to_thread.run_sync(gate.entered.wait)  # the scope is being embedded
        assert not follower.write_lock.locked()  # a purge could run now
        files.write_memory("team", "- The build runs on teal servers.\n")  # edited meanwhile
        gate.open.set()
    assert follower.index is not None
    hits = await follower.index.search(SearchQuery(query="servers", mode="text", k=10))
    assert [h.text for h in hits if h.kind == "fact"] == ["The build runs on teal servers."]


@pytest.mark.trio
async def test_an_index_applying_a_pop_is_not_settled(tmp_path: Path, db: Database) -> None:
    """A pop's marker is taken off ``pops_pending`` before its row is deleted and the message
    that took its seq is written back: ``status`` must not say settled in between (a search
    could still find the popped row)."""
    gate = _GatedEmbedder()
    follower = await _follower(
        tmp_path,
        db,
        write_interval="0",
        optimize_rows="100000",
        optimize_seconds="3600",
        embedder=gate,
    )
    await follower._drain()

    def pop(t: Tx) -> None:
        session = t.load_session("s")
        assert session is not None and t.pop_newest(session) is not None

    await db.write(pop)
    await _append(db, "took the popped seq")
    await follower._index_batch()  # indexed before the pop's marker is applied
    await follower.optimize()
    follower.pops_pending = True  # what the pop's hook says (``Indexer.popped``)
    gate.open.clear()
    gate.entered.clear()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(follower.run)
        try:
            with trio.fail_after(60):  # real seconds: a follower that never embeds must not hang
                await trio.to_thread.run_sync(gate.entered.wait, abandon_on_cancel=True)
            settled_meanwhile = follower.settled(0)  # the message written back is embedded now
        finally:
            gate.open.set()  # a failed assertion must not leave the embedding thread held
        assert not settled_meanwhile
        with trio.fail_after(60):
            while not follower.settled(0):
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert follower.index is not None
    hits = await follower.index.search(SearchQuery(query="popped", mode="vector", k=100))
    assert [h.uid for h in hits].count(message_uid("s", MESSAGES)) == 1
