"""The message log's full-text index in SQLite: kept by the append's commit, gone with a delete."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from reverie.store import SearchHit
from reverie.store.base.term_counts import TermCounts
from reverie.store.files.journal import delete_session
from reverie.store.files.message_text import (
    count_messages,
    fts_match,
    logged_messages,
    search_message_text,
    with_log_text,
    words_reference,
)
from reverie.store.files.schema import migrate
from reverie.store.files.term_counts import fresh_counts

from .messages import append_texts


@pytest.fixture
def conn(tmp_path: Path) -> apsw.Connection:
    connection = apsw.Connection(str(tmp_path / "t.sqlite3"))
    migrate(connection)
    return connection


@pytest.fixture
def counts() -> TermCounts:
    return fresh_counts()


def _ids(hits: list) -> list[str]:
    return [h.message_ids[0] for h in hits]


def test_appended_message_is_found_by_stemmed_words(
    conn: apsw.Connection, counts: TermCounts
) -> None:
    append_texts(conn, "a", "We moved to Lisbon last spring.", "The weather was lovely.")
    hits = search_message_text(conn, "when did they move to lisbon", counts, session="a")
    assert [h.text for h in hits] == ["We moved to Lisbon last spring.", "The weather was lovely."]
    assert hits[0].score > hits[1].score  # the second has the words only as its context
    assert hits[0].uid == "m:a:1" and hits[0].scope == "session/a" and hits[0].score > 0


def test_a_reply_is_found_by_the_words_of_the_message_it_answers(
    conn: apsw.Connection, counts: TermCounts
) -> None:
    append_texts(
        conn, "a", "Did you adopt the greyhound?", "Yes, last Friday!", "Unrelated chatter."
    )
    texts = [h.text for h in search_message_text(conn, "greyhound adopted", counts, session="a")]
    assert texts[0] == "Did you adopt the greyhound?" and "Yes, last Friday!" in texts
    assert "Unrelated chatter." in [
        h.text for h in search_message_text(conn, "greyhound", counts, session="a", limit=5)
    ]  # the next two messages carry it as context


def test_filters_hold_and_deleted_messages_leave_the_index(
    conn: apsw.Connection, counts: TermCounts
) -> None:
    append_texts(conn, "a", "quokka sighting on the island")
    append_texts(conn, "b", "quokka photo album", scope="shared")
    assert {h.session for h in search_message_text(conn, "quokka", counts, scope="shared")} == {"b"}
    assert _ids(search_message_text(conn, "quokka", counts, session="a", until=0.5)) != []
    assert search_message_text(conn, "quokka", counts, session="a", since=0.5) == []
    assert count_messages(conn, after_gid=0) == 2 and count_messages(conn, after_gid=1) == 1
    assert logged_messages(conn, scope="shared", session=None) == 1
    with conn:
        delete_session(conn, "a")
    assert {h.session for h in search_message_text(conn, "quokka", counts)} == {"b"}
    assert count_messages(conn, after_gid=0, session="a") == 0


@pytest.mark.parametrize(
    "query",
    ['Lisbon" OR 1=1; --', "NEAR(a b)", "body:secret", "*", "^x", "'); DROP TABLE messages; --"],
)
def test_fts_operators_in_a_query_are_plain_words(
    conn: apsw.Connection, query: str, counts: TermCounts
) -> None:
    append_texts(conn, "a", "Lisbon body secret drop table messages")
    search_message_text(conn, query, counts)  # never an FTS5 syntax error
    assert all(part.startswith('"') for part in fts_match(query).split(" OR ") if part)


def test_stop_words_are_dropped_unless_nothing_else_is_left() -> None:
    assert fts_match("what is the capital of France") == '"capital" OR "france"'
    assert fts_match("who is he") == '"who" OR "is" OR "he"'
    assert fts_match("?!") == ""


def test_session_filter_holds_for_any_session_name(
    conn: apsw.Connection, counts: TermCounts
) -> None:
    names = ['o\'brien "x" é', "tg:123", "tg:1234", "a b", "Élan"]
    for name in names:
        append_texts(conn, name, f"kiwi note of {name}")
    for name in names:
        hits = search_message_text(conn, "kiwi note", counts, session=name, limit=10)
        assert [h.session for h in hits] == [name]


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


def test_words_scale_gives_a_full_match_one_whatever_the_corpus(
    conn: apsw.Connection, counts: TermCounts
) -> None:
    """BM25 over the query's reference: 1 for each query word once at average length, in a
    corpus of 12 messages as after deleting half of it (the IDFs change, the scale does not)."""
    words = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "ivory"]
    for i in range(12):
        append_texts(conn, f"s{i}", " ".join(words[(i + j) % 9] for j in range(4)))
    append_texts(conn, "hit", "lisbon conference tram ticket")
    for deleted in ([], [f"s{i}" for i in range(6)]):
        with conn:
            for session in deleted:
                delete_session(conn, session)
        (best, *_) = search_message_text(conn, "the Lisbon conferences", counts)
        assert best.text == "lisbon conference tram ticket"
        assert best.score / words_reference(
            conn, "the Lisbon conferences", counts
        ) == pytest.approx(1.0)
        half = search_message_text(conn, "lisbon zeppelin", counts)[0].score
        assert (
            half / words_reference(conn, "lisbon zeppelin", counts) < 0.5
        )  # one of two words, the rarer missing
    assert words_reference(conn, "!!!", counts) == 0.0


def _hit(uid: str, kind: str, session: str, message_id: str) -> SearchHit:
    """A hit as the vector index returns it: a message's without its text."""
    return SearchHit(
        uid=uid,
        kind=kind,  # type: ignore[arg-type]
        text="" if kind == "message" else "an episode's summary",
        score=0.5,
        scope=f"session/{session}",
        session=session,
        ts=0.0,
        message_ids=[message_id],
        source="index",
    )


def test_message_hits_take_their_text_from_the_log_and_gone_messages_drop_out(
    conn: apsw.Connection,
) -> None:
    append_texts(conn, "a", "We moved to Lisbon last spring.")
    append_texts(conn, "b", "Forget me.")
    with conn:
        delete_session(conn, "b")
    hits = [
        _hit("m:b:1", "message", "b", "b-0"),
        _hit("e:1", "episode", "a", "a-0"),
        _hit("m:a:1", "message", "a", "a-0"),
    ]
    found = with_log_text(conn, hits)
    assert [(h.uid, h.text) for h in found] == [
        ("e:1", "an episode's summary"),
        ("m:a:1", "We moved to Lisbon last spring."),
    ]
