"""The actor runtime's promises, with a small actor of the test's own.

One writer and per-actor order, back-pressure in arrival order, crash
isolation (a failed batch answered, counted, its state reloaded), and an
idle actor costing no task until it is passivated.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import trio
import trio.testing

from reverie.actors import ActorRegistry, Envelope, Services
from reverie.config import ReverieError, load_config
from reverie.store import TokenCounter, Tx
from reverie.store.files.db import Database


class Tally:
    """Counts the requests it handled; its state is ``disk[name]``, as an actor's is SQLite."""

    def __init__(self, name: str, world: World) -> None:
        self.name = name
        self.world = world
        self.idle_since = 0.0
        self.count = -1

    async def load(self) -> None:
        self.world.loads[self.name] = self.world.loads.get(self.name, 0) + 1
        self.count = self.world.disk.get(self.name, 0)

    def take(self, mail: deque[Envelope[Any]]) -> list[Envelope[Any]]:
        return [mail.popleft() for _ in range(len(mail))]

    async def handle(self, batch: list[Envelope[Any]]) -> bool:
        assert self.name not in self.world.running, "two batches of one actor at once"
        self.world.running.add(self.name)
        try:
            for env in batch:
                if env.request == "hold":
                    await self.world.gate.wait()
                await trio.sleep(0)  # let other actors' batches interleave
                if env.request == "boom":
                    raise RuntimeError("boom")
                self.count += 1
                self.world.disk[self.name] = self.count  # "committed"
                env.reply((env.request, self.count))
        finally:
            self.world.running.discard(self.name)
        return True

    def plannable(self, mail: deque[Envelope[Any]]) -> int:
        """Requests starting with "w" are writes: a run of them makes one plan."""
        count = 0
        for env in mail:
            if not env.request.startswith("w"):
                break
            count += 1
        return count

    def prepare(self, batch: list[Envelope[Any]]) -> _Writes:
        if any(env.request == "wbug" for env in batch):
            raise RuntimeError("a bug while planning")
        self.world.prepared.append((trio.lowlevel.current_task(), self.name))
        return _Writes(self.name, self.count, batch)

    def finished(self, plan: _Writes, written: int) -> None:
        for i, env in enumerate(plan.batch, start=1):
            env.reply((env.request, plan.base + i))
        self.count = self.world.disk[self.name] = written


class _Writes:
    """A run of "w" requests as one SQLite write, committed in the writer thread."""

    def __init__(self, name: str, base: int, batch: list[Envelope[Any]]) -> None:
        self.name, self.base, self.batch = name, base, batch

    def write(self, t: Tx) -> int:
        if any(env.request == "wfail" for env in self.batch):
            raise ValueError("this write fails")
        count = self.base + len(self.batch)
        t.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"tally:{self.name}", count))
        return count


class World:
    def __init__(self) -> None:
        self.disk: dict[str, int] = {}
        self.prepared: list[tuple[trio.lowlevel.Task, str]] = []
        self.loads: dict[str, int] = {}
        self.running: set[str] = set()
        self.gate = trio.Event()
        self.replies: dict[str, list[object]] = {}

    def reply_to(self, name: str) -> Callable[[object], None]:
        return self.replies.setdefault(name, []).append


@asynccontextmanager
async def _registry(
    tmp_path: Path, **sessions: str
) -> AsyncIterator[tuple[ActorRegistry[Tally], World]]:
    env = {"REVERIE_DAEMON__DATA_DIR": str(tmp_path)}
    env |= {f"REVERIE_SESSIONS__{k.upper()}": v for k, v in sessions.items()}
    config = load_config(env=env)
    db = Database(tmp_path / "runtime.sqlite3", durability="process")
    await db.open()
    world = World()
    services = Services(config=config, db=db, tokens=TokenCounter(config.consolidation.tokenizer))
    registry = ActorRegistry(services, "tally", lambda name: Tally(name, world))
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(registry.run)
            yield registry, world
            nursery.cancel_scope.cancel()
    finally:
        await db.close()


async def _send(registry: ActorRegistry[Tally], world: World, name: str, request: str) -> None:
    await registry.send(name, Envelope(request, world.reply_to(name)))


async def _until(done: Callable[[], bool]) -> None:
    """Wait for ``done`` (the writer thread commits outside trio's sight)."""
    with trio.fail_after(10):
        while not done():
            await trio.sleep(0.01)


def _tasks() -> int:
    """Every task of this run."""
    count, nurseries = 0, list(trio.lowlevel.current_root_task().child_nurseries)
    while nurseries:
        for task in nurseries.pop().child_tasks:
            count += 1
            nurseries.extend(task.child_nurseries)
    return count


def test_a_crashed_batch_is_answered_and_its_actor_reloads(tmp_path: Path) -> None:
    async def main() -> None:
        async with _registry(tmp_path) as (registry, world):
            for request in ("a", "boom", "c"):  # queued together: one batch
                await _send(registry, world, "t", request)
            await trio.testing.wait_all_tasks_blocked()
            first, *failed = world.replies["t"]
            assert first == ("a", 1)  # answered before the crash: it stands
            assert len(failed) == 2 and all(isinstance(f, ReverieError) for f in failed)
            assert "internal error in tally actor: RuntimeError" in str(failed[0])
            assert registry.services.counters["actor_crashes"] == 1
            assert registry.live == 0  # the crashed state is gone
            await _send(registry, world, "t", "d")
            await trio.testing.wait_all_tasks_blocked()
            assert world.replies["t"][-1] == ("d", 2)  # reloaded: "a" was kept
            assert world.loads["t"] == 2

    trio.run(main)


