"""Popping a session's newest message on both engines: counters step back, the index is told."""

from __future__ import annotations

import pytest

from reverie.config import Conflict
from reverie.store import Job, NewMessage, SessionRecord, Unindex

from .engine import Engine


def _session(e: Engine, *contents: str) -> SessionRecord:
    s = SessionRecord(name="a", scope="scope/a", created=0.0)
    messages = [
        NewMessage(id=f"m{i}", role="user", content=c, ts=float(i), tokens=3)
        for i, c in enumerate(contents, 1)
    ]
    e.journal.append_requests(e.conn, s, [messages])
    e.commit()
    return s


def test_a_pop_takes_the_newest_and_the_next_append_takes_its_seq(engine: Engine) -> None:
    s = _session(engine, "one", "two")
    popped = engine.message_pop.pop_newest(engine.conn, s)
    engine.commit()
    assert (popped.seq, popped.id, popped.content) == (2, "m2", "two")
    assert (s.last_seq, s.tail_count, s.tail_tokens) == (1, 1, 3)
    assert engine.journal.load_session(engine.conn, "a") == s
    assert engine.message_pop.pending_unindex(engine.conn) == [Unindex(session="a", seq=2)]
    assert engine.message_pop.unindexed_doc(engine.conn, Unindex(session="a", seq=2)) is None
    new = NewMessage(id="m9", role="user", content="again", ts=9.0, tokens=1)
    (outcome,) = engine.journal.append_requests(engine.conn, s, [[new]])
    engine.index_feed.write_cursor(engine.conn, 10**6)  # the index has passed the new row
    engine.commit()
    assert outcome.acks == [(2, "m9")]
    doc = engine.message_pop.unindexed_doc(engine.conn, Unindex(session="a", seq=2))
    assert (doc.uid, doc.text, doc.message_ids, doc.scope) == ("m:a:2", "again", ["m9"], "scope/a")
    engine.message_pop.finish_unindex(engine.conn, engine.message_pop.pending_unindex(engine.conn))
    engine.commit()
    assert engine.message_pop.pending_unindex(engine.conn) == []


def test_nothing_to_pop_and_consolidated_messages_are_refused(engine: Engine) -> None:
    empty = SessionRecord(name="e", scope="s", created=0.0)
    assert engine.message_pop.pop_newest(engine.conn, empty) is None
    s = _session(engine, "one", "two")
    s.cursor_seq = 2
    with pytest.raises(Conflict, match="already consolidated"):
        engine.message_pop.pop_newest(engine.conn, s)
    s.cursor_seq = 0
    job = Job(id="j", session="a", scope="s", backend="b", first_seq=1, last_seq=2, tokens=6,
              count=2)  # fmt: skip
    engine.jobs.create_job(engine.conn, job)
    engine.commit()
    with pytest.raises(Conflict, match="being consolidated now"):
        engine.message_pop.pop_newest(engine.conn, s)
    assert [m.seq for m in engine.journal.read_tail(engine.conn, "a", 0)] == [1, 2]
