"""Which scopes' memory another daemon or worker wrote: the Postgres engine's ``scan``.

On the file engine the memory watcher notices hand edits of the Markdown
tree. Here nobody edits rows by hand, but other members of the cluster write
them: a worker applies a job, another daemon takes a fact edit. Each row of
``memory_versions`` and ``history_entries`` records its writer (the
``reverie.member`` of its connection) and its transaction's time, so a
member asks for the scopes others wrote since its last look, and its keeper
then drops its cached prefix and its indexer re-reads the scope's facts and
episodes, as for a hand edit.

Times are the transaction's start (the database's clock); one that commits
later than ``MARGIN`` after it started could be missed, so each look goes
back ``MARGIN`` seconds and a scope already reported for a write is not
reported again for it.
"""

from __future__ import annotations

from typing import Any

import psycopg

from .cluster import ME

__all__ = ["DDL", "MARGIN", "MemoryChanges"]

#: Seconds each look reaches back before the newest write it has seen.
MARGIN = 30.0

#: Who wrote each row, and when (``memory_versions.created`` already says when).
DDL: tuple[str, ...] = (
    "ALTER TABLE memory_versions ADD COLUMN writer text"
    " DEFAULT current_setting('reverie.member', true)",
    "CREATE INDEX memory_versions_created ON memory_versions (created)",
    "ALTER TABLE history_entries ADD COLUMN writer text"
    " DEFAULT current_setting('reverie.member', true),"
    " ADD COLUMN written double precision NOT NULL DEFAULT extract(epoch FROM now())",
    "CREATE INDEX history_entries_written ON history_entries (written)",
)

_OTHERS = (
    "SELECT scope, max(created) FROM memory_versions WHERE created > %(since)s"
    f" AND writer IS DISTINCT FROM {ME} GROUP BY scope"
    " UNION ALL"
    " SELECT scope, max(written) FROM history_entries WHERE written > %(since)s"
    f" AND writer IS DISTINCT FROM {ME} GROUP BY scope"
)


def _written_by_others(conn: psycopg.Connection[Any], since: float) -> list[tuple[str, float]]:
    return [(str(s), float(w)) for s, w in conn.execute(_OTHERS, {"since": since})]


def _now(conn: psycopg.Connection[Any]) -> float:
    row = conn.execute("SELECT extract(epoch FROM now())").fetchone()
    return float(row[0]) if row else 0.0


class MemoryChanges:
    """The scopes other members wrote since the last ``look`` (one caller: the watcher)."""

    def __init__(self) -> None:
        self._since = 0.0  # the newest write seen (the database's clock)
        self._reported: dict[str, float] = {}  # scope -> the newest write of it reported

    def start(self, conn: psycopg.Connection[Any]) -> None:
        """What is there at start is not a change."""
        self._since = _now(conn)

    def look(self, conn: psycopg.Connection[Any]) -> list[str]:
        changed = []
        for scope, written in _written_by_others(conn, self._since - MARGIN):
            if written > self._reported.get(scope, 0.0):
                self._reported[scope] = written
                changed.append(scope)
            self._since = max(self._since, written)
        horizon = self._since - MARGIN
        self._reported = {s: w for s, w in self._reported.items() if w > horizon}
        return sorted(set(changed))
