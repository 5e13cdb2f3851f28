"""The log's words on every engine: kept by the append's commit, gone with a delete, scored alike.

Each engine indexes a message's words (and the words of the two before it,
as its context) in the append's own transaction; a search names no engine's
query syntax, and a forget takes the words with the messages. How each
engine does it is tested beside it (tests/store/test_message_text.py: FTS5;
tests/store/postgres/test_message_text.py: the words column and its counts).
"""

from __future__ import annotations

import pytest

from reverie.store import SearchHit

from .engine import Engine


def _texts(hits: list[SearchHit]) -> list[str]:
    return [h.text for h in hits]


def _delete(engine: Engine, session: str) -> None:
    engine.journal.delete_session(engine.conn, session)
    engine.commit()


def test_appended_message_is_found_by_stemmed_words(engine: Engine) -> None:
    engine.append_texts("a", "We moved to Lisbon last spring.", "The weather was lovely.")
    hits = engine.tx.search_message_text("when did they move to lisbon", session="a")
    assert _texts(hits) == ["We moved to Lisbon last spring.", "The weather was lovely."]
    assert hits[0].score > hits[1].score  # the second has the words only as its context
    assert hits[0].uid == "m:a:1" and hits[0].scope == "session/a" and hits[0].score > 0


def test_a_reply_is_found_by_the_words_of_the_message_it_answers(engine: Engine) -> None:
    engine.append_texts(
        "a", "Did you adopt the greyhound?", "Yes, last Friday!", "Unrelated chatter."
    )
    texts = _texts(engine.tx.search_message_text("greyhound adopted", session="a"))
    assert texts[0] == "Did you adopt the greyhound?" and "Yes, last Friday!" in texts
    assert "Unrelated chatter." in _texts(
        engine.tx.search_message_text("greyhound", session="a", limit=5)
    )  # the next two messages carry it as context


def test_filters_hold_and_deleted_messages_leave_the_index(engine: Engine) -> None:
    tx, words = engine.tx, engine.message_text
    engine.append_texts("a", "quokka sighting on the island")
    engine.append_texts("b", "quokka photo album", scope="shared")
    assert {h.session for h in tx.search_message_text("quokka", scope="shared")} == {"b"}
    assert tx.search_message_text("quokka", session="a", until=0.5) != []
    assert tx.search_message_text("quokka", session="a", since=0.5) == []
    assert words.count_messages(engine.conn, after_gid=0) == 2
    assert words.count_messages(engine.conn, after_gid=1) == 1
    assert words.logged_messages(engine.conn, scope="shared", session=None) == 1
    assert tx.vector_gap(scope=None, session=None, since=None, until=None) == (2, 2)
    _delete(engine, "a")
    assert {h.session for h in tx.search_message_text("quokka")} == {"b"}
    assert words.count_messages(engine.conn, after_gid=0, session="a") == 0
    assert engine.sql("SELECT count(*) FROM messages WHERE content LIKE '%%sighting%%'") == [(0,)]
    tx.write_cursor(2)  # the vector index has embedded the log
    engine.commit()
    assert tx.vector_gap(scope=None, session=None, since=None, until=None) == (0, 0)


@pytest.mark.parametrize(
    "query",
    ['Lisbon" OR 1=1; --', "NEAR(a b)", "body:secret", "*", "^x", "'); DROP TABLE messages; --"],
)
def test_query_operators_are_plain_words(engine: Engine, query: str) -> None:
    engine.append_texts("a", "Lisbon body secret drop table messages near")
    hits = engine.tx.search_message_text(query)  # never the engine's query syntax error
    assert len(hits) == (0 if query in ("*", "^x") else 1)


def test_session_and_scope_filters_hold_for_any_name(engine: Engine) -> None:
    """Names are bound values, never SQL or query text: quotes, colons, spaces, accents."""
    names = ['o\'brien "x" é', "tg:123", "tg:1234", "a b", "Élan"]
    for name in names:
        engine.append_texts(name, f"kiwi note of {name}", scope=f"user/{name}")
    for name in names:
        by_session = engine.tx.search_message_text("kiwi note", session=name, limit=10)
        by_scope = engine.tx.search_message_text("kiwi note", scope=f"user/{name}")
        assert [h.session for h in by_session] == [h.session for h in by_scope] == [name]


def test_words_scale_gives_a_full_match_one_whatever_the_corpus(engine: Engine) -> None:
    """BM25 over the query's reference: 1 for each query word once at average length, in a
    corpus of 12 messages as after deleting half of it (the IDFs change, the scale does not)."""
    words = ["amber", "basil", "cedar", "delta", "ember", "fjord", "grove", "heron", "ivory"]
    for i in range(12):
        engine.append_texts(f"s{i}", " ".join(words[(i + j) % 9] for j in range(4)))
    engine.append_texts("hit", "lisbon conference tram ticket")
    text = engine.message_text
    for deleted in ([], [f"s{i}" for i in range(6)]):
        for session in deleted:
            _delete(engine, session)
        fresh = engine.term_counts.fresh_counts()  # the forget is past the counts' drift
        (best, *_) = text.search_message_text(engine.conn, "the Lisbon conferences", fresh)
        assert best.text == "lisbon conference tram ticket"
        reference = text.words_reference(engine.conn, "the Lisbon conferences", fresh)
        assert best.score / reference == pytest.approx(1.0)
        half = text.search_message_text(engine.conn, "lisbon zeppelin", fresh)[0].score
        assert half / text.words_reference(engine.conn, "lisbon zeppelin", fresh) < 0.5
    assert engine.tx.words_reference("!!!") == 0.0
    assert engine.tx.search_message_text("!!!") == []


def _hit(uid: str, kind: str, session: str, message_id: str) -> SearchHit:
    """A hit as the vector index returns it: a message's without its text."""
    return SearchHit(
        uid=uid,
        kind=kind,  # type: ignore[arg-type]
        text="" if kind == "message" else "an episode's summary",
        score=0.5,
        scope=f"session/{session}",
        session=session,
        ts=0.0,
        message_ids=[message_id],
        source="index",
    )


def test_message_hits_take_their_text_from_the_log_and_gone_messages_drop_out(
    engine: Engine,
) -> None:
    engine.append_texts("a", "We moved to Lisbon last spring.")
    engine.append_texts("b", "Forget me.")
    _delete(engine, "b")
    hits = [
        _hit("m:b:1", "message", "b", "b-0"),
        _hit("e:1", "episode", "a", "a-0"),
        _hit("m:a:1", "message", "a", "a-0"),
    ]
    assert [(h.uid, h.text) for h in engine.tx.with_log_text(hits)] == [
        ("e:1", "an episode's summary"),
        ("m:a:1", "We moved to Lisbon last spring."),
    ]
    assert engine.tx.with_log_text([]) == []
