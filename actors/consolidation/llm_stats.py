"""What the calls to one LLM backend cost: outcomes, latency and tokens, for metrics.

Kept in memory since start (Prometheus counters reset with the process).
Latency goes into fixed cumulative buckets, so a scrape renders a histogram
without keeping every observation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LATENCY_BUCKETS", "LLMStats"]

#: Upper bounds (seconds) of the latency buckets; +Inf is implied.
LATENCY_BUCKETS = (0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)


@dataclass(slots=True)
class LLMStats:
    """Calls by outcome (``ok`` or the error code), their latency, and tokens used."""

    outcomes: Counter[str] = field(default_factory=Counter)
    seconds_sum: float = 0.0
    buckets: list[int] = field(default_factory=lambda: [0] * len(LATENCY_BUCKETS))
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def observe(self, outcome: str, seconds: float) -> None:
        self.outcomes[outcome] += 1
        self.seconds_sum += seconds
        for i, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                self.buckets[i] += 1

    def add_usage(self, usage: object) -> None:
        """Count the ``usage`` object of an OpenAI-compatible answer; ignore what is not one."""
        if not isinstance(usage, dict):
            return
        for key in ("prompt_tokens", "completion_tokens"):
            value = usage.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
                setattr(self, key, getattr(self, key) + value)

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": dict(self.outcomes),
            "seconds_sum": round(self.seconds_sum, 6),
            "seconds_buckets": dict(zip(map(str, LATENCY_BUCKETS), self.buckets, strict=True)),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }
