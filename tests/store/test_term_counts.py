"""``TermCounts``: messages holding each word, counted again once the index drifts."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from reverie.store.files.journal import delete_session
from reverie.store.files.schema import migrate
from reverie.store.files.term_counts import fresh_counts

from .messages import append_texts


@pytest.fixture
def conn(tmp_path: Path) -> apsw.Connection:
    connection = apsw.Connection(str(tmp_path / "t.sqlite3"))
    migrate(connection)
    append_texts(connection, "a", *[f"amber note {i}" for i in range(200)])
    return connection


def test_a_count_stands_until_the_rows_move_past_the_drift(conn: apsw.Connection) -> None:
    counts = fresh_counts(drift=0.01)  # 2 of the 200 rows
    assert counts.counts(conn, ["amber"]) == {"amber": 200}
    append_texts(conn, "b", "amber", "amber")
    assert counts.counts(conn, ["amber"]) == {"amber": 200}
    append_texts(conn, "b", "amber")
    assert counts.counts(conn, ["amber"]) == {"amber": 203}


def test_a_forget_past_the_drift_is_counted_too(conn: apsw.Connection) -> None:
    counts = fresh_counts()
    append_texts(conn, "b", *["amber"] * 50)
    assert counts.counts(conn, ["amber"]) == {"amber": 250}
    with conn:
        delete_session(conn, "b")
    assert counts.counts(conn, ["amber"]) == {"amber": 200}


def test_fresh_counts_again_whatever_the_drift(conn: apsw.Connection) -> None:
    counts = fresh_counts()
    counts.counts(conn, ["amber"])
    append_texts(conn, "b", "amber")
    assert counts.counts(conn, ["amber"], fresh=True) == {"amber": 201}


def test_the_least_recently_used_word_leaves_past_the_capacity(conn: apsw.Connection) -> None:
    counts = fresh_counts(capacity=2, drift=100.0)  # never stale: only a dropped word is recounted
    append_texts(conn, "b", "basil", "cedar")
    counts.counts(conn, ["amber", "basil"])
    counts.counts(conn, ["amber"])
    counts.counts(conn, ["cedar"])  # drops basil, used longest ago
    append_texts(conn, "c", "amber basil")
    assert counts.counts(conn, ["amber", "basil"]) == {"amber": 200, "basil": 3}  # one as context


def test_a_word_the_tokenizer_cuts_counts_messages_holding_it_as_a_phrase(
    conn: apsw.Connection,
) -> None:
    append_texts(conn, "b", "deploy_rollback")
    append_texts(conn, "c", "rollback of the deploy")
    append_texts(conn, "d", "deploy rollback")
    words = ["deploy_rollback", "notes", "___"]
    assert fresh_counts().counts(conn, words) == {"deploy_rollback": 2, "notes": 200, "___": 0}
