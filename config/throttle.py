"""Repeated warnings said once per interval, with how many were held back.

A failure that repeats with every request (a full disk refusing each append,
``accept`` out of descriptors) would otherwise write a log line per attempt,
ten or a thousand a second, burying everything else and filling the disk
that is already full. The first of a kind is logged at once; the next ones
within ``every`` seconds are only counted, and the next line says how many.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

__all__ = ["Throttle"]


class Throttle:
    """Decides, per kind of event, whether to log it now."""

    def __init__(self, every: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.every = every
        self._clock = clock
        self._said: dict[Hashable, tuple[float, int]] = {}  # kind -> (when said, held back since)

    def due(self, kind: Hashable) -> int | None:
        """None to stay quiet; else the count of this kind held back since it was last said."""
        now = self._clock()
        said, held = self._said.get(kind, (-float("inf"), 0))
        if now - said < self.every:
            self._said[kind] = (said, held + 1)
            return None
        self._said[kind] = (now, 0)
        return held
