"""The consolidation client's circuit breaker and retry backoff: failing or unusable
answers open the breaker, a probe closes it, and retries wait exponentially,
capped and jittered; against a real scripted HTTP server on loopback.
"""

from __future__ import annotations

import random

import httpx
import pytest

from reverie.actors.consolidation.llm import LLMBackend
from reverie.actors.consolidation.retry import CircuitBreaker, backoff_delay
from reverie.config import (
    LLMRejected,
    LLMUnavailable,
)
from tests.actors.llm_backend import (
    cfg,
    consolidate,
    http_client,  # noqa: F401  (the ``http`` fixture)
)
from tests.fakellm import (
    FakeLLM,
    garbage,
    status,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.trio
async def test_breaker_opens_stops_sending_then_half_opens(
    fake_llm: FakeLLM, http: httpx.AsyncClient
) -> None:
    clock = Clock()
    breaker = CircuitBreaker(name="local", threshold=3, cooldown=30.0, clock=clock)
    backend = LLMBackend("local", cfg(fake_llm.base_url), http, None, breaker=breaker)
    fake_llm.script(status(500), status(502), status(503), status(500))
    for _ in range(3):
        assert breaker.state == "closed"
        with pytest.raises(LLMUnavailable):
            await consolidate(backend)
    assert breaker.state == "open"
    with pytest.raises(LLMUnavailable, match="circuit open"):
        await consolidate(backend)
    assert len(fake_llm.requests) == 3  # refused without a request
    clock.now = 30.0
    assert breaker.state == "half_open"
    with pytest.raises(LLMUnavailable):  # the probe fails: open again, fresh cool-down
        await consolidate(backend)
    assert (breaker.state, len(fake_llm.requests)) == ("open", 4)
    clock.now = 59.0
    assert breaker.allow() is False
    clock.now = 60.0
    await consolidate(backend)  # probe succeeds (default answer)
    assert (breaker.state, breaker.failures) == ("closed", 0)


def test_breaker_admits_one_probe_and_recovers_from_a_lost_probe() -> None:
    clock = Clock()
    breaker = CircuitBreaker(threshold=1, cooldown=10.0, clock=clock)
    breaker.record_failure()
    assert breaker.allow() is False
    clock.now = 10.0
    assert (breaker.allow(), breaker.allow()) == (True, False)
    clock.now = 20.0  # the probe never reported back (cancelled)
    assert breaker.allow() is True
    breaker.record_success()
    assert breaker.state == "closed" and breaker.allow() is True


def test_a_success_resets_the_failure_count() -> None:
    breaker = CircuitBreaker(threshold=2, clock=Clock())
    breaker.record_failure()
    breaker.record_success()
    breaker.record_failure()
    assert breaker.state == "closed"


class Extreme:
    def __init__(self, high: bool) -> None:
        self.high = high

    def uniform(self, a: float, b: float) -> float:
        return b if self.high else a


def test_backoff_is_exponential_capped_and_jittered() -> None:
    high, low = Extreme(True), Extreme(False)
    assert [backoff_delay(n, rng=high) for n in range(8)] == [1, 2, 4, 8, 16, 32, 60, 60]
    assert backoff_delay(3, base=0.5, cap=100, rng=high) == 4.0
    assert backoff_delay(5, rng=low) == 0.0
    assert backoff_delay(10_000, rng=high) == 60.0
    rng = random.Random(7)
    delays = [backoff_delay(4, rng=rng) for _ in range(50)]
    assert all(0.0 <= d <= 16.0 for d in delays) and len(set(delays)) == 50


def test_backoff_honours_retry_after_as_floor() -> None:
    assert backoff_delay(0, retry_after=7.0, rng=Extreme(True)) == 7.0
    assert backoff_delay(5, retry_after=2.0, rng=Extreme(True)) == 32.0
    assert backoff_delay(0, retry_after=90.0, rng=Extreme(False)) == 90.0


@pytest.mark.trio
async def test_unusable_answers_open_the_breaker(
    fake_llm: FakeLLM, http: httpx.AsyncClient
) -> None:
    breaker = CircuitBreaker(name="local", threshold=2, cooldown=30.0, clock=Clock())
    backend = LLMBackend("local", cfg(fake_llm.base_url), http, None, breaker=breaker)
    fake_llm.script(garbage(), garbage(), garbage())
    for _ in range(2):
        with pytest.raises(LLMRejected):
            await consolidate(backend)
    assert breaker.state == "open"
    with pytest.raises(LLMUnavailable):
        await consolidate(backend)
    assert len(fake_llm.requests) == 2  # no third call while open
    assert backend.stats.outcomes["llm.rejected"] == 2
