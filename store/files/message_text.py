r"""The message log's full-text index, kept by SQLite in the append's own transaction.

``message_text`` is an FTS5 table over ``messages``: triggers add a message's
words when its row is inserted and remove them when it is deleted, so a
message is searchable by its words from the moment its append is
acknowledged (the same commit), and a forgotten message leaves nothing here.
It is contentless (the text stays in ``messages`` alone) and uses the
``porter`` tokenizer: "moved" finds "moving", accents fold.

Each message is indexed with three columns: ``body`` (its content and
name), ``context`` (the two messages before it in its session) and
``session`` (its session's name as one hex token, for filtering; it adds
nothing to the score). A reply such as
"Yes, last Friday!" means little alone; with the question it answers it is
found by the question's words. ``context`` counts half as much as ``body``
(``CONTEXT_WEIGHT``).

Queries are plain words: a query is cut into ``\w+`` terms, English
function words are dropped (unless nothing else is left), and the rest are
OR-ed as quoted strings, so no FTS5 operator, quote or column filter in a
query reaches the parser. Ranking is FTS5's BM25 (k1 1.2, b 0.75); scores are
returned positive, higher is better. ``words_reference`` is what puts them on
a scale that means the same in every search: the sum of the query words'
IDF. Both take the words' document counts from a ``TermCounts`` (cached,
recounted when the index has grown by 1 %): counting them is what a search
of a large log spends its time on, not the match.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import apsw
import msgspec

from ..base.index_feed import message_doc
from ..base.message_text import (
    _ROWS_PER_SCORED_ROW,
    CONTEXT_MESSAGES,
    CONTEXT_WEIGHT,
    _bound,
    _query_words,
)
from ..base.term_counts import TermCounts
from ..bm25 import idf
from ..ranking import SearchHit, hit_from_doc
from .bm25 import FUNCTION, registered
from .index_feed import read_cursor
from .rows import one_row
from .term_counts import indexed_rows

__all__ = [
    "count_messages",
    "fts_match",
    "logged_messages",
    "purge_deleted_text",
    "search_message_text",
    "vector_gap",
    "with_log_text",
    "words_reference",
]


_CONTEXT_OF_NEW = (
    "(SELECT group_concat(content, ' ') FROM (SELECT content FROM messages"
    f" WHERE session = new.session AND seq < new.seq ORDER BY seq DESC LIMIT {CONTEXT_MESSAGES}))"
)


#: The migration that creates the index, its triggers, and fills it from the log.
MESSAGE_TEXT_DDL: tuple[str, ...] = (
    "CREATE VIRTUAL TABLE message_text USING fts5(body, context, session, content='',"
    " contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')",
    "CREATE TRIGGER message_text_add AFTER INSERT ON messages BEGIN"
    " INSERT INTO message_text (rowid, body, context, session)"
    f" VALUES (new.gid, new.content || coalesce(' ' || new.name, ''), {_CONTEXT_OF_NEW},"
    " 's' || hex(new.session)); END",
    "CREATE TRIGGER message_text_drop AFTER DELETE ON messages BEGIN"
    " DELETE FROM message_text WHERE rowid = old.gid; END",
    "INSERT INTO message_text (rowid, body, context, session)"
    " SELECT m.gid, m.content || coalesce(' ' || m.name, ''),"
    " (SELECT group_concat(content, ' ') FROM (SELECT p.content FROM messages p"
    f" WHERE p.session = m.session AND p.seq < m.seq ORDER BY p.seq DESC LIMIT {CONTEXT_MESSAGES})),"
    " 's' || hex(m.session) FROM messages m",
)


#: The migration that adds the per-term document counts ``TermCounts`` reads.
MESSAGE_TERMS_DDL: tuple[str, ...] = (
    "CREATE VIRTUAL TABLE message_terms USING fts5vocab(message_text, 'row')",
)


def words_reference(conn: apsw.Connection, query: str, counts: TermCounts) -> float:
    """What a message holding each of the query's words once, at average length, scores.

    FTS5's BM25 sums, over the query's phrases (one per word), ``idf * tf *
    (k1 + 1) / (tf + k1 * (1 - b + b * len / avglen))``: with ``tf`` 1 and
    average length each gives its IDF. A hit's BM25 over this is 1 for such
    a full match whatever the query or the corpus. ``counts`` must be the
    one the search ranked with, so the IDFs are the ones its BM25 used.
    A word no message holds counts as the rarest: an episode or a fact may
    hold it (LanceDB ranks those), and it is the query's most telling word.
    """
    words = _query_words(query)
    if not words:
        return 0.0
    rows = indexed_rows(conn)
    docs = counts.counts(conn, words)
    return sum(idf(rows, docs[word]) for word in words)


def fts_match(query: str, session: str | None = None) -> str:
    """The query as an FTS5 expression of quoted, OR-ed words; "" when it has none.

    A session filter becomes a term of the ``session`` column (the name in
    hex, one token): FTS5 then intersects the session's short list of rows
    with the words' lists instead of ranking every match in the log.
    """
    terms = " OR ".join(f'"{w}"' for w in _query_words(query))
    if not terms or session is None:
        return terms
    return f'session : "{_session_word(session)}" AND ({terms})'


def _session_word(session: str) -> str:
    """The session's one token in the ``session`` column: its name in hex."""
    return f"s{session.encode().hex()}"


