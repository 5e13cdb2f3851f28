"""reverie under a thousand concurrent connections, and at its connection limit.

What is measured, and why:

1. **Load.** A real ``reverie serve`` subprocess (default durability
   ``"fsync"``, a temporary data dir, the default ``max_connections`` of 1,024,
   which is above the 1,000 opened) and 1,000 connections held open by 4
   client processes of 250 each, so that the client side is not one
   GIL-bound event loop. Every connection runs a closed loop of mixed
   operations over 2,000 sessions: mostly appends, then context, history,
   wm_set/wm_get, a search now and then, status rarely. Reported: total
   ops/s; per op count, ops/s and p50/p99/p99.9 latency (send to reply);
   the daemon's RSS and open fds (read from ``/proc/<pid>``, so measuring adds
   no connection) before, at peak and after; errors by code. The only
   acceptable error under this load is ``busy``: any other code, or a lost
   connection, makes the figure a **gap**.
2. **Baseline.** The same workload at 16 connections, first, on the same
   daemon in the same run, and the ratio of the two. One daemon serves all
   three phases (its start, mostly loading the embedding model, takes seconds).
3. **Overload.** ``max_connections = 500`` (set by SIGHUP reload): 500 connections are opened and
   served first, then 500 more arrive at once while the first 500 run the
   workload. Each of the 500 past the limit must get ``busy`` (a typed error,
   then a close) -- not be served, not hang, not be reset -- and the 500
   within it must see no error at all.

The clients share the machine's cores with the daemon (and the daemon's
indexer embeds every appended message), so these figures are lower bounds
for the daemon alone. A benchmark, not a test: the behaviour at the limit is
checked by ``tests/daemon/test_load_limits.py``; this prints figures.

``REVERIE_BENCH_LOAD_SECONDS`` sets the measured window of the load phase
(default 20); the baseline and overload windows are half of it.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import trio

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._machine import machine_info, raise_nofile, say  # noqa: E402
from bench.load.clients import MIX, NOFILE, REFUSAL_DEADLINE, SESSIONS, touch_every_op  # noqa: E402
from bench.load.phases import (  # noqa: E402
    PROCESSES,
    WARMUP,
    Phase,
    daemon_config,
    quantiles,
    reload_limit,
    run_phase,
)
from bench.report import Section, ratio, verdict  # noqa: E402
from reverie.config import Busy  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402

DURATION = float(os.environ.get("REVERIE_BENCH_LOAD_SECONDS", "20"))
SHORT = max(3.0, DURATION / 2)  # baseline and overload windows
CONNECTIONS = 1000
BASELINE_CONNECTIONS = 16
OVERLOAD_LIMIT = 500
DEFAULT_LIMIT = 1024  # daemon.max_connections by default: above CONNECTIONS, left as it is
OVERLOAD_OPEN = 1000

# -- printing and the report -------------------------------------------------------


def _ms(x: float) -> str:
    return f"{x * 1e3:.1f}"


def _mib(x: int) -> str:
    return f"{x / 2**20:.0f}"


def _print_phase(p: Phase) -> None:
    say(f"  {p.name}: {p.connections:,} connections, {p.rate:,.0f} ops/s in {p.seconds:.0f} s")
    for op in MIX:
        lat = p.latencies.get(op, [])
        p50, p99, p999 = quantiles(lat)
        say(
            f"    {op:<8} {len(lat):>8,} ops {len(lat) / p.seconds:>8,.0f}/s"
            f"  p50 {_ms(p50):>7} ms  p99 {_ms(p99):>7} ms  p99.9 {_ms(p999):>7} ms"
        )
    r, f = p.res.rss, p.res.fds
    say(
        f"    daemon RSS {_mib(r[0])}/{_mib(r[1])}/{_mib(r[2])} MiB, fds {f[0]}/{f[1]}/{f[2]}"
        " (before/peak/after)"
    )
    say(f"    errors: {dict(p.errors) or 'none'}")
    bad = p.bad_errors() + p.setup_errors()
    if bad:
        say(f"    !!! errors other than busy: {dict(bad)}")


def main() -> Section:
    machine_info()
    nofile = raise_nofile(NOFILE)
    say(
        f"note: clients and the daemon share these {os.cpu_count()} cores; RLIMIT_NOFILE {nofile}"
        f" (daemon and clients); default daemon.max_connections 1024 >= {CONNECTIONS:,}"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    with tempfile.TemporaryDirectory(prefix="reverie-load-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=daemon_config(None))
        daemon.env = env
        t = time.monotonic()
        daemon.start()
        say(f"  .. daemon started in {time.monotonic() - t:.1f} s")
        trio.run(touch_every_op, str(daemon.socket))
        try:
            say(f"\n[1] baseline: {BASELINE_CONNECTIONS} connections, mixed ops")
            base = run_phase(daemon, "baseline", BASELINE_CONNECTIONS, SHORT, limit=DEFAULT_LIMIT)
            _print_phase(base)
            say(f"\n[2] load: {CONNECTIONS:,} connections, mixed ops")
            load = run_phase(daemon, "load", CONNECTIONS, DURATION, limit=DEFAULT_LIMIT)
            _print_phase(load)
            say(f"  load / baseline throughput: {ratio(load.rate, base.rate)}")
            say(
                f"\n[3] overload: max_connections {OVERLOAD_LIMIT} (by SIGHUP),"
                f" {OVERLOAD_LIMIT} served first, then {OVERLOAD_OPEN - OVERLOAD_LIMIT} more at once"
            )
            reload_limit(daemon, OVERLOAD_LIMIT)
            over = run_phase(
                daemon,
                "overload",
                OVERLOAD_LIMIT,
                SHORT,
                limit=OVERLOAD_LIMIT,
                extra=OVERLOAD_OPEN - OVERLOAD_LIMIT,
            )
            _print_phase(over)
            say(f"    past the limit: {dict(over.extras)}")
        finally:
            daemon.stop()
    return _section(base, load, over)


def _section(base: Phase, load: Phase, over: Phase) -> Section:
    sec = Section(
        "Load: 1,000 connections, mixed operations",
        intro=(
            f"A real daemon (durability fsync) and {CONNECTIONS:,} connections from {PROCESSES}"
            f" client processes, closed loop, mixed operations over {SESSIONS:,} sessions"
            f" ({', '.join(f'{k} {v}%' for k, v in MIX.items())}); {WARMUP:.0f} s warm-up,"
            f" then {DURATION:.0f} s measured ({SHORT:.0f} s for the baseline and overload"
            " phases). The default `daemon.max_connections` (1024) is above the 1,000 opened,"
            " so the load phase does not change it. Latency is send to reply. Clients share"
            " the cores with the daemon: figures are lower bounds for the daemon alone."
        ),
    )
    summary = sec.table(
        "phase", "connections", "ops/s", "p50 ms", "p99 ms", "p99.9 ms", "errors", "verdict"
    )
    for p in (base, load):
        all_lat = sorted(x for lat in p.latencies.values() for x in lat)
        p50, p99, p999 = quantiles(all_lat)
        bad = p.bad_errors() + p.setup_errors()
        summary.row(
            p.name,
            f"{p.connections:,}",
            f"{p.rate:,.0f}",
            _ms(p50),
            _ms(p99),
            _ms(p999),
            _errors(p.errors + p.setup_errors()),
            verdict(not bad, "errors other than busy: " + _errors(bad)),
        )
    summary.row("load / baseline", "", ratio(load.rate, base.rate), "", "", "", "", "")
    per_op = sec.table(
        "op (load)",
        "count",
        "ops/s",
        "p50 ms",
        "p99 ms",
        "p99.9 ms",
        "baseline ops/s",
        "baseline p99 ms",
    )
    for op in MIX:
        lat, blat = load.latencies.get(op, []), base.latencies.get(op, [])
        p50, p99, p999 = quantiles(lat)
        per_op.row(
            op,
            f"{len(lat):,}",
            f"{len(lat) / load.seconds:,.0f}",
            _ms(p50),
            _ms(p99),
            _ms(p999),
            f"{len(blat) / base.seconds:,.0f}",
            _ms(quantiles(blat)[1]),
        )
    res = sec.table(
        "daemon (phase)",
        "RSS before MiB",
        "RSS peak MiB",
        "RSS after MiB",
        "fds before",
        "fds peak",
        "fds after",
        "verdict",
    )
    for p in (base, load, over):
        r, f = p.res.rss, p.res.fds
        leak = f[2] - f[0]
        res.row(
            p.name,
            _mib(r[0]),
            _mib(r[1]),
            _mib(r[2]),
            f[0],
            f[1],
            f[2],
            verdict(leak <= 8, f"{leak} fds still open after the clients left"),
        )
    extras = over.extras
    refused_ok = extras.get(Busy.code, 0) == OVERLOAD_OPEN - OVERLOAD_LIMIT
    inside = over.errors + over.setup_errors()  # even busy: each holds one request in flight
    overload_ok = refused_ok and not inside and over.setup.get("ok", 0) == OVERLOAD_LIMIT
    ov = sec.table(
        "overload",
        "limit",
        "opened",
        "served of the first 500",
        "errors inside the limit",
        "past the limit",
        "verdict",
    )
    ov.row(
        "max_connections",
        OVERLOAD_LIMIT,
        f"{OVERLOAD_OPEN:,}",
        f"{over.setup.get('ok', 0):,}",
        _errors(inside),
        _errors(extras),
        verdict(overload_ok, "past the limit or inside it, answers other than busy"),
    )
    load_bad = load.bad_errors() + load.setup_errors()
    sec.target(
        "load.errors",
        f"load: {_errors(load.errors + load.setup_errors())}; past the limit: {_errors(extras)}",
        not load_bad and overload_ok,
        "errors other than busy, or busy inside the limit",
    )
    sec.notes = (
        "RSS (VmRSS) and fds (entries of /proc/<pid>/fd) are sampled every 100 ms; one daemon"
        " serves the three phases in turn, so *before* is what the previous phase left, and"
        " *after* is once the phase's clients have closed. In the overload phase"
        f" the {OVERLOAD_LIMIT} connections inside the limit run the workload while the"
        f" {OVERLOAD_OPEN - OVERLOAD_LIMIT} past it connect at once and send `hello`; each must"
        f" be answered `busy` within {REFUSAL_DEADLINE:.0f} s (else *hang*); `connection_lost`"
        " means a reset or close without the typed answer."
    )
    return sec


def _errors(counts: Counter[str]) -> str:
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items())) or "none"
