"""Ranking shared by every search: the hit shapes and the fusion of the signals.

A search has up to three signals: the vector similarity of the LanceDB
index, the BM25 of the message log's full-text index in SQLite
(``message_text``) and the BM25 of LanceDB's full-text index over episodes
and facts. Each is first put on a scale that means the same in every
search, so a host can threshold a score (``min_score``):

- **words**: BM25 divided by the query's reference score, the sum of its
  terms' IDF (what a message holding each query word once, at average
  length, scores), capped at 1. 1 is "every word of the query, as a
  typical match has it"; a hit with only the query's commonest word is
  near 0; no word in common is 0.
- **meaning**: cosine similarity of the embeddings above ``MEANING_FLOOR``
  (what unrelated text scores with MiniLM), rescaled onto [0, 1]; in a
  hybrid search, measured from the search's background
  (``above_background``): the meaning its ``depth``-th nearest candidate
  reaches. A search by meaning alone keeps the absolute meaning: it asked
  for the nearest hits, however alike they are.

``fuse`` adds them with a weight per signal (``TEXT_WEIGHT``,
``VECTOR_WEIGHT``, chosen on the development set by ``bench/locomo.py``) and
divides by the weights' sum. Min-max normalising within each search, as
before, made the best hit 1 whatever it was: after forgetting the only
session about a wedding, "wedding" still returned ten unrelated hits, the
first at 0.41.

Every ranking breaks ties by ``uid`` so identical searches give identical
orders.

What stopped being true ranks lower: a hit that a search marks as history
(``until``: a fact a consolidation retired, a turn that stated only such a
fact) has its score multiplied by ``HISTORY_PRIOR`` (docs/search.md, "What
is current comes first").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import msgspec

__all__ = [
    "HISTORY_PRIOR",
    "MEANING_FLOOR",
    "TEXT_WEIGHT",
    "VECTOR_WEIGHT",
    "IndexDoc",
    "Kind",
    "SearchHit",
    "above_background",
    "fuse",
    "hit_from_doc",
    "is_retired",
    "meaning_score",
    "on_words_scale",
    "specific_first",
    "stored_text",
    "text_terms",
]

Kind = Literal["message", "episode", "fact"]
#: Weights of the signals in hybrid search; the vector's is scaled by the share of the
#: searched messages it covers (see the indexer). Chosen on LoCoMo's development set,
#: leaving one conversation out at a time (docs/search.md, "Scores").
TEXT_WEIGHT = 1.0
VECTOR_WEIGHT = 0.5
#: The cosine similarity the packaged MiniLM gives unrelated text, mapped to meaning 0:
#: short texts on other topics score -0.04 to 0.19 ("wedding" against a sourdough
#: question), a paraphrase with no word in common 0.34 ("bread fermentation problem").
#: On the development set, evidence turns score 0.49 (median), a question against
#: another conversation's turns 0.25 (same style and topics, so not unrelated).
MEANING_FLOOR = 0.2
#: What a hit marked as history (``SearchHit.until``) keeps of its score: the current
#: fact that replaced it outranks it unless it matched the query twice as well, and it
#: still outranks what matched nothing. Not tuned on LoCoMo (no fact there changes).
HISTORY_PRIOR = 0.5
_TERM = re.compile(r"\w+")


class IndexDoc(msgspec.Struct, frozen=True, kw_only=True):
    """One searchable unit: a message, a history episode or a memory fact.

    ``uid`` is unique across kinds ("m:<session>:<seq>", "e:<entry_id>",
    "f:<scope>:<hash>"); adding a doc with a known uid replaces it. A fact of
    ``MEMORY.md`` has no session; a fact a history entry retired has the
    entry's session and its ``ts`` (``is_retired``).
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
    """A found doc; ``score`` in [0, 1] means the same in every search.

    ``words`` and ``meaning`` are the two signals behind it, each in [0, 1]
    (0 where that signal did not rank the doc among its candidates).
    ``via`` is the uid of the episode or fact whose hit led to this message,
    or of the message whose hit led to this fact (its ``score`` is then that
    hit's); "" otherwise. ``until`` is the UTC day (``YYYY-MM-DD``) a claim
    stopped being true: set on a retired fact and on a turn that stated one,
    "" on what is current (or was never a claim).
    """

    uid: str
    kind: Kind
    text: str
    score: float
    scope: str
    session: str
    ts: float
    message_ids: list[str]
    source: str
    words: float = 0.0
    meaning: float = 0.0
    via: str = ""
    until: str = ""


