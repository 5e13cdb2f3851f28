"""Where a tail may be cut: only at turn boundaries.

A turn is a user message and everything up to the next user message, so a
cut never separates an assistant's tool call from the tool's result.
"""

from __future__ import annotations

from collections.abc import Sequence

from reverie.store import MessageRecord

__all__ = ["oldest_turns"]


def oldest_turns(tail: Sequence[MessageRecord], target_tokens: int) -> int:
    """How many leading messages of ``tail`` to consolidate.

    The fewest whole turns whose removal leaves at most ``target_tokens``
    in the tail; 0 when the tail is already small enough. If no boundary
    gets under the target, the whole tail is taken.
    """
    remaining = sum(m.tokens for m in tail)
    if remaining <= target_tokens:
        return 0
    for i, msg in enumerate(tail):
        if i > 0 and msg.role == "user" and remaining <= target_tokens:
            return i
        remaining -= msg.tokens
    return len(tail)
