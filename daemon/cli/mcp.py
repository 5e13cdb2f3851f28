"""``reverie mcp`` on the command line: parse its flags, check the daemon, run the MCP server.

The MCP SDK is imported only when the command runs, so every other
``reverie`` command starts as fast as before.
"""

from __future__ import annotations

import argparse
import logging
import os
import pwd
import sys
from typing import Any

from reverie.config import log_to_stderr

from ..door_token import MCP_TOKEN_ENV, MCP_TOKEN_FILE
from .http_doors import add_http_options, door_token, refuse_remote, socket_of

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
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio (default; the host spawns this command) or streamable HTTP",
    )
    add_http_options(mcp, port=8765, token_file=MCP_TOKEN_FILE)


def _pinned_to(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The session and scope the tools are pinned to: the flags', else this OS user's own."""
    if args.session or args.scope or args.unpinned:
        return args.session or None, args.scope or None
    user = pwd.getpwuid(os.getuid()).pw_name
    return f"mcp:{user}", f"user/{user}"


def run_mcp(args: argparse.Namespace) -> int:
    """Run until the host closes stdin (stdio) or the process is stopped (HTTP)."""
    socket = socket_of(args)
    if args.transport == "http":
        refuse_remote(args, "the MCP server")
    from ..mcp import Binding, build_server, check_daemon, quiet_unknown_requests

    problem = check_daemon(socket)
    if problem is not None:
        print(f"reverie mcp: {problem}", file=sys.stderr)
        return 1
    token = where = None
    if args.transport == "http":
        token, where = door_token(args, socket, MCP_TOKEN_FILE, MCP_TOKEN_ENV, "reverie mcp")
    log_to_stderr(logging.WARNING)
    quiet_unknown_requests()
    binding = Binding(*_pinned_to(args), read_only=args.read_only, forget=not args.no_forget)
    server = build_server(socket, binding, host=args.host, port=args.port)
    if token is None:
        server.run("stdio")
        return 0
    from ..mcp.http_door import serve_http

    print(
        f"reverie mcp: serving http://{args.host}:{args.port}/mcp to clients that send "
        f"`Authorization: Bearer <token>` (the token in {where})",
        file=sys.stderr,
    )
    serve_http(server.streamable_http_app(), token, args.host, args.port)
    return 0
