"""The raw apsw baseline for the append benchmark: what SQLite itself does.

The same group commit and durability as the daemon, in one process: WAL,
``synchronous=FULL``, a writer thread draining a ``queue.SimpleQueue`` fed
by closed-loop producer threads, and reverie's own schema (same table, same
unique indexes). The daemon/raw ratio is the cost of everything reverie adds
(framing, msgpack, actors, trio, token counting, duplicate-id checks).
"""

from __future__ import annotations

import contextlib
import queue
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import apsw

from bench._machine import Cost, Usage
from reverie.store.files.schema import migrate

__all__ = ["CONTENT", "Raw", "raw_apsw"]

#: What every appended message says, in the daemon cases and in the raw rows alike.
CONTENT = "hello from the benchmark"

_INSERT = (
    "INSERT INTO messages (session, seq, id, role, content, ts, tokens)"
    " VALUES (?, ?, ?, 'user', ?, ?, 5)"
)


def _raw_writer(conn: apsw.Connection, q: queue.SimpleQueue, stats: list[int]) -> None:
    """Group commit: take everything queued, one transaction, then wake the producers."""
    while True:
        first = q.get()
        if first is None:
            return
        batch = [first]
        with contextlib.suppress(queue.Empty):
            while True:
                batch.append(q.get_nowait())
        stop = batch[-1] is None
        if stop:
            batch.pop()
        conn.execute("BEGIN IMMEDIATE")
        for row, _ in batch:
            conn.execute(_INSERT, row)
        conn.execute("COMMIT")
        stats[0] += 1
        stats[1] += len(batch)
        for _, done in batch:
            done.set()
        if stop:
            return


def _raw_producer(
    p: int, q: queue.SimpleQueue, window: tuple[float, float], counts: list[int]
) -> None:
    """Closed loop like a client: queue one row, wait until it is committed, repeat."""
    t0, t1 = window
    done = threading.Event()
    seq = 0
    while time.monotonic() < t1:
        seq += 1
        done.clear()
        q.put(((f"raw-{p}", seq, f"{p}-{seq}", CONTENT, time.time()), done))
        done.wait()
        if t0 <= time.monotonic() < t1:
            counts[p] += 1


@dataclass(frozen=True, slots=True)
class Raw:
    """What the raw baseline did in its measured window."""

    rate: float  # rows/s committed and acknowledged to their producer
    per_commit: float  # mean rows per transaction (whole run)
    cost: Cost  # this process's CPU (producers + writer) and read/write syscalls per row


def raw_apsw(producers: int, *, warmup: float, duration: float) -> Raw:
    """Raw apsw with group commit: rows/s, rows per commit, and the cost per row.

    The cost is read from /proc/self at the window's edges, like the daemon's:
    the whole process, so it includes the producer threads (the "clients").
    """
    with tempfile.TemporaryDirectory(prefix="reverie-raw-") as tmp:
        conn = apsw.Connection(str(Path(tmp) / "raw.db"))
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        migrate(conn)  # reverie's own schema: same table, same unique indexes
        q: queue.SimpleQueue = queue.SimpleQueue()
        stats, counts = [0, 0], [0] * producers
        writer = threading.Thread(target=_raw_writer, args=(conn, q, stats))
        writer.start()
        start = time.monotonic()
        window = (start + warmup, start + warmup + duration)
        threads = [
            threading.Thread(target=_raw_producer, args=(p, q, window, counts))
            for p in range(producers)
        ]
        for t in threads:
            t.start()
        edges = []
        for edge in window:
            time.sleep(max(0.0, edge - time.monotonic()))
            edges.append(Usage.of())
        for t in threads:
            t.join()
        q.put(None)
        writer.join()
        conn.close()
    acked = sum(counts)
    return Raw(acked / duration, stats[1] / max(1, stats[0]), Cost.between(*edges, acked))
