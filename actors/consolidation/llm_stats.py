"""What the calls to one LLM backend cost: outcomes, latency and tokens, for metrics.

Cached prompt tokens (the part of the prompt the server did not evaluate
again) come from the OpenAI field ``usage.prompt_tokens_details.cached_tokens``
or, from a llama.cpp server that does not fill it, ``timings.cache_n``; they
show whether the byte-stable prompt prefix pays off.

Kept in memory since start (Prometheus counters reset with the process).
Latency goes into fixed cumulative buckets, so a scrape renders a histogram
without keeping every observation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["LATENCY_BUCKETS", "LLMStats", "cached_tokens"]

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
    cached_tokens: int = 0
    refused: int = 0  # attempts not sent: the circuit breaker was open

    @property
    def failed(self) -> int:
        """Calls sent that failed: every outcome but ``ok`` (refusals are not calls)."""
        return sum(n for outcome, n in self.outcomes.items() if outcome != "ok")

    def observe(self, outcome: str, seconds: float) -> None:
        self.outcomes[outcome] += 1
        self.seconds_sum += seconds
        for i, bound in enumerate(LATENCY_BUCKETS):
            if seconds <= bound:
                self.buckets[i] += 1

    def add_usage(self, usage: object, timings: object = None) -> None:
        """Count an answer's ``usage`` (and llama.cpp's ``timings``); ignore what is not one."""
        if isinstance(usage, dict):
            for key in ("prompt_tokens", "completion_tokens"):
                setattr(self, key, getattr(self, key) + _count(usage.get(key)))
        self.cached_tokens += cached_tokens(usage, timings)

    def as_dict(self) -> dict[str, Any]:
        return {
            "calls": dict(self.outcomes),
            "seconds_sum": round(self.seconds_sum, 6),
            "seconds_buckets": dict(zip(map(str, LATENCY_BUCKETS), self.buckets, strict=True)),
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_tokens": self.cached_tokens,
            "refused": self.refused,
        }


def _count(value: object) -> int:
    """``value`` when it is a token count (a non-negative int), else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def cached_tokens(usage: object, timings: object) -> int:
    """Prompt tokens served from the server's cache: the OpenAI field, else llama.cpp's."""
    details = usage.get("prompt_tokens_details") if isinstance(usage, dict) else None
    if isinstance(details, dict) and "cached_tokens" in details:
        return _count(details["cached_tokens"])
    return _count(timings.get("cache_n")) if isinstance(timings, dict) else 0
