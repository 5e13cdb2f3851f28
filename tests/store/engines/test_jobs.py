"""Consolidation jobs on both engines: one open job a session, finished exactly once."""

from __future__ import annotations

from reverie.store import Job, SessionRecord

from .engine import Engine


def _job(jid: str, session: str = "a", created: float = 1.0, **kw: object) -> Job:
    fields: dict = dict(
        id=jid, session=session, scope=f"session/{session}", backend="extractive",
        first_seq=1, last_seq=2, tokens=7, count=2, created=created, updated=created,
    )  # fmt: skip
    return Job(**(fields | kw))


def test_a_session_has_one_open_job_and_a_second_create_returns_it(engine: Engine) -> None:
    first = engine.jobs.create_job(engine.conn, _job("j1"))
    again = engine.jobs.create_job(engine.conn, _job("j2", last_seq=9))
    engine.commit()
    assert again == first == _job("j1")
    assert engine.jobs.open_job(engine.conn, "a") == first
    assert engine.jobs.open_job(engine.conn, "b") is None


def test_open_jobs_are_the_running_ones_oldest_first(engine: Engine) -> None:
    engine.jobs.create_job(engine.conn, _job("late", "b", created=9.0))
    engine.jobs.create_job(engine.conn, _job("early", "c", created=2.0))
    engine.jobs.create_job(engine.conn, _job("done", "d", state="done"))
    engine.commit()
    assert [j.id for j in engine.jobs.open_jobs(engine.conn)] == ["early", "late"]


def test_an_attempt_is_counted_with_its_error(engine: Engine) -> None:
    engine.jobs.create_job(engine.conn, _job("j1"))
    engine.jobs.record_attempt(engine.conn, "j1", "llm.timeout", 5.0)
    engine.jobs.record_attempt(engine.conn, "j1", None, 6.0)
    engine.commit()
    job = engine.jobs.open_job(engine.conn, "a")
    assert (job.attempts, job.error, job.updated) == (2, None, 6.0)


def test_finishing_moves_the_cursor_once_and_a_replay_changes_nothing(engine: Engine) -> None:
    session = SessionRecord(
        name="a", scope="session/a", created=0.0, last_seq=3, tail_tokens=10, tail_count=3
    )
    engine.journal.save_session(engine.conn, session)
    job = engine.jobs.create_job(engine.conn, _job("j1"))
    assert engine.jobs.finish_job(engine.conn, job, session, "done", 8.0) is True
    engine.commit()
    assert (session.cursor_seq, session.tail_tokens, session.tail_count) == (2, 3, 1)
    assert engine.journal.load_session(engine.conn, "a") == session
    assert engine.jobs.open_job(engine.conn, "a") is None
    assert engine.jobs.finish_job(engine.conn, job, session, "done", 9.0) is False
    stale = SessionRecord(name="a", scope="session/a", created=0.0, cursor_seq=2)
    other = engine.jobs.create_job(engine.conn, _job("j2"))
    assert engine.jobs.finish_job(engine.conn, other, stale, "done", 9.0) is False  # cursor past
    assert engine.jobs.finish_job(engine.conn, _job("ghost"), session, "done", 9.0) is False
    engine.commit()
    assert engine.journal.load_session(engine.conn, "a") == session
    assert engine.jobs.job_counts(engine.conn) == {"extractive": {"done": 1, "running": 1}}


def test_job_counts_are_per_backend_and_state(engine: Engine) -> None:
    assert engine.jobs.job_counts(engine.conn) == {}
    engine.jobs.create_job(engine.conn, _job("a1", "a", backend="llm"))
    engine.jobs.create_job(engine.conn, _job("b1", "b", backend="llm", state="archived"))
    engine.jobs.create_job(engine.conn, _job("c1", "c", backend="llm", state="archived"))
    engine.jobs.create_job(engine.conn, _job("d1", "d"))
    engine.commit()
    assert engine.jobs.job_counts(engine.conn) == {
        "llm": {"running": 1, "archived": 2},
        "extractive": {"running": 1},
    }
