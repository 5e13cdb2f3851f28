"""Registries of live actors: start on demand, passivate when idle, restart on a crash.

``ActorRegistry`` holds what every kind of actor shares (session actors
here, working-memory scope actors in ``scope.py``). An actor is live while
it has a task and a mailbox. An actor whose
mailbox stays empty for ``passivate_after`` seconds ends and leaves nothing
in memory; the next request starts a new actor that reloads its state from
SQLite. When more than ``max_live`` actors are live, the least
recently used idle ones are passivated at once.

The registry is also the actors' supervisor: an actor that raises an
unexpected exception is restarted with its state reloaded from SQLite; the
request it was handling gets an ``internal`` error, the failure is logged
and counted, and the daemon goes on. A typed ``ReverieError`` (``store.full``
when the disk is full) reaches the requests it failed as itself, counted as
``<kind>_errors``, and the actor reloads its state the same way.

An actor answers with data: an envelope's ``reply`` hands the outcome (a
result or the exception that failed it) to whoever asked and does nothing
else (the daemon queues it for the connection's writer, which converts it
to the wire), so a reply never fails inside an actor and each envelope is
answered exactly once.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import trio

from reverie.config import Busy, ReverieError

from .names import validate_name
from .services import Services
from .session import Envelope, SessionActor

__all__ = ["Actor", "ActorRegistry", "SessionRegistry"]

log = logging.getLogger(__name__)


class Actor(Protocol):
    """What a registry needs of an actor: a name, a mailbox, and its three steps."""

    @property
    def name(self) -> str: ...
    @property
    def outbox(self) -> trio.MemorySendChannel[Envelope[Any]]: ...
    @property
    def inbox(self) -> trio.MemoryReceiveChannel[Envelope[Any]]: ...
    @property
    def idle_scope(self) -> trio.CancelScope | None: ...

    async def load(self) -> None: ...
    async def next_batch(self, idle_after: float) -> list[Envelope[Any]] | None: ...
    async def handle(self, batch: list[Envelope[Any]]) -> bool: ...


A = TypeVar("A", bound=Actor)


class ActorRegistry(Generic[A]):
    """Routes requests to actors of one ``kind``; owns their tasks (``run``).

    ``make(name, mailbox_size)`` builds an actor. The bounds come from the
    ``[sessions]`` configuration, which every kind shares.
    """

    def __init__(self, services: Services, kind: str, make: Callable[[str, int], A]) -> None:
        self.services = services
        self.kind = kind
        self._make = make
        self._live: OrderedDict[str, A] = OrderedDict()
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
        """Actors whose mailbox is not empty, with the number of queued requests."""
        depths = {}
        for name, actor in self._live.items():
            queued = actor.outbox.statistics().current_buffer_used
            if queued:
                depths[name] = queued
        return depths

    async def send(self, name: str, envelope: Envelope[Any]) -> None:
        """Queue ``envelope`` for ``name``'s actor, starting it if needed.

        Waits while that actor's mailbox is full (back-pressure on its
        clients only).
        """
        validate_name(self.kind, name)
        while True:
            actor = self._actor(name)
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

    async def call(self, name: str, request: Any) -> Any:
        """Send ``request`` to ``name``'s actor and wait for its outcome (raised if an error)."""
        done = trio.Event()
        box: list[object] = []

        def reply(outcome: object) -> None:
            box.append(outcome)
            done.set()

        await self.send(name, Envelope(request, reply))
        await done.wait()
        if isinstance(box[0], BaseException):
            raise box[0]
        return box[0]

    def _actor(self, name: str) -> A:
        actor = self._live.get(name)
        if actor is not None:
            self._live.move_to_end(name)
            return actor
        assert self._nursery is not None, f"{type(self).__name__}.run has not started"
        actor = self._make(name, self._mailbox_size)
        self._live[name] = actor
        self._nursery.start_soon(self._supervise, actor)
        self._evict_over_bound()
        return actor

    def _evict_over_bound(self) -> None:
        """Passivate least recently used idle actors while over ``max_live``."""
        excess = len(self._live) - self._max_live
        if excess <= 0:  # the common case: no copy of the live actors per new actor
            return
        for actor in list(self._live.values()):
            if excess <= 0:
                break
            if actor.idle_scope is not None:
                actor.idle_scope.cancel()
                self._passivate(actor)
                excess -= 1

    def _passivate(self, actor: A) -> None:
        if self._live.get(actor.name) is actor:
            del self._live[actor.name]
        actor.outbox.close()

    async def _supervise(self, actor: A) -> None:
        """Run one actor; restart it on a crash; end it when idle or when it says so."""
        ended = False
        try:
            await actor.load()
            while True:
                batch = await actor.next_batch(self._passivate_after)
                if batch is None:
                    if actor.outbox.statistics().current_buffer_used == 0:
                        break
                    continue
                keep_going = await self._handle(actor, batch)
                del batch  # an idle actor must not hold its last request (and its content)
                if not keep_going:
                    break
            ended = True
        except ReverieError as exc:
            log.error("%s actor stopped: %s", self.kind, exc, extra=self._extra(actor))
            self._drain(actor, exc)
        finally:
            self._passivate(actor)
            if ended:  # e.g. after a forget: what was queued behind it goes to a fresh actor
                self._requeue(actor)
            self._drain(actor, ReverieError(f"{self.kind} actor stopped; retry the request"))

    def _extra(self, actor: A) -> dict[str, Any]:
        return {self.kind: actor.name}

    async def _handle(self, actor: A, batch: list[Envelope[Any]]) -> bool:
        replied: set[int] = set()

        def tracking(env: Envelope[Any]) -> Envelope[Any]:
            # Marked before the hand-off: a reply only passes data on, and an
            # envelope answered twice would free its connection's slot twice.
            def reply(result: object) -> None:
                replied.add(id(env))
                env.reply(result)

            return Envelope(env.request, reply)

        try:
            return await actor.handle([tracking(e) for e in batch])
        except ReverieError as exc:  # typed (a full disk, a read-only store): the client gets it
            self.services.counters[f"{self.kind}_errors"] += 1
            log.warning("%s request failed: %s", self.kind, exc.message, extra=self._extra(actor))
            for env in batch:
                if id(env) not in replied:
                    env.reply(exc)
            await actor.load()
            return True
        except Exception as exc:
            self.services.counters["actor_crashes"] += 1
            log.exception(
                "%s actor crashed; restarting it from SQLite", self.kind, extra=self._extra(actor)
            )
            error = ReverieError(
                f"internal error in {self.kind} actor: {type(exc).__name__}; retry the request"
            )
            for env in batch:
                if id(env) not in replied:
                    env.reply(error)
            await actor.load()
            return True

    def _requeue(self, actor: A) -> None:
        """Hand an actor's queued requests, in order, to a new actor for the same name.

        Only for an actor that ended on purpose; one that was cancelled or
        failed has its queue answered by ``_drain`` (a requeue could loop).
        """
        while True:
            try:
                env = actor.inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            try:
                self._actor(actor.name).outbox.send_nowait(env)
            except (trio.WouldBlock, trio.ClosedResourceError):
                env.reply(Busy(f"{self.kind} {actor.name!r} is restarting; retry the request"))

    def _drain(self, actor: A, error: ReverieError) -> None:
        """Answer whatever is still queued for an actor that ended."""
        while True:
            try:
                env = actor.inbox.receive_nowait()
            except (trio.WouldBlock, trio.EndOfChannel, trio.ClosedResourceError):
                return
            env.reply(error)


class SessionRegistry(ActorRegistry[SessionActor]):
    """The session actors, one per session name."""

    def __init__(self, services: Services) -> None:
        super().__init__(services, "session", lambda name, size: SessionActor(name, services, size))
