"""How long the oldest message the vector index has not taken yet has waited.

A message's ``ts`` is the host's (an import carries old ones), and the log's
gids carry no time, so the indexer samples the end of the log as it goes:
``(max gid, when first seen)``. The oldest unindexed message was seen by the
indexer at the time of the first sample past the cursor, at most one batch
after its append; before any sample, the first append since the index was
caught up stands in.
"""

from __future__ import annotations

from collections import deque

__all__ = ["LagClock"]


class LagClock:
    """Samples of the log's end, dropped as the cursor passes them."""

    def __init__(self) -> None:
        self._samples: deque[tuple[int, float]] = deque()
        self._first_append: float | None = None

    def appended(self, now: float) -> None:
        """An append was acknowledged (the indexer's hook)."""
        if self._first_append is None:
            self._first_append = now

    def seen(self, max_gid: int, now: float) -> None:
        """The log ended at ``max_gid`` when the indexer read it."""
        if not self._samples or max_gid > self._samples[-1][0]:
            self._samples.append((max_gid, now))

    def indexed(self, cursor: int) -> None:
        """Every message up to ``cursor`` is in the index."""
        while self._samples and self._samples[0][0] <= cursor:
            self._samples.popleft()
        self._first_append = None

    def since(self) -> float | None:
        """When the oldest unindexed message was appended (within a batch); None if unknown."""
        return self._samples[0][1] if self._samples else self._first_append
