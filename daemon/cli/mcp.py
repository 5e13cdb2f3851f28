"""``reverie mcp`` on the command line: parse its flags, check the daemon, run the MCP server.

The MCP SDK is imported only when the command runs, so every other
``reverie`` command starts as fast as before.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import pwd
import sys
from pathlib import Path
from typing import Any

from reverie.config import log_to_stderr

from ..door_token import MCP_TOKEN_ENV, MCP_TOKEN_FILE
from .http_doors import add_http_options, door_token, refuse_remote, socket_of

__all__ = ["add_mcp_parser", "run_mcp"]

#: The hosts ``--print-config`` writes an entry for, and where their entries live.
HOSTS = {
    "nanobot": "~/.nanobot/config.json",
    "claude": ".mcp.json (Claude Code) or claude_desktop_config.json (Claude Desktop)",
    "cursor": "~/.cursor/mcp.json or .cursor/mcp.json",
}


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
        "--print-config",
        choices=sorted(HOSTS),
        metavar="HOST",
        help="print the server entry for HOST's config (nanobot, claude, cursor) with this "
        "command's absolute path and the socket in its env, then exit: hosts pass their "
        "stdio servers neither your shell's PATH nor REVERIE_SOCKET",
    )
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


def host_entry(args: argparse.Namespace, socket: Path) -> dict[str, Any]:
    """The stdio server entry an MCP host's config needs to run this very command.

    Hosts start a stdio server with only HOME, LOGNAME, PATH, SHELL, TERM and USER
    of their own environment (the MCP SDK's default), so the command is absolute
    (this interpreter's ``reverie``, else ``python -m reverie.daemon``) and the
    socket travels in the entry's ``env``. The session and scope are written out.
    """
    session, scope = _pinned_to(args)
    flags = ["--session", session] if session else []
    flags += ["--scope", scope] if scope else []
    chosen = {"--unpinned": args.unpinned, "--read-only": args.read_only}
    chosen["--no-forget"] = args.no_forget
    flags += [flag for flag, on in chosen.items() if on]
    script = Path(sys.executable).parent / "reverie"
    if os.access(script, os.X_OK):
        command, head = str(script), ["mcp"]
    else:
        command, head = sys.executable, ["-m", "reverie.daemon", "mcp"]
    return {
        "command": command,
        "args": [*head, *flags],
        "env": {"REVERIE_SOCKET": str(socket.absolute())},
    }


def _print_config(args: argparse.Namespace, socket: Path) -> int:
    servers = {"mcpServers": {"reverie": host_entry(args, socket)}}
    config = {"tools": servers} if args.print_config == "nanobot" else servers
    print(json.dumps(config, indent=2))
    print(f"reverie mcp: merge this into {HOSTS[args.print_config]}", file=sys.stderr)
    from ..mcp import check_daemon

    if check_daemon(socket) is not None:
        print(f"reverie mcp: note: no daemon answers at {socket} yet", file=sys.stderr)
    return 0


def run_mcp(args: argparse.Namespace) -> int:
    """Run until the host closes stdin (stdio) or the process is stopped (HTTP)."""
    socket = socket_of(args)
    if args.print_config:
        return _print_config(args, socket)
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
