"""nanobot's memory kept in reverie: ``pip install '<checkout>[nanobot]'`` (nanobot-ai 0.3.5).

``ReverieMemory(scope="user/ada").attach(bot)`` makes a ``nanobot.Nanobot``
keep every turn in reverie and take its long-term memory from reverie:

- a turn's user message is appended when the turn starts (a runtime-context
  provider, nanobot's per-turn hook that runs before the prompt is built),
  and the turn's assistant and tool messages once nanobot has saved the turn
  (its ``SessionTurnPersisted`` event); the ids derive from nanobot's turn
  id, so a retried append stores nothing twice;
- the memory block of ``context()`` (byte-stable between consolidations)
  takes the place of ``MEMORY.md`` in nanobot's system prompt, under its own
  "Long-term Memory" heading;
- consolidation is reverie's: nothing here summarises, and nanobot's Dream
  edits files the prompt no longer reads (switch it off: docs/nanobot.md).

The guide: docs/nanobot.md. This package loads the client and nanobot,
never the daemon's machinery.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from nanobot.agent.tools.context import current_request_context

from reverie.daemon.client import AsyncClient
from reverie.daemon.protocol import MessageIn

if TYPE_CHECKING:
    from nanobot import Nanobot
    from nanobot.agent.tools.context import RequestContext
    from nanobot.bus.runtime_events import SessionTurnPersisted

__all__ = ["ReverieMemory"]

#: The roles of a turn's messages after the user's that reverie keeps.
_REPLY_ROLES = ("assistant", "tool")


class ReverieMemory:
    """reverie as a nanobot's memory: every turn stored, the memory block in its prompt.

    ``scope``: whose long-term memory the sessions share and read, set on each
    session's first append (default: each session its own, ``session/<name>``);
    ``socket``: the daemon's (default ``$REVERIE_SOCKET``, else where it listens
    by default); ``prefix``: put before nanobot's session key to name the reverie
    session (``chat:1`` is ``nanobot:chat:1``). Each call opens its own
    connection, so a daemon restart between turns is invisible.
    """

    def __init__(
        self,
        *,
        scope: str | None = None,
        socket: str | os.PathLike[str] | None = None,
        prefix: str = "nanobot:",
    ) -> None:
        self.scope = scope
        self.socket = socket
        self.prefix = prefix
        self._blocks: dict[str, str] = {}  # nanobot session key -> its memory block
        self._turns: dict[str, str] = {}  # a started turn's id -> its session key
        self._bot: Nanobot | None = None

    def session(self, session_key: str) -> str:
        """The reverie session that keeps nanobot's session ``session_key``."""
        return self.prefix + session_key

    def attach(self, bot: Nanobot) -> Callable[[], None]:
        """Keep ``bot``'s turns and prompt memory in reverie; returns the undo."""
        if self._bot is not None:
            raise RuntimeError("this ReverieMemory is attached already: make one per Nanobot")
        self._bot = bot
        # The facade keeps its loop private, and the prompt reads the loop's memory
        # store directly (ContextBuilder.build_system_prompt): the one seam for it.
        context = bot._loop.context
        own = context.memory
        context.memory = _PromptMemory(own, self._blocks)
        undo = [
            bot.runtime.add_context_provider(self._turn_starts),
            bot.runtime.on_session_turn_persisted(self._turn_saved),
        ]

        def detach() -> None:
            for step in undo:
                step()
            context.memory = own
            self._bot = None

        return detach

    async def _turn_starts(self, request: RequestContext) -> None:
        """Before the prompt is built: store the user's message, fetch the memory block."""
        key, turn, text = request.session_key, request.turn_id, request.original_user_text
        if key is None or turn is None or text is None:
            return None
        session = self.session(key)
        async with AsyncClient(self.socket) as client:
            await client.append(session, "user", text, id=_message_id(turn, 0), scope=self.scope)
            view = await client.context(session, scope=self.scope)
        self._blocks[key] = view.memory
        self._turns[turn] = key
        return None  # no runtime context: the memory goes where the prompt keeps memory

    async def _turn_saved(self, event: SessionTurnPersisted) -> None:
        """After nanobot saved the turn: store its assistant and tool messages."""
        key = self._turns.pop(event.turn_id, None)
        if key is None or self._bot is None:
            return  # a turn no user message started here (a cron job, a subagent's result)
        snapshot = self._bot.sessions.get(key)
        replies = _replies(snapshot.messages if snapshot is not None else [])
        if not replies:
            return
        messages = [
            MessageIn(
                role=m["role"],
                content=_text(m.get("content")),
                id=_message_id(event.turn_id, n),
                tool_calls=m.get("tool_calls") or None,
                tool_call_id=m.get("tool_call_id"),
            )
            for n, m in enumerate(replies, start=1)
        ]
        async with AsyncClient(self.socket) as client:
            await client.append_many(self.session(key), messages, scope=self.scope)


class _PromptMemory:
    """nanobot's memory store as its prompt sees it: ``read_memory`` is the turn's
    session's reverie memory block; everything else is nanobot's own store."""

    def __init__(self, store: Any, blocks: Mapping[str, str]) -> None:
        self._store = store
        self._blocks = blocks

    def read_memory(self) -> str:
        request = current_request_context()
        if request is None or request.session_key is None:
            return ""  # outside a turn there is no session, so no memory of one
        return self._blocks.get(request.session_key, "")

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _message_id(turn_id: str, n: int) -> str:
    """The ``n``-th message of nanobot's turn ``turn_id``: the same on every retry, and
    short whatever the session key's length (the protocol's ids are at most 128)."""
    return f"nb-{hashlib.sha256(turn_id.encode()).hexdigest()[:32]}-{n}"


def _replies(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages after the session's last user message: the turn's answer."""
    last_user = max((i for i, m in enumerate(messages) if m.get("role") == "user"), default=-1)
    return [m for m in messages[last_user + 1 :] if m.get("role") in _REPLY_ROLES]


def _text(content: Any) -> str:
    """A message's text: nanobot keeps a string, or OpenAI content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            p["text"] for p in content if isinstance(p, dict) and isinstance(p.get("text"), str)
        )
    return ""
