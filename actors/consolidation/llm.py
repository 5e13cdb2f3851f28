"""The consolidation model: an OpenAI-compatible chat-completions client.

One request turns a batch of turns plus the scope's current ``MEMORY.md``
into a history summary and new facts (``prompt.py`` builds it and reads the
answer; ``grounding.py`` then checks the facts against the turns).

``LLMBackend.consolidate`` makes exactly one attempt; retrying with
``backoff_delay`` and falling back to a raw archive are the caller's job.
Every failure is one of the typed errors in ``reverie.config.errors``, and
the API key never appears in an exception message or a log line.
"""

from __future__ import annotations

import logging
import time
from email.utils import parsedate_to_datetime
from typing import Literal
from urllib.parse import urlsplit

import httpx
import msgspec
import trio

from reverie.config import (
    LLMConfig,
    LLMError,
    LLMRateLimited,
    LLMRejected,
    LLMTimeout,
    LLMUnavailable,
    scrub,
)
from reverie.store import MessageRecord

from .llm_stats import LLMStats
from .prompt import ModelAnswer, build_request, parse_answer
from .retry import CircuitBreaker

__all__ = ["LLMBackend", "detect_kind"]

log = logging.getLogger(__name__)
_PROBE_TIMEOUT = 10.0


def detect_kind(cfg: LLMConfig) -> Literal["openai", "local"]:
    """``llm.kind``, or when it is empty: ``openai`` for api.openai.com, else ``local``."""
    if cfg.kind:
        return cfg.kind
    return "openai" if urlsplit(cfg.base_url).hostname == "api.openai.com" else "local"


def _retry_after(value: str | None) -> float | None:
    """Retry-After as seconds from now: delta-seconds or an HTTP date; None if absent or bad."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - time.time(), 0.0)


class LLMBackend:
    """One configured OpenAI-compatible server, with its circuit breaker.

    ``http`` is the daemon's shared client; the backend never closes it.
    """

    def __init__(
        self,
        name: str,
        cfg: LLMConfig,
        http: httpx.AsyncClient,
        api_key: str | None,
        *,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self.name = name
        self.cfg = cfg
        self.kind = detect_kind(cfg)
        self.url = cfg.base_url.rstrip("/") + "/chat/completions"
        self.breaker = (
            breaker
            if breaker is not None
            else CircuitBreaker(
                name=name, threshold=cfg.breaker_threshold, cooldown=cfg.breaker_cooldown
            )
        )
        self._http = http
        self._api_key = api_key or None
        self.stats = LLMStats()
        self.probe_state = "pending"  # set by ``probe`` at start

    def __repr__(self) -> str:
        return f"LLMBackend(name={self.name!r}, url={scrub(self.url)!r}, kind={self.kind!r})"

    def _scrub(self, text: str) -> str:
        return scrub(text, [self._api_key])

    async def consolidate(
        self, *, memory: str, turns: list[MessageRecord], now: float, attempt: int = 1
    ) -> ModelAnswer:
        """One attempt at consolidating ``turns`` into ``memory``.

        Raises ``LLMUnavailable`` without sending anything while the breaker is
        open. Every failure counts toward opening it, rejected answers too: a
        server that answers only what cannot be used (HTML, no JSON, an
        answer cut at ``max_tokens``) is as useless as one that is down, and
        the breaker is what makes the workers back off from it.
        """
        if not self.breaker.allow():
            self.stats.refused += 1
            raise LLMUnavailable(f"llm backend {self.name}: circuit open after repeated failures")
        started = time.monotonic()
        try:
            answer = await self._attempt(memory=memory, turns=turns, now=now, attempt=attempt)
        except LLMError as exc:
            self.stats.observe(exc.code, time.monotonic() - started)
            self.breaker.record_failure()
            log.warning("%s", exc.message)  # the message names the backend already
            raise
        self.stats.observe("ok", time.monotonic() - started)
        self.breaker.record_success()
        log.info(
            "llm backend %s: consolidated %d turns in %.1fs",
            self.name,
            len(turns),
            time.monotonic() - started,
        )
        return answer

    async def probe(self) -> str:
        """Ask ``GET <base_url>/models`` once; the outcome in words, also kept in ``probe_state``.

        ``ok`` when the server answers (any status below 500 but 401/403: a
        server without ``/models`` still proves it is up); otherwise why not.
        Never raises and never touches the circuit breaker: a probe is
        information for ``status`` and the log, not a consolidation attempt.
        """
        url = self.cfg.base_url.rstrip("/") + "/models"
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        seconds = min(self.cfg.timeout, _PROBE_TIMEOUT)
        try:
            with trio.fail_after(seconds):
                response = await self._http.get(url, headers=headers, timeout=seconds)
        except (trio.TooSlowError, httpx.TimeoutException):
            state = f"unreachable: no answer within {seconds:g}s"
        except httpx.HTTPError as exc:
            state = f"unreachable: {type(exc).__name__}: {self._scrub(str(exc))}"
        else:
            code = response.status_code
            state = (
                f"rejected: HTTP {code} (check the API key)"
                if code in (401, 403)
                else f"failing: HTTP {code}"
                if code >= 500
                else "ok"
            )
        self.probe_state = state
        where = f"llm backend {self.name} ({self._scrub(self.url)})"
        if state == "ok":
            log.info("%s: probe ok", where)
        else:
            log.warning(
                "%s: probe %s; consolidation will retry and keep turns in the tail", where, state
            )
        return state

    async def _attempt(
        self, *, memory: str, turns: list[MessageRecord], now: float, attempt: int
    ) -> ModelAnswer:
        body = build_request(
            self.cfg, self.kind, memory=memory, turns=turns, now=now, attempt=attempt
        )
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        where = f"llm backend {self.name} ({self._scrub(self.url)})"
        try:
            with trio.fail_after(self.cfg.timeout):
                response = await self._http.post(
                    self.url, json=body, headers=headers, timeout=self.cfg.timeout
                )
        except (trio.TooSlowError, httpx.TimeoutException) as exc:
            raise LLMTimeout(f"{where}: no answer within {self.cfg.timeout:g}s") from exc
        except httpx.InvalidURL as exc:
            raise LLMRejected(f"{where}: llm.base_url is not a valid URL") from exc
        except httpx.HTTPError as exc:
            raise LLMUnavailable(
                f"{where}: request failed: {type(exc).__name__}: {self._scrub(str(exc))}"
            ) from exc
        return self._read(response, where)

    def _read(self, response: httpx.Response, where: str) -> ModelAnswer:
        status = response.status_code
        if status == 429:
            retry_after = _retry_after(response.headers.get("retry-after"))
            raise LLMRateLimited(f"{where}: rate limited (HTTP 429)", retry_after=retry_after)
        if status >= 500:
            raise LLMUnavailable(f"{where}: server error HTTP {status}")
        if not 200 <= status < 300:
            snippet = self._scrub(response.text[:200])
            raise LLMRejected(f"{where}: HTTP {status}: {snippet}")
        try:
            body = msgspec.json.decode(response.content)
        except msgspec.DecodeError as exc:
            raise LLMRejected(f"{where}: the response is not JSON") from exc
        if not isinstance(body, dict):
            raise LLMRejected(f"{where}: the response is not a JSON object")
        self.stats.add_usage(body.get("usage"), body.get("timings"))
        try:
            return parse_answer(body)
        except LLMRejected as exc:
            raise LLMRejected(f"{where}: {self._scrub(exc.message)}") from exc
