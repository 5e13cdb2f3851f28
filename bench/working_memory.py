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

from reverie.daemon import AsyncClient
from tests.daemon_process import DaemonProcess

__all__ = ["main"]

#: Scopes stay live long enough to be measured live, then passivate.
CONFIG = """
[sessions]
passivate_after = 5.0
max_live = 100000
"""


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS in /proc status")


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
        while client.status()["scopes"]["live"]:
            if time.monotonic() > deadline:
                raise RuntimeError("scopes did not passivate in time")
            time.sleep(0.1)


def _memory_per_scope(root: Path, scopes: int) -> None:
    """RSS per live scope, and per passivated scope in steady state, in a fresh daemon.

    Live: growth while ``scopes`` actors are live. Passivated: growth over a
    second round of as many new scopes once both rounds have passivated, so
    pages Python keeps from the first round's actors are not counted.
    """
    root.mkdir()
    daemon = DaemonProcess(root, config=CONFIG).start()
    assert daemon.proc is not None
    try:
        trio.run(_many_scopes, str(daemon.socket), 100, "warm")
        _wait_passivated(daemon)
        base = _rss_kib(daemon.proc.pid)
        trio.run(_many_scopes, str(daemon.socket), scopes, "first")
        live = _rss_kib(daemon.proc.pid)
        with daemon.client() as client:
            live_count = client.status()["scopes"]["live"]
        _wait_passivated(daemon)
        first = _rss_kib(daemon.proc.pid)
        trio.run(_many_scopes, str(daemon.socket), scopes, "second")
        _wait_passivated(daemon)
        second = _rss_kib(daemon.proc.pid)
    finally:
        daemon.stop()
    print(
        f"live scope:       {(live - base) * 1024 / scopes:>7,.0f} bytes RSS each ({live_count:,} live)"
    )
    print(
        f"passivated scope: {(second - first) * 1024 / scopes:>7,.0f} bytes RSS each (steady state)"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ops", type=int, default=6400, help="operations per throughput run")
    parser.add_argument("--big", type=int, default=100_000, help="keys in the large scope")
    parser.add_argument("--scopes", type=int, default=10_000, help="scopes for the memory figure")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        daemon = DaemonProcess(Path(tmp), config=CONFIG).start()
        assert daemon.proc is not None
        socket = str(daemon.socket)
        try:
            for clients in (1, 64):
                sets, gets = trio.run(_throughput, socket, clients, args.ops)
                print(f"wm_set  {clients:>2} clients: {sets:>9,.0f} ops/s")
                print(f"wm_get  {clients:>2} clients: {gets:>9,.0f} ops/s")
            for keys in (1000, args.big):
                scope = f"bench/checkpoint-{keys}"
                trio.run(_fill, socket, scope, keys)
                created, restored, count = trio.run(_checkpoint, socket, scope)
                assert count == keys
                print(
                    f"checkpoint {keys:>7,} keys: create {created * 1000:8.1f} ms,"
                    f" restore {restored * 1000:8.1f} ms"
                )
        finally:
            daemon.stop()
        _memory_per_scope(Path(tmp) / "memory", args.scopes)


if __name__ == "__main__":
    main()
