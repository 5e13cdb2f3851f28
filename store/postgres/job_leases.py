"""Consolidation jobs any member may run: leased, one per scope, applied exactly once.

On one Postgres store several members (daemons and ``reverie worker``s)
consolidate, so a job is not made nor finished through the session's
owner: each step is one transaction here, fenced by the job's lease.

- ``lease_job``: under the scope's advisory lock, claim the session's
  running job with ``FOR UPDATE SKIP LOCKED`` if its lease is free (lapsed, its holder dead,
  or this member's own after a failed attempt), else choose the oldest
  turns and make a new job, leased to this member. A scope with a job
  running on a live lease, or locked by the member finishing it, gets
  nothing: at most one job runs per scope.
- ``finish_leased``: the session's row and the job's are locked, the job
  checked to be running and leased to this member and its range to be
  still the session's unconsolidated tail, then the scope's new memory version and the
  history entry are written (compare-and-swap on the version,
  ``memory_rows``), the job closed and the session's cursor moved
  relatively, in one transaction. A job that a forget deleted, or that
  another member reclaimed, writes nothing.
- ``post_job``: a job made for any member to take, leased to none (a
  daemon that leaves consolidation to the workers); ``job_state`` is how
  its poster follows it.
- ``due_sessions``: what any member's scan queues, sessions idle over
  budget (or long over ``hard_tokens``) with no job on a live lease in
  their scope, and the sessions of jobs whose lease lapsed.

Every time compared with a lease is the database's clock (``cluster.NOW``).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import msgspec
import psycopg

from reverie.store import Consolidated, HistoryEntry, Job, MessageRecord, SessionRecord
from reverie.store.base.jobs import _COLUMNS, _job, new_job

from ..base.db import GroupCommit
from ..base.tx import Tx
from . import memory_rows as rows
from .cluster import ME, NOW, alive_clause
from .journal import load_session, read_history, read_tail
from .memory_store import check_consolidation

__all__ = [
    "PostgresJobLeases",
    "due_sessions",
    "finish_leased",
    "job_state",
    "lease_job",
    "post_job",
]

Conn = psycopg.Connection[Any]
#: SQL true when the lease of the job ``j`` is free to take; one parameter, ``owner_ttl``.
_LAPSED = (
    f"(j.lease_owner IS NULL OR j.lease_until IS NULL OR j.lease_until < {NOW}"
    f" OR NOT {alive_clause('j.lease_owner')})"
)
#: The advisory lock space of the scopes' jobs (working memory's is ``scope_lock``'s).
_SPACE = "reverie.jobs:"
#: The turns a new job takes, chosen from the session's tail (``oldest_turns``).
Choose = Callable[[list[MessageRecord]], list[MessageRecord]]
#: How a finish ended (``consolidation.requests.Applied``) and the session's row after it.
Finished = tuple[str, SessionRecord | None]


def lease_job(
    conn: Conn, session: str, backend: str, choose: Choose, now: float, lease: float, ttl: float
) -> tuple[Job, list[MessageRecord]] | None:
    """The session's job, leased to this member for ``lease`` seconds, and its turns; None
    when the session is gone, has nothing to consolidate, or its scope has a job running
    on another live lease."""
    # The session's row is share-locked first, as a pop and a forget lock it before they
    # read or delete its tail: the tail chosen below is what they leave, and a session
    # forgotten meanwhile has no row (docs/design.md, "Several daemons on one database").
    row = conn.execute(
        "SELECT scope FROM sessions WHERE name = %s FOR SHARE", (session,)
    ).fetchone()
    if row is None:
        return None
    scope = row[0]
    # Jobs of one scope are made one at a time across members; the lock ends with the
    # transaction, by when the job made here is visible to the next. A running job is
    # claimed SKIP LOCKED: one that the member finishing it holds is passed over, not
    # waited for (that finish closes it).
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_SPACE + scope,))
    running = conn.execute(
        f"SELECT {_COLUMNS}, j.lease_owner = {ME} OR {_LAPSED} FROM jobs j"
        " WHERE j.scope = %s AND j.state = 'running' ORDER BY j.created LIMIT 1"
        " FOR UPDATE OF j SKIP LOCKED",
        (ttl, scope),
    ).fetchone()
    if running is None and _busy(conn, scope):
        return None  # its job is locked by the member finishing it: not ours to wait for
    if running is not None:
        job, free = _job(running[:-1]), bool(running[-1])
        if job.session != session or not free:
            return None
        # Checked again in the statement: a finish that held the row may have closed it.
        taken = conn.execute(
            f"UPDATE jobs j SET lease_owner = {ME}, lease_until = {NOW} + %s"
            f" WHERE j.id = %s AND j.state = 'running' AND (j.lease_owner = {ME} OR {_LAPSED})",
            (lease, job.id, ttl),
        ).rowcount
        if not taken:
            return None
        span = job.last_seq - job.first_seq + 1
        return job, read_history(conn, session, job.first_seq - 1, span)
    made = _make_job(conn, session, backend, choose, now)
    if made is not None:
        conn.execute(
            f"UPDATE jobs SET lease_owner = {ME}, lease_until = {NOW} + %s WHERE id = %s",
            (lease, made[0].id),
        )
    return made


def _make_job(
    conn: Conn, session: str, backend: str, choose: Choose, now: float
) -> tuple[Job, list[MessageRecord]] | None:
    """A new job, leased to none, over the turns ``choose`` takes from the session's tail;
    under the scope's lock, which the caller holds."""
    # Read after the lock: a finish that committed before it has moved the cursor.
    record = load_session(conn, session)
    if record is None:
        return None
    turns = choose(read_tail(conn, session, record.cursor_seq))
    if not turns:
        return None
    job = new_job(session, record.scope, backend, turns, now, uuid.uuid4().hex)
    values = msgspec.structs.astuple(job)
    conn.execute(
        f"INSERT INTO jobs ({_COLUMNS}) VALUES ({', '.join(['%s'] * len(values))})", values
    )
    return job, turns


