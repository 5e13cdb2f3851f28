"""Forget, completely and provably: a session, or one fact of a scope.

A forget is one durable job (``store.ForgetJob`` in the database),
recorded in the same transaction that deletes the session's rows (or, for a
fact, before anything is touched). The job then removes what lives outside
the database: the session's episodes and the facts only it supports from its
scope's Markdown (the whole scope directory when the scope is the session's
own), and the index rows, rewritten so no file keeps their bytes
(``Indexer.purge``); while the index is off, its directories are deleted
instead (``drop_index``) and rebuilt at the next start with it on. Last,
the job is deleted, the database compacted (SQLite: ``VACUUM``, which also
takes the copies of deleted rows that ``secure_delete`` cannot reach) and
its WAL checkpointed and truncated, so the database files hold no deleted
bytes either. Only then does ``forget`` return, unless a reader's snapshot
keeps the WAL busy:
the truncation is then not waited for (the writer would stall every append)
but left pending, shown in ``status`` (``checkpoint_pending``) and retried
in the background until it is done.

A crash at any point leaves the job recorded; ``run`` finishes every such
job at the next start (each step is idempotent), then checkpoints once.
``status`` shows how many forgets are running or pending.

A forget of a session whose forget is still running (a host's retry after
a timeout) finds no rows left to delete; it waits for the running one and
answers with its outcome, so it never reports the session gone while its
bytes are still on disk (``status``: ``retries_waiting``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import trio

from reverie.config import Busy, InvalidArgument, ReverieError
from reverie.store import (
    ForgetJob,
    StoreError,
    Tx,
    fact_key,
)

from ..names import validate_name
from ..search import Indexer
from ..services import Services
from .keeper import MemoryKeeper

__all__ = ["Forgetter"]

log = logging.getLogger(__name__)
_CHECKPOINT_RETRY = 0.1  # seconds before the first retry of a busy WAL truncation
_CHECKPOINT_RETRY_MAX = 5.0
#: Test-only: while the file this names exists, a forget waits after its rows are deleted.
HOLD_ENV = "REVERIE_TEST_HOLD_FORGET"


@dataclass(slots=True)
class _Running:
    """A session's forget under way, which a retry of it waits for."""

    done: trio.Event = field(default_factory=trio.Event)
    outcome: object = None  # the messages deleted, or the ReverieError it failed with


