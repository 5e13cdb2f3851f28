"""How fast the vector index follows the log, end to end, through a real daemon.

1. **Import.** ``REVERIE_BENCH_IMPORT`` messages (default 20,000) appended
   through the client in batches of 250 over 200 sessions, as ``reverie
   import`` does; then the time until ``status`` reports nothing behind and
   the index settled. Throughput = messages / (import time + catch-up time):
   append → searchable by vector, appends and embedding on the same cores.
2. **Search at that size.** p50/p99 of ``search`` with ``k=10`` and a
   session filter, default mode, over the indexed rows.
3. **Forget under the import's backlog.** A two-message session forgotten
   right after the import, while the index is still far behind, beside the
   same forget once the index has caught up (issue 48: a forget used to wait
   for the whole backlog).
4. **Lag under a steady load.** 100 appends/s from one client for 30 s
   (``REVERIE_BENCH_LAG_SECONDS``); ``status.index.seconds_behind`` sampled
   every 100 ms; its p99 and maximum.

Baseline in the same run: the import's own append rate (what the log alone
takes) — the index is measured against it.

Run: ``python -m bench indexing`` (``REVERIE_BENCH_IMPORT=100000`` for the
100k figure).
"""

from __future__ import annotations

import os
import random
import tempfile
import threading
import time
from pathlib import Path

from bench._corpus import append_sentences, sentence
from bench._machine import percentile, say
from bench.report import Section, ratio
from tests.daemon_process import DaemonProcess

_SESSIONS = 200
_BATCH = 250
_RATE = 100.0
_SETTLE_DEADLINE = 7200.0


def _import(daemon: DaemonProcess, total: int) -> float:
    """Append ``total`` messages; returns the seconds it took."""
    with daemon.client() as client:
        return append_sentences(
            client,
            total,
            _BATCH,
            seed=7,
            session_of=lambda first: f"bulk:{(first // _BATCH) % _SESSIONS}",
            id_prefix="i",
            report_every=40,
        )


def _caught_up(daemon: DaemonProcess) -> float:
    """Seconds until the index has every message and is settled."""
    start = time.perf_counter()
    last = -1
    with daemon.client() as client:
        while time.perf_counter() - start < _SETTLE_DEADLINE:
            index = client.status().index
            if index.settled and not index.messages_behind:
                return time.perf_counter() - start
            if index.messages_behind // 5000 != last:
                last = index.messages_behind // 5000
                say(f"  {index.messages_behind:,} messages behind")
            time.sleep(0.1)
    raise RuntimeError(f"the index did not catch up within {_SETTLE_DEADLINE:.0f} s")


def _forget_seconds(daemon: DaemonProcess, session: str) -> tuple[float, int]:
    """Seconds a forget of a fresh two-message ``session`` takes; messages behind then."""
    with daemon.client() as client:
        client.append(session, "user", f"a secret of {session}, to be forgotten")
        client.append(session, "assistant", "noted")
        behind = client.status().index.messages_behind
        start = time.perf_counter()
        client.forget(session)
        return time.perf_counter() - start, behind


def _search_latency(daemon: DaemonProcess, searches: int = 200) -> tuple[float, float]:
    rng = random.Random(11)
    lat = []
    with daemon.client() as client:
        for _ in range(searches):
            query = " ".join(sentence(rng).split()[:4])
            session = f"bulk:{rng.randrange(_SESSIONS)}"
            start = time.perf_counter()
            client.search(query, session=session, k=10)
            lat.append(time.perf_counter() - start)
    return percentile(lat, 0.5), percentile(lat, 0.99)


