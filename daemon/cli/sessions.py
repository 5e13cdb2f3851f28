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
from .common import BoundedInt, Common, Runner, counted, plain, request_timeout
from .progress import ConsolidationProgress
from .search import session_scopes

__all__ = ["SESSION_RUNNERS", "WAIT", "add_session_parsers"]

#: Seconds ``reverie consolidate`` waits for its job by default: a job with a small local
#: model takes 24-52 s on two cores, a tail over ``llm.max_job_tokens`` several of them.
WAIT = 600.0


def _seconds(text: str) -> float:
    """An argparse ``type``: a number of seconds above 0."""
    try:
        seconds = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return seconds


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
    consolidate.add_argument(
        "--wait",
        type=_seconds,
        default=WAIT,
        metavar="SECONDS",
        help=f"wait at most this long for the job (default {WAIT:g}); it goes on after",
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
    """Consolidate now and wait for the job (at most ``--wait`` seconds), with progress on stderr.

    The wait has its own bound, not the per-request timeout: a job with a
    local model takes tens of seconds. Exits 1 when the LLM failed (the
    job's error: the turns stay in the tail; or an ``extractive`` outcome,
    archived raw past ``hard_tokens``), when the wait ran out (the job goes
    on in the daemon) and, as ``context`` does, when no session has the name.
    """
    if not _known(client, args.session):
        return None, _no_session(args, ": nothing to consolidate")
    if args.no_wait:
        return client.consolidate(args.session, wait=False), lambda _: print("queued")
    from reverie.config.errors import ConnectionLost

    from ..client import Client

    try:
        with (
            ConsolidationProgress(
                lambda: Client(args.socket, timeout=request_timeout()), args.session
            ),
            Client(args.socket, timeout=args.wait) as waiting,
        ):
            outcome = waiting.consolidate(args.session, wait=True)
    except ConnectionLost as exc:
        if not isinstance(exc.__cause__, TimeoutError):
            raise
        return _still_running(args)
    if outcome is None:
        return None, lambda _: print("nothing to consolidate")
    if outcome.state != "done":
        args.exit_code = 1
    return outcome, lambda o: print(
        f"{o.state}: {counted(o.messages, 'message')} into history entry {o.entry}"
    )


def _still_running(args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    """The wait ran out: exit 1 saying so; the job goes on in the daemon."""
    args.exit_code = 1
    state = {"session": args.session, "state": "running", "waited": args.wait}
    return state, lambda _: print(
        f"reverie: the job of {args.session!r} is still running after {args.wait:g} s "
        "(it goes on in the daemon); `reverie status` shows it, "
        "`reverie memory show` its result once it is done",
        file=sys.stderr,
    )


SESSION_RUNNERS: dict[str, Runner] = {
    "append": _append,
    "history": _history,
    "context": _context,
    "sessions": _sessions,
    "forget": _forget,
    "consolidate": _consolidate,
}
