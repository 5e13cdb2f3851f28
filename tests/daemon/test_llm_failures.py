"""A failing LLM is visible and loses nothing: probe, turns kept in the tail, extractive fallback."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, status

# In this process (tests/inprocess.py), but for the tests that read the daemon's log file.
pytestmark = [pytest.mark.engines, pytest.mark.in_process]

UNREACHABLE = "http://127.0.0.1:9/v1"  # the discard port: connection refused


def _config(
    base_url: str, *, hard_tokens: int = 100_000, max_attempts: int = 2, breaker_threshold: int = 5
) -> str:
    return f"""
[consolidation]
idle_after = 0.3
budget_tokens = 60
target_tokens = 20
hard_tokens = {hard_tokens}
max_delay = 0.5
retry_base = 0.05
max_attempts = {max_attempts}

[llm]
base_url = "{base_url}"
model = "fake"
timeout = 1.0
breaker_threshold = {breaker_threshold}
"""


def _statements(client: Client, session: str, codes: range) -> dict[int, str]:
    """User statements the extractive path keeps as facts, each with a unique code."""
    acked = {}
    for code in codes:
        text = f"My locker code at Porto station is {code} and I always use it."
        acked[code] = client.append(session, "user", text).id
        client.append(session, "assistant", "Noted, I will remember that.")
    return acked


def _outcomes(client: Client) -> dict[str, int]:
    return client.status().consolidation["default"].outcomes


def _consolidate_cli(daemon: DaemonProcess, session: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "reverie.daemon", "consolidate", session]
    return subprocess.run(
        [*cmd, "--socket", str(daemon.socket)], capture_output=True, text=True, timeout=120
    )


@pytest.mark.in_process(False)  # reads the log
def test_unreachable_llm_keeps_turns_in_the_tail_and_consolidate_fails(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config=_config(UNREACHABLE))
    with daemon.client() as client:
        probe = poll(lambda: client.status().consolidation["default"].probe != "pending")
        assert client.status().consolidation["default"].probe.startswith("unreachable"), probe
        acked = _statements(client, "s", range(1000, 1004))
        poll(lambda: _outcomes(client)["retried"] >= 1, what="a job given up and kept")
        tail = {m.id for m in client.context("s").messages}
        assert set(acked.values()) <= tail, "a user statement left the tail unrecorded"
        assert client.memory("session/s").entries == []
        metrics = client.metrics()
        assert 'reverie_llm_up{backend="default"} 0' in metrics
        assert 'reverie_consolidation_outcomes_total{backend="default",outcome="retried"}' in (
            metrics
        )

    done = _consolidate_cli(daemon, "s")

    assert done.returncode == 1, done
    assert "consolidating s" in done.stderr
    (error,) = [line for line in done.stderr.splitlines() if line.startswith("reverie:")]
    assert "llm.unavailable" in error and "stay in the tail" in error, error
    assert "Traceback" not in done.stderr
    assert "llm backend default: llm backend default" not in daemon.log()
    assert "probe unreachable" in daemon.log()


def test_past_hard_tokens_the_turns_are_archived_with_their_facts(make_daemon) -> None:
    daemon: DaemonProcess = make_daemon(config=_config(UNREACHABLE, hard_tokens=150))
    with daemon.client() as client:
        acked = _statements(client, "s", range(2000, 2003))  # under hard_tokens: kept
        poll(lambda: _outcomes(client)["retried"] >= 1, what="a job given up and kept")
        acked |= _statements(client, "s", range(2003, 2010))  # now over hard_tokens
        poll(lambda: _outcomes(client)["extractive"] >= 1, what="the extractive fallback")
        # (the tail first, then the memory and its history in one read: a later job may
        # archive more in between, and what left the tail before is in the history after)
        tail = {m.id for m in client.context("s").messages}
        view = client.memory("session/s")
        entries, memory = view.entries, view.memory
        assert entries and all(e.raw for e in entries)
        archived = {i for e in entries for i in e.message_ids}
        # A newer code supersedes an older one (issue 47): the older stays in history.
        retired = " ".join(r for e in entries for r in e.retired)
        for code, mid in acked.items():
            kept = str(code) in memory or str(code) in retired
            assert mid in tail or (mid in archived and kept), (
                f"statement {code} is neither in the tail nor in MEMORY.md or its history"
            )
        assert any(mid in archived for mid in acked.values()), "nothing was archived"
        assert client.status().consolidation["default"].jobs.get("extractive", 0) >= 1


def test_a_healthy_backend_is_probed_at_start(make_daemon, fake_llm: FakeLLM) -> None:
    daemon: DaemonProcess = make_daemon(config=_config(fake_llm.base_url))
    with daemon.client() as client:
        poll(lambda: client.status().consolidation["default"].probe == "ok")
        assert 'reverie_llm_up{backend="default"} 1' in client.metrics()
    assert [r.path for r in fake_llm.all_requests if r.path.endswith("/models")] == ["/v1/models"]


@pytest.mark.in_process(False)  # reads the log
def test_credentials_reach_no_error_and_no_log_line(make_daemon, fake_llm: FakeLLM) -> None:
    """A password in llm.base_url and a key the server echoes back are masked everywhere."""
    echo = "bad request with header Authorization: Bearer sk-echoed-0123456789"
    fake_llm.script(*[status(400, body=echo)] * 1_000)
    base_url = fake_llm.base_url.replace("http://", "http://alice:hunter2pw@")
    # The breaker kept shut: the idle jobs' retries of a loaded machine would open it before
    # the CLI asks, and its answer then names no server text whose masking could be checked.
    daemon: DaemonProcess = make_daemon(
        config=_config(base_url, max_attempts=1, breaker_threshold=1_000)
    )
    with daemon.client() as client:
        _statements(client, "s", range(3000, 3004))
        poll(lambda: _outcomes(client)["retried"] >= 1, what="a rejected job")

    done = _consolidate_cli(daemon, "s")

    assert done.returncode == 1, done
    assert "bad request" in done.stderr
    for secret in ("hunter2pw", "0123456789"):
        assert secret not in done.stderr
        assert secret not in daemon.log()
