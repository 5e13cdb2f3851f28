"""The message log's words on Postgres, scored like the SQLite engine's FTS5 BM25.

Postgres' own ranking (``ts_rank``) has no IDF, so the calibrated ``words``
score (a hit's BM25 over ``words_reference``) could not mean the same on
both engines with it. This module keeps what FTS5 keeps and computes its
BM25 in SQL: k1 1.2, b 0.75, ``body`` weighted 1.0 and ``context``
``CONTEXT_WEIGHT`` (0.5), ``D`` the row's tokens, ``avgdl`` the log's
tokens over its rows, each query word's IDF from ``TermCounts``.

What a message's row holds, set by a ``BEFORE INSERT`` trigger on
``messages`` (so whoever inserts, the words are there in the same commit,
and a deleted message takes them with it; a batch's rows must go in in
``seq`` order, as for SQLite's trigger, to be each other's context):

- ``words``: a ``tsvector`` of the ``body`` (content weight A, name weight
  C: both count 1) and the ``context`` (the contents of the two messages
  before it in its session, weight B), as ``message_text_add`` indexes
  them in SQLite;
- ``words_len``: FTS5's ``D``, the tokens of both plus the one of its
  session column; ``words_own``: its content's tokens (its part of the
  next messages' ``D``).

The columns are added to ``messages`` by ``DDL``, which belongs in the
migration that creates that table (an existing log would need its rows'
words computed). Appending costs the trigger about 100 µs a message, and
the GIN index 10-90 µs (its pending list, merged now and then).

``message_words_stats`` holds the log's rows and tokens, kept by statement
triggers (FTS5 keeps the same in its averages record): read in constant
time, it is ``N`` and ``avgdl``, and ``TermCounts``' clock. Its counts are
split in rows (``words_stats``): a single row would be locked by every
append until it commits, and daemons sharing the database would append
one at a time.

Tokens are cut as FTS5's ``unicode61`` cuts them (runs of letters and
digits, by Unicode's classes: the ``pg_c_utf8`` collation, PostgreSQL 17+),
folded (``lower``, ``unaccent``) and stemmed by Snowball's ``porter``, the
algorithm of FTS5's ``porter`` (on LoCoMo's 4,074 word types 12 stem apart,
against 164 with Snowball's ``english``). No stop words are dropped from
the log; a query drops them as the SQLite engine does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec
import psycopg

from reverie.store import SearchHit
from reverie.store.base.index_feed import message_doc
from reverie.store.base.message_text import CONTEXT_MESSAGES, CONTEXT_WEIGHT, _bound, _query_words
from reverie.store.bm25 import idf
from reverie.store.ranking import hit_from_doc

from ..base.term_counts import TermCounts
from .index_feed import read_cursor
from .term_counts import indexed_rows
from .words_stats import STATS_SHARDS, count_function

__all__ = [
    "DDL",
    "count_messages",
    "logged_messages",
    "search_message_text",
    "vector_gap",
    "with_log_text",
    "words_reference",
]

_K1 = 1.2
_B = 0.75
#: ``ts_rank_cd``'s weights of the columns, ``{D, C, B, A}``: the body is content A and
#: name C, the context B (D unused).
_WEIGHTS = f"'{{1, 1, {CONTEXT_WEIGHT}, 1}}'::float4[]"

#: The text search configuration, the columns, their triggers and index, and the stats row.
DDL: tuple[str, ...] = (
    "CREATE EXTENSION IF NOT EXISTS unaccent",
    "CREATE TEXT SEARCH DICTIONARY reverie_stem (TEMPLATE = snowball, Language = porter)",
    "CREATE TEXT SEARCH CONFIGURATION reverie (PARSER = default)",
    # what the parser makes of runs of letters and digits: words, mixed runs, numbers, "1e5"
    "ALTER TEXT SEARCH CONFIGURATION reverie ADD MAPPING FOR asciiword, word, numword"
    " WITH unaccent, reverie_stem",
    "ALTER TEXT SEARCH CONFIGURATION reverie ADD MAPPING FOR uint, sfloat WITH simple",
    # FTS5's unicode61 tokens, lower-cased, one space apart. FTS5's porter leaves words under
    # three letters alone, Snowball's cuts "us" to "u": such a word ending in s or y gets
    # "ing", which Snowball takes off again, so "us" is "us" and meets "used" ("us") as in FTS5.
    "CREATE FUNCTION reverie_cut(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE"
    r" RETURN regexp_replace(btrim(lower(regexp_replace($1 COLLATE pg_c_utf8,"
    r" '[^[:alnum:]]+', ' ', 'g'))), '\m([[:alpha:]][sy])\M', '\1ing', 'g')",
    "CREATE FUNCTION reverie_tokens(cut text) RETURNS integer LANGUAGE sql IMMUTABLE STRICT"
    " PARALLEL SAFE RETURN CASE WHEN cut = '' THEN 0"
    " ELSE length(cut) - length(replace(cut, ' ', '')) + 1 END",
    # a word as FTS5 matches a quoted phrase: its tokens in a row, within one column
    """
