"""The Postgres engine's database: psycopg connections on the shared group-commit threads.

``GroupCommit`` (store/base/database.py) owns the threads, the batching and
the outcomes, as for SQLite: one writer connection commits a batch of
functions in one transaction, and a write is acknowledged only after that
COMMIT returned. Reader connections run each read in a ``REPEATABLE READ``
snapshot, so a read of several statements sees one state, as a SQLite read
transaction does.

Connections are sync psycopg ones, each owned by its thread: neither async
driver runs under trio. When the server goes away the failing batch gets
``StoreUnavailable`` (retryable; appends carry ids, so a retry is
idempotent even when the COMMIT's fate is unknown), and the thread opens a
new connection before its next batch.
"""

from __future__ import annotations

from typing import Any

import psycopg

from reverie.store import StoreError, StoreUnavailable

from ..base.database import GroupCommit
from ..base.tx import EngineSql
from .schema import migrate

__all__ = ["PostgresConnector", "PostgresDatabase"]

#: Seconds to wait for a connection: a server that does not answer by then is down.
CONNECT_TIMEOUT = 10


class PostgresConnector:
    """How the database at ``url`` is reached (``GroupCommit``'s Connector)."""

    def __init__(self, url: str, label: str) -> None:
        self.url = url
        self.label = label  # the URL without its password: all that is ever printed
        self._writers: set[int] = set()  # id() of the write connections

    def connect(self, *, writer: bool) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            self.url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT,
            application_name="reverie",
        )
        if writer:
            migrate(conn)
            self._writers.add(id(conn))
        return conn

    def begin(self, conn: psycopg.Connection[Any]) -> None:
        # Snapshot reads on the readers; the single writer needs no more than READ COMMITTED.
        if id(conn) in self._writers:
            conn.execute("BEGIN")
        else:
            conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def commit(self, conn: psycopg.Connection[Any]) -> None:
        conn.execute("COMMIT")

    def rollback(self, conn: psycopg.Connection[Any]) -> None:
        if conn.closed or conn.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            return
        try:
            conn.execute("ROLLBACK")
        except psycopg.Error:
            conn.close()  # lost: ``usable`` now says so and the thread reconnects

    def close(self, conn: psycopg.Connection[Any]) -> None:
        self._writers.discard(id(conn))
        conn.close()

    def usable(self, conn: psycopg.Connection[Any]) -> bool:
        return not (conn.closed or conn.broken)

    def translate(self, exc: BaseException) -> StoreError | None:
        if isinstance(exc, psycopg.OperationalError):
            return StoreUnavailable(
                f"the database {self.label} is unavailable ({type(exc).__name__}); "
                "retry: the daemon reconnects by itself"
            )
        if isinstance(exc, psycopg.Error):
            return StoreError(f"storage failed: {type(exc).__name__}: {_first_line(exc)}")
        return None

    def open_error(self, exc: BaseException) -> StoreError:
        return StoreUnavailable(
            f"cannot connect to the database {self.label}: {_first_line(exc)}; "
            "check that the server runs and the URL is right"
        )


class PostgresDatabase(GroupCommit[psycopg.Connection[Any]]):
    """The database at ``url`` (``postgresql://…``); open with ``await db.open()``."""

    def __init__(
        self,
        url: str,
        sql: EngineSql,
        term_counts: Any = None,
        *,
        read_connections: int = 4,
        max_batch: int = 4096,
    ) -> None:
        super().__init__(
            PostgresConnector(url, redact_url(url)),
            sql,
            term_counts,
            read_connections=read_connections,
            max_batch=max_batch,
        )
        self.url = url


def redact_url(url: str) -> str:
    """``url`` with its password removed: what logs, errors and ``status`` may show."""
    try:
        info = psycopg.conninfo.conninfo_to_dict(url)
    except psycopg.Error:
        return "(an unreadable postgresql URL)"
    info.pop("password", None)
    host = info.get("host", "")
    user = info.get("user", "")
    port = info.get("port", "")
    where = f"{user}@" if user else ""
    where += str(host) if host and not str(host).startswith("/") else ""
    where += f":{port}" if port else ""
    socket = f"?host={host}" if str(host).startswith("/") else ""
    return f"postgresql://{where}/{info.get('dbname', '')}{socket}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
