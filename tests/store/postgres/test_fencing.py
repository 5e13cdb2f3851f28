"""One writer per session across daemons: a claim bumps the epoch, and a write of the
member that lost the session commits nothing (checked in the statement that writes)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from reverie.config import Conflict, LimitReached
from reverie.store import (
    Job,
    NewMessage,
    ScopeBounds,
    SessionMoved,
    SessionRecord,
    Tx,
    job_entry,
)
from reverie.store.postgres import (
    index_feed,
    job_leases,
    jobs,
    journal,
    message_pop,
    working_memory,
)
from reverie.store.postgres.db import POSTGRES_SQL
from tests.store.engines.engine import pg_connect


def _member(url: str, name: str) -> psycopg.Connection[Any]:
    return psycopg.connect(url, autocommit=True, options=f"-c reverie.member={name}")


@pytest.fixture
def members(pg_url: str) -> Iterator[tuple[psycopg.Connection[Any], psycopg.Connection[Any]]]:
    pg_connect(pg_url).close()  # migrated
    a, b = _member(pg_url, "a"), _member(pg_url, "b")
    yield a, b
    a.close()
    b.close()


def _msg(i: str, tokens: int = 3) -> NewMessage:
    return NewMessage(id=i, role="user", content=f"message {i}", ts=1.0, tokens=tokens)


def _rows(conn: psycopg.Connection[Any]) -> list[tuple[int, str]]:
    return [(int(s), i) for s, i in conn.execute("SELECT seq, id FROM messages ORDER BY seq")]


def test_a_member_that_lost_the_session_writes_nothing_and_is_told_so(members: Any) -> None:
    a, b = members
    s_a = SessionRecord(name="s", scope="session/s", created=1.0)
    journal.append_requests(a, s_a, [[_msg("1")]])
    assert s_a.epoch == 1  # made, and owned, by its first append

    s_b = journal.claim_session(b, "s")
    assert s_b is not None and s_b.epoch == 2 and s_b.last_seq == 1
    journal.append_requests(b, s_b, [[_msg("2")]])

    stale = SessionRecord(**_fields(s_a))
    with pytest.raises(SessionMoved, match="retry"):
        journal.append_requests(a, stale, [[_msg("3")]])
    with pytest.raises(SessionMoved):
        message_pop.pop_newest(a, stale)
    assert _rows(a) == [(1, "1"), (2, "2")]  # neither the append nor the pop wrote

    again = journal.claim_session(a, "s")  # the retry takes it back
    assert again is not None and again.epoch == 3
    journal.append_requests(a, again, [[_msg("3")]])
    assert _rows(a) == [(1, "1"), (2, "2"), (3, "3")]
    with pytest.raises(SessionMoved):
        journal.append_requests(b, s_b, [[_msg("4")]])


def test_two_members_making_one_new_session_leave_one_row_and_one_writer(members: Any) -> None:
    a, b = members
    first = SessionRecord(name="n", scope="session/n", created=1.0)
    second = SessionRecord(name="n", scope="session/n", created=1.0)
    journal.append_requests(a, first, [[_msg("x")]])
    with pytest.raises(SessionMoved):  # it was not there when b loaded it: b's view is stale
        journal.append_requests(b, second, [[_msg("y")]])
    assert _rows(a) == [(1, "x")]


def test_a_job_applied_by_another_member_is_kept_by_the_owners_next_append(
    members: Any,
) -> None:
    a, b = members
    owner = SessionRecord(name="s", scope="session/s", created=1.0)
    journal.append_requests(a, owner, [[_msg("1", 10), _msg("2", 20)]])
    job = Job(
        id="j",
        session="s",
        scope="session/s",
        backend="default",
        first_seq=1,
        last_seq=1,
        tokens=10,
        count=1,
        created=1.0,
        updated=1.0,
    )
    assert jobs.create_job(b, job) == job
    seen = journal.load_session(b, "s")  # b does not own the session: it claims nothing
    assert seen is not None
    assert jobs.finish_job(b, job, seen, "done", 2.0)

    journal.append_requests(a, owner, [[_msg("3", 5)]])  # the owner's view is older
    stored = journal.load_session(a, "s")
    assert stored is not None
    assert (stored.cursor_seq, stored.tail_tokens, stored.tail_count) == (1, 25, 2)
    assert (owner.cursor_seq, owner.tail_tokens) == (1, 25)  # and the owner adopts it

    rest = Job(**{**_fields(job), "id": "k", "first_seq": 2, "last_seq": 3, "tokens": 25})
    jobs.create_job(b, rest)
    assert jobs.finish_job(b, rest, seen, "done", 3.0)
    with pytest.raises(Conflict, match="consolidated"):  # the owner's cursor is older
        message_pop.pop_newest(a, owner)
    assert len(_rows(a)) == 3


def _fields(record: Any) -> dict[str, Any]:
    return {f: getattr(record, f) for f in record.__struct_fields__}


def test_the_feed_horizon_waits_for_an_append_that_took_a_lower_gid_and_commits_later(
    pg_url: str,
) -> None:
    pg_connect(pg_url).close()
    slow = psycopg.connect(pg_url, options="-c reverie.member=a")  # a transaction left open
    quick, feed = _member(pg_url, "b"), _member(pg_url, "c")
    commit_later = threading.Timer(0.3, slow.commit)
    try:
        journal.append_requests(
            slow, SessionRecord(name="x", scope="s", created=1.0), [[_msg("1")]]
        )
        journal.append_requests(
            quick, SessionRecord(name="y", scope="s", created=1.0), [[_msg("2")]]
        )
        visible = [gid for gid, _ in index_feed.messages_after(feed, 0, 10)]
        assert len(visible) == 1  # the higher gid, committed; the lower one still open
        commit_later.start()
        horizon = index_feed.feed_horizon(feed)  # waits for the open append, not a later one
        assert horizon >= visible[0]
        final = [doc.session for _, doc in index_feed.messages_after(feed, 0, 10, upto=horizon)]
        assert sorted(final) == ["x", "y"]
    finally:
        # (the commit's reply may still be on its way when the horizon has seen it: closing
        # the connection under it would fail the timer's thread)
        commit_later.cancel()
        if commit_later.is_alive():
            commit_later.join()
        slow.close()
        quick.close()
        feed.close()


def test_a_forget_racing_another_members_append_leaves_no_row_and_the_name_writable(
    pg_url: str,
) -> None:
    """The append commits first (its rows go with the forget) or is fenced out (moved)."""
    pg_connect(pg_url).close()
    owner = psycopg.connect(pg_url, options="-c reverie.member=a")  # its append left open
    forgetter, look = _member(pg_url, "b"), _member(pg_url, "c")
    try:
        s = SessionRecord(name="f", scope="session/f", created=1.0)
        journal.append_requests(owner, s, [[_msg("1")]])
        owner.commit()
        journal.append_requests(owner, s, [[_msg("2"), _msg("3")]])  # in flight
        gone: list[int] = []
        forget = threading.Thread(
            target=lambda: gone.append(journal.delete_session(forgetter, "f"))
        )
        forget.start()
        forget.join(0.5)
        assert forget.is_alive()  # it waits for the append's row lock ...
        owner.commit()
        forget.join(10)
        assert gone == [3]  # ... and deletes what that append committed
        assert _rows(look) == []
        with pytest.raises(SessionMoved):  # the old owner's next write is fenced out
            journal.append_requests(owner, s, [[_msg("4")]])
        owner.rollback()
        fresh = SessionRecord(name="f", scope="session/f", created=2.0)
        journal.append_requests(look, fresh, [[_msg("5")]])  # the name starts afresh
        assert _rows(look) == [(1, "5")]
    finally:
        owner.close()
        forgetter.close()
        look.close()


def _owned_session(conn: psycopg.Connection[Any], name: str, n: int) -> SessionRecord:
    s = SessionRecord(name=name, scope=f"session/{name}", created=1.0)
    journal.append_requests(conn, s, [[_msg(f"{name}{i}") for i in range(1, n + 1)]])
    return s


def _lease(conn: psycopg.Connection[Any], name: str) -> Any:
    return job_leases.lease_job(conn, name, "default", lambda tail: tail, 1.0, 60.0, 5.0)


def _in_thread(fn: Any) -> tuple[threading.Thread, list[Any]]:
    """``fn`` run in a thread; its result or exception lands in the list."""
    out: list[Any] = []

    def run() -> None:
        try:
            out.append(fn())
        except Exception as exc:  # the test asserts on it
            out.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(0.5)
    return thread, out


def test_a_pop_and_another_members_lease_of_the_tail_never_both_have_the_message(
    pg_url: str,
) -> None:
    pg_connect(pg_url).close()
    owner = psycopg.connect(pg_url, options="-c reverie.member=a")
    worker = psycopg.connect(pg_url, options="-c reverie.member=b")
    try:
        s = _owned_session(owner, "p", 3)
        owner.commit()
        assert message_pop.pop_newest(owner, s) is not None  # popped, not committed yet
        lease, leased = _in_thread(lambda: _lease(worker, "p"))
        assert lease.is_alive()  # the lease waits for the pop's row lock ...
        owner.commit()
        lease.join(10)
        job, turns = leased[0]
        assert (job.last_seq, [m.seq for m in turns]) == (2, [1, 2])  # ... and reads after it
        # The other order: the leased job holds seq 2, so a pop of it is refused.
        pop, popped = _in_thread(lambda: message_pop.pop_newest(owner, s))
        assert pop.is_alive()
        worker.commit()
        pop.join(10)
        assert isinstance(popped[0], Conflict)
        owner.rollback()
        stored = journal.load_session(worker, "p")
        assert stored is not None and stored.last_seq == 2
    finally:
        owner.close()
        worker.close()


def test_a_forget_and_another_members_lease_leave_no_job_of_the_forgotten_session(
    pg_url: str,
) -> None:
    pg_connect(pg_url).close()
    owner = psycopg.connect(pg_url, options="-c reverie.member=a")
    worker = psycopg.connect(pg_url, options="-c reverie.member=b")
    try:
        _owned_session(owner, "g", 2)
        owner.commit()
        assert _lease(worker, "g") is not None  # leased, not committed yet
        forget, _ = _in_thread(lambda: journal.delete_session(owner, "g", "session/g"))
        assert forget.is_alive()  # the forget waits for the lease ...
        worker.commit()
        forget.join(10)
        owner.commit()
        assert worker.execute("SELECT count(*) FROM jobs").fetchone() == (0,)  # ... and ends it
        worker.rollback()
        # The other order: a lease waiting for a forget finds no session.
        _owned_session(owner, "h", 2)
        owner.commit()
        journal.delete_session(owner, "h", "session/h")
        lease, leased = _in_thread(lambda: _lease(worker, "h"))
        assert lease.is_alive()
        owner.commit()
        lease.join(10)
        assert leased == [None]
        worker.commit()
        assert worker.execute("SELECT count(*) FROM jobs").fetchone() == (0,)
    finally:
        owner.close()
        worker.close()


def test_an_apply_whose_range_is_no_longer_the_tail_writes_nothing_and_ends_the_job(
    members: Any,
) -> None:
    a, b = members
    _owned_session(a, "r", 2)
    job, turns = _lease(b, "r")
    a.execute("UPDATE sessions SET cursor_seq = 2 WHERE name = 'r'")  # as if applied elsewhere
    entry = job_entry(job, turns, "what was said", [])
    assert job_leases.finish_leased(b, job, "done", entry, "new", "", 2.0) == ("gone", None)
    assert b.execute("SELECT count(*) FROM jobs").fetchone() == (0,)
    assert b.execute("SELECT count(*) FROM history_entries").fetchone() == (0,)


def test_two_members_saving_checkpoints_at_once_keep_within_max_checkpoints(
    pg_url: str,
) -> None:
    """The bound is counted under the scope's lock: the second waits, then sees the first."""
    pg_connect(pg_url).close()
    first = psycopg.connect(pg_url, options="-c reverie.member=a")
    second = psycopg.connect(pg_url, options="-c reverie.member=b")
    bounds = ScopeBounds(max_keys=8, max_bytes=1000, max_checkpoints=1)

    def save(conn: psycopg.Connection[Any], name: str) -> Any:
        tally = Tx(conn, POSTGRES_SQL, None).tally("team", bounds)
        return working_memory.create_checkpoint(conn, "team", name, None, 1.0, tally)

    try:
        save(first, "c1")  # not committed yet
        other, saved = _in_thread(lambda: save(second, "c2"))
        assert other.is_alive()  # it waits for the scope's lock ...
        first.commit()
        other.join(10)
        assert isinstance(saved[0], LimitReached)  # ... and counts the first one
        second.rollback()
        assert second.execute("SELECT id FROM wm_checkpoints").fetchall() == [("c1",)]
    finally:
        first.close()
        second.close()
