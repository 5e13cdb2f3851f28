"""The conformance suite's engines: each test of tests/store/engines/ runs once per engine.

A test of ``tests/store/engines/`` says what every engine must do, once:
``engine`` opens a fresh store of each engine in turn (the file engine's
SQLite under tmp_path; a database of its own on the session's PostgreSQL)
and gives its module of each concept (``engine.journal``, ...), found by
name as ``EngineSql`` finds them, and a ``Tx`` over the same connection.
What one engine alone does, or how, is tested beside it (tests/store/,
tests/store/postgres/); docs/design.md, "The store seam", has the recipe.
"""

from __future__ import annotations

import contextlib
import importlib
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, cast

import apsw
import psycopg
import pytest

from reverie.store import GroupCommit, NewMessage, SessionRecord, Tx
from reverie.store.base.tx import EngineSql
from reverie.store.files.db import Database
from reverie.store.files.schema import migrate as files_migrate
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.memory_store import MemoryStore
from reverie.store.postgres.schema import migrate as pg_migrate

#: The engines, by their package's name under ``reverie.store``.
ENGINES = ("files", "postgres")
#: Reader threads of a suite's database: fewer than the reads a test runs at once.
READERS = 2


def pg_connect(pg_url: str) -> psycopg.Connection[Any]:
    """A connection to a migrated database (the schema and the engine's DDL), as the member
    ``test`` (the engine's connections say which member they are)."""
    with psycopg.connect(pg_url, autocommit=True) as admin:
        pg_migrate(admin)
    return psycopg.connect(pg_url, options="-c reverie.member=test")


class Engine:
    """One engine on a fresh store: its module of each concept, its connection, a ``Tx``."""

    def __init__(self, name: str, conn: Any) -> None:
        self.name = name
        self.conn = conn
        package = f"reverie.store.{name}"
        sql = EngineSql(package)
        for concept, module in sql.modules.items():
            setattr(self, concept, module)
        #: The engine's per-word counts of its words index (``fresh_counts``, ``indexed_rows``).
        self.term_counts = importlib.import_module(f"{package}.term_counts")
        #: The seam over this connection, as ``GroupCommit`` makes it for a thread.
        self.tx = Tx(conn, sql, self.term_counts.fresh_counts())

    def commit(self) -> None:
        """End the transaction the calls ran in (PostgreSQL's; apsw runs them in autocommit)."""
        if self.name == "postgres":
            self.conn.commit()

    def transaction(self) -> AbstractContextManager[Any]:
        """A transaction of the engine's own, committed at its end (as ``Database.write`` does)."""
        if self.name == "postgres":
            return cast(AbstractContextManager[Any], self.conn.transaction())
        return cast(AbstractContextManager[Any], self.conn)

    def sql(self, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A raw query, written with ``%s`` placeholders, on either engine."""
        if self.name == "files":
            return list(self.conn.execute(query.replace("%s", "?"), args))
        cursor = self.conn.execute(query, args)
        return [] if cursor.description is None else cursor.fetchall()

    def append_texts(self, session: str, *texts: str, scope: str | None = None) -> None:
        """One append of ``texts`` to ``session`` (created in ``scope`` if new), committed:
        ids ``<session>-0``, ... and times 0, 1, ... from the session's first message."""
        record = self.journal.load_session(self.conn, session) or SessionRecord(
            name=session, scope=scope or f"session/{session}", created=0.0
        )
        first = record.last_seq
        messages = [
            NewMessage(id=f"{session}-{first + i}", role="user", content=t, ts=float(i), tokens=1)
            for i, t in enumerate(texts)
        ]
        self.journal.append_requests(self.conn, record, [messages])
        self.commit()


@contextlib.contextmanager
def opened(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """The engine ``name`` on a fresh store; closed after."""
    if name == "files":
        conn: Any = apsw.Connection(str(tmp_path / "t.sqlite3"))
        files_migrate(conn)
    else:
        conn = pg_connect(request.getfixturevalue("pg_url"))
    try:
        yield Engine(name, conn)
    finally:
        conn.close()


def database_of(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> GroupCommit[Any]:
    """The engine's group-commit database on a fresh store, not yet opened."""
    if name == "files":
        return Database(tmp_path / "db.sqlite3", durability="process", read_connections=READERS)
    return PostgresDatabase(request.getfixturevalue("pg_url"), read_connections=READERS)


@contextlib.asynccontextmanager
async def postgres_memory(url: str) -> AsyncIterator[MemoryStore]:
    """The PostgreSQL engine's ``MemoryStore`` on a migrated database, its own database open."""
    with psycopg.connect(url, autocommit=True) as conn:
        pg_migrate(conn)
    db = PostgresDatabase(url, read_connections=2)
    await db.open()
    try:
        yield MemoryStore(db)
    finally:
        await db.close()
