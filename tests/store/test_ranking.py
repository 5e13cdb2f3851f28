"""Ranking: how hits from several signals fuse, and where an episode goes among its messages."""

from __future__ import annotations

import pytest

from reverie.store import SearchHit, specific_first, weighted_fusion


def _uids(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


def _hit(uid: str, score: float) -> SearchHit:
    return SearchHit(
        uid=uid, kind="fact", text=uid, score=score, scope="s", session="", ts=0.0,
        message_ids=[], source="",
    )  # fmt: skip


def test_fusion_weighs_normalised_scores_and_breaks_ties_by_uid() -> None:
    by_meaning = [_hit("a", 0.9), _hit("b", 0.6), _hit("c", 0.1)]
    by_words = [_hit("c", 30.0), _hit("b", 20.0), _hit("d", 10.0)]
    fused = weighted_fusion([(by_meaning, 1.0), (by_words, 1.0)], limit=4)
    assert _uids(fused) == ["b", "a", "c", "d"]  # a and c tie at 1 + 0: the smaller uid first
    assert [h.score for h in fused] == pytest.approx([0.5625, 0.5, 0.5, 0.0])
    heavy_words = weighted_fusion([(by_meaning, 0.2), (by_words, 1.0)], limit=4)
    assert _uids(heavy_words)[0] == "c"
    assert weighted_fusion([(by_meaning, 0.0), (by_words, 1.0)], limit=1)[0].score == 1.0
    assert weighted_fusion([([], 1.0)], limit=3) == []


def test_an_episode_waits_for_the_messages_it_covers() -> None:
    def hit(uid: str, kind: str, ids: list[str]) -> SearchHit:
        return SearchHit(
            uid=uid, kind=kind, text=uid, score=1.0, scope="s", session="x", ts=0.0,
            message_ids=ids, source="",
        )  # fmt: skip

    ranked = [
        hit("e1", "episode", ["a", "b", "z"]),
        hit("f1", "fact", []),
        hit("m:b", "message", ["b"]),
        hit("e2", "episode", ["q"]),
        hit("m:a", "message", ["a"]),
        hit("m:c", "message", ["c"]),
    ]
    assert _uids(specific_first(ranked)) == ["f1", "m:b", "e2", "m:a", "e1", "m:c"]
    assert _uids(specific_first(ranked[:2])) == ["e1", "f1"]  # nothing of it found: stays
