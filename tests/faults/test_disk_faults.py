"""The data directory's file system fills up while the daemon runs, then frees up.

The data dir is a small tmpfs; a ballast file fills it. Appends must fail
with ``store.full`` (a message that says to free space), reads keep being
served, what was acked before stays intact, the index and the memory files
degrade (logged, counted, retried) instead of crashing anything, and once
the ballast is gone everything works again without a restart.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reverie.config import ReverieError
from reverie.daemon import Client
from reverie.daemon import protocol as p
from tests.checks import assert_each_id_once, poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

from .conftest import Mounts, fill
from .support import fault_config, turns

PAYLOAD = "disk filler " * 700  # ~8 KB per message: the WAL must grow


def _append_until_error(client: Client, session: str, acked: list[str]) -> ReverieError:
    for i in range(2000):
        try:
            acked.append(client.append(session, "user", f"{i} {PAYLOAD}").id)
        except ReverieError as exc:
            return exc
    raise AssertionError(f"{len(acked)} appends of ~8 KB fitted on a full 16 MiB disk")


def _index(client: Client) -> p.IndexStatus:
    return client.status().index


def test_full_disk_gives_store_full_keeps_acked_data_and_heals(
    mounts: Mounts, make_daemon, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    data = mounts.tmpfs(tmp_path / "d" / "data", size="16m")
    daemon: DaemonProcess = make_daemon(config=fault_config(fake_llm))
    assert daemon.proc is not None
    pid = daemon.proc.pid
    with daemon.client() as client:
        before = turns(client, "before", 4)
        poll(lambda: _index(client).messages_behind == 0, what="index caught up")

        ballast = fill(data)
        # Leave room for a few appends but not for the index keeping up with them, so
        # the disk runs out with acked messages still to index.
        os.truncate(ballast, ballast.stat().st_size - (512 << 10))
        acked: list[str] = []
        error = _append_until_error(client, "s", acked)
        assert error.code == "store.full", f"{error.code}: {error.message}"
        assert acked, "no append fitted in the space left"
        assert "free" in error.message, error.message
        for i in range(30):  # each refused alike: logged once, not once each
            with pytest.raises(ReverieError, match="free"):
                client.append("s", "user", f"refused {i} " + "x" * 4096)
        refusals = [line for line in daemon.log().splitlines() if "storage is full" in line]
        assert 1 <= len([line for line in refusals if "request failed" in line]) <= 2

        # Degraded, not down: reads are served and acked data is intact.
        assert [m.id for m in client.context("before", max_tokens=0).messages] == before
        assert [m.id for m in client.history("s", limit=1000)] == acked
        assert client.status().errors["store.full"] >= 1
        # The indexer cannot write: counted, retried, nothing crashes.
        poll(lambda: _index(client).failures > 0, what="an index write failing")
        # A consolidation cannot write its files: an error, not a crash, not a lie.
        try:
            outcome = client.consolidate("before", wait=True)
        except ReverieError as exc:
            assert exc.code == "store.full", f"{exc.code}: {exc.message}"
        else:
            raise AssertionError(f"consolidation on a full disk reported {outcome}")
        assert client.memory("session/before").entries == []

        ballast.unlink()
        # Healed without a restart: appends, the index and consolidation all work again.
        later = [client.append("s", "user", f"after {i}").id for i in range(3)]
        poll(lambda: _index(client).messages_behind == 0, what="index caught up again")
        assert client.search("after", k=3, session="s")
        # The failed consolidation is retried by itself (nobody asks again).
        poll(lambda: client.memory("session/before").entries, what="consolidation retried")
        assert_each_id_once(client, "before", "session/before", before)
        assert [m.id for m in client.history("s", limit=1000)] == acked + later
        assert client.status().pid == pid, "the daemon restarted"
    assert daemon.stop() == 0
