"""A working-memory scope's bounds, checked inside the transaction of the write that would cross them.

A scope with no bound grew to 4,000 keys of 60 KB, and each checkpoint of
it then held the writer thread (and every client's appends batched with
it) for seconds: the cost is the bytes written, whichever way they are
copied. ``working_memory.max_keys``, ``max_scope_bytes`` (its keys' values
and its scratchpad's lines together) and ``max_checkpoints`` bound what a
scope holds, so what a checkpoint, restore or clear copies or deletes is
bounded too.

The usage is read once per batch, when its first bounded write needs it
(``Tally``), then kept by the bounded writes (keys, scratchpad lines,
checkpoints); any other write forgets it, and the next bounded write
reads it again. A write that
would cross a bound is refused with ``LimitReached`` naming the setting,
before it changes anything. A write that does not grow what crosses a
bound (a smaller value, after the setting was lowered) passes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import msgspec

from reverie.config import LimitReached

__all__ = ["ScopeBounds", "Tally"]


class ScopeBounds(msgspec.Struct, frozen=True):
    """The settings a scope's writes are checked against (``working_memory.*``)."""

    max_keys: int
    max_bytes: int
    max_checkpoints: int


@dataclass(slots=True)
class _Usage:
    keys: int
    bytes: int
    checkpoints: int


class Tally:
    """What one scope holds, as far as this batch's bounded writes need to know.

    ``usage()`` is the engine's read of it: (keys, bytes of values and
    scratchpad lines, checkpoints), expired keys too.
    """

    __slots__ = ("_read", "_usage", "bounds", "scope")

    def __init__(
        self, scope: str, bounds: ScopeBounds, usage: Callable[[], tuple[int, int, int]]
    ) -> None:
        self.scope = scope
        self.bounds = bounds
        self._read = usage
        self._usage: _Usage | None = None

    def _now(self) -> _Usage:
        if self._usage is None:
            self._usage = _Usage(*self._read())
        return self._usage

    def forget(self) -> None:
        """A write changed the scope in a way not tallied here: read it again when needed."""
        self._usage = None

    def put(self, key: str, old: bytes | None, new: bytes) -> None:
        """Count ``key`` set to ``new`` over ``old`` (None: a new row), or refuse it."""
        usage = self._now()
        keys = usage.keys + (old is None)
        size = usage.bytes + len(new) - (0 if old is None else len(old))
        if keys > self.bounds.max_keys and keys > usage.keys:
            raise LimitReached(
                f"scope {self.scope!r} holds {usage.keys} keys, the most "
                f"working_memory.max_keys ({self.bounds.max_keys}) allows; key {key!r} is not "
                "set: delete keys (or wm_clear) or raise the setting"
            )
        self._bytes(usage, size, f"key {key!r} is not set")
        usage.keys, usage.bytes = keys, size

    def scratch(self, added: int, dropped: int) -> None:
        """Count a scratchpad line of ``added`` bytes that drops ``dropped``, or refuse it."""
        usage = self._now()
        size = usage.bytes + added - dropped
        self._bytes(usage, size, "the scratchpad line is not appended")
        usage.bytes = size

    def _bytes(self, usage: _Usage, size: int, refused: str) -> None:
        if size > self.bounds.max_bytes and size > usage.bytes:
            raise LimitReached(
                f"scope {self.scope!r} would hold {size} bytes of values and scratchpad, over "
                f"working_memory.max_scope_bytes ({self.bounds.max_bytes}); {refused}: delete "
                "keys (or wm_clear, scratch_clear) or raise the setting"
            )

    def checkpoint(self) -> None:
        """Count one more checkpoint, or refuse it."""
        usage = self._now()
        if usage.checkpoints >= self.bounds.max_checkpoints:
            raise LimitReached(
                f"scope {self.scope!r} keeps {usage.checkpoints} checkpoints, the most "
                f"working_memory.max_checkpoints ({self.bounds.max_checkpoints}) allows: "
                "delete one (checkpoint_delete) or raise the setting"
            )
        usage.checkpoints += 1
