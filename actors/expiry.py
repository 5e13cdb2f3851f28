"""The TTL sweeper: a heap of expiry deadlines and one task that sleeps until the next.

Reads never return an expired key whether or not it was swept; sweeping
only reclaims storage, so being late is harmless and being early is
impossible (the scope actor deletes a key only if its stored
``expires_at`` has passed). The heap is rebuilt from the database at start, so
expiries hold across restarts and crashes.

Each key's newest deadline is kept beside the heap: a key set again with a
TTL leaves its older heap entry behind, and that entry is skipped when it
comes up. Left there, such entries grew with every write of a TTL, not
with the keys: a host re-setting one key 200 times a second with a TTL of
ten minutes kept 120,000 of them. Once the heap holds more than twice the
pending keys (and ``_SLACK`` more), it is rebuilt from the newest
deadlines, so it stays within a bound of the keys that have one. A key
deleted or set again without a TTL keeps its deadline here until it
comes: it then finds nothing expired, and costs one indexed delete.

With the test clock (``REVERIE_TEST_CLOCK_FILE``) time can jump, so the
sweeper then re-reads the clock at least every ``TEST_CLOCK_POLL`` seconds
while a deadline is pending; otherwise it sleeps exactly until the next
deadline or until an earlier one is scheduled.

When several daemons share one database (``Duty``), only the one holding
the duty ``wm-sweep`` (a lease in the database) sweeps: it re-reads every
stored deadline each ``every`` seconds, so it also knows the keys set
through the other daemons, which drop their own due keys to it. A key is
then swept up to ``every`` late, which is harmless for the same reason.
"""

from __future__ import annotations

import heapq
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

import trio

from reverie.config import ReverieError
from reverie.store import Clock

__all__ = ["TEST_CLOCK_POLL", "Duty", "ExpirySweeper"]

log = logging.getLogger(__name__)

TEST_CLOCK_POLL = 0.05
#: Stale heap entries tolerated beyond one per pending key before the heap is rebuilt.
_SLACK = 1024
Sweep = Callable[[str, list[str]], Awaitable[None]]
Agenda = Iterable[tuple[float, str, str]]


@dataclass(frozen=True, slots=True)
class Duty:
    """The sweep as a duty one member of a shared database holds at a time.

    ``take()`` holds (or renews) the duty and says whether this member holds
    it; ``agenda()`` reads every stored deadline; both are tried every ``every``
    seconds.
    """

    take: Callable[[], Awaitable[bool]]
    agenda: Callable[[], Awaitable[Agenda]]
    every: float


class ExpirySweeper:
    """Calls ``sweep(scope, keys)`` once those keys' deadlines have passed."""

    def __init__(self, clock: Clock, sweep: Sweep, duty: Duty | None = None) -> None:
        self._clock = clock
        self._sweep = sweep
        self._duty = duty
        self.holding = duty is None  # whether this member sweeps (always, alone)
        self._heap: list[tuple[float, str, str]] = []
        self._due_at: dict[tuple[str, str], float] = {}  # each key's newest deadline
        self._wake = trio.Event()

    def __len__(self) -> int:
        """Keys with a deadline still to come (``status``' ``scopes.ttl_deadlines``)."""
        return len(self._due_at)

    def schedule(self, expires_at: float, scope: str, key: str) -> None:
        """Remember a key's new deadline; wakes the sweeper if it is the earliest."""
        self._remember(expires_at, scope, key)
        if self._heap[0][0] == expires_at:
            self._wake.set()

    def _remember(self, expires_at: float, scope: str, key: str) -> None:
        self._due_at[(scope, key)] = expires_at
        heapq.heappush(self._heap, (expires_at, scope, key))
        if len(self._heap) > 2 * len(self._due_at) + _SLACK:
            self._heap = [(when, s, k) for (s, k), when in self._due_at.items()]
            heapq.heapify(self._heap)

    async def run(
        self, agenda: Agenda, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED
    ) -> None:
        """Sweep until cancelled, starting from ``agenda`` (every stored deadline)."""
        self._learn(agenda)
        async with trio.open_nursery() as nursery:
            if self._duty is not None:
                nursery.start_soon(self._hold, self._duty)
            task_status.started()
            while True:
                due = self._pop_due(self._clock.now())
                if self.holding:  # else the holder sweeps them: it reads every deadline
                    for scope, keys in due.items():
                        await self._sweep(scope, keys)
                if due:
                    continue
                await self._sleep()

    def _learn(self, agenda: Agenda) -> None:
        for expires_at, scope, key in agenda:
            self._remember(expires_at, scope, key)

    async def _hold(self, duty: Duty) -> None:
        """Take or renew the duty every ``every`` seconds; while held, learn every deadline."""
        while True:
            try:
                self.holding = await duty.take()
                if self.holding:
                    self._learn(await duty.agenda())
                    self._wake.set()
            except ReverieError as exc:  # the database restarting: tried again next time
                log.warning("TTL sweep duty not renewed: %s", exc.message)
            await trio.sleep(duty.every)

    def _pop_due(self, now: float) -> dict[str, list[str]]:
        due: dict[str, list[str]] = {}
        while self._heap and self._heap[0][0] <= now:
            expires_at, scope, key = heapq.heappop(self._heap)
            if self._due_at.get((scope, key)) != expires_at:
                continue  # set again since: its newest deadline has an entry of its own
            del self._due_at[(scope, key)]
            due.setdefault(scope, []).append(key)
        return due

    async def _sleep(self) -> None:
        delay = self._heap[0][0] - self._clock.now() if self._heap else math.inf
        if self._clock.adjustable and self._heap:
            delay = min(delay, TEST_CLOCK_POLL)
        self._wake = trio.Event()
        with trio.move_on_after(max(0.0, delay)):
            await self._wake.wait()
