"""The store's branch of the error tree (see ``reverie.config.errors``).

An engine's library's exceptions never leave this package: each engine maps
them (``files/errors.py``, ``postgres/errors.py``), and ``translate`` the file
system's, to a ``StoreError`` (``StoreFull`` when the disk or the page limit
is full) so the layers above can report them with a stable code.
"""

from __future__ import annotations

from typing import ClassVar

from reverie.config import ReverieError

__all__ = [
    "MemoryUnreadable",
    "StoreConflict",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "StoreUnavailable",
    "translate",
]


class StoreError(ReverieError):
    """SQLite or the memory tree failed; the request was not applied."""

    code: ClassVar[str] = "store.error"


class StoreFull(StoreError):
    """The disk (or the configured size limit) is full; free space, then retry."""

    code: ClassVar[str] = "store.full"


class StoreReadOnly(StoreError):
    """The data directory cannot be written; fix its permissions or mount, then retry."""

    code: ClassVar[str] = "store.read_only"


class StoreUnavailable(StoreError):
    """The database cannot be reached (down, restarting, the connection lost); the
    request may or may not have been applied: retry it (appends with the same ids
    are idempotent). The daemon reconnects by itself."""

    code: ClassVar[str] = "store.unavailable"


class StoreConflict(StoreUnavailable):
    """The database rolled a transaction back to resolve a conflict with another writer
    (a deadlock or a serialization failure, Postgres' SQLSTATE class 40): nothing of it
    was written. The daemon runs it again by itself (``base.db``), a few times,
    before a client ever sees it."""


class SessionMoved(StoreUnavailable):
    """Another daemon sharing the database took the session over since this one loaded
    it (Postgres): nothing of the request was written. Retry it: the daemon you retry
    through takes the session back (the client does so by itself for an append with ids)."""

    code: ClassVar[str] = "session.moved"


class MemoryUnreadable(StoreError):
    """A file of the memory tree cannot be read as it is (not UTF-8, a symbolic link):
    fix or remove the file it names."""

    code: ClassVar[str] = "store.memory_unreadable"


def translate(exc: BaseException) -> StoreError:
    """The StoreError to raise for a failure of the file system (or of an engine that
    says only that it failed: each engine maps its own library's errors first)."""
    if isinstance(exc, OSError) and exc.errno == 28:
        return StoreFull(f"storage is full: {exc}; free disk space, then retry")
    if isinstance(exc, OSError) and exc.errno in (13, 30):
        return StoreReadOnly(f"data directory is read-only: {exc}; fix its permissions, then retry")
    return StoreError(f"storage failed: {type(exc).__name__}: {exc}")
