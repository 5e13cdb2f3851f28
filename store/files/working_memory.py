"""SQLite: working memory (keys with TTL and versions, tasks, scratchpad, checkpoints)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import apsw
import msgspec

from reverie.config import Conflict, NotFound

from ..base.working_memory import (
    _KEY_COLUMNS,
    _LIVE,
    _SCOPE_KEYS,
    _SCOPE_TABLES,
    _TASK_COLUMNS,
    CheckpointRecord,
    KeyRecord,
    ScopeStats,
    ScratchRecord,
    TaskRecord,
    _live,
    _Snapshot,
    _snapshot_decoder,
    _snapshot_encoder,
)
from ..wm_bounds import Tally
from .rows import one_row

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


def _key_row(conn: apsw.Connection, scope: str, key: str) -> KeyRecord | None:
    row = conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = ? AND key = ?", (scope, key)
    ).fetchone()
    return None if row is None else KeyRecord(*row)


def lookup_key(
    conn: apsw.Connection, scopes: Sequence[str], key: str, now: float
) -> tuple[str, KeyRecord] | None:
    """The first scope in ``scopes`` holding an unexpired ``key``, with the key."""
    for scope in scopes:
        record = _live(_key_row(conn, scope, key), now)
        if record is not None:
            return scope, record
    return None


def set_key(
    conn: apsw.Connection,
    scope: str,
    key: str,
    value: bytes,
    *,
    expires_at: float | None,
    expected_version: int | None,
    now: float,
    tally: Tally,
) -> int:
    """Write ``key``; returns its new version. An expired key counts as absent (version 0).

    ``expected_version`` (if given) must equal the current version, else
    ``Conflict`` naming the current one; 0 means "must not exist". A write
    past the scope's bounds is ``LimitReached`` (``tally``).
    """
    row = _key_row(conn, scope, key)
    current = _live(row, now)
    version = current.version if current is not None else 0
    if expected_version is not None and expected_version != version:
        raise Conflict(
            f"key {key!r} in scope {scope!r} is at version {version}, not {expected_version}; "
            "read it again and retry"
        )
    tally.put(key, None if row is None else row.value, value)
    conn.execute(
        f"INSERT OR REPLACE INTO wm_keys (scope, {_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
        (scope, key, value, version + 1, expires_at, now),
    )
    return version + 1


def delete_key(conn: apsw.Connection, scope: str, key: str, now: float) -> bool:
    """Remove ``key``; True when an unexpired key was there."""
    existed = _live(_key_row(conn, scope, key), now) is not None
    conn.execute("DELETE FROM wm_keys WHERE scope = ? AND key = ?", (scope, key))
    return existed


def list_keys(conn: apsw.Connection, scope: str, prefix: str, now: float) -> list[KeyRecord]:
    """Unexpired keys starting with ``prefix``, ordered by key."""
    rows = conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = ? AND substr(key, 1, ?) = ?"
        f" AND {_LIVE} ORDER BY key",
        (scope, len(prefix), prefix, now),
    )
    return [KeyRecord(*r) for r in rows]


def clear_keys(conn: apsw.Connection, scope: str, now: float) -> int:
    """Remove every key of ``scope``; returns how many were unexpired."""
    live = one_row(conn, f"SELECT count(*) FROM wm_keys WHERE scope = ? AND {_LIVE}", (scope, now))[
        0
    ]
    conn.execute("DELETE FROM wm_keys WHERE scope = ?", (scope,))
    return int(live)


def sweep_keys(conn: apsw.Connection, scope: str, keys: Sequence[str], now: float) -> int:
    """Delete those of ``keys`` that have expired by ``now``; count them in the scope's stats."""
    swept = 0
    for key in keys:
        conn.execute(
            "DELETE FROM wm_keys WHERE scope = ? AND key = ? AND expires_at <= ?",
            (scope, key, now),
        )
        swept += conn.changes()
    if swept:
        conn.execute(
            "INSERT INTO wm_stats (scope, swept) VALUES (?, ?)"
            " ON CONFLICT (scope) DO UPDATE SET swept = swept + excluded.swept",
            (scope, swept),
        )
    return swept


