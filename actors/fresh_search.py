"""Fresh search: the index's hits merged with messages it has not taken yet.

The indexer lags the log by up to a batch; a search with ``fresh`` also ranks
the newest unindexed messages (read from SQLite, at most ``FRESH_MAX``,
embedded on the fly and cached by uid so each is embedded once) and merges
the two per signal. Cosine scores are comparable across both, so the vector
lists merge by score. BM25 scores are not (each depends on its corpus), so
the index's text hits and the fresh docs are re-ranked by one BM25 over the
union. Hybrid then fuses the two merged lists by reciprocal rank, as the
index does.

Everything here blocks (embedding, LanceDB); the indexer calls it from a
worker thread.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt

from reverie.store import (
    MAX_K,
    MAX_QUERY_CHARS,
    Embedder,
    IndexDoc,
    Mode,
    SearchHit,
    SearchIndex,
    rank_by_text,
    reciprocal_rank_fusion,
    search_delta,
)

__all__ = ["FRESH_MAX", "FreshVectors", "search_with_fresh"]

#: Newest unindexed messages a fresh search ranks in memory; older ones wait for the index.
FRESH_MAX = 512


class FreshVectors:
    """Vectors of unindexed docs by uid, so consecutive searches embed each doc once."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, npt.NDArray[np.float32]] = OrderedDict()

    def clear(self) -> None:
        """Forget every vector (a forgotten session's uids may come back with other text)."""
        with self._lock:
            self._vectors.clear()

    def of(
        self, text: str, docs: list[IndexDoc]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
        """The query's vector and the docs' (the docs' from the cache where it has them)."""
        with self._lock:
            known = {d.uid: v for d in docs if (v := self._vectors.get(d.uid)) is not None}
        missing = [d for d in docs if d.uid not in known]
        rows = self.embedder.embed([text, *[d.text for d in missing]])
        known.update((d.uid, row) for d, row in zip(missing, rows[1:], strict=True))
        with self._lock:
            for doc in missing:
                self._vectors[doc.uid] = known[doc.uid]
            while len(self._vectors) > 2 * FRESH_MAX:
                self._vectors.popitem(last=False)
        return rows[0], np.stack([known[d.uid] for d in docs])


def search_with_fresh(
    index: SearchIndex,
    vectors: FreshVectors,
    query: str,
    docs: list[IndexDoc],
    filters: dict[str, Any],
    limit: int,
    mode: Mode,
) -> list[SearchHit]:
    """The index's rankings and the unindexed ``docs``' rankings, merged per signal."""
    depth = limit if mode != "hybrid" else min(MAX_K, max(4 * limit, 40))
    text = query[:MAX_QUERY_CHARS].replace("\x00", " ")
    by_vector: list[SearchHit] = []
    by_text: list[SearchHit] = []
    if mode != "text":
        indexed = index.search(query, k=depth, mode="vector", **filters)
        qvec, vecs = vectors.of(text, docs)
        new = search_delta(text, qvec, docs, vecs, k=depth, mode="vector", **filters)
        by_vector = _by_score([*indexed, *new])[:depth]
    if mode != "vector":
        indexed = index.search(query, k=depth, mode="text", **filters)
        dim = vectors.embedder.dimension
        zeros = np.zeros((len(docs), dim), np.float32)
        new = search_delta(
            text, np.zeros(dim, np.float32), docs, zeros, k=depth, mode="text", **filters
        )
        if new:
            known = {h.uid for h in indexed}
            pool = [_doc(h) for h in indexed] + [d for d in docs if d.uid not in known]
            by_text = rank_by_text(text, pool, limit=depth)
        else:
            by_text = indexed
    if mode == "vector":
        return by_vector[:limit]
    if mode == "text":
        return by_text[:limit]
    return reciprocal_rank_fusion([by_vector, by_text], limit=limit)


def _by_score(hits: list[SearchHit]) -> list[SearchHit]:
    """Best first by score, ties by uid; a uid in several lists keeps its best score."""
    best: dict[str, SearchHit] = {}
    for hit in hits:
        if hit.uid not in best or hit.score > best[hit.uid].score:
            best[hit.uid] = hit
    return sorted(best.values(), key=lambda h: (-h.score, h.uid))


def _doc(hit: SearchHit) -> IndexDoc:
    return IndexDoc(
        uid=hit.uid,
        kind=hit.kind,
        text=hit.text,
        scope=hit.scope,
        session=hit.session,
        ts=hit.ts,
        message_ids=list(hit.message_ids),
        source=hit.source,
    )
