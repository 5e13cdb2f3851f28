"""The TTL sweeper: a heap of expiry deadlines and one task that sleeps until the next.

Reads never return an expired key whether or not it was swept; sweeping
only reclaims storage, so being late is harmless and being early is
impossible (the scope actor deletes a key only if its stored
``expires_at`` has passed). Entries are never removed from the heap when a
key is overwritten or deleted: a stale entry fires, finds nothing expired,
and costs one indexed delete. The heap is rebuilt from SQLite at start, so
expiries hold across restarts and crashes.

With the test clock (``REVERIE_TEST_CLOCK_FILE``) time can jump, so the
sweeper then re-reads the clock at least every ``TEST_CLOCK_POLL`` seconds
while a deadline is pending; otherwise it sleeps exactly until the next
deadline or until an earlier one is scheduled.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Awaitable, Callable, Iterable

import trio

from reverie.store import Clock

__all__ = ["TEST_CLOCK_POLL", "ExpirySweeper"]

TEST_CLOCK_POLL = 0.05
Sweep = Callable[[str, list[str]], Awaitable[None]]


class ExpirySweeper:
    """Calls ``sweep(scope, keys)`` once those keys' deadlines have passed."""

    def __init__(self, clock: Clock, sweep: Sweep) -> None:
        self._clock = clock
        self._sweep = sweep
        self._heap: list[tuple[float, str, str]] = []
        self._wake = trio.Event()

    def __len__(self) -> int:
        return len(self._heap)

    def schedule(self, expires_at: float, scope: str, key: str) -> None:
        """Remember a deadline; wakes the sweeper if it is the earliest."""
        heapq.heappush(self._heap, (expires_at, scope, key))
        if self._heap[0][0] == expires_at:
            self._wake.set()

    async def run(
        self,
        agenda: Iterable[tuple[float, str, str]],
        *,
        task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED,
    ) -> None:
        """Sweep until cancelled, starting from ``agenda`` (every stored deadline)."""
        self._heap.extend(agenda)
        heapq.heapify(self._heap)
        task_status.started()
        while True:
            due = self._pop_due(self._clock.now())
            for scope, keys in due.items():
                await self._sweep(scope, keys)
            if due:
                continue
            await self._sleep()

    def _pop_due(self, now: float) -> dict[str, list[str]]:
        due: dict[str, list[str]] = {}
        while self._heap and self._heap[0][0] <= now:
            _, scope, key = heapq.heappop(self._heap)
            due.setdefault(scope, []).append(key)
        return due

    async def _sleep(self) -> None:
        delay = self._heap[0][0] - self._clock.now() if self._heap else math.inf
        if self._clock.adjustable and self._heap:
            delay = min(delay, TEST_CLOCK_POLL)
        self._wake = trio.Event()
        with trio.move_on_after(max(0.0, delay)):
            await self._wake.wait()
