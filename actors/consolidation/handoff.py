"""A ``consolidate`` request on a daemon that leaves consolidation to the workers.

On a shared Postgres store with ``consolidation.leave_to_workers`` the
daemon has no model to spare: a request does not run the job here but
posts it in the database, leased to no member (``JobLeases.post``). The
workers' scans list such a job at once (``due_scan.py``), and the first to
lease it runs it as any lapsed job (``leased.py``). A request that waits
follows the job's row until it ends (docs/scale-out.md).
"""

from __future__ import annotations

from typing import Any

import trio

from reverie.config import Busy
from reverie.store import JobLeases, MessageRecord

from ..services import Services
from .backends import Backend
from .turns import oldest_turns

__all__ = ["HandOff"]

#: Seconds between two reads of a posted job's row.
POLL = 0.1


class HandOff:
    """Posts the jobs of ``consolidate`` requests for the workers and follows them."""

    def __init__(self, services: Services, leases: JobLeases, backend: Backend) -> None:
        self.services = services
        self.leases = leases
        self.backend = backend  # the job's backend name and cap, as this daemon would run it

    async def consolidate(self, session: str, *, wait: bool) -> dict[str, Any] | None:
        """Post a job over the session's whole tail (complete turns); with ``wait``, its
        outcome once a worker ended it, None when there was nothing to do.

        Raises ``Busy`` when no member took the job within ``cluster.job_lease`` (no
        worker running): the job stays posted, a worker that starts takes it.
        """

        def choose(tail: list[MessageRecord]) -> list[MessageRecord]:
            return tail[: oldest_turns(tail, 0, self.backend.job_tokens)]

        job = await self.leases.post(session, self.backend.name, choose, self.services.now())
        if job is None or not wait:
            return None
        limit = self.services.config.cluster.job_lease
        taken = trio.current_time()  # when a member last held its lease (or it was posted)
        while True:
            seen = await self.leases.state(job.id)
            if seen is None:  # abandoned (its turns were consolidated meanwhile) or forgotten
                return None
            state, leased = seen
            if state != "running":
                return {"job": job.id, "entry": job.entry_id, "state": state, "messages": job.count}
            if leased:
                taken = trio.current_time()
            elif trio.current_time() - taken > limit:
                raise Busy(
                    f"no worker took session {session!r}'s consolidation job within"
                    f" cluster.job_lease ({limit:g} s): is a `reverie worker` running on this store?"
                )
            await trio.sleep(POLL)
