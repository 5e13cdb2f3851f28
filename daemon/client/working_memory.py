"""Working-memory client methods, mixed into ``Client`` and ``AsyncClient`` via ``api.Api``.

Each method builds one ``Call`` (``calls.op``): ``Client`` returns the
result, ``AsyncClient`` an awaitable of it, both typed with the reply Struct. Calls
that are safe to repeat after a lost connection (the outcome is the same
when the first attempt had already committed) are marked idempotent and
retried after a daemon restart; appends to the scratchpad, checkpoint
creation and deletion, and compare-and-set writes are not, because a
repeat would add a line, make a second checkpoint, or fail spuriously.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ..protocol import working_memory as w
from .calls import Call, op

__all__ = ["WorkingMemoryApi"]

_UNSET: Any = msgspec.UNSET


class WorkingMemoryApi:
    """Per-scope keys (TTL, compare-and-set), task state, scratchpad and checkpoints."""

    def _rid(self) -> int:
        raise NotImplementedError

    # -- keys -------------------------------------------------------------------

    @op
    def wm_set(
        self,
        scope: str,
        key: str,
        value: Any,
        *,
        ttl: float | None = None,
        expected_version: int | None = None,
    ) -> Call[int]:
        """Write ``key`` in exactly ``scope``; returns its new version.

        ``expected_version`` makes it a compare-and-set (0: must not exist);
        a mismatch raises ``Conflict`` naming the current version.
        """
        request = w.WmSet(
            rid=self._rid(),
            scope=scope,
            key=key,
            value=value,
            ttl=ttl,
            expected_version=expected_version,
        )
        return Call(request, lambda r: r.version, expected_version is None)

    @op
    def wm_get(self, scope: str, key: str, *, inherit: bool = False) -> Call[w.WmValue]:
        """``WmValue`` (value, version, scope found in, expires_at); ``NotFound`` if absent.

        ``inherit`` also looks in the ancestors (session → agent → project), then ``global``.
        """
        request = w.WmGet(rid=self._rid(), scope=scope, key=key, inherit=inherit)
        return Call(request, lambda r: r.item, True)

    @op
    def wm_delete(self, scope: str, key: str) -> Call[bool]:
        """Delete ``key``; True if it existed (and had not expired)."""
        request = w.WmDelete(rid=self._rid(), scope=scope, key=key)
        return Call(request, lambda r: r.deleted, True)

    @op
    def wm_list(
        self, scope: str, *, prefix: str = "", values: bool = False
    ) -> Call[list[w.KeyInfo]]:
        """Unexpired keys (``KeyInfo``: key, version, expires_at, updated), ordered by key;
        ``values``: each with its ``value`` too, in the same round trip."""
        request = w.WmList(rid=self._rid(), scope=scope, prefix=prefix, values=values)
        return Call(request, lambda r: r.keys, True)

    @op
    def wm_clear(self, scope: str) -> Call[int]:
        """Delete every key of ``scope`` (not its task, scratchpad or checkpoints)."""
        return Call(w.WmClear(rid=self._rid(), scope=scope), lambda r: r.deleted, True)

    @op
    def wm_stats(self, scope: str) -> Call[w.ScopeStats]:
        """``ScopeStats``: keys, bytes, checkpoints, expired_swept."""
        return Call(w.WmStats(rid=self._rid(), scope=scope), lambda r: r.stats, True)

    # -- task -------------------------------------------------------------------

    @op
    def task_get(self, scope: str) -> Call[w.TaskView]:
        """``TaskView`` (with derived ``progress``); ``NotFound`` if the scope has none."""
        return Call(w.TaskGet(rid=self._rid(), scope=scope), lambda r: r.task, True)

    @op
    def task_set(
        self,
        scope: str,
        task_id: str,
        description: str,
        status: w.TaskStatus = "pending",
        step: int = 0,
        total_steps: int = 0,
        data: Any = None,
    ) -> Call[w.TaskView]:
        """Replace the scope's task state; returns the ``TaskView``."""
        request = w.TaskSet(
            rid=self._rid(),
            scope=scope,
            task_id=task_id,
            description=description,
            status=status,
            step=step,
            total_steps=total_steps,
            data=data,
        )
        return Call(request, lambda r: r.task, True)

    @op
    def task_update(
        self,
        scope: str,
        *,
        task_id: str = _UNSET,
        description: str = _UNSET,
        status: w.TaskStatus = _UNSET,
        step: int = _UNSET,
        total_steps: int = _UNSET,
        data: Any = _UNSET,
    ) -> Call[w.TaskView]:
        """Change only the fields given; returns the ``TaskView``."""
        request = w.TaskUpdate(
            rid=self._rid(),
            scope=scope,
            task_id=task_id,
            description=description,
            status=status,
            step=step,
            total_steps=total_steps,
            data=data,
        )
        return Call(request, lambda r: r.task, True)

    # -- scratchpad -------------------------------------------------------------

    @op
    def scratch_append(self, scope: str, text: str) -> Call[w.ScratchAppended]:
        """Append a line; returns ``ScratchAppended`` (n, dropped by the capacity)."""
        request = w.ScratchAppend(rid=self._rid(), scope=scope, text=text)
        return Call(request, lambda r: r.appended, False)

    @op
    def scratch_get(self, scope: str, *, last: int | None = None) -> Call[list[w.ScratchEntry]]:
        """``ScratchEntry`` lines oldest first; only the newest ``last`` when given."""
        request = w.ScratchGet(rid=self._rid(), scope=scope, last=last)
        return Call(request, lambda r: r.entries, True)

    @op
    def scratch_clear(self, scope: str) -> Call[int]:
        """Empty the scratchpad; returns how many lines went."""
        return Call(w.ScratchClear(rid=self._rid(), scope=scope), lambda r: r.deleted, True)

    # -- checkpoints ------------------------------------------------------------

    @op
    def checkpoint_create(self, scope: str, *, label: str | None = None) -> Call[str]:
        """Snapshot keys, task and scratchpad; returns the checkpoint's UUID."""
        request = w.CheckpointCreate(rid=self._rid(), scope=scope, label=label)
        return Call(request, lambda r: r.id, False)

    @op
    def checkpoint_restore(self, scope: str, id: str) -> Call[int]:
        """Make the scope exactly as checkpointed, atomically; returns the key count."""
        request = w.CheckpointRestore(rid=self._rid(), scope=scope, id=id)
        return Call(request, lambda r: r.keys, True)

    @op
    def checkpoint_list(self, scope: str) -> Call[list[w.CheckpointInfo]]:
        """``CheckpointInfo`` (id, label, created, size), newest first."""
        request = w.CheckpointList(rid=self._rid(), scope=scope)
        return Call(request, lambda r: r.checkpoints, True)

    @op
    def checkpoint_delete(self, scope: str, id: str) -> Call[str]:
        """Delete a checkpoint; ``NotFound`` if unknown."""
        request = w.CheckpointDelete(rid=self._rid(), scope=scope, id=id)
        return Call(request, lambda r: r.id, False)
