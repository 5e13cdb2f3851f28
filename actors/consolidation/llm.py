"""The consolidation model: an OpenAI-compatible chat-completions client.

One request turns a batch of turns plus the scope's current ``MEMORY.md``
into a history summary, new facts and an updated ``MEMORY.md``.

The system prompt is a module constant, byte-identical for every job, and
everything dynamic goes into one user message, so servers with prefix
caching (OpenAI's automatic cache, llama.cpp's ``cache_prompt`` with a pinned
``id_slot``) reuse the prompt's prefix across jobs.

``LLMBackend.consolidate`` makes exactly one attempt; retrying with
``backoff_delay`` and falling back to a raw archive are the caller's job.
Every failure is one of the typed errors in ``reverie.actors.errors``, and
the API key never appears in an exception message or a log line.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, Literal
from urllib.parse import urlsplit

import httpx
import msgspec
import trio

from reverie.config import LLMConfig
from reverie.store import MessageRecord

from ..errors import LLMError, LLMRateLimited, LLMRejected, LLMTimeout, LLMUnavailable
from .llm_stats import LLMStats
from .retry import CircuitBreaker

__all__ = [
    "CONSOLIDATION_SYSTEM_PROMPT",
    "ConsolidationResult",
    "LLMBackend",
    "build_request",
    "detect_kind",
    "parse_result",
]

log = logging.getLogger(__name__)
_PROBE_TIMEOUT = 10.0

CONSOLIDATION_SYSTEM_PROMPT = """\
You maintain the long-term memory of an AI agent. You are given the current \
date, the agent's current memory (a Markdown document, possibly empty) and a \
batch of conversation turns that are about to leave the agent's context window.

Reply with one JSON object with exactly these keys:
- "summary": a short, factual account of what happened in these turns, in \
the third person, in a few sentences. Keep names, numbers, dates and decisions.
- "facts": a list of durable facts learned from these turns (preferences, \
identities, decisions, commitments, constraints), each one short sentence \
that makes sense on its own. Do not repeat facts already in the memory.
- "memory": the complete updated memory document in Markdown: the current \
memory with the new facts merged in, duplicates removed, and nothing transient \
kept. Keep it concise. One fact per "- " line, in the third person with the \
person's name. A line may start with a [YYYY-MM-DD] date and end with a \
<!-- from ... --> source comment: keep both exactly as they are on every line \
you keep. When a newer fact replaces an older one about the same subject (a \
new address, job or name), drop the older line: it stays in the history.

Use only information present in the input. Write nothing outside the JSON object.
"""


class ConsolidationResult(msgspec.Struct):
    """What the model returns: a history entry's text and the new ``MEMORY.md``."""

    summary: str
    facts: list[str]
    memory: str


def _result_schema() -> dict[str, Any]:
    """ConsolidationResult's JSON schema, inlined and closed as strict mode requires; no prose."""
    schema = msgspec.json.schema(ConsolidationResult)
    body = dict(schema["$defs"]["ConsolidationResult"])
    body.pop("title", None)
    body.pop("description", None)
    body["additionalProperties"] = False
    return body


RESULT_SCHEMA: dict[str, Any] = _result_schema()
_result_decoder = msgspec.json.Decoder(ConsolidationResult)


def detect_kind(cfg: LLMConfig) -> Literal["openai", "local"]:
    """``llm.kind``, or when it is empty: ``openai`` for api.openai.com, else ``local``."""
    if cfg.kind:
        return cfg.kind
    return "openai" if urlsplit(cfg.base_url).hostname == "api.openai.com" else "local"


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _render_turn(turn: MessageRecord) -> str:
    who = turn.role if turn.name is None else f"{turn.role} ({turn.name})"
    lines = [f"[#{turn.seq} {_iso(turn.ts)} {who}]", turn.content]
    if turn.tool_calls is not None:
        lines.append("tool calls: " + json.dumps(turn.tool_calls, sort_keys=True))
    if turn.tool_call_id is not None:
        lines.append(f"(result of tool call {turn.tool_call_id})")
    return "\n".join(lines)


def _user_message(memory: str, turns: list[MessageRecord], now_iso: str) -> str:
    return (
        f"Current date: {now_iso}\n\n"
        f"<memory>\n{memory.strip() or '(empty)'}\n</memory>\n\n"
        "<turns>\n" + "\n\n".join(_render_turn(t) for t in turns) + "\n</turns>"
    )


