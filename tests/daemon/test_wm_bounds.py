"""A working-memory scope is bounded (keys, bytes, checkpoints), each bound a typed error naming
its setting, and checkpoints of a scope at its bound leave other clients' appends answered.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import trio

from reverie.config import InvalidArgument, LimitReached
from reverie.daemon import AsyncClient
from tests.checks import whole_history
from tests.daemon_process import DaemonProcess

SCOPE = "project/p/agent/a"


def test_a_new_key_past_max_keys_is_refused_naming_the_setting(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[working_memory]\nmax_keys = 3\n")
    with daemon.client() as client:
        for key in ("a", "b", "c"):
            client.wm_set(SCOPE, key, key)
        with pytest.raises(LimitReached, match=r"working_memory\.max_keys") as refused:
            client.wm_set(SCOPE, "d", "d")
        assert isinstance(refused.value, InvalidArgument) and refused.value.code == "limit_reached"
        assert client.wm_set(SCOPE, "a", "again") == 2  # an existing key may still change
        client.wm_set("project/other", "d", "d")  # the bound is per scope
        client.wm_delete(SCOPE, "b")
        client.wm_set(SCOPE, "d", "d")
        assert [k.key for k in client.wm_list(SCOPE)] == ["a", "c", "d"]


def test_values_and_lines_past_max_scope_bytes_are_refused_and_a_smaller_one_passes(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[working_memory]\nmax_scope_bytes = 1000\n")
    with daemon.client() as client:
        client.wm_set(SCOPE, "big", "x" * 600)
        with pytest.raises(LimitReached, match=r"working_memory\.max_scope_bytes"):
            client.wm_set(SCOPE, "more", "y" * 600)
        with pytest.raises(LimitReached, match=r"working_memory\.max_scope_bytes"):
            client.wm_set(SCOPE, "big", "x" * 1200)  # growing one key counts too
        client.wm_set(SCOPE, "big", "x" * 100)
        client.wm_set(SCOPE, "more", "y" * 600)
        assert client.wm_stats(SCOPE).bytes <= 1000
        with pytest.raises(LimitReached, match=r"scratchpad line is not appended"):
            client.scratch_append(SCOPE, "z" * 400)  # the scratchpad shares the bytes
        client.wm_delete(SCOPE, "more")
        client.scratch_append(SCOPE, "z" * 400)
        assert [line.text for line in client.scratch_get(SCOPE)] == ["z" * 400]


def test_a_checkpoint_past_max_checkpoints_is_refused_until_one_is_deleted(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    daemon = make_daemon(config="[working_memory]\nmax_checkpoints = 2\n")
    with daemon.client() as client:
        client.wm_set(SCOPE, "k", 1)
        first = client.checkpoint_create(SCOPE, label="one")
        client.checkpoint_create(SCOPE, label="two")
        with pytest.raises(LimitReached, match=r"working_memory\.max_checkpoints"):
            client.checkpoint_create(SCOPE, label="three")
        assert len(client.checkpoint_list(SCOPE)) == 2
        client.checkpoint_delete(SCOPE, first)
        client.checkpoint_create(SCOPE, label="three")
        assert {c.label for c in client.checkpoint_list(SCOPE)} == {"two", "three"}


def test_other_clients_appends_are_acked_while_a_full_scope_is_checkpointed(
    make_daemon: Callable[..., DaemonProcess],
) -> None:
    config = "[working_memory]\nmax_keys = 64\nmax_scope_bytes = 4000000\nmax_checkpoints = 2\n"
    daemon = make_daemon(config=config)
    with daemon.client() as client:
        for i in range(64):
            client.wm_set(SCOPE, f"k{i:02d}", "v" * 60_000)
        with pytest.raises(LimitReached):
            client.wm_set(SCOPE, "one-more", "v")
    acked: list[int] = []
    during: list[int] = []

    async def run() -> None:
        done = trio.Event()

        async def checkpoints() -> None:
            async with AsyncClient(daemon.socket) as client:
                for _ in range(6):
                    before = len(acked)
                    checkpoint = await client.checkpoint_create(SCOPE)
                    await client.checkpoint_restore(SCOPE, checkpoint)
                    await client.checkpoint_delete(SCOPE, checkpoint)
                    during.append(len(acked) - before)
            done.set()

        async def appends() -> None:
            async with AsyncClient(daemon.socket) as client:
                n = 0
                while not done.is_set():
                    ack = await client.append("other-client", "user", f"turn {n}")
                    acked.append(ack.seq)
                    n += 1

        async with trio.open_nursery() as nursery:
            nursery.start_soon(appends)
            nursery.start_soon(checkpoints)

    trio.run(run)
    assert sum(during) > 0, "no append was acked while checkpoints ran"
    with daemon.client() as client:
        assert [m.seq for m in whole_history(client, "other-client")] == acked
        assert len(client.wm_list(SCOPE)) == 64
