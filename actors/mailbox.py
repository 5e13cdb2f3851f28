"""Waiting on an actor's mailbox, shared by every kind of actor.

While an actor waits, its ``idle_scope`` is set so the registry can
passivate it early (over ``max_live``) by cancelling that wait; nothing else
is ever cancelled that way, so an actor is only evicted between requests.
"""

from __future__ import annotations

from typing import Any, Protocol

import trio

__all__ = ["Idling", "receive_or_idle"]


class Idling(Protocol):
    inbox: trio.MemoryReceiveChannel[Any]
    idle_scope: trio.CancelScope | None


async def receive_or_idle(actor: Idling, idle_after: float) -> Any | None:
    """The next envelope, or None after ``idle_after`` seconds idle (or once closed)."""
    with trio.move_on_after(idle_after) as scope:
        actor.idle_scope = scope
        try:
            return await actor.inbox.receive()
        except trio.EndOfChannel:
            return None
        finally:
            actor.idle_scope = None
    return None