def search_message_text(
    conn: apsw.Connection,
    query: str,
    counts: TermCounts,
    *,
    scope: str | None = None,
    session: str | None = None,
    since: float | None = None,
    until: float | None = None,
    among: Sequence[int] | None = None,
    limit: int = 10,
) -> list[SearchHit]:
    """The ``limit`` messages whose words best match ``query`` (BM25), best first.

    Filters are bound parameters; ``among`` keeps only the messages at these
    log positions (``gid``). Ties go to the older message. The score
    is FTS5's ``bm25()`` (negated), computed by ``reverie_bm25`` from
    ``counts`` when that is faster (``_ranked_in_python``): the same score
    to within the counts' staleness.
    """
    match = fts_match(query, session)
    if not match:
        return []
    where, params = _filters(scope=scope, session=session, since=since, until=until)
    if among is not None:
        where += " AND m.gid IN (SELECT value FROM json_each(?))"
        params.append(json.dumps(list(among)))
    score_sql, score_values = _ranking(conn, query, session, counts)
    # apsw types each value as any SQLite value; the schema fixes these columns' types.
    rows: list[Any] = (
        registered(conn)
        .execute(
            f"SELECT m.session, m.seq, m.id, m.content, m.ts, s.scope, {score_sql} AS score"
            " FROM message_text JOIN messages m ON m.gid = message_text.rowid"
            " JOIN sessions s ON s.name = m.session"
            f" WHERE message_text MATCH ?{where} ORDER BY score DESC, m.gid LIMIT ?",
            (*score_values, match, *params, limit),
        )
        .fetchall()
    )
    return [
        hit_from_doc(message_doc(session_name, seq, mid, content, ts, scope_name), float(score))
        for session_name, seq, mid, content, ts, scope_name, score in rows
    ]


def with_log_text(conn: apsw.Connection, hits: list[SearchHit]) -> list[SearchHit]:
    """``hits`` in order, each message's with its text from the log.

    The vector index stores no message text (``SearchIndex``), so a message
    found only by meaning comes back without it. A message no longer in the
    log (forgotten, its rows not yet purged from the index) is left out.
    """
    found = []
    for hit in hits:
        if hit.kind != "message":
            found.append(hit)
            continue
        row = conn.execute(
            "SELECT content FROM messages WHERE session = ? AND id = ?",
            (hit.session, hit.message_ids[0]),
        ).fetchone()
        if row is not None:
            found.append(msgspec.structs.replace(hit, text=str(row[0])))
    return found


