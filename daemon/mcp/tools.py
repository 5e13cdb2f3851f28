"""The MCP tools of ``reverie mcp``: names, descriptions and JSON schemas an LLM uses unaided.

Each tool is a thin call of the daemon's client; ``server.reverie_tool``
turns its value into a tool result and a ``ReverieError`` into a typed tool
error. Session and scope arguments are optional and default to the server's
binding (``--session``, ``--scope``).
"""

# No ``from __future__ import annotations``: the MCP SDK reads the tools'
# annotations at run time to build their JSON schemas.

import contextlib
import inspect
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations
from pydantic import Field

from reverie.config import InvalidArgument

from ..client import AsyncClient
from ..protocol.frames import MAX_INT
from ..protocol.search import SearchHitView
from ..protocol.working_memory import TaskStatus
from .binding import Binding

__all__ = ["register_tools"]

READ = ToolAnnotations(readOnlyHint=True, openWorldHint=False)
WRITE = ToolAnnotations(readOnlyHint=False, destructiveHint=False, openWorldHint=False)
DESTROY = ToolAnnotations(readOnlyHint=False, destructiveHint=True, openWorldHint=False)

Session = Annotated[
    str | None, Field(description="Session name; default: the session this server is bound to")
]
Scope = Annotated[
    str | None,
    Field(description="Memory scope, e.g. user/alice or project/p; default: this server's scope"),
]
Kind = Literal["message", "episode", "fact"]
#: A tool's function, before and after it is registered.
Tool = Callable[..., Awaitable[Any]]
#: ``@tool(annotations)``: registers a tool on the server.
ToolDecorator = Callable[[ToolAnnotations], Callable[[Tool], Tool]]


def instant(value: float | str | None, field: str) -> float | None:
    """Unix seconds from what a model writes: a number, or an ISO 8601 date or time (UTC if naive)."""
    if value is None or isinstance(value, int | float):
        return value
    with contextlib.suppress(ValueError):
        return float(value)
    try:
        when = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidArgument(
            f"{field}: {value!r} is neither Unix seconds nor an ISO 8601 date (2026-05-01T14:00Z)"
        ) from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def register_tools(
    server: FastMCP,
    client: Callable[[], AsyncClient],
    binding: Binding,
    wrap: Callable[[Tool], Tool],
) -> None:
    """Add every tool to ``server``; ``client()`` is the live daemon connection."""

    def tool(annotations: ToolAnnotations) -> Callable[[Tool], Tool]:
        def add(fn: Tool) -> Tool:
            if binding.serves(fn.__name__, bool(annotations.readOnlyHint)):
                description = inspect.cleandoc(fn.__doc__ or "")
                server.tool(
                    annotations=annotations, description=description, structured_output=False
                )(wrap(fn))
            return fn

        return add

    @tool(WRITE)
    async def remember(
        content: Annotated[str, Field(description="The text to keep, as said or learned")],
        role: Annotated[
            Literal["user", "assistant", "system", "tool"],
            Field(description="Who said it"),
        ] = "user",
        id: Annotated[
            str | None, Field(description="A unique id; repeating a call with it is a no-op")
        ] = None,
        session: Session = None,
        scope: Scope = None,
    ) -> Any:
        """Remember a message: append it to the session's durable log. Returns its seq and id.

        It is searchable with `recall` at once and consolidated into long-term
        memory when the session goes quiet.
        """
        name = await binding.session_of(client(), session)
        ack = await client().append(
            name,
            role,
            content,
            id=id,
            scope=binding.scope_of(scope) if binding.own_scope else scope,
        )
        return {"session": name, "seq": ack.seq, "id": ack.id}

    @tool(READ)
    async def recall(
        query: Annotated[str, Field(description="What to look for, in words")],
        k: Annotated[int, Field(ge=1, le=100, description="How many hits")] = 10,
        kinds: Annotated[
            list[Kind] | None,
            Field(description="message (what was said), episode (summaries), fact; default all"),
        ] = None,
        session: Annotated[
            str | None, Field(description="Only this session (default: the whole scope)")
        ] = None,
        scope: Scope = None,
        since: Annotated[
            float | str | None,
            Field(
                description="Only at or after this time: ISO 8601 (2026-05-01, UTC unless "
                "a zone is given) or Unix seconds"
            ),
        ] = None,
        until: Annotated[
            float | str | None, Field(description="Only before this time (same forms as since)")
        ] = None,
        mode: Annotated[
            Literal["hybrid", "vector", "text"],
            Field(description="hybrid (default), vector (meaning) or text (keywords)"),
        ] = "hybrid",
        min_score: Annotated[
            float | None,
            Field(
                ge=0,
                le=1,
                description="Leave out hits scoring below this (0-1; scores mean the same in "
                "every search; default: the daemon's)",
            ),
        ] = None,
    ) -> Any:
        """Search memory: past messages, consolidated episodes and facts, best first.

        Each hit is its text, its kind, when it was said or learned (UTC) and its score
        (0-1). ``unembedded``, when present, counts matching messages ranked by their
        words only (not embedded yet).
        """
        if session is not None:
            session = await binding.session_of(client(), session)
        if session is None or binding.own_scope:
            scope = binding.scope_of(scope)
        reply = await client().search(
            query,
            scope=scope,
            session=session,
            kinds=kinds,
            k=k,
            since=instant(since, "since"),
            until=instant(until, "until"),
            mode=mode,
            min_score=min_score,
        )
        return {"hits": [_brief(h) for h in reply.hits], "unembedded": reply.unembedded or None}

    @tool(READ)
    async def memory(
        scope: Scope = None,
        limit: Annotated[
            int, Field(ge=1, le=100, description="Recent history entries to include")
        ] = 5,
    ) -> Any:
        """The scope's long-term memory: MEMORY.md (curated facts) and recent history entries."""
        return await client().memory(binding.scope_of(scope), limit=limit)

    @tool(READ)
    async def context(
        session: Session = None,
        max_tokens: Annotated[
            int | None,
            Field(
                ge=0,
                le=MAX_INT,
                description="Memory and messages together at most (default: the daemon's)",
            ),
        ] = None,
    ) -> Any:
        """What to put in the prompt for the session: memory first, then the recent messages."""
        name = await binding.session_of(client(), session)
        return await client().context(name, max_tokens=max_tokens, scope=binding.own_scope)

    @tool(DESTROY)
    async def forget(
        session: Annotated[str, Field(description="The session to delete, named explicitly")],
    ) -> Any:
        """Delete a session and everything derived from it (messages, history, index). Final."""
        session = await binding.session_of(client(), session)
        return {"session": session, "deleted_messages": await client().forget(session)}

    _register_facts(tool, client, binding)
    _register_working_memory(tool, client, binding)


