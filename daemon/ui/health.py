"""What the health page charts: the daemon's own status, sampled by the inspector.

The daemon reports its state now (``status``: the same figures as its
metrics); a chart needs them over time. The inspector asks every
``interval`` seconds and keeps the last ``keep`` samples in memory: an hour
at the default 5 s, nothing on disk, gone when the inspector stops (a
Prometheus server scraping ``reverie metrics`` keeps longer history). A
sample the daemon could not answer is a gap, not a zero.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import msgspec

from reverie.config import ReverieError

from ..client import AsyncClient
from ..protocol import DaemonStatus

__all__ = ["SERIES", "Sample", "Sampler", "sample_of"]

#: Token kinds an LLM backend's calls report, summed over the backends.
_TOKENS = ("prompt_tokens", "cached_tokens", "completion_tokens")


@dataclass(frozen=True, slots=True)
class Sample:
    at: float
    values: dict[str, float]


def _llm_tokens(status: Mapping[str, Any], kind: str) -> float:
    backends = status["consolidation"].values()
    return float(sum(b.get("llm", {}).get(kind, 0) or 0 for b in backends))


def _llm_calls(status: Mapping[str, Any]) -> float:
    """LLM calls made since the daemon started, whatever their outcome, over every backend."""
    backends = status["consolidation"].values()
    return float(sum(sum(b.get("llm", {}).get("calls", {}).values()) for b in backends))


def _outcomes(status: Mapping[str, Any]) -> dict[str, float]:
    """Consolidation jobs by outcome since the daemon started, over every backend."""
    total: dict[str, float] = {}
    for backend in status["consolidation"].values():
        for outcome, count in backend.get("outcomes", {}).items():
            total[outcome] = total.get(outcome, 0.0) + count
    return total


def sample_of(view: DaemonStatus, at: float) -> Sample:
    """The charted figures of one ``status``."""
    status = msgspec.to_builtins(view)
    values = {
        "index_behind": float(status["index"].get("messages_behind", 0)),
        "rss_mib": status["process"]["rss_bytes"] / 2**20,
        "connections": float(status["process"]["connections"]),
        "open_files": float(status["process"]["open_files"]),
        "appended": float(status["counters"].get("messages_appended", 0)),
        "llm_calls": _llm_calls(status),
        **{kind: _llm_tokens(status, kind) for kind in _TOKENS},
        **{f"outcome:{k}": v for k, v in _outcomes(status).items()},
    }
    return Sample(at, values)


@dataclass(frozen=True, slots=True)
class Chart:
    """One chart of the health page: a title, its value axis's unit, and the series it draws."""

    title: str
    unit: str
    series: tuple[str, ...] | Callable[[list[Sample]], tuple[str, ...]]

    def names(self, samples: list[Sample]) -> tuple[str, ...]:
        return self.series(samples) if callable(self.series) else self.series


def _outcome_series(samples: list[Sample]) -> tuple[str, ...]:
    names = {name for s in samples for name in s.values if name.startswith("outcome:")}
    return tuple(sorted(names)) or ("outcome:ok",)


#: The health page's charts, in page order.
SERIES = (
    Chart("Index backlog", "messages behind", ("index_behind",)),
    Chart("Consolidation outcomes", "jobs since start", _outcome_series),
    Chart("LLM calls", "calls since start", ("llm_calls",)),
    Chart("LLM tokens", "tokens since start", _TOKENS),
    Chart("Resident memory", "MiB", ("rss_mib",)),
    Chart("Connections and open files", "count now", ("connections", "open_files")),
    Chart("Messages appended", "messages since start", ("appended",)),
)


@dataclass
class Sampler:
    """Asks the daemon for its status every ``interval`` seconds; keeps ``keep`` samples."""

    socket: Path
    interval: float = 5.0
    keep: int = 720
    samples: deque[Sample] = field(init=False)
    problem: str = ""  # why the last sample failed ("" when it did not)

    def __post_init__(self) -> None:
        self.samples = deque(maxlen=self.keep)

    async def run(self) -> None:
        """Sample until cancelled; one failed sample is remembered, not raised."""
        while True:
            await self.sample()
            await anyio.sleep(self.interval)

    async def sample(self) -> None:
        try:
            async with AsyncClient(self.socket) as client:
                view = await client.status()
        except ReverieError as exc:
            self.problem = exc.message
            return
        self.problem = ""
        self.samples.append(sample_of(view, time.time()))
