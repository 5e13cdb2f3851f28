"""The tail a prompt can hold: the newest whole turns that fit beside the memory prefix.

A host asks ``context(session, max_tokens=N)`` for what goes in its prompt.
While consolidation keeps up, memory and tail fit easily; while an LLM is
down the tail grows towards ``hard_tokens``, and a prompt of that size
would overflow a small local model. So the tail is cut to fit: whole turns
(a turn begins at a user message, with what answered it), newest kept,
oldest left out and counted. Nothing is lost: the turns left out stay in
the tail and in ``history``, and consolidation takes them in time.
"""

from __future__ import annotations

from reverie.store import MessageRecord

__all__ = ["fit_tail"]


def fit_tail(tail: list[MessageRecord], budget: int) -> list[MessageRecord]:
    """The newest whole turns of ``tail`` whose tokens add up to at most ``budget``."""
    start = end = len(tail)
    used = 0
    while end > 0:
        begin = end - 1
        while begin > 0 and tail[begin].role != "user":
            begin -= 1
        cost = sum(m.tokens for m in tail[begin:end])
        if used + cost > budget:
            break
        used += cost
        start = end = begin
    return tail[start:]
