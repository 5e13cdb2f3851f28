"""Sessions due for a consolidation, found by a query any member of a shared store runs.

The supervisor's timers follow the sessions this daemon's actors serve; on
a store several members share that is not enough: a session whose owner
died, or one owned by a daemon whose consolidation is busy, would wait. So
each member (daemon or ``reverie worker``) asks the database every tick
(``min(idle_after / 4, 1 s)``) which sessions are idle over budget (or long
over ``hard_tokens``) with no job on a live lease in their scope, and which
jobs' leases lapsed, and queues them. Several members may queue the same
session: the snapshot's lease lets one of them make the job, the others
get nothing to do.
"""

from __future__ import annotations

import logging

import trio

from reverie.config import ReverieError
from reverie.store import JobLeases

from ..services import Services
from .queue import JobQueue

__all__ = ["DueScan"]

log = logging.getLogger(__name__)
#: Sessions queued per tick at most: a backlog is taken over the next ticks.
BATCH = 256
#: The longest time between two scans, seconds.
MAX_TICK = 1.0


class DueScan:
    """Queues on ``queue`` the sessions ``leases`` says are due."""

    def __init__(self, services: Services, leases: JobLeases, queue: JobQueue) -> None:
        self.services = services
        self.leases = leases
        self.queue = queue
        self.scans = 0
        self._failing = False

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Scan every tick until cancelled."""
        task_status.started()
        while True:
            await self.scan()
            cfg = self.services.config.consolidation  # read each tick: a reload may change it
            await trio.sleep(min(cfg.idle_after / 4, MAX_TICK))

    async def scan(self) -> list[str]:
        """Queue the sessions due now; returns them (none when the database failed)."""
        cfg = self.services.config.consolidation
        try:
            due = await self.leases.due(
                budget=cfg.budget_tokens,
                hard=cfg.hard_tokens,
                idle_after=cfg.idle_after,
                max_delay=cfg.max_delay,
                limit=BATCH,
            )
        except ReverieError as exc:  # the database restarting: scanned again next tick
            if not self._failing:
                log.warning("scan for sessions due failed (retried every tick): %s", exc.message)
            self._failing = True
            return []
        self._failing = False
        self.scans += 1
        for name in due:
            if not self.queue.holds(name):  # (said once, as the idle timer says it)
                log.info("session %r idle and over budget: queued", name, extra={"session": name})
            self.queue.enqueue(name, target=cfg.target_tokens)
        return due
