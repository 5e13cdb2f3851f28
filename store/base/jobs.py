"""Consolidation jobs, durable in the database (their SQL: each engine's ``jobs``).

A job names a range of one session's messages (``first_seq..last_seq``)
to turn into one history entry. It is created, in state ``running``, when
its range is chosen, and it is finished in the same transaction that moves
the session's cursor past the range. After a crash an open job is found
again and completed with the same id and range, so the history entry it
writes (id ``ep_<job id>``) is written at most once and the cursor moves
exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ..history import HistoryEntry
from .journal import MessageRecord

if TYPE_CHECKING:
    from .journal import SessionRecord

__all__ = [
    "Job",
    "JobsSql",
    "JobsTx",
    "new_job",
]

_COLUMNS = "id, session, scope, backend, first_seq, last_seq, tokens, count, state, attempts, created, updated, error"


class Job(msgspec.Struct, kw_only=True):
    id: str
    session: str
    scope: str
    backend: str
    first_seq: int
    last_seq: int
    tokens: int
    count: int
    state: str = "running"
    attempts: int = 0
    created: float = 0.0
    updated: float = 0.0
    error: str | None = None

    @property
    def entry_id(self) -> str:
        """The id of the history entry this job writes."""
        return f"ep_{self.id}"


def new_job(
    session: str, scope: str, backend: str, turns: Sequence[MessageRecord], now: float, job_id: str
) -> Job:
    """A running job over ``turns``, the oldest whole turns of the session's tail."""
    return Job(
        id=job_id,
        session=session,
        scope=scope,
        backend=backend,
        first_seq=turns[0].seq,
        last_seq=turns[-1].seq,
        tokens=sum(m.tokens for m in turns),
        count=len(turns),
        created=now,
        updated=now,
    )


def job_entry(
    job: Job,
    turns: Sequence[MessageRecord],
    summary: str,
    facts: list[str],
    *,
    raw: bool = False,
    retired: list[str] | None = None,
) -> HistoryEntry:
    """The history entry a job over ``turns`` writes: its id is the job's (``entry_id``),
    so a replay finds it written."""
    return HistoryEntry(
        id=job.entry_id,
        scope=job.scope,
        session=job.session,
        start_ts=turns[0].ts,
        end_ts=turns[-1].ts,
        message_ids=[t.id for t in turns],
        first_seq=job.first_seq,
        last_seq=job.last_seq,
        summary=summary,
        facts=facts,
        raw=raw,
        retired=retired or [],
    )


def _job(row: Sequence[Any]) -> Job:
    return Job(**dict(zip(_COLUMNS.split(", "), row, strict=True)))


class JobsSql(Protocol):
    """What each engine's ``jobs`` module provides: the consolidation jobs, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def create_job(self, conn: Any, job: Job, /) -> Job: ...

    def open_job(self, conn: Any, session: str, /) -> Job | None: ...

    def open_jobs(self, conn: Any, /) -> list[Job]: ...

    def record_attempt(self, conn: Any, job_id: str, error: str | None, now: float, /) -> None: ...

    def finish_job(
        self, conn: Any, job: Job, session: SessionRecord, state: str, now: float, /
    ) -> bool: ...

    def job_counts(self, conn: Any, /) -> dict[str, dict[str, int]]: ...


class JobsTx:
    """``Tx``'s calls of the consolidation jobs: each is the engine's ``jobs`` function of the same
    name on the transaction's connection (docs/design.md, "The store seam")."""

    conn: Any
    _jobs: JobsSql

    def create_job(self, job: Job) -> Job:
        return self._jobs.create_job(self.conn, job)

    def open_job(self, session: str) -> Job | None:
        return self._jobs.open_job(self.conn, session)

    def open_jobs(self) -> list[Job]:
        return self._jobs.open_jobs(self.conn)

    def record_attempt(self, job_id: str, error: str | None, now: float) -> None:
        return self._jobs.record_attempt(self.conn, job_id, error, now)

    def finish_job(self, job: Job, session: SessionRecord, state: str, now: float) -> bool:
        return self._jobs.finish_job(self.conn, job, session, state, now)

    def job_counts(self) -> dict[str, dict[str, int]]:
        return self._jobs.job_counts(self.conn)
