"""The consolidation workers: each backend's ``max_concurrent`` tasks, running the jobs.

A job is: ask the session's actor for a snapshot (a durable job over its
oldest whole turns), distill the turns outside the actor (the session keeps
taking appends; ``distill.py``), then ask the actor to apply the result,
carried as data: the actor hands the history entry and the new
``MEMORY.md`` to the memory's owner and moves the cursor in the database. The
entry's id is the job's, so a replay writes nothing twice.

No lock is held across the model call: if the scope's ``MEMORY.md``
changed meanwhile (an edit, a forget, another session of the scope), the
apply is refused and the job distilled again from the new memory. A job
that fails is queued again after a backoff; its open job in the database makes
the retry resume it.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from reverie.config import Busy, ReverieError

from ..memory.keeper import MemoryKeeper
from ..services import Services
from .backends import Backend
from .distill import Distiller
from .queue import JobQueue
from .requests import Sessions, SnapshotRequest
from .retry import backoff_delay

__all__ = ["Workers"]

log = logging.getLogger(__name__)
#: Times a job is distilled again because its scope's memory moved, before it backs off.
MAX_MOVES = 3


class Workers:
    """Take sessions from ``queue`` and consolidate them through their actors (``sessions``)."""

    def __init__(
        self, services: Services, queue: JobQueue, memory: MemoryKeeper, sessions: Sessions
    ) -> None:
        self.services = services
        self.queue = queue
        self.sessions = sessions
        self.distiller = Distiller(services, memory)
        self.cfg = services.config.consolidation
        self._failures: dict[str, int] = {}  # session -> failed jobs in a row
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Work every backend's queue until cancelled."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for backend in self.queue.backends.values():
                for _ in range(backend.workers):
                    nursery.start_soon(self._worker, backend)
            task_status.started()

    async def _worker(self, backend: Backend) -> None:
        async for session in backend.recv:
            pending = self.queue.taken(session)
            backend.running += 1
            try:
                pending.outcome = await self._run_job(session, backend, pending.target)
                self._failures.pop(session, None)
            except Exception as exc:  # a bad job must not stop the worker
                self.services.counters["consolidation_errors"] += 1
                pending.error = self._failed(session, exc)
            finally:
                backend.running -= 1
                self.queue.finished(session)

    def _failed(self, session: str, exc: Exception) -> ReverieError:
        """Log a failed job and queue it again after a backoff; the error for its waiters.

        The job (if it was created) stays open in the database, so the retry resumes it.
        """
        failures = self._failures[session] = self._failures.get(session, 0) + 1
        delay = backoff_delay(failures, base=self.cfg.retry_base)
        if isinstance(exc, ReverieError):
            log.warning(
                "consolidation failed (%s): %s; retrying in %.1fs",
                exc.code,
                exc.message,
                delay,
                extra={"session": session},
            )
        else:
            log.error(
                "consolidation failed; retrying in %.1fs",
                delay,
                exc_info=exc,
                extra={"session": session},
            )
            exc = ReverieError(f"consolidation failed: {type(exc).__name__}; see the daemon log")
        if self._nursery is not None:
            self._nursery.start_soon(self._retry, session, delay)
        return exc

    async def _retry(self, session: str, delay: float) -> None:
        await trio.sleep(delay)
        self.queue.enqueue(session, target=self.cfg.target_tokens)

    async def _run_job(self, session: str, backend: Backend, target: int) -> dict[str, Any] | None:
        snapshot = await self.sessions.call(
            session, SnapshotRequest(target, backend.name, backend.job_tokens)
        )
        if snapshot is None:
            return None
        job, turns = snapshot
        for _ in range(MAX_MOVES):
            apply = await self.distiller.prepare(job, turns, backend)
            if await self.sessions.call(session, apply) != "moved":
                break
            log.info(
                "memory of scope %r changed during the consolidation: distilling again",
                job.scope,
                extra={"session": session},
            )
        else:
            raise Busy(f"memory of scope {job.scope!r} kept changing during the consolidation")
        state = apply.state
        self.services.counters[f"consolidations_{state}"] += 1
        backend.outcomes[state] = backend.outcomes.get(state, 0) + 1
        log.info("consolidated %d messages (%s)", job.count, state, extra={"session": session})
        return {"job": job.id, "entry": job.entry_id, "state": state, "messages": job.count}
