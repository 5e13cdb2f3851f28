"""The soak's load: closed-loop (or paced) clients of the mix, and a sampler of ``status()``.

One fresh daemon per run (``run_daemon``), its config the defaults laid
under the soak's ``--config``; the clients and the sampler share one trio
loop in this process and record into a ``Run``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
import tomllib
from pathlib import Path
from typing import Any

import trio

from bench._machine import percentile, say
from bench.load.clients import error_code, run_op
from bench.soak.report import print_minute
from bench.soak.run import CLIENTS, MB, MIX, SAMPLE_EVERY, SESSIONS, Run, Sample, Settings
from reverie.daemon import AsyncClient
from tests.daemon_process import DaemonProcess

__all__ = ["run_daemon"]


async def _client(socket: str, run: Run, c: int, t0: float, rate: float) -> None:
    """One connection's loop of the mix until the run ends: closed, or paced at ``rate`` ops/s."""
    rng = random.Random(c)
    names, weights = list(MIX), list(MIX.values())
    k = 0
    async with AsyncClient(socket) as client:
        while (start := time.monotonic()) < t0 + run.end:
            if rate:  # its share of the pace; a late client does not catch up in a burst
                due = t0 + k / rate
                if due > start:
                    await trio.sleep(due - start)
                    start = time.monotonic()
            op = rng.choices(names, weights)[0]
            try:
                await run_op(client, op, f"s{rng.randrange(SESSIONS)}", f"soak-{c}-{k}")
            except Exception as exc:  # counted; the loop goes on
                run.errors[error_code(exc)] += 1
            else:
                end = time.monotonic()
                run.record(op, end - t0, end - start)
            k += 1


def _p50_ms(run: Run, op: str, t0: float, t1: float) -> float:
    """The p50 of ``op`` completed in ``[t0, t1)``, in ms: since the last sample, a stall
    shows in the line it happens in, where the minute's p50 dilutes it."""
    return percentile(run.latencies(op, t0, t1), 0.5) * 1000


async def _sampler(socket: str, run: Run, t0: float) -> None:
    """``status()`` every ``SAMPLE_EVERY`` seconds on its own connection; a line per sample."""
    async with AsyncClient(socket) as client:
        minute = 0
        while True:
            status = await client.status()
            t = time.monotonic() - t0
            proc = status.process
            live = (status.sessions.live, status.scopes.live)
            index = status.index
            sample = Sample(
                t,
                proc.rss_bytes,
                proc.threads,
                index.messages_behind,
                live,
                index.cache_bytes,
                proc.rss_anon_bytes,
                proc.heap_in_use_bytes,
                proc.heap_free_bytes,
            )
            run.samples.append(sample)
            run.peak_rss = max(run.peak_rss, proc.peak_rss_bytes)
            phase = "warm-up" if t < run.warmup else "measured"
            say(
                f"    {t:6.0f} s {phase:<8} RSS {sample.rss / MB:6.0f} MB"
                f" (own {sample.anon / MB:4.0f}, heap {sample.heap / MB:4.0f}"
                f" + {sample.heap_free / MB:3.0f} free)"
                f"  threads {sample.threads:3}  index behind {sample.behind:6,}"
                f"  optimized {index.optimized:4}  tables {index.tables:2}"
                f"  caches {sample.cached / MB:3.0f} MB"
                f"  live {live[0]:6,} / {live[1]:6,}"
                f"  search p50 {_p50_ms(run, 'search', t - SAMPLE_EVERY, t):6.0f} ms"
            )
            if t >= (minute + 1) * 60:
                print_minute(run, minute)
                minute += 1
            if t >= run.end:
                return
            await trio.sleep(SAMPLE_EVERY)


async def _drive(socket: str, run: Run, rate: float) -> None:
    t0 = time.monotonic()
    async with trio.open_nursery() as nursery:
        nursery.start_soon(_sampler, socket, run, t0)
        for c in range(CLIENTS):
            nursery.start_soon(_client, socket, run, c, t0, rate / CLIENTS)


def run_daemon(name: str, settings: Settings, *, index: bool, seconds: float) -> Run:
    """Start a fresh daemon, run the mix on it, stop it."""
    run = Run(name, index, settings.warmup if index else min(settings.warmup, 30.0), seconds)
    config = _toml(
        _merged(
            {"daemon": {"log_level": "warning"}, "index": {} if index else {"enabled": False}},
            tomllib.loads(settings.config),
        )
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("REVERIE_")}
    with tempfile.TemporaryDirectory(prefix="reverie-soak-") as tmp:
        daemon = DaemonProcess(Path(tmp), config=config)
        daemon.env = env
        daemon.start()
        try:
            with daemon.client() as client:
                run.start_rss = client.status().process.rss_bytes
            say(
                f"\n[{name}] index {'on' if index else 'off'}: {CLIENTS} clients,"
                f" {SESSIONS:,} sessions, {run.warmup:.0f} s warm-up + {seconds:.0f} s"
                f" (daemon RSS at start {run.start_rss / MB:.0f} MB)"
            )
            trio.run(_drive, str(daemon.socket), run, settings.rate)
        finally:
            daemon.stop()
    return run


def _merged(base: dict[str, dict[str, object]], extra: dict[str, Any]) -> dict[str, dict]:
    """``base`` with the sections of ``extra`` laid over it key by key."""
    return {s: {**base.get(s, {}), **extra.get(s, {})} for s in {*base, *extra}}


def _toml(config: dict[str, dict]) -> str:
    """A config of sections of plain values, as TOML (JSON's strings are TOML's)."""
    lines = []
    for section, keys in sorted(config.items()):
        lines.append(f"[{section}]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


# -- printing and the report -----------------------------------------------------------
