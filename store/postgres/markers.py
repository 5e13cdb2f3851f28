"""Durable markers in Postgres' ``meta``: work a commit promised that a step outside the
transaction finishes (a forget's files and index rows, a pop's index row).

The same markers as the SQLite engine's (``reverie.store.base.markers``): a msgspec
Struct's JSON after a prefix of its own, as the ``meta`` key; the value is a
plain ``1``. Keys are compared byte-wise (``COLLATE "C"``) so the order they
are listed in is SQLite's, whatever the database's collation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypeVar

import msgspec
import psycopg
from psycopg.types.json import Jsonb

__all__ = ["drop_markers", "read_markers", "write_marker"]

_Marker = TypeVar("_Marker", bound=msgspec.Struct)


def write_marker(conn: psycopg.Connection[Any], key: str) -> None:
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (%s, %s)"
        " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (key, Jsonb(1)),
    )


def drop_markers(conn: psycopg.Connection[Any], keys: Iterable[str]) -> None:
    """Delete the markers ``keys`` in one statement."""
    conn.execute("DELETE FROM meta WHERE key = ANY(%s::text[])", (list(keys),))


def read_markers(conn: psycopg.Connection[Any], prefix: str, kind: type[_Marker]) -> list[_Marker]:
    """The markers under ``prefix``, oldest key first (byte order, as SQLite sorts)."""
    rows = conn.execute(
        'SELECT key FROM meta WHERE starts_with(key, %s) ORDER BY key COLLATE "C"', (prefix,)
    )
    return [msgspec.json.decode(key[len(prefix) :], type=kind) for (key,) in rows]
