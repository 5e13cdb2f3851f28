"""SQLite: consolidation jobs."""

from __future__ import annotations

from typing import TYPE_CHECKING

import apsw
import msgspec

from ..base.jobs import (
    _COLUMNS,
    Job,
    _job,
)
from ..base.journal import SessionRecord
from .journal import save_session

__all__ = ["create_job", "finish_job", "job_counts", "open_job", "open_jobs", "record_attempt"]


def create_job(conn: apsw.Connection, job: Job) -> Job:
    """Store a new job; if the session already has an open one, return that instead."""
    existing = open_job(conn, job.session)
    if existing is not None:
        return existing
    values = msgspec.structs.astuple(job)
    conn.execute(f"INSERT INTO jobs ({_COLUMNS}) VALUES ({', '.join('?' * len(values))})", values)
    return job


def open_job(conn: apsw.Connection, session: str) -> Job | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM jobs WHERE session = ? AND state = 'running'", (session,)
    ).fetchone()
    return None if row is None else _job(row)


def open_jobs(conn: apsw.Connection) -> list[Job]:
    """Every job a crash or a stop left running (to requeue at start)."""
    return [
        _job(r)
        for r in conn.execute(
            f"SELECT {_COLUMNS} FROM jobs WHERE state = 'running' ORDER BY created"
        )
    ]


def record_attempt(conn: apsw.Connection, job_id: str, error: str | None, now: float) -> None:
    conn.execute(
        "UPDATE jobs SET attempts = attempts + 1, error = ?, updated = ? WHERE id = ?",
        (error, now, job_id),
    )


def finish_job(
    conn: apsw.Connection, job: Job, session: SessionRecord, state: str, now: float
) -> bool:
    """Move the cursor past the job's range and close the job, together.

    Returns False (and changes nothing) when the job is already finished:
    a replay after a crash is a no-op.
    """
    row = conn.execute("SELECT state FROM jobs WHERE id = ?", (job.id,)).fetchone()
    if row is None or row[0] != "running" or session.cursor_seq >= job.last_seq:
        return False
    session.cursor_seq = job.last_seq
    session.tail_tokens -= job.tokens
    session.tail_count -= job.count
    save_session(conn, session)
    conn.execute("UPDATE jobs SET state = ?, updated = ? WHERE id = ?", (state, now, job.id))
    return True


def job_counts(conn: apsw.Connection) -> dict[str, dict[str, int]]:
    """Jobs per backend and state, for ``status``."""
    counts: dict[str, dict[str, int]] = {}
    for backend, state, n in conn.execute(
        "SELECT backend, state, count(*) FROM jobs GROUP BY backend, state"
    ):
        counts.setdefault(backend, {})[state] = n
    return counts


if TYPE_CHECKING:  # this module is the engine's ``JobsSql``: mypy checks what ``Tx`` calls
    from ..base.jobs import JobsSql
    from . import jobs as _this

    _answers: JobsSql = _this