CREATE FUNCTION reverie_phrase(word text) RETURNS tsquery LANGUAGE sql STABLE PARALLEL SAFE
RETURN (
    SELECT CASE WHEN count(*) = 1 THEN min(quote_literal(u.lexeme))
        ELSE '(' || string_agg(quote_literal(u.lexeme) || ':AC', ' <-> ' ORDER BY p.pos)
            || ') | (' || string_agg(quote_literal(u.lexeme) || ':B', ' <-> ' ORDER BY p.pos)
            || ')' END::tsquery
    FROM unnest(to_tsvector('reverie', reverie_cut(word))) u, unnest(u.positions) p(pos))""",
    "ALTER TABLE messages ADD COLUMN words tsvector NOT NULL DEFAULT ''::tsvector,"
    " ADD COLUMN words_len integer NOT NULL DEFAULT 1,"
    " ADD COLUMN words_own integer NOT NULL DEFAULT 0",
    # plpgsql, not SQL: its statements' plans are kept for the session, not made per row.
    # The context is the previous messages' content lexemes as they stored them (weight A):
    # parsing their text again cost twice the row's own parse.
    f"""
CREATE FUNCTION reverie_words_add() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    content text := reverie_cut(NEW.content);
    name text := reverie_cut(coalesce(NEW.name, ''));
    context tsvector := '';
    context_len integer := 0;
    previous record;
BEGIN
    FOR previous IN SELECT words, words_own FROM messages
        WHERE session = NEW.session AND seq < NEW.seq ORDER BY seq DESC LIMIT {CONTEXT_MESSAGES}
    LOOP
        context := context || ts_filter(previous.words, '{{a}}');
        context_len := context_len + previous.words_own;
    END LOOP;
    NEW.words_own := reverie_tokens(content);
    NEW.words := setweight(to_tsvector('reverie', content), 'A')
        || setweight(to_tsvector('reverie', name), 'C') || setweight(context, 'B');
    NEW.words_len := NEW.words_own + reverie_tokens(name) + context_len + 1;
    RETURN NEW;
