"""The one row of a query that always returns one: what psycopg's typing cannot know.

The Postgres engine's twin of ``files/rows.py``: an aggregate, a scalar
subquery or a function call in a SELECT yields exactly one row, so its
callers index it directly; ``one_row`` says so once, for them and for the
type checker.
"""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg.abc import Params

__all__ = ["one_row"]


def one_row(conn: psycopg.Connection[Any], sql: str, params: Params) -> tuple[Any, ...]:
    """The single row of ``sql``, a query that always returns one (an aggregate)."""
    row = conn.execute(sql, params).fetchone()
    assert row is not None, f"an aggregate query returned no row: {sql}"
    return tuple(row)
