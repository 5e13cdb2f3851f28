"""Consolidation jobs, durable in Postgres.

The same contract as the SQLite engine's ``reverie.store.base.jobs``: a job is
created ``running`` when its range of a session's messages is chosen, and
finished in the transaction that moves the session's cursor past the range;
a replay after a crash finds it again and changes nothing twice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import psycopg

from reverie.store import Job, SessionRecord
from reverie.store.base.jobs import _COLUMNS, _job

from .journal import _OWNED, _adopt

__all__ = [
    "create_job",
    "finish_job",
    "job_counts",
    "open_job",
    "open_jobs",
    "record_attempt",
]


def create_job(conn: psycopg.Connection[Any], job: Job) -> Job:
    """Store a new job; if the session already has an open one, return that instead."""
    existing = open_job(conn, job.session)
    if existing is not None:
        return existing
    values = msgspec.structs.astuple(job)
    conn.execute(
        f"INSERT INTO jobs ({_COLUMNS}) VALUES ({', '.join(['%s'] * len(values))})", values
    )
    return job


def open_job(conn: psycopg.Connection[Any], session: str) -> Job | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM jobs WHERE session = %s AND state = 'running'", (session,)
    ).fetchone()
    return None if row is None else _job(row)


def open_jobs(conn: psycopg.Connection[Any]) -> list[Job]:
    """Every job a crash or a stop left running (to requeue at start)."""
    rows = conn.execute(f"SELECT {_COLUMNS} FROM jobs WHERE state = 'running' ORDER BY created")
    return [_job(r) for r in rows]


def record_attempt(
    conn: psycopg.Connection[Any], job_id: str, error: str | None, now: float
) -> None:
    conn.execute(
        "UPDATE jobs SET attempts = attempts + 1, error = %s, updated = %s WHERE id = %s",
        (error, now, job_id),
    )


def finish_job(
    conn: psycopg.Connection[Any], job: Job, session: SessionRecord, state: str, now: float
) -> bool:
    """Move the cursor past the job's range and close the job, together.

    Returns False (and changes nothing) when the job is already finished:
    a replay after a crash is a no-op. The job is closed by one conditional
    UPDATE, so two writers can never both finish it.
    """
    if session.cursor_seq >= job.last_seq:
        return False
    closed = conn.execute(
        "UPDATE jobs SET state = %s, updated = %s WHERE id = %s AND state = 'running'",
        (state, now, job.id),
    ).rowcount
    if closed == 0:
        return False
    # Relative, and not fenced by the session's owner: the cursor is only ever moved here,
    # and the owner's appends move the tail's counters by their own share (journal.py).
    row = conn.execute(
        "UPDATE sessions SET cursor_seq = %s, tail_tokens = tail_tokens - %s,"
        " tail_count = tail_count - %s WHERE name = %s AND cursor_seq < %s"
        f" RETURNING {_OWNED}",
        (job.last_seq, job.tokens, job.count, job.session, job.last_seq),
    ).fetchone()
    if row is not None:
        epoch = session.epoch  # the caller's claim stays its own
        _adopt(session, row)
        session.epoch = epoch
    return True


def job_counts(conn: psycopg.Connection[Any]) -> dict[str, dict[str, int]]:
    """Jobs per backend and state, for ``status``."""
    counts: dict[str, dict[str, int]] = {}
    for backend, state, n in conn.execute(
        "SELECT backend, state, count(*) FROM jobs GROUP BY backend, state"
    ):
        counts.setdefault(backend, {})[state] = int(n)
    return counts


if TYPE_CHECKING:  # this module is the engine's ``JobsSql``: mypy checks what ``Tx`` calls
    from ..base.jobs import JobsSql
    from . import jobs as _this

    _answers: JobsSql = _this
