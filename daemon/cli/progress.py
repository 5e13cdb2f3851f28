"""``reverie consolidate``'s progress on stderr while it waits for the job.

A consolidation can take a while: a small local model takes tens of
seconds a job, a failing LLM ``max_attempts`` calls with backoff. Rather
than silence, a watcher thread asks the daemon's ``status`` once a second
on a connection of its own and prints one line when something changes (a
failed LLM call, the circuit breaker opening, the start-up probe's
verdict) and one every ``HEARTBEAT`` seconds saying how long it has
waited. It never changes the outcome.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, Self

import msgspec

from reverie.config import ReverieError

__all__ = ["ConsolidationProgress"]

_EVERY = 1.0
#: Seconds between the "still consolidating" lines.
HEARTBEAT = 10.0


class ConsolidationProgress:
    """Context manager: prints progress lines to stderr until the block ends."""

    def __init__(self, connect: Callable[[], Any], session: str, backend: str = "default") -> None:
        self._connect = connect
        self._session = session
        self._backend = backend
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._seen: tuple[Any, ...] | None = None
        self._started = time.monotonic()
        self._told = 0

    def __enter__(self) -> Self:
        print(f"consolidating {self._session} …", file=sys.stderr, flush=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object | TracebackType | None) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _watch(self) -> None:
        try:
            with self._connect() as client:
                while not self._stop.wait(_EVERY):
                    self._report(
                        msgspec.to_builtins(client.status().consolidation.get(self._backend, {}))
                    )
        except (ReverieError, OSError):
            return  # progress is best effort; the command's own call reports errors

    def _report(self, backend: dict[str, Any]) -> None:
        waited = time.monotonic() - self._started
        if waited >= (self._told + 1) * HEARTBEAT:
            self._told = int(waited // HEARTBEAT)
            print(
                f"  still consolidating {self._session}: {waited:.0f} s, "
                f"{backend.get('running', 0)} jobs running, {backend.get('queued', 0)} queued",
                file=sys.stderr,
                flush=True,
            )
        state = (backend.get("failed_calls", 0), backend.get("breaker"), backend.get("probe"))
        if self._seen is not None and state != self._seen:
            failed, breaker, probe = state
            print(
                f"  llm backend {self._backend}: {failed} failed calls, breaker {breaker}, "
                f"probe {probe}; still trying",
                file=sys.stderr,
                flush=True,
            )
        self._seen = state
