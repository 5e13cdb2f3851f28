"""Jobs any member runs: one per scope, leased, applied once, never for a forgotten session."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import trio

from reverie.store import HistoryEntry, Job, MessageRecord, Tx, job_entry
from reverie.store.postgres.cluster import PostgresCluster
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.job_leases import PostgresJobLeases
from reverie.store.postgres.memory_rows import entries, newest_memory

TTL = 5.0
LEASE = 60.0


class Member:
    """One member's database, cluster row and jobs."""

    def __init__(self, url: str, name: str) -> None:
        self.db = PostgresDatabase(url, member=name, read_connections=1)
        self.cluster = PostgresCluster(self.db, name, TTL, LEASE)
        self.jobs = PostgresJobLeases(self.db, TTL, LEASE)

    async def start(self) -> Member:
        await self.db.open()
        await self.cluster.join("worker", "")
        return self

    async def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        def run(t: Tx) -> list[tuple[Any, ...]]:
            cur = t.conn.execute(query, params)
            return cur.fetchall() if cur.description else []

        return await self.db.write(run)


@pytest.fixture
async def members(pg_url: str) -> AsyncIterator[tuple[Member, Member]]:
    a = await Member(pg_url, "host/1/a").start()
    b = await Member(pg_url, "host/2/b").start()
    yield a, b
    await a.db.close()
    await b.db.close()


async def _session(m: Member, name: str, scope: str, turns: int, active: float = 0.0) -> None:
    """A session of ``turns`` user/assistant pairs of 10 tokens each, none consolidated."""
    await m.sql(
        "INSERT INTO sessions (name, scope, created, last_seq, tail_tokens, tail_count,"
        " last_active) VALUES (%s, %s, 0, %s, %s, %s, %s)",
        name,
        scope,
        2 * turns,
        20 * turns,
        2 * turns,
        active,
    )
    for seq in range(1, 2 * turns + 1):
        role = "user" if seq % 2 else "assistant"
        await m.sql(
            "INSERT INTO messages (session, seq, id, role, content, ts, tokens)"
            " VALUES (%s, %s, %s, %s, %s, %s, 10)",
            name,
            seq,
            f"{name}-{seq}",
            role,
            f"message {seq}",
            float(seq),
        )


def _all(tail: list[MessageRecord]) -> list[MessageRecord]:
    return tail


async def _leased(m: Member, session: str, turns: int) -> tuple[Job, list[MessageRecord]]:
    """A session of ``turns`` turns in scope "team", and its job leased to ``m``."""
    await _session(m, session, "team", turns)
    leased = await m.jobs.lease(session, "default", _all, 1.0)
    assert leased is not None
    return leased


def _entry(job: Job, turns: list[MessageRecord]) -> HistoryEntry:
    return job_entry(job, turns, "what was said", [])


async def _history(m: Member, scope: str) -> list[HistoryEntry]:
    return await m.db.read(lambda t: entries(t.conn, scope))


@pytest.mark.trio
async def test_one_job_per_scope_across_members_and_its_apply_moves_the_cursor_once(
    members: tuple[Member, Member],
) -> None:
    a, b = members
    job, turns = await _leased(a, "s1", 2)
    await _session(a, "s2", "team", 1)
    assert [t.seq for t in turns] == [1, 2, 3, 4] and job.tokens == 40
    assert await b.jobs.lease("s1", "default", _all, 1.0) is None  # a holds it
    assert await b.jobs.lease("s2", "default", _all, 1.0) is None  # same scope: waits
    entry = _entry(job, turns)
    assert await b.jobs.finish(job, "done", entry, "# Memory\n", "", 2.0) == ("gone", None)

    outcome, row = await a.jobs.finish(job, "done", entry, "# Memory\n", "", 2.0)
    assert outcome == "applied" and row is not None
    assert (row.cursor_seq, row.tail_tokens, row.tail_count) == (4, 0, 0)
    assert await a.jobs.finish(job, "done", entry, "# Memory\n", "", 2.0) == ("gone", None)
    assert [e.id for e in await _history(a, "team")] == [job.entry_id]
    assert (await a.db.read(lambda t: newest_memory(t.conn, "team"))) == (1, "# Memory\n")
    # The scope is free again: the other session of the scope gets its job.
    assert await b.jobs.lease("s2", "default", _all, 3.0) is not None


@pytest.mark.trio
async def test_an_apply_on_moved_memory_writes_nothing_and_keeps_the_job(
    members: tuple[Member, Member],
) -> None:
    a, _ = members
    job, turns = await _leased(a, "s1", 1)
    await a.sql(
        "INSERT INTO memory_versions (scope, version, body, created) VALUES ('team', 1, 'x', 0)"
    )
    assert await a.jobs.finish(job, "done", _entry(job, turns), "new", "", 2.0) == ("moved", None)
    assert await _history(a, "team") == []
    assert await a.sql("SELECT state FROM jobs") == [("running",)]
    outcome, _ = await a.jobs.finish(job, "done", _entry(job, turns), "new", "x", 2.0)
    assert outcome == "applied"


