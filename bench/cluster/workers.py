"""Consolidation throughput with 1 and 2 ``reverie worker``s on one Postgres store.

A daemon fills a fresh database with sessions over their budget (its own
consolidation waits an hour, so it takes none of them); then ``k`` workers
start (``reverie worker --store URL --config F``), each with one LLM call at a
time against the same fake OpenAI-compatible server, which answers every call
after a fixed delay. The model is the bottleneck by construction, so the rate
says whether the jobs spread over the workers: two should consolidate at
nearly twice one's rate. The rate is jobs done per second from the first job
done to the last (the workers' start-up is left out), read from the daemon's
``status()``, whose job counts are the database's (every member's).

Without ``reverie worker`` (before issue 50's workers are built) the same
harness runs with the daemon's own consolidation as the one consolidator, as a
stand-in, and the ratio is reported as not measured.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.append.throughput import start_daemon
from bench.cluster.failover import daemon_config
from tests.daemon_process import DaemonProcess
from tests.fakellm import FakeLLM, echo_result

__all__ = ["Rate", "consolidation_rate", "slow_llm", "worker_available"]

_DEADLINE = 600.0
#: Each session's turns: well over the workers' budget, one job each (no job-size cap).
_TURNS = 6
_TEXT = "I moved the blue kayak to the shed behind the house on Tuesday, before the rain came."


@dataclass(frozen=True)
class Rate:
    consolidators: str  # "1 worker", "2 workers", "1 daemon (stand-in)"
    jobs: int
    seconds: float  # first job done to the last

    @property
    def per_second(self) -> float:
        return (self.jobs - 1) / self.seconds if self.seconds > 0 else 0.0


def worker_available() -> bool:
    """``reverie worker`` exists in this reverie."""
    probe = [sys.executable, "-m", "reverie.daemon", "worker", "--help"]
    return subprocess.run(probe, capture_output=True, timeout=120).returncode == 0


def slow_llm(delay: float) -> FakeLLM:
    """A fake model that answers every chat call after ``delay`` seconds (started)."""

    def answer(request: dict[str, Any]) -> dict[str, Any]:
        time.sleep(delay)
        return echo_result(request)

    return FakeLLM(default=answer).start()


def _consolidating(llm: FakeLLM) -> str:
    """What makes a member consolidate idle sessions at once through ``llm``, one call at once."""
    return (
        "[consolidation]\nidle_after = 0.5\nbudget_tokens = 60\ntarget_tokens = 20\n"
        f'\n[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake"\nmax_concurrent = 1\n'
        "max_job_tokens = 0\n"
    )


def _fill(daemon: DaemonProcess, sessions: int) -> None:
    with daemon.client() as client:
        for s in range(sessions):
            for t in range(_TURNS):
                client.append(f"cw:{s}", "user" if t % 2 == 0 else "assistant", _TEXT)


def _done(daemon: DaemonProcess) -> int:
    """Jobs done by every member: on Postgres a backend's counts are the database's."""
    with daemon.client() as client:
        backends = client.status().consolidation.values()
    return sum(int(b.jobs.get("done", 0)) for b in backends)


def _time_jobs(daemon: DaemonProcess, jobs: int) -> float:
    """Seconds from the first job done to the ``jobs``-th, polled from the daemon's status."""
    deadline = time.monotonic() + _DEADLINE
    first: float | None = None
    while (done := _done(daemon)) < jobs:
        if first is None and done:
            first = time.monotonic()
        if time.monotonic() > deadline:
            raise RuntimeError(f"{done} of {jobs} jobs done after {_DEADLINE}s")
        time.sleep(0.05)
    return time.monotonic() - (first or time.monotonic())


def consolidation_rate(
    root: Path, url: str, owner_ttl: float, llm: FakeLLM, workers: int, sessions: int
) -> Rate:
    """``sessions`` jobs consolidated by ``workers`` workers (0: the daemon itself, stand-in)."""
    root.mkdir()
    stand_in = workers == 0
    daemon = start_daemon(
        str(root),
        daemon_config(url, owner_ttl, _consolidating(llm))
        if stand_in
        else daemon_config(url, owner_ttl),
    )
    procs: list[subprocess.Popen[bytes]] = []
    try:
        if stand_in:
            _fill(daemon, sessions)
            seconds = _time_jobs(daemon, sessions)
            return Rate("1 daemon (stand-in)", sessions, seconds)
        _fill(daemon, sessions)
        config = root / "worker.toml"
        config.write_text(daemon_config(url, owner_ttl, _consolidating(llm)))
        for i in range(workers):
            log = (root / f"worker-{i}.log").open("ab")
            cmd = [sys.executable, "-m", "reverie.daemon", "worker", "--store", url]
            procs.append(subprocess.Popen([*cmd, "--config", str(config)], stdout=log, stderr=log))
            log.close()
        seconds = _time_jobs(daemon, sessions)
        return Rate(f"{workers} worker{'s' if workers > 1 else ''}", sessions, seconds)
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(30)
        daemon.stop()


def rates(
    root: Path, fresh: Callable[[], str], owner_ttl: float, delay: float, sessions: int
) -> list[Rate]:
    """1 then 2 workers on fresh databases (or the stand-in alone), one fake model."""
    llm = slow_llm(delay)
    try:
        counts = (1, 2) if worker_available() else (0,)
        return [
            consolidation_rate(root / f"w{k}", fresh(), owner_ttl, llm, k, sessions) for k in counts
        ]
    finally:
        llm.close()
