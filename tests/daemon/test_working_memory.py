"""Working memory over the real socket: TTL, CAS, checkpoints, scratchpad, task, inherit, crashes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
import trio

from reverie.config import Conflict, InvalidArgument, NotFound
from reverie.daemon import AsyncClient, Client
from tests.daemon.test_passivation import _wait_for
from tests.daemon_process import DaemonProcess
from tests.inprocess import InProcessDaemon

pytestmark = [pytest.mark.engines, pytest.mark.in_process]

SESSION = "project/p/agent/a/session/s"


class OffsetClock:
    """The daemon's test clock: an offset file (REVERIE_TEST_CLOCK_FILE)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0.0
        path.write_text("0")

    @property
    def env(self) -> dict[str, str]:
        return {"REVERIE_TEST_CLOCK_FILE": str(self.path)}

    def advance(self, seconds: float) -> None:
        self.offset += seconds
        self.path.write_text(repr(self.offset))


@pytest.fixture
def clock(tmp_path: Path) -> OffsetClock:
    return OffsetClock(tmp_path / "clock-offset")


@pytest.fixture
def wm_daemon(
    make_daemon_process: Callable[..., DaemonProcess], clock: OffsetClock
) -> DaemonProcess:
    return make_daemon_process(env=clock.env)


def _absent(client: Client, scope: str, key: str) -> bool:
    try:
        client.wm_get(scope, key)
    except NotFound:
        return True
    return False


def test_ttl_key_is_returned_before_expiry_never_after_and_swept(
    wm_daemon: DaemonProcess, clock: OffsetClock
) -> None:
    with wm_daemon.client() as client:
        client.wm_set("s", "short", "soon gone", ttl=60)
        client.wm_set("s", "long", "stays")
        clock.advance(59)
        assert client.wm_get("s", "short").value == "soon gone"
        assert [k.key for k in client.wm_list("s")] == ["long", "short"]
        clock.advance(2)
        assert _absent(client, "s", "short")  # swept or not, never returned after expiry
        assert [k.key for k in client.wm_list("s")] == ["long"]
        _wait_for(lambda: client.wm_stats("s").expired_swept == 1)
        stats = client.wm_stats("s")
        assert (stats.keys, stats.expired_swept) == (1, 1)
        assert client.wm_get("s", "long").value == "stays"


def test_overwriting_a_ttl_key_without_ttl_keeps_it(
    wm_daemon: DaemonProcess, clock: OffsetClock
) -> None:
    with wm_daemon.client() as client:
        client.wm_set("s", "k", 1, ttl=10)
        client.wm_set("s", "k", 2)
        clock.advance(20)
        client.wm_set("s", "probe", 0, ttl=1)
        clock.advance(5)  # k's stale deadline and the probe's are swept together
        _wait_for(lambda: client.wm_stats("s").expired_swept == 1)
        assert client.wm_get("s", "k").value == 2