def is_retired(hit: SearchHit | IndexDoc) -> bool:
    """A fact a history entry retired: it carries the entry's session, which a fact of
    ``MEMORY.md`` (a scope's, no session's) never does (``retired_docs``)."""
    return hit.kind == "fact" and bool(hit.session)


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


def meaning_score(cosine: float) -> float:
    """A cosine similarity on the meaning scale: 0 at ``MEANING_FLOOR`` and below, 1 at 1."""
    return min(1.0, max(0.0, (cosine - MEANING_FLOOR) / (1.0 - MEANING_FLOOR)))


def above_background(by_meaning: Sequence[SearchHit], depth: int) -> list[SearchHit]:
    """The meaning signal's ``depth`` nearest hits, each scored by how far it stands above
    the farthest of them: ``(meaning - background) / (1 - background)``, in [0, 1].

    Why: in a conversation every turn is "about" the same people and the same
    kind of day, so a question's cosine with turns that do not answer it is
    far above ``MEANING_FLOOR`` and varies from one question to the next (a
    vague question is near everything). The ``depth``-th nearest candidate
    is that question's background; a turn no nearer than it is no evidence,
    and one well above it is. Measured on LoCoMo's development set, leaving
    the fused weight as it was: R@10 rose in each of the three conversations
    (docs/search.md). Never above the absolute meaning, so ``min_score`` still
    drops every hit it dropped before (and may drop more).

    Where fewer than ``depth`` hits came back, the search covered every doc
    it may return and there is no background to measure from: the hits keep
    their absolute meaning (a session of one message is still found by it).
    """
    if len(by_meaning) < depth:
        return list(by_meaning)
    background = min(h.score for h in by_meaning)
    if background >= 1.0:
        return [msgspec.structs.replace(h, score=0.0) for h in by_meaning]
    return [
        msgspec.structs.replace(h, score=max(0.0, h.score - background) / (1.0 - background))
        for h in by_meaning
    ]


def on_words_scale(hits: Sequence[SearchHit], reference: float) -> list[SearchHit]:
    """BM25 hits on the words scale (over the query's ``reference``, capped at 1), best first.

    Messages' and memory's BM25 share the reference: both are BM25 over
    English words, so their raw scores are comparable enough, and scaling
    each list by its own best would put the best episode level with the best
    message whatever their scores (one episode stands for hundreds of
    messages). Ties go to the smaller uid.
    """
    scaled = [
        msgspec.structs.replace(h, score=min(1.0, h.score / reference) if reference > 0 else 0.0)
        for h in hits
    ]
    return sorted(scaled, key=lambda h: (-h.score, h.uid))


def fuse(
    by_words: Sequence[SearchHit], by_meaning: Sequence[SearchHit], weights: tuple[float, float]
) -> list[SearchHit]:
    """One ranking of both signals' hits, whose ``score`` is already on its scale.

    A hit's score is ``(w_words * words + w_meaning * meaning) / (w_words +
    w_meaning)``, so it lies in [0, 1]. A signal that did not find a hit adds
    0 for it, also when it found nothing at all: a search whose words match
    nothing is not as sure of its nearest meanings as one whose words agree
    (a mode without a signal gives it weight 0). Ties go to the smaller uid.
    """
    w_words, w_meaning = (max(0.0, w) for w in weights)
    total = w_words + w_meaning
    if total <= 0:
        return []
    words = {h.uid: h.score for h in by_words}
    meaning = {h.uid: h.score for h in by_meaning}
    first = {h.uid: h for h in (*by_meaning, *by_words)}
    fused = [
        msgspec.structs.replace(
            hit,
            words=words.get(uid, 0.0),
            meaning=meaning.get(uid, 0.0),
            score=(w_words * words.get(uid, 0.0) + w_meaning * meaning.get(uid, 0.0)) / total,
        )
        for uid, hit in first.items()
    ]
    return sorted(fused, key=lambda h: (-h.score, h.uid))


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


def stored_text(doc: IndexDoc) -> str:
    """What an index's ``text`` column (and so its full-text index) holds of ``doc``:
    nothing of a message, whose text the log keeps (both engines' indexes)."""
    return "" if doc.kind == "message" else doc.text
