"""The secret an HTTP door of the daemon asks for: a token in a 0600 file or a variable.

The daemon's socket lets in only its own user (0600, peer uids). An HTTP
port on loopback lets in every local user, so each HTTP door (``reverie mcp
--transport http``, ``reverie ui``) asks for a token only the daemon's user
can read: ``$<variable>``, else a file in the data dir made on first use.
Each door has its own: the inspector's token does not open MCP, nor the
reverse. This module is stdlib only, so the CLI reads a token without
importing a server.
"""

from __future__ import annotations

import os
import secrets
import stat
from pathlib import Path

from reverie.config import ConfigError

__all__ = [
    "MCP_TOKEN_ENV",
    "MCP_TOKEN_FILE",
    "MIN_TOKEN",
    "UI_TOKEN_ENV",
    "UI_TOKEN_FILE",
    "read_token",
]

MCP_TOKEN_ENV = "REVERIE_MCP_TOKEN"
#: The MCP token's file in the data dir, unless ``--token-file`` names another.
MCP_TOKEN_FILE = "mcp.token"
UI_TOKEN_ENV = "REVERIE_UI_TOKEN"
#: The web inspector's token file in the data dir.
UI_TOKEN_FILE = "ui.token"
#: A token shorter than this is refused: it could be guessed.
MIN_TOKEN = 16


def read_token(
    path: Path, env: dict[str, str], variable: str = MCP_TOKEN_ENV, command: str = "reverie mcp"
) -> str:
    """The token from ``$variable``, else from ``path`` (made, 0600, if absent).

    ``reverie ui`` keeps its own token the same way (another variable and file):
    each door's secret opens only that door.
    """
    try:
        token = env.get(variable) or _token_file(path)
    except ConfigError as exc:
        raise ConfigError(f"{exc.message}; pass --token-file FILE or set ${variable}") from exc
    if len(token) < MIN_TOKEN:
        raise ConfigError(
            f"the token is shorter than {MIN_TOKEN} characters; use a longer one "
            f"(or delete {path} and let `{command}` make one)"
        )
    return token


def _token_file(path: Path) -> str:
    """Read the token file, creating it with a new token; refuse one others may read."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    except FileExistsError:
        return _existing_token(path)
    except OSError as exc:
        raise ConfigError(f"cannot create the token file {path}: {exc.strerror}") from exc
    token = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w") as out:
        out.write(token + "\n")
    return token


def _existing_token(path: Path) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError as exc:
        raise ConfigError(f"cannot read the token file {path}: {exc.strerror}") from exc
    with os.fdopen(fd) as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.geteuid():
            raise ConfigError(f"the token file {path} is not a regular file of this user")
        if info.st_mode & 0o077:
            raise ConfigError(
                f"the token file {path} may be read by other users: `chmod 600 {path}`"
            )
        return file.read().strip()
