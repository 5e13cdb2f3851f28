"""The log's messages behind a summary: looked up by session and id, sources read from MEMORY.md."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from reverie.store import fact_sources
from reverie.store.files.message_text import search_message_text
from reverie.store.files.provenance import covered_messages
from reverie.store.files.schema import migrate
from reverie.store.files.term_counts import fresh_counts

from .messages import append_texts


@pytest.fixture
def conn(tmp_path: Path) -> apsw.Connection:
    connection = apsw.Connection(str(tmp_path / "t.sqlite3"))
    migrate(connection)
    return connection


def test_covered_messages_are_the_named_ones_still_in_the_log_in_the_order_named(
    conn: apsw.Connection,
) -> None:
    append_texts(conn, "a", "one", "two", "three")  # ids a-0, a-1, a-2 at ts 0, 1, 2
    append_texts(conn, "b", "other")
    named = [("a", "a-2"), ("b", "a-0"), ("a", "a-0"), ("a", "gone"), ("b", "b-0")]
    found = covered_messages(conn, named)
    assert [uid for _, uid in found] == ["m:a:3", "m:a:1", "m:b:1"]
    assert [uid for _, uid in covered_messages(conn, named, since=1.0)] == ["m:a:3"]
    assert [uid for _, uid in covered_messages(conn, named, until=1.0)] == ["m:a:1", "m:b:1"]
    assert covered_messages(conn, []) == []


def test_words_ranked_among_given_log_positions_only(conn: apsw.Connection) -> None:
    append_texts(conn, "a", "Lisbon in May.", "More about Lisbon.", "Lisbon again, Lisbon!")
    found = covered_messages(conn, [("a", "a-0"), ("a", "a-1")])
    hits = search_message_text(
        conn, "Lisbon", fresh_counts(), among=[gid for gid, _ in found], limit=10
    )
    assert sorted(h.uid for h in hits) == ["m:a:1", "m:a:2"]
    assert search_message_text(conn, "Lisbon", fresh_counts(), among=[], limit=10) == []


def test_fact_sources_are_read_from_the_fact_whose_doc_text_matches() -> None:
    memory = (
        "# Memory\n\n"
        '- [2026-05-01] Ana lived in Lisbon. <!-- from {"s:1":["m1","m2"],"s:2":["x"]} -->\n'
        "- Prefers tea\n"
    )
    assert fact_sources(memory, "[2026-05-01] Ana lived in Lisbon.") == [
        ("s:1", "m1"),
        ("s:1", "m2"),
        ("s:2", "x"),
    ]
    assert fact_sources(memory, "Prefers tea") == []  # a hand-written fact has no sources
    assert fact_sources(memory, "Ana lived in Lisbon.") == []  # edited since: no match