def test_each_actor_runs_alone_and_in_order_and_idle_ones_cost_no_task(tmp_path: Path) -> None:
    async def main() -> None:
        # 2 s idle: 4,000 sends on a loaded machine must not outlast it before the counts
        async with _registry(tmp_path, passivate_after="2") as (registry, world):
            await trio.testing.wait_all_tasks_blocked()
            tasks = _tasks()
            names = [f"t{i}" for i in range(100)]

            async def client(name: str, tag: str) -> None:
                for i in range(20):
                    await _send(registry, world, name, f"{tag}{i:02d}")

            async with trio.open_nursery() as nursery:
                for name in names:  # two clients per actor, interleaved
                    nursery.start_soon(client, name, "a")
                    nursery.start_soon(client, name, "b")
            await trio.testing.wait_all_tasks_blocked()
            for name in names:
                replies = world.replies[name]
                assert [n for _, n in replies] == list(range(1, 41))  # one writer: none lost
                for tag in "ab":
                    mine = [r for r, _ in replies if r.startswith(tag)]
                    assert mine == sorted(mine) and len(mine) == 20  # each client's order
            assert registry.live == 100
            assert registry.mailbox_depths() == {}
            assert _tasks() == tasks  # 100 live actors, not one task more
            with trio.fail_after(60):
                while registry.live:
                    await trio.sleep(0.05)  # passivated after 2 s idle
            assert world.loads == dict.fromkeys(names, 1)

    trio.run(main)


def test_a_full_mailbox_holds_its_senders_back_in_arrival_order(tmp_path: Path) -> None:
    async def main() -> None:
        async with _registry(tmp_path, mailbox_size="2") as (registry, world):
            await _send(registry, world, "t", "hold")
            await trio.testing.wait_all_tasks_blocked()  # its batch runs, waiting on the gate
            await _send(registry, world, "t", "x1")
            await _send(registry, world, "t", "x2")
            sent: list[str] = []
            scopes: dict[str, trio.CancelScope] = {}

            async def sender(request: str) -> None:
                with trio.CancelScope() as scopes[request]:
                    await _send(registry, world, "t", request)
                    sent.append(request)

            async with trio.open_nursery() as nursery:
                for request in ("x3", "x4", "x5"):
                    nursery.start_soon(sender, request)
                    await trio.testing.wait_all_tasks_blocked()
                assert sent == []  # the mailbox is full: all three wait for room
                assert registry.mailbox_depths() == {"t": 5}
                scopes["x4"].cancel()  # x4 gives up: it was not sent
                await trio.testing.wait_all_tasks_blocked()
                assert registry.mailbox_depths() == {"t": 4}
                world.gate.set()
            await trio.testing.wait_all_tasks_blocked()
            assert sorted(sent) == ["x3", "x5"]  # x4 withdrew
            assert world.replies["t"] == [("hold", 1), ("x1", 2), ("x2", 3), ("x3", 4), ("x5", 5)]

    trio.run(main)


def test_writes_of_many_actors_ready_together_commit_as_one_group(tmp_path: Path) -> None:
    async def main() -> None:
        async with _registry(tmp_path) as (registry, world):
            names = [f"t{i}" for i in range(100)]
            for name in names:  # first requests: each fresh actor loads, then runs alone
                await _send(registry, world, name, "w0")
            await trio.testing.wait_all_tasks_blocked()
            assert world.prepared == []
            batches = registry.services.db.batches
            for name in names:  # all queued before any scheduler runs
                for i in (1, 2, 3):
                    await _send(registry, world, name, f"w{i}")
            await _until(lambda: all(len(world.replies[n]) == 4 for n in names))
            for name in names:
                assert world.replies[name] == [(f"w{i}", i + 1) for i in range(4)]
                assert world.disk[name] == 4
            tasks = {task for task, _ in world.prepared}
            assert len(tasks) == 1 and len(world.prepared) == 100  # one scheduler, one group
            assert registry.services.db.batches - batches <= 2  # ~one writer batch, not 100

    trio.run(main)


def test_a_failed_plan_fails_only_its_own_actor_in_the_group(tmp_path: Path) -> None:
    async def main() -> None:
        async with _registry(tmp_path) as (registry, world):
            names = ("a", "b", "c", "d")
            for name in names:
                await _send(registry, world, name, "w0")
            await trio.testing.wait_all_tasks_blocked()
            for name, request in zip(names, ("w1", "wfail", "w1", "wbug"), strict=True):
                await _send(registry, world, name, request)
            await _until(lambda: all(len(world.replies[n]) == 2 for n in names))
            assert world.replies["a"][-1] == ("w1", 2) and world.replies["c"][-1] == ("w1", 2)
            failed, crashed = world.replies["b"][-1], world.replies["d"][-1]
            assert isinstance(failed, ReverieError) and "this write fails" in str(failed)
            assert isinstance(crashed, ReverieError) and "RuntimeError" in str(crashed)
            assert registry.services.counters["tally_errors"] == 1
            assert registry.services.counters["actor_crashes"] == 1
            for name in ("b", "d"):  # their state was dropped: reloaded on the next request
                await _send(registry, world, name, "w2")
            await _until(lambda: len(world.replies["b"]) == len(world.replies["d"]) == 3)
            assert world.replies["b"][-1] == ("w2", 2) and world.replies["d"][-1] == ("w2", 2)
            assert world.loads["b"] == world.loads["d"] == 2

    trio.run(main)
