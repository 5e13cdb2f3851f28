"""How many messages hold a query word, on Postgres: what the shared cache counts with.

The cache (``reverie.store.base.term_counts.TermCounts``: the 1 % drift rule,
the LRU, the lock) is both engines'; it is given these two reads. The clock is
``message_words_stats.rows`` (constant time, kept by statement triggers as
FTS5 keeps its averages record), and a word's count is the rows whose
``words`` hold it as a phrase within one column (``reverie_phrase``: a GIN
lookup, one query for all the missing words).
"""

from __future__ import annotations

from typing import Any

import psycopg

from reverie.store.base.term_counts import TermCounts

__all__ = ["count_words", "fresh_counts", "indexed_rows"]


def indexed_rows(conn: psycopg.Connection[Any]) -> int:
    """The messages in the log, as BM25 counts them (``N``), in constant time."""
    row = conn.execute("SELECT coalesce(sum(rows), 0) FROM message_words_stats").fetchone()
    return int(row[0]) if row else 0


def count_words(conn: psycopg.Connection[Any], words: list[str]) -> dict[str, int]:
    """Messages holding each word as a phrase now; 0 for a word with no token."""
    found = conn.execute(
        "SELECT w, (SELECT count(*) FROM messages WHERE words @@ reverie_phrase(w))"
        " FROM unnest(%s::text[]) AS w",
        (words,),
    ).fetchall()
    return {str(word): int(docs) for word, docs in found}


def fresh_counts(*, capacity: int = 4096, drift: float = 0.01) -> TermCounts:
    """An empty cache of this engine's word counts (a database's, or a test's)."""
    return TermCounts(indexed_rows, count_words, capacity=capacity, drift=drift)
