"""``reverie serve`` and ``reverie install-units``: the commands that run the daemon itself.

They are the CLI's only way into the daemon's machinery (the app, its
reload, its units); every other command is a client over the socket. The
daemon is imported when ``serve`` runs, so the client commands start fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
from typing import Any

__all__ = ["add_serve_parser", "add_units_parser", "run_install_units", "run_serve"]


def add_serve_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="run the daemon in the foreground")
    serve.add_argument("--data-dir", help="data directory (default: $XDG_DATA_HOME/reverie)")
    serve.add_argument(
        "--socket",
        help="socket path (default: $XDG_RUNTIME_DIR/reverie.sock or <data-dir>/reverie.sock)",
    )
    serve.add_argument(
        "--config", help="TOML config file (default: <data-dir>/reverie.toml if present)"
    )
    serve.add_argument("--log-level", help="debug, info, warning or error (default: info)")
    serve.add_argument(
        "--store",
        metavar="URL",
        help="postgresql://… to keep every durable state in PostgreSQL with pgvector "
        "(default: SQLite, Markdown and LanceDB in the data dir)",
    )


def add_units_parser(sub: Any) -> None:
    units = sub.add_parser("install-units", help="write systemd units for the installed reverie")
    units.add_argument(
        "--user", action="store_true", help="user units (systemctl --user) instead of system units"
    )
    units.add_argument("--dest", help="directory to write to (default: where systemd reads them)")


def run_serve(args: argparse.Namespace) -> int:
    """Run the daemon until SIGTERM/SIGINT; flags override the config file and environment."""
    import trio

    from reverie.config import env_warnings, load_config, log_to_stderr
    from reverie.store import StoreError

    from ..app import run_daemon
    from ..reload import parse_log_level

    overrides: dict[str, dict[str, Any]] = {"daemon": {}, "store": {}}
    if args.data_dir:
        overrides["daemon"]["data_dir"] = args.data_dir
    if args.socket:
        overrides["daemon"]["socket"] = args.socket
    if args.log_level:
        overrides["daemon"]["log_level"] = args.log_level
    if args.store:
        overrides["store"]["url"] = args.store
    config = load_config(args.config, overrides=overrides)
    level = parse_log_level(config.daemon.log_level)
    log_to_stderr(level)
    for warning in env_warnings():
        logging.getLogger("reverie.config").warning("%s", warning)
    try:
        trio.run(run_daemon, config, lambda: load_config(args.config, overrides=overrides))
    except StoreError as exc:
        # Raised bare only before the actors start: the database cannot be reached or the
        # data dir prepared. A refused start, so exit 2 as for a held lock or a bad config.
        print(f"reverie: {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    return 0


def run_install_units(args: argparse.Namespace) -> int:
    """Write the units and print their paths, then the systemctl line that enables them."""
    from pathlib import Path

    from ..service.units import install_units

    for path in install_units(user=args.user, dest=Path(args.dest) if args.dest else None):
        print(path)
    if args.dest:  # not where systemd reads units: no systemctl hint that would not work
        return 0
    flag = " --user" if args.user else ""
    if not args.user:
        print(
            "needs a `reverie` system user and group (see docs/operations.md, Running as a service)"
        )
    print(f"next: systemctl{flag} daemon-reload && systemctl{flag} enable --now reverie.socket")
    return 0
