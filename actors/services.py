"""What every actor is given: configuration, storage, token counting, hooks, counters.

The daemon builds the shared part first (``Services(config, db, tokens)``:
the indexer and the consolidation supervisor need only that), then the
session actors' copy with the followers of the sessions (``hooks``) and the
owner of long-term memory (``memory``) filled in: ``dataclasses.replace``,
so both share one ``counters``. No field is set after construction.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from reverie.config import Config
from reverie.store import Consolidated, GroupCommit, HistoryEntry, SessionRecord, TokenCounter

__all__ = ["HookChain", "LongTermMemory", "Services", "SessionHooks"]


class LongTermMemory(Protocol):
    """What a session actor asks of the owner of long-term memory (``MemoryKeeper``)."""

    async def prefix(self, scope: str) -> str:
        """The memory block ``context`` puts before the tail ("" until consolidation)."""
        ...

    async def text(self, scope: str) -> str:
        """The scope's ``MEMORY.md`` as it is, the facts' source comments included."""
        ...

    async def write_consolidation(
        self, entry: HistoryEntry, memory: str, base: str
    ) -> Consolidated:
        """Write a consolidation's ``MEMORY.md`` and history entry (unless ``base`` moved)."""
        ...


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

    def popped(self, session: SessionRecord) -> None:
        """The session's newest message was deleted (a pop); ``session`` is the row after it."""

    def memory_edited(self, scope: str) -> None:
        """The scope's Markdown changed outside a consolidation (an edit, by hand or by op)."""


class HookChain(SessionHooks):
    """Several followers of the sessions as one: each event goes to each, in order."""

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

    def popped(self, session: SessionRecord) -> None:
        for hook in self.hooks:
            hook.popped(session)

    def memory_edited(self, scope: str) -> None:
        for hook in self.hooks:
            hook.memory_edited(scope)


@dataclass(slots=True)
class Services:
    config: Config
    db: GroupCommit[Any]
    tokens: TokenCounter
    hooks: SessionHooks = field(default_factory=SessionHooks)
    memory: LongTermMemory | None = None  # None: no long-term memory (context has none)
    counters: Counter[str] = field(default_factory=Counter)

    def now(self) -> float:
        """Wall-clock seconds, the time messages are stamped with."""
        return time.time()
