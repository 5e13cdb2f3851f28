"""Where a tail may be cut: only at turn boundaries.

A turn is a user message and everything up to the next user message, so a
cut never separates an assistant's tool call from the tool's result.
"""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store import MessageRecord

__all__ = ["oldest_turns"]


def oldest_turns(tail: Sequence[MessageRecord], target_tokens: int, max_tokens: int = 0) -> int:
    """How many leading messages of ``tail`` to consolidate.

    The fewest whole turns whose removal leaves at most ``target_tokens``
    in the tail; 0 when the tail is already small enough. If no boundary
    gets under the target, the whole tail is taken. With ``max_tokens``
    (> 0), no more whole turns than fit in it are taken, but always one.
    """
    remaining = sum(m.tokens for m in tail)
    if remaining <= target_tokens:
        return 0
    taken = 0
    for start, end in _turns(tail):
        size = sum(m.tokens for m in tail[start:end])
        if start > 0 and (remaining <= target_tokens or 0 < max_tokens < taken + size):
            return start
        taken += size
        remaining -= size
    return len(tail)


def _turns(tail: Sequence[MessageRecord]) -> list[tuple[int, int]]:
    """The ``[start, end)`` spans of the tail's turns (a user message starts one)."""
    starts = [i for i, m in enumerate(tail) if i == 0 or m.role == "user"]
    return list(zip(starts, [*starts[1:], len(tail)], strict=True))
