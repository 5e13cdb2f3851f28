"""The vectors of the last few search queries, so one search embeds its query once.

A search that finds a summary ranks the summary's own messages by the same
query's meaning (``SearchIndex.meaning_among``, called by the actors'
provenance step) right after the search itself: without this, the query
was embedded twice, a model run of several milliseconds each. A host that
repeats a question also finds its vector here.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np
import numpy.typing as npt

from .embeddings import Embedder

__all__ = ["QueryVectors"]


class QueryVectors:
    """Up to ``size`` query vectors of ``embedder``, the least recently used dropped first."""

    def __init__(self, embedder: Embedder, size: int = 32) -> None:
        self.embedder = embedder
        self.size = size
        self._kept: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()
        self._lock = threading.Lock()  # searches run on several threads at once

    def of(self, query: str) -> npt.NDArray[np.float32]:
        """``query``'s vector: kept, or embedded now (outside the lock) and kept."""
        with self._lock:
            if (kept := self._kept.get(query)) is not None:
                self._kept.move_to_end(query)
                return kept
        vector = np.asarray(self.embedder.embed([query])[0], dtype=np.float32)
        with self._lock:
            self._kept[query] = vector
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return vector