def _ranking(
    conn: apsw.Connection, query: str, session: str | None, counts: TermCounts
) -> tuple[str, tuple[object, ...]]:
    """The score's SQL and its bound values: ``reverie_bm25`` fed ``counts``' IDFs, or
    ``bm25()``, whose counts of this snapshot ``counts`` then takes (so that
    ``words_reference`` divides by the IDFs it used)."""
    words = _query_words(query)
    weights = f"1.0, {CONTEXT_WEIGHT}, 0.0"
    if session is not None:
        phrases = [_session_word(session), *words]
        docs = counts.counts(conn, phrases)
        if _ranked_in_python(docs[phrases[0]], [docs[w] for w in words]):
            rows = indexed_rows(conn)
            idfs = tuple(idf(rows, docs[phrase]) for phrase in phrases)
            return f"{FUNCTION}(message_text, ?, {weights})", (apsw.pyobject(idfs),)
    counts.counts(conn, words, fresh=True)
    return f"-bm25(message_text, {weights})", ()


def _ranked_in_python(session_rows: int, word_docs: list[int]) -> bool:
    """Whether ``reverie_bm25`` beats ``bm25()``: it scores at most the session's rows
    in Python, where ``bm25()`` first walks every row of each word in C.

    With 1,000 messages a session, that is the case from about 100k messages
    in the log (at 1M: 3-4 ms against 24-36 ms). Without a session filter
    the rows to score are the words' rows themselves, so ``bm25()`` always
    wins (at 1M, four common words: 0.56 s against 2.4 s).
    """
    return session_rows * _ROWS_PER_SCORED_ROW < sum(word_docs)


def count_messages(
    conn: apsw.Connection,
    *,
    after_gid: int,
    scope: str | None = None,
    session: str | None = None,
    since: float | None = None,
    until: float | None = None,
) -> int:
    """Messages with text past ``after_gid`` in the log that match the filters.

    With the vector index's cursor as ``after_gid``: what a search's vector
    signal does not cover yet (a range of the log: cheap while the index
    keeps up).
    """
    where, params = _filters(scope=scope, session=session, since=since, until=until)
    row = one_row(
        conn,
        "SELECT count(*) FROM messages m JOIN sessions s ON s.name = m.session"
        f" WHERE m.gid > ? AND m.content != ''{where}",
        (after_gid, *params),
    )
    return int(row[0])


def logged_messages(conn: apsw.Connection, *, scope: str | None, session: str | None) -> int:
    """Messages ever appended to the matching sessions, from their rows (no scan of the log).

    The denominator of the vector signal's coverage: time filters are left
    out, and bare tool calls without text are counted.
    """
    where, params = _bound((("name = ?", session), ("scope = ?", scope)))
    sql = "SELECT coalesce(sum(last_seq), 0) FROM sessions"
    if where:
        sql += " WHERE " + " AND ".join(where)
    return int(one_row(conn, sql, params)[0])


def _filters(
    *, scope: str | None, session: str | None, since: float | None, until: float | None
) -> tuple[str, list[object]]:
    """`` AND ...`` clauses over ``messages m`` and ``sessions s``, values bound."""
    clauses, params = _bound(
        (
            ("m.session = ?", session),
            ("s.scope = ?", scope),
            ("m.ts >= ?", since),
            ("m.ts < ?", until),
        )
    )
    return "".join(f" AND {clause}" for clause in clauses), params


def purge_deleted_text(conn: apsw.Connection) -> None:
    """Rewrite the full-text index without the words of deleted messages.

    A delete only records a tombstone: the words stay in the index's pages
    until its segments are merged. ``optimize`` merges them all now (cost
    grows with the index; forgets are rare), so with ``secure_delete`` a
    forgotten message's words leave the database file.
    """
    conn.execute("INSERT INTO message_text (message_text) VALUES ('optimize')")


def vector_gap(
    conn: apsw.Connection,
    *,
    scope: str | None,
    session: str | None,
    since: float | None,
    until: float | None,
) -> tuple[int, int]:
    """Searched messages the vector index has not embedded yet, and all searched (one read)."""
    unembedded = count_messages(
        conn, after_gid=read_cursor(conn), scope=scope, session=session, since=since, until=until
    )
    if not unembedded:
        return 0, 0
    return unembedded, logged_messages(conn, scope=scope, session=session)


if TYPE_CHECKING:  # this module is the engine's ``MessageTextSql``: mypy checks what ``Tx`` calls
    from ..base.message_text import MessageTextSql
    from . import message_text as _this

    _answers: MessageTextSql = _this
