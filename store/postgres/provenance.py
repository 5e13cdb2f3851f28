"""The log's messages behind a summary, on Postgres: ``covered_messages`` of the SQLite engine's
``provenance`` (``fact_sources`` is pure: it is imported from there)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import psycopg

from reverie.store.base.index_feed import message_uid
from reverie.store.base.provenance import MAX_COVERED

__all__ = ["covered_messages"]


def covered_messages(
    conn: psycopg.Connection[Any],
    named: Sequence[tuple[str, str]],
    *,
    since: float | None = None,
    until: float | None = None,
) -> list[tuple[int, str]]:
    """``(gid, uid)`` of the named messages still in the log with ``since <= ts < until``,
    in the order named; the first ``MAX_COVERED`` names are looked up, in one query."""
    pairs = named[:MAX_COVERED]
    rows = conn.execute(
        "SELECT m.gid, m.session, m.seq FROM unnest(%s::text[], %s::text[]) WITH ORDINALITY"
        " AS j(session, id, n) JOIN messages m ON m.session = j.session AND m.id = j.id"
        " WHERE m.ts >= coalesce(%s::float8, m.ts) AND m.ts < coalesce(%s::float8, m.ts + 1)"
        " ORDER BY j.n",
        ([s for s, _ in pairs], [i for _, i in pairs], since, until),
    ).fetchall()
    return [(int(gid), message_uid(str(session), int(seq))) for gid, session, seq in rows]


if TYPE_CHECKING:  # this module is the engine's ``ProvenanceSql``: mypy checks what ``Tx`` calls
    from ..base.provenance import ProvenanceSql
    from . import provenance as _this

    _answers: ProvenanceSql = _this
