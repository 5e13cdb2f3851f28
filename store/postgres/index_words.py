"""The words of episodes and facts in Postgres, scored as LanceDB's full-text index scores them.

The search index ranks memory docs by BM25 (``SearchIndex.search`` in text
mode), and the daemon puts that raw score on the words scale with the log's
reference (``on_words_scale``): the same docs must score the same on both
engines, or ``min_score`` would mean one thing on each. Postgres's own
``ts_rank`` is not BM25 (no IDF, no length norm), so the statistics are
kept here in LanceDB's terms:

- a doc's ``words`` column holds its tokens as LanceDB's default FTS
  analyzer makes them, duplicates kept (the term frequencies) and in order:
  runs of letters and digits, those of 40 bytes or more dropped,
  lower-cased, stemmed by Snowball English, stop words dropped after
  stemming, then folded to ASCII. Postgres does the stemming and knows the
  stop words (Snowball's English list, as tantivy's): one round trip per
  batch of docs or per query;
- a score is ``sum over query tokens (repeats counted) of idf * tf * (k1 + 1)
  / (tf + k1 * (1 - b + b * len / avgdl))`` with ``idf = ln(1 + (N - n +
  0.5) / (n + 0.5))``, ``N`` and ``avgdl`` over every doc that has words
  (episodes and facts: LanceDB's home table), whatever the search's filter.

Unlike LanceDB's, these statistics are exact at every commit: no index to
rebuild after deletes.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

import psycopg
from psycopg import sql

__all__ = ["DDL", "STEMMER", "analyzed", "bm25_sql", "stems"]

#: Snowball English without a stop-word list: LanceDB stems first and drops stop words
#: after, so "does" (stem "doe") stays; Postgres's ``english_stem`` drops it before.
STEMMER = "reverie_index_stem"
DDL: tuple[str, ...] = (
    f"CREATE TEXT SEARCH DICTIONARY {STEMMER} (TEMPLATE = snowball, Language = english)",
)
#: tantivy's SimpleTokenizer: a token is a run of alphanumeric characters.
_TOKEN = re.compile(r"[^\W_]+")
#: tantivy's RemoveLongFilter as LanceDB sets it: tokens of 40 bytes or more are dropped.
_MAX_TOKEN_BYTES = 40
_K1, _B = 1.2, 0.75


def _tokens(text: str) -> list[str]:
    """``text`` cut and lower-cased as LanceDB's analyzer does before stemming."""
    return [t.lower() for t in _TOKEN.findall(text) if len(t.encode("utf-8")) < _MAX_TOKEN_BYTES]


def _ascii(stem: str) -> str:
    """The folded form of a stem (tantivy's AsciiFoldingFilter, for the common cases)."""
    if stem.isascii():
        return stem
    decomposed = unicodedata.normalize("NFKD", stem)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def stems(conn: psycopg.Connection[Any], tokens: Iterable[str]) -> dict[str, str | None]:
    """Each token's stem as LanceDB indexes it, None for a stop word; one query."""
    unique = sorted(set(tokens))
    if not unique:
        return {}
    rows = conn.execute(
        sql.SQL(
            "SELECT t, CASE WHEN ts_lexize('english_stem', s) = '{{}}' THEN NULL ELSE s END"
            " FROM unnest(%s::text[]) AS t,"
            " LATERAL (SELECT (ts_lexize({}, t))[1] AS s) AS stemmed"
        ).format(sql.Literal(STEMMER)),
        (unique,),
    ).fetchall()
    return {t: None if s is None else _ascii(s) for t, s in rows}


def analyzed(conn: psycopg.Connection[Any], texts: list[str]) -> list[list[str]]:
    """Each text's words as LanceDB's full-text index holds them (see the module doc)."""
    cut = [_tokens(text) for text in texts]
    stem = stems(conn, (t for tokens in cut for t in tokens))
    return [[s for t in tokens if (s := stem[t]) is not None] for tokens in cut]


def bm25_sql(table: sql.Identifier, where: sql.Composable) -> sql.Composed:
    """The ``limit`` docs best scored for the query words (``%(words)s``, repeats kept),
    among those matching ``where``, with their BM25 as ``score``.

    Parameters: ``words`` (text[]) and ``limit``, besides ``where``'s. One GIN
    probe finds every doc holding a query word, filtered or not: those give the
    document frequencies, and the filtered ones are scored. ``N`` and ``avgdl``
    come from the partial index on ``len`` (docs with words only), so neither
    reads the messages' rows. Each step is materialized: inlined, the planner
    recounted a word's documents once per candidate.
    """
    return sql.SQL(
        """
WITH stats AS MATERIALIZED (
    SELECT count(*)::float8 AS docs, coalesce(avg(len), 0)::float8 AS avgdl
    FROM {t} WHERE words IS NOT NULL
), query AS MATERIALIZED (
    SELECT word, count(*) AS repeats FROM unnest(%(words)s::text[]) AS word GROUP BY word
), holding AS MATERIALIZED (
    SELECT uid, words, len, coalesce({where}, false) AS wanted
    FROM {t} WHERE words && %(words)s::text[]
), idf AS MATERIALIZED (
    SELECT q.word, q.repeats, ln(1 + (s.docs - n.docs + 0.5) / (n.docs + 0.5)) AS idf
    FROM query AS q CROSS JOIN stats AS s,
         LATERAL (SELECT count(*)::float8 AS docs FROM holding AS h WHERE q.word = ANY(h.words)) AS n
), scored AS (
    SELECT h.uid, sum(
        i.repeats * i.idf * tf.n * {k1p} /
        (tf.n + {k1} * (1 - {b} + {b} * h.len / nullif(s.avgdl, 0)))
    ) AS score
    FROM holding AS h CROSS JOIN stats AS s
    CROSS JOIN LATERAL (
        SELECT w AS word, count(*)::float8 AS n FROM unnest(h.words) AS w GROUP BY w
    ) AS tf
    JOIN idf AS i ON i.word = tf.word
    WHERE h.wanted
    GROUP BY h.uid
)
SELECT d.uid, d.kind, d.text, d.scope, d.session, d.ts, d.message_ids, d.source, sc.score
FROM scored AS sc JOIN {t} AS d USING (uid)
ORDER BY sc.score DESC, d.uid
LIMIT %(limit)s
"""
    ).format(
        t=table,
        where=where,
        k1=sql.Literal(_K1),
        k1p=sql.Literal(_K1 + 1),
        b=sql.Literal(_B),
    )
