"""The file engine's words of the log in FTS5: its match expression, and a forget's bytes.

What every engine's words do is in tests/store/engines/test_message_text.py.
"""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from reverie.store.base.term_counts import TermCounts
from reverie.store.files.journal import delete_session
from reverie.store.files.message_text import fts_match, search_message_text
from reverie.store.files.schema import migrate
from reverie.store.files.term_counts import fresh_counts

from .messages import append_texts


@pytest.fixture
def counts() -> TermCounts:
    return fresh_counts()


@pytest.mark.parametrize(
    "query",
    ['Lisbon" OR 1=1; --', "NEAR(a b)", "body:secret", "*", "^x", "'); DROP TABLE messages; --"],
)
def test_fts_operators_in_a_query_are_quoted_as_plain_words(query: str) -> None:
    assert all(part.startswith('"') for part in fts_match(query).split(" OR ") if part)


def test_stop_words_are_dropped_unless_nothing_else_is_left() -> None:
    assert fts_match("what is the capital of France") == '"capital" OR "france"'
    assert fts_match("who is he") == '"who" OR "is" OR "he"'
    assert fts_match("?!") == ""


def test_a_deleted_sessions_words_leave_the_database_file(
    tmp_path: Path, counts: TermCounts
) -> None:
    path = tmp_path / "words.sqlite3"
    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA secure_delete=ON")
    migrate(conn)
    append_texts(conn, "keep", *[f"ordinary words {i}" for i in range(300)])
    append_texts(conn, "gone", "my locker code is zqxvwunicorn")
    append_texts(conn, "keep", *[f"more words {i}" for i in range(300)])
    with conn:
        delete_session(conn, "gone")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    assert all(b"zqxvwunicorn" not in f.read_bytes() for f in tmp_path.iterdir())
    assert search_message_text(conn, "zqxvwunicorn locker", counts) == []
    assert len(search_message_text(conn, "ordinary", counts, limit=500)) >= 300