def test_a_list_with_values_reads_the_scope_in_one_request(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.wm_set("s", "a", {"n": 1})
        client.wm_set("s", "b", "text", ttl=60)
        client.wm_set("s", "ba", [1, 2])
        client.wm_set("s", "a", {"n": 2})
        keys = client.wm_list("s", values=True)
        assert [(k.key, k.value, k.version) for k in keys] == [
            ("a", {"n": 2}, 2),
            ("b", "text", 1),
            ("ba", [1, 2], 1),
        ]
        assert [k.value for k in client.wm_list("s", prefix="b", values=True)] == ["text", [1, 2]]
        assert all(k.value is msgspec.UNSET for k in client.wm_list("s"))  # keys alone
        got = client.wm_get("s", "b")
        assert got.updated == keys[1].updated > 0 and got.expires_at is not None


def test_reserved_and_malformed_keys_are_rejected(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        with pytest.raises(InvalidArgument, match="reserved"):
            client.wm_set("s", "_internal", 1)
        with pytest.raises(InvalidArgument, match="reserved"):
            client.wm_get("s", "_internal")
        with pytest.raises(InvalidArgument):
            client.wm_set("s", "", 1)
        with pytest.raises(InvalidArgument):
            client.wm_set("s", "x" * 257, 1)
        with pytest.raises(InvalidArgument):
            client.wm_set("bad\nscope", "k", 1)
        assert client.wm_list("s") == []


def test_oversized_value_is_rejected_naming_the_limit(make_daemon) -> None:
    daemon = make_daemon(config="[working_memory]\nmax_value_bytes = 1000\n")
    with daemon.client() as client:
        client.wm_set("s", "fits", "x" * 990)
        with pytest.raises(InvalidArgument, match="1000"):
            client.wm_set("s", "big", "x" * 1000)
        with pytest.raises(InvalidArgument, match="1000"):
            client.wm_set("s", "nested", {"a": ["x" * 600, "y" * 600]})
        assert [k.key for k in client.wm_list("s")] == ["fits"]


def test_compare_and_set(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        assert client.wm_set("s", "k", "a", expected_version=0) == 1
        with pytest.raises(Conflict, match="version 1"):
            client.wm_set("s", "k", "b", expected_version=0)
        with pytest.raises(Conflict, match="version 1"):
            client.wm_set("s", "k", "b", expected_version=7)
        assert client.wm_set("s", "k", "b", expected_version=1) == 2
        assert (client.wm_get("s", "k").value, client.wm_get("s", "k").version) == ("b", 2)
        assert client.wm_delete("s", "k") is True
        assert client.wm_delete("s", "k") is False
        assert client.wm_set("s", "k", "c", expected_version=0) == 1


async def _increment(socket: str, writers: int, each: int) -> int:
    conflicts = 0

    async def writer() -> None:
        nonlocal conflicts
        async with AsyncClient(socket) as client:
            for _ in range(each):
                while True:
                    try:
                        current = await client.wm_get("s", "counter")
                        value, version = current.value, current.version
                    except NotFound:
                        value, version = 0, 0
                    try:
                        await client.wm_set("s", "counter", value + 1, expected_version=version)
                        break
                    except Conflict:
                        conflicts += 1

    async with trio.open_nursery() as nursery:
        for _ in range(writers):
            nursery.start_soon(writer)
    return conflicts


def test_32_concurrent_cas_writers_lose_no_update(daemon: InProcessDaemon) -> None:
    conflicts = trio.run(_increment, str(daemon.socket), 32, 25)
    with daemon.client() as client:
        counter = client.wm_get("s", "counter")
    assert counter.value == 32 * 25
    assert counter.version == 32 * 25
    assert conflicts > 0, "32 writers never collided: the test proves nothing"


def _state(client: Client, scope: str) -> dict[str, Any]:
    keys = client.wm_list(scope)
    try:
        task: Any = client.task_get(scope)
    except NotFound:
        task = None
    return {
        "keys": {k.key: (client.wm_get(scope, k.key).value, k.expires_at, k.updated) for k in keys},
        "task": task,
        "scratch": client.scratch_get(scope),
    }


def test_checkpoint_restore_brings_back_keys_task_and_scratchpad(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        client.wm_set(SESSION, "plan", {"steps": ["read", "write"], "n": 2})
        client.wm_set(SESSION, "blob", b"\x00\x01binary")
        client.wm_set(SESSION, "ttl", "later", ttl=3600)
        client.task_set(SESSION, "t1", "ship it", "running", 1, 4, {"pr": 12})
        client.scratch_append(SESSION, "thought one")
        client.scratch_append(SESSION, "thought two")
        before = _state(client, SESSION)
        checkpoint = client.checkpoint_create(SESSION, label="before refactor")
        assert len(checkpoint) == 36  # a full UUID

        client.wm_set(SESSION, "plan", "changed")
        client.wm_delete(SESSION, "blob")
        client.wm_set(SESSION, "new", 1)
        client.task_update(SESSION, status="failed", step=3)
        client.scratch_clear(SESSION)
        client.scratch_append(SESSION, "other")
        assert _state(client, SESSION) != before

        assert client.checkpoint_restore(SESSION, checkpoint) == 3
        assert _state(client, SESSION) == before
        version = client.wm_get(SESSION, "plan").version
        assert version > 2  # past every version seen before the restore: stale CAS fails
        with pytest.raises(Conflict):
            client.wm_set(SESSION, "plan", "stale", expected_version=2)


def test_checkpoints_list_newest_first_delete_and_unknown_ids(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        ids = [client.checkpoint_create("s", label=f"c{i}") for i in range(3)]
        listed = client.checkpoint_list("s")
        assert [c.id for c in listed] == ids[::-1]
        assert [c.label for c in listed] == ["c2", "c1", "c0"]
        assert all(c.size > 0 for c in listed)
        assert client.wm_stats("s").checkpoints == 3
        assert client.checkpoint_delete("s", ids[1]) == ids[1]
        assert [c.id for c in client.checkpoint_list("s")] == [ids[2], ids[0]]
        with pytest.raises(NotFound):
            client.checkpoint_restore("s", ids[1])
        with pytest.raises(NotFound):
            client.checkpoint_restore("s", "00000000-0000-0000-0000-000000000000")
        with pytest.raises(NotFound):
            client.checkpoint_restore("other", ids[0])  # another scope's checkpoint
        with pytest.raises(NotFound):
            client.checkpoint_delete("s", ids[1])


def test_scratchpad_capacity_drops_oldest_and_reports_it(make_daemon) -> None:
    daemon = make_daemon(config="[working_memory]\nscratch_capacity = 3\n")
    with daemon.client() as client:
        results = [client.scratch_append("s", f"line {i}") for i in range(5)]
        assert [(r.n, r.dropped) for r in results] == [(1, 0), (2, 0), (3, 0), (4, 1), (5, 1)]
        assert [e.text for e in client.scratch_get("s")] == ["line 2", "line 3", "line 4"]
        assert [e.text for e in client.scratch_get("s", last=2)] == ["line 3", "line 4"]
        assert client.scratch_clear("s") == 3
        assert client.scratch_get("s") == []


def test_task_progress_is_derived(daemon: InProcessDaemon) -> None:
    with daemon.client() as client:
        with pytest.raises(NotFound):
            client.task_get("s")
        with pytest.raises(NotFound):
            client.task_update("s", step=1)
        assert client.task_set("s", "t", "count", "running", 0, 0).progress == 0
        assert client.task_update("s", total_steps=3, step=1).progress == 33
        assert client.task_update("s", step=2).progress == 67
        assert client.task_update("s", step=9).progress == 100
        assert client.task_update("s", step=0, status="done").progress == 100
        task = client.task_update("s", status="blocked", data={"why": "review"})
        assert (task.progress, task.data, task.task_id) == (0, {"why": "review"}, "t")
        assert client.task_get("s") == task
        with pytest.raises(InvalidArgument, match="status"):
            client.task_update("s", status="sleeping")
        with pytest.raises(InvalidArgument):
            client.task_set("s", "t", "x", "running", -1, 3)
        assert client.task_get("s") == task


def test_inherit_looks_session_agent_project_global_and_writes_stay_put(
    daemon: InProcessDaemon,
) -> None:
    agent, project = "project/p/agent/a", "project/p"
    with daemon.client() as client:
        with pytest.raises(NotFound):
            client.wm_get(SESSION, "k", inherit=True)
        for scope in ("global", project, agent, SESSION):
            client.wm_set(scope, "k", scope)
            found = client.wm_get(SESSION, "k", inherit=True)
            assert (found.value, found.scope) == (scope, scope)
        for scope, then in ((SESSION, agent), (agent, project), (project, "global")):
            client.wm_delete(scope, "k")
            found = client.wm_get(SESSION, "k", inherit=True)
            assert (found.value, found.scope) == (then, then)
        client.wm_set(SESSION, "mine", 1)
        for parent in (agent, project, "global"):
            assert _absent(client, parent, "mine")
            with pytest.raises(NotFound):
                client.wm_get(parent, "mine", inherit=True)
            assert "mine" not in {k.key for k in client.wm_list(parent)}
        with pytest.raises(NotFound):
            client.wm_get(SESSION, "k")  # without inherit only the scope itself


def _durable_state(client: Client) -> None:
    client.wm_set("s", "kept", {"a": 1})
    client.wm_set("s", "ttl", "expires", ttl=100)
    client.task_set("s", "t", "durable", "running", 2, 4)
    client.scratch_append("s", "note")
    client.checkpoint_create("s", label="cp")


def _assert_durable(client: Client) -> None:
    assert client.wm_get("s", "kept").value == {"a": 1}
    assert client.wm_get("s", "ttl").value == "expires"
    assert client.task_get("s").progress == 50
    assert [e.text for e in client.scratch_get("s")] == ["note"]
    assert [c.label for c in client.checkpoint_list("s")] == ["cp"]


@pytest.mark.parametrize("crash", ["restart", "kill9"])
def test_acked_state_and_expiries_survive_restart_and_kill_9(
    wm_daemon: DaemonProcess, clock: OffsetClock, crash: str
) -> None:
    with wm_daemon.client() as client:
        _durable_state(client)
    if crash == "restart":
        wm_daemon.restart()
    else:
        wm_daemon.kill9()
        wm_daemon.start()
    with wm_daemon.client() as client:
        _assert_durable(client)
        clock.advance(101)
        assert _absent(client, "s", "ttl")
        _wait_for(lambda: client.wm_stats("s").expired_swept == 1)  # deadline reloaded
        assert client.wm_get("s", "kept").value == {"a": 1}
