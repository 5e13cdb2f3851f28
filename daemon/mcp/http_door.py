"""``reverie mcp --transport http``: the MCP server behind a bearer token.

The daemon's socket lets in only its own user (0600, peer uids). An HTTP
port on loopback lets in every local user, so the HTTP door asks for a
secret only the daemon's user can read: a token in a 0600 file (created on
first use) or given in ``$REVERIE_MCP_TOKEN``. Every request without
``Authorization: Bearer <token>`` is answered 401 before the MCP SDK sees
it; the comparison takes the same time whatever the guess.
"""

from __future__ import annotations

import hmac
import os
import secrets
import stat
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from reverie.config import ConfigError

__all__ = ["TOKEN_ENV", "TOKEN_FILE", "BearerDoor", "read_token", "serve_http"]

TOKEN_ENV = "REVERIE_MCP_TOKEN"
#: The token's file in the data dir, unless ``--token-file`` names another.
TOKEN_FILE = "mcp.token"
#: A token shorter than this is refused: it could be guessed.
MIN_TOKEN = 16

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def read_token(path: Path, env: dict[str, str]) -> str:
    """The token from ``$REVERIE_MCP_TOKEN``, else from ``path`` (made, 0600, if absent)."""
    token = env.get(TOKEN_ENV) or _token_file(path)
    if len(token) < MIN_TOKEN:
        raise ConfigError(
            f"the MCP token is shorter than {MIN_TOKEN} characters; use a longer one "
            f"(or delete {path} and let `reverie mcp` make one)"
        )
    return token


def _token_file(path: Path) -> str:
    """Read the token file, creating it with a new token; refuse one others may read."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return _existing_token(path)
    except OSError as exc:
        raise ConfigError(f"cannot create the MCP token file {path}: {exc.strerror}") from exc
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w") as out:
        out.write(token + "\n")
    return token


def _existing_token(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise ConfigError(f"cannot read the MCP token file {path}: {exc.strerror}") from exc
    with os.fdopen(fd) as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            raise ConfigError(f"the MCP token file {path} is not a regular file of this user")
        if info.st_mode & 0o077:
            raise ConfigError(
                f"the MCP token file {path} may be read by other users: `chmod 600 {path}`"
            )
        return file.read().strip()


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
