"""``reverie append|history|context|sessions|forget|consolidate``: sessions from a shell.

Each command is a runner (see ``common``). ``history --json`` prints the
lines ``reverie import`` reads back: each message with its session and
scope, its time as ISO-8601 UTC.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from ..protocol.frames import Count, Page
from ..protocol.sessions import Seq
from .common import BoundedInt, Common, Runner, counted, plain
from .progress import ConsolidationProgress
from .search import session_scopes

__all__ = ["SESSION_RUNNERS", "add_session_parsers"]


def add_session_parsers(sub: Any, common: Common) -> None:
    """Register the session commands; ``common`` adds --socket and --json to each."""
    append = sub.add_parser("append", help="append one message to a session")
    append.add_argument("session")
    append.add_argument("role", choices=["system", "user", "assistant", "tool"])
    append.add_argument("content", help="message text; '-' reads standard input")
    append.add_argument("--id", help="message id (makes a retry idempotent)")
    append.add_argument("--name")
    append.add_argument("--scope", help="the session's scope, on its first append")
    common(append)

    history = sub.add_parser("history", help="print a session's messages")
    history.add_argument("session")
    history.add_argument("--after-seq", type=BoundedInt.of(Seq), default=0)
    history.add_argument("--limit", type=BoundedInt.of(Page), default=100)
    common(history)

    context = sub.add_parser("context", help="print what a host puts in its prompt")
    context.add_argument("session")
    context.add_argument(
        "--max-tokens",
        type=BoundedInt.of(Count),
        help="memory and tail together, the tail cut at whole turns "
        "(default: the daemon's sessions.context_max_tokens; 0: the whole tail)",
    )
    common(context)

    sessions = sub.add_parser("sessions", help="list sessions")
    sessions.add_argument("--after", default="", help="the page after this name")
    sessions.add_argument("--limit", type=BoundedInt.of(Page), default=100)
    sessions.add_argument("--prefix", default="", help="only sessions named PREFIX…")
    common(sessions)

    forget = sub.add_parser("forget", help="delete a session and everything derived from it")
    forget.add_argument("session")
    common(forget)

    consolidate = sub.add_parser("consolidate", help="consolidate a session's tail into memory now")
    consolidate.add_argument("session")
    consolidate.add_argument(
        "--no-wait", action="store_true", help="queue the job and return at once"
    )
    common(consolidate)


def _print_messages(messages: Sequence[Any]) -> None:
    for m in messages:
        print(f"{m.seq:>6}  {m.role:<9} {m.content}")


def _append(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    content = sys.stdin.read() if args.content == "-" else args.content
    ack = client.append(
        args.session, args.role, content, id=args.id, name=args.name, scope=args.scope
    )
    return ack, lambda a: print(f"appended seq {a.seq} id {a.id}")


def _known(client: Any, session: str) -> bool:
    """Whether the daemon has a session of that name (the first name it starts, if any)."""
    return any(s.name == session for s in client.sessions(prefix=session, limit=1))


def _no_session(args: argparse.Namespace, consequence: str) -> Callable[[Any], None]:
    """Exit 1 and say, on stderr, that no session has the name given (most likely a typo)."""
    args.exit_code = 1
    return lambda _: print(
        f"reverie: no session named {args.session!r}{consequence} "
        "(`reverie sessions --prefix ...` lists the names)",
        file=sys.stderr,
    )


def _history(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """A session's messages; an unknown session (not an empty page) exits 1 saying so."""
    messages = client.history(args.session, after_seq=args.after_seq, limit=args.limit)
    if not messages and not _known(client, args.session):
        return messages, _no_session(args, "")
    if not args.json:
        return messages, _print_messages
    # Lines `reverie import` reads back: session and scope on each, ISO-8601 UTC times.
    scope = session_scopes(client, {args.session}).get(args.session)
    rows = [
        {"session": args.session, "scope": scope, **plain(m)}
        | {"ts": datetime.fromtimestamp(m.ts, UTC).isoformat()}
        for m in messages
    ]
    return rows, _print_messages


def _render_context(ctx: Any) -> None:
    if ctx.memory:
        print(ctx.memory.rstrip("\n"))
        print("---")
    _print_messages(ctx.messages)
    left_out = f"; {ctx.omitted} older messages left out to fit" if ctx.omitted else ""
    print(
        f"({counted(ctx.memory_tokens, 'token')} of memory, {counted(len(ctx.messages), 'message')} and "
        f"{counted(ctx.tokens, 'token')} of tail{left_out})"
    )


def _context(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """What a host would put in its prompt; an unknown session with nothing to show exits 1
    saying so."""
    ctx = client.context(args.session, max_tokens=args.max_tokens)
    if not (ctx.messages or ctx.memory or _known(client, args.session)):
        return ctx, _no_session(args, "")
    return ctx, _render_context


def _render_sessions(sessions: Sequence[Any]) -> None:
    for s in sessions:
        print(
            f"{s.name}  scope={s.scope}  messages={s.messages}  tail={s.tail_messages} ({counted(s.tail_tokens, 'token')})"
        )


def _sessions(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    sessions = client.sessions(after=args.after, limit=args.limit, prefix=args.prefix)
    return sessions, _render_sessions


def _forget(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """Forget a session; exit 1 when no session had that name (most likely a typo)."""
    deleted = client.forget(args.session)
    if deleted:
        return deleted, lambda n: print(f"forgot {args.session}: {counted(n, 'message')} deleted")
    return deleted, _no_session(args, ": nothing was forgotten")


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
            print(f"{o.state}: {counted(o.messages, 'message')} into history entry {o.entry}")

    return outcome, render


SESSION_RUNNERS: dict[str, Runner] = {
    "append": _append,
    "history": _history,
    "context": _context,
    "sessions": _sessions,
    "forget": _forget,
    "consolidate": _consolidate,
}
