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
from the database before its first batch. A periodic sweep drops the state of
actors idle (no mail, no batch running) for ``passivate_after`` seconds,
so a passivated actor leaves nothing in memory; its next request loads it
again. When more than ``max_live`` actors are live, the least recently
used idle ones are dropped at once.

The registry is also the actors' supervisor: a batch that raises an
unexpected exception is caught by its scheduler; the requests of that
batch not yet answered get an ``internal`` error, the failure is logged
and counted (``actor_crashes``), the actor's state is dropped and reloaded
from the database on its next batch, and the daemon goes on. A typed
``ReverieError`` (``store.full`` when the disk is full) reaches the
requests it failed as itself, counted as ``<kind>_errors``, and the state
is reloaded the same way. What is still queued is handled by later batches.

An actor answers with data: an envelope's ``reply`` hands the outcome (a
result or the exception that failed it) to whoever asked and does nothing
else (the daemon's connection converts it to the wire, catching what fails
there), so a reply never fails inside an actor and each envelope is
answered exactly once.

Appends to different sessions that are ready at the same moment are
committed together. A scheduler that takes a live actor whose next requests
make one write (``plannable``: a session's appends) has it ``prepare`` their
``Plan`` and does the same for the live actors right behind it on the run
queue, up to ``GROUP``; the plans' writes go to the database in one
``write_many`` (one batch of the writer thread, one wake-up of the
scheduler), then each actor ``finished`` its own plan. Each actor is still run by one scheduler at a time, in
mailbox order; a failed write fails only its own actor's requests.
"""

from __future__ import annotations

import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

import trio

from reverie.config import ReverieError, Throttle
from reverie.store import Tx

from .mailbox import Envelope, Mailbox
from .names import validate_name
from .services import Services

__all__ = ["GROUP", "SCHEDULERS", "Actor", "ActorRegistry", "Plan", "Unplanned"]

log = logging.getLogger(__name__)

#: Batches run at once per registry. Each waits mostly on the database, whose
#: writer commits the writes waiting together in one transaction.
SCHEDULERS = 64
#: Actors whose plans one scheduler commits together (one ``write_many``).
GROUP = 256


class Plan(Protocol):
    """An actor's next requests as one write: ``write`` runs in the writer's transaction."""

    def write(self, t: Tx) -> Any: ...


class Actor(Protocol):
    """What a registry needs of an actor: a name, when it went idle, and its steps.

    ``take`` and ``handle`` run any batch. The other three are how a batch
    that is one write is committed together with other actors' batches:
    ``plannable`` says how many requests at the head of the mailbox make
    one (0: none), ``prepare`` makes their ``Plan``, and ``finished``
    answers them with what its write returned.
    """

    @property
    def name(self) -> str: ...

    idle_since: float

    async def load(self) -> None: ...
    def take(self, mail: deque[Envelope[Any]]) -> list[Envelope[Any]]: ...
    async def handle(self, batch: list[Envelope[Any]]) -> bool: ...
    def plannable(self, mail: deque[Envelope[Any]]) -> int: ...
    def prepare(self, batch: list[Envelope[Any]]) -> Plan: ...
    def finished(self, plan: Any, written: Any) -> None: ...


class Unplanned:
    """For an actor whose batches all run through ``handle`` (none is committed in a group)."""

    def plannable(self, mail: deque[Envelope[Any]]) -> int:
        return 0

    def prepare(self, batch: list[Envelope[Any]]) -> Plan:
        raise AssertionError("an unplanned actor's plannable is 0: nothing is prepared")

    def finished(self, plan: Any, written: Any) -> None:
        raise AssertionError("an unplanned actor's plannable is 0: nothing is finished")


A = TypeVar("A", bound=Actor)


@dataclass(slots=True)
class _Planned(Generic[A]):
    """An actor in a group: its mailbox, the requests its plan answers, and the plan."""

    box: Mailbox
    actor: A
    batch: list[Envelope[Any]]
    plan: Plan


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
        self._runnable: deque[Mailbox] = deque()  # the run queue
        self._idle = trio.lowlevel.ParkingLot()  # schedulers waiting for the run queue
        self._started = self._stopped = False
        self._throttle = Throttle()  # typed failures logged once per kind per 10 s
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
            self._schedule(box)
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

    def _schedule(self, box: Mailbox) -> None:
        """Put ``box`` at the end of the run queue and wake a waiting scheduler, if any."""
        self._runnable.append(box)
        self._idle.unpark()

    async def _scheduler(self) -> None:
        while True:
            while not self._runnable:
                await self._idle.park()
            await self._run_next()  # its locals (mailboxes, requests) go when it returns

    async def _run_next(self) -> None:
        """Run the actor at the head of the run queue: in a group of plans, or alone."""
        group = self._group()
        if group is None:
            await self._run_batch(self._runnable.popleft())
        elif group:
            await self._run_group(group)

    def _group(self) -> list[_Planned[A]] | None:
        """The plans of the live actors at the head of the run queue (None: the first has none).

        The scan stops at the first actor without one, which stays at the
        head of the run queue (for this scheduler if it is the first, else
        for the next one). The list may be empty: every plan failed to build.
        """
        group: list[_Planned[A]] = []
        taken = 0
        while self._runnable and taken < GROUP:
            box = self._runnable[0]
            actor = self._live.get(box.name)
            count = 0 if actor is None else actor.plannable(box.queue)
            if actor is None or not count:
                break
            self._runnable.popleft()
            taken += 1
            planned = self._prepare(box, actor, count)
            if planned is not None:
                group.append(planned)
        return group if taken else None

    def _prepare(self, box: Mailbox, actor: A, count: int) -> _Planned[A] | None:
        """Take ``count`` requests off ``box`` and make the actor's plan of them."""
        batch = [box.queue.popleft() for _ in range(count)]
        box.admit(self._mailbox_size)
        try:
            return _Planned(box, actor, batch, actor.prepare(batch))
        except Exception as exc:  # a bug while planning: these requests fail, the state reloads
            self._done(box, actor, self._failed(actor, batch, exc), fresh=False)
            return None

    async def _run_group(self, group: list[_Planned[A]]) -> None:
        """Commit the group's plans together, then let each actor finish its own."""
        results = await self.services.db.write_many([g.plan.write for g in group])
        for g, written in zip(group, results, strict=True):
            keep = True
            try:
                if isinstance(written, BaseException):
                    raise written
                g.actor.finished(g.plan, written)
            except Exception as exc:
                keep = self._failed(g.actor, g.batch, exc)
            self._done(g.box, g.actor, keep, fresh=False)

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
        self._done(box, actor, keep, fresh)

    def _done(self, box: Mailbox, actor: A, keep: bool, fresh: bool) -> None:
        """After a batch: keep the actor live (or drop it), requeue its box if mail came."""
        if keep:
            actor.idle_since = trio.current_time()
            self._live[box.name] = actor
            self._live.move_to_end(box.name)
            if fresh:
                self._evict_over_bound()
        elif not fresh:
            del self._live[box.name]
        if box.queue:
            self._schedule(box)
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
        self._passivated([self._live.pop(name) for name in idle])

    def _passivated(self, actors: list[A]) -> None:
        """``actors`` went idle and their state was dropped (a kind may let go of more)."""

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
        self._passivated([self._live.pop(name) for name in due])
        return next_due

    def _extra(self, actor: A) -> dict[str, Any]:
        return {self.kind: actor.name}

    async def _handle(self, actor: A, batch: list[Envelope[Any]], fresh: bool) -> bool:
        """Load (if ``fresh``) and run a batch; False when the actor's state must go."""
        try:
            if fresh:
                await actor.load()
            return await actor.handle(batch)
        except Exception as exc:
            return self._failed(actor, batch, exc)

    def _failed(self, actor: A, batch: list[Envelope[Any]], exc: Exception) -> bool:
        """Answer what ``batch`` left unanswered with ``exc``'s error; the state must go (False).

        A typed error (a full disk, a read-only store) reaches the client as
        itself; anything else is a crash, logged and answered ``internal``.
        """
        if isinstance(exc, ReverieError):
            self.services.counters[f"{self.kind}_errors"] += 1
            held = self._throttle.due(exc.code)  # a full disk refuses every append alike
            if held is not None:
                log.warning(
                    "%s request failed: %s (%d more like it since the last such line)",
                    self.kind,
                    exc.message,
                    held,
                    extra=self._extra(actor),
                )
            error = exc
        else:
            self.services.counters["actor_crashes"] += 1
            log.error(
                "%s actor crashed; its state is reloaded from the database",
                self.kind,
                extra=self._extra(actor),
                exc_info=exc,
            )
            error = ReverieError(
                f"internal error in {self.kind} actor: {type(exc).__name__}; retry the request"
            )
        for env in batch:
            env.reply(error)  # answers only those the batch left unanswered
        return False
