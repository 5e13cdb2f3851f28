"""Working-memory writes as data, and the one transaction that applies a batch of them.

A scope's actor validates and encodes each request (clock, ids, msgpack)
into one of these writes; ``apply_writes`` then runs the batch inside a
single ``Database.write`` transaction, checked against the scope's bounds
(``wm_bounds``). Each write gets its own outcome: a
refusal (``Conflict``, ``NotFound``) is returned, not raised, and the
functions it calls check before they change anything, so a refused write
leaves the transaction as it was for the others batched with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import msgspec

from reverie.config import NotFound, ReverieError

from .wm_bounds import ScopeBounds, Tally

if TYPE_CHECKING:
    from .base.tx import Tx
from .base.working_memory import TaskRecord

__all__ = [
    "AddScratch",
    "DropCheckpoint",
    "ExpireKeys",
    "LoadCheckpoint",
    "PatchTask",
    "PutKey",
    "PutTask",
    "RemoveKey",
    "RemoveKeys",
    "RemoveScratch",
    "SaveCheckpoint",
    "ScopeWrite",
    "apply_writes",
]


class PutKey(msgspec.Struct, frozen=True):
    """Set ``key`` to ``value`` (msgpack); compare-and-set when ``expected_version`` is given."""

    key: str
    value: bytes
    expires_at: float | None
    expected_version: int | None


class RemoveKey(msgspec.Struct, frozen=True):
    key: str


class RemoveKeys(msgspec.Struct, frozen=True):
    pass


class PutTask(msgspec.Struct, frozen=True):
    task: TaskRecord


class PatchTask(msgspec.Struct, frozen=True):
    """Change the fields given (already validated; ``data`` already msgpack) of the task."""

    fields: dict[str, Any]


class AddScratch(msgspec.Struct, frozen=True):
    text: str
    capacity: int


class RemoveScratch(msgspec.Struct, frozen=True):
    pass


class SaveCheckpoint(msgspec.Struct, frozen=True):
    id: str
    label: str | None


class LoadCheckpoint(msgspec.Struct, frozen=True):
    id: str


class DropCheckpoint(msgspec.Struct, frozen=True):
    id: str


class ExpireKeys(msgspec.Struct, frozen=True):
    keys: list[str]


ScopeWrite = (
    PutKey
    | RemoveKey
    | RemoveKeys
    | PutTask
    | PatchTask
    | AddScratch
    | RemoveScratch
    | SaveCheckpoint
    | LoadCheckpoint
    | DropCheckpoint
    | ExpireKeys
)


def apply_writes(
    tx: Tx,
    scope: str,
    writes: Sequence[tuple[ScopeWrite, float]],
    bounds: ScopeBounds,
) -> list[object]:
    """Each write's outcome (``write``, at its time ``now``), in order, in one transaction.

    Keys, scratchpad lines and checkpoints are checked against ``bounds`` (``wm_bounds``).
    """
    tally = tx.tally(scope, bounds)
    outcomes: list[object] = []
    for write, now in writes:
        try:
            outcomes.append(_apply(tx, scope, write, now, tally))
        except ReverieError as exc:
            outcomes.append(exc)
        if not isinstance(write, PutKey | AddScratch | SaveCheckpoint):
            tally.forget()
    return outcomes


def _apply(tx: Tx, scope: str, write: ScopeWrite, now: float, tally: Tally) -> object:
    match write:
        case PutKey(key=key, value=value, expires_at=expires, expected_version=expected):
            return tx.set_key(
                scope,
                key,
                value,
                expires_at=expires,
                expected_version=expected,
                now=now,
                tally=tally,
            )
        case RemoveKey(key=key):
            return tx.delete_key(scope, key, now)
        case RemoveKeys():
            return tx.clear_keys(scope, now)
        case PutTask(task=task):
            tx.save_task(scope, task)
            return task
        case PatchTask(fields=fields):
            return _patch_task(tx, scope, fields, now)
        case AddScratch(text=text, capacity=capacity):
            return tx.append_scratch(scope, text, now, capacity, tally)
        case RemoveScratch():
            return tx.clear_scratch(scope)
        case SaveCheckpoint(id=checkpoint_id, label=label):
            return tx.create_checkpoint(scope, checkpoint_id, label, now, tally).id
        case LoadCheckpoint(id=checkpoint_id):
            return tx.restore_checkpoint(scope, checkpoint_id)
        case DropCheckpoint(id=checkpoint_id):
            tx.delete_checkpoint(scope, checkpoint_id)
            return None
        case ExpireKeys(keys=keys):
            return tx.sweep_keys(scope, keys, now)
    raise AssertionError(f"unknown working-memory write {write!r}")


def _patch_task(tx: Tx, scope: str, fields: dict[str, Any], now: float) -> TaskRecord:
    current = tx.load_task(scope)
    if current is None:
        raise NotFound(f"scope {scope!r} has no task; set one with task_set first")
    task = msgspec.structs.replace(current, **fields, updated=now)
    tx.save_task(scope, task)
    return task
