"""The Postgres schema: migrated once, idempotent at the next start, a newer one refused."""

from __future__ import annotations

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
