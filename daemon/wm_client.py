"""Working-memory client methods, mixed into ``Client`` and ``AsyncClient`` via ``_Api``.

Each method builds one request and hands it to the transport's ``_call``:
``Client`` returns the result, ``AsyncClient`` an awaitable of it. Calls
that are safe to repeat after a lost connection (the outcome is the same
when the first attempt had already committed) are marked idempotent and
retried after a daemon restart; appends to the scratchpad, checkpoint
creation and deletion, and compare-and-set writes are not, because a
repeat would add a line, make a second checkpoint, or fail spuriously.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import msgspec

from . import wm_protocol as w
from .protocol import Request

__all__ = ["WorkingMemoryApi"]

T = TypeVar("T")
_UNSET: Any = msgspec.UNSET


class WorkingMemoryApi:
    """Per-scope keys (TTL, compare-and-set), task state, scratchpad and checkpoints."""

    def _call(self, request: Request, convert: Callable[[Any], T], idempotent: bool) -> Any:
        raise NotImplementedError

    def _rid(self) -> int:
        raise NotImplementedError

    # -- keys -------------------------------------------------------------------

    def wm_set(
        self,
        scope: str,
        key: str,
        value: Any,
        *,
        ttl: float | None = None,
        expected_version: int | None = None,
    ) -> Any:
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
        return self._call(request, lambda r: r.version, expected_version is None)

    def wm_get(self, scope: str, key: str, *, inherit: bool = False) -> Any:
        """``WmValue`` (value, version, scope found in, expires_at); ``NotFound`` if absent.

        ``inherit`` also looks in the ancestors (session → agent → project), then ``global``.
        """
        request = w.WmGet(rid=self._rid(), scope=scope, key=key, inherit=inherit)
        return self._call(request, lambda r: r.item, True)

    def wm_delete(self, scope: str, key: str) -> Any:
        """Delete ``key``; True if it existed (and had not expired)."""
        request = w.WmDelete(rid=self._rid(), scope=scope, key=key)
        return self._call(request, lambda r: r.deleted, True)

    def wm_list(self, scope: str, *, prefix: str = "") -> Any:
        """Unexpired keys (``KeyInfo``: key, version, expires_at, updated), ordered by key."""
        request = w.WmList(rid=self._rid(), scope=scope, prefix=prefix)
        return self._call(request, lambda r: r.keys, True)

    def wm_clear(self, scope: str) -> Any:
        """Delete every key of ``scope`` (not its task, scratchpad or checkpoints)."""
        return self._call(w.WmClear(rid=self._rid(), scope=scope), lambda r: r.deleted, True)

    def wm_stats(self, scope: str) -> Any:
        """``ScopeStats``: keys, bytes, checkpoints, expired_swept."""
        return self._call(w.WmStats(rid=self._rid(), scope=scope), lambda r: r.stats, True)

    # -- task -------------------------------------------------------------------

    def task_get(self, scope: str) -> Any:
        """``TaskView`` (with derived ``progress``); ``NotFound`` if the scope has none."""
        return self._call(w.TaskGet(rid=self._rid(), scope=scope), lambda r: r.task, True)

    def task_set(
        self,
        scope: str,
        task_id: str,
        description: str,
        status: str = "pending",
        step: int = 0,
        total_steps: int = 0,
        data: Any = None,
    ) -> Any:
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
        return self._call(request, lambda r: r.task, True)

    def task_update(
        self,
        scope: str,
        *,
        task_id: str = _UNSET,
        description: str = _UNSET,
        status: str = _UNSET,
        step: int = _UNSET,
        total_steps: int = _UNSET,
        data: Any = _UNSET,
    ) -> Any:
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
        return self._call(request, lambda r: r.task, True)

    # -- scratchpad -------------------------------------------------------------

    def scratch_append(self, scope: str, text: str) -> Any:
        """Append a line; returns ``ScratchAppended`` (n, dropped by the capacity)."""
        request = w.ScratchAppend(rid=self._rid(), scope=scope, text=text)
        return self._call(request, lambda r: r.appended, False)

    def scratch_get(self, scope: str, *, last: int | None = None) -> Any:
        """``ScratchEntry`` lines oldest first; only the newest ``last`` when given."""
        request = w.ScratchGet(rid=self._rid(), scope=scope, last=last)
        return self._call(request, lambda r: r.entries, True)

    def scratch_clear(self, scope: str) -> Any:
        """Empty the scratchpad; returns how many lines went."""
        return self._call(w.ScratchClear(rid=self._rid(), scope=scope), lambda r: r.deleted, True)

    # -- checkpoints ------------------------------------------------------------

    def checkpoint_create(self, scope: str, *, label: str | None = None) -> Any:
        """Snapshot keys, task and scratchpad; returns the checkpoint's UUID."""
        request = w.CheckpointCreate(rid=self._rid(), scope=scope, label=label)
        return self._call(request, lambda r: r.id, False)

    def checkpoint_restore(self, scope: str, id: str) -> Any:
        """Make the scope exactly as checkpointed, atomically; returns the key count."""
        request = w.CheckpointRestore(rid=self._rid(), scope=scope, id=id)
        return self._call(request, lambda r: r.keys, True)

    def checkpoint_list(self, scope: str) -> Any:
        """``CheckpointInfo`` (id, label, created, size), newest first."""
        request = w.CheckpointList(rid=self._rid(), scope=scope)
        return self._call(request, lambda r: r.checkpoints, True)

    def checkpoint_delete(self, scope: str, id: str) -> Any:
        """Delete a checkpoint; ``NotFound`` if unknown."""
        request = w.CheckpointDelete(rid=self._rid(), scope=scope, id=id)
        return self._call(request, lambda r: r.id, False)