class Forgetter:
    """Runs forget jobs; ``run`` finishes the ones a crash left."""

    def __init__(
        self,
        services: Services,
        keeper: MemoryKeeper,
        indexer: Indexer | None,
        drop_index: Callable[[], Awaitable[None]],
    ) -> None:
        self.services = services
        self.keeper = keeper
        self.indexer = indexer
        #: Deletes the index while it is off (its rows cannot be rewritten then); the next
        #: start with it on rebuilds it from what the forget left.
        self.drop_index = drop_index
        self.running = 0
        self.pending = 0  # left by a crash, not finished yet
        self.finished = 0
        self.checkpoint_pending = False  # a WAL truncation a reader held off, retried
        self.retries_waiting = 0  # forgets of a session waiting for its running forget
        self._sessions: dict[str, _Running] = {}  # the sessions whose forget is under way
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Finish the forgets a crash left (in the background), checkpoint once, then serve.

        With none left and no compaction due, the checkpoint is only a WAL truncation, and
        it is taken before the daemon serves: run later, it would rewrite the files under
        the first requests (and under a test watching them stay as they were)."""
        jobs = await self.services.db.read(Tx.pending_forgets)
        self.pending = len(jobs)
        left = {job.session: self._start(job.session) for job in jobs if job.session is not None}
        early = not jobs and not await self.services.db.read(Tx.compaction_due)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            if early:
                await self._checkpoint()
            task_status.started()
            if jobs:
                log.info("finishing %d forgets left by a crash or a stop", len(jobs))
            for job in jobs:
                outcome: object = 0
                try:
                    await self._finish(job)
                except ReverieError as exc:  # left recorded: tried again at the next start
                    log.error("forget %s could not be finished: %s", job, exc.message)
                    outcome = exc
                if job.session is not None:
                    self._end(job.session, left[job.session], outcome)
                self.pending -= 1
            if not early:
                await self._checkpoint()
            await trio.sleep_forever()

    def session_forgotten(
        self, session: str, outcome: object, reply: Callable[[object], None]
    ) -> None:
        """The actor deleted ``session``'s rows (``outcome`` of its ``ForgetRequest``):
        finish the job in the background and ``reply`` with the messages deleted once done.

        The actor's step runs in mailbox order (an append queued behind the
        forget lands in a fresh session); the rest does not need the actor.
        """
        if isinstance(outcome, BaseException) or self._nursery is None:
            reply(outcome if isinstance(outcome, BaseException) else StoreError("not started"))
            return
        # What SessionActor._forget returns: replies travel as ``object`` until the
        # runtime types them (issue 19), so the shape is stated here, not checked.
        deleted, scope = cast("tuple[int, str | None]", outcome)
        running = self._sessions.get(session)
        if scope is None and running is not None:  # a retry: the rows went with the first
            self._nursery.start_soon(self._reply_when_done, running, reply)
        elif scope is None:
            reply(deleted)
        else:
            self._nursery.start_soon(
                self._finish_and_reply, session, scope, deleted, reply, self._start(session)
            )

    async def _finish_and_reply(
        self,
        session: str,
        scope: str,
        deleted: int,
        reply: Callable[[object], None],
        running: _Running,
    ) -> None:
        # Cancelled (a stop), the job stays recorded and the next start finishes it.
        outcome: object = Busy("the daemon stopped before the forget was done; retry it")
        try:
            await self._finish(ForgetJob(scope=scope, session=session))
            outcome = deleted
        except ReverieError as exc:
            outcome = exc
        finally:
            self._end(session, running, outcome)
        reply(outcome)

    async def _reply_when_done(self, running: _Running, reply: Callable[[object], None]) -> None:
        self.retries_waiting += 1
        try:
            await running.done.wait()
        finally:
            self.retries_waiting -= 1
        reply(running.outcome)

    def _start(self, session: str) -> _Running:
        """``session``'s forget is under way from now: retries wait for it."""
        running = self._sessions[session] = _Running()
        return running

    def _end(self, session: str, running: _Running, outcome: object) -> None:
        """``session``'s forget ended with ``outcome``: the retries waiting get it."""
        running.outcome = outcome
        running.done.set()
        if self._sessions.get(session) is running:  # not replaced by a later forget's
            del self._sessions[session]

    async def forget_fact(self, scope: str, fact: str) -> int:
        """Forget one fact of ``scope`` (MEMORY.md, episodes, index); how many places had it."""
        validate_name("scope", scope)  # a scope it cannot store is refused now
        if not fact_key(fact):
            raise InvalidArgument("fact must contain words")
        job = ForgetJob(scope=scope, fact=fact)
        await self.services.db.write(lambda t: t.record_forget(job))
        return await self._finish(job)

    async def _finish(self, job: ForgetJob) -> int:
        self.running += 1
        try:
            await _hold()
            removed = await self.keeper.forget(job)
            if self.indexer is None:  # off now, but its files hold what was forgotten
                await self.drop_index()
            elif job.session is not None or removed:
                await self.indexer.purge(job.session, job.scope)
            await self.services.db.write(lambda t: t.finish_forget(job))
            await self._checkpoint()
            self.finished += 1
            log.info("forget done: %s (%d removed from the Markdown)", job, removed)
            return removed
        finally:
            self.running -= 1

    async def _checkpoint(self) -> None:
        """Compact the store and scrub its log now (SQLite: VACUUM, then truncate the
        WAL; Postgres: VACUUM), unless it cannot run yet (a reader's snapshot in the
        WAL's way): then it is left pending (``status``) and retried in the background,
        so the writer, and every append behind it, never waits for a reader."""
        try:
            await self._scrub()
        except StoreError as exc:
            if not self.checkpoint_pending and self._nursery is not None:
                self.checkpoint_pending = True
                log.info("a forget's scrub is retried in the background: %s", exc.message)
                self._nursery.start_soon(self._checkpoint_later)

    async def _checkpoint_later(self) -> None:
        delay = _CHECKPOINT_RETRY
        while True:
            await trio.sleep(delay)
            try:
                await self._scrub()
            except StoreError:
                delay = min(delay * 2, _CHECKPOINT_RETRY_MAX)
                continue
            self.checkpoint_pending = False
            log.info("WAL truncated: the forgotten bytes have left it")
            return

    async def _scrub(self) -> None:
        """Compact if a forget finished since the last compaction (a retry that only
        waits for the WAL does not rewrite the file again; a stop before it leaves the
        count for the next start), then scrub."""
        due = await self.services.db.read(Tx.compaction_due)
        if due:
            await self.services.db.compact()
            await self.services.db.write(lambda t: t.compacted(due))
        await self.services.db.scrub()

    def status(self) -> dict[str, Any]:
        return {
            "running": self.running,
            "pending": self.pending,
            "finished": self.finished,
            "checkpoint_pending": self.checkpoint_pending,
            "retries_waiting": self.retries_waiting,
        }


async def _hold() -> None:
    """Test-only pause (``REVERIE_TEST_HOLD_FORGET``): lets a test kill -9 mid-forget."""
    name = os.environ.get(HOLD_ENV)
    if not name:
        return
    hold = Path(name)
    if hold.exists():
        hold.with_suffix(".reached").touch()
        while hold.exists():
            await trio.sleep(0.05)
