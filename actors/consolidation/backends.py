"""An LLM backend as consolidation sees it: its work queue, stream leases and counters.

``Backend`` is bookkeeping only; the HTTP client is ``LLMBackend`` (``llm.py``)
and the decisions are the supervisor's and the workers'. ``outcomes`` counts
how each job ended (``OUTCOMES``) and ``facts`` what the checks made of the
model's answers (``FACT_OUTCOMES``: facts kept and dropped, extractive facts
added beside them, updates and deletes applied or dropped), for ``status``
and ``metrics``. A host
holding a stream lease on a backend (``stream_begin``) keeps its workers
from calling the model; leases expire, so a crashed host cannot block
consolidation forever.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

import httpx
import trio

from reverie.config import ConfigError

from ..services import Services
from .answer import ANSWER_COUNTS
from .llm import LLMBackend

__all__ = [
    "DEFAULT_BACKEND",
    "FACT_OUTCOMES",
    "OUTCOMES",
    "Backend",
    "api_key",
    "configured_backends",
]

OUTCOMES = ("done", "retried", "extractive")
FACT_OUTCOMES = ANSWER_COUNTS
DEFAULT_BACKEND = "default"


class Backend:
    """One LLM backend: its work queue, stream leases and counters."""

    def __init__(
        self, name: str, llm: LLMBackend | None, workers: int, job_tokens: int = 0
    ) -> None:
        self.name = name
        self.llm = llm
        self.workers = max(1, workers)
        self.job_tokens = job_tokens  # the most tokens of turns one job takes (0: no cap)
        self.send, self.recv = trio.open_memory_channel[str](math.inf)
        self.leases: dict[str, float] = {}
        self.lease_changed = trio.Event()
        self.running = 0
        self.outcomes: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        self.facts: dict[str, int] = dict.fromkeys(FACT_OUTCOMES, 0)

    def count_facts(self, counts: dict[str, int]) -> None:
        """Add one job's answer counts (``FACT_OUTCOMES``)."""
        for key, n in counts.items():
            self.facts[key] += n

    def live_leases(self) -> dict[str, float]:
        now = trio.current_time()
        self.leases = {k: v for k, v in self.leases.items() if v > now}
        return self.leases

    async def wait_no_stream(self) -> None:
        """Return once no host holds a live stream lease on this backend."""
        while leases := self.live_leases():
            with trio.move_on_at(max(leases.values())):
                await self.lease_changed.wait()
            self.lease_changed = trio.Event()


def api_key(services: Services) -> str | None:
    cfg = services.config.llm
    if cfg.api_key_file:
        try:
            return Path(cfg.api_key_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(
                f"llm.api_key_file {cfg.api_key_file} cannot be read: {exc.strerror}"
            ) from exc
    return os.environ.get(cfg.api_key_env) or None


def configured_backends(services: Services, http: httpx.AsyncClient) -> dict[str, Backend]:
    """The backends the configuration names: today one, ``default`` (extractive without a URL)."""
    cfg = services.config.llm
    llm = LLMBackend(DEFAULT_BACKEND, cfg, http, api_key(services)) if cfg.base_url else None
    cap = cfg.max_job_tokens if llm is not None else 0
    return {DEFAULT_BACKEND: Backend(DEFAULT_BACKEND, llm, cfg.max_concurrent, cap)}
