"""The group-commit database on every engine: every read sees the writes acknowledged
before it and fails alone; many at once are served by a few threads without loss; a
write that fails, or whose session moved, fails alone; and an idle thread keeps
nothing of the calls it finished. What only PostgreSQL's connections do (a server
that goes away, a deadlock, a malformed URL) is in tests/store/postgres/test_db.py."""

from __future__ import annotations

import gc
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import trio

from reverie.config import ReverieError
from reverie.store import GroupCommit, SessionMoved, Tx
from reverie.store.errors import StoreError

from .engine import READERS, database_of

Database = GroupCommit[Any]


def _put(name: str, value: str) -> Callable[[Tx], None]:
    return lambda tx: tx.write_meta(name, value)


def _get(name: str) -> Callable[[Tx], object]:
    return lambda tx: tx.read_meta(name)


def _insert(key: str) -> Callable[[Tx], int]:
    """A plain INSERT: a second one of the same key fails in the database itself."""

    def write(tx: Tx) -> int:
        tx.conn.execute(f"INSERT INTO meta (key, value) VALUES ('{key}', '1')")
        return 1

    return write


def _keys(tx: Tx) -> list[str]:
    return [row[0] for row in tx.conn.execute("SELECT key FROM meta ORDER BY key")]


@pytest.mark.trio
async def test_each_of_many_concurrent_reads_sees_its_own_acknowledged_write(db: Database) -> None:
    seen: dict[int, object] = {}

    async def write_then_read(i: int) -> None:
        await db.write(_put(f"k{i}", f"v{i}"))
        seen[i] = await db.read(_get(f"k{i}"))

    async with trio.open_nursery() as nursery:
        for i in range(500):  # far more than the READERS threads: reads queue and batch
            nursery.start_soon(write_then_read, i)
    assert seen == {i: f"v{i}" for i in range(500)}


@pytest.mark.trio
async def test_a_failing_read_fails_alone_with_its_own_error(db: Database) -> None:
    await db.write(_put("present", "yes"))

    def broken(tx: Tx) -> object:
        return tx.conn.execute("SELECT no_such_column FROM meta").fetchone()

    def refuses(tx: Tx) -> object:
        raise ValueError("a bug in a read function")

    outcomes: dict[str, object] = {}

    async def run(name: str, fn: Callable[[Tx], object]) -> None:
        try:
            outcomes[name] = await db.read(fn)
        except Exception as exc:
            outcomes[name] = exc

    async with trio.open_nursery() as nursery:
        for i in range(20):
            nursery.start_soon(run, f"good{i}", _get("present"))
        nursery.start_soon(run, "sql", broken)
        nursery.start_soon(run, "bug", refuses)

    assert all(outcomes[f"good{i}"] == "yes" for i in range(20))
    assert isinstance(outcomes["sql"], ReverieError)  # the engine's error is translated
    assert isinstance(outcomes["bug"], ValueError)  # anything else reaches the caller as itself


@pytest.mark.trio
async def test_a_cancelled_reader_leaves_while_the_pool_keeps_serving(db: Database) -> None:
    await db.write(_put("k", "v"))
    release = trio.Event()

    def slow(tx: Tx) -> object:
        while not release.is_set():  # holds one reader thread until released
            tx.conn.execute("SELECT 1").fetchone()
        return "slow"

    with trio.move_on_after(0.2) as waited:
        await db.read(slow)
    assert waited.cancelled_caught  # the caller left although its read still runs
    with trio.fail_after(5):
        assert await db.read(_get("k")) == "v"  # served by another reader meanwhile
    release.set()
    with trio.fail_after(5):
        assert [await db.read(_get("k")) for _ in range(READERS * 3)] == ["v"] * (READERS * 3)


class _Captured:
    """Stands for what a read or write closure captures in the daemon (an actor)."""


@pytest.mark.trio
async def test_a_finished_call_keeps_nothing_it_captured_alive(db: Database) -> None:
    captured = _Captured()
    alive = weakref.ref(captured)

    def write(tx: Tx, kept: _Captured = captured) -> None:
        _put("k", "v")(tx)

    def read(tx: Tx, kept: _Captured = captured) -> object:
        return _get("k")(tx)

    await db.write(write)
    assert await db.read(read) == "v"
    del captured, write, read
    gc.collect()
    # An idle database thread used to hold its last batch, and with it every
    # closure's captures (in the daemon: whole actors, long after passivation).
    assert alive() is None


@pytest.mark.trio
async def test_reads_after_close_are_refused_with_a_store_error(
    engine_name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    database = database_of(engine_name, request, tmp_path)
    await database.open()
    await database.write(_put("k", "v"))
    assert await database.read(_get("k")) == "v"
    await database.close()
    with pytest.raises(StoreError, match="not open"):
        await database.read(_get("k"))


@pytest.mark.trio
async def test_write_many_gives_each_function_its_own_outcome_in_order(db: Database) -> None:
    def bug(tx: Tx) -> None:
        tx.write_meta("half", "done")
        raise ValueError("a bug in one session's write")

    def value_of(name: str) -> Callable[[Tx], object]:
        return lambda tx: _put(name, name)(tx) or name

    outcomes = await db.write_many([value_of("a"), bug, value_of("b")])

    assert outcomes[0] == "a" and outcomes[2] == "b"
    assert isinstance(outcomes[1], StoreError)  # failed alone, as a typed error
    assert [await db.read(_get(k)) for k in ("a", "b", "half")] == ["a", "b", None]


@pytest.mark.trio
async def test_a_cancelled_write_still_commits_and_the_cancel_comes_after(db: Database) -> None:
    started = threading.Event()
    release = threading.Event()

    def slow(tx: Tx) -> None:
        started.set()
        release.wait(5)
        _put("slow", "committed")(tx)

    async def write_then_mark(done: list[str]) -> None:
        await db.write(slow)
        done.append("returned")  # reached before the cancel: the write's wait is shielded
        await trio.sleep(0)  # the next checkpoint delivers the cancel
        done.append("not reached")

    done: list[str] = []
    async with trio.open_nursery() as nursery:
        nursery.start_soon(write_then_mark, done)
        await trio.to_thread.run_sync(started.wait)
        nursery.cancel_scope.cancel()  # while the write runs in the writer thread
        release.set()
    assert done == ["returned"]
    assert await db.read(_get("slow")) == "committed"


@pytest.mark.trio
async def test_a_write_the_database_refuses_fails_alone_and_the_batch_commits(
    db: Database,
) -> None:
    results = await db.write_many([_insert("a"), _insert("b"), _insert("a"), _insert("c")])
    assert results[:2] == [1, 1] and results[3] == 1
    assert isinstance(results[2], StoreError)  # the duplicate key, alone
    assert await db.read(_keys) == ["a", "b", "c"]


@pytest.mark.trio
async def test_one_writes_moved_session_fails_only_that_write_of_its_batch(db: Database) -> None:
    def moved(tx: Tx) -> None:
        tx.write_meta("m", 1)
        raise SessionMoved("session 'm' was taken over by another daemon")

    results = await db.write_many([_insert("a"), moved, _insert("b")])
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], SessionMoved)
    assert await db.read(_keys) == ["a", "b"]
