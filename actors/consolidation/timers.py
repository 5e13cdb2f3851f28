"""A heap of deadlines keyed by name: the supervisor's timers.

Arming is O(log n) and re-arming a key that is already armed costs nothing
until its deadline: the supervisor re-arms lazily when a deadline fires
early (the session was active meanwhile). So an append costs O(1) here and
an idle daemon has nothing to do until the next deadline.
"""

from __future__ import annotations

import heapq
import math

__all__ = ["TimerHeap"]


class TimerHeap:
    """Deadlines (monotonic seconds) for names; one live deadline per name."""

    __slots__ = ("_armed", "_heap")

    def __init__(self) -> None:
        self._heap: list[tuple[float, str]] = []
        self._armed: dict[str, float] = {}

    def __len__(self) -> int:
        return len(self._armed)

    def __contains__(self, name: str) -> bool:
        return name in self._armed

    def arm(self, name: str, deadline: float) -> None:
        """Set ``name``'s deadline (replacing an earlier one)."""
        self._armed[name] = deadline
        heapq.heappush(self._heap, (deadline, name))

    def deadline(self, name: str) -> float:
        """``name``'s live deadline, or +inf when it has none."""
        return self._armed.get(name, math.inf)

    def cancel(self, name: str) -> None:
        self._armed.pop(name, None)

    def next_deadline(self) -> float:
        """The earliest live deadline, or +inf."""
        while self._heap:
            deadline, name = self._heap[0]
            if self._armed.get(name) == deadline:
                return deadline
            heapq.heappop(self._heap)  # stale: re-armed or cancelled
        return math.inf

    def pop_due(self, now: float) -> list[str]:
        """Names whose deadline is at or before ``now``, disarmed."""
        due = []
        while self.next_deadline() <= now:
            _, name = heapq.heappop(self._heap)
            del self._armed[name]
            due.append(name)
        return due
