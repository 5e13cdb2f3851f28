"""psycopg's failures as the store's typed errors (see ``reverie.store.errors``).

psycopg's exceptions never leave the Postgres engine: ``translate`` maps
them, as the SQLite engine's ``translate`` maps apsw's. A lost server (shut
down, restarting, the connection broken) is ``StoreUnavailable``: retryable,
and the daemon reconnects by itself. A full disk is ``StoreFull``. Messages
pass through ``redact_secrets``: libpq may quote the conninfo, password and
all.
"""

from __future__ import annotations

import psycopg
from psycopg import errors

from reverie.store import StoreConflict, StoreError, StoreFull, StoreUnavailable

from .url import redact_secrets

__all__ = ["translate"]

_ENDED_BY_SERVER = errors.IdleInTransactionSessionTimeout | errors.IdleSessionTimeout


def translate(exc: BaseException) -> StoreError:
    """The StoreError to raise for a failure of psycopg (or of the connection under it)."""
    text = redact_secrets(f"{type(exc).__name__}: {exc}".strip())
    if isinstance(exc, errors.DiskFull):
        return StoreFull(f"the database's disk is full: {text}; free disk space, then retry")
    # A deadlock or a serialization failure: SQLSTATE class 40 (psycopg's DeadlockDetected
    # is an OperationalError, not a TransactionRollback: the class is what says it).
    if (getattr(exc, "sqlstate", None) or "").startswith("40"):
        return StoreConflict(
            f"the database rolled the write back to resolve a conflict with another writer:"
            f" {text}; retry (appends with the same ids are idempotent)"
        )
    # (the server ended the session, a transaction idle past ``owner_ttl`` too: nothing of
    # it was committed, and a new connection serves)
    if isinstance(exc, psycopg.OperationalError | _ENDED_BY_SERVER):
        return StoreUnavailable(
            f"the database cannot be reached: {text}; retry (appends with the same ids are"
            " idempotent); the daemon reconnects by itself"
        )
    return StoreError(f"storage failed: {text}")
