"""The consolidation supervisor: when a session is consolidated.

It follows each session's activity through the actors' hooks and keeps one
timer per session whose tail is over ``budget_tokens`` (a heap, never a
scan of all sessions). A timer fires when the session has been quiet for
``idle_after`` or has stayed over ``hard_tokens`` for ``max_delay``; the
session is then queued (``queue.py``) for the workers (``workers.py``).
Timers and open jobs are rebuilt from the database at start. A configured backend
is probed once at start (logged, in ``status``); the probe never delays
readiness.

Outcomes are counted per backend (``status``/``metrics``): ``done``,
``retried`` (the LLM failed; the turns stay in the tail), ``extractive``
(the LLM failed past ``hard_tokens``: raw archive plus extractive facts).
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from dataclasses import dataclass
from typing import Any

import httpx
import trio

from reverie.config import NotFound
from reverie.store import JobLeases, SessionRecord, Tx

from ..services import Services, SessionHooks
from .backends import DEFAULT_BACKEND, Backend, configured_backends
from .handoff import HandOff
from .queue import JobQueue
from .timers import TimerHeap

__all__ = ["Supervisor"]

log = logging.getLogger(__name__)


@dataclass(slots=True)
class _Watch:
    """A session over budget: when it was last active and since when over ``hard_tokens``."""

    last_active: float
    over_hard_since: float | None


class Supervisor(SessionHooks):
    """Follows sessions (as their hooks) and decides when to consolidate; owns the queue."""

    def __init__(
        self, services: Services, http: httpx.AsyncClient, *, leave_to: JobLeases | None = None
    ) -> None:
        """``leave_to``: the shared jobs of a daemon that leaves consolidation to the workers
        (``consolidation.leave_to_workers``): no timer for sessions going idle over budget,
        and a request's job is posted there for a worker (``handoff.py``)."""
        self.services = services
        self.watch_idle = leave_to is None
        self.cfg = services.config.consolidation
        self.backends = configured_backends(services, http)
        self.queue = JobQueue(self.backends)
        self._hand_off = (
            None
            if leave_to is None
            else HandOff(services, leave_to, self.backends[DEFAULT_BACKEND])
        )
        self._timers = TimerHeap()
        self._watch: dict[str, _Watch] = {}
        self._wake = trio.Event()
        self._sleeping_until = math.inf

    # -- lifecycle -----------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Rebuild timers and open jobs from the database, then supervise until cancelled."""
        await self._recover()
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self._timer_loop)
            for backend in self.backends.values():
                if backend.llm is not None:
                    nursery.start_soon(backend.llm.probe)
            task_status.started()

    async def _recover(self) -> None:
        budget = self.cfg.budget_tokens
        sessions, jobs = await self.services.db.read(
            lambda t: (t.sessions_over(budget), t.open_jobs())
        )
        for record in sessions:
            self._observe(record, self._monotonic(record.last_active))
        for job in jobs:
            self.queue.enqueue(job.session, target=self.cfg.target_tokens)
        log.info(
            "consolidation: %d sessions over budget, %d open jobs requeued",
            len(sessions),
            len(jobs),
        )

    @staticmethod
    def _monotonic(wall: float) -> float:
        return trio.current_time() - max(0.0, time.time() - wall)

    # -- hooks from the session actors -------------------------------------------

    def appended(self, session: SessionRecord) -> None:
        self._observe(session, trio.current_time())

    def consolidated(self, session: SessionRecord) -> None:
        self._observe(session, self._monotonic(session.last_active))

    def forgotten(self, session: str, scope: str) -> None:
        """Stop following ``session``; its Markdown is the forget job's (``memory/forget.py``)."""
        self._watch.pop(session, None)
        self._timers.cancel(session)

    # -- supervisor ---------------------------------------------------------

    def _observe(self, record: SessionRecord, active: float) -> None:
        """Keep a timer for a session over budget; forget one that is not."""
        if not self.watch_idle:
            return
        name = record.name
        if record.tail_tokens <= self.cfg.budget_tokens:
            self._watch.pop(name, None)
            self._timers.cancel(name)
            return
        watch = self._watch.get(name)
        if watch is None:
            watch = self._watch[name] = _Watch(active, None)
        watch.last_active = max(watch.last_active, active)
        if record.tail_tokens > self.cfg.hard_tokens and watch.over_hard_since is None:
            watch.over_hard_since = active
        due = self._due(watch)
        if due < self._timers.deadline(name):  # later activity is re-armed lazily, when it fires
            self._arm(name, due)

    def _due(self, watch: _Watch) -> float:
        idle = watch.last_active + self.cfg.idle_after
        hard = (
            math.inf
            if watch.over_hard_since is None
            else watch.over_hard_since + self.cfg.max_delay
        )
        return min(idle, hard)

    def _arm(self, name: str, deadline: float) -> None:
        self._timers.arm(name, deadline)
        if deadline < self._sleeping_until:
            self._wake.set()

    async def _timer_loop(self) -> None:
        while True:
            self._sleeping_until = self._timers.next_deadline()
            with trio.move_on_at(self._sleeping_until):
                await self._wake.wait()
            self._wake = trio.Event()
            now = trio.current_time()
            for name in self._timers.pop_due(now):
                watch = self._watch.get(name)
                if watch is None:
                    continue
                due = self._due(watch)
                if due > now:  # active since the timer was armed: re-arm lazily
                    self._timers.arm(name, due)
                    continue
                del self._watch[name]
                log.info("session %r idle and over budget: queued", name, extra={"session": name})
                self.queue.enqueue(name, target=self.cfg.target_tokens)

    # -- jobs ---------------------------------------------------------------

    async def consolidate_now(self, session: str, *, wait: bool) -> dict[str, Any] | None:
        """Queue the session's whole tail (complete turns) now; optionally wait for the job.

        A job that failed (the disk is full, say) raises its error here. A daemon that
        leaves consolidation to the workers posts the job for them instead.
        """
        if self._hand_off is not None:
            return await self._hand_off.consolidate(session, wait=wait)
        pending = self.queue.enqueue(session, target=0)
        if not wait:
            return None
        await pending.done.wait()
        if pending.error is not None:
            raise pending.error
        return pending.outcome

    # -- operations -----------------------------------------------------------

    def stream_begin(self, backend: str, ttl: float) -> str:
        """Declare a live stream on ``backend`` for at most ``ttl`` seconds; returns the lease."""
        target = self._backend(backend)
        lease = f"{backend}:{uuid.uuid4().hex}"
        target.leases[lease] = trio.current_time() + ttl
        return lease

    def live_leases(self) -> set[str]:
        """Every lease not ended and not expired, on any backend."""
        return {lease for b in self.backends.values() for lease in b.live_leases()}

    def stream_end(self, lease: str) -> bool:
        """End a lease early; False when it was unknown or already expired."""
        backend = self._backend(lease.partition(":")[0])
        ended = backend.leases.pop(lease, None) is not None
        backend.lease_changed.set()
        return ended

    def _backend(self, name: str) -> Backend:
        backend = self.backends.get(name)
        if backend is None:
            raise NotFound(f"no LLM backend named {name!r}; configured: {', '.join(self.backends)}")
        return backend

    async def status(self) -> dict[str, Any]:
        counts = await self.services.db.read(Tx.job_counts)
        return {
            name: {
                "kind": "extractive" if b.llm is None else b.llm.kind,
                "queued": b.recv.statistics().current_buffer_used,
                "running": b.running,
                "jobs": counts.get(name, {}),
                "failed_calls": 0 if b.llm is None else b.llm.stats.failed,
                "outcomes": dict(b.outcomes),
                "probe": "none" if b.llm is None else b.llm.probe_state,
                "breaker": "none" if b.llm is None else b.llm.breaker.state,
                "streams": len(b.live_leases()),
                "timers": len(self._timers),
                "llm": {} if b.llm is None else b.llm.stats.as_dict(),
                "facts": dict(b.facts),
            }
            for name, b in self.backends.items()
        }
