"""The consolidation supervisor: timers, the job queue, and the workers per LLM backend.

Supervisor. It follows each session's activity through the actors' hooks
and keeps one timer per session whose tail is over ``budget_tokens`` (a
heap, never a scan of all sessions). A timer fires when the session has
been quiet for ``idle_after`` or has stayed over ``hard_tokens`` for
``max_delay``; the session is then queued. Timers and open jobs are rebuilt
from SQLite at start.

Workers. Each backend has ``max_concurrent`` workers, so at most that many
LLM calls run at once, and a worker waits while a host holds a stream lease
on the backend (``stream_begin``/``stream_end``; leases expire, so a crashed
host cannot block consolidation forever). A job is: ask the session's actor
for a snapshot (a durable job over its oldest whole turns), call the LLM
outside the actor (the session keeps taking appends), then ask the actor to
apply it: ``MEMORY.md`` rewritten, the history entry appended (its id is the
job's, so a replay writes nothing twice), cursor moved in SQLite. Failed
calls are retried with backoff. After ``max_attempts`` failed calls the job
stays open and the turns stay in the tail (over budget, so ``context()``
still holds them) and the job is retried later; only once the tail is over
``hard_tokens`` are they archived raw into history *and* their facts
extracted into ``MEMORY.md`` by the extractive path, so no user statement
leaves the prompt unrecorded. Without an LLM an extractive consolidation
runs instead. A configured backend is probed once at start (logged, in
``status``); the probe never delays readiness.

Outcomes are counted per backend (``status``/``metrics``): ``done``,
``retried`` (the LLM failed; the turns stay in the tail), ``extractive``
(the LLM failed past ``hard_tokens``: raw archive plus extractive facts).
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import httpx
import trio

from reverie.config import NotFound, ReverieError
from reverie.store import (
    Fact,
    HistoryEntry,
    Job,
    MessageRecord,
    SessionRecord,
    attribute,
    job_counts,
    load_session,
    merge_facts,
    open_jobs,
    record_attempt,
)

from ..errors import LLMError, LLMRateLimited
from ..memory.keeper import MemoryKeeper
from ..registry import SessionRegistry
from ..services import Services, SessionHooks
from ..session import ApplyRequest, SnapshotRequest
from .backends import Backend, api_key
from .extractive import extractive_consolidation
from .llm import ConsolidationResult, LLMBackend
from .retry import backoff_delay
from .timers import TimerHeap

__all__ = ["Supervisor"]

log = logging.getLogger(__name__)
DEFAULT_BACKEND = "default"


@dataclass(slots=True)
class _Watch:
    """A session over budget: when it was last active and since when over ``hard_tokens``."""

    last_active: float
    over_hard_since: float | None


@dataclass(slots=True)
class _Pending:
    done: trio.Event = field(default_factory=trio.Event)
    target: int = 0
    outcome: dict[str, Any] | None = None
    error: ReverieError | None = None


def _raw_result(memory: str, turns: list[MessageRecord], facts: list[str]) -> ConsolidationResult:
    """The turns kept verbatim: what gets archived when the LLM keeps failing."""
    lines = [f"{t.role}: {t.content}" for t in turns]
    return ConsolidationResult(summary="\n".join(lines), facts=facts, memory=memory)


class Supervisor(SessionHooks):
    """Follows sessions (as their hooks), decides when to consolidate, and runs the jobs."""

    def __init__(self, services: Services, memory: MemoryKeeper, http: httpx.AsyncClient) -> None:
        self.services = services
        self.memory = memory
        self.cfg = services.config.consolidation
        self.registry: SessionRegistry | None = None
        self._timers = TimerHeap()
        self._watch: dict[str, _Watch] = {}
        self._wake = trio.Event()
        self._sleeping_until = math.inf
        self._pending: dict[str, _Pending] = {}
        self._failures: dict[str, int] = {}  # session -> failed jobs in a row
        self._nursery: trio.Nursery | None = None
        llm_cfg = services.config.llm
        llm = (
            LLMBackend(DEFAULT_BACKEND, llm_cfg, http, api_key(services))
            if llm_cfg.base_url
            else None
        )
        self.backends = {DEFAULT_BACKEND: Backend(DEFAULT_BACKEND, llm, llm_cfg.max_concurrent)}

    # -- lifecycle -----------------------------------------------------------

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Rebuild timers and open jobs from SQLite, then supervise and work until cancelled."""
        assert self.registry is not None, "Supervisor.registry must be set before run"
        await self._recover()
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._timer_loop)
            for backend in self.backends.values():
                if backend.llm is not None:
                    nursery.start_soon(backend.llm.probe)
            for backend in self.backends.values():
                for _ in range(backend.workers):
                    nursery.start_soon(self._worker, backend)
            task_status.started()

    async def _recover(self) -> None:
        budget = self.cfg.budget_tokens

        def load(conn: Any) -> tuple[list[SessionRecord], list[Job]]:
            names = [
                r[0]
                for r in conn.execute("SELECT name FROM sessions WHERE tail_tokens > ?", (budget,))
            ]
            return [s for n in names if (s := load_session(conn, n)) is not None], open_jobs(conn)

        sessions, jobs = await self.services.db.read(load)
        for record in sessions:
            self._observe(record, self._monotonic(record.last_active))
        for job in jobs:
            self._enqueue(job.session, target=self.cfg.target_tokens)
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
                log.info("session idle and over budget: queued", extra={"session": name})
                self._enqueue(name, target=self.cfg.target_tokens)

    # -- jobs ---------------------------------------------------------------

    def _enqueue(self, session: str, *, target: int) -> _Pending:
        pending = self._pending.get(session)
        if pending is None:
            pending = self._pending[session] = _Pending(target=target)
            self.backends[DEFAULT_BACKEND].send.send_nowait(session)
        return pending

    async def consolidate_now(self, session: str, *, wait: bool) -> dict[str, Any] | None:
        """Queue the session's whole tail (complete turns) now; optionally wait for the job.

        A job that failed (the disk is full, say) raises its error here.
        """
        pending = self._enqueue(session, target=0)
        if not wait:
            return None
        await pending.done.wait()
        if pending.error is not None:
            raise pending.error
        return pending.outcome

    async def _worker(self, backend: Backend) -> None:
        async for session in backend.recv:
            pending = self._pending[session]
            backend.running += 1
            try:
                pending.outcome = await self._run_job(session, backend, pending.target)
                self._failures.pop(session, None)
            except Exception as exc:  # a bad job must not stop the worker
                self.services.counters["consolidation_errors"] += 1
                pending.error = self._failed(session, exc)
            finally:
                backend.running -= 1
                del self._pending[session]
                pending.done.set()

    def _failed(self, session: str, exc: Exception) -> ReverieError:
        """Log a failed job and queue it again after a backoff; the error for its waiters.

        The job (if it was created) stays open in SQLite, so the retry resumes it.
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
        self._enqueue(session, target=self.cfg.target_tokens)

    async def _run_job(self, session: str, backend: Backend, target: int) -> dict[str, Any] | None:
        assert self.registry is not None
        snapshot = await self.registry.call(session, SnapshotRequest(target, backend.name))
        if snapshot is None:
            return None
        job, turns = snapshot
        async with self.memory.scope_lock(job.scope):  # MEMORY.md is read, then rewritten
            state, write = await self._prepare(job, turns, backend)
            await self.registry.call(session, ApplyRequest(job, state, write))
        self.memory.changed(job.scope)
        self.services.counters[f"consolidations_{state}"] += 1
        backend.outcomes[state] = backend.outcomes.get(state, 0) + 1
        log.info("consolidated %d messages (%s)", job.count, state, extra={"session": session})
        return {"job": job.id, "entry": job.entry_id, "state": state, "messages": job.count}

    async def _prepare(
        self, job: Job, turns: list[MessageRecord], backend: Backend
    ) -> tuple[str, Any]:
        """The outcome's state and the function that writes its files (run by the actor)."""
        if await self.memory.has_entry(job.scope, job.entry_id):
            return "done", lambda: None  # written before a crash: only the cursor is left to move
        current = await self.memory.prefix(job.scope)
        result, state = await self._produce(job, current, turns, backend)
        count = self.services.tokens.count
        memory = result.memory
        if state == "done" and backend.llm is not None:  # the model's rewrite: source its facts
            day = datetime.fromtimestamp(turns[-1].ts, UTC).strftime("%Y-%m-%d")
            batch = Fact(text="", date=day, sources={job.session: [t.id for t in turns]})
            memory = attribute(current, memory, batch)
        memory = merge_facts(memory, [], self.cfg.memory_max_tokens, count)
        entry = HistoryEntry(
            id=job.entry_id,
            scope=job.scope,
            session=job.session,
            start_ts=turns[0].ts,
            end_ts=turns[-1].ts,
            message_ids=[t.id for t in turns],
            first_seq=job.first_seq,
            last_seq=job.last_seq,
            summary=result.summary,
            facts=result.facts,
            raw=state == "extractive",
        )

        files = self.memory.store.files

        def write() -> None:  # memory first: the entry is the marker that the job's files are done
            files.write_memory(job.scope, memory)
            files.append_entry(entry)

        return state, write

    async def _produce(
        self, job: Job, memory: str, turns: list[MessageRecord], backend: Backend
    ) -> tuple[ConsolidationResult, str]:
        if backend.llm is None:
            return await self._extract(memory, turns, job.session), "done"
        now_iso = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        for attempt in range(1, self.cfg.max_attempts + 1):
            await backend.wait_no_stream()
            try:
                return await backend.llm.consolidate(
                    memory=memory, turns=turns, now_iso=now_iso
                ), "done"
            except LLMError as exc:
                backend.failed_calls += 1
                await self.services.db.write(
                    lambda c, e=exc: record_attempt(c, job.id, e.code, time.time())
                )
                if attempt == self.cfg.max_attempts:
                    return await self._give_up(job, memory, turns, backend, exc)
                self.services.counters["consolidation_retries"] += 1
                retry_after = exc.retry_after if isinstance(exc, LLMRateLimited) else None
                await trio.sleep(
                    backoff_delay(attempt, base=self.cfg.retry_base, retry_after=retry_after)
                )
        raise AssertionError("unreachable: max_attempts is at least 1")

    async def _give_up(
        self,
        job: Job,
        memory: str,
        turns: list[MessageRecord],
        backend: Backend,
        exc: LLMError,
    ) -> tuple[ConsolidationResult, str]:
        """After ``max_attempts`` failed calls: keep the turns in the tail, or past
        ``hard_tokens`` archive them raw with their facts extracted without a model.

        Keeping them raises ``exc`` (re-worded): the job stays open and the
        caller retries it after a backoff.
        """
        record = await self.services.db.read(lambda c: load_session(c, job.session))
        tail = 0 if record is None else record.tail_tokens
        if tail <= self.cfg.hard_tokens:
            backend.outcomes["retried"] += 1
            raise type(exc)(
                f"{exc.message} (after {self.cfg.max_attempts} attempts); the {job.count} "
                f"messages stay in the tail ({tail} tokens, hard limit "
                f"{self.cfg.hard_tokens}) and consolidation is retried"
            )
        log.error(
            "llm failed %d times and the tail is over hard_tokens (%d > %d): "
            "archiving the turns raw with extractive facts",
            self.cfg.max_attempts,
            tail,
            self.cfg.hard_tokens,
            extra={"session": job.session},
        )
        extracted = await self._extract(memory, turns, job.session)
        return _raw_result(extracted.memory, turns, extracted.facts), "extractive"

    async def _extract(
        self, memory: str, turns: list[MessageRecord], session: str
    ) -> ConsolidationResult:
        count, cap = self.services.tokens.count, self.cfg.memory_max_tokens
        return await trio.to_thread.run_sync(
            lambda: extractive_consolidation(
                memory, turns, max_tokens=cap, count_tokens=count, session=session
            )
        )

    # -- operations -----------------------------------------------------------

    def stream_begin(self, backend: str, ttl: float) -> str:
        """Declare a live stream on ``backend`` for at most ``ttl`` seconds; returns the lease."""
        target = self._backend(backend)
        lease = f"{backend}:{uuid.uuid4().hex}"
        target.leases[lease] = trio.current_time() + ttl
        return lease

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
        counts = await self.services.db.read(job_counts)
        return {
            name: {
                "kind": "extractive" if b.llm is None else b.llm.kind,
                "queued": b.recv.statistics().current_buffer_used,
                "running": b.running,
                "jobs": counts.get(name, {}),
                "failed_calls": b.failed_calls,
                "outcomes": dict(b.outcomes),
                "probe": "none" if b.llm is None else b.llm.probe_state,
                "breaker": "none" if b.llm is None else b.llm.breaker.state,
                "streams": len(b.live_leases()),
                "timers": len(self._timers),
                "llm": {} if b.llm is None else b.llm.stats.as_dict(),
            }
            for name, b in self.backends.items()
        }
