"""``reverie serve``, ``reverie worker`` and ``reverie install-units``: the commands that
run the daemon's own machinery.

They are the CLI's only way into it (the app, its reload, its units, the
consolidation worker); every other command is a client over the socket.
The daemon is imported when ``serve`` or ``worker`` runs, so the client
commands start fast.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from reverie.config import Config
    from reverie.store import StoreError

__all__ = [
    "add_serve_parser",
    "add_units_parser",
    "add_worker_parser",
    "run_install_units",
    "run_serve",
    "run_worker",
]


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


def add_worker_parser(sub: Any) -> None:
    worker = sub.add_parser(
        "worker", help="run consolidation only (no socket) for a shared PostgreSQL store"
    )
    worker.add_argument("--store", metavar="URL", help="postgresql://… the daemons share")
    worker.add_argument("--config", help="TOML config file ([llm], [consolidation], [cluster])")
    worker.add_argument("--log-level", help="debug, info, warning or error (default: info)")


def add_units_parser(sub: Any) -> None:
    units = sub.add_parser("install-units", help="write systemd units for the installed reverie")
    units.add_argument(
        "--user", action="store_true", help="user units (systemctl --user) instead of system units"
    )
    units.add_argument("--dest", help="directory to write to (default: where systemd reads them)")


def run_serve(args: argparse.Namespace) -> int:
    """Run the daemon until SIGTERM/SIGINT; flags override the config file and environment."""
    from reverie.config import load_config

    from ..app import run_daemon

    overrides = _overrides(args)
    if args.data_dir:
        overrides["daemon"]["data_dir"] = args.data_dir
    if args.socket:
        overrides["daemon"]["socket"] = args.socket
    config = _configured(args, overrides)
    return _run(run_daemon, config, lambda: load_config(args.config, overrides=overrides))


def run_worker(args: argparse.Namespace) -> int:
    """Consolidate for a shared store until SIGTERM/SIGINT (``daemon/worker.py``)."""
    from ..worker import run_worker as worker

    return _run(worker, _configured(args, _overrides(args)))


def _overrides(args: argparse.Namespace) -> dict[str, dict[str, Any]]:
    overrides: dict[str, dict[str, Any]] = {"daemon": {}, "store": {}}
    if args.log_level:
        overrides["daemon"]["log_level"] = args.log_level
    if args.store:
        overrides["store"]["url"] = args.store
    return overrides


def _configured(args: argparse.Namespace, overrides: dict[str, dict[str, Any]]) -> Config:
    """The configuration, with logging to stderr set up at its level and its warnings logged."""
    from reverie.config import env_warnings, load_config, log_to_stderr

    from ..reload import parse_log_level

    config = load_config(args.config, overrides=overrides)
    log_to_stderr(parse_log_level(config.daemon.log_level))
    for warning in env_warnings():
        logging.getLogger("reverie.config").warning("%s", warning)
    return config


def _run(main: Callable[..., Awaitable[None]], *args: Any) -> int:
    import trio

    from reverie.store import StoreError

    try:
        trio.run(main, *args)
    except (StoreError, BaseExceptionGroup) as raised:
        # A store error before the actors start (the database cannot be reached, the data
        # dir prepared), bare or in the group of the nursery that started the daemon: a
        # refused start, so exit 2 as for a held lock or a bad config.
        exc = _start_error(raised)
        if exc is None:
            raise
        print(f"reverie: {exc.code}: {exc.message}", file=sys.stderr)
        return 2
    return 0


def _start_error(raised: BaseException) -> StoreError | None:
    """``raised`` itself, or the one exception of (nested) groups, if it is a StoreError."""
    from reverie.store import StoreError

    while isinstance(raised, BaseExceptionGroup) and len(raised.exceptions) == 1:
        raised = raised.exceptions[0]
    return raised if isinstance(raised, StoreError) else None


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
