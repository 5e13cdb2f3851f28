"""``reverie export`` and ``reverie backup`` from a shell.

``export`` writes JSONL that ``reverie import`` reads back (see
``export.py``); ``backup`` asks the daemon for a consistent copy of its
data dir (see ``reverie.store.files.backup``). Both run while the daemon serves.
Progress and summaries go to standard error, so exported JSONL on standard
output stays clean.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

import msgspec

from .common import counted
from .export import export_lines

__all__ = ["DATA_COMMANDS", "add_data_parsers", "run_data_command"]

DATA_COMMANDS = frozenset({"export", "backup"})


def add_data_parsers(sub: Any) -> None:
    export = sub.add_parser(
        "export", help="write sessions' messages as JSONL that `reverie import` reads back"
    )
    which = export.add_mutually_exclusive_group()
    which.add_argument("--scope", help="only the sessions of this scope")
    which.add_argument("--session", help="only this session")
    export.add_argument("-o", "--output", help="write to this file (default: standard output)")
    export.add_argument("--socket", help="daemon socket (default: $REVERIE_SOCKET)")

    backup = sub.add_parser(
        "backup", help="copy the daemon's data (SQLite and Markdown memory) while it serves"
    )
    backup.add_argument("dir", help="a new (or empty) directory; it becomes a data dir")
    backup.add_argument("--socket", help="daemon socket (default: $REVERIE_SOCKET)")
    backup.add_argument("--json", action="store_true", help="print the result as JSON")


def _export(client: Any, args: argparse.Namespace) -> int:
    lines = export_lines(client, scope=args.scope, session=args.session)
    if not args.output:
        count = 0
        for line in lines:
            sys.stdout.write(line)
            count += 1
        sys.stdout.flush()
        print(f"exported {counted(count, 'message')}", file=sys.stderr)
        return 0
    target = Path(args.output)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
    try:
        count = 0
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            for line in lines:
                handle.write(line)
                count += 1
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)  # the file appears only whole
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    print(f"exported {counted(count, 'message')} to {target}", file=sys.stderr)
    return 0


def _backup(client: Any, args: argparse.Namespace) -> int:
    view = client.backup(Path(args.dir).absolute())
    if args.json:
        print(json.dumps(msgspec.to_builtins(view), indent=2))
        return 0
    print(
        f"backed up {counted(view.messages, 'message')} ({counted(view.bytes, 'byte')}) to {view.path} "
        f"in {view.seconds:.1f}s"
    )
    print(f"restore: stop the daemon, then `reverie serve --data-dir {view.path}`")
    return 0


def run_data_command(args: argparse.Namespace) -> int:
    """Run ``export`` or ``backup``; a backup may take long, so no client timeout."""
    from ..client import Client

    with Client(args.socket, timeout=None) as client:
        return _export(client, args) if args.command == "export" else _backup(client, args)
