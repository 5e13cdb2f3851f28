"""Working memory's records: per-scope keys, task state, scratchpad and checkpoints.

Keys carry a version (1 on create, +1 on every write) for compare-and-set,
and an optional ``expires_at``. An expired key is invisible to every read
here even before the sweeper deletes its row, so expiry never depends on
the sweeper being on time. Checkpoints hold a msgpack snapshot of a scope's
keys, task and scratchpad; restoring one replaces all three in the caller's
single write transaction, so a restore is all or nothing.

Here are the records, ``WorkingMemorySql`` (what each engine's
``working_memory`` module provides, in the caller's transaction) and
``WorkingMemoryTx`` (the ``Tx`` calls of it; docs/design.md, "The store
seam"). An engine's functions that can refuse (``Conflict``, ``NotFound``)
check before they change anything, so a refusal leaves the transaction
untouched for the other writes batched in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ..wm_bounds import Tally

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..wm_bounds import ScopeBounds
__all__ = [
    "CheckpointRecord",
    "KeyRecord",
    "ScopeStats",
    "ScratchRecord",
    "TaskRecord",
    "WorkingMemorySql",
    "WorkingMemoryTx",
]


class KeyRecord(msgspec.Struct, frozen=True, array_like=True):
    """A stored key; ``value`` is the msgpack encoding of the client's value."""

    key: str
    value: bytes
    version: int
    expires_at: float | None
    updated: float


class TaskRecord(msgspec.Struct, frozen=True, array_like=True):
    """A scope's task state; ``data`` is msgpack (None when the task has none)."""

    task_id: str
    description: str
    status: str
    step: int
    total_steps: int
    data: bytes | None
    created: float
    updated: float

    @property
    def progress(self) -> int:
        """Percent done, derived: 100 once done, else step/total_steps clamped to 0..100."""
        if self.status == "done":
            return 100
        if self.total_steps <= 0:
            return 0
        return max(0, min(100, round(100 * self.step / self.total_steps)))


class ScratchRecord(msgspec.Struct, frozen=True, array_like=True):
    n: int
    text: str
    ts: float


