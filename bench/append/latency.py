"""Append latency at an offered rate, open loop, for the append benchmark.

Sends are scheduled every ``1 / OPEN_RATE`` s over a few connections
whatever the replies do; latency is measured from the *scheduled* send time,
so a stall shows up as latency instead of silently lowering the offered
rate (no coordinated omission).
"""

from __future__ import annotations

import contextlib
import statistics
from pathlib import Path

import trio

from bench._machine import mark, percentile, say
from bench.append.raw_apsw import CONTENT
from bench.append.throughput import DURATION
from reverie.config import Busy
from reverie.daemon import AsyncClient
from tests.daemon_process import DaemonProcess

__all__ = ["OPEN_RATE", "latency_case"]

OPEN_RATE = 1000  # offered appends/s for the latency case
OPEN_CONNECTIONS = 4
OPEN_WARMUP = 2.0  # the first 1,000 sends touch 1,000 new sessions (each loaded, then created)


async def _open_loop(
    socket: Path, rate: int, seconds: float
) -> tuple[list[float], list[float], int]:
    """Send at fixed intervals over a few connections; latencies (warm-up, measured), busy replies.

    When the daemon falls behind, more than its per-connection in-flight limit
    piles up and it answers ``busy`` (as designed): those are counted, not
    timed, so an overloaded run reports its rejections instead of crashing.
    """
    cold: list[float] = []
    latencies: list[float] = []
    busy = 0
    total = int(rate * (OPEN_WARMUP + seconds))
    warm = int(rate * OPEN_WARMUP)

    async def one(client: AsyncClient, i: int, scheduled: float) -> None:
        nonlocal busy
        try:
            await client.append(f"lat-{i % 1000}", "user", CONTENT, id=f"m{i}")
        except Busy:
            busy += 1
            return
        (latencies if i >= warm else cold).append(trio.current_time() - scheduled)

    async with contextlib.AsyncExitStack() as stack:
        clients = [
            await stack.enter_async_context(AsyncClient(socket)) for _ in range(OPEN_CONNECTIONS)
        ]
        for client in clients:
            await client.hello()  # connect before the clock starts
        start = trio.current_time() + 0.05
        async with trio.open_nursery() as nursery:
            for i in range(total):
                scheduled = start + i / rate
                await trio.sleep_until(scheduled)
                nursery.start_soon(one, clients[i % OPEN_CONNECTIONS], i, scheduled)
    return cold, latencies, busy


def latency_case(daemon: DaemonProcess) -> tuple[list[float], list[float], int]:
    say(
        f"\n[2] latency at an offered {OPEN_RATE:,} appends/s, open loop "
        f"({OPEN_CONNECTIONS} connections, 1,000 sessions, {DURATION:.0f} s after"
        f" {OPEN_WARMUP:.0f} s warm-up; from scheduled send time)"
    )
    say("  .. running")
    cold, lat, busy = trio.run(_open_loop, daemon.socket, OPEN_RATE, DURATION)
    if busy:
        say(f"  NOTE: {busy:,} appends answered busy (in-flight limit): the daemon fell behind")
    p99 = percentile(lat, 0.99)
    say(f"  measured: {_latency_line(lat)}   [{mark(p99 < 0.010)} target p99 < 10 ms]")
    say(f"  warm-up (first touch of the 1,000 new sessions): {_latency_line(cold)}")
    return cold, lat, busy


def _latency_line(lat: list[float]) -> str:
    p50, p99, worst = percentile(lat, 0.5), percentile(lat, 0.99), max(lat)
    return (
        f"{len(lat):,} appends, p50 {p50 * 1e3:6.2f} ms  p99 {p99 * 1e3:6.2f} ms"
        f"  max {worst * 1e3:6.2f} ms  mean {statistics.fmean(lat) * 1e3:.2f} ms"
    )
