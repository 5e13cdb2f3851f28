"""Consolidation without the session's actor: the jobs leased in a shared database.

On a store several members share (Postgres with a ``cluster``), the
session's owner may be another daemon, a dead one, or none at all, and a
``reverie worker`` owns no session: ``Workers`` then talks to
``LeasedSessions``, which answers the same requests (``requests.py``)
straight from the database. A snapshot leases the session's job to this
member (one job per scope across members); an apply writes the history
entry, the new memory version, the job's end and the cursor's move in one
transaction fenced by that lease (``store/postgres/job_leases.py``), so a
job is applied once, and never for a session a forget deleted meanwhile.
The local followers hear of it as from a session actor: the memory prefix
cache is dropped, and the hooks (the supervisor's timers, the index) told.
"""

from __future__ import annotations

from typing import Any

from reverie.store import JobLeases, MessageRecord

from ..memory.keeper import MemoryKeeper
from ..services import Services
from .requests import Applied, ApplyRequest, SnapshotRequest
from .turns import oldest_turns

__all__ = ["LeasedSessions"]


class LeasedSessions:
    """A ``Sessions`` whose requests are answered by ``leases`` (the database), not actors."""

    def __init__(self, services: Services, leases: JobLeases, memory: MemoryKeeper) -> None:
        self.services = services
        self.leases = leases
        self.memory = memory

    async def call(self, name: str, request: Any) -> Any:
        if isinstance(request, SnapshotRequest):
            return await self._snapshot(name, request)
        assert isinstance(request, ApplyRequest), request
        return await self._apply(request)

    async def _snapshot(self, name: str, request: SnapshotRequest) -> Any:
        def choose(tail: list[MessageRecord]) -> list[MessageRecord]:
            return tail[: oldest_turns(tail, request.target_tokens, request.max_tokens)]

        return await self.leases.lease(name, request.backend, choose, self.services.now())

    async def _apply(self, apply: ApplyRequest) -> Applied:
        outcome, record = await self.leases.finish(
            apply.job, apply.state, apply.entry, apply.memory, apply.base, self.services.now()
        )
        if apply.entry is not None:
            self.memory.changed(apply.job.scope)  # also when "moved": the text read was stale
        if record is not None:
            self.services.hooks.consolidated(record)
        return "applied" if outcome == "applied" else "moved" if outcome == "moved" else "gone"
