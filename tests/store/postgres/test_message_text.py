"""The log's words on Postgres: the words trigger's plan, and searches on cached counts.

What every engine's words do (found, filtered, scored alike) is in
tests/store/engines/test_message_text.py.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from reverie.daemon import Client
from reverie.store.postgres.message_text import search_message_text
from reverie.store.postgres.term_counts import fresh_counts, indexed_rows
from tests.daemon_process import DaemonProcess

from .texts import append_texts, ranked, words_store


@pytest.fixture
def conn(pg_url: str) -> Iterator[psycopg.Connection[Any]]:
    connection = words_store(pg_url)
    yield connection
    connection.close()


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


# -- term counts: the shared cache over this engine's counts ----------------------------


@pytest.fixture
def amber(conn: psycopg.Connection[Any]) -> psycopg.Connection[Any]:
    append_texts(conn, "a", *[f"amber note {i}" for i in range(200)])
    return conn


def test_a_search_ranks_with_the_cached_counts_until_they_drift(
    amber: psycopg.Connection[Any],
) -> None:
    """Appends within the bound (1 % of the rows) leave the words' counts as they were, so
        the scores drift from fresh counts' (the file engine's session searches count afresh;
    what every engine's counts do is in tests/store/engines/test_term_counts.py)."""
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