@pytest.mark.trio
async def test_a_dead_members_job_is_reclaimed_whole_and_its_late_apply_writes_nothing(
    pg_url: str, members: tuple[Member, Member]
) -> None:
    _, b = members
    c = await Member(pg_url, "host/3/c").start()
    try:
        job, turns = await _leased(c, "s1", 2)
        await c.db.close()  # what a kill -9 does to its connections: dead once they end
        with trio.fail_after(10):  # the server ends a closed connection's process soon after
            while await b.jobs.due(
                budget=0, hard=10**9, idle_after=1e12, max_delay=1e9, limit=9
            ) != ["s1"]:
                await trio.sleep(0.05)
        again = await b.jobs.lease("s1", "default", lambda tail: tail[:1], 2.0)
        assert again is not None and again[0].id == job.id  # the same job, the same turns
        assert [t.seq for t in again[1]] == [t.seq for t in turns]
        assert await b.sql("SELECT lease_owner FROM jobs") == [("host/2/b",)]

        c = await Member(pg_url, "host/3/c").start()  # it wakes up: its apply is fenced
        late = await c.jobs.finish(job, "done", _entry(job, turns), "late", "", 3.0)
        assert late == ("gone", None)
        assert await _history(b, "team") == []
        outcome, _ = await b.jobs.finish(job, "done", _entry(job, turns), "new", "", 3.0)
        assert outcome == "applied"
        assert [e.id for e in await _history(b, "team")] == [job.entry_id]
    finally:
        await c.db.close()


@pytest.mark.trio
async def test_a_forgotten_sessions_job_is_gone_and_its_result_is_not_written(
    members: tuple[Member, Member],
) -> None:
    a, b = members
    job, turns = await _leased(a, "s1", 1)
    await b.db.write(lambda t: t.delete_session("s1", "team"))  # a forget through b
    assert await a.jobs.finish(job, "done", _entry(job, turns), "new", "", 2.0) == ("gone", None)
    assert await _history(a, "team") == []
    assert await a.db.read(lambda t: newest_memory(t.conn, "team")) == (0, "")


@pytest.mark.trio
async def test_sessions_due_are_idle_over_budget_with_no_live_job_in_their_scope(
    members: tuple[Member, Member],
) -> None:
    a, b = members
    await _session(a, "idle", "s/idle", 2)  # last active at the epoch: long idle
    await _session(a, "busy", "s/busy", 2, active=1e12)  # active "now" (far future)
    await _session(a, "small", "s/small", 1)
    await _session(a, "held", "s/idle", 2)  # shares the scope of "idle"

    def due() -> Any:
        return b.jobs.due(budget=30, hard=10**9, idle_after=10.0, max_delay=1e9, limit=9)

    assert sorted(await due()) == ["held", "idle"]
    assert await a.jobs.lease("idle", "default", _all, 1.0) is not None
    assert await due() == []  # its scope has a job on a's live lease
    # Over hard, its oldest message long waiting, though active: due; "idle" and "held"
    # are over hard too, but their scope's job is on a live lease.
    late = await b.jobs.due(budget=30, hard=30, idle_after=1e10, max_delay=1.0, limit=9)
    assert late == ["busy"]


@pytest.mark.trio
async def test_a_posted_job_is_leased_to_none_and_taken_whole_by_the_first_member_to_scan(
    members: tuple[Member, Member],
) -> None:
    """What a daemon that leaves consolidation to the workers posts (issue 58)."""
    a, b = members
    await _session(a, "s1", "team", 2, active=1e12)  # active "now": never due by idleness
    await _session(a, "s2", "team", 1)
    job = await a.jobs.post("s1", "default", lambda tail: tail[:2], 1.0)
    assert job is not None and (job.first_seq, job.last_seq) == (1, 2)
    assert await a.jobs.state(job.id) == ("running", False)
    assert await a.jobs.post("s1", "default", _all, 1.5) == job  # posted twice: the same job
    assert await a.jobs.post("s2", "default", _all, 1.5) is None  # one job per scope
    assert await a.jobs.post("gone", "default", _all, 1.5) is None

    def due() -> Any:
        return b.jobs.due(budget=10**9, hard=10**9, idle_after=1e12, max_delay=1e9, limit=9)

    assert await due() == ["s1"]
    taken = await b.jobs.lease("s1", "default", _all, 2.0)
    assert taken is not None and taken[0] == job and [t.seq for t in taken[1]] == [1, 2]
    assert await a.jobs.state(job.id) == ("running", True)
    assert await due() == []
    outcome, _ = await b.jobs.finish(job, "done", _entry(job, taken[1]), "new", "", 3.0)
    assert outcome == "applied"
    assert await a.jobs.state(job.id) == ("done", False)
    assert await a.sql("SELECT lease_owner FROM jobs") == [("host/2/b",)]
