"""Durable markers in SQLite's ``meta``: work a commit promised that a step outside SQLite finishes.

A forget's job (``journal.ForgetJob``: files and index rows still to remove)
and a pop's unindex (``message_pop.Unindex``: an index row still to delete)
are each a msgspec Struct kept as JSON after a prefix of its own in a
``meta`` key. The marker is written in the commit that makes the promise,
listed by whoever finishes the work (at start too, after a crash), and
deleted once the work is done: so the work is never lost, and redoing it
is harmless.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

import apsw
import msgspec

__all__ = ["drop_markers", "marker_key", "read_markers", "write_marker"]

_Marker = TypeVar("_Marker", bound=msgspec.Struct)


def marker_key(prefix: str, marker: msgspec.Struct) -> str:
    """The ``meta`` key of ``marker``: ``prefix`` and its JSON."""
    return prefix + msgspec.json.encode(marker).decode()


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
