"""Wire frames for working memory: per-scope keys, task state, scratchpad, checkpoints.

Same conventions as the package (which folds these into its ``Request`` and
``Reply`` unions): every request names its ``scope`` first, the tag is
the op name, and a reply has the same tag as its request. ``value`` and
``data`` are any msgpack value. ``TaskUpdate`` fields left ``UNSET`` are not
changed (``data=None`` clears the data).

This module imports neither the actors nor the store.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from .frames import Count, Data, Frame

#: A task's status.
TaskStatus = Literal["pending", "running", "done", "failed", "cancelled", "blocked"]

__all__ = [
    "WM_REQUESTS",
    "CheckpointCreate",
    "CheckpointCreateReply",
    "CheckpointDelete",
    "CheckpointDeleteReply",
    "CheckpointInfo",
    "CheckpointList",
    "CheckpointListReply",
    "CheckpointRestore",
    "CheckpointRestoreReply",
    "Count",
    "KeyInfo",
    "ScopeStats",
    "ScratchAppend",
    "ScratchAppendReply",
    "ScratchAppended",
    "ScratchClear",
    "ScratchClearReply",
    "ScratchEntry",
    "ScratchGet",
    "ScratchGetReply",
    "TaskGet",
    "TaskGetReply",
    "TaskSet",
    "TaskSetReply",
    "TaskStatus",
    "TaskUpdate",
    "TaskUpdateReply",
    "TaskView",
    "WmClear",
    "WmClearReply",
    "WmDelete",
    "WmDeleteReply",
    "WmGet",
    "WmGetReply",
    "WmList",
    "WmListReply",
    "WmReply",
    "WmRequest",
    "WmSet",
    "WmSetReply",
    "WmStats",
    "WmStatsReply",
    "WmValue",
]


# -- values -----------------------------------------------------------------


class WmValue(Data):
    """A key's value, its version, and the scope it was found in (``inherit``)."""

    value: Any
    version: int
    scope: str
    expires_at: float | None = None
    updated: float = 0.0  # 0: a daemon from before the field


class KeyInfo(Data):
    """A key; ``value`` only when the list asked for values (``WmList.values``)."""

    key: str
    version: int
    expires_at: float | None
    updated: float
    value: Any | msgspec.UnsetType = msgspec.UNSET


class ScopeStats(Data):
    keys: int
    bytes: int
    checkpoints: int
    expired_swept: int


class TaskView(Data):
    """Task state; ``progress`` (0..100) is derived from step, total_steps and status."""

    task_id: str
    description: str
    status: str
    step: int
    total_steps: int
    progress: int
    data: Any
    created: float
    updated: float


class ScratchAppended(Data):
    """The new line's number and how many old lines the capacity dropped."""

    n: int
    dropped: int


class ScratchEntry(Data):
    n: int
    text: str
    ts: float


class CheckpointInfo(Data):
    id: str
    label: str | None
    created: float
    size: int


# -- requests ---------------------------------------------------------------


class _Scoped(Frame):
    scope: str


class WmSet(_Scoped, tag="wm_set"):
    """``expected_version``: compare-and-set (0 = must not exist)."""

    key: str
    value: Any
    ttl: Annotated[float, msgspec.Meta(gt=0)] | None = None
    expected_version: Count | None = None


class WmGet(_Scoped, tag="wm_get"):
    key: str
    inherit: bool = False


class WmDelete(_Scoped, tag="wm_delete"):
    key: str


class WmList(_Scoped, tag="wm_list"):
    """``values``: each key with its value, so a host reads a scope in one round trip (a
    scope holds at most ``working_memory.max_scope_bytes``)."""

    prefix: str = ""
    values: bool = False


class WmClear(_Scoped, tag="wm_clear"):
    pass


class WmStats(_Scoped, tag="wm_stats"):
    pass


class TaskGet(_Scoped, tag="task_get"):
    pass


class TaskSet(_Scoped, tag="task_set"):
    task_id: str
    description: str
    status: TaskStatus = "pending"
    step: Count = 0
    total_steps: Count = 0
    data: Any = None


class TaskUpdate(_Scoped, tag="task_update"):
    task_id: str | msgspec.UnsetType = msgspec.UNSET
    description: str | msgspec.UnsetType = msgspec.UNSET
    status: TaskStatus | msgspec.UnsetType = msgspec.UNSET
    step: Count | msgspec.UnsetType = msgspec.UNSET
    total_steps: Count | msgspec.UnsetType = msgspec.UNSET
    data: Any = msgspec.UNSET


class ScratchAppend(_Scoped, tag="scratch_append"):
    text: str


class ScratchGet(_Scoped, tag="scratch_get"):
    last: Count | None = None


class ScratchClear(_Scoped, tag="scratch_clear"):
    pass


class CheckpointCreate(_Scoped, tag="checkpoint_create"):
    label: str | None = None


class CheckpointRestore(_Scoped, tag="checkpoint_restore"):
    id: str


class CheckpointList(_Scoped, tag="checkpoint_list"):
    pass


class CheckpointDelete(_Scoped, tag="checkpoint_delete"):
    id: str


WmRequest = (
    WmSet
    | WmGet
    | WmDelete
    | WmList
    | WmClear
    | WmStats
    | TaskGet
    | TaskSet
    | TaskUpdate
    | ScratchAppend
    | ScratchGet
    | ScratchClear
    | CheckpointCreate
    | CheckpointRestore
    | CheckpointList
    | CheckpointDelete
)
WM_REQUESTS: tuple[type[Frame], ...] = WmRequest.__args__

# -- replies ----------------------------------------------------------------


class WmSetReply(Frame, tag="wm_set"):
    version: int


class WmGetReply(Frame, tag="wm_get"):
    item: WmValue


class WmDeleteReply(Frame, tag="wm_delete"):
    deleted: bool


class WmListReply(Frame, tag="wm_list"):
    keys: list[KeyInfo]


class WmClearReply(Frame, tag="wm_clear"):
    deleted: int


class WmStatsReply(Frame, tag="wm_stats"):
    stats: ScopeStats


class _TaskReply(Frame):
    task: TaskView


class TaskGetReply(_TaskReply, tag="task_get"):
    pass


class TaskSetReply(_TaskReply, tag="task_set"):
    pass


class TaskUpdateReply(_TaskReply, tag="task_update"):
    pass


class ScratchAppendReply(Frame, tag="scratch_append"):
    appended: ScratchAppended


class ScratchGetReply(Frame, tag="scratch_get"):
    entries: list[ScratchEntry]


class ScratchClearReply(Frame, tag="scratch_clear"):
    deleted: int


class CheckpointCreateReply(Frame, tag="checkpoint_create"):
    id: str


class CheckpointRestoreReply(Frame, tag="checkpoint_restore"):
    keys: int


class CheckpointListReply(Frame, tag="checkpoint_list"):
    checkpoints: list[CheckpointInfo]


class CheckpointDeleteReply(Frame, tag="checkpoint_delete"):
    id: str


WmReply = (
    WmSetReply
    | WmGetReply
    | WmDeleteReply
    | WmListReply
    | WmClearReply
    | WmStatsReply
    | TaskGetReply
    | TaskSetReply
    | TaskUpdateReply
    | ScratchAppendReply
    | ScratchGetReply
    | ScratchClearReply
    | CheckpointCreateReply
    | CheckpointRestoreReply
    | CheckpointListReply
    | CheckpointDeleteReply
)
