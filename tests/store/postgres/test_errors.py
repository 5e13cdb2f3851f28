"""psycopg's failures as typed store errors: a lost server is retryable, no password shows."""

from __future__ import annotations

import time
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from psycopg import errors

from reverie.store import StoreError, StoreFull, StoreUnavailable
from reverie.store.postgres.errors import translate
from tests.postgres import PgServer
from tests.store.engines.engine import pg_connect


def _caught(call: object) -> BaseException:
    try:
        call()  # type: ignore[operator]
    except Exception as exc:
        return exc
    raise AssertionError("the call did not fail")


def test_a_server_shut_down_under_an_open_connection_is_unavailable(
    pg_server: PgServer, pg_url: str
) -> None:
    if pg_server.pgdata is None:
        pytest.skip("an external server cannot be stopped by the tests")
    conn = pg_connect(pg_url)
    conn.execute("SELECT 1").fetchone()
    try:
        pg_server.stop("fast")
        in_flight = translate(_caught(lambda: conn.execute("SELECT count(*) FROM sessions")))
        after = translate(_caught(lambda: conn.execute("SELECT 1")))  # the connection is gone
        refused = translate(_caught(lambda: psycopg.connect(pg_url, connect_timeout=5)))
    finally:
        pg_server.start()
        conn.close()
    for error in (in_flight, after, refused):
        assert type(error) is StoreUnavailable and error.code == "store.unavailable"
        assert "retry" in str(error) and "reconnects by itself" in str(error)
    with psycopg.connect(pg_url) as back:  # and the server serves again
        assert back.execute("SELECT 1").fetchone() == (1,)


@pytest.mark.parametrize(
    "exc",
    [
        errors.AdminShutdown("terminating connection due to administrator command"),
        errors.CannotConnectNow("the database system is starting up"),
        errors.ConnectionFailure("connection failure"),
        psycopg.OperationalError("the connection is closed"),
        errors.IdleInTransactionSessionTimeout("terminating connection due to idle-in-tr…"),
        errors.IdleSessionTimeout("terminating connection due to idle-session timeout"),
    ],
)
def test_every_connection_class_failure_is_unavailable(exc: BaseException) -> None:
    assert type(translate(exc)) is StoreUnavailable


def test_a_transaction_the_server_ended_for_idling_is_unavailable(pg_url: str) -> None:
    """A daemon frozen inside a transaction past ``owner_ttl``: the server ends it, and the
    write that wakes up to that is retryable (nothing of it was committed)."""
    with pg_connect(pg_url) as conn, pg_connect(pg_url) as watcher:
        conn.execute("SET idle_in_transaction_session_timeout = 50")
        conn.execute("BEGIN")
        conn.execute("SELECT 1")
        pid = conn.info.backend_pid
        watcher.autocommit = True  # (pg_stat_activity is a snapshot within a transaction)
        alive = "SELECT count(*) FROM pg_stat_activity WHERE pid = %s"
        for _ in range(1200):  # the server's timer, not ours: until it ended the session
            if watcher.execute(alive, (pid,)).fetchone() == (0,):
                break
            time.sleep(0.05)
        error = translate(_caught(lambda: conn.execute("SELECT 1")))
    assert type(error) is StoreUnavailable and "retry" in str(error), error


def test_a_full_disk_is_store_full() -> None:
    error = translate(errors.DiskFull("could not extend file: No space left on device"))
    assert type(error) is StoreFull and "free disk space" in str(error)


def test_a_refused_statement_is_a_plain_store_error(pg_url: str) -> None:
    with pg_connect(pg_url) as conn:
        nul = translate(_caught(lambda: conn.execute("SELECT %s::text", ("a\x00b",))))
        conn.rollback()
        bad = translate(_caught(lambda: conn.execute("SELECT * FROM no_such_table")))
    for error in (nul, bad):
        assert type(error) is StoreError and str(error).startswith("storage failed: ")
    assert "no_such_table" in str(bad)


def test_no_password_reaches_the_message(pg_server: PgServer) -> None:
    quoted = psycopg.OperationalError(
        "could not connect with host=db user=u password=hunter2 to postgresql://u:hunter3@db/r"
    )
    shown = str(translate(quoted))
    assert "hunter2" not in shown and "hunter3" not in shown and "postgresql://u@db/r" in shown
    parts = urlsplit(pg_server.url("no_such_database"))
    host = (parts.hostname or "") + (f":{parts.port}" if parts.port else "")
    url = urlunsplit(parts._replace(netloc=f"{parts.username or 'postgres'}:hunter4@{host}"))
    error = translate(_caught(lambda: psycopg.connect(url, connect_timeout=5)))
    assert "hunter4" not in str(error) and "no_such_database" in str(error)
