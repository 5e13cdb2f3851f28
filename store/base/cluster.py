"""What a daemon or a worker asks of the database it shares with others (Postgres only).

Several members (daemons serving hosts, ``reverie worker``s consolidating)
run against one database and coordinate through it alone, never with each
other: each beats in a ``members`` row; a session is owned by one member at
an epoch (``postgres/cluster.py`` claims it, every write checks it); a job
or a periodic duty is leased. The file engine has one daemon per data dir
(its lock) and no ``Cluster``.
"""

from __future__ import annotations

from typing import Protocol

import msgspec

__all__ = ["Cluster", "MemberView"]


class MemberView(msgspec.Struct, frozen=True, kw_only=True):
    """One member as ``status`` and ``reverie cluster`` show it."""

    id: str
    role: str  # daemon | worker
    host: str
    pid: int
    serves: str  # a daemon's socket path ("" for a worker)
    started: float  # the database's clock, seconds since the epoch
    beat_age: float  # seconds since its last beat
    alive: bool  # beat within owner_ttl and its connection still open
    sessions: int  # sessions it owns now
    jobs: int  # consolidation jobs it holds now


class Cluster(Protocol):
    """This process as a member of the database's cluster."""

    @property
    def member(self) -> str:
        """This process's id in ``members`` (host/pid/random)."""

    @property
    def owner_ttl(self) -> float: ...

    async def join(self, role: str, serves: str) -> None:
        """Add this process to ``members`` (once, at start)."""

    async def beat(self) -> int:
        """Prove this member alive, renew its jobs' leases, free what dead members held;
        returns how many sessions of dead members were freed."""

    async def leave(self) -> None:
        """Free what this member owns or holds and remove its row (a clean stop)."""

    async def members(self) -> list[MemberView]:
        """Every member the database knows, alive or not, oldest first."""

    async def take_duty(self, name: str, seconds: float) -> bool:
        """Hold the periodic duty ``name`` for ``seconds`` unless another live member
        holds it; True when this member holds it now."""
