"""The message log's full-text index, kept by SQLite in the append's own transaction.

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

Queries are plain words: a query is cut into ``\\w+`` terms, English
function words are dropped (unless nothing else is left), and the rest are
OR-ed as quoted strings, so no FTS5 operator, quote or column filter in a
query reaches the parser. Ranking is FTS5's BM25 (k1 1.2, b 0.75); scores are
returned positive, higher is better. ``words_reference`` is what puts them on
a scale that means the same in every search: the sum of the query terms'
IDF, read from ``message_terms`` (an ``fts5vocab`` view of the index, which
stores nothing) for the terms as the index's own tokenizer stems them.
"""

from __future__ import annotations

import math
from typing import Any

import apsw
import msgspec

from .index_feed import message_doc, read_cursor
from .ranking import SearchHit, hit_from_doc, text_terms
from .rows import one_row

__all__ = [
    "CONTEXT_WEIGHT",
    "MESSAGE_TERMS_DDL",
    "MESSAGE_TEXT_DDL",
    "STOP_WORDS",
    "count_messages",
    "fts_match",
    "logged_messages",
    "purge_deleted_text",
    "search_message_text",
    "vector_gap",
    "with_log_text",
    "words_reference",
]

CONTEXT_WEIGHT = 0.5
#: Messages before a message that are indexed as its context.
CONTEXT_MESSAGES = 2
MAX_MATCH_TERMS = 64

STOP_WORDS = frozenset(
    (
        "a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
        "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "him",
        "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
        "our", "she", "so", "some", "that", "the", "their", "them", "they", "this", "to", "was",
        "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with",
        "would", "you", "your",
    )
)  # fmt: skip

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


#: The migration that adds the per-term document counts ``words_reference`` reads.
MESSAGE_TERMS_DDL: tuple[str, ...] = (
    "CREATE VIRTUAL TABLE message_terms USING fts5vocab(message_text, 'row')",
)
_TOKENIZER = ("porter", ["unicode61", "remove_diacritics", "2"])  # as in MESSAGE_TEXT_DDL


def _query_words(query: str) -> list[str]:
    """The query's distinct words as searched: function words dropped unless nothing is left."""
    words = list(dict.fromkeys(text_terms(query)))
    return ([w for w in words if w not in STOP_WORDS] or words)[:MAX_MATCH_TERMS]


def words_reference(conn: apsw.Connection, query: str) -> float:
    """What a message holding each of the query's words once, at average length, scores.

    FTS5's BM25 sums, over the query's terms, ``idf * tf * (k1 + 1) / (tf +
    k1 * (1 - b + b * len / avglen))``: with ``tf`` 1 and average length each
    term gives its IDF, ``log((N - n + 0.5) / (n + 0.5))`` (at least 1e-6).
    A hit's BM25 over this is 1 for such a full match whatever the query or
    the corpus. ``N`` is the index's own row count (``_indexed_rows``), so
    the IDFs are the ones its BM25 used.
    A word no message holds counts as the rarest: an episode or a fact may
    hold it (LanceDB ranks those), and it is the query's most telling word.
    """
    tokenize = conn.fts5_tokenizer(*_TOKENIZER)
    stems = [
        str(stem)  # one plain string per token: no offsets, no colocated forms asked for
        for word in _query_words(query)
        for stem in tokenize(
            word.encode(),
            apsw.FTS5_TOKENIZE_QUERY,
            None,
            include_offsets=False,
            include_colocated=False,
        )
    ]
    if not stems:
        return 0.0
    total = _indexed_rows(conn)
    marks = ", ".join("?" * len(set(stems)))
    docs: dict[str, int] = dict(
        conn.execute(f"SELECT term, doc FROM message_terms WHERE term IN ({marks})", (*set(stems),))
    )
    return sum(
        max(1e-6, math.log((total - docs.get(stem, 0) + 0.5) / (docs.get(stem, 0) + 0.5)))
        for stem in stems
    )


def _indexed_rows(conn: apsw.Connection) -> int:
    """The rows of ``message_text``, as its BM25 counts them, in constant time.

    FTS5 keeps them in its averages record (``%_data`` id 1: a SQLite varint,
    then one per column); ``count(*)`` would read every row. The record is
    part of FTS5's file format, which SQLite keeps compatible.
    """
    found = conn.execute("SELECT block FROM message_text_data WHERE id = 1").fetchone()
    record: bytes = found[0] if found else b""
    value = 0
    for i, byte in enumerate(record):
        if i == 8:  # the ninth byte of a varint gives all its 8 bits
            return (value << 8) | byte
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            break
    return value


def fts_match(query: str, session: str | None = None) -> str:
    """The query as an FTS5 expression of quoted, OR-ed words; "" when it has none.

    A session filter becomes a term of the ``session`` column (the name in
    hex, one token): FTS5 then intersects the session's short list of rows
    with the words' lists instead of ranking every match in the log.
    """
    terms = " OR ".join(f'"{w}"' for w in _query_words(query))
    if not terms or session is None:
        return terms
    return f'session : "s{session.encode().hex()}" AND ({terms})'


def search_message_text(
    conn: apsw.Connection,
    query: str,
    *,
    scope: str | None = None,
    session: str | None = None,
    since: float | None = None,
    until: float | None = None,
    limit: int = 10,
) -> list[SearchHit]:
    """The ``limit`` messages whose words best match ``query`` (BM25), best first.

    Filters are bound parameters; ties go to the older message.
    """
    match = fts_match(query, session)
    if not match:
        return []
    where, params = _filters(scope=scope, session=session, since=since, until=until)
    # apsw types each value as any SQLite value; the schema fixes these columns' types.
    rows: list[Any] = conn.execute(
        "SELECT m.session, m.seq, m.id, m.content, m.ts, s.scope,"
        f" -bm25(message_text, 1.0, {CONTEXT_WEIGHT}, 0.0) AS score"
        " FROM message_text JOIN messages m ON m.gid = message_text.rowid"
        " JOIN sessions s ON s.name = m.session"
        f" WHERE message_text MATCH ?{where} ORDER BY score DESC, m.gid LIMIT ?",
        (match, *params, limit),
    ).fetchall()
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


def _bound(pairs: tuple[tuple[str, object], ...]) -> tuple[list[str], list[object]]:
    """The clauses whose value is given, and their values in the same order."""
    given = [(clause, value) for clause, value in pairs if value is not None]
    return [clause for clause, _ in given], [value for _, value in given]


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
