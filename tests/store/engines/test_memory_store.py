"""Each scope's memory and history on every engine: the same text back, the same outcomes.

``memory_store`` is the Markdown tree under tmp_path, then the PostgreSQL
rows on a database of their own; the parity test compares their text byte
for byte. What only PostgreSQL does (its versions, NULs, two writers racing)
is in tests/store/postgres/test_memory_store.py.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import trio

from reverie.config import InvalidArgument
from reverie.store import ForgetJob, HistoryEntry
from reverie.store.files.memory_files import MemoryFiles, encode_scope
from reverie.store.files.memory_store import FileMemoryStore
from reverie.store.postgres.memory_store import MemoryStore
from tests.store.test_memory_files import DAY
from tests.store.test_memory_files import entry as markdown_entry

from .engine import postgres_memory

Store = FileMemoryStore | MemoryStore
SCOPE = "user/alice"


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
async def test_memory_text_comes_back_byte_for_byte(memory_store: Store) -> None:
    assert await memory_store.read_memory(SCOPE) == ""
    text = "# Memory\n\n- fact one é 🧠\r\n- trailing spaces   \n\n\n- no newline"
    await memory_store.write_memory(SCOPE, text)
    assert await memory_store.read_memory(SCOPE) == text
    await memory_store.write_memory(SCOPE, "")
    assert await memory_store.read_memory(SCOPE) == ""
    assert await memory_store.scopes() == [SCOPE]


@pytest.mark.trio
async def test_entries_come_back_by_end_time_and_the_newest_limit(memory_store: Store) -> None:
    for e in (entry(2, ts=DAY + 86400), entry(1), entry(3, ts=DAY + 86400 + 600)):
        assert await consolidate(memory_store, e, f"- after {e.id}\n") == "written"
    assert [e.id for e in await memory_store.entries(SCOPE)] == ["ep_job1", "ep_job2", "ep_job3"]
    assert [e.id for e in await memory_store.entries(SCOPE, limit=2)] == ["ep_job2", "ep_job3"]
    assert await memory_store.entries(SCOPE) == [
        entry(1),
        entry(2, ts=DAY + 86400),
        entry(3, ts=DAY + 86400 + 600),
    ]
    assert await memory_store.entries("other") == []
    assert await memory_store.has_entry(SCOPE, "ep_job2") and not await memory_store.has_entry(
        "other", "ep_job2"
    )


@pytest.mark.trio
async def test_a_replayed_consolidation_is_present_and_a_stale_one_moved(
    memory_store: Store,
) -> None:
    assert await memory_store.write_consolidation(entry(1), "- one\n", "") == "written"
    days = await history_days(memory_store, SCOPE)
    # The replay of the same job, even with a later end (another day), changes nothing.
    assert await memory_store.write_consolidation(entry(1), "- other\n", "- one\n") == "present"
    assert (
        await memory_store.write_consolidation(entry(1, ts=DAY + 3 * 86400), "- x\n", "")
        == "present"
    )
    # Computed from a memory that has changed since: refused, nothing written.
    assert await memory_store.write_consolidation(entry(2), "- two\n", "") == "moved"
    assert await memory_store.read_memory(SCOPE) == "- one\n"
    assert not await memory_store.has_entry(SCOPE, "ep_job2")
    assert await history_days(memory_store, SCOPE) == days
    assert (
        await memory_store.write_consolidation(entry(2), "- one\n- two\n", "- one\n") == "written"
    )
    assert await memory_store.read_memory(SCOPE) == "- one\n- two\n"


@pytest.mark.trio
async def test_concurrent_consolidations_from_one_memory_write_one_and_lose_nothing(
    memory_store: Store,
) -> None:
    outcomes: list[str] = []

    async def one(n: int) -> None:
        outcomes.append(await memory_store.write_consolidation(entry(n), f"- {n}\n", ""))

    async with trio.open_nursery() as nursery:
        for n in range(8):
            nursery.start_soon(one, n)
    assert sorted(outcomes) == ["moved"] * 7 + ["written"]
    (written,) = await memory_store.entries(SCOPE)
    assert await memory_store.read_memory(SCOPE) == f"- {written.id.removeprefix('ep_job')}\n"


@pytest.mark.trio
async def test_forget_a_session_in_a_shared_scope_keeps_what_others_support(
    memory_store: Store,
) -> None:
    memory = fact("Alice lives in Lisbon.", "cli:alice", "cli:ann") + fact(
        "Alice has a dog.", "cli:alice"
    )
    await memory_store.write_consolidation(entry(1), memory, "")
    await memory_store.write_consolidation(entry(2, session="cli:ann"), memory, memory)
    await memory_store.write_consolidation(entry(3), memory + "- Hand-written\n", memory)

    assert (
        await memory_store.forget(ForgetJob(scope=SCOPE, session="cli:alice")) == 3
    )  # 2 episodes, 1 fact

    assert [e.id for e in await memory_store.entries(SCOPE)] == ["ep_job2"]
    assert await memory_store.read_memory(SCOPE) == (
        "# Memory\n\n"
        '- [2026-11-18] Alice lives in Lisbon. <!-- from {"cli:ann":["m1"]} -->\n- Hand-written\n'
    )
    assert await memory_store.forget(ForgetJob(scope=SCOPE, session="cli:alice")) == 0


@pytest.mark.trio
async def test_forget_a_fact_takes_it_from_memory_and_every_episode(memory_store: Store) -> None:
    await memory_store.write_consolidation(entry(1), fact("Alice lives in Porto.", "cli:alice"), "")
    moved = fact("Alice lives in Lisbon.", "cli:alice")
    retired = entry(2, facts=["Alice lives in Lisbon"], retired=["Alice lives in Porto"])
    await consolidate(memory_store, retired, moved)

    base = await memory_store.read_memory(SCOPE)
    assert await memory_store.forget(ForgetJob(scope=SCOPE, fact="alice LIVES in lisbon!")) == 3
    # A consolidation computed before the forget would bring the fact back: refused.
    assert await memory_store.write_consolidation(entry(3), base, base) == "moved"

    first, second = await memory_store.entries(SCOPE)
    assert first.facts == ["Alice likes number 1"] and second.facts == []
    assert second.retired == ["Alice lives in Porto"]
    assert await memory_store.read_memory(SCOPE) == ""
    assert await memory_store.forget(ForgetJob(scope=SCOPE, fact="Alice lives in Lisbon")) == 0


@pytest.mark.trio
async def test_forget_of_a_sessions_own_scope_takes_it_whole(memory_store: Store) -> None:
    own = "session/cli:alice"
    await memory_store.write_consolidation(entry(1, scope=own), "- one\n", "")
    await memory_store.write_consolidation(entry(1, scope="kept"), "- kept\n", "")
    assert await memory_store.forget(ForgetJob(scope=own, session="cli:alice")) == 0
    assert await memory_store.scopes() == ["kept"]
    assert await memory_store.read_memory(own) == "" and await memory_store.entries(own) == []
    assert await history_days(memory_store, own) == {}


@pytest.mark.trio
async def test_unreadable_source_comments_are_problems(memory_store: Store) -> None:
    broken = '- Alice works at Acme. <!-- from {"cli:alice":[broken]} -->\n- Fine\n'
    await memory_store.write_memory(SCOPE, broken)
    (problem,) = await memory_store.problems(SCOPE)
    assert problem.startswith("MEMORY.md: unreadable sources, kept as text:")
    await memory_store.write_memory(SCOPE, "- Fine\n")
    assert await memory_store.problems(SCOPE) == []


@pytest.mark.trio
@pytest.mark.parametrize(
    "scope", ["project/x/agent/y", "../x", ".hidden", "ünïcødé 会话 🧠", "%2F"]
)
async def test_any_scope_is_kept_and_listed_as_itself(memory_store: Store, scope: str) -> None:
    await memory_store.write_consolidation(entry(1, scope=scope), "- fact\n", "")
    await memory_store.write_memory("a", "- other\n")
    assert await memory_store.scopes() == sorted(["a", scope])
    assert [e.scope for e in await memory_store.entries(scope)] == [scope]


@pytest.mark.trio
async def test_bad_text_is_refused_and_the_old_memory_kept(memory_store: Store) -> None:
    await memory_store.write_memory(SCOPE, "old")
    with pytest.raises(UnicodeEncodeError):
        await memory_store.write_memory(SCOPE, "bad \udc80 surrogate")
    with pytest.raises(InvalidArgument, match="scope must not be empty"):
        await memory_store.read_memory("")
    assert await memory_store.read_memory(SCOPE) == "old"


@pytest.mark.trio
async def test_both_engines_write_the_same_text_byte_for_byte(tmp_path: Path, pg_url: str) -> None:
    files = FileMemoryStore(MemoryFiles(tmp_path / "memory"))
    async with postgres_memory(pg_url) as pg_store:
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
