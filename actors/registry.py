"""The registry of live session actors: start on demand, passivate when idle.

A session is live while its actor has a task and a mailbox. An actor whose
mailbox stays empty for ``passivate_after`` seconds ends and leaves nothing
in memory; the next request starts a new actor that reloads the session's
row from SQLite. When more than ``max_live`` actors are live, the least
recently used idle ones are passivated at once.

The registry is also the actors' supervisor: an actor that raises an
unexpected exception is restarted with its state reloaded from SQLite; the
request it was handling gets an ``internal`` error, the failure is logged
and counted, and the daemon goes on.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import trio

from reverie.config import ReverieError

from .names import validate_name
from .services import Services
from .session import Envelope, Request, SessionActor

__all__ = ["SessionRegistry"]

log = logging.getLogger(__name__)


class SessionRegistry:
    """Routes requests to session actors; owns their tasks (``run``)."""

    def __init__(self, services: Services) -> None:
        self.services = services
        self._live: OrderedDict[str, SessionActor] = OrderedDict()
        self._nursery: trio.Nursery | None = None
        cfg = services.config.sessions
        self._mailbox_size = cfg.mailbox_size
        self._passivate_after = cfg.passivate_after
        self._max_live = cfg.max_live

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Own the actors' tasks until cancelled."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await trio.sleep_forever()

    @property
    def live(self) -> int:
        return len(self._live)

    def mailbox_depths(self) -> dict[str, int]:
        """Sessions whose mailbox is not empty, with the number of queued requests."""
        depths = {}
        for name, actor in self._live.items():
            queued = actor.outbox.statistics().current_buffer_used
            if queued:
                depths[name] = queued
        return depths

    async def send(self, session: str, envelope: Envelope) -> None:
        """Queue ``envelope`` for ``session``'s actor, starting it if needed.

        Waits while that session's mailbox is full (back-pressure on its
        clients only).
        """
        validate_name("session", session)
        while True:
            actor = self._actor(session)
            try:
                actor.outbox.send_nowait(envelope)
                return
            except trio.WouldBlock:
                try:
                    await actor.outbox.send(envelope)
                    return
                except trio.ClosedResourceError:
                    continue
            except trio.ClosedResourceError:
                continue

    async def call(self, session: str, request: Request) -> Any:
        """Send ``request`` to the session's actor and wait for its outcome (raised if an error)."""
        done = trio.Event()
        box: list[object] = []

        def reply(outcome: object) -> None:
            box.append(outcome)
            done.set()

        await self.send(session, Envelope(request, reply))
        await done.wait()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def _actor(self, session: str) -> SessionActor:
        actor = self._live.get(session)
        if actor is not None:
            self._live.move_to_end(session)
            return actor
        assert self._nursery is not None, "SessionRegistry.run has not started"
        actor = SessionActor(session, self.services, self._mailbox_size)
        self._live[session] = actor
        self._nursery.start_soon(self._supervise, actor)
        self._evict_over_bound()
        return actor

    def _evict_over_bound(self) -> None:
        """Passivate least recently used idle actors while over ``max_live``."""
        excess = len(self._live) - self._max_live
        for actor in list(self._live.values()):
            if excess <= 0:
                break
            if actor.idle_scope is not None:
                actor.idle_scope.cancel()
                self._passivate(actor)
                excess -= 1

    def _passivate(self, actor: SessionActor) -> None:
        if self._live.get(actor.name) is actor:
            del self._live[actor.name]
        actor.outbox.close()

    async def _supervise(self, actor: SessionActor) -> None:
        """Run one actor; restart it on a crash; end it when idle or forgotten."""
        try:
            await actor.load()
            while True:
                batch = await actor.next_batch(self._passivate_after)
                if batch is None:
                    if actor.outbox.statistics().current_buffer_used == 0:
                        break
                    continue
                if not await self._handle(actor, batch):
                    break
        except ReverieError as exc:
            log.error("session actor stopped: %s", exc, extra={"session": actor.name})
            self._drain(actor, exc)
        finally:
            self._passivate(actor)
            self._drain(actor, ReverieError("session actor stopped; retry the request"))

    async def _handle(self, actor: SessionActor, batch: list[Envelope]) -> bool:
        replied: set[int] = set()

        def tracking(env: Envelope) -> Envelope:
            def reply(result: object) -> None:
                replied.add(id(env))
                env.reply(result)

            return Envelope(env.request, reply)

        try:
            return await actor.handle([tracking(e) for e in batch])
        except Exception as exc:
            self.services.counters["actor_crashes"] += 1
            log.exception(
                "session actor crashed; restarting it from SQLite", extra={"session": actor.name}
            )
            error = ReverieError(
                f"internal error in session actor: {type(exc).__name__}; retry the request"
            )
            for env in batch:
                if id(env) not in replied:
                    env.reply(error)
            await actor.load()
            return True

    def _drain(self, actor: SessionActor, error: ReverieError) -> None:
        """Answer whatever is still queued for an actor that ended."""
        while True:
            try:
                env = actor.inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            env.reply(error)
