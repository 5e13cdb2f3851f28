"""``reverie search``, ``reverie reindex`` and ``reverie import`` from a shell.

Progress lines (reindex, import) go to standard error, results to standard
output, so ``--json`` output stays parseable.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from reverie.config import InvalidArgument, ReverieError

from ..protocol import MessageIn
from ..protocol.search import MAX_K
from .common import BoundedInt, Common, Runner, counted, every_session
from .import_batches import append_rows

__all__ = ["SEARCH_RUNNERS", "add_search_parser", "read_jsonl", "session_scopes"]

_POLL = 0.2
#: Skipped messages an import names in text (``--json`` has them all).
_LISTED = 20


def add_search_parser(sub: Any, common: Common) -> None:
    """Register ``search``, ``reindex`` and ``import``; ``common`` adds --socket and --json."""
    search = sub.add_parser("search", help="search messages, history episodes and memory facts")
    search.add_argument("query")
    search.add_argument("--scope")
    search.add_argument("--session")
    search.add_argument(
        "--kinds",
        "--kind",  # the name before MCP's `kinds` was matched
        action="extend",
        nargs="+",
        choices=["message", "episode", "fact"],
        dest="kinds",
        help="one or more kinds (default: all), as MCP's `kinds`",
    )
    for bound in ("since", "until"):
        search.add_argument(
            f"--{bound}", type=_when, help="ISO date or time (UTC unless it says) or epoch seconds"
        )
    search.add_argument(
        "-k",
        "--limit",
        dest="k",
        type=BoundedInt(1, MAX_K),
        default=10,
        help=f"how many hits (default 10, at most {MAX_K})",
    )
    search.add_argument("--mode", choices=["hybrid", "vector", "text"], default="hybrid")
    search.add_argument(
        "--min-score",
        type=float,
        help="leave out hits scoring below this, 0-1 (default: the daemon's index.min_score)",
    )
    search.add_argument(
        "--everywhere",
        action="store_true",
        help="search every scope (every user's memory) when neither --scope nor --session is given",
    )
    common(search)

    reindex = sub.add_parser("reindex", help="rebuild the search index while the daemon serves")
    common(reindex)

    imp = sub.add_parser("import", help="append messages from a JSONL file (one message a line)")
    imp.add_argument(
        "file",
        help="JSONL (or a JSON array, as `history --json` prints): session, role, content, id, "
        "optional ts (epoch or ISO-8601), name, scope",
    )
    common(imp)


def _when(text: str) -> float:
    """Epoch seconds, or an ISO-8601 date or time (naive is UTC): ``--since``, ``ts``."""
    try:
        return float(text)
    except ValueError:
        pass
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is neither an ISO-8601 date/time nor epoch seconds"
        ) from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _render_hits(found: dict[str, Any]) -> None:
    hits = found["hits"]
    if found["unembedded"]:  # on stderr: stdout stays the hits alone
        print(
            f"({found['unembedded']} of the searched messages are not embedded yet:"
            " they were ranked by their words alone)",
            file=sys.stderr,
        )
    if not hits:
        print("no hits")
        return
    session_width = max(7, *(len(h.session or "-") for h in hits))
    scope_width = max(5, *(len(h.scope) for h in hits))
    print(
        f"{'score':>8}  {'kind':<7} {'time (UTC)':<16}  {'session':<{session_width}}  {'scope':<{scope_width}}  text"
    )
    for h in hits:
        when = datetime.fromtimestamp(h.ts, UTC).strftime("%Y-%m-%d %H:%M") if h.ts else "-"
        text = " ".join(h.text.split())
        text = text if len(text) <= 100 else text[:99] + "…"
        session = h.session or "-"
        via = f"  (via {h.via})" if h.via else ""
        via += f"  (history: until {h.until})" if h.until else ""
        print(
            f"{h.score:8.4f}  {h.kind:<7} {when:<16}  {session:<{session_width}}  {h.scope:<{scope_width}}  {text}{via}"
        )


def _search(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    reply = client.search(
        args.query,
        scope=args.scope,
        session=args.session,
        kinds=args.kinds,
        k=args.k,
        since=args.since,
        until=args.until,
        mode=args.mode,
        min_score=args.min_score,
        everywhere=args.everywhere,
    )
    return {"hits": reply.hits, "unembedded": reply.unembedded}, _render_hits


def _reindex(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    client.reindex()
    while True:
        progress = msgspec.to_builtins(client.status().index.reindex)
        print(f"\rreindex: {progress['done']}/{progress['total']}", end="", file=sys.stderr)
        if progress["state"] != "running":
            break
        time.sleep(_POLL)
    print(file=sys.stderr)
    if progress["state"] == "failed":
        raise ReverieError(f"reindex failed: {progress['error']}")
    took = progress["finished"] - progress["started"]
    return progress, lambda p: print(f"reindexed {counted(p['done'], 'item')} in {took:.1f}s")


def _json_problem(exc: ValueError | RecursionError) -> str:
    return "nested too deeply" if isinstance(exc, RecursionError) else str(exc)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The file's messages; a bad line is an ``InvalidArgument`` naming it, before any append.

    One JSON object a line, or one JSON array of them (what ``reverie history
    --json`` prints).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgument(f"cannot read {path}: {exc}") from exc
    if text.lstrip().startswith("["):
        try:
            items = list(enumerate(json.loads(text), start=1))
        except (json.JSONDecodeError, RecursionError) as exc:  # nested past Python's stack
            raise InvalidArgument(f"{path}: not a JSON array: {_json_problem(exc)}") from None
    else:
        items = []
        for n, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    items.append((n, json.loads(line)))
                except (json.JSONDecodeError, RecursionError) as exc:
                    raise InvalidArgument(f"{path}:{n}: not JSON: {_json_problem(exc)}") from None
    return [_row(f"{path}:{n}", obj) for n, obj in items]


def _row(where: str, obj: Any) -> dict[str, Any]:
    if not isinstance(obj, dict) or not isinstance(obj.get("session"), str):
        raise InvalidArgument(f"{where}: need an object with a string 'session'")
    if not isinstance(obj.get("role"), str) or not isinstance(obj.get("content"), str):
        raise InvalidArgument(f"{where}: need string 'role' and 'content'")
    if isinstance(obj.get("ts"), str):  # ISO-8601, as `reverie history --json` writes it
        try:
            obj["ts"] = _when(obj["ts"])
        except argparse.ArgumentTypeError as exc:
            raise InvalidArgument(f"{where}: ts {exc}") from None
    try:  # the rest as the wire takes it (a role the daemon knows, an id it accepts)
        msgspec.convert({k: obj[k] for k in MessageIn.__struct_fields__ if k in obj}, MessageIn)
    except msgspec.ValidationError as exc:
        raise InvalidArgument(f"{where}: {exc}") from None
    return obj


def _sessions(client: Any, names: set[str]) -> dict[str, Any]:
    """The ``SessionInfo`` of each named session that exists."""
    return {s.name: s for s in every_session(client) if s.name in names}


def session_scopes(client: Any, names: set[str]) -> dict[str, str]:
    """Each named session's scope (sessions that do not exist are left out)."""
    return {name: info.scope for name, info in _sessions(client, names).items()}