def post_job(conn: Conn, session: str, backend: str, choose: Choose, now: float) -> Job | None:
    """A job for any member to take (``due_sessions`` lists it at once): the session's
    running job if it has one, else a new one, leased to none, over the turns ``choose``
    takes; None when the session is gone, has nothing to consolidate, or another session
    of its scope has a job running (one job per scope)."""
    row = conn.execute(
        "SELECT scope FROM sessions WHERE name = %s FOR SHARE", (session,)
    ).fetchone()
    if row is None:
        return None
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (_SPACE + row[0],))
    running = conn.execute(
        f"SELECT {_COLUMNS} FROM jobs j WHERE j.scope = %s AND j.state = 'running'"
        " ORDER BY j.created LIMIT 1",
        (row[0],),
    ).fetchone()
    if running is not None:
        job = _job(running)
        return job if job.session == session else None
    made = _make_job(conn, session, backend, choose, now)
    return None if made is None else made[0]


def job_state(conn: Conn, job_id: str) -> tuple[str, bool] | None:
    """The job's state and whether a member holds its lease; None once it is deleted
    (abandoned, or its session forgotten)."""
    row = conn.execute(
        f"SELECT j.state, j.lease_owner IS NOT NULL AND j.lease_until >= {NOW}"
        " FROM jobs j WHERE j.id = %s",
        (job_id,),
    ).fetchone()
    return None if row is None else (row[0], bool(row[1]))


def _busy(conn: Conn, scope: str) -> bool:
    """Whether the scope has a running job (one a ``SKIP LOCKED`` claim passed over)."""
    found = conn.execute(
        "SELECT 1 FROM jobs WHERE scope = %s AND state = 'running' LIMIT 1", (scope,)
    ).fetchone()
    return found is not None