class CheckpointRecord(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    label: str | None
    created: float
    size: int


class ScopeStats(msgspec.Struct, frozen=True, kw_only=True):
    keys: int
    bytes: int
    checkpoints: int
    expired_swept: int


class _Snapshot(msgspec.Struct, frozen=True, array_like=True):
    """A checkpoint's blob."""

    keys: list[KeyRecord]
    task: TaskRecord | None
    scratch: list[ScratchRecord]


_LIVE = "(expires_at IS NULL OR expires_at > ?)"
_KEY_COLUMNS = "key, value, version, expires_at, updated"
_SCOPE_KEYS = "SELECT key FROM wm_keys WHERE scope = ?"
_TASK_COLUMNS = "task_id, description, status, step, total_steps, data, created, updated"
_snapshot_encoder = msgspec.msgpack.Encoder()
_snapshot_decoder = msgspec.msgpack.Decoder(_Snapshot)


# -- keys ---------------------------------------------------------------------


def _live(record: KeyRecord | None, now: float) -> KeyRecord | None:
    if record is None or (record.expires_at is not None and record.expires_at <= now):
        return None
    return record


# -- task ---------------------------------------------------------------------


# -- scratchpad -----------------------------------------------------------------


# -- checkpoints ----------------------------------------------------------------


#: Every table that holds a working-memory scope's state.
_SCOPE_TABLES = ("wm_keys", "wm_tasks", "wm_scratch", "wm_checkpoints", "wm_stats")


class WorkingMemorySql(Protocol):
    """What each engine's ``working_memory`` module provides: a scope's working memory, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def scope_usage(self, conn: Any, scope: str, /) -> tuple[int, int, int]: ...

    def lookup_key(
        self, conn: Any, scopes: Sequence[str], key: str, now: float, /
    ) -> tuple[str, KeyRecord] | None: ...

    def set_key(
        self,
        conn: Any,
        scope: str,
        key: str,
        value: bytes,
        /,
        *,
        expires_at: float | None,
        expected_version: int | None,
        now: float,
        tally: Tally,
    ) -> int: ...

    def delete_key(self, conn: Any, scope: str, key: str, now: float, /) -> bool: ...

    def list_keys(self, conn: Any, scope: str, prefix: str, now: float, /) -> list[KeyRecord]: ...

    def clear_keys(self, conn: Any, scope: str, now: float, /) -> int: ...

    def sweep_keys(self, conn: Any, scope: str, keys: Sequence[str], now: float, /) -> int: ...

    def expiring_keys(self, conn: Any, /) -> list[tuple[float, str, str]]: ...

    def scope_stats(self, conn: Any, scope: str, now: float, /) -> ScopeStats: ...

    def load_task(self, conn: Any, scope: str, /) -> TaskRecord | None: ...

    def save_task(self, conn: Any, scope: str, task: TaskRecord | None, /) -> None: ...

    def append_scratch(
        self, conn: Any, scope: str, text: str, ts: float, capacity: int, tally: Tally, /
    ) -> tuple[int, int]: ...

    def read_scratch(self, conn: Any, scope: str, last: int | None, /) -> list[ScratchRecord]: ...

    def clear_scratch(self, conn: Any, scope: str, /) -> int: ...

    def create_checkpoint(
        self,
        conn: Any,
        scope: str,
        checkpoint_id: str,
        label: str | None,
        now: float,
        tally: Tally | None = None,
        /,
    ) -> CheckpointRecord: ...

    def restore_checkpoint(
        self, conn: Any, scope: str, checkpoint_id: str, /
    ) -> list[KeyRecord]: ...

    def list_checkpoints(self, conn: Any, scope: str, /) -> list[CheckpointRecord]: ...

    def delete_checkpoint(self, conn: Any, scope: str, checkpoint_id: str, /) -> None: ...

    def delete_scope_state(self, conn: Any, scope: str, /) -> int: ...


class WorkingMemoryTx:
    """``Tx``'s calls of a scope's working memory: each is the engine's ``working_memory`` function
    of the same name on the transaction's connection (docs/design.md, "The store seam")."""

    conn: Any
    _working_memory: WorkingMemorySql

    def tally(self, scope: str, bounds: ScopeBounds) -> Tally:
        """What ``scope``'s working memory holds, to check writes against ``bounds``."""
        return Tally(scope, bounds, lambda: self._working_memory.scope_usage(self.conn, scope))

    def lookup_key(
        self, scopes: Sequence[str], key: str, now: float
    ) -> tuple[str, KeyRecord] | None:
        return self._working_memory.lookup_key(self.conn, scopes, key, now)

    def set_key(
        self,
        scope: str,
        key: str,
        value: bytes,
        *,
        expires_at: float | None,
        expected_version: int | None,
        now: float,
        tally: Tally,
    ) -> int:
        return self._working_memory.set_key(
            self.conn,
            scope,
            key,
            value,
            expires_at=expires_at,
            expected_version=expected_version,
            now=now,
            tally=tally,
        )

    def delete_key(self, scope: str, key: str, now: float) -> bool:
        return self._working_memory.delete_key(self.conn, scope, key, now)

    def list_keys(self, scope: str, prefix: str, now: float) -> list[KeyRecord]:
        return self._working_memory.list_keys(self.conn, scope, prefix, now)

    def clear_keys(self, scope: str, now: float) -> int:
        return self._working_memory.clear_keys(self.conn, scope, now)

    def sweep_keys(self, scope: str, keys: Sequence[str], now: float) -> int:
        return self._working_memory.sweep_keys(self.conn, scope, keys, now)

    def expiring_keys(self) -> list[tuple[float, str, str]]:
        return self._working_memory.expiring_keys(self.conn)

    def scope_stats(self, scope: str, now: float) -> ScopeStats:
        return self._working_memory.scope_stats(self.conn, scope, now)

    def load_task(self, scope: str) -> TaskRecord | None:
        return self._working_memory.load_task(self.conn, scope)

    def save_task(self, scope: str, task: TaskRecord | None) -> None:
        return self._working_memory.save_task(self.conn, scope, task)

    def append_scratch(
        self, scope: str, text: str, ts: float, capacity: int, tally: Tally
    ) -> tuple[int, int]:
        return self._working_memory.append_scratch(self.conn, scope, text, ts, capacity, tally)

    def read_scratch(self, scope: str, last: int | None) -> list[ScratchRecord]:
        return self._working_memory.read_scratch(self.conn, scope, last)

    def clear_scratch(self, scope: str) -> int:
        return self._working_memory.clear_scratch(self.conn, scope)

    def create_checkpoint(
        self, scope: str, checkpoint_id: str, label: str | None, now: float, tally: Tally
    ) -> CheckpointRecord:
        return self._working_memory.create_checkpoint(
            self.conn, scope, checkpoint_id, label, now, tally
        )

    def restore_checkpoint(self, scope: str, checkpoint_id: str) -> list[KeyRecord]:
        return self._working_memory.restore_checkpoint(self.conn, scope, checkpoint_id)

    def list_checkpoints(self, scope: str) -> list[CheckpointRecord]:
        return self._working_memory.list_checkpoints(self.conn, scope)

    def delete_checkpoint(self, scope: str, checkpoint_id: str) -> None:
        return self._working_memory.delete_checkpoint(self.conn, scope, checkpoint_id)

    def delete_scope_state(self, scope: str) -> int:
        return self._working_memory.delete_scope_state(self.conn, scope)
