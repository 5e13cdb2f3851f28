"""Minutes of steady mixed load with the index on: does the daemon's memory or latency drift?

A daemon meant to run for months must not grow with time under a load it
keeps up with (issue 26). This runs a real ``reverie serve`` (durability
fsync, the search index on) and ``CLIENTS`` closed-loop connections over
``SESSIONS`` sessions doing the soak mix (:data:`MIX`: 60 % appends, 15 %
history, 10 % searches, each naming its session, 15 % working memory),
for a warm-up and then a measured window. Every ``SAMPLE_EVERY`` seconds it
reads the daemon's own ``status()``: ``process`` (RSS, threads),
``index`` (``messages_behind``, ``optimized``, ``tables``: a session's search
reads each one holding it; what LanceDB's caches hold,
which fill up to ``index.cache_mib`` and ``index.metadata_cache_mib`` as
the table grows) and the live session and
scope actors (those the load touched within the idle time after which an
actor is passivated: they level off within a minute, so growth after the
warm-up is not the working set filling). It prints, as it goes, one
line per sample (with the search p50 since the last one, where a stall
shows) and a summary per minute, and at the end:

- the RSS slope after warm-up (MB/min, least squares over the samples),
  the peak RSS (the kernel's VmHWM) and the threads first and last;
- append and search p50/p99 per minute, the index backlog per minute, ops/s;
- the same figures of a shorter run with ``[index] enabled = false`` (the
  baseline, same machine, same run): RSS and ops/s ratios say what the
  index costs.

The client side (one process, one trio loop) shares the cores with the
daemon, which embeds every appended message: figures are lower bounds, and
noisy on a shared machine.

Options (``python -m bench soak`` takes the environment only):
``REVERIE_BENCH_SOAK_SECONDS`` (measured window after warm-up, default 180),
``REVERIE_BENCH_SOAK_WARMUP`` (default 60), ``REVERIE_BENCH_SOAK_BASELINE``
(the baseline's measured window, default 60; 0 skips it),
``REVERIE_BENCH_SOAK_CONFIG`` (TOML added to the daemon's config, e.g. a
memory cap to try), ``REVERIE_BENCH_SOAK_RATE`` (ops/s of all clients
together, default 0: closed loop; a pace the indexer keeps up with tells
growth with time from growth with the backlog). ``python -m bench.soak --long``
is the issue's run: 12 minutes, 2 of them warm-up, and a baseline of 2
(``--baseline 0``: none); ``--help`` lists the flags.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import sys
import tempfile
import time
import tomllib
from array import array
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trio

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._machine import machine_info, percentile, say  # noqa: E402
from bench.load_clients import error_code, run_op  # noqa: E402
from bench.report import Section, ratio  # noqa: E402
from reverie.daemon import AsyncClient  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402

__all__ = ["MIX", "Run", "Settings", "main", "rss_slope"]

CLIENTS = 16
SESSIONS = 10_000
SAMPLE_EVERY = 5.0  # seconds between two status() samples
#: The soak mix, in percent of operations (run by ``bench.load_clients.run_op``).
MIX = {"append": 60, "history": 15, "search": 10, "wm_set": 8, "wm_get": 7}
MB = 1e6


@dataclass(frozen=True, slots=True)
class Settings:
    """How long to run, and what to add to the daemon's config."""

    seconds: float
    warmup: float
    baseline: float
    config: str = ""
    rate: float = 0.0  # ops/s of all clients together; 0: closed loop, as fast as answered


@dataclass(slots=True)
class Sample:
    """One ``status()`` reading, ``t`` seconds after the load started."""

    t: float
    rss: int
    threads: int
    behind: int
    live: tuple[int, int]  # live session actors, live scope actors
    cached: int  # bytes LanceDB's caches hold
    anon: int = 0  # of rss, the process's own (the rest is mostly the libraries' code)
    heap: int = 0  # the C heap in use
    heap_free: int = 0  # the C heap free between its blocks in use


