"""Working memory on either engine, so one test body proves both behave alike.

``engine`` (parametrized "sqlite" / "postgres") gives the engine's
working-memory module, a connection with the schema migrated
and a ``Tx`` over it: ``apply_writes`` (store/scope_writes.py, one module
for both engines) reaches the engine's functions through that ``Tx``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import apsw
import psycopg
import pytest

from reverie.store import ScopeBounds, Tx
from reverie.store.files import working_memory as sqlite_wm
from reverie.store.files.db import SQLITE_SQL
from reverie.store.files.schema import migrate as sqlite_migrate
from reverie.store.postgres import working_memory as pg_wm
from reverie.store.postgres.db import POSTGRES_SQL
from reverie.store.postgres.schema import migrate as pg_migrate
from reverie.store.wm_bounds import Tally

ENGINES = ("sqlite", "postgres")


@dataclass
class Engine:
    name: str
    wm: ModuleType  # the engine's working_memory functions
    conn: Any

    def tally(self, scope: str, bounds: ScopeBounds) -> Tally:
        """The bounds' tally of ``scope`` on this engine (as ``Tx.tally`` makes it)."""
        return self.tx.tally(scope, bounds)

    @property
    def tx(self) -> Tx:
        """The seam ``apply_writes`` writes through, on this engine's connection."""
        sql = POSTGRES_SQL if self.name == "postgres" else SQLITE_SQL
        return Tx(self.conn, sql, None)

    def transaction(self) -> AbstractContextManager[Any]:
        """A transaction of the engine's own, committed at its end (as ``Database.write`` does)."""
        if isinstance(self.conn, psycopg.Connection):
            return self.conn.transaction()
        return cast(AbstractContextManager[Any], self.conn)


def pg_connection(url: str) -> psycopg.Connection[Any]:
    """A connection to a migrated database (schema and the working memory's DDL)."""
    with psycopg.connect(url, autocommit=True) as admin:
        pg_migrate(admin)
    return psycopg.connect(url)


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        conn = apsw.Connection(str(tmp_path / "wm.db"))
        sqlite_migrate(conn)
        yield Engine("sqlite", sqlite_wm, conn)
        conn.close()
        return
    pg = pg_connection(request.getfixturevalue("pg_url"))
    yield Engine("postgres", pg_wm, pg)
    pg.close()
