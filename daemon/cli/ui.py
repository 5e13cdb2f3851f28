"""``reverie ui`` on the command line: check the daemon, read the token, serve the inspector.

The web stack (Starlette, uvicorn, Jinja) is imported only when the command
runs, so every other ``reverie`` command starts as fast as before.
"""

from __future__ import annotations

import argparse
import logging
import secrets
import sys
from typing import Any

from reverie.config import log_to_stderr

from ..door_token import UI_TOKEN_ENV, UI_TOKEN_FILE
from .http_doors import add_http_options, door_token, refuse_remote, socket_of

__all__ = ["add_ui_parser", "run_ui"]


def add_ui_parser(sub: Any) -> None:
    ui = sub.add_parser(
        "ui",
        help="a local web inspector: sessions, memory with sources, search signals, health",
    )
    add_http_options(ui, port=8766, token_file=UI_TOKEN_FILE)
    ui.add_argument(
        "--sample-seconds",
        type=float,
        default=5.0,
        help="how often the health charts sample the daemon's status (default 5)",
    )
    ui.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="one more Host header to answer to, e.g. a TLS proxy's name (repeatable; "
        "loopback's names and --host are always answered)",
    )


def run_ui(args: argparse.Namespace) -> int:
    """Serve until the process is stopped; a daemon that is not there is one line, exit 1."""
    refuse_remote(args, "the inspector")
    if not args.sample_seconds > 0:
        print("reverie ui: --sample-seconds must be above 0", file=sys.stderr)
        return 2
    socket = socket_of(args)
    from ..client import Client

    with Client(socket) as client:  # unreachable: a typed error, printed as one line
        client.hello()
    token, where = door_token(args, socket, UI_TOKEN_FILE, UI_TOKEN_ENV, "reverie ui")
    from ..ui import allowed_hosts, build_app, serve_ui

    log_to_stderr(logging.WARNING)
    once = secrets.token_urlsafe(32)
    address = f"http://{args.host}:{args.port}/"
    print(
        f"reverie ui: open {address}?once={once} (signs in one browser, once; "
        f"after that, sign in at {address} with the token in {where})",
        file=sys.stderr,
        flush=True,
    )
    hosts = allowed_hosts(args.host, args.port, args.allow_host)
    app = build_app(socket, token, hosts=hosts, interval=args.sample_seconds, once=once)
    serve_ui(app, args.host, args.port)
    return 0
