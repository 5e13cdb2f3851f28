"""The search query path: every acknowledged message by its words, the index by meaning.

Messages are ranked by words through the database's full-text index, which their
append's own commit updated, so a message is found as soon as its append is
acknowledged however far behind the vector index is. By meaning they are
ranked through the vector index, which may lag: the reply says how many
searched messages it has not embedded yet (``unembedded``), and the vector
signal's weight shrinks with that share, so a lagging index cannot push the
messages it covers ahead of better text matches. Episodes and facts are
ranked by LanceDB's full text and vectors. The vector index stores no
message text: the hits returned take theirs from the log.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import trio

from reverie.config import default_scope
from reverie.store import (
    MAX_K,
    TEXT_WEIGHT,
    VECTOR_WEIGHT,
    GroupCommit,
    LiveIndex,
    MemoryStore,
    SearchHit,
    SearchQuery,
    Tx,
    above_background,
    candidate_depth,
    checked_query,
    fuse,
    on_words_scale,
    specific_first,
)

from .currency import current_first
from .provenance import lead_to_turns

__all__ = ["SearchResult", "search"]

_KINDS = ("message", "episode", "fact")
#: The signals' weights in the single-signal modes.
_WEIGHTS = {"text": (1.0, 0.0), "vector": (0.0, 1.0)}


@dataclass(slots=True, frozen=True)
class SearchResult:
    """A search's hits, best first, and how many searched messages lack a vector yet."""

    hits: list[SearchHit]
    unembedded: int


async def search(
    db: GroupCommit[Any],
    index: LiveIndex,
    memory: MemoryStore,
    query: SearchQuery,
    hidden: set[str],
) -> SearchResult:
    """The ``k`` best hits at or above ``min_score``, every acknowledged message included.

    Scores lie in [0, 1] and mean the same in every search (``fuse``). An
    episode or fact among the first ``k`` brings the messages it covers that
    best match the query to its place (``lead_to_turns``); what stopped being
    true is marked and ranked down, and a turn brings the current fact it
    states (``current_first``); an episode then follows every message of its
    own that was found (``specific_first``).

    ``hidden`` names forgotten sessions whose rows may still be in the
    index: neither they nor their own ``session/<name>`` scope are returned.
    The index's directory stays on disk until the search is done.
    """
    kinds, mode, k = query.kinds, query.mode, query.k
    text = checked_query(query.query, kinds=kinds, mode=mode, k=k, min_score=query.min_score)
    filters = query.filters()
    # Hits of forgotten sessions are dropped after fusion: fuse more so k remain.
    depth = candidate_depth(min(k + (len(hidden) and 50), MAX_K))
    want_messages = kinds is None or "message" in kinds
    memory_kinds = tuple(kind for kind in (_KINDS if kinds is None else kinds) if kind != "message")
    signal = msgspec.structs.replace(query, query=text, k=depth)
    want_words, want_meaning = mode != "vector", mode != "text"

    def read_log(t: Tx) -> tuple[tuple[int, int], float, list[SearchHit]]:
        gap = t.vector_gap(**filters) if want_messages else (0, 0)
        if not want_words:
            return gap, 0.0, []
        found = t.search_message_text(text, limit=depth, **filters) if want_messages else []
        return gap, t.words_reference(text), found

    async def memory_by_words() -> list[SearchHit]:
        if not (want_words and memory_kinds):
            return []
        return await index.search(msgspec.structs.replace(signal, mode="text", kinds=memory_kinds))

    async def by_meaning() -> list[SearchHit]:
        if not want_meaning:
            return []
        return await index.search(msgspec.structs.replace(signal, mode="vector"))

    with index.reading():
        # The log's read, LanceDB's full text and its vectors are independent and each
        # waits on a thread of its own: run together, a search takes the slowest of them.
        logged, summaries, meaning = await _together(
            lambda: db.read(read_log), memory_by_words, by_meaning
        )
        (unembedded, searched), reference, messages = logged
        by_words = on_words_scale(messages + summaries, reference)[:depth]
        coverage = 1.0 - min(1.0, unembedded / searched) if searched else 1.0
        if mode == "hybrid":
            meaning = above_background(meaning, depth)
            # No searched doc holds a word of the query: the words signal says nothing of
            # any hit, so it abstains rather than count 0 for each (docs/search.md, "Scores
            # and thresholds": "which diet do I follow" and "I'm vegetarian").
            weights = (TEXT_WEIGHT if by_words else 0.0, VECTOR_WEIGHT * coverage)
        else:
            weights = _WEIGHTS[mode]
        fused = fuse(by_words, meaning, weights)[:depth]
        hits = _visible(fused, hidden, query.min_score)
        if want_messages:
            hits = await lead_to_turns(
                db,
                index,
                memory,
                text,
                hits,
                weights=weights,
                top=k,
                since=query.since,
                until=query.until,
            )
        hits = await _with_log_text(db, hits)
        facts = query.session is None and (kinds is None or "fact" in kinds)
        hits = await current_first(memory, hits, _visible(fused, hidden, 0.0), facts=facts)
    hits = specific_first(hits)[:k]
    return SearchResult(hits=hits, unembedded=unembedded)


def _visible(hits: list[SearchHit], hidden: set[str], min_score: float) -> list[SearchHit]:
    """``hits`` at or above ``min_score`` and not of a ``hidden`` session or its own scope."""
    hidden_scopes = {default_scope(name) for name in hidden}
    return [
        h
        for h in hits
        if h.session not in hidden and h.scope not in hidden_scopes and h.score >= min_score
    ]


async def _with_log_text(db: GroupCommit[Any], hits: list[SearchHit]) -> list[SearchHit]:
    """``hits`` with their messages' text read from the log (``with_log_text``)."""
    if not any(h.kind == "message" for h in hits):
        return hits
    return await db.read(lambda t: t.with_log_text(hits))


async def _together(*calls: Callable[[], Awaitable[Any]]) -> list[Any]:
    """Each call's result, in order, the calls run concurrently; the first error cancels
    the rest and propagates (a nursery: nothing outlives the search).

    trio wraps a child's error in an exception group; a lone error is raised
    as itself, so the server still answers a store error with its own code
    (``not_found``, ``unavailable``…) rather than ``internal``.
    """
    results: list[Any] = [None] * len(calls)

    async def run(i: int) -> None:
        results[i] = await calls[i]()

    try:
        async with trio.open_nursery() as nursery:
            for i in range(len(calls)):
                nursery.start_soon(run, i)
    except BaseExceptionGroup as group:
        if len(group.exceptions) == 1:
            raise group.exceptions[0] from None
        raise
    return results
