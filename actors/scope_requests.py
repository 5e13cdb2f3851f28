"""What a working-memory scope actor is asked to do: one dataclass per write.

Built by the daemon from the wire (``wm_handlers``) and by the TTL sweeper
(``Sweep``); validated and applied by the scope's actor (``scope.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "TASK_FIELDS",
    "AppendScratch",
    "ClearKeys",
    "ClearScratch",
    "CreateCheckpoint",
    "DeleteCheckpoint",
    "DeleteKey",
    "RestoreCheckpoint",
    "ScopeRequest",
    "SetKey",
    "SetTask",
    "Sweep",
    "UpdateTask",
]

TASK_FIELDS = frozenset({"task_id", "description", "status", "step", "total_steps", "data"})


@dataclass(slots=True)
class SetKey:
    key: str
    value: Any
    ttl: float | None = None
    expected_version: int | None = None


@dataclass(slots=True)
class DeleteKey:
    key: str


@dataclass(slots=True)
class ClearKeys:
    pass


@dataclass(slots=True)
class SetTask:
    task_id: str
    description: str
    status: str = "pending"
    step: int = 0
    total_steps: int = 0
    data: Any = None


@dataclass(slots=True)
class UpdateTask:
    """Only the fields given change (names from ``TASK_FIELDS``)."""

    fields: dict[str, Any]


@dataclass(slots=True)
class AppendScratch:
    text: str


@dataclass(slots=True)
class ClearScratch:
    pass


@dataclass(slots=True)
class CreateCheckpoint:
    label: str | None = None


@dataclass(slots=True)
class RestoreCheckpoint:
    id: str


@dataclass(slots=True)
class DeleteCheckpoint:
    id: str


@dataclass(slots=True)
class Sweep:
    """From the sweeper: these keys' deadlines have passed."""

    keys: list[str]


ScopeRequest = (
    SetKey
    | DeleteKey
    | ClearKeys
    | SetTask
    | UpdateTask
    | AppendScratch
    | ClearScratch
    | CreateCheckpoint
    | RestoreCheckpoint
    | DeleteCheckpoint
    | Sweep
)
