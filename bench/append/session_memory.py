"""Memory per session for the append benchmark, in-process (no socket).

100,000 sessions (or as many as fit in about a minute here; the output says
so) are made live through ``SessionRegistry`` (one append each), then
passivated by the idle timer (a second registry with ``passivate_after =
1``: one more append each, which reloads the row, then idle). Python heap
via tracemalloc (exact, excludes SQLite's own cache), gc-tracked objects,
and RSS from ``/proc/self/status``.
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path

import trio

from bench._machine import mark, rss_bytes, say
from reverie.actors import AppendRequest, Envelope, SessionRegistry
from reverie.actors.services import Services
from reverie.config import load_config
from reverie.daemon.protocol import MessageIn
from reverie.store import TokenCounter
from reverie.store.files.db import Database

__all__ = ["MEMORY_BUDGET", "MEMORY_SESSIONS", "memory"]

#: Sessions made live then passivated (``REVERIE_BENCH_MEMORY_SESSIONS`` for a small run).
MEMORY_SESSIONS = int(os.environ.get("REVERIE_BENCH_MEMORY_SESSIONS", "100000"))
MEMORY_BUDGET = 60.0  # seconds; fewer sessions are used if 100k would not fit


@dataclass
class Snapshot:
    traced: int  # bytes currently allocated through Python's allocators (tracemalloc)
    rss: int  # VmRSS minus tracemalloc's own bookkeeping
    objects: int  # gc-tracked objects

    @classmethod
    def take(cls) -> Snapshot:
        gc.collect()
        traced, _ = tracemalloc.get_traced_memory()
        return cls(
            traced, rss_bytes() - tracemalloc.get_tracemalloc_memory(), len(gc.get_objects())
        )


def _services(db: Database, data_dir: Path, passivate_after: float, max_live: int) -> Services:
    config = load_config(
        env={},
        overrides={
            "daemon": {"data_dir": str(data_dir)},
            "sessions": {"passivate_after": passivate_after, "max_live": max_live},
        },
    )
    return Services(config=config, db=db, tokens=TokenCounter())


class _Wave:
    """Counts the replies of one wave of appends; ``done`` is set when all arrived."""

    def __init__(self, size: int) -> None:
        self.remaining = size
        self.errors = 0
        self.done = trio.Event()

    def reply(self, outcome: object) -> None:
        self.errors += isinstance(outcome, BaseException)
        self.remaining -= 1
        if self.remaining == 0:
            self.done.set()


async def _append_each(registry: SessionRegistry, names: list[str], mid: str) -> int:
    """One append per session, in waves of 2,000; returns how many replies were errors."""
    errors = 0
    for i in range(0, len(names), 2000):
        chunk = names[i : i + 2000]
        wave = _Wave(len(chunk))
        for name in chunk:
            msg = MessageIn(role="user", content="hi", id=mid)
            await registry.send(name, Envelope(AppendRequest([msg]), wave.reply))
        await wave.done.wait()
        errors += wave.errors
    return errors


async def _probe_rate(tmp: Path) -> float:
    """Sessions/s that the live phase manages here (to size the memory run)."""
    db = Database(tmp / "probe.db", durability="process")
    await db.open()
    services = _services(db, tmp, 3600.0, 10_000)
    async with trio.open_nursery() as nursery:
        registry = SessionRegistry(services)
        await nursery.start(registry.run)
        started = trio.current_time()
        await _append_each(registry, [f"probe-{i}" for i in range(4000)], "p")
        rate = 4000 / (trio.current_time() - started)
        nursery.cancel_scope.cancel()
    await db.close()
    return rate


async def _memory(tmp: Path, n: int) -> dict[str, float]:
    db = Database(tmp / "mem.db", durability="process")
    await db.open()
    live_services = _services(db, tmp, 3600.0, n + 1)
    idle_services = _services(db, tmp, 1.0, n + 1)
    names = [f"mem-{i:06d}" for i in range(n)]
    tracemalloc.start()
    base = Snapshot.take()
    base_blocks = tracemalloc.take_snapshot()  # small: nothing traced yet

    async with trio.open_nursery() as nursery:  # phase 1: every session live
        registry = SessionRegistry(live_services)
        await nursery.start(registry.run)
        errors = await _append_each(registry, names, "a")
        await trio.sleep(0.2)
        live = registry.live
        live_snap = Snapshot.take()
        nursery.cancel_scope.cancel()

    async with trio.open_nursery() as nursery:  # phase 2: reload each, then idle out
        registry = SessionRegistry(idle_services)
        await nursery.start(registry.run)
        errors += await _append_each(registry, names, "b")
        while registry.live:
            await trio.sleep(0.25)
        await trio.sleep(0.2)
        passive_snap = Snapshot.take()
        residue = tracemalloc.take_snapshot().compare_to(base_blocks, "lineno")
        nursery.cancel_scope.cancel()

    tracemalloc.stop()
    await db.close()
    return {
        "live": live,
        "errors": errors,
        "live_traced": (live_snap.traced - base.traced) / max(1, live),
        "live_rss": (live_snap.rss - base.rss) / max(1, live),
        "live_objects": (live_snap.objects - base.objects) / max(1, live),
        "passive_traced": (passive_snap.traced - base.traced) / n,
        "passive_rss": (passive_snap.rss - base.rss) / n,
        "passive_objects": (passive_snap.objects - base.objects) / n,
        "passive_blocks": sum(d.count_diff for d in residue) / n,
        "residue_top": _top_sites(residue, n),
    }


def _top_sites(diffs: list[tracemalloc.StatisticDiff], n: int, k: int = 3) -> str:
    """The biggest leftover allocation sites, as ``file:line +bytes/session (blocks)``."""
    parts = []
    for d in sorted(diffs, key=lambda d: -d.size_diff)[:k]:
        frame = d.traceback[0]
        where = f"{Path(frame.filename).parent.name}/{Path(frame.filename).name}:{frame.lineno}"
        parts.append(f"{where} {d.size_diff / n:+.0f} B ({d.count_diff:+d} blocks)")
    return "; ".join(parts)


def memory() -> tuple[dict[str, float], int, float]:
    """Per-session memory figures, the sessions used, and the seconds it took."""
    say("\n[4] memory per session, in-process SessionRegistry (durability process, no socket)")
    with tempfile.TemporaryDirectory(prefix="reverie-mem-") as tmp:
        say("  .. probing the session rate")
        rate = trio.run(_probe_rate, Path(tmp))
        # two passes (live, then reload + idle), each slowed down by tracemalloc:
        # about 8x the untraced probe in all, measured on a 2-core machine
        fits = int(rate * MEMORY_BUDGET / 8 / 1000) * 1000
        n = max(1000, min(MEMORY_SESSIONS, fits))
        if n < MEMORY_SESSIONS:
            say(
                f"  NOTE: {MEMORY_SESSIONS:,} sessions would not fit in ~{MEMORY_BUDGET:.0f} s here"
                f" ({rate:,.0f} sessions/s untraced); using {n:,}"
            )
        say(f"  .. running with {n:,} sessions ({rate:,.0f} sessions/s untraced)")
        started = time.monotonic()
        gc.disable()  # full collections over millions of objects would dominate the run
        try:  # (every figure is taken right after an explicit gc.collect())
            m = trio.run(_memory, Path(tmp), n)
        finally:
            gc.enable()
        took = time.monotonic() - started
    _print_memory(m, n, took)
    return m, n, took


def _print_memory(m: dict[str, float], n: int, took: float) -> None:
    say(f"  {m['live']:,} live actors ({m['errors']} error replies; {took:.0f} s):")
    say(
        f"    per live actor:        {m['live_traced']:7,.0f} B traced"
        f"  {m['live_rss']:7,.0f} B RSS  {m['live_objects']:5.1f} gc objects"
        f"   [{mark(m['live_traced'] <= 4096)} target <= 4 KiB]"
    )
    say(
        f"    per passivated session: {m['passive_traced']:6,.1f} B traced"
        f"  {m['passive_rss']:7,.0f} B RSS  {m['passive_objects']:5.2f} gc objects"
        f"  {m['passive_blocks']:5.3f} allocated blocks"
        f"   [{mark(m['passive_blocks'] < 0.5 and m['passive_objects'] < 0.5)}"
        " target: no Python objects beyond the SQLite row]"
    )
    say(f"    biggest leftovers: {m['residue_top']}")
    say(
        f"    (in all {m['passive_blocks'] * n:,.0f} blocks and {m['passive_objects'] * n:,.0f}"
        f" gc objects left for {n:,} sessions: anything kept per session would count >= 1 of"
        " each per session. Leftover bytes with ~0 blocks/session are hash tables - trio's"
        " task set, parking lots, the registry's dict - that keep the capacity of their peak size)"
    )
    say(
        "    (traced = Python heap via tracemalloc, after gc.collect(), relative to before any"
        " session; RSS = VmRSS minus tracemalloc's own bookkeeping; RSS rarely shrinks after"
        " frees and includes SQLite's page cache)"
    )
