"""One SQLite database: a writer thread with group commit, and a read pool.

Why a thread: apsw calls block, and an fsync on the event loop would stall
every connection. The writer thread owns the only write connection. Writes
from any task are queued; the thread takes everything queued, runs it in one
transaction, commits once, then wakes the event loop once for the whole
batch. A write is reported done only after its transaction committed, so an
acknowledged write survives ``kill -9`` (and a power loss with
``durability = "fsync"``).

A write function that raises rolls back its batch; the batch is then re-run
one function per transaction, so a bad write fails alone and the rest commit.
Write functions must therefore be pure functions of the database state.

Reads run the same way on a pool of read connections, each owned by a
thread of its own (WAL readers never block the writer): reads are queued,
a reader thread takes every read queued (up to ``_READ_BATCH``), runs each
in a snapshot of its own, and wakes the event loop once for them all. Under
load a read then costs no thread wake-up and no event-loop round trip of
its own; a worker-thread hop per read (woken, scheduled, then waiting for
the loop to take its result) held reads at about 200/s on a busy 2-core
machine.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar

import apsw
import trio

from reverie.config import ReverieError

from .errors import StoreError, StoreReadOnly, translate
from .rows import one_row
from .schema import migrate
from .term_counts import TermCounts
from .waiter import Waiter

__all__ = ["Connection", "Database", "ReadFn"]

log = logging.getLogger(__name__)
T = TypeVar("T")
_BUSY_MS = 30_000  # how long a statement waits for a lock another connection holds
_CHECKPOINT_BUSY_MS = 50  # the WAL truncation's wait: it runs on the writer thread
#: What a read or write function is given: a connection owned by a database thread.
Connection = apsw.Connection
WriteFn = Callable[[apsw.Connection], Any]
#: A read: run on a read connection in a snapshot of its own (``Database.read``).
ReadFn = Callable[[apsw.Connection], T]


class _Pending:
    """One queued read or write and who waits for its outcome."""

    outside = False  # run by the writer after the batch's transaction, not inside it

    __slots__ = ("error", "fn", "result", "waiter")

    def __init__(self, fn: WriteFn, waiter: Waiter) -> None:
        self.fn = fn
        self.result: Any = None
        self.error: BaseException | None = None
        self.waiter = waiter


_STOP = object()
#: Reads one reader thread takes from the queue at once (each runs in its own snapshot).
_READ_BATCH = 32


class Database:
    """The SQLite file at ``path``; open with ``await db.open()``, then ``write``/``read``."""

    def __init__(
        self,
        path: Path,
        *,
        durability: Literal["fsync", "process"] = "fsync",
        read_connections: int = 4,
        max_batch: int = 4096,
    ) -> None:
        self.path = path
        self.durability = durability
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._read_count = max(1, read_connections)
        self._reads: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._reader_threads: list[threading.Thread] = []
        self._token: trio.lowlevel.TrioToken | None = None
        self.batches = 0
        self.writes = 0
        #: The full-text index's word counts, shared by the reader threads' searches.
        self.term_counts = TermCounts()

    # -- lifecycle -----------------------------------------------------------

    def _connect(self, *, readonly: bool) -> apsw.Connection:
        flags = (
            apsw.SQLITE_OPEN_READONLY
            if readonly
            else apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
        )
        conn = apsw.Connection(str(self.path), flags=flags)
        conn.set_busy_timeout(_BUSY_MS)
        if not readonly:
            conn.execute("PRAGMA journal_mode=WAL")
            sync = "FULL" if self.durability == "fsync" else "NORMAL"
            conn.execute(f"PRAGMA synchronous={sync}")
            # Deleted content is overwritten with zeros, not left in free pages: a forget
            # leaves no bytes behind in the file (the WAL is truncated by ``checkpoint``).
            conn.execute("PRAGMA secure_delete=ON")
        return conn

    def _open_sync(self) -> tuple[apsw.Connection, list[apsw.Connection]]:
        """The write connection (schema migrated) and the read connections."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        writer = self._connect(readonly=False)
        migrate(writer)
        return writer, [self._connect(readonly=True) for _ in range(self._read_count)]

    async def open(self) -> None:
        """Create or migrate the database and start the writer thread."""
        try:
            writer, readers = await trio.to_thread.run_sync(self._open_sync)
        except (apsw.Error, OSError) as exc:
            raise _open_error(self.path, exc) from exc
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

    async def write(self, fn: Callable[[apsw.Connection], T]) -> T:
        """Run ``fn`` in the next group-committed transaction; return after commit.

        The wait is shielded: once queued, the write will happen, so the
        caller learns its outcome even while being cancelled.
        """
        if self._thread is None:
            raise StoreError("database is not open")
        return await _call(self._queue, fn, shield=True)

    async def write_many(self, fns: list[WriteFn]) -> list[Any]:
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

    async def checkpoint(self) -> None:
        """Copy the WAL into the database file and truncate the WAL to zero bytes.

        Run by the writer between transactions; returns once done. With
        ``secure_delete`` this is what makes deleted rows' bytes leave the
        disk files: until then the WAL still holds the pages that had them.
        Raises ``StoreError`` at once (within ``_CHECKPOINT_BUSY_MS``) if a
        reader's snapshot keeps the WAL busy: the writer never waits it out.
        """
        if self._thread is None:
            raise StoreError("database is not open")
        pending = _Outside(_truncate_wal, Waiter(1, shield=True))
        self._queue.put(pending)
        await pending.waiter.wait()
        if pending.error is not None:
            raise pending.error

    def _writer_loop(self, conn: apsw.Connection) -> None:
        def commit(batch: list[_Pending]) -> None:
            inside = [p for p in batch if not p.outside]
            if inside:
                self._commit_batch(conn, inside)
            for pending in batch:
                if pending.outside:
                    try:
                        pending.result = pending.fn(conn)
                    except BaseException as exc:
                        pending.error = _as_reverie(exc)
            self.batches += 1
            self.writes += len(batch)

        try:
            while self._serve_batch(self._queue, self.max_batch, commit):
                pass
        finally:
            conn.close()

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

    def _commit_batch(self, conn: apsw.Connection, batch: list[_Pending]) -> None:
        try:
            conn.execute("BEGIN IMMEDIATE")
            for pending in batch:
                pending.result = pending.fn(conn)
            conn.execute("COMMIT")
            return
        except BaseException as exc:
            _rollback(conn)
            if len(batch) == 1:
                batch[0].error = _as_reverie(exc)
                return
        for pending in batch:
            self._commit_one(conn, pending)

    def _commit_one(self, conn: apsw.Connection, pending: _Pending) -> None:
        pending.result = None
        try:
            conn.execute("BEGIN IMMEDIATE")
            pending.result = pending.fn(conn)
            conn.execute("COMMIT")
        except BaseException as exc:
            _rollback(conn)
            pending.error = _as_reverie(exc)

    # -- reads ---------------------------------------------------------------

    async def read(self, fn: ReadFn[T]) -> T:
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

    def _reader_loop(self, conn: apsw.Connection) -> None:
        def read_each(batch: list[_Pending]) -> None:
            for pending in batch:
                try:
                    pending.result = _read_in_txn(conn, pending.fn)
                except BaseException as exc:  # the caller raises it, as if read in place
                    pending.error = exc

        try:
            while self._serve_batch(self._reads, _READ_BATCH, read_each):
                pass
        finally:
            conn.close()


