"""The message log on both engines: the same acks, conflicts, pages and deletes."""

from __future__ import annotations

from reverie.config import Conflict
from reverie.store import ForgetJob, NewMessage, ScopeBounds, SessionRecord, TaskRecord

from .engine import Engine


def _msg(mid: str, content: str = "hi", **kw: object) -> NewMessage:
    return NewMessage(id=mid, role="user", content=content, ts=kw.pop("ts", 1.0), tokens=2, **kw)  # type: ignore[arg-type]


def _append(e: Engine, session: SessionRecord, *requests: list[NewMessage]) -> list:
    outcomes = e.journal.append_requests(e.conn, session, list(requests))
    e.commit()
    return outcomes


def test_appends_take_gap_free_seqs_and_update_the_callers_row(engine: Engine) -> None:
    s = SessionRecord(name="a", scope="session/a", created=5.0)
    first, second = _append(
        engine, s, [_msg("m1", ts=3.0), _msg("m2", ts=2.0)], [_msg("m3", tool_calls=[{"x": 1}])]
    )
    assert first.acks == [(1, "m1"), (2, "m2")] and first.error is None
    assert second.acks == [(3, "m3")]
    assert (s.last_seq, s.tail_tokens, s.tail_count, s.last_active) == (3, 6, 3, 3.0)
    assert engine.journal.load_session(engine.conn, "a") == s
    history = engine.journal.read_history(engine.conn, "a", 0, 10)
    assert [(m.seq, m.id) for m in history] == [(1, "m1"), (2, "m2"), (3, "m3")]
    assert history[2].tool_calls == [{"x": 1}] and history[0].tool_calls is None


def test_a_retried_id_keeps_its_seq_and_appends_nothing(engine: Engine) -> None:
    s = SessionRecord(name="a", scope="session/a", created=0.0)
    _append(engine, s, [_msg("m1"), _msg("m2", tool_calls={"b": 1, "a": [2]})])
    (retry,) = _append(
        engine, s, [_msg("m2", tool_calls={"a": [2], "b": 1}), _msg("m3"), _msg("m3")]
    )
    assert retry.acks == [(2, "m2"), (3, "m3"), (3, "m3")]
    assert s.last_seq == 3 and s.tail_count == 3
    assert len(engine.journal.read_tail(engine.conn, "a", 0)) == 3


def test_a_conflicting_request_appends_nothing_and_the_others_go_on(engine: Engine) -> None:
    s = SessionRecord(name="a", scope="session/a", created=0.0)
    _append(engine, s, [_msg("m1", "first")])
    stored, twice, later, fine = _append(
        engine,
        s,
        [_msg("new1"), _msg("m1", "other")],
        [_msg("t", "x"), _msg("t", "y")],
        [_msg("b1", "one")],
        [_msg("b1", "two")],
    )
    assert stored.acks == [] and isinstance(stored.error, Conflict)
    assert "already appended with other content" in str(stored.error)
    assert twice.acks == [] and "appears twice in one batch" in str(twice.error)
    assert later.acks == [(2, "b1")]
    assert fine.acks == [] and isinstance(fine.error, Conflict)  # saw the earlier request's id
    assert [m.id for m in engine.journal.read_tail(engine.conn, "a", 0)] == ["m1", "b1"]
    assert engine.journal.load_session(engine.conn, "a").last_seq == 2


def test_reads_page_by_seq_and_the_tail_starts_after_the_cursor(engine: Engine) -> None:
    s = SessionRecord(name="a", scope="session/a", created=0.0)
    _append(engine, s, [_msg(f"m{i}") for i in range(1, 6)])
    assert [m.seq for m in engine.journal.read_history(engine.conn, "a", 1, 2)] == [2, 3]
    assert [m.seq for m in engine.journal.read_tail(engine.conn, "a", 3)] == [4, 5]
    assert engine.journal.read_history(engine.conn, "b", 0, 5) == []


def test_sessions_are_listed_in_byte_order_by_pages_and_prefix(engine: Engine) -> None:
    names = ["a", "B", "ab", "a_b", "é", "a-z", "ä", "b", "Z"]
    for name in names:
        engine.journal.save_session(
            engine.conn, SessionRecord(name=name, scope=f"session/{name}", created=0.0)
        )
    engine.commit()
    expected = sorted(names, key=lambda n: n.encode())
    pages, after = [], ""
    while page := engine.journal.list_sessions(engine.conn, after, 2):
        pages.append([s.name for s in page])
        after = page[-1].name
    assert [n for p in pages for n in p] == expected and all(len(p) <= 2 for p in pages)
    assert [s.name for s in engine.journal.list_sessions(engine.conn, "", 10, "a")] == [
        "a",
        "a-z",
        "a_b",
        "ab",
    ]
    assert [s.name for s in engine.journal.list_sessions(engine.conn, "a-z", 10, "a")] == [
        "a_b",
        "ab",
    ]
    assert engine.journal.count_sessions(engine.conn) == len(names)


