"""Parity: one log written to both engines gives the same word hits, in the same order, with
the same BM25 scores and reference (so the same calibrated ``words`` score); where the
stemmers differ, the test says how."""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import apsw
import psycopg
import pytest

from reverie.store import NewMessage, SessionRecord
from reverie.store.files import message_text as sqlite_words
from reverie.store.files.journal import append_requests
from reverie.store.files.schema import migrate as sqlite_migrate
from reverie.store.files.term_counts import fresh_counts as sqlite_fresh_counts
from reverie.store.postgres.message_text import search_message_text, words_reference
from reverie.store.postgres.term_counts import fresh_counts
from tests.store.messages import append_texts as sqlite_append
from tests.store.postgres.texts import append_texts, ranked, words_store


@pytest.fixture
def conn(pg_url: str) -> Iterator[psycopg.Connection[Any]]:
    connection = words_store(pg_url)
    yield connection
    connection.close()


#: Sessions of a small log: stems, accents, case, numbers, identifiers, replies.
_CORPUS = {
    "trip": (
        "We moved to Lisbon last spring, after the café in Zürich closed.",
        "Moving again? You said the São Paulo office was naïve about rents.",
        "Yes, in 2024: the École Polytechnique offer fell through.",
        "The ferry to Cacilhas runs every 20 minutes; tickets cost 1.50 EUR.",
        "I adopted a greyhound named Pixel in the 1990s style of naming.",
        "Pixel runs faster than any dog at the beach.",
        "Running on the beach at dawn is the best part of moving here.",
        "CAFÉ CULTURE here is different: bicas, not espressos.",
    ),
    "work": (
        "The deploy_rollback script failed on v2 of the billing service.",
        "Roll back the deploy and page Ana before 9am.",
        "Billing incident #4312: deploy rolled back, customers refunded.",
        "Ana's post-mortem says the migration locked the invoices table.",
        "We deployed the fix at 14:05 and the invoices unlocked.",
        "The on-call rota moves to Priya next week.",
        "Priya prefers Zurich-based vendors for the billing audit.",
        "Audit notes: 3.5% of invoices were delayed, none lost.",
        "Next sprint: rate limits for the billing API, then the audit.",
    ),
    "home": (
        "Grandma's recipe: cardamom buns with orange zest.",
        "The buns need 45 minutes to rise in a warm kitchen.",
        "Bake at 200 degrees; the crust should be golden.",
        "",  # a bare tool call: a row of the index all the same (N and avgdl count it)
        "We ate the buns on the ferry; Pixel wanted one too.",
        "Her naive watercolours hang in the kitchen above the oven.",
        "The oven's thermostat is broken again, call the landlord.",
        "The landlord says a new oven arrives on Friday.",
        "Buns, buns and more buns: the oven works, the buns rise, Friday is saved.",
    ),
    "chat": tuple(
        f"note {i}: {word} and the weather, {i * 7} km of walking"
        for i, word in enumerate(
            ("rain", "sun", "wind", "fog", "snow", "rain", "heat", "storm", "sun", "rain") * 3
        )
    ),
}
_PARITY_QUERIES = (
    "when did they move to Lisbon",
    "cafe Zurich",
    "naïve naive",
    "greyhound adoption",
    "deploy_rollback",
    "rolled back deploys",
    "billing audit invoices",
    "1990s",
    "2024 offer",
    "3.5 invoices",
    "oven landlord Friday",
    "buns rising",
    "rain walking",
    "the weather",
    "Pixel runs on the beach",
    "Ana's post-mortem",
    "Priya Priya rota",
    "zeppelin",
)


@pytest.fixture
def both(conn: psycopg.Connection[Any], tmp_path: Path) -> apsw.Connection:
    """``conn`` and the SQLite store returned, each holding ``_CORPUS`` (the same gids)."""
    lite = apsw.Connection(str(tmp_path / "t.sqlite3"))
    sqlite_migrate(lite)
    for session, texts in _CORPUS.items():
        scope = "shared" if session in ("work", "home") else None
        sqlite_append(lite, session, *texts, scope=scope)
        append_texts(conn, session, *texts, scope=scope)
    return lite


