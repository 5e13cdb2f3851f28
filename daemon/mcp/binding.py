"""The session and scope an MCP server works in, how far its tools reach, and which it serves.

A server started with ``--session`` or ``--scope`` is *pinned*: its tools
default to that session and scope and refuse any other (``unauthorized``),
so an agent given one server cannot read, write or forget another user's
memory by naming it. A server started with neither reaches every session
and scope its caller names: it is for the operator's own tools.
``--read-only`` serves only the tools that read; ``--no-forget`` every tool
but the ones that forget (``forget``, ``fact_delete``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from reverie.config import InvalidArgument, Unauthorized, default_scope

__all__ = ["FORGETTING", "Binding"]

#: The tools that forget (dropped by ``--no-forget``).
FORGETTING = frozenset({"forget", "fact_delete"})


@dataclass(frozen=True, slots=True)
class Binding:
    """The session and scope this server works in (from its command line)."""

    session: str | None = None
    scope: str | None = None
    read_only: bool = False
    forget: bool = True

    def serves(self, tool: str, reads_only: bool) -> bool:
        """Whether the tool is served: ``--read-only`` keeps readers, ``--no-forget`` drops the
        ones that forget."""
        if self.read_only:
            return reads_only
        return self.forget or tool not in FORGETTING

    @property
    def own_scope(self) -> str | None:
        """The scope a pinned server works in: ``--scope``, else its session's own."""
        if self.scope:
            return self.scope
        return default_scope(self.session) if self.session else None

    def scope_of(self, scope: str | None) -> str:
        """The given scope, else the server's; a pinned server refuses any other."""
        own = self.own_scope
        if own and scope and scope != own:
            raise Unauthorized(f"this MCP server is pinned to scope {own!r}; {scope!r} is not it")
        if scope or own:
            return scope or own  # type: ignore[return-value]
        raise InvalidArgument(
            "no scope: pass `scope`, or start the server with `reverie mcp --scope NAME`"
        )

    async def session_of(self, client: Any, session: str | None) -> str:
        """The given session, else the server's; a pinned server refuses any it does not own.

        A server pinned to a session reaches that session only. One pinned to
        a scope alone reaches the sessions of that scope (and names no
        session holds yet, which an append creates in that scope).
        """
        if self.session and session and session != self.session:
            raise Unauthorized(
                f"this MCP server is pinned to session {self.session!r}; {session!r} is not it"
            )
        name = session or self.session
        if not name:
            raise InvalidArgument(
                "no session: pass `session`, or start the server with `reverie mcp --session NAME`"
            )
        if self.scope and not self.session:
            found = await client.sessions(prefix=name, limit=1)
            if found and found[0].name == name and found[0].scope != self.scope:
                raise Unauthorized(
                    f"this MCP server is pinned to scope {self.scope!r}; "
                    f"session {name!r} is not in it"
                )
        return name
