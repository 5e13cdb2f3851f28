"""How a search reads the index's LanceDB table: the filter, the two queries, rows as hits.

``SearchIndex`` owns the table (its lifecycle, writes and optimizes); these
functions only read one table handed to them, so they hold no state and
need no lock. Filters are ``lancedb.expr`` expressions (typed literals, not
SQL text): scope and session names, which are arbitrary client strings,
cannot change the query. They are applied before ranking (prefilter), so a
search in one scope never sees or returns another scope's rows.

LanceDB's errors leave these functions as they are; the caller wraps them
as the store's (``index_core.wrapped``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
from lancedb.expr import Expr, col, lit

from ..ranking import SearchHit

__all__ = ["filter_expr", "text_hits", "vector_hits"]

_HIT_COLUMNS = ["uid", "kind", "text", "scope", "session", "ts", "message_ids", "source"]


def filter_expr(
    *,
    scope: str | None,
    session: str | None,
    kinds: list[str] | None,
    since: float | None,
    until: float | None,
) -> Expr | None:
    """Every given filter at once (``since <= ts < until``); None when none is given."""
    parts: list[Expr] = []
    if scope is not None:
        parts.append(col("scope") == lit(scope))
    if session is not None:
        parts.append(col("session") == lit(session))
    if kinds is not None:
        parts.append(col("kind").isin(kinds))
    if since is not None:
        parts.append(col("ts") >= lit(float(since)))
    if until is not None:
        parts.append(col("ts") < lit(float(until)))
    if not parts:
        return None
    where = parts[0]
    for part in parts[1:]:
        where = where & part
    return where


def vector_hits(
    table: Any, vector: npt.NDArray[np.float32], where: Expr | None, limit: int
) -> list[SearchHit]:
    """The ``limit`` nearest docs to ``vector``, scored by their cosine similarity."""
    builder = table.search(vector, query_type="vector").distance_type("cosine")
    if where is not None:
        builder = builder.where(where, prefilter=True)
    rows = builder.select([*_HIT_COLUMNS, "_distance"]).limit(limit).to_arrow().to_pylist()
    return _hits(rows, lambda row: 1.0 - float(row["_distance"]))


def text_hits(table: Any, fts: str, where: Expr | None, limit: int) -> list[SearchHit]:
    """The ``limit`` best docs for the full-text query ``fts``, scored by LanceDB's BM25."""
    builder = table.search(fts, query_type="fts")
    if where is not None:
        builder = builder.where(where, prefilter=True)
    rows = builder.select([*_HIT_COLUMNS, "_score"]).limit(limit).to_arrow().to_pylist()
    return _hits(rows, lambda row: float(row["_score"]))


def _hits(rows: list[dict[str, Any]], score: Callable[[dict[str, Any]], float]) -> list[SearchHit]:
    """Rows to hits, ordered by score then uid so equal scores never reorder."""
    hits = [
        SearchHit(
            uid=row["uid"],
            kind=row["kind"],
            text=row["text"],
            score=score(row),
            scope=row["scope"],
            session=row["session"],
            ts=row["ts"],
            message_ids=list(row["message_ids"] or []),
            source=row["source"],
        )
        for row in rows
    ]
    hits.sort(key=lambda h: (-h.score, h.uid))
    return hits
