"""The SQLite engine's database: one file, WAL, on the shared group-commit threads.

``GroupCommit`` (store/base/db.py) owns the threads, the batching and
the outcomes; this module says how SQLite is opened (WAL, the durability
chosen, ``secure_delete`` so a forget leaves no bytes in free pages), how a
write transaction starts (``BEGIN IMMEDIATE``: the writer never upgrades a
read lock) and how the file is rewritten and the WAL truncated after a forget.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, Literal, TypeVar

import apsw

from ..base.db import GroupCommit
from ..base.tx import EngineSql
from ..errors import StoreError, StoreReadOnly
from .errors import translate
from .rows import one_row
from .schema import migrate
from .term_counts import fresh_counts

__all__ = ["SQLITE_SQL", "Connection", "Database"]

T = TypeVar("T")
_BUSY_MS = 30_000  # how long a statement waits for a lock another connection holds
_CHECKPOINT_BUSY_MS = 50  # the WAL truncation's wait: it runs on the writer thread
#: The engine's own connection (``Tx.conn``), for the engine's code and its tests.
Connection = apsw.Connection
#: The SQLite engine's functions, by concept, behind every ``Tx``.
SQLITE_SQL = EngineSql(__name__.rpartition(".")[0])  # this package's modules


class SqliteConnector:
    """How the SQLite file at ``path`` is opened and written (``GroupCommit``'s Connector)."""

    def __init__(self, path: Path, durability: Literal["fsync", "process"]) -> None:
        self.path = path
        self.durability = durability

    def connect(self, *, writer: bool) -> apsw.Connection:
        if writer:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        flags = (
            apsw.SQLITE_OPEN_READWRITE | apsw.SQLITE_OPEN_CREATE
            if writer
            else apsw.SQLITE_OPEN_READONLY
        )
        conn = apsw.Connection(str(self.path), flags=flags)
        conn.set_busy_timeout(_BUSY_MS)
        if writer:
            conn.execute("PRAGMA journal_mode=WAL")
            sync = "FULL" if self.durability == "fsync" else "NORMAL"
            conn.execute(f"PRAGMA synchronous={sync}")
            # Deleted content is overwritten with zeros, not left in free pages: a forget
            # leaves no bytes behind in the file (the WAL is truncated by ``checkpoint``).
            conn.execute("PRAGMA secure_delete=ON")
            migrate(conn)
        return conn

    def begin(self, conn: apsw.Connection) -> None:
        conn.execute("BEGIN" if conn.readonly("main") else "BEGIN IMMEDIATE")

    def commit(self, conn: apsw.Connection) -> None:
        conn.execute("COMMIT")

    def rollback(self, conn: apsw.Connection) -> None:
        if conn.in_transaction:
            # A failed rollback leaves the next BEGIN to say what is wrong.
            with contextlib.suppress(apsw.Error):
                conn.execute("ROLLBACK")

    def close(self, conn: apsw.Connection) -> None:
        conn.close()

    def compact(self, conn: apsw.Connection) -> None:
        """``VACUUM``: the file is written anew from its live rows.

        ``secure_delete`` zeroes a row's bytes where the row is when it is
        deleted, but not the copies a page split or rebalance left earlier in
        a page's free gap (SQLite rebuilds a page without clearing that gap),
        so only a rewrite leaves no byte of it. It costs a pass over the file;
        forgets are rare, and a forget already rewrites the full-text index.
        """
        conn.execute("VACUUM")

    def scrub(self, conn: apsw.Connection) -> None:
        """Copy the WAL into the database file and truncate the WAL to zero bytes.

        After ``compact`` this is what makes deleted rows' bytes leave the
        disk files: until then the WAL still holds the pages that had them.
        Raises ``StoreError`` at once (within ``_CHECKPOINT_BUSY_MS``) if a
        reader's snapshot keeps the WAL busy: the writer never waits it out.
        """
        _truncate_wal(conn)

    def usable(self, conn: apsw.Connection) -> bool:
        return True  # a local file does not go away between statements

    def translate(self, exc: BaseException) -> StoreError | None:
        return translate(exc) if isinstance(exc, (apsw.Error, OSError)) else None

    def open_error(self, exc: BaseException) -> StoreError:
        """Why the database cannot be opened, said so that an operator knows what to do."""
        directory = self.path.parent
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
                f"cannot open the database {self.path} ({exc}); "
                f"check that {directory} exists and that this user may write to it"
            )
        return translate(exc)


class Database(GroupCommit[apsw.Connection]):
    """The SQLite file at ``path``; open with ``await db.open()``, then ``write``/``read``."""

    def __init__(
        self,
        path: Path,
        *,
        durability: Literal["fsync", "process"] = "fsync",
        read_connections: int = 4,
        max_batch: int = 4096,
    ) -> None:
        super().__init__(
            SqliteConnector(path, durability),
            SQLITE_SQL,
            fresh_counts(),
            read_connections=read_connections,
            max_batch=max_batch,
        )
        self.path = path
        self.durability = durability

    async def describe(self) -> dict[str, Any]:
        files = self.path.parent.glob(self.path.name + "*")  # the database, its WAL and shm
        size = sum(f.stat().st_size for f in files if f.is_file())
        return {
            **await super().describe(),
            "engine": "sqlite",
            "where": str(self.path.parent),
            "bytes": size,
            "durability": self.durability,
        }


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
