"""SQLite: the log's messages a summary covers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import apsw

from ..base.index_feed import message_uid
from ..base.provenance import (
    MAX_COVERED,
)

__all__ = ["covered_messages"]


def covered_messages(
    conn: apsw.Connection,
    named: Sequence[tuple[str, str]],
    *,
    since: float | None = None,
    until: float | None = None,
) -> list[tuple[int, str]]:
    """The log position (``gid``) and index uid of each ``(session, id)`` still in the log.

    Only those with ``since <= ts < until``; at most ``MAX_COVERED`` looked
    up, in the order named, each by one probe of the ``(session, id)`` index.
    """
    pairs = json.dumps([list(pair) for pair in named[:MAX_COVERED]])
    # apsw types each value as any SQLite value; the schema fixes these columns' types.
    rows: list[Any] = conn.execute(
        "SELECT m.gid, m.session, m.seq FROM json_each(?) AS j"
        " JOIN messages m ON m.session = j.value ->> 0 AND m.id = j.value ->> 1"
        " WHERE m.ts >= coalesce(?, m.ts) AND m.ts < coalesce(?, m.ts + 1) ORDER BY j.key",
        (pairs, since, until),
    ).fetchall()
    return [(int(gid), message_uid(str(session), int(seq))) for gid, session, seq in rows]


if TYPE_CHECKING:  # this module is the engine's ``ProvenanceSql``: mypy checks what ``Tx`` calls
    from ..base.provenance import ProvenanceSql
    from . import provenance as _this

    _answers: ProvenanceSql = _this
