"""Working-memory figures over the real socket, against a daemon started for the run.

Prints wm_set / wm_get throughput with 1 and 64 clients, checkpoint create
and restore time for scopes of 1k and 100k keys, and the resident memory a
scope costs while live and once passivated (RSS of a fresh daemon). Durability is the default (``fsync``): every
acknowledged write is on disk, so single-client writes are bounded by fsync
latency and concurrent clients share group commits.

Run from the repository root: ``python -m bench.working_memory``.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from bench._machine import rss_bytes
from bench.report import Section, ratio
from reverie.daemon import AsyncClient
from tests.daemon_process import DaemonProcess

__all__ = ["main"]

#: Scopes stay live long enough to be measured live, then passivate; the large scope
#: is over the default bounds (``bench.wm_checkpoint`` measures a scope at them).
CONFIG = """
[sessions]
passivate_after = 5.0
max_live = 100000
[working_memory]
max_keys = 1000000
max_scope_bytes = 1000000000
"""


async def _clients(
    socket: str, clients: int, work: Callable[[AsyncClient, int], Awaitable[None]]
) -> float:
    """Seconds for ``clients`` connections each running ``work(client, index)``."""

    async def one(i: int) -> None:
        async with AsyncClient(socket) as client:
            await work(client, i)

    start = time.perf_counter()
    async with trio.open_nursery() as nursery:
        for i in range(clients):
            nursery.start_soon(one, i)
    return time.perf_counter() - start


async def _throughput(socket: str, clients: int, ops: int) -> tuple[float, float]:
    per = ops // clients

    async def sets(client: AsyncClient, i: int) -> None:
        for n in range(per):
            await client.wm_set("bench/throughput", f"c{i}-{n % 100}", {"n": n, "text": "x" * 64})

    async def gets(client: AsyncClient, i: int) -> None:
        for n in range(per):
            await client.wm_get("bench/throughput", f"c{i}-{n % 100}")

    set_s = await _clients(socket, clients, sets)
    get_s = await _clients(socket, clients, gets)
    return per * clients / set_s, per * clients / get_s


async def _fill(socket: str, scope: str, keys: int) -> None:
    async def work(client: AsyncClient, i: int) -> None:
        for n in range(i, keys, 64):
            await client.wm_set(scope, f"key-{n:06d}", {"n": n, "text": "v" * 48})

    await _clients(socket, 64, work)


async def _checkpoint(socket: str, scope: str) -> tuple[float, float, int]:
    async with AsyncClient(socket) as client:
        start = time.perf_counter()
        checkpoint = await client.checkpoint_create(scope)
        created = time.perf_counter() - start
        await client.wm_set(scope, "key-000000", "changed")
        start = time.perf_counter()
        restored = await client.checkpoint_restore(scope, checkpoint)
        return created, time.perf_counter() - start, restored


async def _many_scopes(socket: str, scopes: int, project: str) -> None:
    async def work(client: AsyncClient, i: int) -> None:
        for n in range(i, scopes, 64):
            await client.wm_set(f"project/{project}/agent/a{n}", "k", n)

    await _clients(socket, 64, work)


def _wait_passivated(daemon: DaemonProcess, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    with daemon.client() as client:
        while client.status().scopes.live:
            if time.monotonic() > deadline:
                raise RuntimeError("scopes did not passivate in time")
            time.sleep(0.1)


def _memory_per_scope(root: Path, scopes: int) -> tuple[float, float, int]:
    """RSS per live scope, and per passivated scope in steady state, in a fresh daemon.

    Live: growth while ``scopes`` actors are live. Passivated: growth over a
    second round of as many new scopes once both rounds have passivated, so
    pages Python keeps from the first round's actors are not counted.
    Returns (bytes per live scope, bytes per passivated scope, live count).
    """
    root.mkdir()
    daemon = DaemonProcess(root, config=CONFIG).start()
    assert daemon.proc is not None
    try:
        trio.run(_many_scopes, str(daemon.socket), 100, "warm")
        _wait_passivated(daemon)
        base = rss_bytes(daemon.proc.pid)
        trio.run(_many_scopes, str(daemon.socket), scopes, "first")
        live = rss_bytes(daemon.proc.pid)
        with daemon.client() as client:
            live_count = client.status().scopes.live
        _wait_passivated(daemon)
        first = rss_bytes(daemon.proc.pid)
        trio.run(_many_scopes, str(daemon.socket), scopes, "second")
        _wait_passivated(daemon)
        second = rss_bytes(daemon.proc.pid)
    finally:
        daemon.stop()
    per_live, per_passive = (live - base) / scopes, (second - first) / scopes
    print(f"live scope:       {per_live:>7,.0f} bytes RSS each ({live_count:,} live)")
    print(f"passivated scope: {per_passive:>7,.0f} bytes RSS each (steady state)")
    return per_live, per_passive, live_count


def main(argv: list[str] | None = None) -> Section:
    """``argv`` are this module's own flags (none when run by ``python -m bench``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=6400, help="operations per throughput run")
    parser.add_argument("--big", type=int, default=100_000, help="keys in the large scope")
    parser.add_argument("--scopes", type=int, default=10_000, help="scopes for the memory figure")
    args = parser.parse_args(argv or [])
    rates: dict[int, tuple[float, float]] = {}
    checkpoints: dict[int, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=CONFIG).start()
        assert daemon.proc is not None
        socket = str(daemon.socket)
        try:
            for clients in (1, 64):
                print(f"  .. wm_set / wm_get, {clients} client(s)", flush=True)
                sets, gets = rates[clients] = trio.run(_throughput, socket, clients, args.ops)
                print(f"wm_set  {clients:>2} clients: {sets:>9,.0f} ops/s")
                print(f"wm_get  {clients:>2} clients: {gets:>9,.0f} ops/s")
            for keys in (1000, args.big):
                print(f"  .. filling a scope with {keys:,} keys", flush=True)
                scope = f"bench/checkpoint-{keys}"
                trio.run(_fill, socket, scope, keys)
                created, restored, count = trio.run(_checkpoint, socket, scope)
                assert count == keys
                checkpoints[keys] = created, restored
                print(
                    f"checkpoint {keys:>7,} keys: create {created * 1000:8.1f} ms,"
                    f" restore {restored * 1000:8.1f} ms"
                )
        finally:
            daemon.stop()
        print(f"  .. memory per scope ({args.scopes:,} scopes, fresh daemon)", flush=True)
        per_live, per_passive, live_count = _memory_per_scope(Path(tmp) / "memory", args.scopes)
    section = Section(
        title="Working memory (`bench/working_memory.py`, issue 7)",
        intro=(
            "Over the socket against a real daemon (durability fsync), closed-loop clients."
            f" {args.ops:,} operations per throughput run. The issue sets no numeric target;"
            " the 64-client/1-client ratio shows what group commit buys."
        ),
    )
    t = section.table("op", "1 client", "64 clients", "64 / 1")
    t.row(
        "`wm_set`",
        f"{rates[1][0]:,.0f} ops/s",
        f"{rates[64][0]:,.0f} ops/s",
        ratio(rates[64][0], rates[1][0]),
    )
    t.row(
        "`wm_get`",
        f"{rates[1][1]:,.0f} ops/s",
        f"{rates[64][1]:,.0f} ops/s",
        ratio(rates[64][1], rates[1][1]),
    )
    t = section.table("checkpoint", "create", "restore")
    for keys, (created, restored) in checkpoints.items():
        t.row(f"{keys:,} keys", f"{created * 1e3:.1f} ms", f"{restored * 1e3:.1f} ms")
    t = section.table("memory (daemon RSS)", "per scope")
    t.row(f"live scope ({live_count:,} live)", f"{per_live:,.0f} B")
    t.row(f"passivated scope ({args.scopes:,}, steady state)", f"{per_passive:,.0f} B")
    return section
