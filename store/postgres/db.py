"""The Postgres engine's database: psycopg connections on the shared group-commit threads.

``GroupCommit`` (store/base/db.py) owns the threads, the batching and
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

import re
from typing import Any

import psycopg
from psycopg import sql

from reverie.config import ConfigError, ReverieError
from reverie.store import StoreError, StoreUnavailable

from ..base.db import GroupCommit
from ..base.tx import EngineSql, Tx
from . import words_stats
from .cluster import new_member_id
from .errors import translate
from .schema import migrate
from .term_counts import fresh_counts
from .url import redact_secrets, redact_url

__all__ = ["PostgresConnector", "PostgresDatabase"]

#: The tables a forget deletes rows from, vacuumed by ``compact``.
_FORGET_TABLES = (
    "messages",
    "sessions",
    "jobs",
    "meta",
    "memory_versions",
    "history_entries",
    "index_docs",
    "wm_keys",
    "wm_tasks",
    "wm_scratch",
    "wm_checkpoints",
    "wm_stats",
)
#: Seconds to wait for a connection: a server that does not answer by then is down.
CONNECT_TIMEOUT = 10


class PostgresConnector:
    """How the database at ``url`` is reached (``GroupCommit``'s Connector)."""

    def __init__(self, url: str, label: str, member: str, idle_in_transaction: float) -> None:
        self.url = url
        self.label = label  # the URL without its password: all that is ever printed
        self.member = member  # this process in ``members``; the fence of its session writes
        self.idle_in_transaction = idle_in_transaction
        self._writers: set[int] = set()  # id() of the write connections

    def connect(self, *, writer: bool) -> psycopg.Connection[Any]:
        conn = psycopg.connect(
            self.url,
            autocommit=True,
            connect_timeout=CONNECT_TIMEOUT,
            application_name="reverie",
        )
        # Session writes check ``owner = current_setting('reverie.member')`` (journal.py).
        # A transaction left open (this process frozen between two statements) holds row
        # locks another daemon's takeover waits for: the server ends it after owner_ttl.
        # Each statement is planned for the tables as they are: psycopg prepares the ones
        # run often, and a generic plan made on a fresh database's tiny tables kept
        # sequential scans (of the sessions per append, of the log per session's batch)
        # until autovacuum first analyzed them.
        conn.execute(
            "SELECT set_config('reverie.member', %s, false),"
            " set_config('idle_in_transaction_session_timeout', %s, false),"
            " set_config('plan_cache_mode', 'force_custom_plan', false)",
            (self.member, str(int(self.idle_in_transaction * 1000))),
        )
        if writer:
            migrate(conn)
            words_stats.take_stats_shard(conn)  # two writers sharing a row deadlocked
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

    def compact(self, conn: psycopg.Connection[Any]) -> None:
        """VACUUM the tables a forget deletes from: their dead rows' space is reclaimed
        (a deleted row's bytes stay in the data files until then; docs/security.md says
        what VACUUM does not reach)."""
        for table in _FORGET_TABLES:
            # the index's table is made when the index opens (or never, with it off)
            if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone() != (None,):
                conn.execute(sql.SQL("VACUUM {}").format(sql.Identifier(table)))

    def scrub(self, conn: psycopg.Connection[Any]) -> None:
        """Nothing: the server's WAL is its own to recycle, not a file reverie keeps."""

    def usable(self, conn: psycopg.Connection[Any]) -> bool:
        return not (conn.closed or conn.broken)

    def translate(self, exc: BaseException) -> StoreError | None:
        return translate(exc) if isinstance(exc, psycopg.Error) else None

    def open_error(self, exc: BaseException) -> ReverieError:
        reason = redact_secrets(_first_line(exc))
        if isinstance(exc, psycopg.ProgrammingError) and _MALFORMED.search(reason):
            return ConfigError(  # libpq could not read the URL: its quote of it is left out
                f"the store URL {self.label} is not a PostgreSQL URL libpq accepts:"
                f" {_QUOTED_URI.sub('', reason)} (docs/scale-out.md)"
            )
        if isinstance(exc, psycopg.OperationalError):  # no answer, refused, no such database
            return StoreUnavailable(
                f"cannot connect to the database {self.label}: {reason}; "
                "check that the server runs and the URL is right"
            )
        return StoreError(  # connected, but the schema could not be made or read
            f"cannot prepare the database {self.label}: {reason}; reverie needs a role that "
            "owns the database and the vector and unaccent extensions (docs/scale-out.md)"
        )


#: The Postgres engine's functions, by concept, behind every ``Tx``.
POSTGRES_SQL = EngineSql(__name__.rpartition(".")[0])  # this package's modules


class PostgresDatabase(GroupCommit[psycopg.Connection[Any]]):
    """The database at ``url`` (``postgresql://…``); open with ``await db.open()``."""

    shared = True  # several daemons and workers may share it (``cluster.py``)

    def __init__(
        self,
        url: str,
        *,
        member: str = "",
        idle_in_transaction: float = 0.0,
        read_connections: int = 4,
        max_batch: int = 4096,
    ) -> None:
        super().__init__(
            PostgresConnector(url, redact_url(url), member or new_member_id(), idle_in_transaction),
            POSTGRES_SQL,
            fresh_counts(),
            read_connections=read_connections,
            max_batch=max_batch,
        )
        self.url = url
        self.label = redact_url(url)

    async def describe(self) -> dict[str, Any]:
        size = await self.read(_database_size)
        return {
            **await super().describe(),
            "engine": "postgres",
            "where": self.label,
            "bytes": size,
            "durability": "postgres",  # the server's commit: synchronous, as configured there
        }


def _database_size(tx: Tx) -> int:
    row = tx.conn.execute("SELECT pg_database_size(current_database())").fetchone()
    return int(row[0]) if row else 0


#: libpq's words for a URL or conninfo it cannot parse (``conninfo_uri_parse``,
#: ``conninfo_parse``); its message then quotes the URL, password and all.
_MALFORMED = re.compile(r"\b(URI|connection option|conninfo|missing \"=\")", re.I)
_QUOTED_URI = re.compile(r'\s*in URI: ".*$')


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
