"""Working memory in Postgres: the SQLite engine's functions (``store/base/working_memory.py``), in SQL.

Same names, parameters, results, refusals and meaning: keys with a version
for compare-and-set and an optional ``expires_at`` that every read honours
before the sweeper deletes the row; a task; a scratchpad; checkpoints whose
blob is the very msgpack the SQLite engine writes (``_Snapshot``), so a
checkpoint means the same on both engines. Each function runs inside a
transaction its caller owns and never commits; those that refuse
(``Conflict``, ``NotFound``, ``LimitReached``, and ``InvalidArgument`` for a
NUL character, which only this engine cannot store) do so before they
change anything, so a refusal leaves the transaction as it was for the other
writes batched with it. Each write holds its scope's lock (``scope_lock``):
daemons sharing the database write a scope one at a time.

Where SQLite pays nothing per statement, a round trip to the server costs:
deletes say what they removed with ``RETURNING`` inside one statement, and a
scope chain is looked up in one query. Keys are compared and ordered
``COLLATE "C"`` (bytewise on UTF-8), the order SQLite's BINARY collation
gives, whatever the database's locale.

Checkpoints list newest first and, for equal ``created``, in reverse order of
insertion: SQLite breaks that tie with its ``rowid``; here the schema has the
insertion counter ``seq`` that Postgres rows lack.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec
import psycopg

from reverie.config import Conflict, InvalidArgument, NotFound
from reverie.store.base.working_memory import (
    _KEY_COLUMNS,
    _SCOPE_TABLES,
    _TASK_COLUMNS,
    CheckpointRecord,
    KeyRecord,
    ScopeStats,
    ScratchRecord,
    TaskRecord,
    _Snapshot,
    _snapshot_decoder,
    _snapshot_encoder,
)
from reverie.store.wm_bounds import Tally

from .rows import one_row
from .scope_lock import one_writer

__all__ = [
    "append_scratch",
    "clear_keys",
    "clear_scratch",
    "create_checkpoint",
    "delete_checkpoint",
    "delete_key",
    "delete_scope_state",
    "expiring_keys",
    "list_checkpoints",
    "list_keys",
    "load_task",
    "lookup_key",
    "read_scratch",
    "restore_checkpoint",
    "save_task",
    "scope_stats",
    "scope_usage",
    "set_key",
    "sweep_keys",
]

#: The checkpoints' insertion order, SQLite's ``rowid`` tie-break of equal ``created``.

_LIVE = "(expires_at IS NULL OR expires_at > %s)"
_BY_KEY = 'ORDER BY key COLLATE "C"'
_NO_CHECKPOINT = "no checkpoint {!r} in scope {!r}"


def _storable(what: str, text: str) -> None:
    """Refuse the one text SQLite keeps and Postgres cannot: a NUL character.

    psycopg refuses it while sending, with an error that is not reverie's
    and would fail every write batched with this one; refused here it is
    this write's own ``InvalidArgument``, before anything changes.
    """
    if "\x00" in text:
        raise InvalidArgument(f"{what} contains a NUL character, which Postgres cannot store")


def _expired(expires_at: float | None, now: float) -> bool:
    return expires_at is not None and expires_at <= now


# -- keys ---------------------------------------------------------------------


def lookup_key(
    conn: psycopg.Connection[Any], scopes: Sequence[str], key: str, now: float
) -> tuple[str, KeyRecord] | None:
    """The first scope in ``scopes`` holding an unexpired ``key``, with the key (one query)."""
    row = conn.execute(
        f"SELECT scope, {_KEY_COLUMNS} FROM wm_keys"
        f" WHERE scope = ANY(%s) AND key = %s AND {_LIVE}"
        " ORDER BY array_position(%s, scope) LIMIT 1",
        (list(scopes), key, now, list(scopes)),
    ).fetchone()
    return None if row is None else (row[0], KeyRecord(*row[1:]))


@one_writer
def set_key(
    conn: psycopg.Connection[Any],
    scope: str,
    key: str,
    value: bytes,
    *,
    expires_at: float | None,
    expected_version: int | None,
    now: float,
    tally: Tally,
) -> int:
    """Write ``key``, compare-and-set on ``expected_version``, bounded by ``tally``: as SQLite's.

    The row is read ``FOR UPDATE``, so no other transaction changes it
    between the check and the write.
    """
    row = conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = %s AND key = %s FOR UPDATE",
        (scope, key),
    ).fetchone()
    old = None if row is None else KeyRecord(*row)
    version = 0 if old is None or _expired(old.expires_at, now) else old.version
    if expected_version is not None and expected_version != version:
        raise Conflict(
            f"key {key!r} in scope {scope!r} is at version {version}, not {expected_version}; "
            "read it again and retry"
        )
    tally.put(key, None if old is None else old.value, value)
    conn.execute(
        f"INSERT INTO wm_keys (scope, {_KEY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value,"
        " version = excluded.version, expires_at = excluded.expires_at, updated = excluded.updated",
        (scope, key, value, version + 1, expires_at, now),
    )
    return version + 1


@one_writer
def delete_key(conn: psycopg.Connection[Any], scope: str, key: str, now: float) -> bool:
    """Remove ``key``; True when an unexpired key was there."""
    row = conn.execute(
        "DELETE FROM wm_keys WHERE scope = %s AND key = %s RETURNING expires_at", (scope, key)
    ).fetchone()
    return row is not None and not _expired(row[0], now)


def list_keys(
    conn: psycopg.Connection[Any], scope: str, prefix: str, now: float
) -> list[KeyRecord]:
    """Unexpired keys starting with ``prefix``, ordered by key (bytewise, as SQLite)."""
    rows = conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = %s AND starts_with(key, %s)"
        f" AND {_LIVE} {_BY_KEY}",
        (scope, prefix, now),
    )
    return [KeyRecord(*r) for r in rows]


@one_writer
def clear_keys(conn: psycopg.Connection[Any], scope: str, now: float) -> int:
    """Remove every key of ``scope``; returns how many were unexpired."""
    return int(
        one_row(
            conn,
            "WITH gone AS (DELETE FROM wm_keys WHERE scope = %s RETURNING expires_at)"
            f" SELECT count(*) FILTER (WHERE {_LIVE}) FROM gone",
            (scope, now),
        )[0]
    )


@one_writer
def sweep_keys(conn: psycopg.Connection[Any], scope: str, keys: Sequence[str], now: float) -> int:
    """Delete those of ``keys`` that have expired by ``now``; count them in the scope's stats."""
    return int(
        one_row(
            conn,
            "WITH gone AS (DELETE FROM wm_keys"
            "  WHERE scope = %s AND key = ANY(%s) AND expires_at <= %s RETURNING 1),"
            " counted AS (INSERT INTO wm_stats (scope, swept)"
            "  SELECT %s, count(*) FROM gone HAVING count(*) > 0"
            "  ON CONFLICT (scope) DO UPDATE SET swept = wm_stats.swept + excluded.swept)"
            " SELECT count(*) FROM gone",
            (scope, list(keys), now, scope),
        )[0]
    )


