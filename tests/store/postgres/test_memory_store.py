"""Each scope's memory and history as rows: the file engine's behaviour, on a real PostgreSQL.

Most cases run on both engines (``engine``: the Markdown tree under tmp_path,
or the Postgres store on a database of its own), which is what shows they
mean the same; the parity test compares their text byte for byte.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
import trio

from reverie.config import InvalidArgument
from reverie.store import ForgetJob, HistoryEntry
from reverie.store.files.memory_files import MemoryFiles, encode_scope
from reverie.store.files.memory_store import FileMemoryStore
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.memory_rows import KEPT_VERSIONS, newest_memory, write_consolidation
from reverie.store.postgres.memory_store import MemoryStore
from reverie.store.postgres.schema import migrate
from tests.checks import poll
from tests.store.test_memory_files import DAY
from tests.store.test_memory_files import entry as markdown_entry

Store = FileMemoryStore | MemoryStore
SCOPE = "user/alice"


def _migrated(url: str) -> str:
    with psycopg.connect(url, autocommit=True) as conn:
        migrate(conn)
    return url


@contextlib.asynccontextmanager
async def postgres_store(url: str) -> AsyncIterator[MemoryStore]:
    db = PostgresDatabase(_migrated(url), read_connections=2)
    await db.open()
    try:
        yield MemoryStore(db)
    finally:
        await db.close()


@pytest.fixture
async def pg_store(pg_url: str) -> AsyncIterator[MemoryStore]:
    async with postgres_store(pg_url) as store:
        yield store


@pytest.fixture(params=["files", "postgres"])
async def engine(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "files":
        yield FileMemoryStore(MemoryFiles(tmp_path / "memory"))
        return
    async with postgres_store(request.getfixturevalue("pg_url")) as store:
        yield store


async def history_days(store: Store, scope: str) -> dict[str, str]:
    """Each day's history text: the file engine's day files, or the rows rebuilt."""
    if isinstance(store, MemoryStore):
        return await store.history_days(scope)
    history = store.root / encode_scope(scope) / "history"
    return {p.stem: p.read_bytes().decode() for p in sorted(history.glob("*.md"))}


def entry(n: int, *, scope: str = SCOPE, **kw: Any) -> HistoryEntry:
    """The file engine tests' entry ``n``, of Alice's session in ``scope``."""
    return markdown_entry(n, scope=scope, **{"session": "cli:alice", **kw})


def fact(text: str, *sessions: str) -> str:
    sources = ",".join(f'"{s}":["m1"]' for s in sessions)
    return f"- [2026-11-18] {text} <!-- from {{{sources}}} -->\n"


async def consolidate(store: Store, e: HistoryEntry, memory: str) -> str:
    return await store.write_consolidation(e, memory, await store.read_memory(e.scope))


@pytest.mark.trio
async def test_memory_text_comes_back_byte_for_byte(engine: Store) -> None:
    assert await engine.read_memory(SCOPE) == ""
    text = "# Memory\n\n- fact one é 🧠\r\n- trailing spaces   \n\n\n- no newline"
    await engine.write_memory(SCOPE, text)
    assert await engine.read_memory(SCOPE) == text
    await engine.write_memory(SCOPE, "")
    assert await engine.read_memory(SCOPE) == ""
    assert await engine.scopes() == [SCOPE]


@pytest.mark.trio
async def test_entries_come_back_by_end_time_and_the_newest_limit(engine: Store) -> None:
    for e in (entry(2, ts=DAY + 86400), entry(1), entry(3, ts=DAY + 86400 + 600)):
        assert await consolidate(engine, e, f"- after {e.id}\n") == "written"
    assert [e.id for e in await engine.entries(SCOPE)] == ["ep_job1", "ep_job2", "ep_job3"]
    assert [e.id for e in await engine.entries(SCOPE, limit=2)] == ["ep_job2", "ep_job3"]
    assert await engine.entries(SCOPE) == [
        entry(1),
        entry(2, ts=DAY + 86400),
        entry(3, ts=DAY + 86400 + 600),
    ]
    assert await engine.entries("other") == []
    assert await engine.has_entry(SCOPE, "ep_job2") and not await engine.has_entry(
        "other", "ep_job2"
    )


@pytest.mark.trio
async def test_a_replayed_consolidation_is_present_and_a_stale_one_moved(engine: Store) -> None:
    assert await engine.write_consolidation(entry(1), "- one\n", "") == "written"
    days = await history_days(engine, SCOPE)
    # The replay of the same job, even with a later end (another day), changes nothing.
    assert await engine.write_consolidation(entry(1), "- other\n", "- one\n") == "present"
    assert await engine.write_consolidation(entry(1, ts=DAY + 3 * 86400), "- x\n", "") == "present"
    # Computed from a memory that has changed since: refused, nothing written.
    assert await engine.write_consolidation(entry(2), "- two\n", "") == "moved"
    assert await engine.read_memory(SCOPE) == "- one\n"
    assert not await engine.has_entry(SCOPE, "ep_job2")
    assert await history_days(engine, SCOPE) == days
    assert await engine.write_consolidation(entry(2), "- one\n- two\n", "- one\n") == "written"
    assert await engine.read_memory(SCOPE) == "- one\n- two\n"


@pytest.mark.trio
async def test_concurrent_consolidations_from_one_memory_write_one_and_lose_nothing(
    engine: Store,
) -> None:
    outcomes: list[str] = []

    async def one(n: int) -> None:
        outcomes.append(await engine.write_consolidation(entry(n), f"- {n}\n", ""))

    async with trio.open_nursery() as nursery:
        for n in range(8):
            nursery.start_soon(one, n)
    assert sorted(outcomes) == ["moved"] * 7 + ["written"]
    (written,) = await engine.entries(SCOPE)
    assert await engine.read_memory(SCOPE) == f"- {written.id.removeprefix('ep_job')}\n"


@pytest.mark.trio
async def test_forget_a_session_in_a_shared_scope_keeps_what_others_support(
    engine: Store,
) -> None:
    memory = fact("Alice lives in Lisbon.", "cli:alice", "cli:ann") + fact(
        "Alice has a dog.", "cli:alice"
    )
    await engine.write_consolidation(entry(1), memory, "")
    await engine.write_consolidation(entry(2, session="cli:ann"), memory, memory)
    await engine.write_consolidation(entry(3), memory + "- Hand-written\n", memory)

    assert (
        await engine.forget(ForgetJob(scope=SCOPE, session="cli:alice")) == 3
    )  # 2 episodes, 1 fact

    assert [e.id for e in await engine.entries(SCOPE)] == ["ep_job2"]
    assert await engine.read_memory(SCOPE) == (
        "# Memory\n\n"
        '- [2026-11-18] Alice lives in Lisbon. <!-- from {"cli:ann":["m1"]} -->\n- Hand-written\n'
    )
    assert await engine.forget(ForgetJob(scope=SCOPE, session="cli:alice")) == 0


@pytest.mark.trio
async def test_forget_a_fact_takes_it_from_memory_and_every_episode(engine: Store) -> None:
    await engine.write_consolidation(entry(1), fact("Alice lives in Porto.", "cli:alice"), "")
    moved = fact("Alice lives in Lisbon.", "cli:alice")
    retired = entry(2, facts=["Alice lives in Lisbon"], retired=["Alice lives in Porto"])
    await consolidate(engine, retired, moved)

    base = await engine.read_memory(SCOPE)
    assert await engine.forget(ForgetJob(scope=SCOPE, fact="alice LIVES in lisbon!")) == 3
    # A consolidation computed before the forget would bring the fact back: refused.
    assert await engine.write_consolidation(entry(3), base, base) == "moved"

    first, second = await engine.entries(SCOPE)
    assert first.facts == ["Alice likes number 1"] and second.facts == []
    assert second.retired == ["Alice lives in Porto"]
    assert await engine.read_memory(SCOPE) == ""
    assert await engine.forget(ForgetJob(scope=SCOPE, fact="Alice lives in Lisbon")) == 0


@pytest.mark.trio
async def test_forget_of_a_sessions_own_scope_takes_it_whole(engine: Store) -> None:
    own = "session/cli:alice"
    await engine.write_consolidation(entry(1, scope=own), "- one\n", "")
    await engine.write_consolidation(entry(1, scope="kept"), "- kept\n", "")
    assert await engine.forget(ForgetJob(scope=own, session="cli:alice")) == 0
    assert await engine.scopes() == ["kept"]
    assert await engine.read_memory(own) == "" and await engine.entries(own) == []
    assert await history_days(engine, own) == {}


@pytest.mark.trio
async def test_unreadable_source_comments_are_problems(engine: Store) -> None:
    broken = '- Alice works at Acme. <!-- from {"cli:alice":[broken]} -->\n- Fine\n'
    await engine.write_memory(SCOPE, broken)
    (problem,) = await engine.problems(SCOPE)
    assert problem.startswith("MEMORY.md: unreadable sources, kept as text:")
    await engine.write_memory(SCOPE, "- Fine\n")
    assert await engine.problems(SCOPE) == []


@pytest.mark.trio
@pytest.mark.parametrize(
    "scope", ["project/x/agent/y", "../x", ".hidden", "ünïcødé 会话 🧠", "%2F"]
)
async def test_any_scope_is_kept_and_listed_as_itself(engine: Store, scope: str) -> None:
    await engine.write_consolidation(entry(1, scope=scope), "- fact\n", "")
    await engine.write_memory("a", "- other\n")
    assert await engine.scopes() == sorted(["a", scope])
    assert [e.scope for e in await engine.entries(scope)] == [scope]


@pytest.mark.trio
async def test_bad_text_is_refused_and_the_old_memory_kept(engine: Store) -> None:
    await engine.write_memory(SCOPE, "old")
    with pytest.raises(UnicodeEncodeError):
        await engine.write_memory(SCOPE, "bad \udc80 surrogate")
    with pytest.raises(InvalidArgument, match="scope must not be empty"):
        await engine.read_memory("")
    assert await engine.read_memory(SCOPE) == "old"


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


@pytest.mark.trio
async def test_both_engines_write_the_same_text_byte_for_byte(
    tmp_path: Path, pg_store: MemoryStore
) -> None:
    files = FileMemoryStore(MemoryFiles(tmp_path / "memory"))
    memory = fact("Alice lives in Lisbon.", "cli:alice", "cli:ann")
    steps: list[tuple[HistoryEntry, str]] = [
        (entry(3, ts=DAY + 86400, summary=""), memory),
        (entry(1), memory + fact("Alice has a dog.", "cli:alice")),
        (entry(2, ts=DAY + 30, session="cli:ann", facts=[]), memory + "- Hand-written é\r\n"),
        (entry(4, ts=DAY + 86400 + 9, retired=["Alice lives in Porto"], raw=True), memory),
        (entry(5, ts=DAY + 2 * 86400, id="ep <odd> -->\nid"), memory + "\n\n"),
    ]
    for store in (files, pg_store):
        for e, text in steps:
            assert await consolidate(store, e, text) == "written"
        await store.write_memory("user/ann", "# Memory\n\n- Ann swims\n")
        assert await store.forget(ForgetJob(scope=SCOPE, fact="Alice likes number 1")) == 1
        assert await store.forget(ForgetJob(scope=SCOPE, session="cli:ann")) == 1

    for scope in (SCOPE, "user/ann"):
        assert await pg_store.read_memory(scope) == await files.read_memory(scope)
        assert await pg_store.entries(scope) == await files.entries(scope)
        assert await history_days(pg_store, scope) == await history_days(files, scope)
    assert len(await history_days(files, SCOPE)) == 3
    assert await pg_store.scopes() == await files.scopes() == sorted([SCOPE, "user/ann"])
