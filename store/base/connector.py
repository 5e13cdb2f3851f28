"""How an engine plugs into the group-commit database (``GroupCommit``).

The engine's connections (apsw, psycopg) never leave the engine: it says
how to open one, run a transaction on it, scrub its files after a forget, and name
its failures as the store's typed errors.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from reverie.config import ReverieError

from ..errors import StoreError

__all__ = ["Connector"]

C = TypeVar("C")


class Connector(Protocol[C]):
    """How one engine connects, runs a transaction and names its failures."""

    def connect(self, *, writer: bool) -> C:
        """A new connection; the writer's is opened first and migrates the schema."""
        ...

    def begin(self, conn: C) -> None: ...

    def commit(self, conn: C) -> None: ...

    def rollback(self, conn: C) -> None:
        """Roll back if a transaction is open; never raises."""
        ...

    def close(self, conn: C) -> None: ...

    def usable(self, conn: C) -> bool:
        """False once the connection is lost: the thread then opens a new one."""
        ...

    def translate(self, exc: BaseException) -> StoreError | None:
        """The StoreError for one of the engine's exceptions; None if it is not one."""
        ...

    def open_error(self, exc: BaseException) -> ReverieError:
        """Why the database cannot be opened at start, said so an operator can act (a
        ``StoreError``, or a ``ConfigError`` for a store URL that cannot be read)."""
        ...

    def compact(self, conn: C) -> None:
        """Rewrite the tables so that no page keeps the bytes of deleted rows (after a
        forget's deletes), run between transactions; the ``scrub`` that follows takes
        them out of the log too. Raises ``StoreError`` if it cannot now: retry later."""
        ...

    def scrub(self, conn: C) -> None:
        """Make the bytes of deleted rows leave the engine's log, after ``compact``; run
        between transactions. Raises ``StoreError`` if it cannot now: retry later."""
        ...
