"""Consolidation jobs shared by the members of one store (Postgres only).

On the file engine a job is made and finished by its session's actor, the
one writer of the session. When several members share a Postgres store,
any of them (a daemon, a ``reverie worker``) runs any session's job,
owner or not: ``JobLeases`` makes and finishes it straight in the
database, each step one transaction fenced by the job's lease
(``postgres/job_leases.py``), and finds the sessions due by a query. A daemon that leaves consolidation to
the workers posts a job leased to none, which the first member's scan
takes, and follows its state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from ..history import HistoryEntry
from .jobs import Job
from .journal import MessageRecord, SessionRecord

__all__ = ["JobLeases"]


class JobLeases(Protocol):
    """This member's side of the jobs it shares with the other members of its store."""

    async def lease(
        self,
        session: str,
        backend: str,
        choose: Callable[[list[MessageRecord]], list[MessageRecord]],
        now: float,
    ) -> tuple[Job, list[MessageRecord]] | None:
        """The session's running job, leased to this member (or a new one over the turns
        ``choose`` takes from its tail), and its turns; None when there is nothing to do
        or its scope has a job on another member's live lease."""

    async def finish(
        self, job: Job, state: str, entry: HistoryEntry | None, memory: str, base: str, now: float
    ) -> tuple[str, SessionRecord | None]:
        """Write ``entry`` and ``memory`` (unless ``base`` moved), close the job and move the
        session's cursor, in one transaction, if this member still holds the job's lease:
        "applied" (with the session's row), "moved" or "gone" (nothing written)."""

    async def post(
        self,
        session: str,
        backend: str,
        choose: Callable[[list[MessageRecord]], list[MessageRecord]],
        now: float,
    ) -> Job | None:
        """A job for any member to take, leased to none: the session's running job, or a
        new one over the turns ``choose`` takes from its tail; None when there is nothing
        to do or another session of its scope has a job running."""

    async def state(self, job_id: str) -> tuple[str, bool] | None:
        """The job's state ("running", or how it ended) and whether a member holds its
        lease now; None once it is deleted (abandoned, or its session forgotten)."""

    async def due(
        self, *, budget: int, hard: int, idle_after: float, max_delay: float, limit: int
    ) -> list[str]:
        """Sessions due for a consolidation, whichever member owns them (at most ``limit``)."""
