"""Registries of actors: a few scheduler tasks run the actors that have mail.

``ActorRegistry`` holds what every kind of actor shares (session actors
here, working-memory scope actors in ``scope.py``). An actor is state and
a mailbox, not a task: a request queues an envelope in the actor's
``Mailbox`` and, if the mailbox was empty and idle, puts it on the run
queue. ``SCHEDULERS`` tasks take mailboxes from the run queue and run one
batch of one actor at a time, then put the mailbox back at the end of the
run queue if more mail came meanwhile. A mailbox is never on the run queue
twice nor run while queued, so each actor has exactly one writer and its
requests are handled in the order they were queued. An actor with no mail
has no task, no channel, no cancel scope and no mailbox: only its state,
kept in ``_live`` in least-recently-used order.

An actor is live while its state is kept. A new actor loads its state
from SQLite before its first batch. A periodic sweep drops the state of
actors idle (no mail, no batch running) for ``passivate_after`` seconds,
so a passivated actor leaves nothing in memory; its next request loads it
again. When more than ``max_live`` actors are live, the least recently
used idle ones are dropped at once.

The registry is also the actors' supervisor: a batch that raises an
unexpected exception is caught by its scheduler; the requests of that
batch not yet answered get an ``internal`` error, the failure is logged
and counted (``actor_crashes``), the actor's state is dropped and reloaded
from SQLite on its next batch, and the daemon goes on. A typed
``ReverieError`` (``store.full`` when the disk is full) reaches the
requests it failed as itself, counted as ``<kind>_errors``, and the state
is reloaded the same way. What is still queued is handled by later batches.

An actor answers with data: an envelope's ``reply`` hands the outcome (a
result or the exception that failed it) to whoever asked and does nothing
else (the daemon queues it for the connection's writer, which converts it
to the wire), so a reply never fails inside an actor and each envelope is
answered exactly once.
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Any, Generic, Protocol, TypeVar

import trio

from reverie.config import ReverieError

from .mailbox import Mailbox
from .names import validate_name
from .services import Services
from .session import Envelope, SessionActor

__all__ = ["SCHEDULERS", "Actor", "ActorRegistry", "SessionRegistry"]

log = logging.getLogger(__name__)

#: Batches run at once per registry. Each waits mostly on the database, whose
#: writer commits the writes waiting together in one transaction, so this is
#: also how many actors' writes one group commit can gather.
SCHEDULERS = 64


class Actor(Protocol):
    """What a registry needs of an actor: a name, when it went idle, and its three steps."""

    @property
    def name(self) -> str: ...

    idle_since: float

    async def load(self) -> None: ...
    def take(self, mail: deque[Envelope[Any]]) -> list[Envelope[Any]]: ...
    async def handle(self, batch: list[Envelope[Any]]) -> bool: ...


A = TypeVar("A", bound=Actor)


class ActorRegistry(Generic[A]):
    """Routes requests to actors of one ``kind``; runs them (``run``).

    ``make(name)`` builds an actor (no I/O: ``load`` reads its state). The
    bounds come from the ``[sessions]`` configuration, which every kind shares.
    """

    def __init__(self, services: Services, kind: str, make: Callable[[str], A]) -> None:
        self.services = services
        self.kind = kind
        self._make = make
        self._live: OrderedDict[str, A] = OrderedDict()
        #: Mailboxes with mail or a batch running, by name: each is either on
        #: the run queue or being run, never both.
        self._boxes: dict[str, Mailbox] = {}
        self._ready, self._runnable = trio.open_memory_channel[Mailbox](math.inf)
        self._started = self._stopped = False
        cfg = services.config.sessions
        self._mailbox_size = cfg.mailbox_size
        self._passivate_after = cfg.passivate_after
        self._max_live = cfg.max_live

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        """Run the schedulers and the idle sweep until cancelled; then refuse what is queued."""
        try:
            async with trio.open_nursery() as nursery:
                for _ in range(SCHEDULERS):
                    nursery.start_soon(self._scheduler)
                nursery.start_soon(self._passivate_idle)
                self._started = True
                task_status.started()
        finally:
            self._stopped = True
            error = ReverieError(f"{self.kind} actor stopped; retry the request")
            for box in self._boxes.values():
                box.refuse(error)

    @property
    def live(self) -> int:
        return len(self._live)

    def mailbox_depths(self) -> dict[str, int]:
        """Actors with requests waiting (queued or held back by a full mailbox), and how many."""
        return {name: len(box) for name, box in self._boxes.items() if len(box)}

    async def send(self, name: str, envelope: Envelope[Any]) -> None:
        """Queue ``envelope`` for ``name``'s actor, scheduling it if it was idle.

        Waits while that actor's mailbox is full (back-pressure on its
        clients only).
        """
        validate_name(self.kind, name)
        assert self._started, f"{type(self).__name__}.run has not started"
        if self._stopped:
            raise ReverieError(f"{self.kind} actor stopped; retry the request")
        box = self._boxes.get(name)
        if box is None:
            box = self._boxes[name] = Mailbox(name)
            box.queue.append(envelope)
            self._ready.send_nowait(box)
        elif not box.offer(envelope, self._mailbox_size):
            await box.wait_for_room(envelope)

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

    async def _scheduler(self) -> None:
        while True:  # no loop variable: a waiting scheduler holds no actor's mailbox
            await self._run_batch(await self._runnable.receive())

    async def _run_batch(self, box: Mailbox) -> None:
        """Run one batch of ``box``'s actor, then requeue the box or drop it."""
        actor = self._live.get(box.name)
        fresh = actor is None
        if actor is None:
            actor = self._make(box.name)
        batch = actor.take(box.queue)
        box.admit(self._mailbox_size)
        keep = await self._handle(actor, batch, fresh)
        del batch  # an idle actor must not hold its last request (and its content)
        if keep:
            actor.idle_since = trio.current_time()
            self._live[box.name] = actor
            self._live.move_to_end(box.name)
            if fresh:
                self._evict_over_bound()
        elif not fresh:
            del self._live[box.name]
        if box.queue:
            self._ready.send_nowait(box)
        else:
            del self._boxes[box.name]

    def _evict_over_bound(self) -> None:
        """Drop least recently used idle actors while over ``max_live``."""
        excess = len(self._live) - self._max_live
        if excess <= 0:
            return
        idle = []
        for name in self._live:
            if name not in self._boxes:
                idle.append(name)
                if len(idle) == excess:
                    break
        for name in idle:
            del self._live[name]

    async def _passivate_idle(self) -> None:
        """Drop the actors idle for ``passivate_after``, each when its time comes."""
        while True:
            await trio.sleep_until(self._drop_idle(trio.current_time()))

    def _drop_idle(self, now: float) -> float:
        """Drop the actors idle since before ``now - passivate_after``; return the next due time.

        ``_live`` is in order of last batch, so the scan stops at the first
        actor not yet due (actors with mail or a batch running are skipped).
        """
        cutoff = now - self._passivate_after
        due = []
        for name, actor in self._live.items():
            if actor.idle_since > cutoff:
                next_due = actor.idle_since + self._passivate_after
                break
            if name not in self._boxes:
                due.append(name)
        else:
            next_due = now + self._passivate_after
        for name in due:
            del self._live[name]
        return next_due

    def _extra(self, actor: A) -> dict[str, Any]:
        return {self.kind: actor.name}

    async def _handle(self, actor: A, batch: list[Envelope[Any]], fresh: bool) -> bool:
        """Load (if ``fresh``) and run a batch; False when the actor's state must go."""
        try:
            if fresh:
                await actor.load()
            return await actor.handle(batch)
        except ReverieError as exc:  # typed (a full disk, a read-only store): the client gets it
            self.services.counters[f"{self.kind}_errors"] += 1
            log.warning("%s request failed: %s", self.kind, exc.message, extra=self._extra(actor))
            error: ReverieError = exc
        except Exception as exc:
            self.services.counters["actor_crashes"] += 1
            log.exception(
                "%s actor crashed; its state is reloaded from SQLite",
                self.kind,
                extra=self._extra(actor),
            )
            error = ReverieError(
                f"internal error in {self.kind} actor: {type(exc).__name__}; retry the request"
            )
        for env in batch:
            env.reply(error)  # answers only those the batch left unanswered
        return False


class SessionRegistry(ActorRegistry[SessionActor]):
    """The session actors, one per session name."""

    def __init__(self, services: Services) -> None:
        super().__init__(services, "session", lambda name: SessionActor(name, services))
