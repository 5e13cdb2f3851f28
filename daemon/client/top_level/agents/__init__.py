"""reverie as the OpenAI Agents SDK's session store: ``pip install 'reverie[agents]'``.

``Runner.run(agent, text, session=ReverieSession("tg:123"))`` keeps the
conversation in the reverie session ``tg:123``: durable once acknowledged,
consolidated while idle, searchable, forgotten completely by
``clear_session``. ``memory_instructions`` puts the session's memory block in
front of an agent's instructions, so the prompt's prefix stays byte-stable
between consolidations. How items map to messages: ``items``; the guide:
docs/frameworks.md.

This package loads the client (never the daemon's machinery) and not even
the SDK: the SDK's ``Session`` is a protocol, which the session implements.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import Any

from reverie.config.errors import InvalidArgument
from reverie.daemon.client import AsyncClient
from reverie.daemon.protocol import Message, MessageIn

from .items import stored_bytes, to_item, to_message

__all__ = ["ReverieSession", "memory_instructions"]

#: One ``history`` page (the protocol's largest).
_PAGE = 1000


class ReverieSession:
    """The Agents SDK's ``Session`` over the reverie session ``session_id``.

    ``socket``: the daemon's (default: ``$REVERIE_SOCKET``, else where it
    listens by default); ``scope``: whose long-term memory the session feeds,
    set by its first add (default ``session/<session_id>``). Each call opens
    its own connection, so the session survives a daemon restart between
    calls, and calls from any asyncio task are safe.
    """

    session_settings: Any = None

    def __init__(
        self,
        session_id: str,
        *,
        socket: str | os.PathLike[str] | None = None,
        scope: str | None = None,
    ) -> None:
        self.session_id = session_id
        self.socket = socket
        self.scope = scope
        self._max_bytes: int | None = None

    async def get_items(self, limit: int | None = None) -> list[Any]:
        """The session's items, oldest first; with ``limit``, the newest ``limit`` of them."""
        async with AsyncClient(self.socket) as client:
            last = await _last_seq(client, self.session_id)
            after = 0 if limit is None else max(0, last - max(limit, 0))
            messages: list[Message] = []
            while after < last:
                page = await client.history(self.session_id, after_seq=after, limit=_PAGE)
                if not page:
                    break
                messages.extend(page)
                after = page[-1].seq
        return [to_item(m) for m in messages]

    async def add_items(self, items: list[Any]) -> None:
        """Append ``items`` atomically (all or none). Idempotent under retries: each message
        id is derived from the item and its place, and an add whose items are already the
        session's newest (the first attempt committed) stores nothing."""
        if not items:
            return
        async with AsyncClient(self.socket) as client:
            limit = await self._limit(client)
            last = await _last_seq(client, self.session_id)
            messages = [to_message(n, item, last + n) for n, item in enumerate(items, start=1)]
            for n, message in enumerate(messages, start=1):
                _check_size(n, message, limit)
            if await self._already_added(client, items, last):
                return
            await client.append_many(self.session_id, messages, scope=self.scope)

    async def pop_item(self) -> Any | None:
        """Remove and return the newest item (None: the session is empty).

        ``Conflict`` when consolidation has taken it already (its words are in the
        session's history and memory by then; ``clear_session`` forgets everything).
        """
        async with AsyncClient(self.socket) as client:
            message = await client.pop(self.session_id)
        return None if message is None else to_item(message)

    async def clear_session(self) -> None:
        """Forget the session completely: messages, history, facts only it supports, index."""
        async with AsyncClient(self.socket) as client:
            await client.forget(self.session_id)

    async def memory(self) -> str:
        """The session's memory block (``context().memory``; "" before any consolidation)."""
        async with AsyncClient(self.socket) as client:
            view = await client.context(self.session_id, max_tokens=1)
        return view.memory

    async def _limit(self, client: AsyncClient) -> int:
        if self._max_bytes is None:
            self._max_bytes = (await client.hello()).max_message_bytes
        return self._max_bytes

    async def _already_added(self, client: AsyncClient, items: list[Any], last: int) -> bool:
        """Whether the session's newest messages are these items, added by an attempt
        that committed before its acknowledgement was lost."""
        first = last - len(items)
        if first < 0:
            return False
        newest = await client.history(self.session_id, after_seq=first, limit=len(items))
        expected = [to_message(n, item, first + n).id for n, item in enumerate(items, start=1)]
        return [m.id for m in newest] == expected


def _check_size(n: int, message: MessageIn, limit: int) -> None:
    """Refuse an item over the daemon's ``daemon.max_message_bytes`` (content and the item
    kept whole together), naming the limit, before anything is sent."""
    if not limit:
        return
    size = stored_bytes(message)
    if size > limit:
        raise InvalidArgument(
            f"item {n} takes {size} bytes, over the daemon's limit of {limit} bytes a message"
            " (daemon.max_message_bytes); nothing was added"
        )


async def _last_seq(client: AsyncClient, session: str) -> int:
    """The session's newest seq (0: no such session); seqs are gap free from 1."""
    found = await client.sessions(prefix=session, limit=1)
    return found[0].messages if found and found[0].name == session else 0


def memory_instructions(
    instructions: str, session: ReverieSession
) -> Callable[[Any, Any], Awaitable[str]]:
    """An agent's ``instructions`` callable: the session's memory block, a blank line, then
    ``instructions``. The memory comes first and changes only at a consolidation or an
    edit, so the prompt's prefix is byte-identical from turn to turn (a local model keeps
    its KV cache); before any memory exists it is ``instructions`` alone."""

    async def build(context: Any, agent: Any) -> str:
        memory = await session.memory()
        return f"{memory}\n\n{instructions}" if memory else instructions

    return build
