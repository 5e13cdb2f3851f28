"""Append throughput, latency and per-session memory of reverie, with a raw SQLite baseline.

What is measured, and why:

1. **Acked appends/s over the socket** (closed loop,
   ``bench/append/throughput.py``). A real ``reverie serve``
   subprocess (default durability ``"fsync"``: WAL + ``synchronous=FULL``)
   in a temporary directory; N ``AsyncClient`` connections in this process,
   each awaiting its append's ack before sending the next. 1 and 64 clients,
   to 1 session (every append funnels through one actor) and to 1,000
   sessions (appends spread over actors, batched by the group-commit writer).
   An unreported priming case runs first, so that the first case does not
   pay for growing the WAL file. The clients share the machine's cores with
   the daemon, so these figures are a lower bound for the daemon alone; CPU
   use of both sides and appends per commit are printed.
2. **Latency at an offered 1,000 appends/s** (open loop,
   ``bench/append/latency.py``). Sends are scheduled
   every 1 ms over a few connections whatever the replies do; latency is
   measured from the *scheduled* send time, so a stall shows up as latency
   instead of silently lowering the offered rate (no coordinated omission).
3. **Raw apsw baseline** (``bench/append/raw_apsw.py``): what SQLite itself does
   with the same group commit and durability in one process, 64 closed-loop
   producer threads. The daemon/raw ratio is the cost of everything reverie
   adds.
4. **Memory per session** (``bench/append/session_memory.py``), in-process: per
   live actor and per passivated session.
5. With ``--store`` (``python -m bench append --store postgresql://…`` or
   ``--store embedded``), cases 1 and 2 again on the Postgres engine, in a
   table beside SQLite's (``bench/append/engines.py``).

A benchmark, not a test: nothing here asserts on speed; targets are printed
next to the figures.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench import _engines  # noqa: E402
from bench._machine import mark, percentile, say  # noqa: E402
from bench.append.cost import cost_table  # noqa: E402
from bench.append.engines import engine_table, postgres_cases  # noqa: E402
from bench.append.latency import latency_case  # noqa: E402
from bench.append.profile import PROFILE, profile  # noqa: E402
from bench.append.raw_apsw import Raw, raw_apsw  # noqa: E402
from bench.append.session_memory import MEMORY_BUDGET, MEMORY_SESSIONS, memory  # noqa: E402
from bench.append.throughput import (  # noqa: E402
    DURATION,
    WARMUP,
    Throughput,
    start_daemon,
    throughput_cases,
    without_index,
)
from bench.report import Section, Table, ratio  # noqa: E402


def socket_benchmarks() -> tuple[dict[tuple[int, int], Throughput], list[float], list[float], int]:
    with tempfile.TemporaryDirectory(prefix="reverie-bench-") as tmp:
        daemon = start_daemon(tmp)
        try:
            results = throughput_cases(daemon)
            cold, lat, busy = latency_case(daemon)
        finally:
            daemon.stop()
    return results, cold, lat, busy


# -- 3. raw apsw baseline (bench/append/raw_apsw.py) ----------------------------------


def baseline(results: dict[tuple[int, int], Throughput]) -> tuple[Raw, Raw]:
    """Raw apsw with 1 and 64 producers: rows/s, rows per commit, cost per row."""
    say(
        "\n[3] raw apsw baseline: WAL, synchronous=FULL, writer thread + SimpleQueue,"
        " 64 closed-loop producer threads"
    )
    say("  .. running")
    single = raw_apsw(1, warmup=WARMUP, duration=DURATION)
    say(f"  raw apsw,  1 producer:  {single.rate:>9,.0f} rows/s   (1 row/commit: the fsync floor)")
    raw = raw_apsw(64, warmup=WARMUP, duration=DURATION)
    say(
        f"  raw apsw, 64 producers: {raw.rate:>9,.0f} rows/s   ({raw.per_commit:.1f} rows/commit;"
        f" per row {raw.cost.cpu_us:,.0f} µs CPU, producers and writer,"
        f" {raw.cost.syscalls_text()} read/write syscalls)"
    )
    for sessions in (1000, 1):
        r = results[64, sessions]
        q = r.rate / raw.rate
        say(
            f"  daemon(64 clients, {sessions:>4} session(s)) / raw = {q:5.2f}"
            f"   [{mark(q >= 0.5)} target >= 0.5];"
            f" daemon CPU per append / raw CPU per row = {ratio(r.cost.cpu_us, raw.cost.cpu_us)}"
        )
    return single, raw


# -- entry point -----------------------------------------------------------------


def main() -> Section:
    say(
        f"note: clients and the daemon share these {os.cpu_count()} cores;"
        " socket figures are lower bounds for the daemon alone"
    )
    results, cold, lat, busy = socket_benchmarks()
    postgres = postgres_cases(_engines.STORE) if _engines.STORE else None
    bare = without_index()
    single, raw = baseline(results)
    m, n, took = memory()
    section = _section(results, cold, lat, (single, raw), m, n, took)
    _index_off_rows(section.tables[0], bare, raw.rate)
    cost_table(section, results, bare, raw)
    if PROFILE:
        profile(section)
    if postgres is not None and _engines.STORE:
        engine_table(section, (results, bare, lat, busy), postgres, _engines.STORE)
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
    raw: tuple[Raw, Raw],
    m: dict[str, float],
    n: int,
    took: float,
) -> Section:
    single, raw64, raw_per_commit = raw[0].rate, raw[1].rate, raw[1].per_commit
    section = Section(
        title="Appends (`bench/append/`, issue 4)",
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
