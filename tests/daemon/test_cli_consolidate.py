"""``reverie consolidate`` waits for a job longer than one request's timeout, with progress.

A job with a small local model takes tens of seconds; the command used to
report a lost connection after the client's 60 s while the job went on. The
per-request timeout is made short here (``$REVERIE_TIMEOUT``) and the
scripted model slow, so a job outlasts it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

import pytest

from tests.checks import poll
from tests.daemon.model_config import model_config
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, hang

SESSION, SCOPE = "cli:slow", "session/cli:slow"


def _reverie(daemon: DaemonProcess, *args: str, timeout: str = "1") -> Any:
    env = {**os.environ, "REVERIE_SOCKET": str(daemon.socket), "REVERIE_TIMEOUT": timeout}
    return subprocess.run(
        [sys.executable, "-m", "reverie.daemon", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


@pytest.fixture
def slow(make_daemon: Any, fake_llm: FakeLLM) -> DaemonProcess:
    """A daemon whose model answers the next job after ``seconds`` (scripted by the test)."""
    daemon: DaemonProcess = make_daemon(config=model_config(fake_llm))
    with daemon.client() as client:
        client.append(SESSION, "user", "I live in Lisbon and I work at Acme.")
        client.append(SESSION, "assistant", "Noted.")
    return daemon


def test_a_job_longer_than_a_request_timeout_is_waited_for(
    slow: DaemonProcess, fake_llm: FakeLLM
) -> None:
    fake_llm.script(hang(3.0))  # three times the per-request timeout
    out = _reverie(slow, "consolidate", SESSION)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("done: 2 messages into history entry "), out.stdout
    assert out.stderr.startswith(f"consolidating {SESSION} …\n"), out.stderr
    assert "Traceback" not in out.stderr and "connection" not in out.stderr


def test_a_wait_that_runs_out_says_the_job_goes_on(slow: DaemonProcess, fake_llm: FakeLLM) -> None:
    fake_llm.script(hang(4.0))
    out = _reverie(slow, "consolidate", SESSION, "--wait", "1")
    assert (out.returncode, out.stdout) == (1, ""), out
    said = out.stderr.splitlines()[-1]
    assert said.startswith(f"reverie: the job of {SESSION!r} is still running after 1 s"), said
    assert "`reverie status` shows it" in said and "Traceback" not in out.stderr
    with slow.client() as client:

        def done() -> int:
            return client.status().consolidation["default"].outcomes.get("done", 0)

        poll(done, what="the job's end")
        assert len(client.memory(SCOPE).entries) == 1 and done() == 1
    assert len(fake_llm.requests) == 1  # the wait was not sent again: one job, one call


def test_a_timeout_that_is_not_a_number_is_one_line(slow: DaemonProcess) -> None:
    out = _reverie(slow, "status", timeout="soon")
    assert out.returncode == 2
    assert (
        out.stderr == "reverie: REVERIE_TIMEOUT must be a number of seconds above 0, not 'soon'\n"
    )
