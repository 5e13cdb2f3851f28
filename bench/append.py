"""Append throughput, latency and per-session memory of reverie, with a raw SQLite baseline.

What is measured, and why:

1. **Acked appends/s over the socket** (closed loop). A real ``reverie serve``
   subprocess (default durability ``"fsync"``: WAL + ``synchronous=FULL``)
   in a temporary directory; N ``AsyncClient`` connections in this process,
   each awaiting its append's ack before sending the next. 1 and 64 clients,
   to 1 session (every append funnels through one actor) and to 1,000
   sessions (appends spread over actors, batched by the group-commit writer).
   An unreported priming case runs first, so that the first case does not
   pay for growing the WAL file. The clients share the machine's cores with
   the daemon, so these figures are a lower bound for the daemon alone; CPU
   use of both sides and appends per commit are printed.
2. **Latency at an offered 1,000 appends/s** (open loop). Sends are scheduled
   every 1 ms over a few connections whatever the replies do; latency is
   measured from the *scheduled* send time, so a stall shows up as latency
   instead of silently lowering the offered rate (no coordinated omission).
3. **Raw apsw baseline** (``bench/raw_apsw.py``): what SQLite itself does
   with the same group commit and durability in one process, 64 closed-loop
   producer threads. The daemon/raw ratio is the cost of everything reverie
   adds.
4. **Memory per session** (``bench/session_memory.py``), in-process: per
   live actor and per passivated session.

A benchmark, not a test: nothing here asserts on speed; targets are printed
next to the figures.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import trio

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._machine import cpu_seconds, mark, percentile, say  # noqa: E402
from bench.raw_apsw import CONTENT, raw_apsw  # noqa: E402
from bench.report import Section, Table, ratio  # noqa: E402
from bench.session_memory import MEMORY_BUDGET, MEMORY_SESSIONS, memory  # noqa: E402
from reverie.config import Busy  # noqa: E402
from reverie.daemon import AsyncClient  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402

WARMUP = 1.0  # seconds run before each measured window (connections, actors, caches)
DURATION = 5.0  # seconds measured per throughput case
OPEN_RATE = 1000  # offered appends/s for the latency case
OPEN_CONNECTIONS = 4
OPEN_WARMUP = 2.0  # the first 1,000 sends touch 1,000 new sessions (each loaded, then created)

# -- 1. closed-loop throughput over the socket ---------------------------------


@dataclass
class Throughput:
    rate: float  # acked appends/s in the measured window
    daemon_cpu: float  # fraction of one core
    client_cpu: float
    per_commit: float  # appends acknowledged per group-commit transaction in the daemon


async def _closed_loop(socket: Path, clients: int, sessions: int, tag: str) -> int:
    """Run ``clients`` closed-loop appenders; return acks completed in the window."""
    start = trio.current_time()
    t0, t1 = start + WARMUP, start + WARMUP + DURATION
    acked = 0

    async def appender(c: int) -> None:
        nonlocal acked
        async with AsyncClient(socket) as client:
            k = 0
            while trio.current_time() < t1:
                session = f"{tag}-{(c + clients * k) % sessions}"
                await client.append(session, "user", CONTENT, id=f"{c}-{k}")
                if t0 <= trio.current_time() < t1:
                    acked += 1
                k += 1

    async with trio.open_nursery() as nursery:
        for c in range(clients):
            nursery.start_soon(appender, c)
    return acked


async def _store_counters(socket: Path) -> tuple[int, int]:
    """(transactions committed, messages appended) so far, from the daemon's status."""
    async with AsyncClient(socket) as client:
        status = await client.status()
    return status.store.batches, status.counters.get("messages_appended", 0)


