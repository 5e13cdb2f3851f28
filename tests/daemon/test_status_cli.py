"""``reverie status``: the human rendering against a real daemon."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from reverie.config import InvalidArgument
from tests.daemon_process import DaemonProcess


def _reverie(daemon: DaemonProcess, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reverie.daemon", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "REVERIE_SOCKET": str(daemon.socket)},
        timeout=60,
    )


def test_status_shows_every_section(daemon: DaemonProcess, daemon_engine: str) -> None:
    with daemon.client() as client:
        client.append("st:a", "user", "one")
        client.append("st:b", "user", "two")
        with pytest.raises(InvalidArgument):
            client.history("st:a", limit=0)
        version = client.status().version
    out = _reverie(daemon, "status")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith(f"reverie {version}  pid ")
    assert " up " in lines[0]
    assert any(line.startswith("sessions  2 live, 0 passivated, 2 known") for line in lines)
    assert any(line.startswith("mailboxes 0 queued") for line in lines)
    consolidation = next(line for line in lines if line.startswith("consolidation default"))
    for part in ("queued", "running", "stored jobs [", "breaker", "streams"):
        assert part in consolidation
    assert any(
        line.startswith("consolidation default: probe ") and "; since start: jobs [" in line
        for line in lines
    )
    where = " bytes, durability " if daemon_engine == "sqlite" else "(postgres, "
    assert any(line.startswith("data ") and where in line for line in lines)
    assert any(line.startswith("store     ") and " writes in " in line for line in lines)
    process = next(line for line in lines if line.startswith("process   "))
    assert " MiB resident (peak " in process and " threads, " in process
    memory = next(line for line in lines if line.startswith("memory    "))
    assert " MiB its own (C heap " in memory and " of files (the libraries' code)" in memory
    assert "errors    invalid_argument: 1" in lines
    assert any(line.startswith("config    log level info") for line in lines)


def test_status_json_is_the_status_dict(daemon: DaemonProcess) -> None:
    out = _reverie(daemon, "status", "--json")
    assert out.returncode == 0, out.stderr
    status = json.loads(out.stdout)
    assert {"version", "uptime_seconds", "sessions", "consolidation", "store", "errors"} <= set(
        status
    )
