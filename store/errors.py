"""The store's branch of the error tree: its classes are ``reverie.config.errors``'s
(one tree, caught by class on either side of the socket); only ``StoreConflict``,
which never crosses the socket under a code of its own, is declared here.

An engine's library's exceptions never leave this package: each engine maps
them (``files/errors.py``, ``postgres/errors.py``), and ``translate`` the file
system's, to a ``StoreError`` (``StoreFull`` when the disk or the page limit
is full) so the layers above can report them with a stable code.
"""

from __future__ import annotations

from reverie.config.errors import (
    MemoryUnreadable,
    SessionMoved,
    StoreError,
    StoreFull,
    StoreReadOnly,
    StoreUnavailable,
)

__all__ = [
    "MemoryUnreadable",
    "SessionMoved",
    "StoreConflict",
    "StoreError",
    "StoreFull",
    "StoreReadOnly",
    "StoreUnavailable",
    "translate",
]


class StoreConflict(StoreUnavailable):
    """The database rolled a transaction back to resolve a conflict with another writer
    (a deadlock or a serialization failure, Postgres' SQLSTATE class 40): nothing of it
    was written. The daemon runs it again by itself (``base.db``), a few times,
    before a client ever sees it."""


def translate(exc: BaseException) -> StoreError:
    """The StoreError to raise for a failure of the file system (or of an engine that
    says only that it failed: each engine maps its own library's errors first)."""
    if isinstance(exc, OSError) and exc.errno == 28:
        return StoreFull(f"storage is full: {exc}; free disk space, then retry")
    if isinstance(exc, OSError) and exc.errno in (13, 30):
        return StoreReadOnly(f"data directory is read-only: {exc}; fix its permissions, then retry")
    return StoreError(f"storage failed: {type(exc).__name__}: {exc}")