def expiring_keys(conn: psycopg.Connection[Any]) -> list[tuple[float, str, str]]:
    """Every (expires_at, scope, key) with a TTL: the sweeper's agenda after a start."""
    rows = conn.execute("SELECT expires_at, scope, key FROM wm_keys WHERE expires_at IS NOT NULL")
    return [(r[0], r[1], r[2]) for r in rows]


def scope_stats(conn: psycopg.Connection[Any], scope: str, now: float) -> ScopeStats:
    keys, size, checkpoints, swept = one_row(
        conn,
        "SELECT count(*), coalesce(sum(length(value)), 0),"
        " (SELECT count(*) FROM wm_checkpoints WHERE scope = %s),"
        " coalesce((SELECT swept FROM wm_stats WHERE scope = %s), 0)"
        f" FROM wm_keys WHERE scope = %s AND {_LIVE}",
        (scope, scope, scope, now),
    )
    return ScopeStats(keys=keys, bytes=size, checkpoints=checkpoints, expired_swept=swept)


# -- task ---------------------------------------------------------------------


def load_task(conn: psycopg.Connection[Any], scope: str) -> TaskRecord | None:
    row = conn.execute(
        f"SELECT {_TASK_COLUMNS} FROM wm_tasks WHERE scope = %s", (scope,)
    ).fetchone()
    return None if row is None else TaskRecord(*row)


