"""Members of one Postgres store: beats, who is alive, duties, and what a dead member frees."""

from __future__ import annotations

import os

import psycopg
import pytest

from reverie.store import Tx
from reverie.store.postgres.cluster import PostgresCluster
from reverie.store.postgres.db import PostgresDatabase
from tests.checks import poll

TTL = 5.0


async def _member(url: str, name: str) -> tuple[PostgresDatabase, PostgresCluster]:
    db = PostgresDatabase(url, member=name, read_connections=1)
    await db.open()
    return db, PostgresCluster(db, name, TTL, 4 * TTL)


def _own(session: str, owner: str) -> object:
    def write(t: Tx) -> None:
        t.conn.execute(
            "INSERT INTO sessions (name, scope, created, last_active, owner, epoch)"
            " VALUES (%s, 'user/x', 0, 0, %s, 1)",
            (session, owner),
        )

    return write


@pytest.mark.trio
async def test_a_killed_members_connection_makes_it_dead_and_frees_its_sessions(
    pg_url: str,
) -> None:
    a_db, a = await _member(pg_url, "host/1/a")
    b_db, b = await _member(pg_url, "host/2/b")
    try:
        await a.join("daemon", "/run/a.sock")
        await b.join("worker", "")
        await a_db.write(_own("s1", "host/1/a"))  # type: ignore[arg-type]
        seen = {m.id: m for m in await b.members()}
        assert seen["host/1/a"].alive and seen["host/1/a"].sessions == 1
        assert seen["host/1/a"].serves == "/run/a.sock" and seen["host/2/b"].role == "worker"
        assert seen["host/1/a"].pid == os.getpid()

        (pid,) = await b_db.read(
            lambda t: t.conn.execute(
                "SELECT backend_pid FROM members WHERE id = 'host/1/a'"
            ).fetchone()
        )
        await a_db.close()  # what a kill -9 does to its connections
        with psycopg.connect(pg_url, autocommit=True) as watcher:  # the server ends the backend
            gone = "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = %s)"
            poll(lambda: watcher.execute(gone, (pid,)).fetchone() == (True,), timeout=TTL / 2)
        assert await b.beat() == 1  # its session freed at once, not after the TTL
        seen = {m.id: m for m in await b.members()}
        assert not seen["host/1/a"].alive and seen["host/1/a"].sessions == 0
        assert seen["host/2/b"].alive
    finally:
        await b_db.close()
        await a_db.close()


@pytest.mark.trio
async def test_a_duty_is_held_by_one_live_member_and_passes_when_it_leaves(pg_url: str) -> None:
    a_db, a = await _member(pg_url, "host/1/a")
    b_db, b = await _member(pg_url, "host/2/b")
    try:
        await a.join("daemon", "")
        await b.join("daemon", "")
        assert await a.take_duty("sweep", 30)
        assert not await b.take_duty("sweep", 30)
        assert await a.take_duty("sweep", 30)  # renewed by its holder
        await a_db.write(_own("s1", "host/1/a"))  # type: ignore[arg-type]
        await a.leave()
        assert await b.take_duty("sweep", 30)
        assert [m.id for m in await b.members()] == ["host/2/b"]
        owner = await b_db.read(
            lambda t: t.conn.execute("SELECT owner FROM sessions WHERE name = 's1'").fetchone()
        )
        assert owner == (None,)
    finally:
        await b_db.close()
        await a_db.close()
