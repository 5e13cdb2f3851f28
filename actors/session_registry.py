"""The session actors' registry: one actor per session name, and, on a database other
daemons share, the sessions this daemon lets go when they go idle."""

from __future__ import annotations

import functools
import logging

import trio

from reverie.config import ReverieError
from reverie.store import Tx

from .registry import ActorRegistry
from .services import Services
from .session import SessionActor

__all__ = ["SessionRegistry"]

log = logging.getLogger(__name__)


def _release(owned: list[tuple[str, int]], t: Tx) -> None:
    t.release_sessions(owned)


class SessionRegistry(ActorRegistry[SessionActor]):
    """The session actors, one per session name.

    On a database other daemons share, a session this daemon no longer keeps
    live is let go (``release_sessions``, in the background): an idle session
    has no owner, and whoever serves it next claims it without taking it from
    anyone.
    """

    def __init__(self, services: Services) -> None:
        super().__init__(services, "session", lambda name: SessionActor(name, services))
        self._released: list[tuple[str, int]] = []
        self._release = trio.Event()

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            if self.services.db.shared:
                nursery.start_soon(self._let_go)
            await nursery.start(super().run)
            task_status.started()

    def _passivated(self, actors: list[SessionActor]) -> None:
        if self.services.db.shared:
            self._released += [(a.name, a.record.epoch) for a in actors if a.record is not None]
            self._release.set()

    async def _let_go(self) -> None:
        """Release what went idle, a batch at a time; a failed release only means the next
        daemon takes the session over instead of finding it free."""
        while True:
            await self._release.wait()
            self._release = trio.Event()
            batch, self._released = self._released, []
            try:
                await self.services.db.write(functools.partial(_release, batch))
            except ReverieError as exc:
                log.info("idle sessions not released (%d): %s", len(batch), exc.message)
