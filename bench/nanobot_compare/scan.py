"""nanobot's idle scan against reverie's supervisor, at 1k / 10k / 100k sessions.

Part of ``bench/nanobot_compare/`` (which describes the comparison as a
whole): builds nanobot's session files (with its own ``save`` up to
:data:`SAVE_LIMIT`, then directly in the same JSONL format), times one
``AutoCompact.check_expired`` pass with nothing and with 1 % expired, and
puts ``bench.supervisor.measure`` at the same N beside it.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Coroutine
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench import supervisor
from bench._corpus import turns
from bench._machine import say
from bench.report import Section, ratio

__all__ = ["idle_scan"]

SCAN_SIZES = (1_000, 10_000, 100_000)
SAVE_LIMIT = 10_000  # sessions made by nanobot's own save; beyond that, JSONL written directly
SCAN_TURNS = 3  # turns per session in the scan workload (small sessions)
EXPIRED_EVERY = 100  # 1 % of the sessions are idle past the TTL
TTL_MINUTES = 60  # nanobot's idle_compact_after_minutes in the 1 % case
IDLE_AGE = timedelta(hours=2)  # how long ago the expired sessions were last updated
CHECK_INTERVAL = 60  # nanobot's default idle_compact_check_interval_seconds


def _make_sessions(manager: Any, start: int, stop: int, via_save: bool) -> None:
    """Sessions ``start..stop-1`` of the scan workload; 1 % last updated ``IDLE_AGE`` ago."""
    from nanobot.session.manager import JsonlSessionStore, Session

    now = datetime.now()
    for i in range(start, stop):
        key = f"bench:idle:{i}"
        updated = now - IDLE_AGE if i % EXPIRED_EVERY == 0 else now
        texts = turns(i, SCAN_TURNS)
        if via_save:
            session = Session(key=key)
            for user, assistant in texts:
                session.add_message("user", user)
                session.add_message("assistant", assistant)
            session.updated_at = updated
            manager.save(session)
            continue
        # The lines JsonlSessionStore.save writes (metadata first, then one per message).
        stamp = updated.isoformat()
        lines = [
            {
                "_type": "metadata",
                "key": key,
                "created_at": stamp,
                "updated_at": stamp,
                "metadata": {},
                "last_archived": 0,
                "last_consolidated": 0,
            }
        ]
        for user, assistant in texts:
            lines.append({"role": "user", "content": user, "timestamp": stamp})
            lines.append({"role": "assistant", "content": assistant, "timestamp": stamp})
        path = manager.sessions_dir / f"{JsonlSessionStore.storage_key(key)}.jsonl"
        path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))


def _scan_pass(root: Path, ttl_minutes: int) -> tuple[float, float, int]:
    """One check_expired pass by a fresh manager (nothing cached): wall s, CPU s, scheduled."""
    from nanobot.agent.autocompact import AutoCompact
    from nanobot.session.manager import SessionManager

    manager = SessionManager(root / "workspace", sessions_root=root / "sessions")
    # The consolidator is only used by the archival coroutine, which is closed unrun.
    compact = AutoCompact(manager, None, session_ttl_minutes=ttl_minutes)  # type: ignore[arg-type]
    scheduled: list[str] = []

    def schedule_background(coro: Coroutine[Any, Any, None]) -> None:
        scheduled.append(coro.__qualname__)
        coro.close()

    wall, cpu = time.perf_counter(), time.process_time()
    compact.check_expired(schedule_background, lambda session: None)
    return time.perf_counter() - wall, time.process_time() - cpu, len(scheduled)


def _disk(directory: Path) -> tuple[int, int]:
    files = [e for e in os.scandir(directory) if e.name.endswith(".jsonl")]
    return len(files), sum(e.stat().st_size for e in files)


def idle_scan(section: Section) -> None:
    from nanobot.session.manager import SessionManager

    idle = section.table(
        "sessions",
        "nanobot files on disk",
        "nanobot pass, none expired: wall / CPU",
        f"nanobot CPU/s at its {CHECK_INTERVAL} s interval",
        "reverie idle supervisor CPU/s",
        "nanobot / reverie (CPU/s)",
        "reverie cost per append",
    )
    due = section.table(
        "sessions",
        "nanobot pass, 1 % expired: wall / CPU",
        "reverie: find the 1 % due (wall)",
        "nanobot / reverie (wall)",
    )
    made = 0
    with tempfile.TemporaryDirectory(prefix="reverie-nb-scan-") as tmp:
        root = Path(tmp)
        manager = SessionManager(root / "workspace", sessions_root=root / "sessions")
        for n in SCAN_SIZES:
            via_save = min(n, SAVE_LIMIT) - made
            started = time.monotonic()
            if via_save > 0:
                say(f"  .. {n:,} sessions: {via_save:,} more through nanobot's save()")
                _make_sessions(manager, made, made + via_save, via_save=True)
                made += via_save
            if n > made:
                say(f"  .. {n:,} sessions: {n - made:,} more written directly in its JSONL format")
                _make_sessions(manager, made, n, via_save=False)
                made = n
            files, size = _disk(manager.sessions_dir)
            say(
                f"     built in {time.monotonic() - started:.1f} s: {files:,} files, {size / 1e6:.1f} MB"
            )
            say("  .. nanobot check_expired, none expired")
            wall0, cpu0, none = _scan_pass(root, 24 * 60)
            say("  .. nanobot check_expired, 1 % expired")
            wall1, cpu1, expired = _scan_pass(root, TTL_MINUTES)
            say("  .. reverie supervisor at the same N")
            cost = supervisor.measure(n)
            per_second = cpu0 / CHECK_INTERVAL
            idle.row(
                f"{n:,}",
                f"{files:,} ({size / 1e6:.1f} MB)",
                f"{wall0 * 1e3:,.0f} / {cpu0 * 1e3:,.0f} ms",
                f"{per_second * 1e3:.2f} ms",
                f"{cost.idle_cpu * 1e3:.2f} ms",
                ratio(per_second, cost.idle_cpu),
                f"{cost.per_append * 1e6:.1f} µs",
            )
            due.row(
                f"{n:,}",
                f"{wall1 * 1e3:,.0f} / {cpu1 * 1e3:,.0f} ms ({expired:,} scheduled)",
                f"{cost.find_due * 1e3:.1f} ms ({cost.due:,} queued)",
                ratio(wall1, cost.find_due),
            )
            say(
                f"  {n:>7,} sessions: nanobot pass {wall0 * 1e3:8,.0f} ms wall {cpu0 * 1e3:8,.0f} ms"
                f" CPU (none expired, {none} scheduled); {wall1 * 1e3:8,.0f} ms wall with"
                f" {expired:,} expired | reverie idle {cost.idle_cpu * 1e3:.2f} ms CPU/s,"
                f" find due {cost.find_due * 1e3:.1f} ms, {cost.per_append * 1e6:.1f} µs/append"
            )
            if none or expired != len(range(0, n, EXPIRED_EVERY)):
                raise RuntimeError(f"scan workload is wrong: {none} / {expired} scheduled at {n}")
    section.notes += (
        f"Scan workload: sessions of {SCAN_TURNS} turns; 1 % last updated {IDLE_AGE} ago."
        f" Nanobot's TTL is {TTL_MINUTES} min in the 1 % case and one day in the none-expired"
        f" case (same files). Sessions up to {SAVE_LIMIT:,} were made by nanobot's own `save()`,"
        " the rest written directly in the JSONL format `JsonlSessionStore.save` writes"
        " (metadata line, then one line per message). Each pass uses a fresh `SessionManager`,"
        " so nothing is cached in memory; the files are in the OS page cache (just written)."
        " CPU is this process's CPU time; wall includes file-system waits. reverie's figures"
        " are `bench.supervisor.measure(n)` (the real `Supervisor`, in-process).\n\n"
    )