@pytest.mark.parametrize(
    "filters", [{}, {"session": "work"}, {"scope": "shared"}, {"since": 2.0, "until": 6.0}]
)
def test_both_engines_find_and_score_the_same_messages(
    conn: psycopg.Connection[Any], both: apsw.Connection, filters: dict[str, Any]
) -> None:
    """Every query's hits in the same order with the same scores (to 9 decimals), and the
    same reference: the calibrated ``words`` score is the same on both engines."""
    for query in _PARITY_QUERIES:
        lite_counts, pg_counts = sqlite_fresh_counts(), fresh_counts()
        lite = sqlite_words.search_message_text(both, query, lite_counts, limit=200, **filters)
        found = search_message_text(conn, query, pg_counts, limit=200, **filters)
        assert ranked(found) == ranked(lite), query
        assert [h.uid for h in found[:3]] == [h.uid for h in lite[:3]], query
        assert words_reference(conn, query, pg_counts) == pytest.approx(
            sqlite_words.words_reference(both, query, lite_counts), rel=1e-12
        ), query
        assert lite or filters or query == "zeppelin"  # each query finds something unfiltered


def test_a_two_letter_word_is_kept_as_fts5_keeps_it(
    conn: psycopg.Connection[Any], both: apsw.Connection
) -> None:
    """FTS5's porter leaves words under three letters alone, Snowball's cuts "us" to "u":
    the cut has Snowball keep them: "us" matches "used" (both "us"), not "u"."""
    for append in (partial(sqlite_append, both), partial(append_texts, conn)):
        append("slang", "u coming tonight?", "tell us when", "the car we used", "AS IS")
    for query in ("us", "u", "used", "as is"):
        lite = sqlite_words.search_message_text(both, query, sqlite_fresh_counts())
        found = search_message_text(conn, query, fresh_counts())
        assert ranked(found) == ranked(lite) and found, query


def test_where_the_stemmers_differ_ly_and_logy_words_stay_apart_on_postgres(
    conn: psycopg.Connection[Any], both: apsw.Connection
) -> None:
    """FTS5's porter has the later rules "bli" -> "ble" and "logi" -> "log", Snowball's
    (the 1980 paper's) not: "possibly" finds "possible" on SQLite only. On LoCoMo's 4,074
    word types, 8 more stem apart this way (psychology, apology, incredibly, ...)."""
    for append in (partial(sqlite_append, both), partial(append_texts, conn)):
        append("words", "that is possible", "possibly later")
    lite = sqlite_words.search_message_text(both, "possibly", sqlite_fresh_counts())
    found = search_message_text(conn, "possibly", fresh_counts())
    assert {h.uid for h in lite} == {"m:words:1", "m:words:2"}
    assert {h.uid for h in found} == {"m:words:2"}


def test_a_name_counts_in_its_message_body_and_not_in_the_next_ones_context(
    conn: psycopg.Connection[Any], both: apsw.Connection
) -> None:
    """FTS5 indexes ``content || ' ' || name`` as the body, and the contents alone as the
    next messages' context: the same hits and scores here."""
    rows = [("t-0", "tool", "sunny and warm", "get_weather"), ("t-1", "user", "It is sunny", None)]
    record = SessionRecord(name="tools", scope="session/tools", created=0.0)
    with both:
        append_requests(
            both,
            record,
            [
                [
                    NewMessage(id=i, role=r, content=c, name=n, ts=0.0, tokens=1)
                    for i, r, c, n in rows
                ]
            ],
        )
    conn.execute(
        "INSERT INTO sessions (name, scope, created, last_seq, last_active)"
        " VALUES ('tools', 'session/tools', 0, 2, 0)"
    )
    for seq, (mid, role, content, name) in enumerate(rows, start=1):
        conn.execute(
            "INSERT INTO messages (session, seq, id, role, content, name, ts, tokens)"
            " VALUES ('tools', %s, %s, %s, %s, %s, 0, 1)",
            (seq, mid, role, content, name),
        )
    conn.commit()
    for query in ("weather", "get_weather", "warm get", "sunny weather"):
        lite = sqlite_words.search_message_text(both, query, sqlite_fresh_counts())
        found = search_message_text(conn, query, fresh_counts())
        assert ranked(found) == ranked(lite) and found, query
    assert [h.uid for h in search_message_text(conn, "get_weather", fresh_counts())] == [
        "m:tools:1"
    ]
