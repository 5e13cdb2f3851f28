"""Consolidation throughput and what it costs the append path.

A real daemon consolidates against the scripted fake OpenAI-compatible
server on loopback (zero latency, valid answers). Printed in one run:

- consolidations/s for many sessions that became due together;
- append latency p50/p99 of a probe client while those consolidations run,
  against the same probe with nothing to consolidate (the same-run
  baseline). Target: p99 under load no more than 1.5x the idle p99.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench._machine import mark  # noqa: E402
from bench.report import Section, ratio  # noqa: E402
from tests.daemon_process import DaemonProcess  # noqa: E402
from tests.fakellm import FakeLLM  # noqa: E402

SESSIONS = 200
PROBE_SECONDS = 3.0
TEXT = "we talked about the trip to Lisbon in June and the budget of 900 euros " * 3


def _probe(
    daemon: DaemonProcess, seconds: float, stop: threading.Event | None = None
) -> list[float]:
    """Append once every 2 ms for ``seconds`` (or until ``stop``); latencies in ms."""
    latencies = []
    with daemon.client() as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not (stop and stop.is_set()):
            start = time.perf_counter()
            client.append("probe", "user", "ping")
            latencies.append((time.perf_counter() - start) * 1e3)
            time.sleep(0.002)
    return latencies


def _p(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=1000)[int(q * 1000) - 1]


def _jobs_done(daemon: DaemonProcess) -> int:
    with daemon.client() as client:
        return client.status().consolidation["default"].jobs.get("done", 0)


def main() -> Section:
    print(__doc__.strip().splitlines()[0])
    with FakeLLM() as llm, tempfile.TemporaryDirectory() as tmp:
        config = (
            "[consolidation]\nidle_after = 0.5\nbudget_tokens = 40\ntarget_tokens = 10\n"
            f'[llm]\nbase_url = "{llm.base_url}"\nmodel = "fake"\nmax_concurrent = 1\n'
            "[sessions]\npassivate_after = 60.0\n"
        )
        daemon = DaemonProcess(Path(tmp), config=config).start()
        try:
            print("  .. idle baseline probe", flush=True)
            idle = _probe(daemon, PROBE_SECONDS)
            print(f"  .. filling {SESSIONS} sessions over budget", flush=True)
            with daemon.client() as client:
                for i in range(SESSIONS):
                    client.append_many(
                        f"c{i}",
                        [{"role": "user", "content": TEXT}, {"role": "assistant", "content": TEXT}],
                    )
            start = time.monotonic()
            stop = threading.Event()
            loaded: list[float] = []
            prober = threading.Thread(target=lambda: loaded.extend(_probe(daemon, 120, stop)))
            prober.start()
            while _jobs_done(daemon) < SESSIONS and time.monotonic() - start < 120:
                time.sleep(0.1)
            elapsed = time.monotonic() - start
            stop.set()
            prober.join()
            done = _jobs_done(daemon)
        finally:
            daemon.stop()
    print(
        f"consolidations: {done} in {elapsed:.1f} s (incl. the {0.5} s idle wait) = {done / elapsed:.1f}/s"
    )
    q = _p(loaded, 0.99) / _p(idle, 0.99)
    print(
        f"append idle:        p50 {_p(idle, 0.5):6.2f} ms  p99 {_p(idle, 0.99):6.2f} ms  ({len(idle)} appends)"
    )
    print(
        f"append during jobs: p50 {_p(loaded, 0.5):6.2f} ms  p99 {_p(loaded, 0.99):6.2f} ms  ({len(loaded)} appends)"
    )
    print(f"p99 ratio during/idle: {q:.2f}  [{mark(q <= 1.5)} target <= 1.5]")
    section = Section(
        title="Consolidation (`bench/consolidate.py`, issue 5)",
        intro=(
            "A real daemon (durability fsync) consolidating against the scripted fake"
            " OpenAI-compatible server on loopback (zero latency), `max_concurrent = 1`."
            f" {SESSIONS} sessions over budget become due together while a probe client"
            " appends every 2 ms; the baseline is the same probe with nothing to consolidate."
        ),
    )
    t = section.table("figure", "measured")
    t.row(
        f"consolidations/s ({SESSIONS} sessions due together)",
        f"{done / elapsed:.1f}/s ({done} in {elapsed:.1f} s, incl. the 0.5 s idle wait)",
    )
    t = section.table("probe append", "p50", "p99", "appends")
    t.row(
        "nothing to consolidate (baseline)",
        f"{_p(idle, 0.5):.2f} ms",
        f"{_p(idle, 0.99):.2f} ms",
        len(idle),
    )
    t.row(
        f"while the {SESSIONS} jobs run",
        f"{_p(loaded, 0.5):.2f} ms",
        f"{_p(loaded, 0.99):.2f} ms",
        len(loaded),
    )
    t.row(
        "ratio during/idle",
        ratio(_p(loaded, 0.5), _p(idle, 0.5)),
        ratio(_p(loaded, 0.99), _p(idle, 0.99)),
        "",
    )
    section.target("consolidate.p99", f"{q:.2f}×", q <= 1.5, f"{q - 1.5:.2f}× over")
    if done < SESSIONS:
        section.notes = f"Only {done} of {SESSIONS} jobs finished within the 120 s limit."
    return section
