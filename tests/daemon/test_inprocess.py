"""``serve``, the daemon the tests run in their own process (tests/inprocess.py).

It starts in a nursery and says so through ``task_status``, is stopped by
cancellation or by ``Running.stop``, and either way gives back what it took:
the socket file and the data dir's lock (a second daemon then starts on the
same data dir), and the store with every acked message.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import trio

from reverie.daemon import AsyncClient
from tests.inprocess import InProcessDaemon


async def _append_and_read(daemon: InProcessDaemon, session: str, text: str) -> list[str]:
    async with AsyncClient(daemon.socket) as client:
        await client.append(session, "user", text)
        return [m.content for m in await client.history(session)]


@pytest.mark.trio
async def test_cancelled_serve_releases_the_socket_and_the_lock(tmp_path: Path) -> None:
    daemon = InProcessDaemon(tmp_path)
    async with trio.open_nursery() as nursery:
        await daemon.serve_in(nursery)
        assert await _append_and_read(daemon, "s", "one") == ["one"]
        nursery.cancel_scope.cancel()  # the abrupt stop
    assert not daemon.socket.exists()
    async with trio.open_nursery() as nursery:  # the lock was released: the data dir opens again
        running = await daemon.serve_in(nursery)
        assert await _append_and_read(daemon, "s", "two") == ["one", "two"]
        await running.stop()  # the graceful stop ends serve by itself
    assert not daemon.socket.exists()


def test_a_thread_daemon_stops_and_starts_again_with_its_data(tmp_path: Path) -> None:
    daemon = InProcessDaemon(tmp_path).start()
    with daemon.client() as client:
        client.append("s", "user", "kept")
    assert daemon.restart() is daemon
    with daemon.client() as client:
        assert [m.content for m in client.history("s")] == ["kept"]
    assert daemon.stop() == 0
    assert not daemon.socket.exists()


def test_an_environment_read_at_run_time_needs_a_process(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="REVERIE_TEST_CLOCK_FILE"):
        InProcessDaemon(tmp_path, env={"REVERIE_TEST_CLOCK_FILE": str(tmp_path / "clock")})


def test_a_daemon_that_cannot_start_fails_loudly(tmp_path: Path) -> None:
    (tmp_path / "reverie.sock").write_text("not a socket")  # serve refuses to replace it
    with pytest.raises(RuntimeError, match="failed to start"):
        InProcessDaemon(tmp_path).start()