@one_writer
def save_task(conn: psycopg.Connection[Any], scope: str, task: TaskRecord | None) -> None:
    """Replace the scope's task state (None removes it)."""
    if task is None:
        conn.execute("DELETE FROM wm_tasks WHERE scope = %s", (scope,))
        return
    for what in ("task_id", "description", "status"):
        _storable(f"task {what}", getattr(task, what))
    replaced = ", ".join(f"{c} = excluded.{c}" for c in _TASK_COLUMNS.split(", "))
    conn.execute(
        f"INSERT INTO wm_tasks (scope, {_TASK_COLUMNS})"
        " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
        f" ON CONFLICT (scope) DO UPDATE SET {replaced}",
        (scope, *msgspec.structs.astuple(task)),
    )


# -- scratchpad -----------------------------------------------------------------


@one_writer
def append_scratch(
    conn: psycopg.Connection[Any], scope: str, text: str, ts: float, capacity: int, tally: Tally
) -> tuple[int, int]:
    """Append a line; drop the oldest beyond ``capacity``. Returns (n, how many dropped).

    A line that would take the scope past its bytes is ``LimitReached``
    (``tally``): the next number and the bytes the line would drop are read
    first, then the line goes in and the oldest go out in one statement.
    """
    _storable("scratchpad text", text)
    n, dropped = one_row(
        conn,
        "SELECT top.n, (SELECT coalesce(sum(octet_length(text)), 0) FROM wm_scratch"
        "  WHERE scope = %s AND n <= top.n - %s)"
        " FROM (SELECT coalesce(max(n), 0) + 1 AS n FROM wm_scratch WHERE scope = %s) AS top",
        (scope, capacity, scope),
    )
    tally.scratch(len(text.encode()), dropped)
    gone = one_row(
        conn,
        "WITH line AS (INSERT INTO wm_scratch (scope, n, text, ts) VALUES (%s, %s, %s, %s)),"
        " gone AS (DELETE FROM wm_scratch WHERE scope = %s AND n <= %s RETURNING 1)"
        " SELECT count(*) FROM gone",
        (scope, n, text, ts, scope, n - capacity),
    )[0]
    return n, gone


def read_scratch(
    conn: psycopg.Connection[Any], scope: str, last: int | None
) -> list[ScratchRecord]:
    """The scratchpad oldest first; only the newest ``last`` lines when given."""
    rows = conn.execute(
        "SELECT n, text, ts FROM wm_scratch WHERE scope = %s ORDER BY n DESC LIMIT %s",
        (scope, last),
    ).fetchall()
    return [ScratchRecord(*r) for r in reversed(rows)]


@one_writer
def clear_scratch(conn: psycopg.Connection[Any], scope: str) -> int:
    return conn.execute("DELETE FROM wm_scratch WHERE scope = %s", (scope,)).rowcount


# -- checkpoints ----------------------------------------------------------------