def build_request(
    cfg: LLMConfig, *, memory: str, turns: list[MessageRecord], now_iso: str
) -> dict[str, Any]:
    """The chat-completions JSON body for one consolidation job.

    Local servers also get ``cache_prompt`` and, when ``llm.slot_id`` is set
    (>= 0), the ``id_slot`` to pin; OpenAI gets neither (it rejects unknown keys).
    """
    body: dict[str, Any] = {
        "model": cfg.model,
        "messages": [
            {"role": "system", "content": CONSOLIDATION_SYSTEM_PROMPT},
            {"role": "user", "content": _user_message(memory, turns, now_iso)},
        ],
        "temperature": 0,
        "stream": False,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "consolidation", "strict": True, "schema": RESULT_SCHEMA},
        },
    }
    if detect_kind(cfg) == "local":
        body["cache_prompt"] = True
        if cfg.slot_id >= 0:
            body["id_slot"] = cfg.slot_id
    return body


def _embedded_result(text: str) -> ConsolidationResult:
    """The first JSON object inside ``text`` (prose, Markdown fences), validated."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            found, _ = decoder.raw_decode(text, start)
        except json.JSONDecodeError:
            start = text.find("{", start + 1)
            continue
        if isinstance(found, dict):
            try:
                return msgspec.convert(found, ConsolidationResult)
            except msgspec.ValidationError as exc:
                raise LLMRejected(f"the model's answer does not match the schema: {exc}") from exc
        start = text.find("{", start + 1)
    raise LLMRejected("the model's answer contains no JSON object")


def parse_result(body: dict[str, Any]) -> ConsolidationResult:
    """The result in a chat-completions response body, or ``LLMRejected``.

    The message content is decoded as the schema; failing that, the first JSON
    object embedded in it (models without structured output like to wrap it
    in ```json fences) is validated instead.
    """
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError) as exc:
        raise LLMRejected("the response has no choices[0].message.content") from exc
    if not isinstance(content, str):
        raise LLMRejected(f"the model's answer is {type(content).__name__}, not text")
    try:
        return _result_decoder.decode(content)
    except msgspec.DecodeError:
        return _embedded_result(content)


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
        return f"LLMBackend(name={self.name!r}, url={self.url!r}, kind={self.kind!r})"

    def _scrub(self, text: str) -> str:
        return text.replace(self._api_key, "***") if self._api_key else text

    async def consolidate(
        self, *, memory: str, turns: list[MessageRecord], now_iso: str
    ) -> ConsolidationResult:
        """One attempt at consolidating ``turns`` into ``memory``.

        Raises ``LLMUnavailable`` without sending anything while the breaker is
        open. Timeouts, rate limits and unavailability count as breaker
        failures; a rejection proves the server is up, so it counts as success.
        """
        if not self.breaker.allow():
            raise LLMUnavailable(f"llm backend {self.name}: circuit open after repeated failures")
        started = time.monotonic()
        try:
            result = await self._attempt(memory=memory, turns=turns, now_iso=now_iso)
        except LLMRejected as exc:
            self.stats.observe(exc.code, time.monotonic() - started)
            self.breaker.record_success()
            log.warning("%s", exc.message)  # the message names the backend already
            raise
        except LLMError as exc:
            self.stats.observe(exc.code, time.monotonic() - started)
            self.breaker.record_failure()
            log.warning("%s", exc.message)
            raise
        self.stats.observe("ok", time.monotonic() - started)
        self.breaker.record_success()
        log.info(
            "llm backend %s: consolidated %d turns in %.1fs",
            self.name,
            len(turns),
            time.monotonic() - started,
        )
        return result

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
        self, *, memory: str, turns: list[MessageRecord], now_iso: str
    ) -> ConsolidationResult:
        body = build_request(self.cfg, memory=memory, turns=turns, now_iso=now_iso)
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

    def _read(self, response: httpx.Response, where: str) -> ConsolidationResult:
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
        self.stats.add_usage(body.get("usage"))
        try:
            return parse_result(body)
        except LLMRejected as exc:
            raise LLMRejected(f"{where}: {self._scrub(exc.message)}") from exc
