"""The one row of a query that always returns one: what apsw's typing cannot know.

apsw types ``Cursor.fetchone()`` as a row or ``None`` (no row left). An
aggregate (``count``, ``max``, ``coalesce(...)``) or a PRAGMA such as
``user_version`` always yields exactly one row, so its callers index it
directly; ``one_row`` says so once, for them and for the type checker.
"""

from __future__ import annotations

from typing import Any

import apsw

__all__ = ["one_row"]


def one_row(
    conn: apsw.Connection, sql: str, bindings: apsw.Bindings | None = None
) -> tuple[Any, ...]:
    """The single row of ``sql``, a query that always returns one (an aggregate, a PRAGMA)."""
    row = conn.execute(sql, bindings).fetchone()
    assert row is not None, f"an aggregate query returned no row: {sql}"
    return tuple(row)  # apsw's rows are tuples already: this only states the type
