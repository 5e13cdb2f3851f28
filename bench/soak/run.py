"""What a soak run holds: its settings, the daemon's samples, the latencies by op.

Kept apart from the load that fills it (``soak_load``) and the report read
from it (``soak_report``), so both read one record of a run.
"""

from __future__ import annotations

import itertools
from array import array
from collections import Counter
from dataclasses import dataclass, field

__all__ = [
    "CLIENTS",
    "MB",
    "MIX",
    "SAMPLE_EVERY",
    "SESSIONS",
    "Run",
    "Sample",
    "Settings",
    "rss_slope",
]

CLIENTS = 16
SESSIONS = 10_000
SAMPLE_EVERY = 5.0  # seconds between two status() samples
#: The soak mix, in percent of operations (run by ``bench.load.clients.run_op``).
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
