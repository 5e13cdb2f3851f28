"""Ranking shared by every search: the hit shapes and the fusion of the signals.

A search has up to three signals: the vector similarity of the LanceDB
index, the BM25 of the message log's full-text index in SQLite
(``message_text``) and the BM25 of LanceDB's full-text index over episodes
and facts. Their raw scores are on unrelated scales (a cosine, two BM25s
over different corpora), so ``weighted_fusion`` first maps each ranking's
scores onto [0, 1] (min-max within that ranking) and then sums them with a
weight per signal. Unlike reciprocal rank fusion this keeps how far apart
two hits are, so a weak signal's arbitrary order does not count as much as
a strong signal's clear winner, and a signal can weigh less than another
(``TEXT_WEIGHT``, ``VECTOR_WEIGHT``, measured by ``bench/locomo.py``).

Every ranking breaks ties by ``uid`` so identical searches give identical
orders.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import msgspec

__all__ = [
    "TEXT_WEIGHT",
    "VECTOR_WEIGHT",
    "IndexDoc",
    "Kind",
    "SearchHit",
    "hit_from_doc",
    "specific_first",
    "text_terms",
    "weighted_fusion",
]

Kind = Literal["message", "episode", "fact"]
#: Weights of the signals in hybrid search; the vector's is scaled by the share of the
#: searched messages it covers (see the indexer). Chosen on LoCoMo's development set.
TEXT_WEIGHT = 1.0
VECTOR_WEIGHT = 0.7
_TERM = re.compile(r"\w+")


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


def hit_from_doc(doc: IndexDoc, score: float) -> SearchHit:
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


def weighted_fusion(
    signals: Sequence[tuple[Sequence[SearchHit], float]], *, limit: int
) -> list[SearchHit]:
    """Fuse ``(ranking, weight)`` pairs: the weighted sum of min-max normalised scores.

    In each ranking the best hit maps to 1 and the last to 0 (a single hit
    to 1). Fused scores are divided by the sum of the weights, so they lie in
    [0, 1]; they order hits within one search and mean nothing across
    searches. A ranking with weight 0 adds nothing; ties go to the smaller uid.
    """
    total = sum(w for _, w in signals if w > 0)
    scores: dict[str, float] = {}
    first: dict[str, SearchHit] = {}
    for ranking, weight in signals:
        if weight <= 0 or not ranking:
            continue
        top = max(h.score for h in ranking)
        low = min(h.score for h in ranking)
        span = top - low
        for hit in ranking:
            share = (hit.score - low) / span if span > 0 else 1.0
            scores[hit.uid] = scores.get(hit.uid, 0.0) + weight * share
            first.setdefault(hit.uid, hit)
    ordered = sorted(scores, key=lambda uid: (-scores[uid], uid))[:limit]
    return [msgspec.structs.replace(first[uid], score=scores[uid] / total) for uid in ordered]


def specific_first(hits: Sequence[SearchHit]) -> list[SearchHit]:
    """``hits`` in order, except that an episode never precedes a message it covers.

    An episode summarises many messages, and every message is searchable
    itself: where both were found, the message (its exact words, its time)
    comes first and the episode right after the last message of it found.
    """
    covered_later: dict[str, set[str]] = {}
    pending: list[SearchHit] = []
    out: list[SearchHit] = []
    message_ids = {mid for h in hits if h.kind == "message" for mid in h.message_ids}
    for hit in hits:
        if hit.kind == "episode":
            waiting = message_ids.intersection(hit.message_ids)
            if waiting:
                covered_later[hit.uid] = waiting
                pending.append(hit)
                continue
        out.append(hit)
        if hit.kind == "message":
            for episode in list(pending):
                waiting = covered_later[episode.uid]
                waiting.difference_update(hit.message_ids)
                if not waiting:
                    out.append(episode)
                    pending.remove(episode)
    return out + pending
