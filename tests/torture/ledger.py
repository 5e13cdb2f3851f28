"""What the torture clients know for sure: the acked operations, by kind.

An operation goes into the ledger only after its reply came back; one whose
call failed (the daemon was killed and the client's retries ran out) is
"unknown": it may or may not have been applied, and the checker accepts
either, but never twice. Every worker thread owns its own ids and keys, so
the ledger needs a lock only for the shared counters and dicts.
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class KeyState:
    """One working-memory key, written only by one worker with compare-and-set.

    ``pending`` is a write whose reply was lost: (value, version) if it applied.
    """

    value: Any = None
    version: int = 0
    pending: tuple[Any, int] | None = None


@dataclass
class Ledger:
    """Acked state, shared by the workers (writers) and the checker (reader, when quiet)."""

    #: session -> ids acked on it, per worker, in ack order
    acked: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: session -> ids whose append failed: present at most once, or not at all
    unknown: dict[str, set[str]] = field(default_factory=dict)
    #: (scope, key) -> its acked state
    keys: dict[tuple[str, str], KeyState] = field(default_factory=dict)
    #: scope -> checkpoint ids acked by ``checkpoint_create``
    checkpoints: dict[str, list[str]] = field(default_factory=dict)
    #: unique markers of sessions whose forget was acked: no file may hold one afterwards
    forgotten: list[str] = field(default_factory=list)
    #: the edited scope's MEMORY.md: the acked text, and one whose reply was lost
    edited: str = ""
    edit_pending: str | None = None
    counts: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack_append(self, worker: str, session: str, ids: list[str]) -> None:
        with self.lock:
            self.acked.setdefault(session, {}).setdefault(worker, []).extend(ids)
            self.counts["appends_acked"] += len(ids)

    def lose_append(self, session: str, ids: list[str]) -> None:
        with self.lock:
            self.unknown.setdefault(session, set()).update(ids)
            self.counts["appends_unknown"] += len(ids)

    def count(self, kind: str, n: int = 1) -> None:
        with self.lock:
            self.counts[kind] += n

    def acked_ids(self, session: str) -> set[str]:
        return {i for ids in self.acked.get(session, {}).values() for i in ids}
