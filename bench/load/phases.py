"""The parent side of the load benchmark: run one phase against a running daemon.

A phase spawns the client processes of ``bench/load/clients.py``, waits until
every connection is open, sends them one common window (go, window open,
window close) and merges what they saw; meanwhile a thread samples the
daemon's RSS and open fds from ``/proc`` (so measuring adds no connection).
It also sets the daemon's connection limit by SIGHUP between phases.
"""

from __future__ import annotations

import multiprocessing as mp
import signal
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from bench._machine import open_fds, rss_bytes, say
from bench.load.clients import Outcome, Plan, worker
from reverie.config import Busy
from tests.daemon_process import DaemonProcess

__all__ = [
    "PROCESSES",
    "WARMUP",
    "Phase",
    "daemon_config",
    "quantiles",
    "reload_limit",
    "run_phase",
]

WARMUP = 2.0  # seconds of the workload before the window opens (actors, caches, WAL)
PROCESSES = 4


@dataclass
class Resources:
    """The daemon's RSS and open fds: before the clients, peak while they ran, after they left."""

    rss: list[int] = field(default_factory=lambda: [0, 0, 0])
    fds: list[int] = field(default_factory=lambda: [0, 0, 0])


class _Sampler:
    """Samples the daemon's RSS and fd count from /proc every 100 ms, in a thread (peak per phase)."""

    def __init__(self, pid: int, res: Resources) -> None:
        self.pid, self.res = pid, res
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self.stop.wait(0.1):
            self.res.fds[1] = max(self.res.fds[1], open_fds(self.pid))
            self.res.rss[1] = max(self.res.rss[1], rss_bytes(self.pid))

    def __enter__(self) -> _Sampler:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()


@dataclass
class Phase:
    name: str
    connections: int
    seconds: float
    limit: int
    setup: Counter[str] = field(default_factory=Counter)
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    extras: Counter[str] = field(default_factory=Counter)
    res: Resources = field(default_factory=Resources)
    wall: float = 0.0

    @property
    def ops(self) -> int:
        return sum(len(v) for v in self.latencies.values())

    @property
    def rate(self) -> float:
        return self.ops / self.seconds

    def setup_errors(self) -> Counter[str]:
        """Held connections whose first ``hello`` failed, by code (all are errors)."""
        return Counter({k: v for k, v in self.setup.items() if k != "ok"})

    def bad_errors(self) -> Counter[str]:
        """Error codes other than ``busy`` (a lost connection counts here too)."""
        return Counter({k: v for k, v in self.errors.items() if k != Busy.code})


def quantiles(values: list[float]) -> tuple[float, float, float]:
    if not values:
        return (float("nan"),) * 3
    n = len(values)
    return tuple(values[min(n - 1, int(q * n))] for q in (0.5, 0.99, 0.999))  # type: ignore[return-value]


def _spread(total: int, parts: int) -> list[int]:
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def run_phase(
    daemon: DaemonProcess, name: str, held: int, seconds: float, *, limit: int, extra: int = 0
) -> Phase:
    """Run ``held`` connections (plus ``extra`` past the limit) against a running daemon."""
    assert daemon.proc is not None
    pid = daemon.proc.pid
    phase = Phase(name, held + extra, seconds, limit)
    phase.res.rss[0], phase.res.fds[0] = rss_bytes(pid), open_fds(pid)
    started = time.monotonic()
    _drive(phase, daemon, held, extra, seconds)
    phase.wall = time.monotonic() - started
    phase.res.rss[2], phase.res.fds[2] = _settled(pid, phase.res.fds[0])
    say(f"  .. phase took {phase.wall:.1f} s")
    return phase


def daemon_config(limit: int | None) -> str:
    config = '[daemon]\nlog_level = "warning"\n'
    return config + (f"max_connections = {limit}\n" if limit is not None else "")


def reload_limit(daemon: DaemonProcess, limit: int) -> None:
    """Set ``max_connections`` by SIGHUP (no restart: the model load alone takes seconds)."""
    assert daemon.proc is not None and daemon.config_path is not None
    with daemon.client() as client:
        before = client.status().config_reloads
    daemon.config_path.write_text(daemon_config(limit))
    daemon.proc.send_signal(signal.SIGHUP)
    deadline = time.monotonic() + 30
    while True:
        with daemon.client() as client:
            if client.status().config_reloads > before:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"the daemon did not reload:\n{daemon.log()}")
        time.sleep(0.05)


def _drive(phase: Phase, daemon: DaemonProcess, held: int, extra: int, seconds: float) -> None:
    assert daemon.proc is not None
    ctx = mp.get_context("spawn")
    plans, first = [], 0
    for i, (h, e) in enumerate(
        zip(_spread(held, PROCESSES), _spread(extra, PROCESSES), strict=True)
    ):
        plans.append(Plan(str(daemon.socket), first, h, e, seed=i))
        first += h
    pipes, procs = [], []
    for plan in plans:
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=worker, args=(plan, child), daemon=True)
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    with _Sampler(daemon.proc.pid, phase.res):
        say(f"  .. opening {held:,} connections from {PROCESSES} processes")
        for pipe in pipes:
            phase.setup.update(pipe.recv())
        say(
            f"  .. connected: {dict(phase.setup)}; running {WARMUP:.0f} s warm-up + {seconds:.0f} s"
        )
        go = time.monotonic() + 0.2
        window = (go, go + WARMUP, go + WARMUP + seconds)
        for pipe in pipes:
            pipe.send(window)
        for pipe in pipes:
            out: Outcome = pipe.recv()
            for op, lat in out.latencies.items():
                phase.latencies.setdefault(op, []).extend(lat)
            phase.errors.update(out.errors)
            phase.extras.update(out.extras)
    for proc in procs:
        proc.join(30)
    for lat in phase.latencies.values():
        lat.sort()


def _settled(pid: int, fds_before: int, deadline: float = 10.0) -> tuple[int, int]:
    """RSS and fds once the clients have gone: polls until fds fall back near the start."""
    end = time.monotonic() + deadline
    while True:
        fds = open_fds(pid)
        if fds <= fds_before + 8 or time.monotonic() > end:
            return rss_bytes(pid), fds
        time.sleep(0.1)
