"""The index's feed on both engines: meta values, a cursor never past the log, the log's docs."""

from __future__ import annotations

from reverie.store import CURSOR_KEY, INDEX_DIR_KEY, NewMessage, SessionRecord

from .engine import Engine


def _log(e: Engine, session: str, *contents: str) -> list[int]:
    """Append ``contents`` to ``session`` (scope ``scope/<session>``); their gids."""
    s = e.journal.load_session(e.conn, session) or SessionRecord(
        name=session, scope=f"scope/{session}", created=0.0
    )
    first = s.last_seq
    messages = [
        NewMessage(id=f"{session}{first + i}", role="user", content=c, ts=float(i), tokens=1)
        for i, c in enumerate(contents, 1)
    ]
    e.journal.append_requests(e.conn, s, [messages])
    e.commit()
    rows = e.sql("SELECT gid FROM messages WHERE session = %s AND seq > %s ORDER BY seq",
                 (session, first))  # fmt: skip
    return [gid for (gid,) in rows]


def test_meta_values_read_back_as_written(engine: Engine) -> None:
    assert engine.index_feed.read_meta(engine.conn, "nothing") is None
    for key, value in (("n", 42), ("s", "index-2"), ("n", 7)):
        engine.index_feed.write_meta(engine.conn, key, value)
    engine.commit()
    assert engine.index_feed.read_meta(engine.conn, "n") == 7
    assert engine.index_feed.read_meta(engine.conn, "s") == "index-2"


def test_the_cursor_starts_at_zero_and_never_passes_the_log(engine: Engine) -> None:
    assert engine.index_feed.read_cursor(engine.conn) == 0
    gids = _log(engine, "a", "one", "two")
    engine.index_feed.write_cursor(engine.conn, gids[0])
    assert engine.index_feed.read_cursor(engine.conn) == gids[0]
    engine.index_feed.write_cursor(engine.conn, gids[-1] + 100)
    engine.commit()
    position = engine.index_feed.log_position(engine.conn)
    assert (position.cursor, position.max_gid) == (gids[-1], gids[-1])
    engine.index_feed.write_meta(engine.conn, CURSOR_KEY, "not a number")
    assert engine.index_feed.read_cursor(engine.conn) == 0


def test_the_cursor_moves_only_from_where_it_was_over_what_was_indexed(engine: Engine) -> None:
    gids = _log(engine, "a", "one", "two", "three")
    feed = engine.index_feed
    assert feed.move_cursor(engine.conn, 0, gids[1], 2) is True
    assert feed.read_cursor(engine.conn) == gids[1]
    assert feed.move_cursor(engine.conn, 0, gids[2], 3) is False  # not at 0 any more
    assert feed.move_cursor(engine.conn, gids[1], gids[2], 2) is False  # one message, not two
    assert feed.read_cursor(engine.conn) == gids[1]
    assert feed.move_cursor(engine.conn, gids[1], gids[2], 1) is True
    engine.commit()
    assert feed.log_position(engine.conn).cursor == gids[2]


def test_a_swap_names_the_index_and_its_cursor_together(engine: Engine) -> None:
    gids = _log(engine, "a", "one", "two")
    engine.index_feed.swap_index(engine.conn, "index-7", gids[0])
    engine.commit()
    assert engine.index_feed.read_meta(engine.conn, INDEX_DIR_KEY) == "index-7"
    assert engine.index_feed.read_cursor(engine.conn) == gids[0]


def test_messages_after_a_gid_are_docs_oldest_first_or_the_newest(engine: Engine) -> None:
    a = _log(engine, "a", "one", "two")
    b = _log(engine, "b", "three")
    docs = engine.index_feed.messages_after(engine.conn, a[0], 10)
    assert [gid for gid, _ in docs] == [a[1], b[0]]
    doc = docs[1][1]
    assert (doc.uid, doc.kind, doc.text, doc.scope, doc.session, doc.message_ids) == (
        "m:b:1", "message", "three", "scope/b", "b", ["b1"],
    )  # fmt: skip
    assert doc.source == "session b seq 1" and doc.ts == 1.0
    assert [g for g, _ in engine.index_feed.messages_after(engine.conn, 0, 2)] == a
    newest = engine.index_feed.messages_after(engine.conn, 0, 2, newest=True)
    assert [g for g, _ in newest] == [a[1], b[0]]
    assert engine.index_feed.messages_after(engine.conn, b[0], 10) == []
