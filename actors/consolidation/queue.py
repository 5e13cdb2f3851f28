"""The consolidation queue: at most one job per session, queued or running.

The supervisor (its timers, ``consolidate_now``) and the workers' retries
put sessions in; the workers take them out in order, one backend's queue
each. Whoever waits for a job (``consolidate_now(wait=True)``) waits on its
``Pending``, which the worker fills in and sets once the job ended.

A session asked for again while its job runs (its tail is still over budget
after a job capped by ``llm.max_job_tokens``, say) is queued again when that
job ends, so no request is lost to the one-job-per-session rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import trio

from reverie.config import ReverieError

from .backends import DEFAULT_BACKEND, Backend

__all__ = ["JobQueue", "Pending"]


@dataclass(slots=True)
class Pending:
    """A session's job, queued or running: its target and, once done, outcome or error."""

    done: trio.Event = field(default_factory=trio.Event)
    target: int = 0
    outcome: dict[str, Any] | None = None
    error: ReverieError | None = None
    running: bool = False
    again: int | None = None  # the target of a job asked for while this one ran


class JobQueue:
    """Sessions waiting for a consolidation on ``backends``."""

    def __init__(self, backends: dict[str, Backend]) -> None:
        self.backends = backends
        self._pending: dict[str, Pending] = {}

    def enqueue(self, session: str, *, target: int) -> Pending:
        """Queue ``session`` (consolidate down to ``target`` tokens) unless it already is.

        While its job runs, the request is kept and queued when the job ends.
        """
        pending = self._pending.get(session)
        if pending is None:
            pending = self._pending[session] = Pending(target=target)
            self.backends[DEFAULT_BACKEND].send.send_nowait(session)
        elif pending.running:
            pending.again = target if pending.again is None else min(pending.again, target)
        return pending

    def holds(self, session: str) -> bool:
        """``session`` is queued or its job is running."""
        return session in self._pending

    def taken(self, session: str) -> Pending:
        """The job a worker just took from its backend's queue."""
        pending = self._pending[session]
        pending.running = True
        return pending

    def finished(self, session: str) -> None:
        """The worker is done with ``session``'s job: wake its waiters, queue what came meanwhile."""
        pending = self._pending.pop(session)
        pending.done.set()
        if pending.again is not None:
            self.enqueue(session, target=pending.again)
