"""The log's words on Postgres: found as the SQLite engine finds them, scored as FTS5's BM25."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from reverie.daemon import Client
from reverie.store import SearchHit
from reverie.store.base.term_counts import TermCounts
from reverie.store.postgres.message_text import (
    count_messages,
    logged_messages,
    search_message_text,
    vector_gap,
    with_log_text,
    words_reference,
)
from reverie.store.postgres.provenance import covered_messages
from reverie.store.postgres.term_counts import fresh_counts, indexed_rows
from tests.daemon_process import DaemonProcess

from ..test_message_text import _hit
from .texts import append_texts, delete_session, ranked, words_store


@pytest.fixture
def conn(pg_url: str) -> Iterator[psycopg.Connection[Any]]:
    connection = words_store(pg_url)
    yield connection
    connection.close()


@pytest.fixture
def counts() -> TermCounts:
    return fresh_counts()


def _texts(hits: list[SearchHit]) -> list[str]:
    return [h.text for h in hits]


def test_a_daemon_on_a_fresh_log_reads_each_rows_context_by_the_index(
    pg_url: str, tmp_path: Path
) -> None:
    """The words trigger's plan is kept for the connection's life: the daemon's writer
    made it on an empty log, and a sequential scan chosen then read the whole log for
    every row appended after (817 appends/s where the index gives 2,271)."""
    daemon = DaemonProcess(
        tmp_path, config="[index]\nenabled = false\n", env={"REVERIE_STORE__URL": pg_url}
    ).start()
    try:

        def host(n: int) -> None:
            with Client(daemon.socket) as client:
                for i in range(50):
                    client.append("one", "user", "a line of the log", id=f"{n}-{i}")

        hosts = [threading.Thread(target=host, args=(n,)) for n in range(8)]
        for thread in hosts:
            thread.start()
        for thread in hosts:
            thread.join()
    finally:
        daemon.stop()  # its connections' counts reach the statistics as they close
    with psycopg.connect(pg_url, autocommit=True) as conn:
        found = conn.execute(
            "SELECT seq_scan, idx_scan FROM pg_stat_user_tables WHERE relname = 'messages'"
        ).fetchone()
    assert found is not None
    scans, index_scans = found
    assert index_scans >= 400 and scans < 400, (scans, index_scans)


def test_appended_message_is_found_by_stemmed_words(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    append_texts(conn, "a", "We moved to Lisbon last spring.", "The weather was lovely.")
    hits = search_message_text(conn, "when did they move to lisbon", counts, session="a")
    assert _texts(hits) == ["We moved to Lisbon last spring.", "The weather was lovely."]
    assert hits[0].score > hits[1].score  # the second has the words only as its context
    assert hits[0].uid == "m:a:1" and hits[0].scope == "session/a" and hits[0].score > 0


def test_a_reply_is_found_by_the_words_of_the_message_it_answers(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    append_texts(
        conn, "a", "Did you adopt the greyhound?", "Yes, last Friday!", "Unrelated chatter."
    )
    texts = _texts(search_message_text(conn, "greyhound adopted", counts, session="a"))
    assert texts[0] == "Did you adopt the greyhound?" and "Yes, last Friday!" in texts
    assert "Unrelated chatter." in _texts(
        search_message_text(conn, "greyhound", counts, session="a", limit=5)
    )


def test_filters_hold_and_deleted_messages_leave_the_index(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    append_texts(conn, "a", "quokka sighting on the island")
    append_texts(conn, "b", "quokka photo album", scope="shared")
    assert {h.session for h in search_message_text(conn, "quokka", counts, scope="shared")} == {"b"}
    assert search_message_text(conn, "quokka", counts, session="a", until=0.5) != []
    assert search_message_text(conn, "quokka", counts, session="a", since=0.5) == []
    assert count_messages(conn, after_gid=0) == 2 and count_messages(conn, after_gid=1) == 1
    assert logged_messages(conn, scope="shared", session=None) == 1
    assert vector_gap(conn, scope=None, session=None, since=None, until=None) == (2, 2)
    delete_session(conn, "a")
    assert {h.session for h in search_message_text(conn, "quokka", counts)} == {"b"}
    assert count_messages(conn, after_gid=0, session="a") == 0
    assert conn.execute("SELECT count(*) FROM messages WHERE words @@ 'sight'").fetchone() == (0,)
    conn.execute("INSERT INTO meta (key, value) VALUES ('index.messages_gid', '2')")
    assert vector_gap(conn, scope=None, session=None, since=None, until=None) == (0, 0)


@pytest.mark.parametrize(
    "query",
    ['Lisbon" OR 1=1; --', "NEAR(a b)", "body:secret", "*", "^x", "'); DROP TABLE messages; --"],
)
def test_query_operators_are_plain_words(
    conn: psycopg.Connection[Any], query: str, counts: TermCounts
) -> None:
    append_texts(conn, "a", "Lisbon body secret drop table messages near")
    hits = search_message_text(conn, query, counts)  # never a tsquery syntax error
    assert len(hits) == (0 if query in ("*", "^x") else 1)


def test_session_and_scope_filters_hold_for_any_name(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    """Names are bound values, never SQL or tsquery text: quotes, colons, spaces, accents."""
    names = ['o\'brien "x" é', "tg:123", "tg:1234", "a b", "Élan"]
    for name in names:
        append_texts(conn, name, f"kiwi note of {name}", scope=f"user/{name}")
    for name in names:
        by_session = search_message_text(conn, "kiwi note", counts, session=name, limit=10)
        by_scope = search_message_text(conn, "kiwi note", counts, scope=f"user/{name}")
        assert [h.session for h in by_session] == [h.session for h in by_scope] == [name]


def test_words_scale_gives_a_full_match_one_whatever_the_corpus(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    words = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "ivory"]
    for i in range(12):
        append_texts(conn, f"s{i}", " ".join(words[(i + j) % 9] for j in range(4)))
    append_texts(conn, "hit", "lisbon conference tram ticket")
    for deleted in ([], [f"s{i}" for i in range(6)]):
        for session in deleted:
            delete_session(conn, session)
        fresh = fresh_counts()  # the forget is more than 1 % of the rows: recounted either way
        (best, *_) = search_message_text(conn, "the Lisbon conferences", fresh)
        assert best.text == "lisbon conference tram ticket"
        assert best.score / words_reference(conn, "the Lisbon conferences", fresh) == (
            pytest.approx(1.0)
        )
        half = search_message_text(conn, "lisbon zeppelin", fresh)[0].score
        assert half / words_reference(conn, "lisbon zeppelin", fresh) < 0.5
    assert words_reference(conn, "!!!", counts) == 0.0
    assert search_message_text(conn, "!!!", counts) == []


def test_message_hits_take_their_text_from_the_log_and_gone_messages_drop_out(
    conn: psycopg.Connection[Any],
) -> None:
    append_texts(conn, "a", "We moved to Lisbon last spring.")
    append_texts(conn, "b", "Forget me.")
    delete_session(conn, "b")
    hits = [
        _hit("m:b:1", "message", "b", "b-0"),
        _hit("e:1", "episode", "a", "a-0"),
        _hit("m:a:1", "message", "a", "a-0"),
    ]
    assert [(h.uid, h.text) for h in with_log_text(conn, hits)] == [
        ("e:1", "an episode's summary"),
        ("m:a:1", "We moved to Lisbon last spring."),
    ]
    assert with_log_text(conn, []) == []


def test_covered_messages_are_the_named_ones_still_in_the_log_in_the_order_named(
    conn: psycopg.Connection[Any], counts: TermCounts
) -> None:
    append_texts(conn, "a", "one Lisbon", "two Lisbon", "three Lisbon")
    append_texts(conn, "b", "other")
    named = [("a", "a-2"), ("b", "a-0"), ("a", "a-0"), ("a", "gone"), ("b", "b-0")]
    assert [uid for _, uid in covered_messages(conn, named)] == ["m:a:3", "m:a:1", "m:b:1"]
    assert [uid for _, uid in covered_messages(conn, named, since=1.0)] == ["m:a:3"]
    assert [uid for _, uid in covered_messages(conn, named, until=1.0)] == ["m:a:1", "m:b:1"]
    assert covered_messages(conn, []) == []
    gids = [gid for gid, _ in covered_messages(conn, [("a", "a-0"), ("a", "a-1")])]
    hits = search_message_text(conn, "Lisbon", counts, among=gids, limit=10)
    assert sorted(h.uid for h in hits) == ["m:a:1", "m:a:2"]
    assert search_message_text(conn, "Lisbon", counts, among=[], limit=10) == []


# -- term counts: the SQLite engine's cache over this engine's counts ---------------------


@pytest.fixture
def amber(conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    append_texts(conn, "a", *[f"amber note {i}" for i in range(200)])
    return conn


def test_a_count_stands_until_the_rows_move_past_the_drift(
    amber: psycopg.Connection[Any],
) -> None:
    counts = fresh_counts(drift=0.01)  # 2 of the 200 rows
    assert counts.counts(amber, ["amber"]) == {"amber": 200}
    append_texts(amber, "b", "amber", "amber")
    assert counts.counts(amber, ["amber"]) == {"amber": 200}
    append_texts(amber, "b", "amber")
    assert counts.counts(amber, ["amber"]) == {"amber": 203}
    assert counts.counts(amber, ["amber"], fresh=True) == {"amber": 203}


def test_a_forget_past_the_drift_is_counted_too(amber: psycopg.Connection[Any]) -> None:
    counts = fresh_counts()
    append_texts(amber, "b", *["amber"] * 50)
    assert counts.counts(amber, ["amber"]) == {"amber": 250} and indexed_rows(amber) == 250
    delete_session(amber, "b")
    assert counts.counts(amber, ["amber"]) == {"amber": 200} and indexed_rows(amber) == 200


def test_the_least_recently_used_word_leaves_past_the_capacity(
    amber: psycopg.Connection[Any],
) -> None:
    counts = fresh_counts(capacity=2, drift=100.0)  # never stale: only a dropped word is recounted
    append_texts(amber, "b", "basil", "cedar")
    counts.counts(amber, ["amber", "basil"])
    counts.counts(amber, ["amber"])
    counts.counts(amber, ["cedar"])  # drops basil, used longest ago
    append_texts(amber, "c", "amber basil")
    assert counts.counts(amber, ["amber", "basil"]) == {"amber": 200, "basil": 3}


def test_a_word_the_tokenizer_cuts_counts_messages_holding_it_as_a_phrase(
    amber: psycopg.Connection[Any],
) -> None:
    append_texts(amber, "b", "deploy_rollback")
    append_texts(amber, "c", "rollback of the deploy")
    append_texts(amber, "d", "deploy rollback")
    append_texts(amber, "e", "rollback then", "we deploy")  # body then context: no phrase
    words = ["deploy_rollback", "notes", "___"]
    assert fresh_counts().counts(amber, words) == {"deploy_rollback": 2, "notes": 200, "___": 0}
    found = search_message_text(amber, "deploy_rollback", fresh_counts(), limit=10)
    assert sorted(h.uid for h in found) == ["m:b:1", "m:d:1"]


def test_a_search_ranks_with_the_cached_counts_until_they_drift(
    amber: psycopg.Connection[Any],
) -> None:
    """Appends within the bound (1 % of the rows) leave the words' counts as they were, so
    the scores drift from fresh counts' (as the SQLite engine's session searches do)."""
    conn, counts, query = amber, fresh_counts(), "billing audit invoices"
    append_texts(conn, "work", "billing audit", "invoices audit notes", "the billing invoices")
    search_message_text(conn, query, counts)
    bound = int(indexed_rows(conn) * counts.drift)
    append_texts(conn, "other", *[query] * bound)
    stale = ranked(search_message_text(conn, query, counts, session="work"))
    fresh = ranked(search_message_text(conn, query, fresh_counts(), session="work"))
    assert [uid for uid, _ in stale] == [uid for uid, _ in fresh] and stale != fresh
    append_texts(conn, "other", query)
    assert ranked(search_message_text(conn, query, counts, session="work")) == ranked(
        search_message_text(conn, query, fresh_counts(), session="work")
    )