def _last_seqs(client: Any, names: set[str]) -> dict[str, int]:
    """Each named session's last seq (0 if new): acks at or below it were already there."""
    known = _sessions(client, names)
    return {name: known[name].messages if name in known else 0 for name in names}


def _check_sizes(rows: list[dict[str, Any]], path: str, limit: int) -> None:
    """Refuse the whole file, before any append, if a message is over the daemon's limit:
    half an import is harder to resume than none (0: a daemon that reports no limit).
    """
    for n, row in enumerate(rows, start=1):
        size = len(row["content"].encode())
        if limit and size > limit:
            raise InvalidArgument(
                f"{path}: message {n} (session {row['session']!r}) has {size} bytes of content,"
                f" over the daemon's limit of {limit} (daemon.max_message_bytes);"
                " nothing was imported"
            )


def _import(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    rows = read_jsonl(Path(args.file))
    hello = client.hello()
    _check_sizes(rows, args.file, hello.max_message_bytes)
    last = _last_seqs(client, {row["session"] for row in rows})
    done = append_rows(client, rows, last, hello.max_frame_bytes // 2)  # the rest: the request
    result = {**dataclasses.asdict(done), "sessions": len(last)}
    return result, _print_import


def _print_import(result: dict[str, Any]) -> None:
    skipped = result["skipped"]
    for row in skipped[:_LISTED]:
        print(f"skipped {row['session']!r} id {row['id']!r}: {row['reason']}", file=sys.stderr)
    if len(skipped) > _LISTED:
        print(f"... and {len(skipped) - _LISTED} more skipped (--json lists all)", file=sys.stderr)
    print(
        f"imported {counted(result['messages'], 'message')} into "
        f"{counted(result['sessions'], 'session')}"
        f" ({result['already_present']} already present"
        + (f", {len(skipped)} skipped: their ids are taken" if skipped else "")
        + ")"
    )


SEARCH_RUNNERS: dict[str, Runner] = {"search": _search, "reindex": _reindex, "import": _import}
