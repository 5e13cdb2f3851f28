"""BM25's IDF as SQLite's FTS5 computes it, shared by both engines' word scores (the
SQLite engine's FTS5 function ``files/bm25.py``, the Postgres engine's SQL)."""

from __future__ import annotations

import math

__all__ = [
    "idf",
]

_K1 = 1.2
_B = 0.75


def idf(rows: int, docs: int) -> float:
    """BM25's IDF of a phrase ``docs`` of ``rows`` rows hold, as ``bm25()`` computes it.

    FTS5 floors it at 1e-6: a phrase in more than half the rows would
    otherwise count against a match.
    """
    value = math.log((rows - docs + 0.5) / (docs + 0.5))
    return value if value > 0.0 else 1e-6