def test_sessions_over_a_budget_are_those_with_a_larger_tail(engine: Engine) -> None:
    for name, tokens in (("small", 5), ("edge", 10), ("big", 11)):
        engine.journal.save_session(
            engine.conn,
            SessionRecord(name=name, scope="s", created=0.0, tail_tokens=tokens),
        )
    engine.commit()
    assert [s.name for s in engine.journal.sessions_over(engine.conn, 10)] == ["big"]


def test_delete_takes_the_messages_row_and_jobs_and_records_the_forget(engine: Engine) -> None:
    keep = SessionRecord(name="keep", scope="session/keep", created=0.0)
    gone = SessionRecord(name="gone", scope="session/gone", created=0.0)
    _append(engine, keep, [_msg("k1")])
    _append(engine, gone, [_msg("g1"), _msg("g2")])
    engine.sql(
        "INSERT INTO jobs (id, session, scope, backend, first_seq, last_seq, tokens, count,"
        " state, created, updated) VALUES ('j', 'gone', 's', 'b', 1, 2, 4, 2, 'running', 0, 0)"
    )
    engine.index_feed.write_cursor(engine.conn, 3)
    assert engine.journal.delete_session(engine.conn, "gone", "session/gone") == 2
    engine.commit()
    assert engine.journal.load_session(engine.conn, "gone") is None
    assert engine.journal.read_tail(engine.conn, "gone", 0) == []
    assert engine.sql("SELECT count(*) FROM jobs") == [(0,)]
    assert engine.index_feed.read_cursor(engine.conn) == 1  # the log ends at keep's message
    job = ForgetJob(scope="session/gone", session="gone")
    assert engine.journal.pending_forgets(engine.conn) == [job]
    engine.journal.finish_forget(engine.conn, job)
    engine.commit()
    assert engine.journal.pending_forgets(engine.conn) == []
    assert engine.journal.delete_session(engine.conn, "nobody") == 0


def test_pending_forgets_come_oldest_key_first(engine: Engine) -> None:
    jobs = [ForgetJob(scope="x", fact="f"), ForgetJob(scope="a", session="s"), ForgetJob(scope="B")]
    for job in jobs:
        engine.journal.record_forget(engine.conn, job)
    engine.journal.record_forget(engine.conn, jobs[0])  # twice: still one marker
    engine.index_feed.write_meta(engine.conn, "forget", 1)  # not under the prefix
    engine.commit()
    assert engine.journal.pending_forgets(engine.conn) == sorted(jobs, key=lambda j: j.key.encode())


def test_finished_forgets_are_counted_until_a_compaction_covers_them(engine: Engine) -> None:
    assert engine.journal.compaction_due(engine.conn) == 0
    for job in (ForgetJob(scope="a", session="s"), ForgetJob(scope="b", fact="f")):
        engine.journal.record_forget(engine.conn, job)
        engine.journal.finish_forget(engine.conn, job)
    engine.commit()
    assert engine.journal.compaction_due(engine.conn) == 2
    assert engine.journal.pending_forgets(engine.conn) == []  # the count is no job

    engine.journal.compacted(engine.conn, 1)  # read before the second finished: still due
    assert engine.journal.compaction_due(engine.conn) == 2
    engine.journal.compacted(engine.conn, 2)
    engine.commit()
    assert engine.journal.compaction_due(engine.conn) == 0


def test_delete_takes_the_working_memory_of_the_sessions_own_scope_only(engine: Engine) -> None:
    """Keys, task, scratchpad, checkpoints and the swept count of ``session/gone``; not keep's."""
    wm, conn = engine.working_memory, engine.conn
    for scope in ("session/gone", "session/keep"):
        tally = engine.tx.tally(scope, ScopeBounds(max_keys=9, max_bytes=99, max_checkpoints=9))
        wm.set_key(conn, scope, "k", b"\x00", expires_at=None, expected_version=None, now=0.0,
                   tally=tally)  # fmt: skip
        wm.set_key(conn, scope, "t", b"1", expires_at=1.0, expected_version=None, now=0.0,
                   tally=tally)  # fmt: skip
        assert wm.sweep_keys(conn, scope, ["t"], 1.0) == 1
        wm.save_task(conn, scope, TaskRecord("t", "d", "open", 0, 1, None, 0.0, 0.0))
        wm.append_scratch(conn, scope, "note", 0.0, 10, tally)
        wm.create_checkpoint(conn, scope, scope, None, 0.0)
    engine.journal.delete_session(conn, "gone")
    engine.commit()

    def state(scope: str) -> tuple[object, ...]:
        stats = wm.scope_stats(conn, scope, 0.0)
        return (
            [k.key for k in wm.list_keys(conn, scope, "", 0.0)],
            wm.load_task(conn, scope) is not None,
            len(wm.read_scratch(conn, scope, None)),
            [c.id for c in wm.list_checkpoints(conn, scope)],
            stats.expired_swept,
        )

    assert state("session/gone") == ([], False, 0, [], 0)
    assert state("session/keep") == (["k"], True, 1, ["session/keep"], 1)


def test_a_batch_of_empty_requests_acks_nothing_and_saves_the_row(engine: Engine) -> None:
    s = SessionRecord(name="a", scope="session/a", created=2.0)
    assert [o.acks for o in _append(engine, s, [], [])] == [[], []]
    assert engine.journal.load_session(engine.conn, "a") == s
