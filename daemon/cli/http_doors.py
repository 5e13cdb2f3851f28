"""What the two HTTP doors of the CLI share (``reverie mcp --transport http``, ``reverie ui``).

Both are clients of the daemon's socket that listen on a TCP port, and a
port on loopback lets in every local user: each asks for its own token (a
0600 file in the data dir or an environment variable) and refuses a
non-loopback address unless told otherwise, because it speaks plain HTTP.
The data dir is the daemon's own, asked through its socket: a daemon
started with ``--data-dir`` keeps the tokens beside its data, wherever that is.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
from pathlib import Path

from reverie.config import ConfigError

from ..door_token import read_token
from .common import BoundedInt

__all__ = ["add_http_options", "door_token", "refuse_remote", "socket_of"]


def add_http_options(parser: argparse.ArgumentParser, *, port: int, token_file: str) -> None:
    """``--socket``, ``--config``, ``--host``, ``--port``, ``--token-file``, ``--allow-remote``."""
    parser.add_argument(
        "--socket", help="daemon socket (default: --config's, $REVERIE_SOCKET, the default)"
    )
    parser.add_argument("--config", help="TOML config file to take the daemon's socket from")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP address (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=BoundedInt(1, 65535), default=port, help=f"HTTP port (default {port})"
    )
    parser.add_argument(
        "--token-file",
        help=f"the bearer token's file (default: {token_file} in the daemon's data dir, "
        "made 0600 if absent)",
    )
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow --host to be a non-loopback address (plain HTTP: the token crosses the network)",
    )


def socket_of(args: argparse.Namespace) -> Path:
    """The daemon's socket: ``--socket``, else ``--config``'s, else the client's default."""
    if args.socket:
        return Path(args.socket)
    if args.config:
        from reverie.config import load_config

        return load_config(args.config).socket_path
    from ..client import default_socket

    return default_socket()


def door_token(
    args: argparse.Namespace, socket: Path, file: str, variable: str, command: str
) -> tuple[str, str]:
    """The door's token and where it is: ``$variable``, else ``--token-file``, else ``file``
    in the data dir of the daemon on ``socket`` (which it says in its ``status``)."""
    env = dict(os.environ)
    if env.get(variable):
        return read_token(Path(file), env, variable, command), f"${variable}"
    if args.token_file:
        path = Path(args.token_file)
    else:
        from ..client import Client

        with Client(socket) as client:  # unreachable: a typed error, printed as one line
            path = Path(client.status().data_dir) / file
    return read_token(path, env, variable, command), str(path)


def refuse_remote(args: argparse.Namespace, server: str) -> None:
    """A ``--host`` off loopback is a ``ConfigError`` unless ``--allow-remote`` was given."""
    try:
        loopback = ipaddress.ip_address(args.host).is_loopback
    except ValueError:
        loopback = args.host == "localhost"
    if not loopback and not args.allow_remote:
        raise ConfigError(
            f"--host {args.host} is not a loopback address and {server} speaks plain "
            "HTTP (its token would cross the network in clear); pass --allow-remote to serve "
            "it anyway, behind a TLS proxy"
        )
