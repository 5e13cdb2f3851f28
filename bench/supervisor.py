"""Supervisor bookkeeping: reverie's timer heap against a periodic scan.

What a per-host idle loop does today is wake every second and look at every
session. reverie keeps one timer per session over budget and sleeps until
the next deadline. This prints, at 10k / 100k / 1M sessions and in one run:

- the cost per append of reverie's bookkeeping (``Consolidator.appended``:
  a dict update, and a heap push only when the deadline moves earlier);
- the CPU the idle supervisor uses per second (nothing is due), against
  the CPU of one periodic scan per second over the same sessions.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import httpx
import trio

from reverie.actors import Consolidator, Services
from reverie.config import load_config
from reverie.store import Database, MemoryFiles, SessionRecord, TokenCounter

SIZES = (10_000, 100_000, 1_000_000)
IDLE_SECONDS = 1.0


def _records(n: int) -> list[SessionRecord]:
    return [
        SessionRecord(
            name=f"s{i}", scope=f"session/s{i}", created=0.0, tail_tokens=5000, last_active=0.0
        )
        for i in range(n)
    ]


def _periodic_scan(records: list[SessionRecord], now: float, idle_after: float, budget: int) -> int:
    """The baseline: every tick, look at every session."""
    return sum(1 for r in records if r.tail_tokens > budget and now - r.last_active >= idle_after)


async def _measure(n: int, root: Path) -> tuple[float, float, float]:
    cfg = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(root)})
    services = Services(config=cfg, db=Database(root / "unused.sqlite3"), tokens=TokenCounter())
    async with httpx.AsyncClient() as http:
        sup = Consolidator(services, MemoryFiles(root / "memory"), http)
        records = _records(n)
        start = time.perf_counter()
        for r in records:
            sup.appended(r)
        for r in records:  # the second append of each session: the common case
            sup.appended(r)
        per_append = (time.perf_counter() - start) / (2 * n)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(sup._timer_loop)
            cpu = time.process_time()
            await trio.sleep(IDLE_SECONDS)
            idle_cpu = (time.process_time() - cpu) / IDLE_SECONDS
            nursery.cancel_scope.cancel()
    scan_start = time.process_time()
    _periodic_scan(
        records, time.time(), cfg.consolidation.idle_after, cfg.consolidation.budget_tokens
    )
    scan_cpu = time.process_time() - scan_start
    return per_append, idle_cpu, scan_cpu


def main() -> None:
    print(__doc__.strip().splitlines()[0])
    print(
        f"{'sessions':>10} {'append cost':>12} {'idle supervisor cpu/s':>22} {'periodic scan cpu/s':>20} {'ratio':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for n in SIZES:
            print(f"  .. {n:,} sessions", flush=True)
            per_append, idle_cpu, scan_cpu = trio.run(_measure, n, Path(tmp))
            ratio = scan_cpu / idle_cpu if idle_cpu > 0 else float("inf")
            print(
                f"{n:>10,} {per_append * 1e6:>9.2f} µs {idle_cpu * 1e3:>19.3f} ms {scan_cpu * 1e3:>17.3f} ms {ratio:>9.0f}x"
            )


if __name__ == "__main__":
    main()
