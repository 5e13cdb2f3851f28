"""Members of one Postgres store: who is alive, and what the dead leave to the living.

Every time is the database's clock (``clock_timestamp()``), so members on
machines whose clocks disagree still agree on who is late. A member is
alive while it has beaten within ``owner_ttl`` and the server process of
its beat's connection still runs: a killed member's connections close at
once (its sessions and jobs are free within a beat of another member), a
frozen one's stay open until its beat is ``owner_ttl`` old.

Liveness is advice, never safety: a member declared dead that wakes up
can no longer write for what it held, because every session write checks
the owner and epoch (``journal.py``) and every job's result its lease
(``job_leases.py``) in the statement that writes.
"""

from __future__ import annotations

import os
import secrets
import socket
from typing import Any

import psycopg

from ..base.cluster import MemberView
from ..base.db import GroupCommit
from ..base.tx import Tx

__all__ = ["ME", "NOW", "PostgresCluster", "alive_clause", "new_member_id"]

#: The database's clock, seconds since the epoch.
NOW = "extract(epoch FROM clock_timestamp())"
#: This process's member id, which every connection carries (``db.PostgresConnector``).
ME = "current_setting('reverie.member')"
#: A dead member's row is removed once its last beat is this many ``owner_ttl`` old.
_SHOWN_DEAD = 10


def alive_clause(member: str) -> str:
    """SQL true when the member whose id is the expression ``member`` is alive; it takes
    one parameter, ``owner_ttl``."""
    return (
        f"EXISTS (SELECT 1 FROM members live WHERE live.id = {member}"
        f" AND live.heartbeat > {NOW} - %s"
        " AND live.backend_pid IN (SELECT pid FROM pg_stat_activity))"
    )


def new_member_id() -> str:
    """This process's id: its host and pid (for the operator) and a random tail (a pid is
    reused; a restarted member is a new one)."""
    return f"{socket.gethostname()}/{os.getpid()}/{secrets.token_hex(3)}"


def _join(conn: psycopg.Connection[Any], member: str, role: str, serves: str) -> None:
    conn.execute(
        "INSERT INTO members (id, role, host, pid, started, heartbeat, backend_pid, serves)"
        f" VALUES (%s, %s, %s, %s, {NOW}, {NOW}, pg_backend_pid(), %s)"
        " ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat,"
        " backend_pid = excluded.backend_pid",
        (member, role, socket.gethostname(), os.getpid(), serves),
    )


def _beat(
    conn: psycopg.Connection[Any], member: str, role: str, serves: str, ttl: float, lease: float
) -> int:
    """Beat (rejoining if a member thought this one dead and removed it), renew this
    member's job leases, and free what dead members own; returns the sessions freed."""
    _join(conn, member, role, serves)
    conn.execute(
        f"UPDATE jobs SET lease_until = {NOW} + %s WHERE lease_owner = %s AND state = 'running'",
        (lease, member),
    )
    alive = alive_clause("s.owner")
    freed = conn.execute(
        f"UPDATE sessions s SET owner = NULL WHERE s.owner IS NOT NULL AND NOT {alive}",
        (ttl,),
    ).rowcount
    # A dead member's row stays a while, so that ``reverie cluster`` shows who died.
    conn.execute(
        f"DELETE FROM members WHERE id <> %s AND heartbeat < {NOW} - %s",
        (member, ttl * _SHOWN_DEAD),
    )
    return int(freed)


def _leave(conn: psycopg.Connection[Any], member: str) -> None:
    conn.execute("UPDATE sessions SET owner = NULL WHERE owner = %s", (member,))
    conn.execute(
        f"UPDATE jobs SET lease_until = {NOW} WHERE lease_owner = %s AND state = 'running'",
        (member,),
    )
    conn.execute("DELETE FROM duties WHERE holder = %s", (member,))
    conn.execute("DELETE FROM members WHERE id = %s", (member,))


def _members(conn: psycopg.Connection[Any], ttl: float) -> list[MemberView]:
    rows = conn.execute(
        "SELECT m.id, m.role, m.host, m.pid, m.serves, m.started,"
        f" {NOW} - m.heartbeat, {alive_clause('m.id')},"
        " (SELECT count(*) FROM sessions s WHERE s.owner = m.id),"
        " (SELECT count(*) FROM jobs j WHERE j.lease_owner = m.id AND j.state = 'running')"
        " FROM members m ORDER BY m.started, m.id",
        (ttl,),
    )
    return [
        MemberView(
            id=r[0],
            role=r[1],
            host=r[2],
            pid=int(r[3]),
            serves=r[4],
            started=float(r[5]),
            beat_age=max(0.0, float(r[6])),
            alive=bool(r[7]),
            sessions=int(r[8]),
            jobs=int(r[9]),
        )
        for r in rows
    ]


def _take_duty(
    conn: psycopg.Connection[Any], name: str, member: str, seconds: float, ttl: float
) -> bool:
    row = conn.execute(
        f"INSERT INTO duties (name, holder, until) VALUES (%s, %s, {NOW} + %s)"
        " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until = excluded.until"
        f" WHERE duties.holder = excluded.holder OR duties.until < {NOW}"
        f" OR NOT {alive_clause('duties.holder')}"
        " RETURNING holder",
        (name, member, seconds, ttl),
    ).fetchone()
    return row is not None


class PostgresCluster:
    """This process as a member of the store at ``db`` (``base.cluster.Cluster``)."""

    def __init__(self, db: GroupCommit[Any], member: str, owner_ttl: float, job_lease: float):
        self._db = db
        self._member = member
        self._ttl = owner_ttl
        self._lease = job_lease
        self._role = "daemon"
        self._serves = ""

    @property
    def member(self) -> str:
        return self._member

    @property
    def owner_ttl(self) -> float:
        return self._ttl

    async def join(self, role: str, serves: str) -> None:
        self._role, self._serves = role, serves
        await self._db.write(lambda t: _join(t.conn, self._member, role, serves))

    async def beat(self) -> int:
        def beat(t: Tx) -> int:
            return _beat(t.conn, self._member, self._role, self._serves, self._ttl, self._lease)

        return await self._db.write(beat)

    async def leave(self) -> None:
        await self._db.write(lambda t: _leave(t.conn, self._member))

    async def members(self) -> list[MemberView]:
        return await self._db.read(lambda t: _members(t.conn, self._ttl))

    async def take_duty(self, name: str, seconds: float) -> bool:
        return await self._db.write(
            lambda t: _take_duty(t.conn, name, self._member, seconds, self._ttl)
        )
