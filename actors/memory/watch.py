"""Hand edits of the memory tree reach the daemon: a cheap poll, twice a second.

(On the Postgres engine the "edits" are what other daemons and workers
sharing the database wrote: ``MemoryStore.scan`` reports those scopes.)

People edit ``MEMORY.md`` and history files with their own editor. The
watcher asks the store what changed since its last look
(``MemoryStore.scan``: by mtime and size, then by hash, so reverie's own
writes are not edits) and reports each edited scope to the memory's owner
(``MemoryKeeper.edited``): the memory prefix is re-read and the index's
facts and episodes for the scope are rebuilt.

Every edit is also checked: an unreadable source comment in ``MEMORY.md``
or a broken metadata line in a history file is logged as a warning and
listed in ``status`` (``memory.problems``) until fixed. Nothing unreadable
is dropped: such lines stay in the files, and a fact line stays a fact.
"""

from __future__ import annotations

import logging
from typing import Any

import trio

from reverie.config import ReverieError, Throttle

from .keeper import MemoryKeeper

__all__ = ["MemoryWatcher"]

log = logging.getLogger(__name__)
INTERVAL = 0.5


class MemoryWatcher:
    """Polls the memory tree; ``run`` is its task."""

    def __init__(self, keeper: MemoryKeeper) -> None:
        self.keeper = keeper
        self.problems: dict[str, list[str]] = {}
        self.edits = 0
        self._throttle = Throttle()  # a database down fails every look alike

    async def run(self, *, task_status: trio.TaskStatus[None] = trio.TASK_STATUS_IGNORED) -> None:
        store = self.keeper.store
        await store.scan(initial=True)  # the state at start is not an edit
        task_status.started()
        while True:
            await trio.sleep(INTERVAL)
            try:
                edited = await store.scan()
            except OSError as exc:
                log.warning("memory watcher: %s", exc)
                continue
            except ReverieError as exc:  # the database restarting: the next look catches up
                self._throttle_log(exc)
                continue
            for scope, paths in edited.items():
                self.edits += 1
                log.info(
                    "memory of scope %r edited outside this daemon (%s)",
                    scope,
                    ", ".join(p.name for p in paths) or "by another member of the cluster",
                )
                self.keeper.edited(scope)
                try:
                    await self._check(scope)
                except ReverieError as exc:  # the check reads the store too: checked at the
                    self._throttle_log(exc)  # next edit; the scope's edit is reported already

    def _throttle_log(self, exc: ReverieError) -> None:
        held = self._throttle.due(exc.code)
        if held is not None:
            log.warning("memory watcher: %s (%d more like it)", exc.message, held)

    async def _check(self, scope: str) -> None:
        problems = await self.keeper.problems(scope)
        if problems:
            self.problems[scope] = problems
            for problem in problems:
                log.warning("memory of scope %r: %s", scope, problem)
        else:
            self.problems.pop(scope, None)

    def status(self) -> dict[str, Any]:
        return {"edits_noticed": self.edits, "problems": dict(self.problems)}
