"""When to call a failing LLM backend again: backoff delays and a circuit breaker.

``backoff_delay`` spreads retries out (exponential with full jitter, so many
workers that failed together do not retry together) and never retries sooner
than a server's Retry-After. ``CircuitBreaker`` stops sending requests to a
backend that keeps failing, then lets a single probe through after a
cool-down; the probe's outcome closes or re-opens it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["BreakerState", "CircuitBreaker", "backoff_delay"]

log = logging.getLogger(__name__)

BreakerState = Literal["closed", "open", "half_open"]


class _Uniform(Protocol):
    def uniform(self, a: float, b: float, /) -> float: ...


def backoff_delay(
    attempt: int,
    *,
    base: float = 1.0,
    cap: float = 60.0,
    retry_after: float | None = None,
    rng: _Uniform = random,
) -> float:
    """Seconds to wait before retry number ``attempt`` (0 for the first retry).

    Uniform in ``[0, min(cap, base * 2**attempt)]``; never less than
    ``retry_after`` when the server sent one, even above ``cap``.
    """
    ceiling = min(cap, base * 2.0 ** min(max(attempt, 0), 64))
    delay = rng.uniform(0.0, ceiling)
    return delay if retry_after is None else max(delay, retry_after)


@dataclass(slots=True)
class CircuitBreaker:
    """Per backend: opens after ``threshold`` consecutive failures.

    While open, ``allow`` refuses until ``cooldown`` seconds have passed; then it
    admits one probe (half-open). A probe that never reports back (its task
    was cancelled) does not wedge the breaker: another probe is admitted after
    a further cool-down. ``clock`` is injectable for tests.
    """

    name: str = ""
    threshold: int = 5
    cooldown: float = 30.0
    clock: Callable[[], float] = time.monotonic
    failures: int = 0
    opened_at: float | None = None
    probe_at: float | None = None

    @property
    def state(self) -> BreakerState:
        """``closed``; ``open`` while cooling down; ``half_open`` once a probe may go."""
        if self.opened_at is None:
            return "closed"
        if self.probe_at is not None or self.clock() - self.opened_at >= self.cooldown:
            return "half_open"
        return "open"

    def allow(self) -> bool:
        """Whether a request may be sent now; admitting a probe counts as sending it."""
        if self.opened_at is None:
            return True
        now = self.clock()
        since = self.probe_at if self.probe_at is not None else self.opened_at
        if now - since < self.cooldown:
            return False
        self.probe_at = now
        log.info("llm backend %s: circuit half-open, sending a probe", self.name)
        return True

    def record_success(self) -> None:
        if self.opened_at is not None:
            log.info("llm backend %s: circuit closed", self.name)
        self.failures = 0
        self.opened_at = None
        self.probe_at = None

    def record_failure(self) -> None:
        self.failures += 1
        if self.opened_at is None and self.failures < self.threshold:
            return
        if self.opened_at is None:
            log.warning(
                "llm backend %s: circuit open after %d failures; next probe in %.0fs",
                self.name,
                self.failures,
                self.cooldown,
            )
        self.opened_at = self.clock()
        self.probe_at = None