def _register_facts(
    tool: ToolDecorator, client: Callable[[], AsyncClient], binding: Binding
) -> None:
    fact_id = Annotated[str, Field(description="The fact's id, from fact_list")]
    fact_text = Annotated[str, Field(description="The fact, one sentence that names its subject")]

    @tool(READ)
    async def fact_list(scope: Scope = None) -> Any:
        """The scope's long-term facts, each with its id, date and sources."""
        return {"facts": await client().facts(binding.scope_of(scope))}

    @tool(READ)
    async def fact_history(id: fact_id, scope: Scope = None) -> Any:
        """The consolidations (history entries) that recorded a fact, oldest first."""
        return {"entries": await client().fact_history(binding.scope_of(scope), id)}

    @tool(WRITE)
    async def fact_add(text: fact_text, scope: Scope = None) -> Any:
        """Add a long-term fact to the scope's memory (it leads every later prompt)."""
        return await client().fact_add(binding.scope_of(scope), text)

    @tool(WRITE)
    async def fact_update(id: fact_id, text: fact_text, scope: Scope = None) -> Any:
        """Replace a fact's words in its place; returns the fact with its new id."""
        return await client().fact_update(binding.scope_of(scope), id, text)

    @tool(DESTROY)
    async def fact_delete(id: fact_id, scope: Scope = None) -> Any:
        """Forget a fact everywhere it is kept (memory, history entries, search index)."""
        await client().fact_delete(binding.scope_of(scope), id)
        return {"deleted": id}


