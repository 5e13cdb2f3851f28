"""An embedder that answers from vectors computed ahead of an index write.

``AsyncSearchIndex.add`` embeds a batch on this pool's background threads
(``prime_all``), then hands the batch to ``SearchIndex.add`` (a write),
which finds its vectors here and only writes. A text not primed (a query)
is embedded on the spot, in the caller's worker thread. The pool is the
store's: nothing outside it calls an embedder.

Background threads run at a lower CPU priority (nice +10): embedding a
backlog uses the cores nobody else wants, and appends, reads and searches
go first. Each thread runs one chunk at a time with the model's own
threading off, so ``workers`` threads keep ``workers`` cores busy.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import AsyncIterator
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import numpy.typing as npt
import trio

from .embeddings import Embedder, LocalEmbedder

__all__ = ["PrimedEmbedder"]


class PrimedEmbedder:
    """Looks texts up among primed vectors first; ``forget`` drops them after the write."""

    def __init__(self, real: Embedder, workers: int) -> None:
        self.real = real
        self.model_id = real.model_id
        self.dimension = real.dimension
        self.workers = max(1, workers)
        self._ready: dict[str, npt.NDArray[np.float32]] = {}
        self._host_limiter = trio.CapacityLimiter(1)
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(
            self.workers, thread_name_prefix="reverie-embed", initializer=_background_priority
        )

    async def prime_all(self, texts: list[str], chunk: int) -> None:
        """Embed ``texts`` in chunks on the background threads, ``workers`` chunks at a time.

        A cancel waits for the chunks running (one per thread) and stops
        there: no native embedding thread is ever abandoned (one still
        running at interpreter exit aborts the process).
        """
        wave = chunk * self.workers
        for first in range(0, len(texts), wave):
            batch = texts[first : first + wave]
            futures = [
                self._pool.submit(self.prime, batch[i : i + chunk])
                for i in range(0, len(batch), chunk)
            ]
            await trio.to_thread.run_sync(_wait_all, futures)

    @contextlib.asynccontextmanager
    async def primed(self, texts: list[str], chunk: int) -> AsyncIterator[None]:
        """``texts`` embedded in chunks on the background threads, kept while inside (an
        index's write of them then only writes), let go after."""
        try:
            await self.prime_all(texts, max(1, chunk))
            yield
        finally:
            self.forget(texts)

    def close(self) -> None:
        """Stop the background threads (they are idle once ``prime_all`` returned)."""
        self._pool.shutdown(wait=True)

    @property
    def model_loaded(self) -> bool:
        """The local model is in memory now (never, for an embedding server)."""
        return isinstance(self.real, LocalEmbedder) and self.real.loaded

    @property
    def model_int8(self) -> bool:
        """The local model last loaded was its int8 rewrite (``embeddings.int8_weights``)."""
        return isinstance(self.real, LocalEmbedder) and self.real.int8

    @property
    def model_loads(self) -> int:
        """Times the local model was loaded since start (0 for an embedding server)."""
        return self.real.loads if isinstance(self.real, LocalEmbedder) else 0

    async def release_idle(self, idle_seconds: float) -> bool:
        """Give the local model's memory back if it has been idle (``LocalEmbedder``).

        On a thread: freeing an onnxruntime session takes milliseconds.
        """
        real = self.real
        if not isinstance(real, LocalEmbedder):
            return False
        return await trio.to_thread.run_sync(real.release_idle, idle_seconds)

    async def embed_for_host(self, texts: list[str]) -> list[list[float]]:
        """``texts``' vectors for a host's ``embed`` request, on a thread, one request at a
        time (the model's own threads do the work; a host's burst waits its turn)."""
        rows = await trio.to_thread.run_sync(self.embed, texts, limiter=self._host_limiter)
        return [[float(x) for x in row] for row in rows]

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


def _wait_all(futures: list[Future[None]]) -> None:
    """Wait for every chunk, then raise the first failure."""
    errors = [f.exception() for f in futures]
    for error in errors:
        if error is not None:
            raise error


def _background_priority() -> None:
    """Lower this thread's CPU priority (Linux threads have their own nice value)."""
    with contextlib.suppress(AttributeError, OSError):  # elsewhere: normal priority
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)
