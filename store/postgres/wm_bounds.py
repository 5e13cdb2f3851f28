"""A working-memory scope's bounds on Postgres: the SQLite engine's ``Tally``, reading usage here.

What a scope may hold (``ScopeBounds``), when a write is refused
(``LimitReached`` naming the setting) and how one batch keeps its count are
the engine-free part of ``store/wm_bounds.py``, inherited unchanged; only
the query that reads what a scope holds differs, and here it is one round
trip instead of three.
"""

from __future__ import annotations

from typing import Any

import psycopg

from reverie.store import wm_bounds
from reverie.store.wm_bounds import ScopeBounds, _Usage

__all__ = ["Tally", "scope_usage"]


def scope_usage(conn: psycopg.Connection[Any], scope: str) -> tuple[int, int, int]:
    """(keys, bytes of values and scratchpad lines, checkpoints) of ``scope``, expired keys too."""
    row = conn.execute(
        "SELECT (SELECT count(*) FROM wm_keys WHERE scope = %(scope)s),"
        " (SELECT coalesce(sum(length(value)), 0) FROM wm_keys WHERE scope = %(scope)s)"
        " + (SELECT coalesce(sum(octet_length(text)), 0) FROM wm_scratch WHERE scope = %(scope)s),"
        " (SELECT count(*) FROM wm_checkpoints WHERE scope = %(scope)s)",
        {"scope": scope},
    ).fetchone()
    assert row is not None, "an aggregate query returned no row"
    return int(row[0]), int(row[1]), int(row[2])


class Tally(wm_bounds.Tally):
    """What one scope holds, as far as this batch's bounded writes need to know.

    A subclass only because the SQLite ``Tally`` reads usage through its apsw
    connection; it never touches that connection here.
    """

    __slots__ = ("pg",)

    def __init__(self, conn: psycopg.Connection[Any], scope: str, bounds: ScopeBounds) -> None:
        self.pg = conn
        self.scope = scope
        self.bounds = bounds
        self._usage: _Usage | None = None

    def _now(self) -> _Usage:
        if self._usage is None:
            self._usage = _Usage(*scope_usage(self.pg, self.scope))
        return self._usage