def expiring_keys(conn: apsw.Connection) -> list[tuple[float, str, str]]:
    """Every (expires_at, scope, key) with a TTL: the sweeper's agenda after a start."""
    rows = conn.execute("SELECT expires_at, scope, key FROM wm_keys WHERE expires_at IS NOT NULL")
    return [(r[0], r[1], r[2]) for r in rows]


def scope_stats(conn: apsw.Connection, scope: str, now: float) -> ScopeStats:
    keys, size = one_row(
        conn,
        f"SELECT count(*), coalesce(sum(length(value)), 0) FROM wm_keys WHERE scope = ? AND {_LIVE}",
        (scope, now),
    )
    checkpoints = one_row(conn, "SELECT count(*) FROM wm_checkpoints WHERE scope = ?", (scope,))[0]
    swept = conn.execute("SELECT swept FROM wm_stats WHERE scope = ?", (scope,)).fetchone()
    return ScopeStats(
        keys=keys, bytes=size, checkpoints=checkpoints, expired_swept=swept[0] if swept else 0
    )


def load_task(conn: apsw.Connection, scope: str) -> TaskRecord | None:
    row = conn.execute(f"SELECT {_TASK_COLUMNS} FROM wm_tasks WHERE scope = ?", (scope,)).fetchone()
    return None if row is None else TaskRecord(*row)


def save_task(conn: apsw.Connection, scope: str, task: TaskRecord | None) -> None:
    """Replace the scope's task state (None removes it)."""
    conn.execute("DELETE FROM wm_tasks WHERE scope = ?", (scope,))
    if task is not None:
        conn.execute(
            f"INSERT INTO wm_tasks (scope, {_TASK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (scope, *msgspec.structs.astuple(task)),
        )


def append_scratch(
    conn: apsw.Connection, scope: str, text: str, ts: float, capacity: int, tally: Tally
) -> tuple[int, int]:
    """Append a line; drop the oldest beyond ``capacity``. Returns (n, how many dropped).

    A line that would take the scope past its bytes is ``LimitReached`` (``tally``).
    """
    n = one_row(conn, "SELECT coalesce(max(n), 0) + 1 FROM wm_scratch WHERE scope = ?", (scope,))[0]
    dropped = one_row(
        conn,
        "SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) FROM wm_scratch"
        " WHERE scope = ? AND n <= ?",
        (scope, n - capacity),
    )[0]
    tally.scratch(len(text.encode()), dropped)
    conn.execute(
        "INSERT INTO wm_scratch (scope, n, text, ts) VALUES (?, ?, ?, ?)", (scope, n, text, ts)
    )
    conn.execute("DELETE FROM wm_scratch WHERE scope = ? AND n <= ?", (scope, n - capacity))
    return n, conn.changes()


def read_scratch(conn: apsw.Connection, scope: str, last: int | None) -> list[ScratchRecord]:
    """The scratchpad oldest first; only the newest ``last`` lines when given."""
    rows = conn.execute(
        "SELECT n, text, ts FROM wm_scratch WHERE scope = ? ORDER BY n DESC LIMIT ?",
        (scope, -1 if last is None else last),
    )
    return [ScratchRecord(*r) for r in reversed(list(rows))]


def clear_scratch(conn: apsw.Connection, scope: str) -> int:
    conn.execute("DELETE FROM wm_scratch WHERE scope = ?", (scope,))
    return conn.changes()


def create_checkpoint(
    conn: apsw.Connection,
    scope: str,
    checkpoint_id: str,
    label: str | None,
    now: float,
    tally: Tally | None = None,
) -> CheckpointRecord:
    """Snapshot the scope's keys (expired ones included, expiry kept), task and scratchpad;
    with ``tally``, refused over ``max_checkpoints``."""
    if tally is not None:
        tally.checkpoint()
    keys = conn.execute(
        f"SELECT {_KEY_COLUMNS} FROM wm_keys WHERE scope = ? ORDER BY key", (scope,)
    )
    snapshot = _Snapshot(
        keys=[KeyRecord(*r) for r in keys],
        task=load_task(conn, scope),
        scratch=read_scratch(conn, scope, None),
    )
    blob = _snapshot_encoder.encode(snapshot)
    conn.execute(
        "INSERT INTO wm_checkpoints (id, scope, label, created, size, blob) VALUES (?, ?, ?, ?, ?, ?)",
        (checkpoint_id, scope, label, now, len(blob), blob),
    )
    return CheckpointRecord(id=checkpoint_id, label=label, created=now, size=len(blob))


