"""The group-commit database every engine runs on: a writer thread and a read pool.

Why a thread: database calls block, and an fsync or a network round trip on
the event loop would stall every connection. The writer thread owns the only
write connection. Writes from any task are queued; the thread takes
everything queued, runs it in one transaction, commits once, then wakes the
event loop once for the whole batch. A write is reported done only after its
transaction committed, so an acknowledged write survives ``kill -9``.

A write function that raises rolls back its batch; the batch is then re-run
one function per transaction, so a bad write (or a ``SessionMoved``) fails
alone: write functions are pure functions of the database state. One rolled
back for a conflict with another writer (``StoreConflict``) is run up to
``_CONFLICT_TRIES`` times. When the database is unreachable, the batch
fails at once and the connection is opened again before the next batch.

Reads run the same way on a pool of read connections, each owned by a
thread of its own: reads are queued, a reader thread takes every read queued
(up to ``_READ_BATCH``), runs each in a snapshot of its own, and wakes the
event loop once for them all. Under load a read then costs no thread wake-up
and no event-loop round trip of its own; a worker-thread hop per read held
reads at about 200/s on a busy 2-core machine.

The engine plugs in through a ``Connector``; what its connections are (apsw,
psycopg) is the engine's business and the functions' it runs.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

import trio

from reverie.config import ReverieError

from ..errors import SessionMoved, StoreConflict, StoreError, StoreUnavailable
from .connector import Connector
from .tx import EngineSql, Tx
from .waiter import Waiter

__all__ = ["Connector", "GroupCommit"]

log = logging.getLogger(__name__)
T = TypeVar("T")
C = TypeVar("C")


class _Pending:
    """One queued read or write and who waits for its outcome."""

    outside = False  # run by the writer after the batch's transaction, not inside it

    __slots__ = ("error", "fn", "result", "waiter")

    def __init__(self, fn: Callable[[Any], Any], waiter: Waiter) -> None:
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.waiter = waiter


class _Outside(_Pending):
    __slots__ = ()
    outside = True


_STOP = object()
#: Runs of a write the database rolled back for a conflict (batches lock in no set order).
_CONFLICT_TRIES = 5
#: Reads one reader thread takes from the queue at once (each runs in its own snapshot).
_READ_BATCH = 32


class GroupCommit(Generic[C]):
    """A database behind ``connector``; open with ``await db.open()``, then ``write``/``read``."""

    #: Whether other daemons write this database too: a session is then claimed
    #: (``Tx.claim_session``, a write) before this daemon serves it, not just loaded.
    shared: ClassVar[bool] = False

    def __init__(
        self,
        connector: Connector[C],
        sql: EngineSql,
        term_counts: Any,
        *,
        read_connections: int = 4,
        max_batch: int = 4096,
    ) -> None:
        self.connector = connector
        self.sql = sql
        #: The words index's per-word counts (the engine's cache), shared by the readers.
        self.term_counts = term_counts
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._read_count = max(1, read_connections)
        self._reads: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._reader_threads: list[threading.Thread] = []
        self._token: trio.lowlevel.TrioToken | None = None
        self.batches = 0
        self.writes = 0

    # -- lifecycle -----------------------------------------------------------

    def _open_sync(self) -> tuple[C, list[C]]:
        writer = self.connector.connect(writer=True)
        return writer, [self.connector.connect(writer=False) for _ in range(self._read_count)]

    async def open(self) -> None:
        """Create or migrate the database and start the writer and reader threads."""
        try:
            writer, readers = await trio.to_thread.run_sync(self._open_sync)
        except ReverieError:
            raise
        except Exception as exc:
            raise self.connector.open_error(exc) from exc
        self._token = trio.lowlevel.current_trio_token()
        self._thread = threading.Thread(
            target=self._writer_loop, args=(writer,), name="reverie-writer", daemon=True
        )
        self._thread.start()
        self._reader_threads = [
            threading.Thread(
                target=self._reader_loop, args=(conn,), name=f"reverie-reader-{i}", daemon=True
            )
            for i, conn in enumerate(readers)
        ]
        for thread in self._reader_threads:
            thread.start()

    async def close(self) -> None:
        """Finish every queued write and read, then close all connections."""
        if self._thread is not None:
            self._queue.put(_STOP)
            await trio.to_thread.run_sync(self._thread.join)
            self._thread = None
        threads, self._reader_threads = self._reader_threads, []
        for _ in threads:
            self._reads.put(_STOP)
        for thread in threads:
            await trio.to_thread.run_sync(thread.join)

    # -- writes --------------------------------------------------------------

    async def write(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` in the next group-committed transaction; return after commit.

        The wait is shielded: once queued, the write will happen, so the
        caller learns its outcome even while being cancelled.
        """
        if self._thread is None:
            raise StoreError("database is not open")
        return await _call(self._queue, fn, shield=True)

    async def write_many(self, fns: list[Callable[[Tx], Any]]) -> list[Any]:
        """``write`` for several functions at once, waking the caller once for them all.

        Each function keeps its own outcome, as if written alone (a failure
        fails only its own function): the list holds each one's result or
        the exception that failed it, in order. This is how many sessions'
        appends, ready at the same moment, reach the writer as one batch.
        """
        if self._thread is None:
            raise StoreError("database is not open")
        waiter = Waiter(len(fns), shield=True)
        calls = [_Pending(fn, waiter) for fn in fns]
        for pending in calls:
            self._queue.put(pending)
        await waiter.wait()
        return [p.result if p.error is None else p.error for p in calls]

    async def describe(self) -> dict[str, Any]:
        """What ``status`` shows of the store: the engine, where it is (never a password),
        its size in bytes, its durability, and the batches and writes since start."""
        return {"batches": self.batches, "writes": self.writes}

    async def compact(self) -> None:
        """The engine's ``compact`` on the write connection, between two batches."""
        await self.outside(self.connector.compact)

    async def scrub(self) -> None:
        """The engine's ``scrub`` on the write connection, between two batches."""
        await self.outside(self.connector.scrub)

    async def outside(self, fn: Callable[[C], T]) -> T:
        """Run ``fn`` on the write connection between transactions (upkeep such as a
        WAL truncation or a VACUUM, which cannot run inside one); return its result."""
        if self._thread is None:
            raise StoreError("database is not open")
        pending = _Outside(fn, Waiter(1, shield=True))
        self._queue.put(pending)
        await pending.waiter.wait()
        if pending.error is not None:
            raise pending.error
        return pending.result  # type: ignore[no-any-return]

    def _writer_loop(self, conn: C) -> None:
        held = [conn]
        txs: dict[int, Tx] = {}

        def commit(batch: list[_Pending]) -> None:
            conn = self._usable(held, batch, writer=True)
            if conn is None:
                return
            inside = [p for p in batch if not p.outside]
            if inside:
                self._commit_batch(conn, self._tx(txs, conn), inside)
            for pending in batch:
                if pending.outside:
                    try:
                        pending.result = pending.fn(conn)
                    except BaseException as exc:
                        pending.error = self._as_reverie(exc)
            self.batches += 1
            self.writes += len(batch)

        try:
            while self._serve_batch(self._queue, self.max_batch, commit):
                pass
        finally:
            self.connector.close(held[0])

    def _usable(self, held: list[C], batch: list[_Pending], *, writer: bool) -> C | None:
        """The thread's connection, opened again if it was lost; None (and the batch
        failed as unavailable) while the database cannot be reached."""
        if self.connector.usable(held[0]):
            return held[0]
        try:
            fresh = self.connector.connect(writer=writer)
        except BaseException as exc:
            error = self._as_reverie(exc)
            for pending in batch:
                pending.error = error
            return None
        self.connector.close(held[0])
        held[0] = fresh
        return fresh

    def _serve_batch(
        self, calls: queue.SimpleQueue[Any], limit: int, run: Callable[[list[_Pending]], None]
    ) -> bool:
        """Take one batch of queued calls, run it, wake the loop once; False once told to stop.

        Nothing of the batch outlives this call: a thread waiting for the next
        batch must not keep the last one's closures alive, nor what they
        captured (an actor, its last requests).
        """
        first = calls.get()
        if first is _STOP:
            return False
        batch, stop = _take_batch(calls, first, limit)
        run(batch)
        assert self._token is not None
        try:
            self._token.run_sync_soon(_complete, batch)
        except trio.RunFinishedError:
            log.warning("event loop ended before %d database calls were reported", len(batch))
        return not stop

    def _tx(self, txs: dict[int, Tx], conn: C) -> Tx:
        """The thread's Tx over ``conn`` (a new one after a reconnect)."""
        tx = txs.get(id(conn))
        if tx is None or tx.conn is not conn:
            txs.clear()
            tx = txs[id(conn)] = Tx(conn, self.sql, self.term_counts)
        return tx

    def _commit_batch(self, conn: C, tx: Tx, batch: list[_Pending]) -> None:
        connector = self.connector
        try:
            connector.begin(conn)
            for pending in batch:
                pending.result = pending.fn(tx)
            connector.commit(conn)
            return
        except BaseException as exc:
            connector.rollback(conn)
            error = self._as_reverie(exc)
            alone = isinstance(error, (SessionMoved, StoreConflict))  # one write's: rest rerun
            lost = isinstance(error, StoreUnavailable) and not alone
            if lost or (len(batch) == 1 and not isinstance(error, StoreConflict)):
                for pending in batch:
                    pending.error = error
                return
        for pending in batch:
            self._commit_one(conn, tx, pending)

    def _commit_one(self, conn: C, tx: Tx, pending: _Pending) -> None:
        for _ in range(_CONFLICT_TRIES):
            pending.result, pending.error = None, None
            try:
                self.connector.begin(conn)
                pending.result = pending.fn(tx)
                self.connector.commit(conn)
                return
            except BaseException as exc:
                self.connector.rollback(conn)
                pending.error = self._as_reverie(exc)
                if not isinstance(pending.error, StoreConflict):
                    return

    # -- reads ---------------------------------------------------------------

    async def read(self, fn: Callable[[Tx], T]) -> T:
        """Run ``fn`` on a read connection in a snapshot of its own; return its result.

        The snapshot starts after the call: it sees every write acknowledged
        before. Reads have threads of their own: they never queue behind slow
        work that holds trio's shared worker threads, such as searches and
        embeddings. A caller cancelled while waiting leaves; its read still
        runs (reads change nothing) and its result is dropped.
        """
        if not self._reader_threads:
            raise StoreError("database is not open")
        return await _call(self._reads, fn, shield=False)

    def _reader_loop(self, conn: C) -> None:
        held = [conn]
        txs: dict[int, Tx] = {}

        def read_each(batch: list[_Pending]) -> None:
            for pending in batch:
                # A read is run again, once, on a new connection when its own died under it
                # (a server restart since the last read): reads change nothing.
                for _ in range(2):
                    conn = self._usable(held, [pending], writer=False)
                    if conn is None:
                        break
                    try:
                        pending.result = self._read_in_txn(conn, self._tx(txs, conn), pending.fn)
                        pending.error = None
                        break
                    except BaseException as exc:  # the caller raises it, as if read in place
                        pending.error = exc
                        if self.connector.usable(conn):
                            break

        try:
            while self._serve_batch(self._reads, _READ_BATCH, read_each):
                pass
        finally:
            self.connector.close(held[0])

    def _read_in_txn(self, conn: C, tx: Tx, fn: Callable[[Tx], T]) -> T:
        connector = self.connector
        try:
            connector.begin(conn)
            try:
                return fn(tx)
            finally:
                connector.rollback(conn)
        except ReverieError:
            raise
        except Exception as exc:
            error = connector.translate(exc)
            if error is None:
                raise
            raise error from exc

    def _as_reverie(self, exc: BaseException) -> BaseException:
        if isinstance(exc, ReverieError):
            return exc
        error = self.connector.translate(exc)
        if error is not None:
            return error
        log.error("write function failed", exc_info=exc)
        return StoreError(f"write failed: {type(exc).__name__}: {exc}")


async def _call(calls: queue.SimpleQueue[Any], fn: Callable[[Any], T], *, shield: bool) -> T:
    """Queue ``fn`` for a database thread and wait for its outcome (``shield``: even if cancelled)."""
    pending = _Pending(fn, Waiter(1, shield=shield))
    calls.put(pending)
    await pending.waiter.wait()
    if pending.error is not None:
        raise pending.error
    return pending.result  # type: ignore[no-any-return]


def _take_batch(
    calls: queue.SimpleQueue[Any], first: _Pending, limit: int
) -> tuple[list[_Pending], bool]:
    """``first`` and whatever else is queued, up to ``limit``; True when a stop came too."""
    batch: list[_Pending] = [first]
    while len(batch) < limit:
        try:
            item = calls.get_nowait()
        except queue.Empty:
            break
        if item is _STOP:
            return batch, True
        batch.append(item)
    return batch, False


def _complete(batch: list[_Pending]) -> None:
    for pending in batch:
        pending.waiter.done()
