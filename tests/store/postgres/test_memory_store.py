"""Each scope's memory and history as rows on PostgreSQL: what only this engine does.

Its versions (a forget keeps only the newest), NULs refused, and two
writers racing on one version; what every engine does is in
tests/store/engines/test_memory_store.py.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator

import psycopg
import pytest

from reverie.config import InvalidArgument
from reverie.store import ForgetJob
from reverie.store.postgres.memory_rows import KEPT_VERSIONS, newest_memory, write_consolidation
from reverie.store.postgres.memory_store import MemoryStore
from reverie.store.postgres.schema import migrate
from tests.checks import poll
from tests.store.engines.engine import postgres_memory
from tests.store.engines.test_memory_store import SCOPE, entry, fact


def _migrated(url: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    return url


@pytest.fixture
async def pg_store(pg_url: str) -> AsyncIterator[MemoryStore]:
    async with postgres_memory(pg_url) as store:
        yield store


@pytest.mark.trio
async def test_a_nul_character_is_refused_with_a_clear_error(pg_store: MemoryStore) -> None:
    await pg_store.write_memory(SCOPE, "old")
    with pytest.raises(InvalidArgument, match=r"memory of scope 'user/alice' contains a NUL"):
        await pg_store.write_memory(SCOPE, "a\x00b")
    with pytest.raises(InvalidArgument, match=r"history entry 'ep_job1' contains a NUL"):
        await pg_store.write_consolidation(entry(1, summary="x\x00y"), "new", "old")
    with pytest.raises(InvalidArgument, match=r"scope contains a NUL"):
        await pg_store.read_memory("a\x00b")
    assert await pg_store.read_memory(SCOPE) == "old"
    assert not await pg_store.has_entry(SCOPE, "ep_job1")


def _versions(url: str, scope: str) -> list[tuple[int, str]]:
    with psycopg.connect(url) as conn:
        return conn.execute(
            "SELECT version, body FROM memory_versions WHERE scope = %s ORDER BY version",
            (scope,),
        ).fetchall()


@pytest.mark.trio
async def test_each_write_is_a_version_and_a_forget_keeps_only_the_newest(
    pg_store: MemoryStore, pg_url: str
) -> None:
    for n in range(KEPT_VERSIONS + 3):
        await pg_store.write_memory(SCOPE, fact(f"Alice owns {n} cats.", "cli:alice"))
    versions = _versions(pg_url, SCOPE)
    assert [v for v, _ in versions] == list(range(4, KEPT_VERSIONS + 4))
    assert await pg_store.read_memory(SCOPE) == versions[-1][1]

    # The newest no longer holds the fact; older versions still do, and must not keep it.
    assert await pg_store.forget(ForgetJob(scope=SCOPE, fact="Alice owns 5 cats")) == 0
    assert _versions(pg_url, SCOPE) == [versions[-1]]
    assert await pg_store.forget(ForgetJob(scope=SCOPE, session="cli:alice")) == 1
    assert _versions(pg_url, SCOPE) == [(KEPT_VERSIONS + 4, "")]


def test_a_writer_that_read_a_version_another_writer_replaced_is_refused(pg_url: str) -> None:
    """Two daemons on one database: the second consolidation, computed from the same
    memory, waits on the first's uncommitted version, then finds it taken: "moved"."""
    url = _migrated(pg_url)
    with psycopg.connect(url) as first, psycopg.connect(url) as second:
        assert write_consolidation(first, entry(1), "- first\n", "") == "written"
        outcome: list[str] = []
        race = threading.Thread(
            target=lambda: outcome.append(write_consolidation(second, entry(2), "- second\n", ""))
        )
        race.start()
        with psycopg.connect(url, autocommit=True) as look:
            poll(
                lambda: (
                    look.execute(
                        "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = %s",
                        (second.info.backend_pid,),
                    ).fetchone()
                    == (True,)
                ),
                what="the second writer waiting on the first",
            )
        first.commit()
        race.join()
        assert outcome == ["moved"]
        second.commit()
        assert newest_memory(second, SCOPE) == (1, "- first\n")
