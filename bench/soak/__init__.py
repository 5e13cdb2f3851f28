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

The run's record is ``bench/soak/run.py``, the load ``bench/soak/load.py``,
the printing and the report ``bench/soak/report.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench._machine import machine_info, say  # noqa: E402
from bench.report import Section, ratio  # noqa: E402
from bench.soak.load import run_daemon  # noqa: E402
from bench.soak.report import section, summary  # noqa: E402
from bench.soak.run import Settings  # noqa: E402

__all__ = ["main"]


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
    soak = run_daemon(
        f"index {'on' if on else 'off'}", settings, index=on, seconds=settings.seconds
    )
    summary(soak)
    base = None
    if settings.baseline > 0 and on:  # with the index off by --config, it is the baseline
        base = run_daemon("baseline, index off", settings, index=False, seconds=settings.baseline)
        summary(base)
        say(
            f"  index on / off: ops/s {ratio(soak.ops_per_second(), base.ops_per_second())},"
            f" peak RSS {ratio(soak.peak_rss, base.peak_rss)}"
        )
    return section(soak, base, settings)
