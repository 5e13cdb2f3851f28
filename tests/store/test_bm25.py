"""``reverie_bm25``: FTS5's ``bm25()`` score from document counts the search already has."""

from __future__ import annotations

import random
import re
from pathlib import Path

import apsw
import pytest

from reverie.store.base.term_counts import TermCounts
from reverie.store.bm25 import idf
from reverie.store.files.bm25 import FUNCTION, registered
from reverie.store.files.message_text import fts_match, search_message_text
from reverie.store.files.schema import migrate
from reverie.store.files.term_counts import fresh_counts, indexed_rows

from .messages import append_texts

#: Words from rare to common: a query word's IDF from about 3 down to FTS5's floor ("the").
_VOCABULARY = [
    *("amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "ivory"),
    *("juniper", "kelp", "lantern", "moving", "moved", "deploy_rollback", "of", "quokka"),
    *(f"filler{i}" for i in range(30)),
    *["the"] * 12,
]
_QUERIES = (
    "amber basil",
    "deploy_rollback amber",
    "cedar cedar delta zeppelin",
    "the ember",
    "Basil's fjord grove heron ivory moving",
)
#: Sessions of random sentences, of varied sizes.
_SESSIONS = {f"big{i}": 100 + 30 * i for i in range(8)}
#: A session small enough for the search to rank it in Python, holding the queries' words.
_SMALL = (
    "amber basil deploy_rollback the ember",
    "cedar cedar delta fjord moved",
    "grove heron ivory moving basil amber the of",
)
_FTS5 = (
    "SELECT m.id, -bm25(message_text, 1.0, 0.5, 0.0) FROM message_text"
    " JOIN messages m ON m.gid = message_text.rowid WHERE message_text MATCH ?"
)


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(_VOCABULARY) for _ in range(rng.randint(1, 14)))


@pytest.fixture
def conn(tmp_path: Path) -> apsw.Connection:
    connection = apsw.Connection(str(tmp_path / "t.sqlite3"))
    migrate(connection)
    rng = random.Random(28)
    for session, size in _SESSIONS.items():
        append_texts(connection, session, *[_sentence(rng) for _ in range(size)])
    append_texts(connection, "small", *_SMALL)
    return connection


def _fts5_scores(conn: apsw.Connection, query: str, session: str | None) -> dict[str, float]:
    """Each matching message's ``-bm25()``, FTS5's own count of every phrase."""
    return dict(conn.execute(_FTS5, (fts_match(query, session),)))


def _searched(
    conn: apsw.Connection, counts: TermCounts, query: str, session: str | None
) -> dict[str, float]:
    hits = search_message_text(conn, query, counts, session=session, limit=10_000)
    return {h.message_ids[0]: h.score for h in hits}


@pytest.mark.parametrize("query", _QUERIES)
@pytest.mark.parametrize("session", [None, "big3", "small"])
def test_reverie_bm25_scores_every_row_as_fts5_bm25(
    conn: apsw.Connection, query: str, session: str | None
) -> None:
    """Fed IDFs of fresh counts, one per phrase of the match in its order (the session's
    token included), the function gives ``-bm25()`` for every matching row."""
    match = fts_match(query, session)
    phrases = re.findall(r'"([^"]*)"', match)
    docs = fresh_counts().counts(conn, phrases)
    idfs = tuple(idf(indexed_rows(conn), docs[phrase]) for phrase in phrases)
    rows = (
        registered(conn)
        .execute(
            f"SELECT -bm25(message_text, 1.0, 0.5, 0.0), {FUNCTION}(message_text, ?, 1.0, 0.5, 0.0)"
            " FROM message_text WHERE message_text MATCH ?",
            (apsw.pyobject(idfs), match),
        )
        .fetchall()
    )
    assert len(rows) > 1
    for expected, computed in rows:
        assert computed == pytest.approx(expected, abs=1e-9, rel=0)


@pytest.mark.parametrize("query", _QUERIES)
@pytest.mark.parametrize("session", [None, "big3", "small"])
def test_search_scores_are_fts5_bm25_with_fresh_counts(
    conn: apsw.Connection, query: str, session: str | None
) -> None:
    expected = _fts5_scores(conn, query, session)
    found = _searched(conn, fresh_counts(), query, session)
    assert found.keys() == expected.keys() and found
    assert found == pytest.approx(expected, abs=1e-9, rel=0)


def test_a_session_search_ranks_with_the_cached_counts_until_they_drift(
    conn: apsw.Connection,
) -> None:
    """Appends within the bound (1 % of the rows) leave the words' counts as they were, so
    a small session's scores drift from ``bm25()``'s; past it the words are counted again."""
    counts = fresh_counts()
    query = "amber basil ember"
    _searched(conn, counts, query, "small")
    bound = int(indexed_rows(conn) * counts.drift)
    append_texts(conn, "other", *[query] * bound)
    stale = _searched(conn, counts, query, "small")
    assert stale.keys() == _fts5_scores(conn, query, "small").keys()
    assert stale != pytest.approx(_fts5_scores(conn, query, "small"), abs=1e-6, rel=0)
    append_texts(conn, "other", query)
    fresh = _fts5_scores(conn, query, "small")
    assert _searched(conn, counts, query, "small") == pytest.approx(fresh, abs=1e-9, rel=0)