class _Outside(_Pending):
    __slots__ = ()
    outside = True


def _truncate_wal(conn: apsw.Connection) -> None:
    # The writer thread runs this: waiting out a reader's snapshot here would stall
    # every append behind it, so the checkpoint gives up almost at once instead.
    conn.set_busy_timeout(_CHECKPOINT_BUSY_MS)
    try:
        busy, _, _ = one_row(conn, "PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.set_busy_timeout(_BUSY_MS)
    if busy:
        raise StoreError("the WAL checkpoint was kept busy by readers; retry the forget")


async def _call(
    calls: queue.SimpleQueue[Any], fn: Callable[[apsw.Connection], T], *, shield: bool
) -> T:
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


def _open_error(path: Path, exc: BaseException) -> StoreError:
    """Why the database cannot be opened, said so that an operator knows what to do."""
    directory = path.parent
    try:
        read_only = bool(os.statvfs(directory).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only or isinstance(exc, apsw.ReadOnlyError):
        return StoreReadOnly(
            f"data directory {directory} is on a read-only file system ({exc}); "
            "remount it read-write or pass another --data-dir"
        )
    if isinstance(exc, apsw.CantOpenError):
        return StoreError(
            f"cannot open the database {path} ({exc}); "
            f"check that {directory} exists and that this user may write to it"
        )
    return translate(exc)


def _read_in_txn(conn: apsw.Connection, fn: Callable[[apsw.Connection], T]) -> T:
    try:
        conn.execute("BEGIN")
        try:
            return fn(conn)
        finally:
            conn.execute("COMMIT")
    except ReverieError:
        raise
    except (apsw.Error, OSError) as exc:
        raise translate(exc) from exc


def _rollback(conn: apsw.Connection) -> None:
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except apsw.Error:
        log.exception("rollback failed")


def _as_reverie(exc: BaseException) -> BaseException:
    if isinstance(exc, ReverieError):
        return exc
    if isinstance(exc, (apsw.Error, OSError)):
        return translate(exc)
    log.error("write function failed", exc_info=exc)
    return StoreError(f"write failed: {type(exc).__name__}: {exc}")


def _complete(batch: list[_Pending]) -> None:
    for pending in batch:
        pending.waiter.done()
