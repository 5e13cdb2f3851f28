"""A scope's episode and fact docs written by one member while another forgets (issue 57).

``replace_scope`` reads a scope's memory and history, embeds its docs
outside any transaction, then writes them; the index's write lock is one
daemon's, so another member's forget (its memory rows, then its index
purge) can land in between. The interleavings are forced here at the
store level, on two databases' connections to one PostgreSQL, with no
daemon: the forget run to its end in that window (the embedder's call is
there, every time), and the forget started while the write's transaction
is open. What the forget removed must not be in the index afterwards;
what it kept must be.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import psycopg
import pytest
import trio

from reverie.store import (
    ForgetJob,
    HistoryEntry,
    LocalEmbedder,
    PrimedEmbedder,
    memory_docs,
)
from reverie.store.postgres.db import PostgresDatabase
from reverie.store.postgres.index import PostgresSearchIndex
from reverie.store.postgres.index_schema import replace_scope_rows
from reverie.store.postgres.memory_rows import forget, scope_memory
from reverie.store.postgres.memory_store import MemoryStore

from .index_fixtures import (
    opened_db,
    pg_db,  # noqa: F401  (the ``db`` fixture)
    primed_embedder,  # noqa: F401  (the ``primed`` fixture)
    waits_on_lock,
)

pytestmark = pytest.mark.trio

SHARED = "project/x"
#: The forgotten session's words (its episode and its fact), and the kept one's.
GONE, KEPT = "beekeeping", "cycling"


def _entry(n: int, session: str, scope: str, topic: str) -> HistoryEntry:
    return HistoryEntry(
        id=f"ep_{session}_{n}",
        scope=scope,
        session=session,
        start_ts=1_795_000_000.0 + 100 * n,
        end_ts=1_795_000_060.0 + 100 * n,
        message_ids=[f"{session}-m{n}"],
        first_seq=1,
        last_seq=2,
        summary=f"{session} talked for a while.",  # a fact's forget keeps the summary
        facts=[f"{session} loves {topic}"],
    )


def _fact(session: str, topic: str) -> str:
    return (
        f'- [2026-11-18] {session} loves {topic} <!-- from {{"{session}":["{session}-m1"]}} -->\n'
    )


@dataclass(frozen=True)
class Case:
    """What is consolidated, what the other member forgets, and how its index purges it."""

    scope: str
    sessions: tuple[str, ...]  # consolidated into ``scope`` in order: s1 about GONE, s2 KEPT
    job: ForgetJob
    entries: int | None  # the newest entries ``replace_scope`` re-adds (None: all)


CASES = {
    "own scope": Case("session/s1", ("s1",), ForgetJob(scope="session/s1", session="s1"), None),
    "session of a shared scope": Case(
        SHARED, ("s1", "s2"), ForgetJob(scope=SHARED, session="s1"), 8
    ),
    "fact of a shared scope": Case(
        SHARED, ("s1", "s2"), ForgetJob(scope=SHARED, fact=f"s1 loves {GONE}"), None
    ),
}


async def _consolidate(memory: MemoryStore, case: Case) -> None:
    """Each session's episode and fact, written as a consolidation writes them."""
    base, text = "", "# Memory\n\n"
    for n, (session, topic) in enumerate(zip(case.sessions, (GONE, KEPT), strict=False), 1):
        base, text = text if n > 1 else base, text + _fact(session, topic)
        entry = _entry(n, session, case.scope, topic)
        assert await memory.write_consolidation(entry, text, base) == "written"


@dataclass
class Member:
    """Another daemon on the same database: its memory and its index."""

    memory: MemoryStore
    index: PostgresSearchIndex
    forgot: int = 0

    async def forget(self, job: ForgetJob) -> None:
        """``job`` as its forget runs it: the memory rows (committed), then the index
        purge (``Indexer.purge``)."""
        self.forgot += 1
        await self.memory.forget(job)
        if job.session is not None:
            await self.index.forget_session(job.session, job.scope)
        if job.session is None or job.scope != f"session/{job.session}":
            await self.index.replace_scope(self.memory, job.scope, None)


@pytest.fixture
async def other(db: PostgresDatabase, primed: PrimedEmbedder) -> AsyncIterator[Member]:
    async with opened_db(db.url) as its_db:
        index = PostgresSearchIndex(its_db, primed)
        await index.open()
        yield Member(MemoryStore(its_db), index)


