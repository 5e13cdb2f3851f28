"""Idle actors leave memory; a passivated session answers as before."""

from __future__ import annotations

import time

import pytest
import trio

from reverie.daemon import AsyncClient
from tests.inprocess import InProcessDaemon

pytestmark = pytest.mark.in_process

CONFIG = """
[sessions]
passivate_after = 1.0
max_live = 500
"""


async def _touch(socket: str, count: int) -> None:
    async def worker(start: int) -> None:
        async with AsyncClient(socket) as client:
            for i in range(start, count, 16):
                await client.append(f"p{i}", "user", f"hello {i}", id=f"m{i}")

    async with trio.open_nursery() as nursery:
        for start in range(16):
            nursery.start_soon(worker, start)


def _wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.1)


def test_ten_thousand_sessions_passivate_to_the_bound(make_daemon) -> None:
    daemon: InProcessDaemon = make_daemon(config=CONFIG)
    with daemon.client() as client:
        before = client.context("p42")
    trio.run(_touch, str(daemon.socket), 10_000)
    with daemon.client() as client:
        status = client.status()
        assert status.sessions.known == 10_000
        assert status.sessions.live <= 500
        _wait_for(lambda: client.status().sessions.live == 0)
        assert client.status().sessions.passivated == 10_000
        ctx = client.context("p42")
        assert before.messages == []
        assert [(m.id, m.content, m.seq) for m in ctx.messages] == [("m42", "hello 42", 1)]
        assert client.append("p42", "user", "hello 42", id="m42").seq == 1
        assert client.append("p42", "user", "again").seq == 2
