"""``reverie mcp`` on the command line: parse its flags, check the daemon, run the MCP server.

The MCP SDK is imported only when the command runs, so every other
``reverie`` command starts as fast as before.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import os
import pwd
import sys
from pathlib import Path
from typing import Any

from reverie.config import ConfigError, log_to_stderr

__all__ = ["add_mcp_parser", "run_mcp"]


def add_mcp_parser(sub: Any) -> None:
    mcp = sub.add_parser(
        "mcp",
        help="serve reverie's memory to MCP hosts (nanobot, Claude, Cursor) over stdio or HTTP",
    )
    mcp.add_argument(
        "--session",
        help="pin the tools to this session, the one this agent appends to and reads "
        "(default, with no --scope either: mcp:<your user name>)",
    )
    mcp.add_argument(
        "--scope",
        help="pin the tools to this memory scope (default: user/<your user name> with the "
        "default session, else the session's own)",
    )
    mcp.add_argument(
        "--unpinned",
        action="store_true",
        help="no default session or scope: the tools reach whatever session and scope their "
        "caller names (the operator's own tools, not an agent's)",
    )
    mcp.add_argument(
        "--read-only",
        action="store_true",
        help="serve only the tools that read (no writes, no forget)",
    )
    mcp.add_argument("--no-forget", action="store_true", help="serve no `forget` tool")
    mcp.add_argument(
        "--socket", help="daemon socket (default: --config's, $REVERIE_SOCKET, the default)"
    )
    mcp.add_argument("--config", help="TOML config file to take the daemon's socket from")
    mcp.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default; the host spawns this command) or streamable HTTP",
    )
    mcp.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    mcp.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    mcp.add_argument(
        "--token-file",
        help="HTTP: the bearer token's file (default <data_dir>/mcp.token, made 0600 if absent; "
        "$REVERIE_MCP_TOKEN overrides it)",
    )
    mcp.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow --host to be a non-loopback address (plain HTTP: the token crosses the network)",
    )


def _socket(args: argparse.Namespace) -> Path:
    if args.socket:
        return Path(args.socket)
    if args.config:
        from reverie.config import load_config

        return load_config(args.config).socket_path
    from ..client import default_socket

    return default_socket()


def _pinned_to(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The session and scope the tools are pinned to: the flags', else this OS user's own."""
    if args.session or args.scope or args.unpinned:
        return args.session or None, args.scope or None
    user = pwd.getpwuid(os.getuid()).pw_name
    return f"mcp:{user}", f"user/{user}"


def _token(args: argparse.Namespace) -> str:
    from reverie.config import load_config

    from ..mcp.http_door import TOKEN_FILE, read_token

    path = (
        Path(args.token_file)
        if args.token_file
        else load_config(args.config).data_path / TOKEN_FILE
    )
    return read_token(path, dict(os.environ))


def _check_host(args: argparse.Namespace) -> None:
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback and not args.allow_remote:
        raise ConfigError(
            f"--host {args.host} is not a loopback address and the MCP server speaks plain "
            "HTTP (its token would cross the network in clear); pass --allow-remote to serve "
            "it anyway, behind a TLS proxy"
        )


def run_mcp(args: argparse.Namespace) -> int:
    """Run until the host closes stdin (stdio) or the process is stopped (HTTP)."""
    socket = _socket(args)
    token = None
    if args.transport == "http":
        _check_host(args)
        token = _token(args)
    from ..mcp import Binding, build_server, check_daemon

    problem = check_daemon(socket)
    if problem is not None:
        print(f"reverie mcp: {problem}", file=sys.stderr)
        return 1
    log_to_stderr(logging.WARNING)
    binding = Binding(*_pinned_to(args), read_only=args.read_only, forget=not args.no_forget)
    server = build_server(socket, binding, host=args.host, port=args.port)
    if token is None:
        server.run("stdio")
        return 0
    from ..mcp.http_door import serve_http

    print(
        f"reverie mcp: serving http://{args.host}:{args.port}/mcp to clients that send "
        "`Authorization: Bearer <token>`",
        file=sys.stderr,
    )
    serve_http(server.streamable_http_app(), token, args.host, args.port)
    return 0