def _register_working_memory(
    tool: ToolDecorator, client: Callable[[], AsyncClient], binding: Binding
) -> None:
    key_field = Annotated[str, Field(description="The key, e.g. plan or user.name")]

    @tool(READ)
    async def wm_get(
        key: key_field,
        scope: Scope = None,
        inherit: Annotated[
            bool, Field(description="Also look in parent scopes, then global")
        ] = False,
    ) -> Any:
        """Read a working-memory key: its value, version and expiry (not_found if absent)."""
        return await client().wm_get(binding.scope_of(scope), key, inherit=inherit)

    @tool(WRITE)
    async def wm_set(
        key: key_field,
        value: Annotated[Any, Field(description="Any JSON value")],
        ttl: Annotated[
            float | None, Field(gt=0, description="Seconds until the key expires; default never")
        ] = None,
        expected_version: Annotated[
            int | None,
            Field(
                ge=0,
                le=MAX_INT,
                description="Compare-and-set: write only at this version (0: new key)",
            ),
        ] = None,
        scope: Scope = None,
    ) -> Any:
        """Write a working-memory key (scratch state of the task at hand); returns its version."""
        version = await client().wm_set(
            binding.scope_of(scope), key, value, ttl=ttl, expected_version=expected_version
        )
        return {"key": key, "version": version}

    @tool(WRITE)
    async def wm_delete(key: key_field, scope: Scope = None) -> Any:
        """Delete a working-memory key; `deleted` says whether it existed."""
        return {"key": key, "deleted": await client().wm_delete(binding.scope_of(scope), key)}

    @tool(READ)
    async def wm_list(
        prefix: Annotated[str, Field(description="Only keys starting with this")] = "",
        scope: Scope = None,
    ) -> Any:
        """The scope's working-memory keys with their versions and expiries."""
        return {"keys": await client().wm_list(binding.scope_of(scope), prefix=prefix)}

    @tool(READ)
    async def task_get(scope: Scope = None) -> Any:
        """The scope's current task: description, status, step of total (not_found if none)."""
        return await client().task_get(binding.scope_of(scope))

    @tool(WRITE)
    async def task_set(
        task_id: Annotated[str, Field(description="A name for the task")],
        description: Annotated[str, Field(description="What the task is")],
        status: Annotated[TaskStatus, Field(description="Where the task stands")] = "pending",
        step: Annotated[int, Field(ge=0, le=MAX_INT, description="Steps done so far")] = 0,
        total_steps: Annotated[
            int, Field(ge=0, le=MAX_INT, description="Steps in all (0: unknown)")
        ] = 0,
        data: Annotated[Any, Field(description="Any JSON state of the task")] = None,
        scope: Scope = None,
    ) -> Any:
        """Set the scope's task state (replaces it whole)."""
        return await client().task_set(
            binding.scope_of(scope), task_id, description, status, step, total_steps, data
        )

    @tool(WRITE)
    async def checkpoint_create(
        label: Annotated[str | None, Field(description="A label to find it by")] = None,
        scope: Scope = None,
    ) -> Any:
        """Snapshot the scope's keys, task and scratchpad; returns the checkpoint id."""
        return {"id": await client().checkpoint_create(binding.scope_of(scope), label=label)}

    @tool(DESTROY)
    async def checkpoint_restore(
        id: Annotated[str, Field(description="The checkpoint id")], scope: Scope = None
    ) -> Any:
        """Put the scope's keys, task and scratchpad back exactly as checkpointed."""
        keys = await client().checkpoint_restore(binding.scope_of(scope), id)
        return {"id": id, "keys": keys}

    @tool(READ)
    async def checkpoint_list(scope: Scope = None) -> Any:
        """The scope's checkpoints, newest first."""
        return {"checkpoints": await client().checkpoint_list(binding.scope_of(scope))}


def _brief(hit: SearchHitView) -> dict[str, Any]:
    """A hit as a model reads it: what it says, its kind, when, and how well it matched.

    The model reads every character as tokens: the whole hit (ids, scope, session,
    source, the two signals behind the score) was ~316 characters of JSON for a
    40-character message, this is ~108. Programs that want the rest use the client.
    A hit that stopped being true says until when (``until``), so a model does not
    take an old fact, or the turn that said it, for the current one.
    """
    when = datetime.fromtimestamp(hit.ts, UTC).strftime("%Y-%m-%dT%H:%MZ")
    brief = {"text": hit.text, "kind": hit.kind, "when": when, "score": round(hit.score, 2)}
    if hit.until:
        brief["until"] = hit.until
    return brief
