"""How ``SearchIndex`` answers a search: by meaning over every table that may hold the
filter's rows, by words over the home table, fused.

The reads themselves (filters, queries, rows as hits) are ``table_reads``';
here they are spread over the tables and their hits merged by score.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec
from lancedb.expr import Expr, col

from ..ranking import TEXT_WEIGHT, VECTOR_WEIGHT, SearchHit, fuse, meaning_score
from ..search_query import Mode, candidate_depth, checked_query, fts_query
from .index_core import IndexCore, wrapped
from .table_reads import filter_expr, text_hits, vector_hits


class IndexSearch(IndexCore):
    """The index's searches (a part of ``SearchIndex``)."""

    def search(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        kinds: Iterable[str] | None = None,
        k: int = 10,
        since: float | None = None,
        until: float | None = None,
        mode: Mode = "hybrid",
    ) -> list[SearchHit]:
        """The ``k`` best docs matching every given filter (``since <= ts < until``).

        Scores: meaning (``meaning_score`` of the cosine similarity) in
        ``vector`` mode, LanceDB's raw BM25 in ``text`` mode (the daemon's
        search puts it on the words scale with the query's IDF reference,
        which only the message log's index knows). ``hybrid`` fuses the best
        ``candidate_depth(k)`` docs of each (``fuse``), the BM25 scaled by
        its best hit's for want of that reference; if the query has no
        searchable word left it ranks by meaning alone. Only the home table
        holds text (episodes and facts), so only it is searched by words.
        """
        text = checked_query(query, kinds=kinds, mode=mode, k=k)
        kind_list = None if kinds is None else sorted(set(kinds))
        every = self._ready()
        tables = every.reading(session=session, scope=scope, kinds=kind_list)
        if kind_list == [] or not tables:
            return []
        where = filter_expr(scope=scope, session=session, kinds=kind_list, since=since, until=until)
        depth = k if mode != "hybrid" else candidate_depth(k)
        fts = fts_query(text)
        by_vector = [] if mode == "text" else self._by_meaning(tables, text, where, depth)
        by_text: list[SearchHit] = []
        if mode != "vector" and fts and any(t is every.home for t in tables):
            with wrapped("text search"):
                by_text = text_hits(every.home, fts, where, depth)
        if mode == "vector" or not fts:
            return by_vector[:k]
        if mode == "text":
            return by_text
        top = max((h.score for h in by_text), default=1.0) or 1.0
        by_words = [msgspec.structs.replace(h, score=h.score / top) for h in by_text]
        return fuse(by_words, by_vector, (TEXT_WEIGHT, VECTOR_WEIGHT))[:k]

    def meaning_among(
        self, query: str, uids: Iterable[str], sessions: Iterable[str]
    ) -> list[SearchHit]:
        """The docs with these uids, nearest to ``query`` first, scored by ``meaning_score``.

        How a summary's own messages are ranked (``actors.search.provenance``):
        an exact search over the few rows named, whatever their rank overall.
        ``sessions`` (theirs) lets the session index narrow the rows first, and
        skips the generations holding none of them.
        """
        wanted = sorted(set(uids))
        if not wanted:
            return []
        named = sorted(set(sessions))
        where = col("session").isin(named) & col("uid").isin(wanted)
        tables = self._ready().holding_any(named)
        return self._by_meaning(tables, query, where, len(wanted)) if tables else []

    def _by_meaning(
        self, tables: list[Any], text: str, where: Expr | None, limit: int
    ) -> list[SearchHit]:
        """The ``limit`` nearest docs over ``tables``: each table's nearest, merged."""
        vector = self._queries.of(text)
        with wrapped("vector search"):
            by_cosine = [
                hit for table in tables for hit in vector_hits(table, vector, where, limit)
            ]
        by_cosine.sort(key=lambda h: (-h.score, h.uid))
        # Ranked by the cosine itself: hits below the meaning floor all score 0, and
        # their order is still the nearest first.
        return [msgspec.structs.replace(h, score=meaning_score(h.score)) for h in by_cosine[:limit]]
