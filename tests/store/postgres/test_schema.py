"""The Postgres schema: migrated once, idempotent at the next start, a newer one refused."""

from __future__ import annotations

import threading

import psycopg
import pytest

from reverie.store import StoreError
from reverie.store.postgres.schema import SCHEMA_VERSION, migrate


def test_a_new_database_is_migrated_once_and_then_left_alone(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn) == 0
        assert migrate(conn) == SCHEMA_VERSION
        tables = {
            row[0]
            for row in conn.execute("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
        }
    assert {"sessions", "messages", "meta", "jobs", "wm_keys", "schema_version"} <= tables


def test_a_database_written_by_a_newer_reverie_is_refused(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        migrate(conn)
        conn.execute("UPDATE schema_version SET version = %s", (SCHEMA_VERSION + 1,))
        with pytest.raises(StoreError, match=r"newer than this reverie.*upgrade reverie"):
            migrate(conn)


def test_members_starting_at_once_on_an_empty_database_all_prepare_it(pg_url: str) -> None:
    """Two daemons and a worker started together (docs/scale-out.md's try-out): a
    ``CREATE TABLE IF NOT EXISTS`` run concurrently fails on the catalog's unique index,
    so every statement of the preparation runs under the migration lock."""
    members = 4
    barrier = threading.Barrier(members)
    found: dict[int, int | BaseException] = {}

    def prepare(n: int) -> None:
        try:
            with psycopg.connect(pg_url, autocommit=True) as conn:
                barrier.wait(timeout=30)
                found[n] = migrate(conn)
        except BaseException as exc:  # recorded for the assertion's history
            found[n] = exc

    threads = [threading.Thread(target=prepare, args=(n,)) for n in range(members)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(isinstance(v, int) for v in found.values()) and len(found) == members, found
    assert list(found.values()).count(0) == 1, found  # one of them made it, the others waited
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn) == SCHEMA_VERSION