def closed_loop_case(daemon: DaemonProcess, clients: int, sessions: int, tag: str) -> Throughput:
    """One closed-loop case; ``tag`` prefixes session names so every case appends new ids."""
    assert daemon.proc is not None
    pid = daemon.proc.pid
    b0, m0 = trio.run(_store_counters, daemon.socket)
    d0, c0, t0 = cpu_seconds(pid), time.process_time(), time.monotonic()
    acked = trio.run(_closed_loop, daemon.socket, clients, sessions, tag)
    d1, c1, t1 = cpu_seconds(pid), time.process_time(), time.monotonic()
    b1, m1 = trio.run(_store_counters, daemon.socket)
    wall = t1 - t0
    return Throughput(
        rate=acked / DURATION,
        daemon_cpu=(d1 - d0) / wall,
        client_cpu=(c1 - c0) / wall,
        per_commit=(m1 - m0) / max(1, b1 - b0),
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
    return results


# -- 2. open-loop latency --------------------------------------------------------


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


def _daemon(tmp: str, config: str = "") -> DaemonProcess:
    daemon = DaemonProcess(Path(tmp), config='[daemon]\nlog_level = "warning"\n' + config)
    daemon.env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    return daemon.start()


def socket_benchmarks() -> tuple[dict[tuple[int, int], Throughput], list[float], list[float], int]:
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        daemon = _daemon(tmp)
        try:
            results = throughput_cases(daemon)
            cold, lat, busy = latency_case(daemon)
        finally:
            daemon.stop()
    return results, cold, lat, busy


def without_index() -> dict[tuple[int, int], Throughput]:
    """The 64-client cases with the search index off: the append path without the embedder."""
    say("\n[1b] the same, 64 clients, search index off (no embedding on the same cores)")
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        daemon = _daemon(tmp, "[index]\nenabled = false\n")
        try:
            return throughput_cases(daemon, (64,))
        finally:
            daemon.stop()


# -- 3. raw apsw baseline (bench/raw_apsw.py) ----------------------------------


def baseline(results: dict[tuple[int, int], Throughput]) -> tuple[float, float, float]:
    """Raw apsw rows/s with 1 and 64 producers, and rows per commit at 64."""
    say(
        "\n[3] raw apsw baseline: WAL, synchronous=FULL, writer thread + SimpleQueue,"
        " 64 closed-loop producer threads"
    )
    say("  .. running")
    single, _ = raw_apsw(1, warmup=WARMUP, duration=DURATION)
    say(f"  raw apsw,  1 producer:  {single:>9,.0f} rows/s   (1 row/commit: the fsync floor)")
    raw, per_commit = raw_apsw(64, warmup=WARMUP, duration=DURATION)
    say(f"  raw apsw, 64 producers: {raw:>9,.0f} rows/s   ({per_commit:.1f} rows/commit)")
    for sessions in (1000, 1):
        ratio = results[64, sessions].rate / raw
        say(
            f"  daemon(64 clients, {sessions:>4} session(s)) / raw = {ratio:5.2f}"
            f"   [{mark(ratio >= 0.5)} target >= 0.5]"
        )
    return single, raw, per_commit


# -- entry point -----------------------------------------------------------------


def main() -> Section:
    say(
        f"note: clients and the daemon share these {os.cpu_count()} cores;"
        " socket figures are lower bounds for the daemon alone"
    )
    results, cold, lat, busy = socket_benchmarks()
    bare = without_index()
    single, raw, raw_per_commit = baseline(results)
    m, n, took = memory()
    section = _section(results, cold, lat, (single, raw, raw_per_commit), m, n, took)
    _index_off_rows(section.tables[0], bare, raw)
    if busy:
        section.notes += (
            f"\n\nIn the open-loop case {busy:,} appends were answered `busy` (the daemon fell"
            " behind and the per-connection in-flight limit was reached); they are not in the"
            " latency figures."
        )
    return section


def _index_off_rows(table: Table, bare: dict[tuple[int, int], Throughput], raw64: float) -> None:
    """Rows for the index-off daemon, placed before the raw baselines."""
    rows = [
        [
            f"{clients} client(s) → {sessions:,} session(s), search index off",
            f"{r.rate:,.0f}",
            f"{r.per_commit:.1f}",
            f"{r.daemon_cpu:.0%}",
            f"{r.client_cpu:.0%}",
            ratio(r.rate, raw64),
        ]
        for (clients, sessions), r in bare.items()
    ]
    table.rows[-2:-2] = rows


def _section(
    results: dict[tuple[int, int], Throughput],
    cold: list[float],
    lat: list[float],
    raw: tuple[float, float, float],
    m: dict[str, float],
    n: int,
    took: float,
) -> Section:
    single, raw64, raw_per_commit = raw
    section = Section(
        title="Appends (`bench/append.py`, issue 4)",
        intro=(
            "A real `reverie serve` subprocess (durability fsync) and closed-loop"
            f" `AsyncClient`s in this process, {WARMUP:.0f} s warm-up + {DURATION:.0f} s per"
            " case; the baseline is raw apsw with the same schema, WAL, `synchronous=FULL`"
            " and the same group commit (a writer thread fed by a queue) in one process."
            " The ratio daemon/raw is the cost of everything reverie adds. The daemon runs its"
            " defaults, search index on: the local embedder embeds every appended message on"
            " the same cores; the rows *search index off* show the append path without it."
            " Targets are judged on the defaults."
        ),
    )
    t = section.table(
        "case", "acked appends/s", "appends/commit", "daemon CPU", "client CPU", "vs raw (64)"
    )
    for (clients, sessions), r in results.items():
        t.row(
            f"{clients} client(s) → {sessions:,} session(s)",
            f"{r.rate:,.0f}",
            f"{r.per_commit:.1f}",
            f"{r.daemon_cpu:.0%}",
            f"{r.client_cpu:.0%}",
            ratio(r.rate, raw64),
        )
    t.row("raw apsw, 1 producer (fsync floor)", f"{single:,.0f}", "1.0", "—", "—", "—")
    t.row(
        "raw apsw, 64 producers (baseline)",
        f"{raw64:,.0f}",
        f"{raw_per_commit:.1f}",
        "—",
        "—",
        "1.00×",
    )
    p99 = percentile(lat, 0.99)
    t2 = section.table("latency at an offered 1,000 appends/s (open loop)", "p50", "p99", "max")
    for label, values in (("measured", lat), ("warm-up: first touch of 1,000 new sessions", cold)):
        t2.row(
            f"{label} ({len(values):,} appends)",
            f"{percentile(values, 0.5) * 1e3:.2f} ms",
            f"{percentile(values, 0.99) * 1e3:.2f} ms",
            f"{max(values) * 1e3:.1f} ms",
        )
    t3 = section.table(
        "memory (in-process registry, tracemalloc)", "traced bytes", "RSS bytes", "gc objects"
    )
    t3.row(
        f"per live actor ({m['live']:,.0f} live)",
        f"{m['live_traced']:,.0f}",
        f"{m['live_rss']:,.0f}",
        f"{m['live_objects']:.1f}",
    )
    t3.row(
        f"per passivated session ({n:,})",
        f"{m['passive_traced']:,.1f}",
        f"{m['passive_rss']:,.0f}",
        f"{m['passive_objects']:.2f}",
    )
    for (clients, sessions), key in (((64, 1), "append.64x1"), ((64, 1000), "append.64x1000")):
        rate = results[clients, sessions].rate
        section.target(key, f"{rate:,.0f}/s", rate >= 10_000, f"{1 - rate / 10_000:.0%} short")
    for sessions, key in ((1, "append.ratio1"), (1000, "append.ratio1000")):
        q = results[64, sessions].rate / raw64
        section.target(key, f"{q:.2f} (raw {raw64:,.0f}/s)", q >= 0.5, f"{0.5 - q:.2f} short")
    section.target(
        "append.p99", f"{p99 * 1e3:.1f} ms", p99 < 0.010, f"{p99 * 1e3 - 10:.1f} ms over"
    )
    section.target(
        "append.live_actor",
        f"{m['live_traced']:,.0f} B traced",
        m["live_traced"] <= 4096,
        f"{m['live_traced'] - 4096:,.0f} B over",
    )
    passive_ok = m["passive_blocks"] < 0.5 and m["passive_objects"] < 0.5
    section.target(
        "append.passivated",
        f"{m['passive_objects']:.2f} gc objects, {m['passive_blocks']:.3f} blocks per session",
        passive_ok,
    )
    if n < MEMORY_SESSIONS:
        section.notes = (
            f"The memory run used {n:,} sessions, not {MEMORY_SESSIONS:,}: that many would not"
            f" fit its {MEMORY_BUDGET:.0f} s budget here (it took {took:.0f} s); the"
            " per-session figures are flat in N."
        )
    return section


if __name__ == "__main__":
    main()
