"""How many messages hold a query word, on Postgres: the SQLite engine's cache, other counts.

The cache (``reverie.store.term_counts.TermCounts``: the 1 % drift rule,
the LRU, the lock) is the same; what it counts with differs. The clock is
``message_words_stats.rows`` (constant time, kept by statement triggers as
FTS5 keeps its averages record), and a word's count is the rows whose
``words`` hold it as a phrase within one column (``reverie_phrase``: a GIN
lookup, one query for all the missing words).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import psycopg

from reverie.store.term_counts import TermCounts as _Cache

__all__ = ["TermCounts", "indexed_rows"]


def indexed_rows(conn: psycopg.Connection[Any]) -> int:
    """The messages in the log, as BM25 counts them (``N``), in constant time."""
    row = conn.execute("SELECT rows FROM message_words_stats").fetchone()
    return int(row[0]) if row else 0


class TermCounts(_Cache):
    """Messages holding each query word, cached per word (the SQLite engine's cache).

    Only ``counts`` is the engine's: the base class reads FTS5 in it. Once
    ``reverie.store.term_counts.TermCounts`` takes its two reads as callables
    (``rows(conn)``, ``count(conn, words)``), this class is that one built
    with ``indexed_rows`` and ``count_words``.
    """

    def counts(  # type: ignore[override]  # a psycopg connection where the base takes apsw's
        self, conn: psycopg.Connection[Any], words: Iterable[str], *, fresh: bool = False
    ) -> dict[str, int]:
        """Each word's document count, recounted if missing, stale, or ``fresh`` is asked."""
        rows = indexed_rows(conn)
        wanted = list(dict.fromkeys(words))
        known = {} if fresh else self._cached(wanted, rows)
        missing = [w for w in wanted if w not in known]
        if missing:
            counted = count_words(conn, missing)
            self._store(counted, rows)
            known.update(counted)
        return known


def count_words(conn: psycopg.Connection[Any], words: list[str]) -> dict[str, int]:
    """Messages holding each word as a phrase now; 0 for a word with no token."""
    found = conn.execute(
        "SELECT w, (SELECT count(*) FROM messages WHERE words @@ reverie_phrase(w))"
        " FROM unnest(%s::text[]) AS w",
        (words,),
    ).fetchall()
    return {str(word): int(docs) for word, docs in found}
