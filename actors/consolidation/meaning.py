"""The shipped embedder (``store.embed.LocalEmbedder``) for one consolidation job: what a
change said in other words is nearest to (``change.py``), loaded on first use and dropped
when idle, as the index's embedder is. See docs/design.md, "Facts that stay true"."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence

import numpy as np
import numpy.typing as npt

from reverie.store import LocalEmbedder

__all__ = ["UNLOAD_AFTER", "Embed", "meaning"]

#: Unit vectors of texts, one row each (``LocalEmbedder.embed``).
Embed = Callable[[Sequence[str]], "npt.NDArray[np.float32]"]
#: Seconds the model stays loaded after a job, for the next one (loading it takes ~1 s).
UNLOAD_AFTER = 120.0

_lock = threading.Lock()
_embedder: LocalEmbedder | None = None


@contextlib.contextmanager
def meaning() -> Iterator[Embed]:
    """The shipped embedder for one job: loaded on its first call, dropped ``UNLOAD_AFTER``
    seconds after the last job that used it, as the index's embedder is when idle."""
    global _embedder
    with _lock:
        if _embedder is None:
            _embedder = LocalEmbedder(threads=1)  # the model itself loads on the first embed
        embedder = _embedder
    cache: dict[str, npt.NDArray[np.float32]] = {}

    def embed(texts: Sequence[str]) -> npt.NDArray[np.float32]:
        new = [t for t in dict.fromkeys(texts) if t not in cache]
        if new:
            cache.update(zip(new, embedder.embed(new), strict=True))
        return np.stack([cache[t] for t in texts])

    try:
        yield embed
    finally:
        if cache:  # it was loaded: release it once idle
            timer = threading.Timer(UNLOAD_AFTER, embedder.release_idle, (UNLOAD_AFTER,))
            timer.daemon = True
            timer.start()