END $$""",
    "CREATE TRIGGER messages_words BEFORE INSERT ON messages"
    " FOR EACH ROW EXECUTE FUNCTION reverie_words_add()",
    "CREATE INDEX messages_words ON messages USING gin (words)",
    "CREATE TABLE message_words_stats (shard integer PRIMARY KEY,"
    " rows bigint NOT NULL, tokens bigint NOT NULL)",
    "INSERT INTO message_words_stats (shard, rows, tokens)"
    " SELECT 0, count(*), coalesce(sum(words_len), 0) FROM messages",
    count_function(f"pg_backend_pid() % {STATS_SHARDS}"),
    "CREATE TRIGGER messages_words_added AFTER INSERT ON messages REFERENCING NEW TABLE AS changed"
    " FOR EACH STATEMENT EXECUTE FUNCTION reverie_words_count()",
    "CREATE TRIGGER messages_words_deleted AFTER DELETE ON messages"
    " REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION reverie_words_count()",
)

#: The migration that keeps the trigger's look-up of a message's context on the
#: ``(session, seq)`` index, in one plan made once a connection. A plpgsql plan is kept
#: for the connection's life: made while ``messages`` was small (a fresh database, before
#: autovacuum first analyzed it), a sequential scan won, and from then on every appended
#: row read the whole log (64 clients into one session, search index off: 691 appends/s,
#: one scan a row; 2,342/s on the index). The daemon's connections plan each statement anew
#: (``db.py``); this one stays generic, on the index.
CONTEXT_PLAN_DDL: tuple[str, ...] = (
    "ALTER FUNCTION reverie_words_add() SET enable_seqscan = off"
    " SET plan_cache_mode = force_generic_plan",
)

#: FTS5's ``bm25()`` over the rows that hold a query word as a phrase in one column.
#: A word's weighted frequency in a row (body 1, context ``CONTEXT_WEIGHT``) is
#: ``ts_rank_cd`` of its phrase with these weights and no normalisation: each
#: occurrence is a cover of its own, worth its column's weight (``{D, C, B, A}``).
#: ``{score}`` is one ``_TERM`` per query word, unrolled: a subquery per row over the
#: words cost 14 µs a row, the unrolled sum 1 µs (100k messages, three common words).
#: Rows scoring 0 (below) are dropped after the ``LIMIT``: they rank last, so only when
#: fewer rows score (a filter in the same query level computed each score twice).
_RANKED = """
WITH q AS (
    SELECT %(phrases)s::tsquery[] AS phrases, %(idfs)s::float8[] AS idfs,
        (SELECT sum(tokens)::float8 / greatest(sum(rows), 1) FROM message_words_stats) AS avgdl
), found AS (
    SELECT m.gid, m.words, q.phrases, q.idfs,
        {k1}::float8 * (1 - {b}::float8 + {b}::float8 * m.words_len / q.avgdl) AS norm
    FROM messages m CROSS JOIN q
    WHERE m.words @@ %(match)s::tsquery{where}
), ranked AS (
    SELECT gid, {score} AS score FROM found ORDER BY score DESC, gid LIMIT %(limit)s
)
SELECT m.session, m.seq, m.id, m.content, m.ts, s.scope, r.score
FROM ranked r JOIN messages m USING (gid) JOIN sessions s ON s.name = m.session
WHERE r.score > 0 ORDER BY r.score DESC, r.gid
"""
#: A word's BM25 in a row, ``idf * tf * (k1 + 1) / (tf + norm)`` with ``tf`` written once
#: (so computed once); 0 where the row lacks the phrase. A row whose phrases are all
#: split across its columns (the GIN match is looser) scores 0 and is no hit, as in FTS5.
_TERM = (
    "coalesce(idfs[{i}] * {k1_1} / (1 + norm"
    " / nullif(ts_rank_cd({weights}, words, phrases[{i}], 0)::float8, 0)), 0)"
)


def words_reference(conn: psycopg.Connection[Any], query: str, counts: TermCounts) -> float:
    """What a message holding each of the query's words once, at average length, scores:
    the sum of their IDFs, as the SQLite engine's ``words_reference`` (its docstring says why)."""
    words = _query_words(query)
    if not words:
        return 0.0
    rows = indexed_rows(conn)
    docs = counts.counts(conn, words)
    return sum(idf(rows, docs[word]) for word in words)


