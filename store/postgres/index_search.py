"""How a search reads the Postgres search index: the filter, the two queries, rows as hits.

The counterpart of ``store/table_reads.py`` for a pgvector table: functions
of a connection that hold no state. Filters are parameters, never SQL text,
so a client's scope or session name cannot change the query, and they are
applied in the query itself, so a search in one scope never sees another's
rows.

Nearest neighbours go through the HNSW index with ``hnsw.iterative_scan =
relaxed_order`` (pgvector 0.8): without it a filtered search stops at
``hnsw.ef_search`` candidates before the filter and returns fewer than it
was asked, where LanceDB, which scans, returns them all. ``ef_search`` is
raised well above pgvector's default, so the approximate nearest are
LanceDB's exact nearest (``_EF_SEARCH``), and the relaxed order is put
right by sorting the hits afterwards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec
import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import sql

from reverie.store import SearchHit, meaning_score

from .index_words import analyzed, bm25_sql

__all__ = ["filter_sql", "on_meaning_scale", "text_hits", "vector_hits", "vector_literal"]

_HIT_COLUMNS = sql.SQL("uid, kind, text, scope, session, ts, message_ids, source")
#: The HNSW candidate list a search keeps (``hnsw.ef_search``), at least, and pgvector's
#: bound on it. At 10,000 docs, the top 50 agreed with LanceDB's exact search 94.3 % at
#: pgvector's default of 40, 99.7 % at 200 and 100 % at 400, at 8 ms a search (LanceDB
#: took 11 ms): a reranked or thresholded hit must not depend on the engine.
_EF_SEARCH = 400
_MAX_EF_SEARCH = 1000


def vector_literal(vector: npt.NDArray[np.float32]) -> str:
    """A vector as pgvector's text input (``[x,y,...]``), exact for a float32."""
    return "[" + ",".join(repr(float(x)) for x in vector.tolist()) + "]"


def filter_sql(
    *,
    scope: str | None,
    session: str | None,
    kinds: Sequence[str] | None,
    since: float | None,
    until: float | None,
    uids: Sequence[str] | None = None,
    sessions: Sequence[str] | None = None,
) -> tuple[sql.Composable, dict[str, Any]]:
    """Every given filter at once (``since <= ts < until``) and its named parameters;
    ``true`` when none is given."""
    parts: list[sql.Composable] = []
    params: dict[str, Any] = {}
    for column, value, test in (
        ("scope", scope, "scope = %(scope)s"),
        ("session", session, "session = %(session)s"),
        ("kinds", None if kinds is None else list(kinds), "kind = ANY(%(kinds)s)"),
        ("since", None if since is None else float(since), "ts >= %(since)s"),
        ("until", None if until is None else float(until), "ts < %(until)s"),
        ("uids", None if uids is None else list(uids), "uid = ANY(%(uids)s)"),
        ("sessions", None if sessions is None else list(sessions), "session = ANY(%(sessions)s)"),
    ):
        if value is not None:
            parts.append(sql.SQL(test))
            params[column] = value
    where = sql.SQL(" AND ").join(parts) if parts else sql.SQL("true")
    return where, params


def vector_hits(
    conn: psycopg.Connection[Any],
    table: sql.Identifier,
    vector: npt.NDArray[np.float32],
    where: sql.Composable,
    params: dict[str, Any],
    limit: int,
) -> list[SearchHit]:
    """The ``limit`` nearest docs to ``vector`` matching ``where``, scored by their cosine
    similarity."""
    ef = min(_MAX_EF_SEARCH, max(_EF_SEARCH, 2 * limit))
    conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", (str(ef),))
    conn.execute("SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)")
    query = sql.SQL(
        "WITH nearest AS MATERIALIZED ("
        " SELECT {cols}, vector <=> %(vector)s::halfvec AS distance FROM {t}"
        " WHERE {where} ORDER BY distance LIMIT %(limit)s)"
        " SELECT {cols}, 1 - distance FROM nearest"
    ).format(cols=_HIT_COLUMNS, t=table, where=where)
    rows = conn.execute(
        query, {**params, "vector": vector_literal(vector), "limit": limit}
    ).fetchall()
    return _hits(rows, float)


def text_hits(
    conn: psycopg.Connection[Any],
    table: sql.Identifier,
    query: str,
    where: sql.Composable,
    params: dict[str, Any],
    limit: int,
) -> list[SearchHit]:
    """The ``limit`` best docs for the words of ``query``, scored by LanceDB's BM25
    (``index_words``)."""
    words = analyzed(conn, [query])[0]
    if not words:
        return []
    rows = conn.execute(
        bm25_sql(table, where), {**params, "words": words, "limit": limit}
    ).fetchall()
    return _hits(rows, float)


def _hits(rows: list[tuple[Any, ...]], score: Callable[[Any], float]) -> list[SearchHit]:
    """Rows to hits, ordered by score then uid so equal scores never reorder."""
    hits = [
        SearchHit(
            uid=uid,
            kind=kind,
            text=text,
            score=score(value),
            scope=scope,
            session=session,
            ts=ts,
            message_ids=list(message_ids or []),
            source=source,
        )
        for uid, kind, text, scope, session, ts, message_ids, source, value in rows
    ]
    hits.sort(key=lambda h: (-h.score, h.uid))
    return hits


def on_meaning_scale(by_cosine: Iterable[SearchHit]) -> list[SearchHit]:
    """Hits ranked by the cosine itself (ties by uid), then scored by ``meaning_score``:
    those below the meaning floor all score 0 and keep the nearest first."""
    ranked = sorted(by_cosine, key=lambda h: (-h.score, h.uid))
    return [msgspec.structs.replace(h, score=meaning_score(h.score)) for h in ranked]