def _lag(daemon: DaemonProcess, seconds: float) -> tuple[float, float, int]:
    """p99 and max of ``seconds_behind`` under ``_RATE`` appends/s; appends made."""
    stop = threading.Event()
    samples: list[float] = []

    def sample() -> None:
        with daemon.client() as client:
            while not stop.is_set():
                samples.append(client.status().index.seconds_behind)
                stop.wait(0.1)

    sampler = threading.Thread(target=sample)
    sampler.start()
    rng = random.Random(5)
    sent = 0
    start = time.perf_counter()
    try:
        with daemon.client() as client:
            while (now := time.perf_counter() - start) < seconds:
                due = int(now * _RATE)
                while sent < due:
                    client.append("steady", "user", sentence(rng), id=f"l{sent}")
                    sent += 1
                time.sleep(0.002)
    finally:
        stop.set()
        sampler.join()
    return percentile(samples, 0.99), max(samples), sent


def main() -> Section:
    total = int(os.environ.get("REVERIE_BENCH_IMPORT", "20000"))
    lag_seconds = float(os.environ.get("REVERIE_BENCH_LAG_SECONDS", "30"))
    section = Section("Indexing: append → searchable by vector, end to end (issue 14)")
    with tempfile.TemporaryDirectory(prefix="reverie-indexing-") as tmp:
        daemon = DaemonProcess(Path(tmp), config='[daemon]\nlog_level = "warning"\n')
        daemon.env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
        daemon.start()
        try:
            say(f"[1] import {total:,} messages, then wait for the index")
            appended = _import(daemon, total)
            busy, busy_behind = _forget_seconds(daemon, "forget:busy")
            say(f"  a forget {busy:.2f} s, {busy_behind:,} messages behind")
            behind = _caught_up(daemon)
            idle, _ = _forget_seconds(daemon, "forget:idle")
            say(f"  caught up: a forget {idle:.2f} s")
            end_to_end = total / (appended + behind)
            say(f"  appended in {appended:.1f} s, indexed {behind:.1f} s later")
            say(f"[2] search, k=10, session filter, {total:,} rows")
            p50, p99 = _search_latency(daemon)
            say(f"  p50 {p50 * 1e3:.1f} ms  p99 {p99 * 1e3:.1f} ms")
            say(f"[4] lag at {_RATE:.0f} appends/s for {lag_seconds:.0f} s")
            lag99, lag_max, sent = _lag(daemon, lag_seconds)
            say(f"  seconds_behind p99 {lag99:.2f} s, max {lag_max:.2f} s ({sent} appends)")
        finally:
            daemon.stop()
    log_rate = total / appended
    table = section.table("measure", "figure", "baseline (same run)", "ratio")
    table.row(
        f"import of {total:,} messages, append → searchable by vector",
        f"{end_to_end:,.0f} messages/s ({appended + behind:.1f} s)",
        f"appends alone {log_rate:,.0f} messages/s ({appended:.1f} s)",
        ratio(end_to_end, log_rate),
    )
    table.row(
        f"search p50 / p99, k=10, session filter, {total:,} rows",
        f"{p50 * 1e3:.1f} / {p99 * 1e3:.1f} ms",
        "",
        "",
    )
    table.row(
        f"forget of a session, {busy_behind:,} messages behind (issue 48)",
        f"{busy:.2f} s",
        f"index caught up {idle:.2f} s",
        ratio(busy, idle),
    )
    table.row(
        f"index lag at {_RATE:.0f} appends/s ({lag_seconds:.0f} s)",
        f"p99 {lag99:.2f} s, max {lag_max:.2f} s",
        "",
        "",
    )
    section.intro = (
        "A real daemon on its defaults; the client appends in batches of 250 over 200"
        " sessions (synthetic sentences), on the same two cores as the daemon's embedder."
    )
    section.target(
        "index.throughput",
        f"{end_to_end:,.0f} messages/s",
        end_to_end >= 1000,
        f"{end_to_end:,.0f} < 1,000",
    )
    section.target("index.lag", f"p99 {lag99:.2f} s", lag99 < 2.0, f"{lag99:.2f} s ≥ 2 s")
    if total >= 100_000:
        section.target(
            "search.100k", f"p50 {p50 * 1e3:.1f} ms", p50 < 0.030, f"{p50 * 1e3:.1f} ms ≥ 30 ms"
        )
    return section
