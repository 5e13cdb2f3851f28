"""Scope actors in process with real SQLite: batching, passivation, the TTL sweeper, names."""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from reverie.actors import (
    Envelope,
    ExpirySweeper,
    ScopeRegistry,
    Services,
    SetKey,
    scope_chain,
    validate_key,
)
from reverie.config import Conflict, InvalidArgument, load_config
from reverie.store import Clock, TokenCounter
from reverie.store.files.db import Database


def test_scope_chain_drops_two_levels_per_step_then_global() -> None:
    assert scope_chain("project/p/agent/a/session/s") == [
        "project/p/agent/a/session/s",
        "project/p/agent/a",
        "project/p",
        "global",
    ]
    assert scope_chain("project/p") == ["project/p", "global"]
    assert scope_chain("global") == ["global"]
    assert scope_chain("scratch") == ["scratch", "global"]


@pytest.mark.parametrize("key", ["", "_private", "x" * 257, "tab\there"])
def test_bad_keys_are_invalid(key: str) -> None:
    with pytest.raises(InvalidArgument):
        validate_key(key)


class _Sweeps:
    """A sweeper's ``sweep``: what it swept, and a wait for its next sweep."""

    def __init__(self) -> None:
        self.swept: list[tuple[str, list[str]]] = []
        self._changed = trio.Event()

    async def __call__(self, scope: str, keys: list[str]) -> None:
        self.swept.append((scope, keys))
        self._changed.set()

    async def next(self) -> None:
        await self._changed.wait()
        self._changed = trio.Event()


class _Rig:
    """A sweeper on a test clock: the test moves the clock by writing seconds to ``offset``
    (0 at start); ``sweeps`` records what the sweeper swept."""

    def __init__(self, tmp_path: Path) -> None:
        self.offset = tmp_path / "offset"
        self.offset.write_text("0")
        clock = Clock(self.offset)
        self.sweeps = _Sweeps()
        self.sweeper = ExpirySweeper(clock, self.sweeps)
        self.now = clock.now()


@pytest.mark.trio
async def test_sweeper_waits_for_the_clock_and_wakes_for_an_earlier_deadline(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    rig = _Rig(tmp_path)
    offset, sweeps, sweeper, now = rig.offset, rig.sweeps, rig.sweeper, rig.now
    swept = sweeps.swept
    async with trio.open_nursery() as nursery:
        await nursery.start(sweeper.run, [(now + 100, "a", "late")])
        sweeper.schedule(now + 50, "b", "early")
        await trio.sleep(30)  # virtual seconds: the test clock has not moved
        assert swept == []
        offset.write_text("60")
        await sweeps.next()
        assert swept == [("b", ["early"])]
        offset.write_text("101")
        await sweeps.next()
        assert swept == [("b", ["early"]), ("a", ["late"])]
        assert len(sweeper) == 0
        nursery.cancel_scope.cancel()


@pytest.mark.trio
async def test_a_key_set_again_keeps_one_deadline_and_is_swept_once_at_its_newest(
    tmp_path: Path, autojump_clock: trio.testing.MockClock
) -> None:
    rig = _Rig(tmp_path)
    offset, sweeps, sweeper, now = rig.offset, rig.sweeps, rig.sweeper, rig.now
    swept = sweeps.swept
    async with trio.open_nursery() as nursery:
        await nursery.start(sweeper.run, [(now + 5, "a", "step")])
        for i in range(10_000):  # a host setting its step with a TTL, again and again
            sweeper.schedule(now + 10 + i / 100, "a", "step")
            sweeper.schedule(now + 200, "b", f"key{i % 3}")
        assert len(sweeper) == 4  # keys with a deadline to come, not writes
        offset.write_text("150")  # past all 10,001 deadlines of "step": swept once
        await sweeps.next()
        await trio.sleep(1)
        assert swept == [("a", ["step"])]
        offset.write_text("201")
        await sweeps.next()
        assert swept[1:] == [("b", ["key0", "key1", "key2"])]
        assert len(sweeper) == 0
        nursery.cancel_scope.cancel()


async def _registry_session(tmp_path: Path) -> None:
    config = load_config(
        env={
            "REVERIE_DAEMON__DATA_DIR": str(tmp_path),
            "REVERIE_SESSIONS__PASSIVATE_AFTER": "0.2",
        }
    )
    db = Database(tmp_path / "wm.sqlite3", durability="process")
    await db.open()
    services = Services(config=config, db=db, tokens=TokenCounter(config.consolidation.tokenizer))
    scopes = ScopeRegistry(services, Clock())
    send, receive = trio.open_memory_channel[object](16)

    async def write(request: SetKey) -> None:
        await scopes.send("project/p", Envelope(request, send.send_nowait))

    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(scopes.run)
            await write(SetKey("k", 1, expected_version=0))
            await write(SetKey("k", 2, expected_version=0))
            await write(SetKey("j", 3))
            outcomes = [await receive.receive() for _ in range(3)]
            assert outcomes[0] == 1 and outcomes[2] == 1
            assert isinstance(outcomes[1], Conflict)  # refused alone; the others committed
            assert scopes.live == 1
            with trio.fail_after(10):
                while scopes.live:
                    await trio.sleep(0.01)  # passivation after 0.2 s idle
            await write(SetKey("k", 5, expected_version=1))
            assert await receive.receive() == 2  # the new actor sees the committed state
            nursery.cancel_scope.cancel()
    finally:
        await db.close()


def test_batched_writes_fail_alone_and_a_passivated_scope_resumes(tmp_path: Path) -> None:
    trio.run(_registry_session, tmp_path)
