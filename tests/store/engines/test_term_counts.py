"""``TermCounts`` on every engine: messages holding each word, counted again once the index drifts.

The cache is one class (store/base/term_counts.py); each engine counts the
rows of its own words index (``count_words``, ``indexed_rows``).
"""

from __future__ import annotations

import pytest

from .engine import Engine


@pytest.fixture
def amber(engine: Engine) -> Engine:
    engine.append_texts("a", *[f"amber note {i}" for i in range(200)])
    return engine


def test_a_count_stands_until_the_rows_move_past_the_drift(amber: Engine) -> None:
    e = amber
    counts = e.term_counts.fresh_counts(drift=0.01)  # 2 of the 200 rows
    assert counts.counts(e.conn, ["amber"]) == {"amber": 200}
    e.append_texts("b", "amber", "amber")
    assert counts.counts(e.conn, ["amber"]) == {"amber": 200}
    e.append_texts("b", "amber")
    assert counts.counts(e.conn, ["amber"]) == {"amber": 203}
    assert counts.counts(e.conn, ["amber"], fresh=True) == {"amber": 203}


def test_a_forget_past_the_drift_is_counted_too(amber: Engine) -> None:
    e = amber
    counts = e.term_counts.fresh_counts()
    e.append_texts("b", *["amber"] * 50)
    assert counts.counts(e.conn, ["amber"]) == {"amber": 250}
    assert e.term_counts.indexed_rows(e.conn) == 250
    e.journal.delete_session(e.conn, "b")
    e.commit()
    assert counts.counts(e.conn, ["amber"]) == {"amber": 200}
    assert e.term_counts.indexed_rows(e.conn) == 200


def test_fresh_counts_again_whatever_the_drift(amber: Engine) -> None:
    e = amber
    counts = e.term_counts.fresh_counts()
    counts.counts(e.conn, ["amber"])
    e.append_texts("b", "amber")
    assert counts.counts(e.conn, ["amber"], fresh=True) == {"amber": 201}


def test_the_least_recently_used_word_leaves_past_the_capacity(amber: Engine) -> None:
    e = amber
    counts = e.term_counts.fresh_counts(capacity=2, drift=100.0)  # only a dropped word is recounted
    e.append_texts("b", "basil", "cedar")
    counts.counts(e.conn, ["amber", "basil"])
    counts.counts(e.conn, ["amber"])
    counts.counts(e.conn, ["cedar"])  # drops basil, used longest ago
    e.append_texts("c", "amber basil")
    assert counts.counts(e.conn, ["amber", "basil"]) == {"amber": 200, "basil": 3}  # one as context


def test_a_word_the_tokenizer_cuts_counts_messages_holding_it_as_a_phrase(amber: Engine) -> None:
    e = amber
    e.append_texts("b", "deploy_rollback")
    e.append_texts("c", "rollback of the deploy")
    e.append_texts("d", "deploy rollback")
    e.append_texts("e", "rollback then", "we deploy")  # body then context: no phrase
    words = ["deploy_rollback", "notes", "___"]
    counted = e.term_counts.fresh_counts().counts(e.conn, words)
    assert counted == {"deploy_rollback": 2, "notes": 200, "___": 0}
    found = e.message_text.search_message_text(
        e.conn, "deploy_rollback", e.term_counts.fresh_counts(), limit=10
    )
    assert sorted(h.uid for h in found) == ["m:b:1", "m:d:1"]
