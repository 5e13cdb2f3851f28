"""The ``reverie`` command: run the daemon, and talk to it from a shell.

Every reading command takes ``--json``. Errors print one line that says what
to do and exit non-zero (2 for usage and configuration, 1 for the rest).
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from reverie.config import ConfigError, ReverieError

from .memory_cli import run_memory
from .progress import ConsolidationProgress
from .search_cli import SEARCH_RUNNERS, add_search_parser
from .wm_cli import add_wm_parser, run_wm

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
    return parser


def _serve(args: argparse.Namespace) -> int:
    import trio

    from reverie.config import load_config

    from .app import run_daemon
    from .reload import parse_log_level

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

    from .units import install_units

    for path in install_units(user=args.user, dest=Path(args.dest) if args.dest else None):
        print(path)
    flag = " --user" if args.user else ""
    print(f"next: systemctl{flag} daemon-reload && systemctl{flag} enable --now reverie.socket")
    return 0


def _plain(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _print_messages(messages: Sequence[Any]) -> None:
    for m in messages:
        print(f"{m.seq:>6}  {m.role:<9} {m.content}")


def _client_command(args: argparse.Namespace) -> int:
    from .client import Client

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
    return client.history(args.session, after_seq=args.after_seq, limit=args.limit), _print_messages


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


def _render_status(status: dict[str, Any]) -> None:
    sessions = status["sessions"]
    store = status["store"]
    print(f"reverie {status['version']}  pid {status['pid']}  up {status['uptime_seconds']:.0f}s")
    print(f"socket    {status['socket']}")
    print(
        f"data      {status['data_dir']}  ({store['bytes']} bytes, durability {store['durability']})"
    )
    print(f"store     {store['writes']} writes in {store['batches']} batches")
    print(
        f"sessions  {sessions['live']} live, {sessions['passivated']} passivated, {sessions['known']} known"
    )
    depths = status.get("mailbox_depths", {})
    print(f"mailboxes {sum(depths.values())} queued in {len(depths)} sessions")
    for name, depth in sorted(depths.items()):
        print(f"mailbox   {name}: {depth} queued")
    index = status.get("index", {})
    if index.get("enabled"):
        print(
            f"index     {index['messages_behind']} messages behind ({index['seconds_behind']:.1f}s),"
            f" {index['indexed']} indexed"
        )
    for backend, b in sorted(status.get("consolidation", {}).items()):
        jobs = ", ".join(f"{n} {state}" for state, n in sorted(b.get("jobs", {}).items()))
        print(
            f"consolidation {backend} ({b.get('kind', '?')}): {b.get('queued', 0)} queued, "
            f"{b.get('running', 0)} running, jobs [{jobs or 'none'}], breaker {b.get('breaker', '?')}, "
            f"{b.get('streams', 0)} streams, {b.get('failed_calls', 0)} failed calls"
        )
        outcomes = ", ".join(f"{n} {k}" for k, n in sorted(b.get("outcomes", {}).items()))
        print(f"consolidation {backend}: probe {b.get('probe', '?')}, outcomes [{outcomes}]")
    for scope, problems in sorted(status.get("memory", {}).get("problems", {}).items()):
        print(f"memory    {scope}: {len(problems)} problems (see: reverie memory show {scope})")
    if "scopes" in status:
        print(f"scopes    {status['scopes'].get('live', 0)} live")
    if "log_level" in status:
        print(
            f"config    log level {status['log_level']}, {status.get('config_reloads', 0)} reloads"
        )
    errors = status.get("errors", {})
    if not errors:
        print("errors    none")
    for code, count in sorted(errors.items()):
        print(f"errors    {code}: {count}")


def _status(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    return client.status(), _render_status


def _consolidate(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """Consolidate now, reporting the LLM's failures on stderr while it waits.

    Exits 1 when the LLM failed: the job's error (the turns stay in the tail)
    or an ``extractive`` outcome (archived raw past ``hard_tokens``).
    """
    if args.no_wait:
        outcome = client.consolidate(args.session, wait=False)
    else:
        from .client import Client

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
    args = _parser().parse_args(argv)
    try:
        if args.command == "serve":
            return _serve(args)
        if args.command == "install-units":
            return _install_units(args)
        return _client_command(args)
    except ConfigError as exc:
        print(f"reverie: {exc.message}", file=sys.stderr)
        return 2
    except ReverieError as exc:
        print(f"reverie: {exc.code}: {exc.message}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
