"""The log's messages behind a summary on every engine: looked up by session and id, in order."""

from __future__ import annotations

from .engine import Engine


def test_covered_messages_are_the_named_ones_still_in_the_log_in_the_order_named(
    engine: Engine,
) -> None:
    engine.append_texts("a", "one", "two", "three")  # ids a-0, a-1, a-2 at ts 0, 1, 2
    engine.append_texts("b", "other")
    named = [("a", "a-2"), ("b", "a-0"), ("a", "a-0"), ("a", "gone"), ("b", "b-0")]
    tx = engine.tx
    assert [uid for _, uid in tx.covered_messages(named)] == ["m:a:3", "m:a:1", "m:b:1"]
    assert [uid for _, uid in tx.covered_messages(named, since=1.0)] == ["m:a:3"]
    assert [uid for _, uid in tx.covered_messages(named, until=1.0)] == ["m:a:1", "m:b:1"]
    assert tx.covered_messages([]) == []


def test_words_ranked_among_given_log_positions_only(engine: Engine) -> None:
    engine.append_texts("a", "Lisbon in May.", "More about Lisbon.", "Lisbon again, Lisbon!")
    gids = [gid for gid, _ in engine.tx.covered_messages([("a", "a-0"), ("a", "a-1")])]
    hits = engine.tx.search_message_text("Lisbon", among=gids, limit=10)
    assert sorted(h.uid for h in hits) == ["m:a:1", "m:a:2"]
    assert engine.tx.search_message_text("Lisbon", among=[], limit=10) == []
