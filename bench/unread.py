"""The daemon's memory while clients pipeline big replies and never read them (issue 26).

Each of ``HOGS`` connections sends ``REQUESTS`` ``history`` requests for a
page of about 4 MB at once and never reads. The daemon's RSS is read from
``/proc`` before (its baseline in the same run), at its peak while they are
connected, and after they are gone; beside it, what the clients asked for
and what the bounds allow (``daemon.max_unread_bytes`` per connection).
Before the bound, ten such clients took a daemon from 515 MB to 4.4 GB, and
it kept 4.3 GB after they closed.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from bench._machine import say
from bench.report import Section, ratio
from reverie.config import Config
from tests.checks import poll
from tests.daemon_process import DaemonProcess
from tests.faults.support import big_session, hog, peak_rss_kib, rss_kib, unread_by_peer

HOGS = 10
REQUESTS = 100
PAGE_MB = 4  # about: 200 messages of 20 KB
AFTER = 2.0  # seconds after the clients closed that "after" is read


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
            before = rss_kib(pid)
            say(f"  .. {HOGS} clients x {REQUESTS} pages, never reading")
            hogs = [hog(daemon, REQUESTS) for _ in range(HOGS)]
            poll(lambda: all(unread_by_peer(h) == 0 for h in hogs), timeout=120)
            with daemon.client() as client:
                client.history("big", limit=1)  # after every page the daemon took
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
    return section
