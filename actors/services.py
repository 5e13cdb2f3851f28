"""What every actor is given: configuration, storage, token counting, hooks, counters.

One ``Services`` object is built by the daemon at start and shared by all
actors; it holds no per-session state.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from reverie.config import Config
from reverie.store import Database, SessionRecord, TokenCounter

__all__ = ["HookChain", "Services", "SessionHooks"]


class SessionHooks:
    """Callbacks from session actors to the parts that follow sessions.

    The defaults do nothing; the consolidation supervisor and the indexer
    override what they need. Hooks run on the event loop and must not block.
    """

    def appended(self, session: SessionRecord) -> None:
        """A batch of messages committed; ``session`` is the row after it."""

    def consolidated(self, session: SessionRecord) -> None:
        """A consolidation moved ``session``'s cursor; its row is as given."""

    def forgotten(self, session: str, scope: str) -> None:
        """A session and its messages were deleted."""

    def memory_edited(self, scope: str) -> None:
        """The scope's Markdown changed outside a consolidation (an edit, by hand or by op)."""

    async def memory_prefix(self, scope: str) -> str:
        """The memory block ``context`` puts before the tail ("" until consolidation)."""
        return ""


class HookChain(SessionHooks):
    """Several followers of the sessions as one: each event goes to each, in order.

    The memory prefix is the first hook's (the consolidation supervisor owns
    the memory tree).
    """

    def __init__(self, *hooks: SessionHooks) -> None:
        self.hooks = hooks

    def appended(self, session: SessionRecord) -> None:
        for hook in self.hooks:
            hook.appended(session)

    def consolidated(self, session: SessionRecord) -> None:
        for hook in self.hooks:
            hook.consolidated(session)

    def forgotten(self, session: str, scope: str) -> None:
        for hook in self.hooks:
            hook.forgotten(session, scope)

    def memory_edited(self, scope: str) -> None:
        for hook in self.hooks:
            hook.memory_edited(scope)

    async def memory_prefix(self, scope: str) -> str:
        return await self.hooks[0].memory_prefix(scope) if self.hooks else ""


@dataclass(slots=True)
class Services:
    config: Config
    db: Database
    tokens: TokenCounter
    hooks: SessionHooks = field(default_factory=SessionHooks)
    counters: Counter[str] = field(default_factory=Counter)

    def now(self) -> float:
        """Wall-clock seconds, the time messages are stamped with."""
        return time.time()
