"""Working memory on either engine, so one test body proves both behave alike.

``engine`` (parametrized "sqlite" / "postgres") gives the engine's
working-memory module, its ``Tally``, its ``apply_writes`` and a connection
with the schema migrated. The Postgres ``apply_writes`` is
``store/scope_writes.py`` itself, unedited, loaded as a module of
``reverie.store.postgres``: its relative imports (``.working_memory``,
``.wm_bounds``) then resolve to the Postgres engine, which shows that it
runs unchanged on it once it gets its functions from the engine.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, cast

import apsw
import psycopg
import pytest

import reverie.store.postgres as pg_package
from reverie.store import scope_writes as sqlite_scope_writes
from reverie.store import wm_bounds as sqlite_wm_bounds
from reverie.store import working_memory as sqlite_wm
from reverie.store.postgres import wm_bounds as pg_wm_bounds
from reverie.store.postgres import working_memory as pg_wm
from reverie.store.postgres.schema import migrate as pg_migrate
from reverie.store.schema import migrate as sqlite_migrate

ENGINES = ("sqlite", "postgres")


@dataclass
class Engine:
    name: str
    wm: ModuleType  # the engine's working_memory functions
    bounds: ModuleType  # its wm_bounds (Tally)
    writes: ModuleType  # scope_writes, calling this engine's functions
    conn: Any

    def transaction(self) -> AbstractContextManager[Any]:
        """A transaction of the engine's own, committed at its end (as ``Database.write`` does)."""
        if isinstance(self.conn, psycopg.Connection):
            return self.conn.transaction()
        return cast(AbstractContextManager[Any], self.conn)


def _pg_scope_writes() -> ModuleType:
    path = Path(sqlite_scope_writes.__file__)
    spec = importlib.util.spec_from_file_location(f"{pg_package.__name__}.scope_writes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def pg_connection(url: str) -> psycopg.Connection[Any]:
    """A connection to a migrated database (schema and the working memory's DDL)."""
    with psycopg.connect(url, autocommit=True) as admin:
        pg_migrate(admin)
        for ddl in pg_wm.DDL:
            admin.execute(ddl)
    return psycopg.connect(url)


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        conn = apsw.Connection(str(tmp_path / "wm.db"))
        sqlite_migrate(conn)
        yield Engine("sqlite", sqlite_wm, sqlite_wm_bounds, sqlite_scope_writes, conn)
        conn.close()
        return
    pg = pg_connection(request.getfixturevalue("pg_url"))
    yield Engine("postgres", pg_wm, pg_wm_bounds, _pg_scope_writes(), pg)
    pg.close()
