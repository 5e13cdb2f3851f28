"""Closed-loop append throughput over the socket, for the append benchmark.

N ``AsyncClient`` connections in this process, each awaiting its append's
ack before sending the next, against a real ``reverie serve`` subprocess;
acked appends are counted in a measured window after a warm-up, and the
daemon's status before and after gives the appends per group commit.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import trio

from bench._machine import Cost, Usage, cpu_seconds, mark, say
from bench.append.raw_apsw import CONTENT
from reverie.daemon import AsyncClient
from tests.daemon_process import DaemonProcess

__all__ = [
    "DURATION",
    "WARMUP",
    "Throughput",
    "closed_loop_case",
    "indexing_text",
    "start_daemon",
    "throughput_cases",
    "without_index",
]

WARMUP = 1.0  # seconds run before each measured window (connections, actors, caches)
#: Seconds measured per throughput case (and the open-loop latency window).
DURATION = float(os.environ.get("REVERIE_BENCH_APPEND_SECONDS", "5"))


#: Called with 0 as a case's measured window opens, 1 as it closes (the profiler's switch).
Edge = Callable[[int], None]


@dataclass
class Throughput:
    rate: float  # acked appends/s in the measured window
    daemon_cpu: float  # fraction of one core
    client_cpu: float
    per_commit: float  # appends acknowledged per group-commit transaction in the daemon
    cost: Cost  # the daemon's CPU and read/write syscalls per acked append, in the window
    latencies: list[float]  # seconds from send to ack of each append acked in the window
    indexed: int  # messages the search index wrote in the window (0 with the index off)

    @property
    def indexed_per_second(self) -> float:
        return self.indexed / DURATION

    @property
    def index_per_message_us(self) -> float | None:
        """The index threads' CPU per message they indexed in the window (None: none
        indexed). With a backlog the indexer's share per *append* is its own pace times
        this, not a cost of the append path."""
        if not self.indexed:
            return None
        return self.cost.index_us * len(self.latencies) / self.indexed


async def _closed_loop(
    socket: Path, pid: int, clients: int, sessions: int, tag: str, on_edge: Edge
) -> tuple[list[float], Cost, int]:
    """Run ``clients`` closed-loop appenders; the latency of each ack completed in the
    window, the daemon's cost per ack over that same window (read from /proc/<pid>
    at its edges), and the messages its search index wrote in it (from ``status``).

    ``on_edge(0)`` is called as the window opens and ``on_edge(1)`` as it closes.
    """
    start = trio.current_time()
    t0, t1 = start + WARMUP, start + WARMUP + DURATION
    acked: list[float] = []
    edges: list[Usage] = []
    indexed: list[int] = []

    async def sampler() -> None:
        async with AsyncClient(socket) as client:
            for i, edge in enumerate((t0, t1)):
                await trio.sleep_until(edge)
                edges.append(Usage.of(pid))
                on_edge(i)
                indexed.append((await client.status()).index.indexed)

    async def appender(c: int) -> None:
        async with AsyncClient(socket) as client:
            k = 0
            while trio.current_time() < t1:
                session = f"{tag}-{(c + clients * k) % sessions}"
                sent = trio.current_time()
                await client.append(session, "user", CONTENT, id=f"{c}-{k}")
                if t0 <= (now := trio.current_time()) < t1:
                    acked.append(now - sent)
                k += 1

    async with trio.open_nursery() as nursery:
        nursery.start_soon(sampler)
        for c in range(clients):
            nursery.start_soon(appender, c)
    return acked, Cost.between(edges[0], edges[1], len(acked)), indexed[1] - indexed[0]


async def _store_counters(socket: Path) -> tuple[int, int]:
    """(transactions committed, messages appended) so far, from the daemon's status."""
    async with AsyncClient(socket) as client:
        status = await client.status()
    return status.store.batches, status.counters.get("messages_appended", 0)


def closed_loop_case(
    daemon: DaemonProcess,
    clients: int,
    sessions: int,
    tag: str,
    on_edge: Edge = lambda edge: None,
) -> Throughput:
    """One closed-loop case; ``tag`` prefixes session names so every case appends new ids."""
    assert daemon.proc is not None
    pid = daemon.proc.pid
    b0, m0 = trio.run(_store_counters, daemon.socket)
    d0, c0, t0 = cpu_seconds(pid), time.process_time(), time.monotonic()
    acked, cost, indexed = trio.run(
        _closed_loop, daemon.socket, pid, clients, sessions, tag, on_edge
    )
    d1, c1, t1 = cpu_seconds(pid), time.process_time(), time.monotonic()
    b1, m1 = trio.run(_store_counters, daemon.socket)
    wall = t1 - t0
    return Throughput(
        rate=len(acked) / DURATION,
        daemon_cpu=(d1 - d0) / wall,
        client_cpu=(c1 - c0) / wall,
        per_commit=(m1 - m0) / max(1, b1 - b0),
        cost=cost,
        latencies=acked,
        indexed=indexed,
    )


def throughput_cases(
    daemon: DaemonProcess, clients_cases: tuple[int, ...] = (1, 64)
) -> dict[tuple[int, int], Throughput]:
    say(
        f"\n[1] acked appends/s over the socket, closed loop "
        f"({WARMUP:.0f} s warm-up + {DURATION:.0f} s per case; durability fsync)"
    )
    say("  .. priming (64 clients -> 1000 sessions, not reported: grows the WAL, fills caches)")
    closed_loop_case(daemon, 64, 1000, "prime")
    results = {}
    for clients in clients_cases:
        for sessions in (1, 1000):
            say(f"  .. running {clients} client(s) -> {sessions} session(s)")
            r = closed_loop_case(daemon, clients, sessions, f"c{clients}s{sessions}")
            results[clients, sessions] = r
            target = ""
            if clients == 64:
                target = f"  [{mark(r.rate >= 10_000)} target >= 10,000/s]"
            say(
                f"  {clients:>2} client(s) -> {sessions:>4} session(s): {r.rate:>9,.0f} appends/s"
                f"   (daemon cpu {r.daemon_cpu:4.0%}, client cpu {r.client_cpu:4.0%},"
                f" {r.per_commit:5.1f} appends/commit){target}"
            )
            say(
                f"{'':>36}daemon per acked append: {r.cost.cpu_us:6,.0f} µs CPU"
                f" ({r.cost.request_path_us:,.0f} request path, {r.cost.index_us:,.0f} index),"
                f" {r.cost.syscalls_text()} read/write syscalls"
            )
            say(f"{'':>36}search index: {indexing_text(r)}")
    return results


def indexing_text(r: Throughput) -> str:
    """What the index did in the window: messages/s, and its threads' CPU per message."""
    per = r.index_per_message_us
    rate = f"{r.indexed_per_second:,.0f} messages indexed/s"
    return rate if per is None else f"{rate}, {per:,.0f} µs CPU per message indexed"


def start_daemon(
    tmp: str, config: str = "", kind: type[DaemonProcess] = DaemonProcess
) -> DaemonProcess:
    """A daemon of ``kind`` in ``tmp`` on its defaults (plus ``config``), without REVERIE_* env."""
    daemon = kind(Path(tmp), config='[daemon]\nlog_level = "warning"\n' + config)
    daemon.env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    return daemon.start()


def without_index() -> dict[tuple[int, int], Throughput]:
    """The 64-client cases with the search index off: the append path without the embedder."""
    say("\n[1b] the same, 64 clients, search index off (no embedding on the same cores)")
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        daemon = start_daemon(tmp, "[index]\nenabled = false\n")
        try:
            return throughput_cases(daemon, (64,))
        finally:
            daemon.stop()