@dataclass
class Run:
    """What one daemon did under the soak mix: samples, latencies by op, errors."""

    name: str
    index: bool
    warmup: float
    seconds: float
    samples: list[Sample] = field(default_factory=list)
    #: per op: (seconds since the load started at completion, latency) pairs
    done: dict[str, tuple[array, array]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    peak_rss: int = 0
    start_rss: int = 0

    def record(self, op: str, end: float, latency: float) -> None:
        ends, lats = self.done.setdefault(op, (array("d"), array("d")))
        ends.append(end)
        lats.append(latency)

    def latencies(self, op: str, t0: float, t1: float) -> list[float]:
        """Latencies of ``op`` completed in ``[t0, t1)`` seconds after the load started."""
        ends, lats = self.done.get(op, (array("d"), array("d")))
        return [lat for end, lat in zip(ends, lats, strict=True) if t0 <= end < t1]

    @property
    def end(self) -> float:
        return self.warmup + self.seconds

    def ops_per_second(self) -> float:
        """Operations completed in the measured window (after warm-up), per second."""
        n = sum(len(self.latencies(op, self.warmup, self.end)) for op in MIX)
        return n / self.seconds

    def measured(self) -> list[Sample]:
        return [s for s in self.samples if s.t >= self.warmup]

    def minutes(self) -> list[tuple[float, float]]:
        """The run cut into minutes (the last one may be shorter)."""
        edges = [float(m) for m in range(0, int(self.end), 60)] + [self.end]
        return [(a, b) for a, b in itertools.pairwise(edges) if b - a >= 1]


def rss_slope(samples: list[Sample], part: str = "rss") -> float:
    """Least-squares slope of RSS (or of another ``part`` of a sample) over time, in MB
    per minute (0 with fewer than 2 samples)."""
    if len(samples) < 2:
        return 0.0
    ts = [s.t / 60 for s in samples]
    ys = [getattr(s, part) / MB for s in samples]
    tm, ym = sum(ts) / len(ts), sum(ys) / len(ys)
    var = sum((t - tm) ** 2 for t in ts)
    return sum((t - tm) * (y - ym) for t, y in zip(ts, ys, strict=True)) / var if var else 0.0


# -- the load ------------------------------------------------------------------------


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
                _print_minute(run, minute)
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


def _run(name: str, settings: Settings, *, index: bool, seconds: float) -> Run:
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


def _ms(x: float) -> str:
    return f"{x * 1e3:.1f}"


def _per_minute(run: Run, a: float, b: float) -> tuple[str, ...]:
    app, sea = run.latencies("append", a, b), run.latencies("search", a, b)
    behind = [s.behind for s in run.samples if a <= s.t < b]
    ops = sum(len(run.latencies(op, a, b)) for op in MIX) / (b - a)
    return (
        _ms(percentile(app, 0.5)),
        _ms(percentile(app, 0.99)),
        _ms(percentile(sea, 0.5)),
        _ms(percentile(sea, 0.99)),
        f"{max(behind, default=0):,}",
        f"{ops:,.0f}",
    )


def _print_minute(run: Run, minute: int) -> None:
    a50, a99, s50, s99, behind, ops = _per_minute(run, minute * 60.0, (minute + 1) * 60.0)
    say(
        f"  minute {minute + 1}: {ops} ops/s; append p50 {a50} p99 {a99} ms;"
        f" search p50 {s50} p99 {s99} ms; index behind (max) {behind}"
    )


def _summary(run: Run) -> None:
    after = run.measured()
    if after:
        say(
            f"  [{run.name}] after warm-up: live sessions / scopes {_live(after)};"
            f" LanceDB's caches {after[0].cached / MB:.0f} → {after[-1].cached / MB:.0f} MB;"
            f" slopes of the process's own memory {rss_slope(after, 'anon'):+.2f}, of the C"
            f" heap in use {rss_slope(after, 'heap'):+.2f} and free"
            f" {rss_slope(after, 'heap_free'):+.2f} MB/min"
        )
    say(
        f"  [{run.name}] {run.ops_per_second():,.0f} ops/s measured; RSS slope after warm-up"
        f" {rss_slope(after):+.2f} MB/min; peak RSS {run.peak_rss / MB:.0f} MB;"
        f" threads {after[0].threads if after else 0} -> {after[-1].threads if after else 0};"
        f" errors {dict(run.errors) or 'none'}"
    )


def _live(after: list[Sample]) -> str:
    """Live session and scope actors at the first and last measured sample."""
    if not after:
        return "—"
    (s0, c0), (s1, c1) = after[0].live, after[-1].live
    return f"{s0:,} / {c0:,} → {s1:,} / {c1:,}"


def _first_last_search(run: Run) -> tuple[float, float]:
    """Search p50 in the first measured minute and in the last minute of the run."""
    minutes = [(a, b) for a, b in run.minutes() if a >= run.warmup]
    if not minutes:
        return 0.0, 0.0
    (a0, b0), (a1, b1) = minutes[0], minutes[-1]
    return (
        percentile(run.latencies("search", a0, b0), 0.5),
        percentile(run.latencies("search", a1, b1), 0.5),
    )


def _section(soak: Run, base: Run | None, settings: Settings) -> Section:
    sec = Section(
        "Soak: minutes of mixed load, index on (`bench/soak.py`, issue 26)",
        intro=(
            f"A real daemon (durability fsync, the search index on) and {CLIENTS}"
            f" connections from one client process"
            + (
                f", paced at {settings.rate:,.0f} ops/s in all,"
                if settings.rate
                else ", closed loop,"
            )
            + f" over {SESSIONS:,} sessions"
            f" ({', '.join(f'{k} {v}%' for k, v in MIX.items())}; searches name their"
            f" session); {soak.warmup:.0f} s warm-up, then {soak.seconds:.0f} s measured."
            f" The daemon's `status()` is read every {SAMPLE_EVERY:.0f} s (RSS, threads, index"
            " backlog). The baseline is a fresh daemon with `[index] enabled = false`, run"
            " for a shorter window in the same run; its searches are answered `not_found`"
            " (search is off), so its errors column counts them. Clients share the 2 cores with the"
            " daemon (and, on this machine, with other work): figures are noisy lower"
            " bounds."
            + (f" Extra daemon config: `{settings.config.strip()}`." if settings.config else "")
        ),
    )
    runs = [soak] + ([base] if base else [])
    t = sec.table(
        "run",
        "ops/s",
        "RSS at start MB",
        "RSS slope after warm-up MB/min",
        "peak RSS MB",
        "threads first → last",
        "live sessions / scopes first → last",
        "errors",
    )
    for r in runs:
        after = r.measured()
        t.row(
            r.name,
            f"{r.ops_per_second():,.0f}",
            f"{r.start_rss / MB:.0f}",
            f"{rss_slope(after):+.2f}",
            f"{r.peak_rss / MB:.0f}",
            f"{after[0].threads} → {after[-1].threads}" if after else "—",
            _live(after),
            ", ".join(f"{k} {v:,}" for k, v in sorted(r.errors.items())) or "none",
        )
    if base:
        t.row(
            "index on / off",
            ratio(soak.ops_per_second(), base.ops_per_second()),
            ratio(soak.start_rss, base.start_rss),
            "",
            ratio(soak.peak_rss, base.peak_rss),
            "",
            "",
            "",
        )
    m = sec.table(
        f"minute ({soak.name})",
        "append p50 ms",
        "append p99 ms",
        "search p50 ms",
        "search p99 ms",
        "index behind (max)",
        "ops/s",
    )
    for a, b in soak.minutes():
        label = f"{a / 60:g}–{b / 60:.3g}" + (" (warm-up)" if a < soak.warmup else "")
        m.row(label, *_per_minute(soak, a, b))
    slope = rss_slope(soak.measured())
    sec.target("soak.rss_slope", f"{slope:+.2f} MB/min", slope < 1.0, "RSS still grows")
    peak = soak.peak_rss / MB
    sec.target("soak.peak_rss", f"{peak:.0f} MB", peak < 400, "over 400 MB")
    first, last = _first_last_search(soak)
    sec.target(
        "soak.search_p50",
        f"{_ms(last)} ms last minute vs {_ms(first)} ms first measured minute ({ratio(last, first)})",
        bool(first) and last <= 1.5 * first,
        "search slowed down",
    )
    return sec


def _settings(argv: list[str] | None) -> Settings:
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--seconds", type=float, default=float(env("REVERIE_BENCH_SOAK_SECONDS", "180"))
    )
    parser.add_argument(
        "--warmup", type=float, default=float(env("REVERIE_BENCH_SOAK_WARMUP", "60"))
    )
    parser.add_argument(
        "--baseline",
        type=float,
        default=None,
        help="measured seconds of the index-off baseline (0: none; default 60, 120 with --long)",
    )
    parser.add_argument("--config", default=env("REVERIE_BENCH_SOAK_CONFIG", ""))
    parser.add_argument(
        "--rate",
        type=float,
        default=float(env("REVERIE_BENCH_SOAK_RATE", "0")),
        help="ops/s of all clients together (0: closed loop)",
    )
    parser.add_argument(
        "--long", action="store_true", help="the issue's run: 12 min, 2 of them warm-up"
    )
    args = parser.parse_args(argv or [])
    if args.baseline is None:
        args.baseline = float(env("REVERIE_BENCH_SOAK_BASELINE", "120" if args.long else "60"))
    if args.long:
        args.seconds, args.warmup = 600.0, 120.0
    config = args.config.replace("\\n", "\n")
    extra = config + "\n" if config else ""
    return Settings(args.seconds, args.warmup, args.baseline, extra, args.rate)


def main(argv: list[str] | None = None) -> Section:
    """``argv`` are this module's own flags (none when run by ``python -m bench``)."""
    settings = _settings(argv)
    machine_info()
    say(
        f"note: one client process and the daemon share these {os.cpu_count()} cores;"
        " the machine may be shared too: figures are noisy"
    )
    on = tomllib.loads(settings.config).get("index", {}).get("enabled", True)
    soak = _run(f"index {'on' if on else 'off'}", settings, index=on, seconds=settings.seconds)
    _summary(soak)
    base = None
    if settings.baseline > 0 and on:  # with the index off by --config, it is the baseline
        base = _run("baseline, index off", settings, index=False, seconds=settings.baseline)
        _summary(base)
        say(
            f"  index on / off: ops/s {ratio(soak.ops_per_second(), base.ops_per_second())},"
            f" peak RSS {ratio(soak.peak_rss, base.peak_rss)}"
        )
    return _section(soak, base, settings)


if __name__ == "__main__":
    main(sys.argv[1:])
