"""Who runs the jobs, by engine: the session actors' requests, or the leased jobs.

The one choice a composition root makes about consolidation: on the file
engine (no ``leases``) the workers ask the session actors (``sessions``),
as ever; on a store several members share, they lease the jobs in the
database (``leased.py``) and a ``DueScan`` finds the sessions due whoever
owns them. The daemon and ``reverie worker`` both build their workers here.
"""

from __future__ import annotations

from reverie.store import JobLeases

from ..memory.keeper import MemoryKeeper
from ..services import Services
from .due_scan import DueScan
from .leased import LeasedSessions
from .queue import JobQueue
from .requests import Sessions
from .workers import Workers

__all__ = ["job_runners"]


def job_runners(
    services: Services,
    queue: JobQueue,
    memory: MemoryKeeper,
    sessions: Sessions | None,
    leases: JobLeases | None,
) -> tuple[Workers, DueScan | None]:
    """The workers over ``queue`` and, on a shared store, the scan that feeds it.

    ``services`` carries the hooks (the supervisor, the index) a leased
    job's apply tells, as a session actor would.
    """
    if leases is None:
        assert sessions is not None, "without leases the session actors run the jobs"
        return Workers(services, queue, memory, sessions), None
    leased = LeasedSessions(services, leases, memory)
    return Workers(services, queue, memory, leased), DueScan(services, leases, queue)
