"""This process's place among the daemons and workers sharing one Postgres store.

``Membership.run`` joins the ``members`` table at start, beats every
``owner_ttl / 4`` (which also renews this member's job leases and frees the
sessions of members that died), and leaves on a clean stop, freeing what it
owned so the next member takes it without waiting. A beat that fails (the
database restarting) is logged once and retried at the next tick: the
member's writes are fenced, so a late beat is never unsafe, only slower
to hand over.
"""

from __future__ import annotations

import logging

import trio

from reverie.config import ReverieError
from reverie.store import Cluster

__all__ = ["Membership"]

log = logging.getLogger(__name__)


class Membership:
    """Beats for ``cluster`` as a ``role`` (daemon | worker) serving ``serves``."""

    def __init__(self, cluster: Cluster, role: str, serves: str = "") -> None:
        self.cluster = cluster
        self.role = role
        self.serves = serves
        self.beats = 0
        self.freed = 0  # sessions of dead members this one freed
        self._failing = False

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Join, then beat until cancelled; leave (bounded) on the way out."""
        await self.cluster.join(self.role, self.serves)
        log.info("joined the cluster as %s %s", self.role, self.cluster.member)
        task_status.started()
        try:
            while True:
                await trio.sleep(self.cluster.owner_ttl / 4)
                await self._beat()
        finally:
            with trio.CancelScope(shield=True), trio.move_on_after(5):
                try:
                    await self.cluster.leave()
                except ReverieError as exc:  # the others free its share after owner_ttl
                    log.warning("could not leave the cluster cleanly: %s", exc.message)

    async def _beat(self) -> None:
        try:
            freed = await self.cluster.beat()
        except ReverieError as exc:
            if not self._failing:
                log.warning("cluster beat failed (retried every beat): %s", exc.message)
            self._failing = True
            return
        if self._failing:
            log.info("cluster beat works again")
        self._failing = False
        self.beats += 1
        self.freed += freed
        if freed:
            log.info("freed %d sessions of members that stopped beating", freed)