def search_message_text(
    conn: psycopg.Connection[Any],
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

    The same hits and scores as the SQLite engine's (to within the stemmers'
    few differences): every row holding a query word is scored with the IDFs
    of ``counts`` (within their 1 % drift, as the SQLite engine's session
    searches are), ties to the older message. ``among`` keeps only these log
    positions (``gid``).
    """
    words = _query_words(query)
    if not words:
        return []
    where, params = _filters(scope=scope, session=session, since=since, until=until)
    if among is not None:
        where += " AND m.gid = ANY(%(among)s::bigint[])"
        params["among"] = list(among)
    phrases = _phrases(conn, words)
    if all(phrase is None for phrase in phrases):
        return []  # no word has a token: nothing holds it
    rows = indexed_rows(conn)
    docs = counts.counts(conn, words)
    found = conn.execute(
        _RANKED.format(
            where=where,
            k1=_K1,
            b=_B,
            score=" + ".join(
                _TERM.format(i=i, k1_1=_K1 + 1.0, weights=_WEIGHTS)
                for i in range(1, len(phrases) + 1)
            ),
        ),
        {
            **params,
            "phrases": phrases,
            "match": " | ".join(f"({phrase})" for phrase in phrases if phrase is not None),
            "idfs": [idf(rows, docs[word]) for word in words],
            "limit": limit,
        },
    ).fetchall()
    return [
        hit_from_doc(message_doc(name, seq, mid, content, ts, scope_name), float(score))
        for name, seq, mid, content, ts, scope_name, score in found
    ]


def _phrases(conn: psycopg.Connection[Any], words: list[str]) -> list[str | None]:
    """Each word's phrase query (None for a word with no token), for the search to bind
    as values: the planner then knows how common they are, and reads a session's rows
    by its index rather than every row of a common word."""
    row = conn.execute(
        "SELECT array_agg(reverie_phrase(w)::text ORDER BY i)"
        " FROM unnest(%s::text[]) WITH ORDINALITY AS w(w, i)",
        (words,),
    ).fetchone()
    return list(row[0]) if row else []


def with_log_text(conn: psycopg.Connection[Any], hits: list[SearchHit]) -> list[SearchHit]:
    """``hits`` in order, each message's with its text from the log (one read for all);
    a message no longer in the log is left out."""
    messages = [hit for hit in hits if hit.kind == "message"]
    texts = dict(
        conn.execute(
            "SELECT j.n, m.content FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY"
            " AS j(session, id, n) JOIN messages m ON m.session = j.session AND m.id = j.id",
            ([h.session for h in messages], [h.message_ids[0] for h in messages]),
        ).fetchall()
    )
    found, n = [], 0
    for hit in hits:
        if hit.kind != "message":
            found.append(hit)
            continue
        n += 1  # the message's ordinal in the query's arrays
        if n in texts:
            found.append(msgspec.structs.replace(hit, text=str(texts[n])))
    return found


def count_messages(
    conn: psycopg.Connection[Any],
    *,
    after_gid: int,
    scope: str | None = None,
    session: str | None = None,
    since: float | None = None,
    until: float | None = None,
) -> int:
    """Messages with text past ``after_gid`` in the log that match the filters."""
    where, params = _filters(scope=scope, session=session, since=since, until=until)
    row = conn.execute(
        f"SELECT count(*) FROM messages m WHERE m.gid > %(after)s AND m.content != ''{where}",
        {**params, "after": after_gid},
    ).fetchone()
    return int(row[0]) if row else 0


def logged_messages(
    conn: psycopg.Connection[Any], *, scope: str | None, session: str | None
) -> int:
    """Messages ever appended to the matching sessions, from their rows (no scan of the log)."""
    clauses, values = _bound((("name = %s", session), ("scope = %s", scope)))
    sql = "SELECT coalesce(sum(last_seq), 0) FROM sessions"
    if clauses:
        sql += " WHERE " + " AND ".join(clauses)
    row = conn.execute(sql, values).fetchone()
    return int(row[0]) if row else 0


def vector_gap(
    conn: psycopg.Connection[Any],
    *,
    scope: str | None,
    session: str | None,
    since: float | None,
    until: float | None,
) -> tuple[int, int]:
    """Searched messages the vector index has not embedded yet, and all searched."""
    unembedded = count_messages(
        conn, after_gid=read_cursor(conn), scope=scope, session=session, since=since, until=until
    )
    if not unembedded:
        return 0, 0
    return unembedded, logged_messages(conn, scope=scope, session=session)


def _filters(
    *, scope: str | None, session: str | None, since: float | None, until: float | None
) -> tuple[str, dict[str, object]]:
    """`` AND ...`` clauses over ``messages m``, values bound by name."""
    given = {
        name: (clause, value)
        for name, clause, value in (
            ("session", "m.session = %(session)s", session),
            ("scope", "m.session IN (SELECT name FROM sessions WHERE scope = %(scope)s)", scope),
            ("since", "m.ts >= %(since)s", since),
            ("until", "m.ts < %(until)s", until),
        )
        if value is not None
    }
    return (
        "".join(f" AND {clause}" for clause, _ in given.values()),
        {name: value for name, (_, value) in given.items()},
    )


if TYPE_CHECKING:  # this module is the engine's ``MessageTextSql``: mypy checks what ``Tx`` calls
    from ..base.message_text import MessageTextSql
    from . import message_text as _this

    _answers: MessageTextSql = _this
