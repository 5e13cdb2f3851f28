"""Supervisor bookkeeping: reverie's timer heap against a periodic scan.

What a per-host idle loop does today is wake every second and look at every
session. reverie keeps one timer per session over budget and sleeps until
the next deadline. This prints, at 10k / 100k / 1M sessions and in one run:

- the cost per append of reverie's bookkeeping (``Supervisor.appended``:
  a dict update, and a heap push only when the deadline moves earlier);
- the CPU the idle supervisor uses per second (nothing is due), against
  the CPU of one periodic scan per second over the same sessions;
- the time its timer loop takes to find and queue the due sessions when 1 %
  of them are idle and over budget.

The real ``Supervisor`` runs in-process (no daemon, no socket, no LLM:
nothing is consolidated, due sessions are only queued). :func:`measure` is
also what ``bench.nanobot_compare`` runs against nanobot's idle scan.
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import trio
import trio.testing

from bench.report import Section, ratio
from reverie.actors import Services, Supervisor
from reverie.config import load_config
from reverie.store import SessionRecord, TokenCounter
from reverie.store.files.db import Database

SIZES = (10_000, 100_000, 1_000_000)
IDLE_SECONDS = 1.0
DUE_EVERY = 100  # 1 % of the sessions are idle and over budget in the find-due case


@dataclass(slots=True)
class SupervisorCost:
    """One size's figures (seconds)."""

    sessions: int
    per_append: float  # Supervisor.appended, wall, mean over 2 appends per session
    idle_cpu: float  # CPU seconds per second of the idle timer loop (nothing due)
    scan_cpu: float  # CPU seconds of one periodic scan over the same sessions (baseline)
    find_due: float  # wall seconds for the timer loop to queue the due sessions
    due: int  # sessions queued in that case


def _records(n: int, last_active: float = 0.0) -> list[SessionRecord]:
    return [
        SessionRecord(
            name=f"s{i}",
            scope=f"session/s{i}",
            created=0.0,
            tail_tokens=5000,
            last_active=last_active,
        )
        for i in range(n)
    ]


def _periodic_scan(records: list[SessionRecord], now: float, idle_after: float, budget: int) -> int:
    """The baseline: every tick, look at every session."""
    return sum(1 for r in records if r.tail_tokens > budget and now - r.last_active >= idle_after)


async def _measure(n: int, root: Path) -> SupervisorCost:
    cfg = load_config(env={"REVERIE_DAEMON__DATA_DIR": str(root)})
    services = Services(config=cfg, db=Database(root / "unused.sqlite3"), tokens=TokenCounter())
    records = _records(n)
    async with httpx.AsyncClient() as http:
        sup = Supervisor(services, http)
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
        del sup

        # 1 % idle past idle_after (placed in the past through the same hook that
        # recovery and consolidation use), the rest just active.
        sup = Supervisor(services, http)
        old = time.time() - cfg.consolidation.idle_after - 1
        for i, r in enumerate(records):
            if i % DUE_EVERY:
                sup.appended(r)
            else:
                sup.consolidated(
                    SessionRecord(
                        name=r.name,
                        scope=r.scope,
                        created=0.0,
                        tail_tokens=r.tail_tokens,
                        last_active=old,
                    )
                )
        queue = sup.backends["default"].send
        async with trio.open_nursery() as nursery:
            start = time.perf_counter()
            nursery.start_soon(sup._timer_loop)
            await trio.testing.wait_all_tasks_blocked()
            find_due = time.perf_counter() - start
            due = queue.statistics().current_buffer_used
            nursery.cancel_scope.cancel()
    scan_start = time.process_time()
    _periodic_scan(
        records, time.time(), cfg.consolidation.idle_after, cfg.consolidation.budget_tokens
    )
    scan_cpu = time.process_time() - scan_start
    return SupervisorCost(n, per_append, idle_cpu, scan_cpu, find_due, due)


def measure(n: int) -> SupervisorCost:
    """The supervisor's figures with ``n`` sessions over budget (a fresh trio run)."""
    with tempfile.TemporaryDirectory(prefix="reverie-sup-") as tmp:
        return trio.run(_measure, n, Path(tmp))


def main(sizes: tuple[int, ...] = SIZES) -> Section:
    print(__doc__.strip().splitlines()[0])
    section = Section(
        title="Supervisor (`bench/supervisor.py`, issue 5)",
        intro=(
            "The real `Supervisor` in-process with N sessions over budget (no daemon, no"
            " LLM). Baseline: one periodic scan over the same N session records, what a"
            " per-host idle loop does every tick. Ratio = scan CPU / idle supervisor CPU per"
            " second. Find due: wall time for the timer loop to pop and queue the 1 % of"
            " sessions that are idle and over budget."
        ),
    )
    table = section.table(
        "sessions over budget",
        "cost per append",
        "idle supervisor CPU/s",
        "one periodic scan (baseline)",
        "ratio scan/idle",
        "find the 1 % due",
    )
    print(
        f"{'sessions':>10} {'append cost':>12} {'idle supervisor cpu/s':>22}"
        f" {'periodic scan cpu/s':>20} {'ratio':>10} {'find 1% due':>12}"
    )
    costs = []
    for n in sizes:
        print(f"  .. {n:,} sessions", flush=True)
        c = measure(n)
        costs.append(c)
        print(
            f"{n:>10,} {c.per_append * 1e6:>9.2f} µs {c.idle_cpu * 1e3:>19.3f} ms"
            f" {c.scan_cpu * 1e3:>17.3f} ms {ratio(c.scan_cpu, c.idle_cpu):>10}"
            f" {c.find_due * 1e3:>9.1f} ms ({c.due:,} queued)"
        )
        table.row(
            f"{n:,}",
            f"{c.per_append * 1e6:.2f} µs",
            f"{c.idle_cpu * 1e3:.3f} ms",
            f"{c.scan_cpu * 1e3:.2f} ms",
            ratio(c.scan_cpu, c.idle_cpu),
            f"{c.find_due * 1e3:.1f} ms ({c.due:,} queued)",
        )
    first, last = costs[0], costs[-1]
    growth = last.per_append / first.per_append
    section.target(
        "supervisor.append_cost",
        f"{first.per_append * 1e6:.2f} µs at {first.sessions:,} → {last.per_append * 1e6:.2f} µs"
        f" at {last.sessions:,} ({growth:.1f}×)",
        growth <= 2.0,
        f"grew {growth:.1f}×",
    )
    idle_growth = last.idle_cpu / first.idle_cpu if first.idle_cpu else float("inf")
    section.target(
        "supervisor.idle",
        f"{first.idle_cpu * 1e3:.2f} → {last.idle_cpu * 1e3:.2f} ms/s ({idle_growth:.1f}×);"
        f" scan {last.scan_cpu * 1e3:.1f} ms at {last.sessions:,}",
        idle_growth <= 2.0 and last.idle_cpu < last.scan_cpu,
        f"idle CPU grew {idle_growth:.1f}×",
    )
    section.notes = (
        "The idle supervisor's CPU is the event loop's own floor (it does no work until a"
        " deadline); a periodic scan grows with every session ever seen."
    )
    return section
