"""What the LoCoMo benchmark asks of a real daemon: the import, the settle, the searches.

Every conversation is appended through the public client; searches rank
each question in its session (``daemon_ranker``), or fetch each signal's
candidates alone (``collect``) for ``fused_ranker`` to fuse in this process
with the daemon's own ``fuse``; ``threshold_rows`` counts what ``min_score``
keeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from evals.locomo.data import KS, Conversation, Question, distinct_ids
from reverie.config import IndexConfig
from reverie.store import SearchHit, above_background, candidate_depth, fuse
from tests.daemon_process import DaemonProcess

__all__ = [
    "DEPTH",
    "Candidates",
    "collect",
    "daemon_ranker",
    "fused_ranker",
    "ingest",
    "threshold_rows",
]

_BATCH = 64
#: The daemon's default ``index.min_score``, applied to the hits fused in this process.
_MIN_SCORE = IndexConfig().min_score
#: How deep each signal's candidates are fetched, as hybrid search fuses them for the
#: deepest k; the fused ranker measures meaning from the last of that depth, as the daemon.
DEPTH = candidate_depth(max(KS))


def ingest(daemon: DaemonProcess, conversations: list[Conversation]) -> float:
    """Append every turn through the public client; returns messages per second."""
    start, total = time.perf_counter(), 0
    with daemon.client() as client:
        for conv in conversations:
            speakers: dict[str, str] = {}
            for i in range(0, len(conv.turns), _BATCH):
                batch = conv.turns[i : i + _BATCH]
                messages = [
                    {
                        "role": speakers.setdefault(
                            t.speaker, "user" if not speakers else "assistant"
                        ),
                        "content": t.text,
                        "id": t.dia_id,
                        "ts": t.ts,
                    }
                    for t in batch
                ]
                client.append_many(conv.session, messages)
                total += len(batch)
    return total / (time.perf_counter() - start)


def daemon_ranker(daemon: DaemonProcess, mode: str | None) -> Callable[[Question], list[str]]:
    client = daemon.client()

    def rank(q: Question) -> list[str]:
        kwargs = {} if mode is None else {"mode": mode}
        return distinct_ids(client.search(q.text, session=q.session, k=max(KS), **kwargs))

    return rank


@dataclass(slots=True, frozen=True)
class Candidates:
    """One question's candidates from each signal alone, best first, on their own scales."""

    words: list[SearchHit]
    meaning: list[SearchHit]


def _store_hit(hit: object) -> SearchHit:
    """A client hit as the store's ``SearchHit``, the shape ``fuse`` takes."""
    return SearchHit(
        uid=getattr(hit, "uid"),  # noqa: B009
        kind=getattr(hit, "kind"),  # noqa: B009
        text="",
        score=getattr(hit, "score"),  # noqa: B009
        scope="",
        session="",
        ts=0.0,
        message_ids=list(getattr(hit, "message_ids")),  # noqa: B009
        source="",
    )


def collect(daemon: DaemonProcess, conversations: list[Conversation]) -> dict[str, Candidates]:
    """Every question's candidates by words and by meaning, as deep as hybrid fuses them."""
    out: dict[str, Candidates] = {}
    with daemon.client() as client:
        for conv in conversations:
            for q in conv.questions:
                signals = [
                    [
                        _store_hit(h)
                        for h in client.search(
                            q.text, session=q.session, k=DEPTH, mode=mode, min_score=0.0
                        )
                    ]
                    for mode in ("text", "vector")
                ]
                out[q.qid] = Candidates(*signals)
    return out


def fused_ranker(
    candidates: dict[str, Candidates], weights: tuple[float, float]
) -> Callable[[Question], list[str]]:
    """Rank with the daemon's ``fuse`` at ``weights`` (words, meaning), as hybrid search does
    once the index is settled: top ``candidate_depth`` of each signal, hits under the
    default ``min_score`` dropped. ``(1, 0)`` is ``mode="text"``, ``(0, 1)`` ``"vector"``."""

    def rank(q: Question) -> list[str]:
        c = candidates[q.qid]
        hits = fuse(c.words, above_background(c.meaning, DEPTH), weights)
        return distinct_ids(h for h in hits if h.score >= _MIN_SCORE)[: max(KS)]

    return rank


THRESHOLDS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.4)


def threshold_rows(daemon: DaemonProcess, conversations: list[Conversation]) -> list[list[str]]:
    """What ``min_score`` keeps: each question searched (top 10, ``min_score=0``) in its own
    conversation, where a hit holding an evidence turn is relevant, and in the next one,
    where nothing answers it; then counted at each threshold."""
    own: list[tuple[float, bool]] = []  # (score, relevant) of every top-10 hit
    other: list[list[float]] = []  # the scores of each search of another conversation
    with daemon.client() as client:
        for i, conv in enumerate(conversations):
            elsewhere = conversations[(i + 1) % len(conversations)].session
            for q in conv.questions:
                for hit in client.search(q.text, session=q.session, k=10, min_score=0.0):
                    own.append((hit.score, bool(q.evidence.intersection(hit.message_ids))))
                hits = client.search(q.text, session=elsewhere, k=10, min_score=0.0)
                other.append([hit.score for hit in hits])
    relevant = sum(r for _, r in own) or 1
    rows = []
    for cut in THRESHOLDS:
        kept = [r for score, r in own if score >= cut]
        answered = [sum(score >= cut for score in scores) for scores in other]
        rows.append(
            [
                f"{cut:.2f}",
                f"{sum(kept) / max(1, len(kept)):.3f}",
                f"{sum(kept) / relevant:.3f}",
                f"{sum(n == 0 for n in answered) / max(1, len(answered)):.2f}",
                f"{sum(answered) / max(1, len(answered)):.1f}",
            ]
        )
    return rows
