"""SQLite: the to-dos left in ``meta`` for work outside a transaction (forgets, pops)."""

from __future__ import annotations

from collections.abc import Iterable

import apsw
import msgspec

from ..base.markers import (
    _Marker,
)

__all__ = ["drop_markers", "read_markers", "write_marker"]


def write_marker(conn: apsw.Connection, key: str) -> None:
    conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, 1)", (key,))


def drop_markers(conn: apsw.Connection, keys: Iterable[str]) -> None:
    conn.executemany("DELETE FROM meta WHERE key = ?", [(key,) for key in keys])


def read_markers(conn: apsw.Connection, prefix: str, kind: type[_Marker]) -> list[_Marker]:
    """The markers under ``prefix``, oldest key first (the keys from ``prefix`` up to,
    not including, the prefix with its last character's successor)."""
    rows = conn.execute(
        "SELECT key FROM meta WHERE key >= ? AND key < ? ORDER BY key",
        (prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)),
    )
    return [msgspec.json.decode(key[len(prefix) :], type=kind) for (key,) in rows]
