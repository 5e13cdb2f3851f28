"""How long a checkpoint of a full working-memory scope holds other clients' appends.

A checkpoint (and a restore) is one write of the scope's actor on the
database's single writer thread; the appends of every other client that
meet it in a group commit wait for it. Issue 48 found 2.6-4.3 s per
checkpoint of an unbounded scope (4,000 keys of 60 KB). This fills one
scope to its bounds, then measures the appends of ``--clients`` other
clients: first alone (the baseline), then while one more client
checkpoints, restores and deletes that scope in a loop (``--every``
seconds apart, so each operation meets appends, not only the last one's
tail). Reported: append
latency p50/p99/max in both phases, the checkpoint operations' own
times, and (steadier on a shared machine) each operation's write and
commit timed in-process on the same data, ``--trials`` times.

Run from the repository root: ``python -m bench.wm_checkpoint``; with
``--keys 4000 --value-bytes 60000`` (bounds raised to fit) it measures
the issue's unbounded scope.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import apsw
import msgspec
import trio

from bench._machine import percentile
from bench.report import Section
from reverie.config import WorkingMemoryConfig
from reverie.daemon import AsyncClient
from reverie.store import (
    DropCheckpoint,
    LoadCheckpoint,
    PutKey,
    SaveCheckpoint,
    ScopeBounds,
    Tx,
    apply_writes,
)
from reverie.store.files.db import SQLITE_SQL
from reverie.store.files.schema import migrate
from tests.daemon_process import DaemonProcess

__all__ = ["main"]

SCOPE = "bench/full"
DEFAULTS = WorkingMemoryConfig()


def _ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1e3:.1f} ms"


async def _fill(socket: str, keys: int, value_bytes: int) -> None:
    async def work(i: int) -> None:
        async with AsyncClient(socket) as client:
            for n in range(i, keys, 16):
                await client.wm_set(SCOPE, f"key-{n:06d}", "v" * value_bytes)

    async with trio.open_nursery() as nursery:
        for i in range(16):
            nursery.start_soon(work, i)


async def _phase(
    socket: str, clients: int, seconds: float, checkpoints: bool, every: float
) -> tuple:
    """Append latencies of ``clients`` for ``seconds``; with ``checkpoints``, their times too."""
    latencies: list[float] = []
    ops: dict[str, list[float]] = {"create": [], "restore": [], "delete": []}
    deadline = time.monotonic() + seconds

    async def appender(i: int) -> None:
        async with AsyncClient(socket) as client:
            n = 0
            while time.monotonic() < deadline:
                start = time.perf_counter()
                await client.append(f"bench/other-{i}", "user", f"turn {n} of client {i}")
                latencies.append(time.perf_counter() - start)
                n += 1

    async def timed(name: str, call) -> object:
        start = time.perf_counter()
        result = await call
        ops[name].append(time.perf_counter() - start)
        return result

    async def checkpointer() -> None:
        async with AsyncClient(socket) as client:
            while time.monotonic() < deadline:
                cid = await timed("create", client.checkpoint_create(SCOPE))
                await trio.sleep(every)
                await timed("restore", client.checkpoint_restore(SCOPE, cid))
                await trio.sleep(every)
                await timed("delete", client.checkpoint_delete(SCOPE, cid))
                await trio.sleep(every)

    async with trio.open_nursery() as nursery:
        for i in range(clients):
            nursery.start_soon(appender, i)
        if checkpoints:
            nursery.start_soon(checkpointer)
    return latencies, ops


def _writer_hold(root: Path, keys: int, value_bytes: int, trials: int) -> dict[str, list[float]]:
    """Seconds each operation's write function holds the writer, and its commit, in-process.

    The socket figures move with the machine's load; this is the part a
    checkpoint adds to the group commit it meets (its fsync is shared).
    """
    conn = apsw.Connection(str(root / "hold.sqlite3"))
    conn.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL")
    migrate(conn)
    tx = Tx(conn, SQLITE_SQL, None)  # the seam the scope actor writes through, on this connection
    bounds = ScopeBounds(keys, 2**62, trials)
    value = msgspec.msgpack.encode("v" * value_bytes)
    with conn:
        puts = [(PutKey(f"key-{n:06d}", value, None, None), 1.0) for n in range(keys)]
        apply_writes(tx, SCOPE, puts, bounds)
    held: dict[str, list[float]] = {"create": [], "restore": [], "delete": []}
    for trial in range(trials):
        writes = [SaveCheckpoint(f"c{trial}", None), LoadCheckpoint(f"c{trial}")]
        for name, write in zip(held, [*writes, DropCheckpoint(f"c{trial}")], strict=True):
            start = time.perf_counter()
            with conn:
                (outcome,) = apply_writes(tx, SCOPE, [(write, 2.0)], bounds)
                assert not isinstance(outcome, Exception), outcome
            held[name].append(time.perf_counter() - start)
    conn.close()
    return held


def main(argv: list[str] | None = None) -> Section:
    """``argv`` are this module's own flags (none when run by ``python -m bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=DEFAULTS.max_keys, help="keys in the scope")
    parser.add_argument(
        "--value-bytes",
        type=int,
        default=DEFAULTS.max_scope_bytes // DEFAULTS.max_keys - 16,
        help="bytes of each value (default: the scope at both default bounds)",
    )
    parser.add_argument("--clients", type=int, default=8, help="appending clients")
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase")
    parser.add_argument("--trials", type=int, default=10, help="in-process repetitions")
    parser.add_argument(
        "--every", type=float, default=0.2, help="pause between checkpoint operations (s)"
    )
    args = parser.parse_args(argv or [])
    total = args.keys * (args.value_bytes + 5)
    config = (
        "[working_memory]\n"
        f"max_keys = {max(args.keys, DEFAULTS.max_keys)}\n"
        f"max_scope_bytes = {max(total, DEFAULTS.max_scope_bytes)}\n"
        f"max_value_bytes = {max(args.value_bytes + 16, DEFAULTS.max_value_bytes)}\n"
    )
    with tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=config).start()
        socket = str(daemon.socket)
        try:
            print(f"  .. filling {SCOPE}: {args.keys:,} keys x {args.value_bytes:,} B", flush=True)
            trio.run(_fill, socket, args.keys, args.value_bytes)
            alone, _ = trio.run(_phase, socket, args.clients, args.seconds, False, args.every)
            during, ops = trio.run(_phase, socket, args.clients, args.seconds, True, args.every)
        finally:
            daemon.stop()
        held = _writer_hold(Path(tmp), args.keys, args.value_bytes, args.trials)
    section = Section(
        title="A checkpoint of a full scope beside other clients' appends (`bench/wm_checkpoint.py`)",
        intro=(
            f"One scope of {args.keys:,} keys x {args.value_bytes:,} B ({total / 2**20:.1f} MiB of"
            f" values); {args.clients} other clients append in a closed loop for"
            f" {args.seconds:.0f} s alone, then {args.seconds:.0f} s while one client checkpoints,"
            f" restores and deletes that scope in a loop, {args.every} s between operations"
            " (durability fsync)."
        ),
    )
    t = section.table("appends of the other clients", "count", "p50", "p99", "max")
    for name, values in (("alone (baseline)", alone), ("during checkpoints", during)):
        t.row(name, f"{len(values):,}", _ms(values, 0.5), _ms(values, 0.99), _ms(values, 1.0))
        print(
            f"appends {name:>20}: p50 {_ms(values, 0.5)}, p99 {_ms(values, 0.99)}, max {_ms(values, 1.0)}"
        )
    t = section.table("the checkpointing client", "count", "p50", "max")
    for name, values in ops.items():
        if values:
            t.row(f"`checkpoint_{name}`", len(values), _ms(values, 0.5), _ms(values, 1.0))
            print(
                f"checkpoint_{name:>8}: {len(values)} x, p50 {_ms(values, 0.5)}, max {_ms(values, 1.0)}"
            )
    t = section.table("in-process: the write and its commit", "min", "p50", "max")
    for name, values in held.items():
        t.row(f"`checkpoint_{name}`", _ms(values, 0.0), _ms(values, 0.5), _ms(values, 1.0))
        print(f"in-process {name:>8}: min {_ms(values, 0.0)}, p50 {_ms(values, 0.5)}")
    return section