@one_writer
def create_checkpoint(
    conn: psycopg.Connection[Any],
    scope: str,
    checkpoint_id: str,
    label: str | None,
    now: float,
    tally: Tally | None = None,
) -> CheckpointRecord:
    """Snapshot the scope's keys (expired ones included, expiry kept), task and scratchpad;
    with ``tally``, refused over ``max_checkpoints`` (counted here, after the scope's lock:
    two daemons counting before it both saw room)."""
    if tally is not None:
        tally.checkpoint()
    keys = conn.execute(f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = %s {_BY_KEY}", (scope,))
    snapshot = _Snapshot(
        keys=[KeyRecord(*r) for r in keys],
        task=load_task(conn, scope),
        scratch=read_scratch(conn, scope, None),
    )
    blob = _snapshot_encoder.encode(snapshot)
    conn.execute(
        "INSERT INTO wm_checkpoints (id, scope, label, created, size, blob)"
        " VALUES (%s, %s, %s, %s, %s, %s)",
        (checkpoint_id, scope, label, now, len(blob), blob),
    )
    return CheckpointRecord(id=checkpoint_id, label=label, created=now, size=len(blob))


@one_writer
def restore_checkpoint(
    conn: psycopg.Connection[Any], scope: str, checkpoint_id: str
) -> list[KeyRecord]:
    """Make the scope exactly as checkpointed, versions moved past any seen: as SQLite's."""
    row = conn.execute(
        "SELECT blob FROM wm_checkpoints WHERE id = %s AND scope = %s", (checkpoint_id, scope)
    ).fetchone()
    if row is None:
        raise NotFound(_NO_CHECKPOINT.format(checkpoint_id, scope))
    snapshot = _snapshot_decoder.decode(row[0])
    conn.execute(
        "DELETE FROM wm_keys WHERE scope = %s AND NOT key = ANY(%s)",
        (scope, [k.key for k in snapshot.keys]),
    )
    # In place: a row rewritten where it is costs less than one deleted and inserted again.
    conn.cursor().executemany(
        f"INSERT INTO wm_keys (scope, {_KEY_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)"
        " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value,"
        " version = greatest(wm_keys.version + 1, excluded.version),"
        " expires_at = excluded.expires_at, updated = excluded.updated",
        [(scope, k.key, k.value, k.version + 1, k.expires_at, k.updated) for k in snapshot.keys],
    )
    save_task(conn, scope, snapshot.task)
    clear_scratch(conn, scope)
    conn.cursor().executemany(
        "INSERT INTO wm_scratch (scope, n, text, ts) VALUES (%s, %s, %s, %s)",
        [(scope, s.n, s.text, s.ts) for s in snapshot.scratch],
    )
    return snapshot.keys


def list_checkpoints(conn: psycopg.Connection[Any], scope: str) -> list[CheckpointRecord]:
    """The scope's checkpoints, newest first."""
    rows = conn.execute(
        "SELECT id, label, created, size FROM wm_checkpoints WHERE scope = %s"
        " ORDER BY created DESC, seq DESC",
        (scope,),
    )
    return [CheckpointRecord(id=r[0], label=r[1], created=r[2], size=r[3]) for r in rows]


@one_writer
def delete_checkpoint(conn: psycopg.Connection[Any], scope: str, checkpoint_id: str) -> None:
    deleted = conn.execute(
        "DELETE FROM wm_checkpoints WHERE id = %s AND scope = %s", (checkpoint_id, scope)
    ).rowcount
    if not deleted:
        raise NotFound(_NO_CHECKPOINT.format(checkpoint_id, scope))


@one_writer
def delete_scope_state(conn: psycopg.Connection[Any], scope: str) -> int:
    """Delete everything ``scope`` holds (keys, task, scratchpad, checkpoints); rows deleted."""
    deletes = ", ".join(
        f"gone_{table} AS (DELETE FROM {table} WHERE scope = %(scope)s RETURNING 1)"
        for table in _SCOPE_TABLES
    )
    counts = " + ".join(f"(SELECT count(*) FROM gone_{table})" for table in _SCOPE_TABLES)
    return int(one_row(conn, f"WITH {deletes} SELECT {counts}", {"scope": scope})[0])


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


if TYPE_CHECKING:  # this module is the engine's ``WorkingMemorySql``: mypy checks what ``Tx`` calls
    from ..base.working_memory import WorkingMemorySql
    from . import working_memory as _this

    _answers: WorkingMemorySql = _this