def restore_checkpoint(conn: apsw.Connection, scope: str, checkpoint_id: str) -> list[KeyRecord]:
    """Make keys, task and scratchpad exactly as checkpointed; returns the keys as checkpointed.

    Values and expiries come back exactly; each restored key's version moves
    past both its checkpointed and its current version, so a compare-and-set
    based on a read from before the restore fails instead of overwriting.
    """
    row = conn.execute(
        "SELECT blob FROM wm_checkpoints WHERE id = ? AND scope = ?", (checkpoint_id, scope)
    ).fetchone()
    if row is None:
        raise NotFound(f"no checkpoint {checkpoint_id!r} in scope {scope!r}")
    snapshot = _snapshot_decoder.decode(row[0])
    kept = {k.key for k in snapshot.keys}
    gone = [(scope, key) for (key,) in conn.execute(_SCOPE_KEYS, (scope,)) if key not in kept]
    conn.executemany("DELETE FROM wm_keys WHERE scope = ? AND key = ?", gone)
    # In place: a row rewritten where it is costs less than one deleted and inserted again.
    conn.executemany(
        f"INSERT INTO wm_keys (scope, {_KEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value,"
        " version = max(version + 1, excluded.version), expires_at = excluded.expires_at,"
        " updated = excluded.updated",
        [(scope, k.key, k.value, k.version + 1, k.expires_at, k.updated) for k in snapshot.keys],
    )
    save_task(conn, scope, snapshot.task)
    clear_scratch(conn, scope)
    conn.executemany(
        "INSERT INTO wm_scratch (scope, n, text, ts) VALUES (?, ?, ?, ?)",
        [(scope, s.n, s.text, s.ts) for s in snapshot.scratch],
    )
    return snapshot.keys


def list_checkpoints(conn: apsw.Connection, scope: str) -> list[CheckpointRecord]:
    """The scope's checkpoints, newest first."""
    rows = conn.execute(
        "SELECT id, label, created, size FROM wm_checkpoints WHERE scope = ?"
        " ORDER BY created DESC, rowid DESC",
        (scope,),
    )
    return [CheckpointRecord(id=r[0], label=r[1], created=r[2], size=r[3]) for r in rows]


def delete_checkpoint(conn: apsw.Connection, scope: str, checkpoint_id: str) -> None:
    conn.execute("DELETE FROM wm_checkpoints WHERE id = ? AND scope = ?", (checkpoint_id, scope))
    if not conn.changes():
        raise NotFound(f"no checkpoint {checkpoint_id!r} in scope {scope!r}")


def delete_scope_state(conn: apsw.Connection, scope: str) -> int:
    """Delete everything ``scope`` holds (keys, task, scratchpad, checkpoints); rows deleted."""
    deleted = 0
    for table in _SCOPE_TABLES:
        conn.execute(f"DELETE FROM {table} WHERE scope = ?", (scope,))
        deleted += conn.changes()
    return deleted


def scope_usage(conn: apsw.Connection, scope: str) -> tuple[int, int, int]:
    """(keys, bytes of values and scratchpad lines, checkpoints) of ``scope``, expired keys
    too: what its bounds are checked against (``wm_bounds.Tally``)."""
    keys, size = one_row(
        conn,
        "SELECT count(*), coalesce(sum(length(value)), 0) FROM wm_keys WHERE scope = ?",
        (scope,),
    )
    lines = one_row(
        conn,
        "SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) FROM wm_scratch WHERE scope = ?",
        (scope,),
    )[0]
    checkpoints = one_row(conn, "SELECT count(*) FROM wm_checkpoints WHERE scope = ?", (scope,))[0]
    return int(keys), int(size) + int(lines), int(checkpoints)


if TYPE_CHECKING:  # this module is the engine's ``WorkingMemorySql``: mypy checks what ``Tx`` calls
    from ..base.working_memory import WorkingMemorySql
    from . import working_memory as _this

    _answers: WorkingMemorySql = _this
