"""reverie against nanobot's memory layer, on the same synthetic workload in the same run.

nanobot (the ``nanobot-ai`` package, installed by the ``bench`` extra) is a
small agent host of the kind reverie serves. Its memory layer is a JSONL
file per session (``nanobot.session.manager``): every turn its agent loop
adds the user and assistant messages to the in-memory ``Session`` and calls
``SessionManager.save``, which rewrites the session's whole file atomically
(a temporary file, then ``os.replace``; ``fsync=False`` unless asked). Idle
sessions are found by ``AutoCompact.check_expired`` (``nanobot.agent.
autocompact``), which the loop runs at most every
``idle_compact_check_interval_seconds`` (60 s by default): one
``list_sessions()`` over every session file (first lines of each, a
``stat``, a sort), then ``get_or_create`` (a full parse) per expired session.

What is measured, both sides on the same sessions, message texts and turn
counts:

1. **Per-turn save** as sessions grow (turns 1–10, 51–100, 451–500): nanobot
   ``add_message`` ×2 + ``save`` (default, and ``fsync=True``); reverie one
   ``Client.append_many`` of the same two messages to a real daemon over its
   Unix socket, acked once committed (durability ``fsync``, and ``process``,
   which like nanobot's default survives a killed process but not a power
   loss).
2. **The idle scan** at 1k / 10k / 100k sessions: one ``check_expired``
   pass with nothing expired (what it pays every interval) and with 1 %
   expired (``schedule_background`` records the archival coroutine and
   closes it, so no LLM runs), against reverie's supervisor at the same N
   (``bench.supervisor.measure``: cost per append, idle CPU per second, time
   to find the 1 % due). Session files up to 10k are made by nanobot's own
   ``save``; the rest are written directly in the same JSONL format (its
   ``save`` costs milliseconds each, too slow for 90k more in budget).

What is not comparable is said in the section's notes.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Coroutine
from datetime import datetime, timedelta
from importlib import metadata
from pathlib import Path
from typing import Any

from bench import supervisor
from bench._corpus import sentence
from bench._machine import percentile
from bench.report import Section, ratio
from tests.daemon_process import DaemonProcess

SESSIONS = 4  # sessions grown side by side in the per-turn case
WARMUP_TURNS = 20  # unreported turns to another session first (caches, actor, daemon start-up)
WINDOWS = ((1, 10), (51, 100), (451, 500))  # turns whose saves are reported together
SCAN_SIZES = (1_000, 10_000, 100_000)
SAVE_LIMIT = 10_000  # sessions made by nanobot's own save; beyond that, JSONL written directly
SCAN_TURNS = 3  # turns per session in the scan workload (small sessions)
EXPIRED_EVERY = 100  # 1 % of the sessions are idle past the TTL
TTL_MINUTES = 60  # nanobot's idle_compact_after_minutes in the 1 % case
IDLE_AGE = timedelta(hours=2)  # how long ago the expired sessions were last updated
CHECK_INTERVAL = 60  # nanobot's default idle_compact_check_interval_seconds


def say(line: str = "") -> None:
    print(line, flush=True)


# -- the workload ----------------------------------------------------------------


def _turns(session: int, turns: int) -> list[tuple[str, str]]:
    """(user, assistant) texts for one session: a question, a few sentences of answer."""
    rng = random.Random(1000 + session)
    return [
        (sentence(rng, 8, 30) + "?", ". ".join(sentence(rng, 10, 25) for _ in range(3)) + ".")
        for _ in range(turns)
    ]


def _window_stats(latencies: dict[int, list[float]], window: tuple[int, int]) -> list[float]:
    lo, hi = window
    return [x for t in range(lo, hi + 1) for x in latencies[t]]


# -- 1. per-turn save ----------------------------------------------------------------


def _nanobot_turns(
    root: Path, texts: list[list[tuple[str, str]]], fsync: bool
) -> tuple[dict[int, list[float]], int]:
    """Per-turn seconds by turn number, and the bytes of one session file at the end."""
    from nanobot.session.manager import JsonlSessionStore, SessionManager

    manager = SessionManager(root / "workspace", sessions_root=root / "sessions")
    warm = manager.get_or_create("bench:warmup")
    for user, assistant in texts[0][:WARMUP_TURNS]:
        warm.add_message("user", user)
        warm.add_message("assistant", assistant)
        manager.save(warm, fsync=fsync)
    sessions = [manager.get_or_create(f"bench:turns:{s}") for s in range(SESSIONS)]
    turns = len(texts[0])
    latencies: dict[int, list[float]] = {t: [] for t in range(1, turns + 1)}
    for t in range(1, turns + 1):
        for s, session in enumerate(sessions):
            user, assistant = texts[s][t - 1]
            start = time.perf_counter()
            session.add_message("user", user)
            session.add_message("assistant", assistant)
            manager.save(session, fsync=fsync)
            latencies[t].append(time.perf_counter() - start)
    size = (
        manager.sessions_dir.joinpath(f"{JsonlSessionStore.storage_key(sessions[0].key)}.jsonl")
        .stat()
        .st_size
    )
    return latencies, size


def _reverie_turns(
    root: Path, texts: list[list[tuple[str, str]]], durability: str
) -> dict[int, list[float]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    config = f'[daemon]\nlog_level = "warning"\n[store]\ndurability = "{durability}"\n'
    daemon = DaemonProcess(root, config=config)
    daemon.env = env
    daemon.start()
    turns = len(texts[0])
    latencies: dict[int, list[float]] = {t: [] for t in range(1, turns + 1)}
    try:
        with daemon.client() as client:
            for user, assistant in texts[0][:WARMUP_TURNS]:
                client.append_many(
                    "bench:warmup",
                    [
                        {"role": "user", "content": user},
                        {"role": "assistant", "content": assistant},
                    ],
                )
            for t in range(1, turns + 1):
                for s in range(SESSIONS):
                    user, assistant = texts[s][t - 1]
                    messages = [
                        {"role": "user", "content": user},
                        {"role": "assistant", "content": assistant},
                    ]
                    start = time.perf_counter()
                    client.append_many(f"bench:turns:{s}", messages)
                    latencies[t].append(time.perf_counter() - start)
    finally:
        daemon.stop()
    return latencies


def per_turn(section: Section) -> None:
    turns = WINDOWS[-1][1]
    texts = [_turns(s, turns) for s in range(SESSIONS)]
    runs: dict[str, dict[int, list[float]]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="reverie-nb-turns-") as tmp:
        for label, fsync in (("nanobot save()", False), ("nanobot save(fsync=True)", True)):
            say(f"  .. {label}: {SESSIONS} sessions × {turns} turns")
            runs[label], sizes[label] = _nanobot_turns(Path(tmp) / f"nb-{fsync}", texts, fsync)
        for durability in ("process", "fsync"):
            label = f"reverie append_many, durability {durability}"
            say(f"  .. {label}: {SESSIONS} sessions × {turns} turns over the socket")
            (Path(tmp) / durability).mkdir()
            runs[label] = _reverie_turns(Path(tmp) / durability, texts, durability)
    pairs = {  # each nanobot variant beside the reverie setting with the same durability
        "nanobot save()": "reverie append_many, durability process",
        "nanobot save(fsync=True)": "reverie append_many, durability fsync",
    }
    table = section.table(
        "turns (session length)",
        "system",
        "p50",
        "p99",
        "turns/s",
        "nanobot / reverie (p50, same durability)",
    )
    for window in WINDOWS:
        for label, latencies in runs.items():
            lat = _window_stats(latencies, window)
            p50, p99 = percentile(lat, 0.5), percentile(lat, 0.99)
            other = pairs.get(label)
            vs = ratio(p50, percentile(_window_stats(runs[other], window), 0.5)) if other else ""
            table.row(
                f"{window[0]}–{window[1]}",
                label,
                f"{p50 * 1e3:.2f} ms",
                f"{p99 * 1e3:.2f} ms",
                f"{len(lat) / sum(lat):,.0f}",
                vs,
            )
            say(
                f"  turns {window[0]:>3}–{window[1]:<3} {label:<42} p50 {p50 * 1e3:7.2f} ms"
                f"  p99 {p99 * 1e3:7.2f} ms  {len(lat) / sum(lat):7,.0f} turns/s  {vs}"
            )
    section.notes += (
        f"Per-turn workload: {SESSIONS} sessions grown to {turns} turns side by side; a turn is a"
        f" user question of 8–30 words and an answer of three 10–25-word sentences (synthetic,"
        f" `bench/_corpus.py`). At {turns} turns a nanobot session file is"
        f" {sizes['nanobot save()'] / 1024:,.0f} KiB, and every save rewrites all of it;"
        " reverie appends two rows. Single closed-loop client, after"
        f" {WARMUP_TURNS} unreported turns to another session; turns/s = turns / time spent"
        " saving.\n\n"
    )


# -- 2. the idle scan ----------------------------------------------------------------


def _make_sessions(manager: Any, start: int, stop: int, via_save: bool) -> None:
    """Sessions ``start..stop-1`` of the scan workload; 1 % last updated ``IDLE_AGE`` ago."""
    from nanobot.session.manager import JsonlSessionStore, Session

    now = datetime.now()
    for i in range(start, stop):
        key = f"bench:idle:{i}"
        updated = now - IDLE_AGE if i % EXPIRED_EVERY == 0 else now
        texts = _turns(i, SCAN_TURNS)
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


# -- entry point -------------------------------------------------------------------------


def main() -> Section:
    try:
        version = metadata.version("nanobot-ai")
    except metadata.PackageNotFoundError:
        say("nanobot-ai is not installed: `make bench` installs it (the `bench` extra)")
        return Section(
            title="nanobot comparison (`bench/nanobot_compare.py`, issue 9)",
            intro="Not run: `nanobot-ai` is not installed (`pip install -e '.[bench]'`).",
        )
    say(__doc__.strip().splitlines()[0] + f" (nanobot-ai {version})")
    section = Section(
        title="Against nanobot's memory layer (`bench/nanobot_compare.py`, issue 9)",
        intro=(
            f"nanobot-ai {version}, measured in this process:"
            " `nanobot.session.manager.Session.add_message`, `SessionManager.save`"
            " (→ `JsonlSessionStore.save`: the whole session file rewritten to a temporary file"
            " and `os.replace`d), `SessionManager.get_or_create`, and"
            " `nanobot.agent.autocompact.AutoCompact.check_expired` (→"
            " `SessionManager.list_sessions`, then `get_or_create` per expired session)."
            " reverie: a real `reverie serve` over its Unix socket (`Client.append_many`) for"
            " the per-turn figures; the in-process `Supervisor` (`bench.supervisor.measure`)"
            " for the scan figures. Same sessions, texts and turn counts on both sides."
        ),
    )
    say("\n[1] per-turn save as sessions grow")
    per_turn(section)
    say("\n[2] idle scan")
    idle_scan(section)
    section.notes += (
        "**Not comparable, and why.** nanobot's save runs in the host's own process: no"
        " socket, no framing, no second process; reverie's per-turn figure includes a Unix"
        " socket round trip to another process sharing the same 2 cores. nanobot's default"
        " save is not durable against power loss (no fsync); compare it with reverie's"
        ' `durability = "process"`, and `save(fsync=True)` (file and directory fsync) with'
        " reverie's `fsync` (WAL, `synchronous=FULL`). nanobot's agent loop may save more"
        " than once per turn (early persistence of the user message, runtime checkpoints);"
        " only the end-of-turn save is measured. nanobot's scan CPU/s assumes its default"
        f" {CHECK_INTERVAL} s interval (it is paid in one burst per interval, on the agent"
        " loop); reverie's idle figure is CPU measured over one second of its timer loop"
        " with nothing due, and it pays instead a cost per append (shown). reverie's"
        " find-due figure only queues the jobs; nanobot's expired pass also loads each"
        " expired session in full (`get_or_create`), as its archival needs it."
    )
    return section


if __name__ == "__main__":
    main()
