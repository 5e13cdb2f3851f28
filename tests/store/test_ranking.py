"""Ranking: how hits from several signals fuse, and where an episode goes among its messages."""

from __future__ import annotations

import pytest

from reverie.store import SearchHit, above_background, fuse, meaning_score, specific_first


def _uids(hits: list[SearchHit]) -> list[str]:
    return [h.uid for h in hits]


def _hit(uid: str, score: float) -> SearchHit:
    return SearchHit(
        uid=uid, kind="fact", text=uid, score=score, scope="s", session="", ts=0.0,
        message_ids=[], source="",
    )  # fmt: skip


def test_fusion_adds_the_signals_on_their_scales_and_breaks_ties_by_uid() -> None:
    by_meaning = [_hit("a", 0.9), _hit("b", 0.6), _hit("c", 0.1)]
    by_words = [_hit("c", 0.9), _hit("b", 0.4), _hit("d", 0.2)]
    fused = fuse(by_words, by_meaning, (1.0, 1.0))
    assert _uids(fused) == ["b", "c", "a", "d"]  # b and c tie at 0.5: the smaller uid first
    assert [h.score for h in fused] == pytest.approx([0.5, 0.5, 0.45, 0.1])
    assert [(h.words, h.meaning) for h in fused][:2] == [(0.4, 0.6), (0.9, 0.1)]
    assert _uids(fuse(by_words, by_meaning, (1.0, 0.2)))[0] == "c"
    assert fuse(by_words, by_meaning, (1.0, 0.0))[0].score == pytest.approx(0.9)
    assert fuse([], [], (1.0, 1.0)) == []


def test_a_search_whose_words_match_nothing_scores_only_its_meaning_share() -> None:
    """Not min-max: the nearest meaning of an unrelated search is not promoted to 1."""
    only_meaning = fuse([], [_hit("a", 0.3)], (1.0, 0.7))
    assert only_meaning[0].score == pytest.approx(0.3 * 0.7 / 1.7)
    assert meaning_score(-0.2) == 0.0 and meaning_score(1.0) == 1.0


def test_meaning_is_measured_from_the_farthest_of_a_full_candidate_list() -> None:
    """A search that filled its depth has a background: its farthest candidate scores 0,
    the others how far they stand above it, never more than their absolute meaning."""
    nearest = [_hit("a", 0.6), _hit("b", 0.4), _hit("c", 0.3)]
    lifted = above_background(nearest, 3)
    assert _uids(lifted) == ["a", "b", "c"]
    assert [h.score for h in lifted] == pytest.approx([0.3 / 0.7, 0.1 / 0.7, 0.0])
    assert all(low.score <= high.score for low, high in zip(lifted, nearest, strict=True))
    assert [h.score for h in above_background([_hit("a", 1.0), _hit("b", 1.0)], 2)] == [0, 0]


def test_a_search_that_saw_every_candidate_keeps_the_absolute_meaning() -> None:
    """Fewer hits than the depth: every doc was a candidate, there is no background (a
    session of one message is still found by its meaning)."""
    assert above_background([_hit("a", 0.3)], 50) == [_hit("a", 0.3)]


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
