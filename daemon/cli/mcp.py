"""``reverie mcp`` on the command line: parse its flags, check the daemon, run the MCP server.

The MCP SDK is imported only when the command runs, so every other
``reverie`` command starts as fast as before.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import sys
from pathlib import Path
from typing import Any

from reverie.config import ConfigError

__all__ = ["add_mcp_parser", "run_mcp"]


def add_mcp_parser(sub: Any) -> None:
    mcp = sub.add_parser(
        "mcp",
        help="serve reverie's memory to MCP hosts (nanobot, Claude, Cursor) over stdio or HTTP",
    )
    mcp.add_argument("--session", help="the session this agent appends to and reads")
    mcp.add_argument(
        "--scope", help="the memory scope this agent works in (default: the session's own)"
    )
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
        "--allow-remote",
        action="store_true",
        help="allow --host to be a non-loopback address (the server has no authentication)",
    )


def _socket(args: argparse.Namespace) -> Path:
    if args.socket:
        return Path(args.socket)
    if args.config:
        from reverie.config import load_config

        return load_config(args.config).socket_path
    from ..client import default_socket

    return default_socket()


def _check_host(args: argparse.Namespace) -> None:
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback and not args.allow_remote:
        raise ConfigError(
            f"--host {args.host} is not a loopback address and the MCP server has no "
            "authentication; pass --allow-remote to serve it anyway"
        )


def run_mcp(args: argparse.Namespace) -> int:
    """Run until the host closes stdin (stdio) or the process is stopped (HTTP)."""
    socket = _socket(args)
    if args.transport == "http":
        _check_host(args)
    from ..mcp import Binding, build_server, check_daemon

    problem = check_daemon(socket)
    if problem is not None:
        print(f"reverie mcp: {problem}", file=sys.stderr)
        return 1
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    binding = Binding(session=args.session or None, scope=args.scope or None)
    server = build_server(socket, binding, host=args.host, port=args.port)
    server.run("streamable-http" if args.transport == "http" else "stdio")
    return 0
