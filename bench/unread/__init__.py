"""The daemon's memory while clients pipeline big replies and never read them (issue 26).

Each of ``HOGS`` connections sends ``REQUESTS`` ``history`` requests for a
page of about 4 MB at once and never reads. The daemon's RSS is read from
``/proc`` before (its baseline in the same run), at its peak while they are
connected, and after they are gone; beside it, what the clients asked for
and what the bounds allow (``daemon.max_unread_bytes`` per connection).
Before the bound, ten such clients took a daemon from 515 MB to 4.4 GB, and
it kept 4.3 GB after they closed.

Meanwhile a client that reads appends on its own connection: its latency
p50/p99 beside the same appends before the clients came (issue 48: once
the ten filled ``daemon.max_unread_bytes_total``, every append got ``busy``;
the target is a p99 under 50 ms with none refused).
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench._machine import percentile, say
from bench.report import Section, ratio
from reverie.config import Busy, Config
from reverie.daemon import Client
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.faults.support import big_session, hog, peak_rss_kib, rss_kib, unread_by_peer

HOGS = 10
REQUESTS = 100
PAGE_MB = 4  # about: 200 messages of 20 KB
AFTER = 2.0  # seconds after the clients closed that "after" is read
APPENDS = 500  # of the reading client, before the slow clients and while they hold their bytes


def _appends(client: Client, phase: str) -> tuple[list[float], int]:
    """Latencies of ``APPENDS`` appends of a client that reads its replies, and how many
    were refused ``busy``."""
    latencies, refused = [], 0
    for i in range(APPENDS):
        started = time.perf_counter()
        try:
            client.append(f"reader-{phase}", "user", f"turn {i}")
        except Busy:
            refused += 1
            continue
        latencies.append(time.perf_counter() - started)
    return latencies, refused


def _mib(kib: int) -> str:
    return f"{kib / 1024:,.0f} MiB"


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    bound = Config().daemon.max_unread_bytes
    with tempfile.TemporaryDirectory() as tmp:
        config = "[daemon]\nstall_timeout = 0\n[index]\nenabled = false\n"
        daemon = DaemonProcess(Path(tmp), config=config).start()
        try:
            assert daemon.proc is not None
            pid = daemon.proc.pid
            big_session(daemon)
            with daemon.client() as client:
                alone = _appends(client, "alone")
            before = rss_kib(pid)
            say(f"  .. {HOGS} clients x {REQUESTS} pages, never reading")
            hogs = [hog(daemon, REQUESTS) for _ in range(HOGS)]
            poll(lambda: all(unread_by_peer(h) == 0 for h in hogs), timeout=120)
            with daemon.client() as client:
                client.history("big", limit=1)  # after every page the daemon took
                held = client.status().process.unread_reply_bytes
                beside = _appends(client, "beside")
            during, peak = rss_kib(pid), peak_rss_kib(pid)
            for sock in hogs:
                sock.close()
            time.sleep(AFTER)  # the daemon sees each close at its next send: at once
            after = rss_kib(pid)
        finally:
            daemon.stop()
    section = Section(
        title="bench.unread — clients that never read their replies",
        intro=(
            f"{HOGS} connections each pipeline {REQUESTS} `history` pages of about"
            f" {PAGE_MB} MB and never read: {HOGS * REQUESTS * PAGE_MB:,} MB asked for."
            f" `daemon.max_unread_bytes` is {bound >> 20} MiB per connection."
            " The daemon's RSS from `/proc`, beside its own baseline before the clients."
        ),
    )
    table = section.table("phase", "daemon RSS", "vs before")
    for phase, kib in (
        ("before (baseline)", before),
        ("with the clients", during),
        ("peak (VmHWM)", peak),
        (f"{AFTER:g} s after they closed", after),
    ):
        table.row(phase, _mib(kib), ratio(kib, before))
        say(f"  {phase:<20} {_mib(kib):>10}  {ratio(kib, before)}")
    _reader_table(section, alone, beside, held)
    return section


def _reader_table(
    section: Section, alone: tuple[list[float], int], beside: tuple[list[float], int], held: int
) -> None:
    """The reading client's appends before the slow clients (baseline) and beside them."""
    total = Config().daemon.max_unread_bytes_total
    say(f"  .. the slow clients hold {held >> 20} MiB unread (total bound {total >> 20} MiB)")
    table = section.table("a client that reads", "appends acked", "busy", "p50", "p99")
    for phase, (lat, refused) in (
        ("alone (baseline)", alone),
        (f"beside the {HOGS} that never read", beside),
    ):
        p50, p99 = percentile(lat, 0.5) * 1e3, percentile(lat, 0.99) * 1e3
        table.row(phase, f"{len(lat):,}", refused, f"{p50:.1f} ms", f"{p99:.1f} ms")
        say(
            f"  {phase:<34} {len(lat):>5} acked {refused:>5} busy  p50 {p50:5.1f}  p99 {p99:5.1f} ms"
        )
    lat, refused = beside
    p99 = percentile(lat, 0.99) * 1e3
    met = refused == 0 and p99 < 50
    section.target(
        "unread.reader_p99",
        f"{p99:.1f} ms, {refused} busy",
        met,
        f"{refused} busy" if refused else f"{p99 - 50:.1f} ms over",
    )