def finish_leased(
    conn: Conn, job: Job, state: str, entry: HistoryEntry | None, memory: str, base: str, now: float
) -> Finished:
    """Write the job's result and close it, if this member still holds it.

    "gone" (nothing written) when the job is no longer running under this
    member's lease: applied already, deleted by a forget, or reclaimed by
    another member; "moved" (nothing written) when the scope's memory is no
    longer ``base``; else "applied", with the session's row after the move.
    """
    # The session's row before the job's, in the order a forget takes them: a forget
    # that committed first left no row (nothing of the job is written back), one that
    # comes later waits for this apply and then removes what it wrote.
    range_ = conn.execute(
        "SELECT last_seq >= %s AND cursor_seq < %s FROM sessions WHERE name = %s FOR UPDATE",
        (job.last_seq, job.last_seq, job.session),
    ).fetchone()
    held = conn.execute(
        f"SELECT 1 FROM jobs WHERE id = %s AND state = 'running' AND lease_owner = {ME} FOR UPDATE",
        (job.id,),
    ).fetchone()
    if range_ is None or held is None:
        return "gone", None
    if not range_[0]:  # the range is no longer the session's tail: the job is abandoned
        conn.execute("DELETE FROM jobs WHERE id = %s", (job.id,))
        return "gone", None
    if entry is not None:
        written: Consolidated = rows.write_consolidation(conn, entry, memory, base)
        if written == "moved":
            return "moved", None
    conn.execute(
        f"UPDATE jobs SET state = %s, updated = %s, lease_until = NULL"
        f" WHERE id = %s AND state = 'running' AND lease_owner = {ME}",
        (state, now, job.id),
    )
    # Relative: appends that the session's owner commits meanwhile keep their tokens.
    conn.execute(
        "UPDATE sessions SET cursor_seq = %s, tail_tokens = tail_tokens - %s,"
        " tail_count = tail_count - %s WHERE name = %s AND cursor_seq < %s",
        (job.last_seq, job.tokens, job.count, job.session, job.last_seq),
    )
    return "applied", load_session(conn, job.session)


def due_sessions(
    conn: Conn,
    *,
    budget: int,
    hard: int,
    idle_after: float,
    max_delay: float,
    ttl: float,
    limit: int,
) -> list[str]:
    """Sessions to consolidate now, whichever member owns them (or none does).

    A session over ``budget`` tokens is due once idle for ``idle_after``,
    or once over ``hard`` with its oldest unconsolidated message
    ``max_delay`` old, unless its scope has a job on a live lease; a
    session whose job's lease lapsed (its holder died) is due at once.
    Jobs this member holds are its own to retry.
    """
    rows_ = conn.execute(
        "SELECT s.name FROM sessions s"
        " WHERE s.tail_tokens > %s"
        f" AND (s.last_active < {NOW} - %s OR (s.tail_tokens > %s AND EXISTS ("
        "  SELECT 1 FROM messages m WHERE m.session = s.name AND m.seq = s.cursor_seq + 1"
        f"  AND m.ts < {NOW} - %s)))"
        " AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.scope = s.scope"
        f"  AND j.state = 'running' AND NOT {_LAPSED})"
        " UNION SELECT j.session FROM jobs j WHERE j.state = 'running'"
        f" AND j.lease_owner IS DISTINCT FROM {ME} AND {_LAPSED}"
        " LIMIT %s",
        (budget, idle_after, hard, max_delay, ttl, ttl, limit),
    ).fetchall()
    return [name for (name,) in rows_]


class PostgresJobLeases:
    """This member's side of the shared jobs of the store at ``db`` (``base.JobLeases``)."""

    def __init__(self, db: GroupCommit[Any], owner_ttl: float, job_lease: float) -> None:
        self._db = db
        self._ttl = owner_ttl
        self._lease = job_lease

    async def lease(
        self, session: str, backend: str, choose: Choose, now: float
    ) -> tuple[Job, list[MessageRecord]] | None:
        def lease(t: Tx) -> tuple[Job, list[MessageRecord]] | None:
            return lease_job(t.conn, session, backend, choose, now, self._lease, self._ttl)

        return await self._db.write(lease)

    async def finish(
        self, job: Job, state: str, entry: HistoryEntry | None, memory: str, base: str, now: float
    ) -> Finished:
        if entry is not None:
            check_consolidation(entry, memory)
        return await self._db.write(
            lambda t: finish_leased(t.conn, job, state, entry, memory, base, now)
        )

    async def post(self, session: str, backend: str, choose: Choose, now: float) -> Job | None:
        return await self._db.write(lambda t: post_job(t.conn, session, backend, choose, now))

    async def state(self, job_id: str) -> tuple[str, bool] | None:
        return await self._db.read(lambda t: job_state(t.conn, job_id))

    async def due(
        self, *, budget: int, hard: int, idle_after: float, max_delay: float, limit: int
    ) -> list[str]:
        def due(t: Tx) -> list[str]:
            return due_sessions(
                t.conn,
                budget=budget,
                hard=hard,
                idle_after=idle_after,
                max_delay=max_delay,
                ttl=self._ttl,
                limit=limit,
            )

        return await self._db.read(due)
