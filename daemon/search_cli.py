"""``reverie search``, ``reverie reindex`` and ``reverie import`` from a shell.

Progress lines (reindex, import) go to standard error, results to standard
output, so ``--json`` output stays parseable.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from reverie.config import InvalidArgument, ReverieError

__all__ = ["SEARCH_RUNNERS", "add_search_parser", "read_jsonl"]

Runner = Callable[[Any, argparse.Namespace], tuple[Any, Callable[[Any], None]]]
Common = Callable[[argparse.ArgumentParser], None]
IMPORT_BATCH = 500
_POLL = 0.2
_MESSAGE_KEYS = ("role", "content", "id", "name", "ts", "tool_calls", "tool_call_id")


def add_search_parser(sub: Any, common: Common) -> None:
    """Register ``search``, ``reindex`` and ``import``; ``common`` adds --socket and --json."""
    search = sub.add_parser("search", help="search messages, history episodes and memory facts")
    search.add_argument("query")
    search.add_argument("--scope")
    search.add_argument("--session")
    search.add_argument(
        "--kind", action="append", choices=["message", "episode", "fact"], dest="kinds"
    )
    search.add_argument("-k", type=int, default=10, help="how many hits (default 10)")
    search.add_argument("--mode", choices=["hybrid", "vector", "text"], default="hybrid")
    common(search)

    reindex = sub.add_parser("reindex", help="rebuild the search index while the daemon serves")
    common(reindex)

    imp = sub.add_parser("import", help="append messages from a JSONL file (one message a line)")
    imp.add_argument("file", help="JSONL: session, role, content, id, optional ts, name, scope")
    common(imp)


def _render_hits(found: dict[str, Any]) -> None:
    hits = found["hits"]
    for h in hits:
        when = datetime.fromtimestamp(h.ts, UTC).strftime("%Y-%m-%d %H:%M") if h.ts else "-"
        text = " ".join(h.text.split())
        text = text if len(text) <= 100 else text[:99] + "…"
        where = h.session or h.scope
        print(f"{h.score:8.4f}  {h.kind:<7} {when}  {where}  {text}")
    if not hits:
        print("no hits")
    if found["unembedded"]:
        print(
            f"({found['unembedded']} of the searched messages are not embedded yet:"
            " they were ranked by their words alone)"
        )


def _search(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    reply = client.search(
        args.query,
        scope=args.scope,
        session=args.session,
        kinds=args.kinds,
        k=args.k,
        mode=args.mode,
    )
    return {"hits": reply.hits, "unembedded": reply.unembedded}, _render_hits


def _reindex(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    client.reindex()
    while True:
        progress = client.status()["index"]["reindex"]
        print(f"\rreindex: {progress['done']}/{progress['total']}", end="", file=sys.stderr)
        if progress["state"] != "running":
            break
        time.sleep(_POLL)
    print(file=sys.stderr)
    if progress["state"] == "failed":
        raise ReverieError(f"reindex failed: {progress['error']}")
    took = progress["finished"] - progress["started"]
    return progress, lambda p: print(f"reindexed {p['done']} items in {took:.1f}s")


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """The file's messages; a bad line is an ``InvalidArgument`` naming it, before any append."""
    out = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InvalidArgument(f"cannot read {path}: {exc}") from exc
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidArgument(f"{path}:{n}: not JSON: {exc}") from exc
        if not isinstance(obj, dict) or not isinstance(obj.get("session"), str):
            raise InvalidArgument(f"{path}:{n}: need an object with a string 'session'")
        if not isinstance(obj.get("role"), str) or not isinstance(obj.get("content"), str):
            raise InvalidArgument(f"{path}:{n}: need string 'role' and 'content'")
        out.append(obj)
    return out


def _import(client: Any, args: argparse.Namespace) -> tuple[Any, Callable[[Any], None]]:
    rows = read_jsonl(Path(args.file))
    done, sessions = 0, set()
    i = 0
    while i < len(rows):
        session, scope = rows[i]["session"], rows[i].get("scope")
        batch = []
        while i < len(rows) and len(batch) < IMPORT_BATCH and rows[i]["session"] == session:
            batch.append({k: rows[i][k] for k in _MESSAGE_KEYS if rows[i].get(k) is not None})
            i += 1
        client.append_many(session, batch, scope=scope)
        done += len(batch)
        sessions.add(session)
        print(f"\rimport: {done}/{len(rows)} messages", end="", file=sys.stderr)
    print(file=sys.stderr)
    result = {"messages": done, "sessions": len(sessions)}
    return result, lambda r: print(
        f"imported {r['messages']} messages into {r['sessions']} sessions"
    )


SEARCH_RUNNERS: dict[str, Runner] = {"search": _search, "reindex": _reindex, "import": _import}
