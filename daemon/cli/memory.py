"""``reverie memory show|edit|forget-fact``: a scope's long-term memory from a shell.

What cannot be read exactly in the scope's Markdown (a broken source comment,
a broken history metadata line) is printed as ``reverie: warning:`` lines on
stderr; the files keep it as it is.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from ..protocol.frames import Page
from .common import BoundedInt, Common, Runner, counted

__all__ = ["MEMORY_RUNNERS", "add_memory_parser"]


def add_memory_parser(sub: Any, common: Common) -> None:
    """Register ``memory show|edit|forget-fact``; ``common`` adds --socket and --json."""
    memory = sub.add_parser("memory", help="show or edit a scope's long-term memory")
    memory_sub = memory.add_subparsers(dest="memory_command", required=True, metavar="ACTION")
    show = memory_sub.add_parser("show", help="print MEMORY.md and recent history entries")
    show.add_argument("scope", help="e.g. session/cli:alice or project/p")
    show.add_argument(
        "--limit", type=BoundedInt.of(Page), default=20, help="history entries to show"
    )
    common(show)
    edit = memory_sub.add_parser(
        "edit", help="replace MEMORY.md (from a file, '-' for stdin, or $EDITOR)"
    )
    edit.add_argument("scope")
    edit.add_argument(
        "--file", help="new MEMORY.md; '-' reads standard input (default: open $EDITOR)"
    )
    common(edit)
    forget_fact = memory_sub.add_parser(
        "forget-fact",
        help="delete one fact from MEMORY.md, the history entries' facts and the index",
    )
    forget_fact.add_argument("scope")
    forget_fact.add_argument("fact", help="the fact's text (case, spaces and punctuation ignored)")
    common(forget_fact)


def _render_memory(view: Any) -> None:
    _warn(view.problems)
    print(view.memory.rstrip("\n") or "(MEMORY.md is empty)")
    for entry in view.entries:
        kind = "raw archive" if entry.raw else "summary"
        print(
            f"\n## {entry.id} ({kind}, {counted(len(entry.message_ids), 'message')})\n{entry.summary}"
        )


def _warn(problems: list[str]) -> None:
    for problem in problems:
        print(f"reverie: warning: {problem}", file=sys.stderr)


def _edited_text(args: argparse.Namespace, current: str) -> str:
    if args.file == "-":
        return sys.stdin.read()
    if args.file:
        with open(args.file, encoding="utf-8") as handle:
            return handle.read()
    import os
    import subprocess
    import tempfile

    with tempfile.NamedTemporaryFile("w+", suffix=".md", encoding="utf-8", delete=False) as tmp:
        tmp.write(current)
    try:
        subprocess.run([os.environ.get("EDITOR", "vi"), tmp.name], check=True)
        with open(tmp.name, encoding="utf-8") as handle:
            return handle.read()
    finally:
        os.unlink(tmp.name)


def _run_memory(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    if args.memory_command == "show":
        return client.memory(args.scope, limit=args.limit), _render_memory
    if args.memory_command == "forget-fact":
        removed = client.memory_forget_fact(args.scope, args.fact)
        if not removed:
            args.exit_code = 1
        return {"scope": args.scope, "removed": removed}, lambda r: print(
            f"fact removed from {counted(r['removed'], 'place')} in {r['scope']}"
            if r["removed"]
            else f"no such fact in {r['scope']}"
        )
    text = _edited_text(args, client.memory(args.scope, limit=1).memory)
    _warn(client.memory_edit(args.scope, text))
    return {"scope": args.scope, "bytes": len(text.encode())}, lambda r: print(
        f"MEMORY.md of {r['scope']} replaced ({counted(r['bytes'], 'byte')})"
    )


MEMORY_RUNNERS: dict[str, Runner] = {"memory": _run_memory}
