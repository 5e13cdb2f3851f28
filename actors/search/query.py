"""The search query path: every acknowledged message by its words, the index by meaning.

Messages are ranked by words through SQLite's full-text index, which their
append's own commit updated, so a message is found as soon as its append is
acknowledged however far behind the vector index is. By meaning they are
ranked through the vector index, which may lag: the reply says how many
searched messages it has not embedded yet (``unembedded``), and the vector
signal's weight shrinks with that share, so a lagging index cannot push the
messages it covers ahead of better text matches. Episodes and facts are
ranked by LanceDB's full text and vectors.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgspec

from reverie.config import default_scope
from reverie.store import (
    MAX_K,
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    AsyncSearchIndex,
    Database,
    SearchHit,
    SearchQuery,
    candidate_depth,
    checked_query,
    search_message_text,
    specific_first,
    vector_gap,
    weighted_fusion,
)

__all__ = ["SearchResult", "search"]

_KINDS = ("message", "episode", "fact")


@dataclass(slots=True, frozen=True)
class SearchResult:
    """A search's hits, best first, and how many searched messages lack a vector yet."""

    hits: list[SearchHit]
    unembedded: int


async def search(
    db: Database, index: AsyncSearchIndex, query: SearchQuery, hidden: set[str]
) -> SearchResult:
    """The ``k`` best hits, every acknowledged message included, scored in [0, 1].

    ``hidden`` names forgotten sessions whose rows may still be in the
    index: neither they nor their own ``session/<name>`` scope are returned.
    The index's directory stays on disk until the search is done.
    """
    kinds, mode, k = query.kinds, query.mode, query.k
    text = checked_query(query.query, kinds=kinds, mode=mode, k=k)
    filters = query.filters()
    limit = min(k + (len(hidden) and 50), MAX_K)
    depth = candidate_depth(limit)
    want_messages = kinds is None or "message" in kinds
    memory_kinds = tuple(kind for kind in (_KINDS if kinds is None else kinds) if kind != "message")
    signal = msgspec.structs.replace(query, query=text, k=depth)
    with index.reading():
        unembedded, searched = (
            await db.read(lambda c: vector_gap(c, **filters)) if want_messages else (0, 0)
        )
        signals: list[tuple[list[SearchHit], float]] = []
        if mode != "vector":
            by_words: list[SearchHit] = []
            if want_messages:
                by_words += await db.read(
                    lambda c: search_message_text(c, text, limit=depth, **filters)
                )
            if memory_kinds:
                by_words += await index.search(
                    msgspec.structs.replace(signal, mode="text", kinds=memory_kinds)
                )
            signals.append((_best_first(by_words)[:depth], TEXT_WEIGHT))
        if mode != "text":
            coverage = 1.0 - min(1.0, unembedded / searched) if searched else 1.0
            by_meaning = await index.search(msgspec.structs.replace(signal, mode="vector"))
            signals.append((by_meaning, VECTOR_WEIGHT * coverage if mode == "hybrid" else 1.0))
    hits = specific_first(weighted_fusion(signals, limit=depth))[:limit]
    hidden_scopes = {default_scope(name) for name in hidden}
    kept = [h for h in hits if h.session not in hidden and h.scope not in hidden_scopes]
    return SearchResult(hits=kept[:k], unembedded=unembedded)


def _best_first(hits: list[SearchHit]) -> list[SearchHit]:
    """Messages' and memory's BM25 hits as one ranking, by raw score (ties by uid).

    Both are BM25 over English words, so their raw scores are comparable
    enough; normalising each list on its own would put the best episode level
    with the best message whatever their scores, and one episode stands for
    hundreds of messages.
    """
    return sorted(hits, key=lambda h: (-h.score, h.uid))
