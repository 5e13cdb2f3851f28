"""The ``reverie`` command: run the daemon, and talk to it from a shell.

Every reading command takes ``--json``. Errors print one line that says what
to do and exit non-zero (2 for usage and configuration, 1 for the rest).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec

from reverie.config import ConfigError, ReverieError

from ..version import package_version
from .data import DATA_COMMANDS, add_data_parsers, run_data_command
from .mcp import add_mcp_parser, run_mcp
from .memory import run_memory
from .progress import ConsolidationProgress
from .search import SEARCH_RUNNERS, add_search_parser, session_scopes
from .status import render_status
from .working_memory import add_wm_parser, run_wm

__all__ = ["main"]


def _add_socket(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--socket", help="daemon socket (default: $REVERIE_SOCKET, then the daemon's default)"
    )


def _add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def _add_client_options(parser: argparse.ArgumentParser) -> None:
    _add_socket(parser)
    _add_json(parser)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="reverie", description="Memory daemon for AI-agent sessions."
    )
    parser.add_argument("--version", action="version", version=f"reverie {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

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

    append = sub.add_parser("append", help="append one message to a session")
    append.add_argument("session")
    append.add_argument("role", choices=["system", "user", "assistant", "tool"])
    append.add_argument("content", help="message text; '-' reads standard input")
    append.add_argument("--id", help="message id (makes a retry idempotent)")
    append.add_argument("--name")
    append.add_argument("--scope", help="the session's scope, on its first append")
    _add_socket(append)
    _add_json(append)

    history = sub.add_parser("history", help="print a session's messages")
    history.add_argument("session")
    history.add_argument("--after-seq", type=int, default=0)
    history.add_argument("--limit", type=int, default=100)
    _add_socket(history)
    _add_json(history)

    context = sub.add_parser("context", help="print what a host puts in its prompt")
    context.add_argument("session")
    _add_socket(context)
    _add_json(context)

    sessions = sub.add_parser("sessions", help="list sessions")
    sessions.add_argument("--after", default="")
    sessions.add_argument("--limit", type=int, default=100)
    _add_socket(sessions)
    _add_json(sessions)

    forget = sub.add_parser("forget", help="delete a session and everything derived from it")
    forget.add_argument("session")
    _add_socket(forget)
    _add_json(forget)

    consolidate = sub.add_parser("consolidate", help="consolidate a session's tail into memory now")
    consolidate.add_argument("session")
    consolidate.add_argument(
        "--no-wait", action="store_true", help="queue the job and return at once"
    )
    _add_socket(consolidate)
    _add_json(consolidate)

    memory = sub.add_parser("memory", help="show or edit a scope's long-term memory")
    memory_sub = memory.add_subparsers(dest="memory_command", required=True, metavar="ACTION")
    show = memory_sub.add_parser("show", help="print MEMORY.md and recent history entries")
    show.add_argument("scope", help="e.g. session/cli:alice or project/p")
    show.add_argument("--limit", type=int, default=20, help="history entries to show")
    _add_socket(show)
    _add_json(show)
    edit = memory_sub.add_parser(
        "edit", help="replace MEMORY.md (from a file, '-' for stdin, or $EDITOR)"
    )
    edit.add_argument("scope")
    edit.add_argument(
        "--file", help="new MEMORY.md; '-' reads standard input (default: open $EDITOR)"
    )
    _add_socket(edit)
    _add_json(edit)
    forget_fact = memory_sub.add_parser(
        "forget-fact",
        help="delete one fact from MEMORY.md, the history entries' facts and the index",
    )
    forget_fact.add_argument("scope")
    forget_fact.add_argument("fact", help="the fact's text (case, spaces and punctuation ignored)")
    _add_socket(forget_fact)
    _add_json(forget_fact)

    units = sub.add_parser("install-units", help="write systemd units for the installed reverie")
    units.add_argument(
        "--user", action="store_true", help="user units (systemctl --user) instead of system units"
    )
    units.add_argument("--dest", help="directory to write to (default: where systemd reads them)")

    status = sub.add_parser("status", help="show the daemon's status")
    _add_socket(status)
    _add_json(status)

    metrics = sub.add_parser("metrics", help="print the status in Prometheus text format")
    _add_socket(metrics)
    _add_json(metrics)

    add_wm_parser(sub, _add_client_options)
    add_search_parser(sub, _add_client_options)
    add_mcp_parser(sub)
    add_data_parsers(sub)
    return parser


def _serve(args: argparse.Namespace) -> int:
    import trio

    from reverie.config import load_config

    from ..app import run_daemon
    from ..reload import parse_log_level

    overrides: dict[str, dict[str, Any]] = {"daemon": {}}
    if args.data_dir:
        overrides["daemon"]["data_dir"] = args.data_dir
    if args.socket:
        overrides["daemon"]["socket"] = args.socket
    if args.log_level:
        overrides["daemon"]["log_level"] = args.log_level
    config = load_config(args.config, overrides=overrides)
    level = parse_log_level(config.daemon.log_level)
    logging.basicConfig(
        level=level, stream=sys.stderr, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    trio.run(run_daemon, config, lambda: load_config(args.config, overrides=overrides))
    return 0


def _install_units(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..units import install_units

    for path in install_units(user=args.user, dest=Path(args.dest) if args.dest else None):
        print(path)
    if args.dest:  # not where systemd reads units: no systemctl hint that would not work
        return 0
    flag = " --user" if args.user else ""
    if not args.user:
        print("needs a `reverie` system user and group (see the README, Running as a service)")
    print(f"next: systemctl{flag} daemon-reload && systemctl{flag} enable --now reverie.socket")
    return 0


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _print_messages(messages: Sequence[Any]) -> None:
    for m in messages:
        print(f"{m.seq:>6}  {m.role:<9} {m.content}")


def _client_command(args: argparse.Namespace) -> int:
    from ..client import Client

    with Client(args.socket) as client:
        result, render = _RUNNERS[args.command](client, args)
    if args.json:
        print(json.dumps(_plain(result), ensure_ascii=False, indent=2))
    else:
        render(result)
    return int(getattr(args, "exit_code", 0))


def _append(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    content = sys.stdin.read() if args.content == "-" else args.content
    ack = client.append(
        args.session, args.role, content, id=args.id, name=args.name, scope=args.scope
    )
    return ack, lambda a: print(f"appended seq {a.seq} id {a.id}")


def _history(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    messages = client.history(args.session, after_seq=args.after_seq, limit=args.limit)
    if not args.json:
        return messages, _print_messages
    # Lines `reverie import` reads back: session and scope on each, ISO-8601 UTC times.
    scope = session_scopes(client, {args.session}).get(args.session)
    rows = [
        {"session": args.session, "scope": scope, **_plain(m)}
        | {"ts": datetime.fromtimestamp(m.ts, UTC).isoformat()}
        for m in messages
    ]
    return rows, _print_messages


def _render_context(ctx: Any) -> None:
    if ctx.memory:
        print(ctx.memory.rstrip("\n"))
        print("---")
    _print_messages(ctx.messages)
    print(f"({len(ctx.messages)} messages, {ctx.tokens} tokens in the tail)")


def _context(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.context(args.session), _render_context


def _render_sessions(sessions: Sequence[Any]) -> None:
    for s in sessions:
        print(
            f"{s.name}  scope={s.scope}  messages={s.messages}  tail={s.tail_messages} ({s.tail_tokens} tokens)"
        )


def _sessions(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.sessions(after=args.after, limit=args.limit), _render_sessions


def _forget(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.forget(args.session), lambda n: print(
        f"forgot {args.session}: {n} messages deleted"
    )


def _status(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.status(), render_status


def _consolidate(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """Consolidate now, reporting the LLM's failures on stderr while it waits.

    Exits 1 when the LLM failed: the job's error (the turns stay in the tail)
    or an ``extractive`` outcome (archived raw past ``hard_tokens``).
    """
    if args.no_wait:
        outcome = client.consolidate(args.session, wait=False)
    else:
        from ..client import Client

        with ConsolidationProgress(lambda: Client(args.socket), args.session):
            outcome = client.consolidate(args.session, wait=True)
    if outcome is not None and outcome.state != "done":
        args.exit_code = 1

    def render(o: Any) -> None:
        if o is None:
            print("queued" if args.no_wait else "nothing to consolidate")
        else:
            print(f"{o.state}: {o.messages} messages into history entry {o.entry}")

    return outcome, render


def _metrics(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.metrics(), lambda text: print(text, end="")


_RUNNERS: dict[str, Callable[[Any, argparse.Namespace], tuple[Any, Callable[[Any], None]]]] = {
    "append": _append,
    "history": _history,
    "context": _context,
    "sessions": _sessions,
    "forget": _forget,
    "status": _status,
    "metrics": _metrics,
    "wm": run_wm,
    "consolidate": _consolidate,
    "memory": run_memory,
    **SEARCH_RUNNERS,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; a user error prints one line (never a traceback) and exits non-zero."""
    args = _parser().parse_args(argv)
    try:
        code = _dispatch(args)
        sys.stdout.flush()  # a closed pipe surfaces here, not at interpreter exit
        return code
    except BrokenPipeError:  # `reverie ... | head`: the reader has all it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # as a command killed by SIGPIPE
    except KeyboardInterrupt:
        return 130
    except BaseException as exc:
        error = _user_error(exc)
        if error is None:
            raise
        print(f"reverie: {error[0]}", file=sys.stderr)
        return error[1]


def _dispatch(args: argparse.Namespace) -> int:
    if args.command == "serve":
        return _serve(args)
    if args.command == "install-units":
        return _install_units(args)
    if args.command == "mcp":
        return run_mcp(args)
    if args.command in DATA_COMMANDS:
        return run_data_command(args)
    return _client_command(args)


def _user_error(exc: BaseException) -> tuple[str, int] | None:
    """The one line and exit code for an error the user can fix; None for a bug.

    The daemon runs under trio, which wraps errors in exception groups: a
    group whose leaves are all user errors is reported by its first leaf.
    """
    if isinstance(exc, BaseExceptionGroup):
        leaves = [_user_error(e) for e in exc.exceptions]
        return leaves[0] if leaves and all(leaves) else None
    if isinstance(exc, ConfigError):
        return exc.message, 2
    if isinstance(exc, ReverieError):
        return f"{exc.code}: {exc.message}", 1
    if isinstance(exc, OSError) and exc.strerror:  # a file named on the command line
        where = f"{exc.filename}: " if exc.filename else ""
        return f"{where}{exc.strerror}", 1
    return None
