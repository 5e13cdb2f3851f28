"""``reverie mcp --transport http``: the MCP server behind a bearer token.

An HTTP port on loopback lets in every local user, so this door asks for
a secret only the daemon's user can read (``door_token``: a 0600 file made
on first use, or ``$REVERIE_MCP_TOKEN``). Every request without
``Authorization: Bearer <token>`` is answered 401 before the MCP SDK sees
it; the comparison takes the same time whatever the guess.
"""

from __future__ import annotations

import hmac
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from ..door_token import MCP_TOKEN_ENV, MCP_TOKEN_FILE

__all__ = ["TOKEN_ENV", "TOKEN_FILE", "BearerDoor", "serve_http"]

TOKEN_ENV = MCP_TOKEN_ENV
TOKEN_FILE = MCP_TOKEN_FILE

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


class BearerDoor:
    """ASGI middleware: HTTP requests pass only with ``Authorization: Bearer <token>``."""

    def __init__(self, app: App, token: str) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or self._authorized(scope):
            await self.app(scope, receive, send)
            return
        body = b'{"error": "unauthorized", "message": "send Authorization: Bearer <the MCP token>"}'
        await send(
            {
                "type": "http.response.start",
                "status": 401,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"www-authenticate", b'Bearer realm="reverie"'),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _authorized(self, scope: Scope) -> bool:
        if scope["type"] != "http":
            return False
        given = dict(scope["headers"]).get(b"authorization", b"")
        return hmac.compare_digest(given, self.expected)


def serve_http(app: App, token: str, host: str, port: int) -> None:
    """Serve ``app`` (the MCP SDK's streamable-HTTP app) behind the token until stopped."""
    import anyio
    import uvicorn

    config = uvicorn.Config(BearerDoor(app, token), host=host, port=port, log_level="warning")
    anyio.run(uvicorn.Server(config).serve)
