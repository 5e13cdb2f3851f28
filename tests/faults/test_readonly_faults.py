"""A read-only data directory: at start, and appearing while the daemon runs."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from reverie.config import ReverieError
from tests.checks import assert_each_id_once, poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM

from .conftest import Mounts, remount
from .support import fault_config, turns

SERVE = [sys.executable, "-m", "reverie.daemon", "serve"]


@pytest.mark.parametrize("mode", ["0700", "0755"], ids=["private", "needs-chmod"])
def test_start_on_read_only_data_dir_exits_with_one_clear_line(
    mounts: Mounts, tmp_path: Path, mode: str
) -> None:
    """Not a traceback: one line naming the directory and what to do, and a non-zero exit.

    ``needs-chmod``: the daemon would tighten the directory to 0700 first.
    """
    data = mounts.tmpfs(tmp_path / "data", mode=mode)
    remount(data, "ro")
    started = time.monotonic()
    done = subprocess.run(
        [*SERVE, "--data-dir", str(data), "--socket", str(tmp_path / "reverie.sock")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert time.monotonic() - started < 30, "a refused start should not take long"
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("reverie:")]
    assert len(lines) == 1, done.stderr  # log lines before it are fine, one error line
    assert "store.read_only" in lines[0]
    assert str(data) in lines[0]
    assert "read-write" in lines[0]


def test_data_dir_going_read_only_degrades_and_heals(
    mounts: Mounts, make_daemon, fake_llm: FakeLLM
) -> None:
    daemon: DaemonProcess = make_daemon(config=fault_config(fake_llm))
    assert daemon.proc is not None
    pid = daemon.proc.pid
    with daemon.client() as client:
        before = turns(client, "before", 4)
        poll(lambda: client.status().index.messages_behind == 0, what="index caught up")
        failures = client.status().index.failures

        mounts.bind_read_only(daemon.data_dir)
        # SQLite's files were open before: appends stay durable and acked.
        during = turns(client, "s", 2)
        # What must create files fails, typed: the memory files of a consolidation...
        with pytest.raises(ReverieError) as caught:
            client.consolidate("before", wait=True)
        assert caught.value.code == "store.read_only", caught.value.message
        assert client.memory("session/before").entries == []
        # ... and the index (counted, retried).
        poll(lambda: client.status().index.failures > failures, what="index failing")
        # Reads are served.
        assert [m.id for m in client.context("before", max_tokens=0).messages] == before
        assert [m.id for m in client.history("s")] == during
        assert client.search("Question", k=3, session="before")

        mounts.unmount(daemon.data_dir)
        # Writable again: the consolidation is retried by itself, the index catches up.
        poll(lambda: client.memory("session/before").entries, what="consolidation retried")
        assert_each_id_once(client, "before", "session/before", before)
        poll(lambda: client.status().index.messages_behind == 0, what="index caught up")
        assert client.status().pid == pid, "the daemon restarted"
    assert daemon.stop() == 0
