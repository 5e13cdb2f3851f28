"""reverie as the OpenAI Agents SDK's session store: ``pip install 'reverie[agents]'``.

``Runner.run(agent, text, session=ReverieSession("tg:123"))`` keeps the
conversation in the reverie session ``tg:123``: durable once acknowledged,
consolidated while idle, searchable, forgotten completely by
``clear_session``. The SDK's prompt gets what ``context()`` gives a host: the
memory block, then the turns not yet consolidated (``view="log"``: every
turn ever, with ``memory_instructions`` putting the memory block in front of
an agent's instructions). How items map to messages: ``items``; the guide:
docs/frameworks.md.

This package loads the client (never the daemon's machinery) and not even
the SDK: the SDK's ``Session`` is a protocol, which the session implements.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, Literal

import msgspec

from reverie.config.errors import InvalidArgument
from reverie.daemon.client import AsyncClient
from reverie.daemon.protocol import Append, HelloReply, Message, MessageIn, encode

from .items import stored_bytes, to_item, to_message

__all__ = ["ReverieSession", "memory_instructions"]

#: One ``history`` page (the protocol's largest).
_PAGE = 1000
#: The largest request id a frame carries, and a msgpack array's largest header: the
#: room an ``append`` frame keeps beside its messages is measured with both.
_MAX_RID = 2**63 - 1
_ARRAY_HEADER = 5

View = Literal["context", "log"]


class ReverieSession:
    """The Agents SDK's ``Session`` over the reverie session ``session_id``.

    ``socket``: the daemon's (default: ``$REVERIE_SOCKET``, else where it
    listens by default); ``scope``: whose long-term memory the session feeds,
    set by its first add (default ``session/<session_id>``). ``view``: what
    ``get_items`` gives the SDK's prompt — ``"context"`` (the default) the
    memory block as a system item, then the turns not yet consolidated, so a
    consolidation shortens the prompt; ``"log"`` every item ever added. Each
    call opens its own connection, so the session survives a daemon restart
    between calls, and calls from any asyncio task are safe.
    """

    session_settings: Any = None

    def __init__(
        self,
        session_id: str,
        *,
        socket: str | os.PathLike[str] | None = None,
        scope: str | None = None,
        view: View = "context",
    ) -> None:
        if view not in ("context", "log"):
            raise InvalidArgument(f"view is 'context' or 'log', not {view!r}")
        self.session_id = session_id
        self.socket = socket
        self.scope = scope
        self.view: View = view
        self._hello: HelloReply | None = None
        #: The batch id of each add that raised, by its items: a retry of it reuses the id.
        self._unacked: dict[str, str] = {}

    async def get_items(self, limit: int | None = None) -> list[Any]:
        """The view's items, oldest first; with ``limit``, the newest ``limit`` of them (in
        the context view the memory item counts, as the oldest)."""
        async with AsyncClient(self.socket) as client:
            if self.view == "context":
                view = await client.context(self.session_id, max_tokens=0, scope=self.scope)
                memory = [{"role": "system", "content": view.memory}] if view.memory else []
                items = memory + [to_item(m) for m in view.messages]
                return items if limit is None else items[len(items) - max(limit, 0) :]
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
        """Append ``items``, acknowledged once durable.

        Each add gets a fresh batch id its messages' ids derive from; an add that raised
        (its acknowledgement may be all that was lost) keeps its id for a retry of the same
        items through this session object, so the retry stores nothing twice however many
        items other hosts added meanwhile. All or none when the items fit one frame
        (``daemon.max_frame_bytes``); a larger add is sent as several appends, which a retry
        completes.
        """
        if not items:
            return
        key = json.dumps(items, sort_keys=True, default=repr)
        batch = self._unacked.pop(key, None) or uuid.uuid4().hex[:16]
        messages = [to_message(n, item, batch) for n, item in enumerate(items, start=1)]
        try:
            async with AsyncClient(self.socket) as client:
                hello = await self._limits(client)
                for n, message in enumerate(messages, start=1):
                    _check_size(n, message, hello.max_message_bytes)
                for part in _frames(self.session_id, self.scope, messages, hello.max_frame_bytes):
                    await client.append_many(self.session_id, part, scope=self.scope)
        except InvalidArgument:
            raise  # refused before anything was stored: nothing to retry
        except BaseException:
            self._unacked[key] = batch
            raise

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

    async def _limits(self, client: AsyncClient) -> HelloReply:
        if self._hello is None:
            self._hello = await client.hello()
        return self._hello


def _frames(
    session: str, scope: str | None, messages: list[MessageIn], max_frame_bytes: int
) -> list[list[MessageIn]]:
    """``messages`` cut, in order, into batches whose ``append`` frame each fits the
    daemon's ``max_frame_bytes`` (one batch when they all fit)."""
    overhead = len(encode(Append(rid=_MAX_RID, session=session, messages=[], scope=scope)))
    room = max_frame_bytes - overhead - _ARRAY_HEADER
    parts: list[list[MessageIn]] = [[]]
    used = 0
    for message in messages:
        size = len(msgspec.msgpack.encode(message))
        if parts[-1] and used + size > room:
            parts.append([])
            used = 0
        parts[-1].append(message)
        used += size
    return parts


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
