"""An embedder that answers from vectors computed ahead of an index write.

The indexer embeds a batch chunk by chunk in worker threads (so cancellation
lands between chunks and no native embedding thread is ever abandoned), then
hands the batch to ``SearchIndex.add`` (a write), which finds its vectors
here and only writes. A text not primed is embedded on the spot.
"""

from __future__ import annotations

import threading

import numpy as np
import numpy.typing as npt

from reverie.store import Embedder

__all__ = ["PrimedEmbedder"]


class PrimedEmbedder:
    """Looks texts up among primed vectors first; ``forget`` drops them after the write."""

    def __init__(self, real: Embedder) -> None:
        self.real = real
        self.model_id = real.model_id
        self.dimension = real.dimension
        self._ready: dict[str, npt.NDArray[np.float32]] = {}
        self._lock = threading.Lock()

    def prime(self, texts: list[str]) -> None:
        unique = list(dict.fromkeys(texts))
        rows = self.real.embed(unique)
        with self._lock:
            self._ready.update(zip(unique, rows, strict=True))

    def forget(self, texts: list[str]) -> None:
        with self._lock:
            for text in texts:
                self._ready.pop(text, None)

    def embed(self, texts: list[str]) -> npt.NDArray[np.float32]:
        with self._lock:
            found = {t: v for t in texts if (v := self._ready.get(t)) is not None}
        missing = list(dict.fromkeys(t for t in texts if t not in found))
        if missing:
            found.update(zip(missing, self.real.embed(missing), strict=True))
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        return np.stack([found[t] for t in texts])
