"""The daemon's resident memory at rest: after a few searches, and after indexing a backlog (issue 26).

Two daemons in the same run, with the local embedding model (the default):
one with the index on, one with ``[index] enabled = false`` (the baseline
for the same work). Each starts, takes 30 messages and 20 searches (the
baseline reads its history instead: it cannot search); then
the index-on one is given a backlog of ``REVERIE_BENCH_BACKLOG`` messages
(default 5,000; the issue's case is 30,000) appended at once, and its RSS
is read once the index has caught up and settled, again after it has
rested, and each time once the daemon has dropped its unused embedding
model and closed its unused index table (``idle``:
``embeddings.unload_after`` is ``REVERIE_BENCH_UNLOAD_AFTER``, 15 s, where
a default daemon waits 300 s). Before this issue: 217 MB at
start and 470 MB after one search; 838 MB and rising after 30k of a 98k
backlog (~10 KB per indexed message). ``REVERIE_BENCH_CONFIG`` adds TOML
to both daemons' configuration (e.g. ``"[embeddings]\noptimize_model = false\n"``).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from bench._daemon import wait_settled
from bench._machine import say
from bench.report import Section, ratio
from tests.daemon_process import DaemonProcess
from tests.faults.support import peak_rss_kib, rss_kib

BACKLOG = int(os.environ.get("REVERIE_BENCH_BACKLOG", "5000"))
REST = 5.0  # seconds the daemon rests before its ``rested`` reading
#: ``embeddings.unload_after`` here (300 s by default): the ``idle`` readings come once
#: the daemon has dropped its unused model, which a default daemon does after 5 minutes.
UNLOAD_AFTER = float(os.environ.get("REVERIE_BENCH_UNLOAD_AFTER", "15"))
EXTRA = os.environ.get("REVERIE_BENCH_CONFIG", "")
_WORDS = [
    "garden",
    "kayak",
    "permit",
    "bakery",
    "lisbon",
    "porto",
    "tea",
    "regatta",
    "violin",
    "harbour",
]


def _text(i: int) -> str:
    """A chat-sized turn of 20-40 words, different for every ``i``."""
    words = [_WORDS[(i * 7 + j * 3) % len(_WORDS)] for j in range(20 + i % 21)]
    return f"turn {i}: " + " ".join(words)


def _few_and_search(daemon: DaemonProcess, index: bool) -> None:
    """30 messages, then 20 searches (index off: 20 history reads instead)."""
    with daemon.client() as client:
        client.append_many("idle", [{"role": "user", "content": _text(i)} for i in range(30)])
        for i in range(20):
            if index:
                client.search(f"{_WORDS[i % 10]} {_WORDS[(i + 3) % 10]}", session="idle")
            else:
                client.history("idle")


def _backlog(daemon: DaemonProcess) -> float:
    """Append ``BACKLOG`` messages, wait until indexed and settled; messages embedded per second."""
    with daemon.client() as client:
        for start in range(0, BACKLOG, 500):
            batch = [{"role": "user", "content": _text(i)} for i in range(start, start + 500)]
            client.append_many(f"backlog/{start // 5000}", batch[: BACKLOG - start])
    began = time.perf_counter()
    say(f"  .. indexing a backlog of {BACKLOG:,} messages")
    took = wait_settled(daemon)
    return BACKLOG / max(took, time.perf_counter() - began)


def _idle(daemon: DaemonProcess, pid: int) -> int:
    """RSS once the daemon has dropped its unused model and closed its unused index table
    (both after ``embeddings.unload_after``), and handed its libraries' code pages back
    to the kernel right after the close."""
    with daemon.client() as client:
        deadline = time.monotonic() + 4 * UNLOAD_AFTER + 60
        while (index := client.status().index).model_loaded or index.table_open:
            if time.monotonic() > deadline:
                raise RuntimeError("the daemon kept its model or index open past unload_after")
            time.sleep(0.5)
    time.sleep(1.0)
    return rss_kib(pid)


def _run(index: bool) -> dict[str, int | float]:
    config = '[daemon]\nlog_level = "warning"\n' + ("" if index else "[index]\nenabled = false\n")
    unload = f"[embeddings]\nunload_after = {UNLOAD_AFTER}\n"
    extra = (
        EXTRA.replace("[embeddings]\n", unload, 1) if "[embeddings]\n" in EXTRA else unload + EXTRA
    )
    with tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=config + extra)
        daemon.env = {k: v for k, v in daemon.env.items() if not k.startswith("REVERIE_")}
        daemon.start()
        try:
            assert daemon.proc is not None
            pid = daemon.proc.pid
            got: dict[str, int | float] = {"start": rss_kib(pid)}
            _few_and_search(daemon, index)
            if index:
                wait_settled(daemon)
            got["searched"] = rss_kib(pid)
            if index:
                got["searched, idle"] = _idle(daemon, pid)
                got["rate"] = _backlog(daemon)
                got["indexed"] = rss_kib(pid)
            time.sleep(REST)
            got["rested"] = rss_kib(pid)
            if index:
                got["indexed, idle"] = _idle(daemon, pid)
            got["peak"] = peak_rss_kib(pid)
        finally:
            daemon.stop()
    return got


def _mib(kib: int | float) -> str:
    return f"{kib / 1024:,.0f} MiB"


def main() -> Section:
    say(__doc__.strip().splitlines()[0])
    say("  .. baseline: index off")
    off = _run(index=False)
    say("  .. index on (local embeddings)")
    on = _run(index=True)
    section = Section(
        title="bench.idle_memory — resident memory at rest",
        intro=(
            "Daemon RSS from `/proc`, index on (local MiniLM embeddings) beside the same"
            f" daemon with the index off, in the same run. The backlog is {BACKLOG:,} messages"
            f" appended at once (embedded at {on['rate']:,.0f}/s); `rested` is {REST:g} s later;"
            " an `idle` reading comes once the daemon has dropped its unused embedding model"
            f" (`embeddings.unload_after` = {UNLOAD_AFTER:g} s here, 300 s by default)."
            + (f" Added configuration: `{EXTRA.strip()}`." if EXTRA.strip() else "")
        ),
    )
    table = section.table("phase", "index on", "index off (baseline)", "on / off")
    for phase in (
        "start",
        "searched",
        "searched, idle",
        "indexed",
        "rested",
        "indexed, idle",
        "peak",
    ):
        base = off.get(phase, off["rested"])
        table.row(phase, _mib(on[phase]), _mib(base), ratio(on[phase], base))
        say(f"  {phase:<9} on {_mib(on[phase]):>9}   off {_mib(base):>9}")
    searched = on["searched, idle"] / 1024
    section.target(
        "memory.idle",
        f"{searched:,.0f} MiB idle after 20 searches ({on['searched'] / 1024:,.0f} MiB"
        f" before the model was dropped at unload_after = {UNLOAD_AFTER:g} s)",
        searched < 250,
    )
    rested = on["indexed, idle"] / 1024
    section.target(
        "memory.backlog",
        f"{rested:,.0f} MiB idle after a {BACKLOG:,}-message backlog"
        f" ({on['rested'] / 1024:,.0f} MiB {REST:g} s after it, model loaded)",
        rested < 300,
        "" if BACKLOG >= 30_000 else f"measured at {BACKLOG:,}, not 30,000",
    )
    return section
