"""Both engines behind one handle, so one test proves the Postgres engine says what SQLite says.

``Engine.journal``, ``.jobs``, ``.index_feed``, ``.message_pop`` are the
engine's modules (same function names and meanings); ``commit()`` ends the
Postgres transaction the calls ran in (apsw runs them in autocommit).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apsw
import psycopg
import pytest

from reverie.store.files.schema import migrate as sqlite_migrate
from reverie.store.postgres.schema import migrate as pg_migrate

ENGINES = ["sqlite", "postgres"]


def pg_connect(pg_url: str) -> psycopg.Connection[Any]:
    """A connection to a migrated database (the schema and this engine's DDL), as the
    member ``test`` (the engine's connections say which member they are)."""
    with psycopg.connect(pg_url, autocommit=True) as admin:
        pg_migrate(admin)
    return psycopg.connect(pg_url, options="-c reverie.member=test")


class Engine:
    def __init__(self, name: str, conn: Any) -> None:
        self.name = name
        self.conn = conn
        package = "reverie.store.postgres" if name == "postgres" else "reverie.store.files"
        for module in ("journal", "jobs", "index_feed", "message_pop"):
            setattr(self, module, importlib.import_module(f"{package}.{module}"))

    def commit(self) -> None:
        if self.name == "postgres":
            self.conn.commit()

    def sql(self, query: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """A raw query, written with ``%s`` placeholders, on either engine."""
        if self.name == "sqlite":
            return list(self.conn.execute(query.replace("%s", "?"), args))
        cursor = self.conn.execute(query, args)
        return [] if cursor.description is None else cursor.fetchall()


def open_engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """The engine ``request.param`` names, on a fresh store; closed after the test."""
    if request.param == "sqlite":
        conn: Any = apsw.Connection(str(tmp_path / "t.sqlite3"))
        sqlite_migrate(conn)
    else:
        conn = pg_connect(request.getfixturevalue("pg_url"))
    try:
        yield Engine(request.param, conn)
    finally:
        conn.close()
