"""One wake-up of one task for one or several calls done by a database thread.

A database thread reports a whole batch to the event loop in one callback;
each task waiting in that batch is then rescheduled directly. A caller with
several calls in flight (``Database.write_many``: the appends of many
sessions) waits once for all of them and is woken once, after the last.

Why not a ``trio.Event`` in a ``CancelScope``: the append path made one of
each per request, and together they were a tenth of the event loop's time
per append; parking the task costs neither.
"""

from __future__ import annotations

import trio

__all__ = ["Waiter"]


class Waiter:
    """Counts the calls still running; the task waiting in ``wait`` wakes once they are done."""

    __slots__ = ("remaining", "shield", "task")

    def __init__(self, calls: int, *, shield: bool) -> None:
        self.remaining = calls
        self.shield = shield  # a cancel does not end the wait (the calls will happen)
        self.task: trio.lowlevel.Task | None = None

    def done(self) -> None:
        """One call finished (on the event loop); the last one wakes the waiting task."""
        self.remaining -= 1
        if self.remaining == 0 and self.task is not None:
            task, self.task = self.task, None
            trio.lowlevel.reschedule(task)

    async def wait(self) -> None:
        """Return once every call is done.

        Shielded, a cancel is delivered at the caller's next checkpoint
        after the calls are done; unshielded, the caller leaves at once and
        the calls' results are dropped.
        """
        if self.remaining == 0:
            await trio.lowlevel.checkpoint()
            return
        self.task = trio.lowlevel.current_task()
        await trio.lowlevel.wait_task_rescheduled(self._abort)

    def _abort(self, raise_cancel: trio.lowlevel.RaiseCancelT) -> trio.lowlevel.Abort:
        if self.shield:
            return trio.lowlevel.Abort.FAILED
        self.task = None
        return trio.lowlevel.Abort.SUCCEEDED
