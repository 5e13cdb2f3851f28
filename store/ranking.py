"""Ranking without LanceDB: reciprocal rank fusion, and scoring of a small in-memory delta.

The index is updated in batches, so the newest documents may not be in it
yet when a search arrives. ``search_delta`` ranks those few documents in
memory with the same filters and the same fusion as ``SearchIndex.search``,
which is what lets a caller read its own writes before the index catches up.

Every ranking breaks ties by ``uid`` so identical searches give identical
orders.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec
import numpy as np
import numpy.typing as npt

__all__ = [
    "RRF_K",
    "IndexDoc",
    "Kind",
    "SearchHit",
    "doc_matches",
    "rank_by_text",
    "rank_by_vector",
    "reciprocal_rank_fusion",
    "search_delta",
    "text_terms",
]

Kind = Literal["message", "episode", "fact"]
RRF_K = 60
_TERM = re.compile(r"\w+")
_BM25_K1 = 1.2
_BM25_B = 0.75


class IndexDoc(msgspec.Struct, frozen=True, kw_only=True):
    """One searchable unit: a message, a history episode or a memory fact.

    ``uid`` is unique across kinds ("m:<session>:<seq>", "e:<entry_id>",
    "f:<scope>:<hash>"); adding a doc with a known uid replaces it.
    """

    uid: str
    kind: Kind
    text: str
    scope: str
    session: str = ""
    ts: float = 0.0
    message_ids: list[str] = msgspec.field(default_factory=list)
    source: str = ""


class SearchHit(msgspec.Struct, frozen=True, kw_only=True):
    """A found doc; ``score`` is higher-is-better and comparable only within one search."""

    uid: str
    kind: Kind
    text: str
    score: float
    scope: str
    session: str
    ts: float
    message_ids: list[str]
    source: str


def _hit_from_doc(doc: IndexDoc, score: float) -> SearchHit:
    return SearchHit(
        uid=doc.uid,
        kind=doc.kind,
        text=doc.text,
        score=score,
        scope=doc.scope,
        session=doc.session,
        ts=doc.ts,
        message_ids=list(doc.message_ids),
        source=doc.source,
    )


def text_terms(text: str) -> list[str]:
    """Lower-cased word tokens: everything that is not a letter, digit or ``_`` separates."""
    return _TERM.findall(text.replace("\x00", " ").lower())


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[SearchHit]], *, limit: int, k: int = RRF_K
) -> list[SearchHit]:
    """Fuse ranked lists: a hit scores ``sum(1 / (k + rank))`` over the lists it is in.

    Ranks start at 1. Ties go to the smaller uid, so the result is
    reproducible whatever order the inputs' equal scores came in.
    """
    scores: dict[str, float] = {}
    first: dict[str, SearchHit] = {}
    for ranking in rankings:
        for rank, hit in enumerate(ranking, start=1):
            scores[hit.uid] = scores.get(hit.uid, 0.0) + 1.0 / (k + rank)
            first.setdefault(hit.uid, hit)
    ordered = sorted(scores, key=lambda uid: (-scores[uid], uid))[:limit]
    return [msgspec.structs.replace(first[uid], score=scores[uid]) for uid in ordered]


def doc_matches(
    doc: IndexDoc,
    *,
    scope: str | None = None,
    session: str | None = None,
    kinds: Iterable[str] | None = None,
    since: float | None = None,
    until: float | None = None,
) -> bool:
    """The in-memory twin of the index's prefilter (``since <= ts < until``)."""
    return (
        (scope is None or doc.scope == scope)
        and (session is None or doc.session == session)
        and (kinds is None or doc.kind in set(kinds))
        and (since is None or doc.ts >= since)
        and (until is None or doc.ts < until)
    )


def rank_by_vector(
    query_vec: npt.NDArray[np.float32],
    docs: Sequence[IndexDoc],
    vectors: npt.NDArray[np.float32],
    *,
    limit: int,
) -> list[SearchHit]:
    """Exact cosine ranking of ``docs`` (rows of ``vectors`` are unit length)."""
    if not docs:
        return []
    sims = vectors @ query_vec
    order = sorted(range(len(docs)), key=lambda i: (-float(sims[i]), docs[i].uid))[:limit]
    return [_hit_from_doc(docs[i], float(sims[i])) for i in order]


def rank_by_text(query: str, docs: Sequence[IndexDoc], *, limit: int) -> list[SearchHit]:
    """BM25 over ``docs`` alone (no stemming); docs sharing no term are left out."""
    terms = set(text_terms(query))
    if not terms or not docs:
        return []
    bags = [Counter(text_terms(d.text)) for d in docs]
    avg_len = max(sum(sum(b.values()) for b in bags) / len(bags), 1.0)
    df = {t: sum(1 for b in bags if t in b) for t in terms}
    scored: list[tuple[float, int]] = []
    for i, bag in enumerate(bags):
        length = sum(bag.values())
        score = 0.0
        for term in terms:
            tf = bag.get(term, 0)
            if tf:
                idf = math.log(1 + (len(docs) - df[term] + 0.5) / (df[term] + 0.5))
                norm = tf + _BM25_K1 * (1 - _BM25_B + _BM25_B * length / avg_len)
                score += idf * tf * (_BM25_K1 + 1) / norm
        if score > 0:
            scored.append((score, i))
    scored.sort(key=lambda s: (-s[0], docs[s[1]].uid))
    return [_hit_from_doc(docs[i], score) for score, i in scored[:limit]]


def search_delta(
    query: str,
    query_vec: npt.NDArray[np.float32],
    docs: Sequence[IndexDoc],
    vectors: npt.NDArray[np.float32],
    *,
    scope: str | None = None,
    session: str | None = None,
    kinds: Iterable[str] | None = None,
    since: float | None = None,
    until: float | None = None,
    k: int = 10,
    mode: Literal["hybrid", "vector", "text"] = "hybrid",
) -> list[SearchHit]:
    """Search a few not-yet-indexed docs in memory, filtered exactly like the index."""
    keep = [
        i
        for i, d in enumerate(docs)
        if doc_matches(d, scope=scope, session=session, kinds=kinds, since=since, until=until)
    ]
    kept = [docs[i] for i in keep]
    by_vector = [] if mode == "text" else rank_by_vector(query_vec, kept, vectors[keep], limit=k)
    by_text = [] if mode == "vector" else rank_by_text(query, kept, limit=k)
    if mode == "vector":
        return by_vector
    if mode == "text":
        return by_text
    return reciprocal_rank_fusion([by_vector, by_text], limit=k)
