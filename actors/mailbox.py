"""An actor's mailbox: its queued requests and the senders waiting for room.

A mailbox exists only while its actor has mail or a batch running (the
registry drops it once both are done), so an idle actor has none. It holds
at most ``size`` envelopes; a sender that finds it full waits its turn
(back-pressure on that actor's clients only) and its envelope is moved in,
in arrival order, as a batch frees room, so no later sender overtakes it.
Each item is an ``Envelope``: the request and where its outcome goes, the
same for every kind of actor the runtime runs.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import trio

__all__ = ["Envelope", "Mailbox"]

R = TypeVar("R")


@dataclass(slots=True)
class Envelope(Generic[R]):
    """A request in a mailbox and where its outcome goes (a result or an exception).

    ``reply`` answers it at most once: a second outcome is dropped, so the
    registry can answer whatever a failed batch left unanswered without
    tracking each reply, and a connection's slot is never freed twice.
    """

    request: R
    to: Callable[[object], None]
    answered: bool = False

    def reply(self, outcome: object) -> None:
        """Hand ``outcome`` to whoever asked (only data passes; it never raises)."""
        if not self.answered:
            self.answered = True  # marked before the hand-off
            self.to(outcome)


class Mailbox:
    """The queue of one actor, named like it; the registry runs one batch of it at a time."""

    __slots__ = ("blocked", "name", "queue")

    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: deque[Envelope[Any]] = deque()
        #: Senders waiting for room, in order: their envelope and the event that frees them.
        self.blocked: deque[tuple[Envelope[Any], trio.Event]] | None = None

    def __len__(self) -> int:
        """Requests waiting for the actor: queued, and held by senders waiting for room."""
        return len(self.queue) + (len(self.blocked) if self.blocked else 0)

    def offer(self, envelope: Envelope[Any], size: int) -> bool:
        """Queue ``envelope`` if there is room and nobody waits before it."""
        if self.blocked or len(self.queue) >= size:
            return False
        self.queue.append(envelope)
        return True

    async def wait_for_room(self, envelope: Envelope[Any]) -> None:
        """Queue ``envelope`` behind the senders already waiting; return once it is queued.

        Cancelled while waiting, the envelope is withdrawn: it was not sent.
        """
        entry = (envelope, trio.Event())
        if self.blocked is None:
            self.blocked = deque()
        self.blocked.append(entry)
        try:
            await entry[1].wait()
        finally:
            if not entry[1].is_set() and self.blocked is not None:
                self.blocked.remove(entry)
                if not self.blocked:
                    self.blocked = None

    def admit(self, size: int) -> None:
        """Move waiting senders' envelopes, in order, into the room a batch freed."""
        blocked = self.blocked
        while blocked and len(self.queue) < size:
            envelope, queued = blocked.popleft()
            self.queue.append(envelope)
            queued.set()
        if not blocked:
            self.blocked = None

    def refuse(self, error: BaseException) -> None:
        """Answer every request still waiting with ``error`` (the runtime is stopping)."""
        while self.queue:
            self.queue.popleft().reply(error)
        while self.blocked:
            envelope, queued = self.blocked.popleft()
            envelope.reply(error)
            queued.set()
        self.blocked = None
