"""``metrics``: the status as Prometheus text, over the socket and from the CLI."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import msgspec
import pytest
from prometheus_client.parser import text_string_to_metric_families

from reverie.config import InvalidArgument
from reverie.daemon import protocol as p
from reverie.daemon.metrics import render_metrics
from tests.daemon_process import DaemonProcess

_LABEL = r'[a-z_]+="(?:[^"\\]|\\.)*"'
_SAMPLE = re.compile(rf"^reverie_[a-z0-9_]+(\{{{_LABEL}(,{_LABEL})*\}})? -?[0-9.e+-]+$")


def _assert_exposition(text: str) -> dict[str, float]:
    """Every line is HELP, TYPE or a well-formed sample; every sample's family was declared."""
    declared: set[str] = set()
    samples: dict[str, float] = {}
    assert text.endswith("\n")
    for line in text.splitlines():
        if line.startswith("# HELP reverie_"):
            continue
        if line.startswith("# TYPE reverie_"):
            _, _, name, kind = line.split()
            assert kind in ("gauge", "counter", "histogram")
            declared.add(name)
            if kind == "histogram":
                declared.update(f"{name}_{suffix}" for suffix in ("bucket", "sum", "count"))
            continue
        assert _SAMPLE.match(line), line
        key, _, value = line.rpartition(" ")
        assert key.partition("{")[0] in declared, line
        samples[key] = float(value)
    parsed = list(text_string_to_metric_families(text))  # Prometheus' own parser accepts it
    assert {f.name for f in parsed} >= {"reverie_uptime_seconds", "reverie_appends"}
    return samples


def test_render_metrics_from_a_status() -> None:
    backend = {"outcomes": {}, "probe": "ok", "timers": 0, "llm": {}}
    status = {
        "version": "1.2.3",
        "pid": 1,
        "socket": "/run/reverie.sock",
        "data_dir": "/var/lib/reverie",
        "forgets": {"running": 0, "pending": 0, "finished": 0},
        "memory": {"edits_noticed": 0, "problems": {}},
        "index": {"enabled": False},
        "log_level": "info",
        "uptime_seconds": 12.5,
        "sessions": {"live": 2, "passivated": 3, "known": 5},
        "mailbox_depths": {"a": 2, "b": 5},
        "scopes": {"live": 4, "ttl_deadlines": 0},
        "store": {"bytes": 4096, "batches": 7, "writes": 9, "durability": "fsync"},
        "consolidation": {
            "default": {
                "kind": "openai",
                "queued": 1,
                "running": 1,
                "jobs": {"done": 3, "failed": 1},
                "failed_calls": 2,
                "breaker": "closed",
                "streams": 1,
                **backend,
            }
        },
        "counters": {"messages_appended": 11},
        "errors": {"busy": 2, 'odd"code': 1},
        "config_reloads": 1,
    }
    samples = _assert_exposition(render_metrics(msgspec.convert(status, p.DaemonStatus)))
    assert samples['reverie_info{version="1.2.3"}'] == 1
    assert samples["reverie_uptime_seconds"] == 12.5
    assert samples['reverie_sessions{state="live"}'] == 2
    assert samples['reverie_sessions{state="known"}'] == 5
    assert samples["reverie_mailbox_queued_requests"] == 7
    assert samples["reverie_appends_total"] == 11
    assert samples["reverie_store_writes_total"] == 9
    assert samples["reverie_store_batches_total"] == 7
    assert samples['reverie_errors_total{code="busy"}'] == 2
    assert samples['reverie_errors_total{code="odd\\"code"}'] == 1
    assert samples['reverie_consolidation_jobs{backend="default",state="failed"}'] == 1
    assert samples['reverie_llm_failed_calls_total{backend="default"}'] == 2
    assert samples["reverie_scopes_live"] == 4


def test_metrics_op_matches_status(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        for i in range(3):
            client.append("m:one", "user", f"hello {i}")
        with pytest.raises(InvalidArgument):
            client.history("m:one", limit=0)
        text = client.metrics()
        status = client.status()
    samples = _assert_exposition(text)
    assert samples["reverie_appends_total"] == 3
    assert samples['reverie_sessions{state="known"}'] == status.sessions.known == 1
    assert samples['reverie_errors_total{code="invalid_argument"}'] >= 1
    assert samples["reverie_store_writes_total"] >= 1
    assert any(k.startswith("reverie_consolidation_queued{") for k in samples)
    # The daemon's own resources, as /proc counts them (a memory budget is held to these).
    assert status.process.rss_bytes > 1 << 20 and status.process.threads >= 1
    assert status.process.peak_rss_bytes >= status.process.rss_bytes > 0
    assert status.process.open_files >= 3  # at least the database, its WAL and the socket
    assert samples["reverie_process_resident_bytes"] > 1 << 20
    # Resident memory in parts: its own and the libraries' files, the C heap within it.
    proc = status.process
    assert proc.rss_anon_bytes > 1 << 20 and proc.rss_file_bytes > 1 << 20
    assert proc.rss_anon_bytes + proc.rss_file_bytes <= proc.rss_bytes + (1 << 20)
    assert 1 << 20 < proc.heap_in_use_bytes < proc.rss_bytes
    assert proc.heap_free_bytes < proc.rss_anon_bytes
    assert samples['reverie_process_resident_part_bytes{part="anon"}'] > 1 << 20
    assert samples['reverie_heap_bytes{state="in_use"}'] > 1 << 20
    assert samples["reverie_process_threads"] >= 1
    # The client asking is a connection; so is a second one opened beside it.
    with daemon.client() as first, daemon.client() as second:
        first.status()
        assert second.status().process.connections >= 2
    assert samples["reverie_connections"] >= 1


def test_reverie_metrics_command_prints_exposition(daemon: DaemonProcess) -> None:
    with daemon.client() as client:
        client.append("m:cli", "user", "hi")
    out = subprocess.run(
        [sys.executable, "-m", "reverie.daemon", "metrics"],
        capture_output=True,
        text=True,
        env={**os.environ, "REVERIE_SOCKET": str(daemon.socket)},
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    samples = _assert_exposition(out.stdout)
    assert samples["reverie_appends_total"] == 1
    assert "# TYPE reverie_uptime_seconds gauge" in out.stdout
