"""``reverie mcp``: the daemon's memory as an MCP server, for hosts that load tools over MCP.

Most agent hosts (nanobot's ``tools.mcpServers``, Claude Code, Cursor) reach
memory through the Model Context Protocol rather than a Python import. This
server is one more client of the running daemon: it talks to the daemon's
socket through ``AsyncClient`` and holds no state of its own, so any number
of them (one per agent) can run against one daemon.

Guarantees:

- The session and scope an agent works in are fixed by the server's
  arguments (``--session``, ``--scope``); every tool takes them as optional
  arguments that default to those, so one config line per agent suffices,
  and refuses any other (``binding.Binding``: a pinned server).
- A reverie error comes back as an MCP tool error (``isError``) whose text
  starts with reverie's stable ``code`` and whose ``structuredContent`` is
  ``{"code": ..., "message": ...}``; it never ends the server.
- Each scope's ``MEMORY.md`` is a resource ``reverie://memory/{scope}``
  (the scope percent-encoded, as it contains ``/``).
"""

# No ``from __future__ import annotations``: the MCP SDK reads the tools'
# annotations at run time to build their JSON schemas.

import contextlib
import functools
import socket as stdsocket
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import msgspec
from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ResourceError, ToolError
from mcp.server.fastmcp.resources import FunctionResource
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from reverie.config import ConnectionLost, InvalidArgument, ReverieError

from ..client import AsyncClient
from ..version import package_version
from .binding import Binding
from .tools import register_tools

__all__ = ["MEMORY_URI", "build_server", "check_daemon", "memory_uri", "tool_result"]

MEMORY_URI = "reverie://memory/{scope}"
INSTRUCTIONS = (
    "reverie keeps this agent's long-term memory. Call `remember` for anything worth keeping, "
    "`recall` to search what was said or learned before, `memory` for the curated facts of the "
    "scope, and the working-memory tools (wm_*, task_*, checkpoint_*) for scratch state of the "
    "task at hand. Session and scope default to the ones this server was started with."
)


def memory_uri(scope: str) -> str:
    return MEMORY_URI.format(scope=quote(scope, safe=""))


def tool_result(value: Any) -> CallToolResult:
    """A successful tool answer: JSON text for the model, the same as structured content.

    Fields without a value are left out: a model reads every token of the answer.
    """
    data = _compact(msgspec.to_builtins(value))
    if not isinstance(data, dict):
        data = {"result": data}
    text = msgspec.json.encode(data).decode()
    return CallToolResult(content=[TextContent(type="text", text=text)], structuredContent=data)


def _compact(data: Any) -> Any:
    """``data`` without the ``None`` values of its maps, at every depth."""
    if isinstance(data, dict):
        return {k: _compact(v) for k, v in data.items() if v is not None}
    if isinstance(data, list):
        return [_compact(v) for v in data]
    return data


def _error_result(exc: ReverieError) -> CallToolResult:
    text = f"{exc.code}: {exc.message}"
    return CallToolResult(
        content=[TextContent(type="text", text=text)],
        structuredContent={"code": exc.code, "message": exc.message},
        isError=True,
    )


def reverie_tool(
    fn: Callable[..., Awaitable[Any]],
) -> Callable[..., Awaitable[CallToolResult]]:
    """Wrap a tool body: its value becomes a result, a ``ReverieError`` a typed tool error."""

    @functools.wraps(fn)
    async def wrapper(**kwargs: Any) -> CallToolResult:
        try:
            return tool_result(await fn(**kwargs))
        except ReverieError as exc:
            return _error_result(exc)

    return wrapper


class _ReverieMCP(FastMCP):
    """FastMCP whose argument errors read like reverie's: ``invalid_argument: <field>: <why>``."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any:
        try:
            return await super().call_tool(name, arguments)
        except ToolError as exc:
            if not isinstance(exc.__cause__, ValidationError):
                raise
            return _error_result(InvalidArgument(_validation_message(exc.__cause__)))


def _validation_message(error: ValidationError) -> str:
    return "; ".join(
        f"{'.'.join(str(part) for part in e['loc'])}: {e['msg']}" for e in error.errors()
    )


class _Holder:
    """The server's connection to the daemon, opened by the MCP lifespan."""

    client: AsyncClient | None = None

    def get(self) -> AsyncClient:
        if self.client is None:
            raise ConnectionLost("the MCP server has no connection to the daemon yet")
        return self.client


def build_server(
    socket: Path, binding: Binding, *, host: str = "127.0.0.1", port: int = 8000
) -> FastMCP:
    """The MCP server: reverie's tools and ``MEMORY.md`` resources, bound to ``binding``."""
    holder = _Holder()

    @contextlib.asynccontextmanager
    async def lifespan(_server: FastMCP) -> AsyncIterator[None]:
        async with AsyncClient(socket) as client:
            holder.client = client
            try:
                yield None
            finally:
                holder.client = None

    server = _ReverieMCP(
        "reverie", instructions=INSTRUCTIONS, lifespan=lifespan, host=host, port=port
    )
    # serverInfo.version: FastMCP takes no version and would report the SDK's own.
    server._mcp_server.version = package_version()
    register_tools(server, holder.get, binding, reverie_tool)
    _register_resources(server, holder, binding)
    return server


def _register_resources(server: FastMCP, holder: _Holder, binding: Binding) -> None:
    async def read_memory(scope: str) -> str:
        try:
            view = await holder.get().memory(binding.scope_of(unquote(scope)), limit=1)
        except ReverieError as exc:
            raise ResourceError(f"{exc.code}: {exc.message}") from exc
        return str(view.memory)

    server.resource(
        MEMORY_URI,
        name="MEMORY.md",
        description="The curated long-term memory (MEMORY.md) of a scope, e.g. "
        "reverie://memory/session%2Fcli%3Aalice",
        mime_type="text/markdown",
    )(read_memory)
    if binding.own_scope:
        scope = binding.own_scope

        async def read_own() -> str:
            return await read_memory(quote(scope, safe=""))

        server.add_resource(
            FunctionResource.from_function(
                read_own,
                uri=memory_uri(scope),
                name=f"MEMORY.md of {scope}",
                description=f"The curated long-term memory of this agent's scope {scope}",
                mime_type="text/markdown",
            )
        )


def check_daemon(socket: Path) -> str | None:
    """One line saying what to do when no daemon listens on ``socket``; None when one does."""
    sock = stdsocket.socket(stdsocket.AF_UNIX, stdsocket.SOCK_STREAM)
    try:
        sock.settimeout(5)
        sock.connect(str(socket))
    except OSError as exc:
        return (
            f"no reverie daemon at {socket} ({exc.strerror or exc}): start it with "
            "`reverie serve` (or `systemctl --user start reverie.socket`), or point "
            "--socket at its socket. An MCP host passes a stdio server only HOME, LOGNAME, "
            "PATH, SHELL, TERM and USER, not REVERIE_SOCKET from your shell: put "
            '"env": {"REVERIE_SOCKET": "<the socket>"} in the server\'s entry '
            "(`reverie mcp --print-config nanobot|claude|cursor` prints a whole one)"
        )
    finally:
        sock.close()
    return None
