"""reverie against nanobot's memory layer, on the same synthetic workload in the same run.

nanobot (the ``nanobot-ai`` package, installed by the ``nanobot`` extra) is a
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
2. **The idle scan** (``bench/nanobot_compare/scan.py``) at 1k / 10k / 100k
   sessions: one ``check_expired`` pass with nothing expired (what it pays
   every interval) and with 1 %
   expired (``schedule_background`` records the archival coroutine and
   closes it, so no LLM runs), against reverie's supervisor at the same N
   (``bench.supervisor.measure``: cost per append, idle CPU per second, time
   to find the 1 % due). Session files up to 10k are made by nanobot's own
   ``save``; the rest are written directly in the same JSONL format (its
   ``save`` costs milliseconds each, too slow for 90k more in budget).

What is not comparable is said in the section's notes.
"""

from __future__ import annotations

import os
import tempfile
import time
from importlib import metadata
from pathlib import Path

from bench._corpus import turns
from bench._machine import percentile, say
from bench.nanobot_compare.scan import CHECK_INTERVAL, idle_scan
from bench.report import Section, ratio
from tests.daemon_process import DaemonProcess

SESSIONS = 4  # sessions grown side by side in the per-turn case
WARMUP_TURNS = 20  # unreported turns to another session first (caches, actor, daemon start-up)
WINDOWS = ((1, 10), (51, 100), (451, 500))  # turns whose saves are reported together


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
    count = WINDOWS[-1][1]
    texts = [turns(s, count) for s in range(SESSIONS)]
    runs: dict[str, dict[int, list[float]]] = {}
    sizes: dict[str, int] = {}
    with tempfile.TemporaryDirectory(prefix="reverie-nb-turns-") as tmp:
        for label, fsync in (("nanobot save()", False), ("nanobot save(fsync=True)", True)):
            say(f"  .. {label}: {SESSIONS} sessions × {count} turns")
            runs[label], sizes[label] = _nanobot_turns(Path(tmp) / f"nb-{fsync}", texts, fsync)
        for durability in ("process", "fsync"):
            label = f"reverie append_many, durability {durability}"
            say(f"  .. {label}: {SESSIONS} sessions × {count} turns over the socket")
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
        f"Per-turn workload: {SESSIONS} sessions grown to {count} turns side by side; a turn is a"
        f" user question of 8–30 words and an answer of three 10–25-word sentences (synthetic,"
        f" `bench/_corpus.py`). At {count} turns a nanobot session file is"
        f" {sizes['nanobot save()'] / 1024:,.0f} KiB, and every save rewrites all of it;"
        " reverie appends two rows. Single closed-loop client, after"
        f" {WARMUP_TURNS} unreported turns to another session; turns/s = turns / time spent"
        " saving.\n\n"
    )


# -- entry point -------------------------------------------------------------------------


def main() -> Section:
    try:
        version = metadata.version("nanobot-ai")
    except metadata.PackageNotFoundError:
        say("nanobot-ai is not installed: `make bench` installs it (the `nanobot` extra)")
        return Section(
            title="nanobot comparison (`bench/nanobot_compare/`, issue 9)",
            intro="Not run: `nanobot-ai` is not installed (`pip install -e '.[nanobot]'`).",
        )
    say(__doc__.strip().splitlines()[0] + f" (nanobot-ai {version})")
    section = Section(
        title="Against nanobot's memory layer (`bench/nanobot_compare/`, issue 9)",
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
