"""Forget, completely and provably: a session, or one fact of a scope.

A forget is one durable job (``store.ForgetJob`` in SQLite's ``meta``),
recorded in the same transaction that deletes the session's rows (or, for a
fact, before anything is touched). The job then removes what lives outside
SQLite: the session's episodes and the facts only it supports from its
scope's Markdown (the whole scope directory when the scope is the session's
own), and the index rows, rewritten so no file keeps their bytes
(``Indexer.purge``); while the index is off, its directories are deleted
instead (``drop_index``) and rebuilt at the next start with it on. Last,
the job is deleted and SQLite's WAL checkpointed and truncated; with
``secure_delete`` on, the database file holds no deleted bytes either. Only
then does ``forget`` return, unless a reader's snapshot keeps the WAL busy:
the truncation is then not waited for (the writer would stall every append)
but left pending, shown in ``status`` (``checkpoint_pending``) and retried
in the background until it is done.

A crash at any point leaves the job recorded; ``run`` finishes every such
job at the next start (each step is idempotent), then checkpoints once.
``status`` shows how many forgets are running or pending.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import trio

from reverie.config import InvalidArgument, ReverieError
from reverie.store import (
    ForgetJob,
    StoreError,
    encode_scope,
    fact_key,
    finish_forget,
    pending_forgets,
    record_forget,
)

from ..names import validate_name
from ..search import Indexer, drop_index
from ..services import Services
from .keeper import MemoryKeeper

__all__ = ["Forgetter"]

log = logging.getLogger(__name__)
_CHECKPOINT_RETRY = 0.1  # seconds before the first retry of a busy WAL truncation
_CHECKPOINT_RETRY_MAX = 5.0
#: Test-only: while the file this names exists, a forget waits after its rows are deleted.
HOLD_ENV = "REVERIE_TEST_HOLD_FORGET"


class Forgetter:
    """Runs forget jobs; ``run`` finishes the ones a crash left."""

    def __init__(
        self,
        services: Services,
        keeper: MemoryKeeper,
        indexer: Indexer | None,
        index_root: Path,
    ) -> None:
        self.services = services
        self.keeper = keeper
        self.indexer = indexer
        self.index_root = index_root  # where the index lives, even while it is off
        self.running = 0
        self.pending = 0  # left by a crash, not finished yet
        self.finished = 0
        self.checkpoint_pending = False  # a WAL truncation a reader held off, retried
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Finish the forgets a crash left (in the background), checkpoint once, then serve."""
        jobs = await self.services.db.read(pending_forgets)
        self.pending = len(jobs)
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            if jobs:
                log.info("finishing %d forgets left by a crash or a stop", len(jobs))
            for job in jobs:
                try:
                    await self._finish(job)
                except ReverieError as exc:  # left recorded: tried again at the next start
                    log.error("forget %s could not be finished: %s", job, exc.message)
                self.pending -= 1
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
        self._nursery.start_soon(self._finish_and_reply, session, scope, deleted, reply)

    async def _finish_and_reply(
        self, session: str, scope: str | None, deleted: int, reply: Callable[[object], None]
    ) -> None:
        try:
            if scope is not None:
                await self._finish(ForgetJob(scope=scope, session=session))
        except ReverieError as exc:
            reply(exc)
            return
        reply(deleted)

    async def forget_fact(self, scope: str, fact: str) -> int:
        """Forget one fact of ``scope`` (MEMORY.md, episodes, index); how many places had it."""
        encode_scope(validate_name("scope", scope))  # a scope it cannot store is refused now
        if not fact_key(fact):
            raise InvalidArgument("fact must contain words")
        job = ForgetJob(scope=scope, fact=fact)
        await self.services.db.write(lambda c: record_forget(c, job))
        return await self._finish(job)

    async def _finish(self, job: ForgetJob) -> int:
        self.running += 1
        try:
            await _hold()
            removed = await self.keeper.forget(job)
            if self.indexer is None:  # off now, but its files hold what was forgotten
                await drop_index(self.index_root)
            elif job.session is not None or removed:
                await self.indexer.purge(job.session, job.scope)
            await self.services.db.write(lambda c: finish_forget(c, job))
            await self._checkpoint()
            self.finished += 1
            log.info("forget done: %s (%d removed from the Markdown)", job, removed)
            return removed
        finally:
            self.running -= 1

    async def _checkpoint(self) -> None:
        """Truncate the WAL now, unless a reader's snapshot is in the way: then the
        truncation is left pending (``status``) and retried in the background,
        so the writer, and every append behind it, never waits for a reader."""
        try:
            await self.services.db.checkpoint()
        except StoreError:
            if not self.checkpoint_pending and self._nursery is not None:
                self.checkpoint_pending = True
                log.info("WAL busy with a reader: its truncation is retried in the background")
                self._nursery.start_soon(self._checkpoint_later)

    async def _checkpoint_later(self) -> None:
        delay = _CHECKPOINT_RETRY
        while True:
            await trio.sleep(delay)
            try:
                await self.services.db.checkpoint()
            except StoreError:
                delay = min(delay * 2, _CHECKPOINT_RETRY_MAX)
                continue
            self.checkpoint_pending = False
            log.info("WAL truncated: the forgotten bytes have left it")
            return

    def status(self) -> dict[str, Any]:
        return {
            "running": self.running,
            "pending": self.pending,
            "finished": self.finished,
            "checkpoint_pending": self.checkpoint_pending,
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
