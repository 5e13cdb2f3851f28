"""The Postgres engine's group-commit database: a server that goes away, a deadlock, shards, URLs.

What the group commit does on every engine is in tests/store/engines/test_db.py.
"""

from __future__ import annotations

import threading
from typing import Any

import psycopg
import pytest
import trio

from reverie.config import ConfigError
from reverie.store import (
    NewMessage,
    SessionRecord,
    StoreUnavailable,
    Tx,
)
from reverie.store.postgres import journal
from reverie.store.postgres.db import PostgresDatabase
from tests.postgres import PgServer


def _insert(value: str) -> Any:
    def write(tx: Tx) -> int:
        row = tx.conn.execute(
            "INSERT INTO meta (key, value) VALUES (%s, '1') RETURNING 1", (value,)
        ).fetchone()
        assert row is not None
        return int(row[0])

    return write


def _keys(tx: Tx) -> list[str]:
    return [row[0] for row in tx.conn.execute("SELECT key FROM meta ORDER BY key")]


def _database(url: str, read_connections: int = 4) -> PostgresDatabase:
    return PostgresDatabase(url, read_connections=read_connections)


@pytest.mark.trio
async def test_a_restarted_server_fails_calls_in_flight_as_unavailable_then_serves_again(
    pg_url: str, pg_server: PgServer
) -> None:
    db = _database(pg_url, 1)
    await db.open()
    try:
        await db.write(_insert("before"))
        pg_server.stop("fast")
        try:
            with pytest.raises(StoreUnavailable, match="retry"):
                await db.write(_insert("down"))
            with pytest.raises(StoreUnavailable):
                await db.read(_keys)
        finally:
            pg_server.start()
        for _ in range(100):  # the threads reconnect before their next batch
            try:
                await db.write(_insert("after"))
                break
            except StoreUnavailable:
                await trio.sleep(0.05)
        assert await db.read(_keys) == ["after", "before"]
    finally:
        await db.close()


@pytest.mark.trio
async def test_a_server_that_is_not_there_is_named_without_its_password() -> None:
    url = "postgresql://reverie:s3cret@127.0.0.1:1/memory?connect_timeout=2"
    db = _database(url)
    with pytest.raises(StoreUnavailable) as caught:
        await db.open()
    assert "s3cret" not in str(caught.value)
    assert "cannot connect to the database postgresql://reverie@127.0.0.1:1/memory" in str(
        caught.value
    )


@pytest.mark.trio
async def test_a_write_rolled_back_by_a_deadlock_is_run_again_before_its_caller_hears(
    pg_url: str,
) -> None:
    """The write locks x then y, another transaction y then x: Postgres ends the write's
    transaction (its deadlock_timeout is the shorter), the daemon runs it again."""
    db = _database(pg_url, 1)
    await db.open()
    await db.write_many([_insert("x"), _insert("y")])
    holds_x, holds_y, tries = threading.Event(), threading.Event(), []

    def x_then_y(tx: Tx) -> str:
        tries.append(1)
        assert holds_y.wait(30)
        tx.conn.execute("UPDATE meta SET value = '2' WHERE key = 'x'")
        holds_x.set()
        tx.conn.execute("UPDATE meta SET value = '2' WHERE key = 'y'")
        return "written"

    def y_then_x() -> None:
        with psycopg.connect(pg_url) as other:
            other.execute("SET deadlock_timeout = '60s'")  # the write's backend detects it
            other.execute("UPDATE meta SET value = '3' WHERE key = 'y'")
            holds_y.set()
            assert holds_x.wait(30)
            other.execute("UPDATE meta SET value = '3' WHERE key = 'x'")  # a deadlock
            other.commit()

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(trio.to_thread.run_sync, y_then_x)
            assert await db.write(x_then_y) == "written"
        assert len(tries) >= 2  # more if the retry took x again before the other had it
    finally:
        await db.close()


@pytest.mark.trio
async def test_each_daemons_writer_counts_the_words_stats_into_a_shard_of_its_own(
    pg_url: str,
) -> None:
    """Two writers sharing a stats row wait for each other's commit there while each
    holds session rows: a deadlock (``message_text``)."""
    first, second = _database(pg_url, 1), _database(pg_url, 1)
    await first.open()
    await second.open()

    def append(name: str) -> Any:
        def write(tx: Tx) -> None:
            journal.append_requests(
                tx.conn,
                SessionRecord(name=name, scope=f"session/{name}", created=1.0),
                [[NewMessage(id="1", role="user", content="amber light", ts=1.0, tokens=2)]],
            )

        return write

    def stats(tx: Tx) -> list[tuple[int, int]]:
        return tx.conn.execute(
            "SELECT shard, rows FROM message_words_stats WHERE rows > 0 ORDER BY shard"
        ).fetchall()

    try:
        await first.write(append("a"))
        await second.write(append("b"))
        assert await first.read(stats) == [(16, 1), (17, 1)]
    finally:
        await first.close()
        await second.close()
    # a closed writer's shard is free again, once the server has ended its session (in its own
    # time, after the client closed): the third takes the first of them
    with psycopg.connect(pg_url, autocommit=True) as conn:
        for _ in range(200):
            held = conn.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database ="
                " (SELECT oid FROM pg_database WHERE datname = current_database())"
            )
            if held.fetchone() == (0,):
                break
            await trio.sleep(0.05)
    third = _database(pg_url, 1)
    await third.open()
    try:
        await third.write(append("c"))
        assert await third.read(stats) == [(16, 2), (17, 1)]
    finally:
        await third.close()


@pytest.mark.trio
@pytest.mark.parametrize(
    "url",
    [
        "postgresql://reverie:s3cret@[db/memory",  # an unclosed IPv6 bracket
        "postgresql://reverie:s3cret@db/memory?no_such_option=1",
    ],
)
async def test_a_malformed_store_url_is_a_config_error_without_its_password(url: str) -> None:
    with pytest.raises(ConfigError, match="is not a PostgreSQL URL libpq accepts") as caught:
        await _database(url).open()
    assert "s3cret" not in str(caught.value)
