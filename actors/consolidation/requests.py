"""What consolidation asks of a session's actor: the interface between the two, as data.

A job crosses into the session actor twice: ``SnapshotRequest`` (the
oldest whole turns, as a durable job) and ``ApplyRequest`` (finish it). The
apply carries its result as data, the history entry and the new
``MEMORY.md``, which the actor hands to the owner of long-term memory in
mailbox order, so a session forgotten meanwhile gets nothing written. The
session actor imports these; consolidation never imports the actor.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Protocol

from reverie.store import HistoryEntry, Job

__all__ = ["Applied", "ApplyRequest", "Sessions", "SnapshotRequest"]

#: How an apply ended: the cursor moved; the session or the job was gone
#: (nothing done); or ``MEMORY.md`` changed since ``base`` (nothing done:
#: the job is prepared again from the new memory).
Applied = Literal["applied", "gone", "moved"]


@dataclass(slots=True)
class SnapshotRequest:
    """The oldest whole turns to consolidate, as a durable job (or the open one).

    ``max_tokens`` (0: no cap) bounds the turns one job takes, so a small
    model's prompt fits its context and its time; the rest waits for the next job.
    """

    target_tokens: int
    backend: str
    max_tokens: int = 0


@dataclass(slots=True)
class ApplyRequest:
    """Finish ``job``: write ``entry`` and ``memory`` (unless already written), move the cursor.

    ``entry`` is None when a crash came after the files were written: only
    the cursor is left to move. ``base`` is the ``MEMORY.md`` the new
    ``memory`` was computed from.
    """

    job: Job
    state: str
    entry: HistoryEntry | None
    memory: str
    base: str


class Sessions(Protocol):
    """Where the requests go: the session registry (a request for the named session)."""

    async def call(self, name: str, request: Any) -> Any: ...