class _ForgetWhileEmbedding:
    """The real embedder; its first call runs ``then`` to its end first.

    ``replace_scope`` embeds after its read and before its write's
    transaction, so ``then`` lands in that window every time.
    """

    def __init__(self, real: LocalEmbedder, then: Callable[[], Awaitable[None]]) -> None:
        self.real, self.then, self.ran = real, then, False
        self.model_id, self.dimension = real.model_id, real.dimension

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        if not self.ran:
            self.ran = True
            trio.from_thread.run(self.then)
        return self.real.embed(texts)


@pytest.fixture
def racing(embedder: LocalEmbedder) -> Iterator[Callable[..., PrimedEmbedder]]:
    made: list[PrimedEmbedder] = []

    def make(then: Callable[[], Awaitable[None]]) -> PrimedEmbedder:
        made.append(PrimedEmbedder(_ForgetWhileEmbedding(embedder, then), workers=1))
        return made[-1]

    yield make
    for primed in made:
        primed.close()


async def _docs(db: PostgresDatabase) -> list[tuple[str, str, str]]:
    """Every doc's uid, session and text."""
    return await db.read(
        lambda t: t.conn.execute(
            "SELECT uid, session, text FROM index_docs ORDER BY uid"
        ).fetchall()
    )


def _left(docs: list[tuple[str, str, str]], case: Case) -> tuple[list[str], list[str]]:
    """The uids of the docs holding what ``case`` forgot, and of those holding what it kept."""
    forgotten = [u for u, s, t in docs if GONE in t or (case.job.session is not None and s == "s1")]
    return forgotten, [u for u, _, t in docs if KEPT in t]


@pytest.mark.parametrize("name", CASES)
async def test_a_forget_between_the_read_and_the_write_is_not_undone(
    name: str,
    db: PostgresDatabase,
    other: Member,
    racing: Callable[..., PrimedEmbedder],
) -> None:
    case = CASES[name]
    memory = MemoryStore(db)
    await _consolidate(memory, case)
    index = PostgresSearchIndex(db, racing(lambda: other.forget(case.job)))
    await index.open()
    await index.replace_scope(memory, case.scope, case.entries)
    assert other.forgot == 1  # in the window, once
    forgotten, kept = _left(await _docs(db), case)
    assert forgotten == [], await _docs(db)
    # What the forget kept is still indexed: the other session's episode and fact.
    assert len(kept) == (2 if len(case.sessions) > 1 else 0), await _docs(db)


async def test_a_forget_waits_for_a_scope_write_in_flight_and_leaves_nothing(
    db: PostgresDatabase, other: Member, primed: PrimedEmbedder
) -> None:
    case = CASES["own scope"]
    memory = MemoryStore(db)
    await _consolidate(memory, case)
    index = PostgresSearchIndex(db, primed)
    await index.open()
    read = await db.read(lambda t: scope_memory(t.conn, case.scope, None))
    rows = await index._rows(memory_docs(case.scope, *read))
    history: list[str] = []
    with psycopg.connect(db.url) as writer:
        assert replace_scope_rows(writer, index._table, case.scope, None, read, rows)
        history.append("scope write in flight")

        def forget_rows() -> None:
            with psycopg.connect(db.url, options="-c reverie.member=other") as conn:
                forget(conn, case.job)
                conn.commit()

        async with trio.open_nursery() as nursery:
            forgot = trio.Event()

            async def forget_then_purge() -> None:
                await trio.to_thread.run_sync(forget_rows)
                history.append("forget committed")
                await other.index.forget_session("s1", case.scope)
                history.append("purge done")
                forgot.set()

            nursery.start_soon(forget_then_purge)
            with trio.fail_after(60):  # the forget is seen waiting on the write's locks
                while not await trio.to_thread.run_sync(
                    waits_on_lock, db.url, "DELETE FROM memory_versions"
                ):
                    assert not forgot.is_set(), history  # it went through them
                    await trio.sleep(0.01)
            history.append("forget waiting")
            writer.commit()
            history.append("scope write committed")
    assert history[-1] == "purge done", history
    assert await _docs(db) == [], history
