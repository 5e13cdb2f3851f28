"""Export: every message of the chosen sessions as JSONL that ``reverie import`` reads back.

One line per message, sessions in the daemon's name order, each session's
messages in ``seq`` order: ``session``, ``scope``, ``id``, ``role``,
``content``, ``ts`` and, when set, ``name``, ``tool_calls``,
``tool_call_id``. Importing the file into an empty data dir gives the same
sessions, scopes, ids, timestamps and order, so exporting again gives the
same bytes; importing it again is a no-op (the ids make appends idempotent).

The export is a client of the daemon, built on ``sessions`` and ``history``
pages, so it runs while the daemon serves. A session's messages are
append-only and never renumbered, so each session's export is consistent;
messages appended while the export runs may or may not be in it. Derived
state (history entries, ``MEMORY.md``, the index) is not exported: the
consolidation rebuilds it; ``reverie backup`` keeps it.

This module imports neither the actors nor the store.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from reverie.config import NotFound

from .common import every_session

__all__ = ["export_lines", "export_rows"]

PAGE = 1000
_OPTIONAL = ("name", "tool_calls", "tool_call_id")


def _sessions(client: Any, scope: str | None, session: str | None) -> Iterator[Any]:
    """``SessionInfo`` of each session to export, in name order."""
    for info in every_session(client, page=PAGE):
        if (session is None or info.name == session) and (scope is None or info.scope == scope):
            yield info
            if session is not None:
                return  # names are unique: no page after this one is needed
    if session is not None:
        raise NotFound(f"no session {session!r}" + (f" in scope {scope!r}" if scope else ""))


def export_rows(
    client: Any, *, scope: str | None = None, session: str | None = None
) -> Iterator[dict[str, Any]]:
    """One dict per message (see the module docstring), in export order."""
    for info in _sessions(client, scope, session):
        after = 0
        while True:
            messages = client.history(info.name, after_seq=after, limit=PAGE)
            for m in messages:
                row = {
                    "session": info.name,
                    "scope": info.scope,
                    "id": m.id,
                    "role": m.role,
                    "content": m.content,
                    "ts": m.ts,
                }
                row.update({k: getattr(m, k) for k in _OPTIONAL if getattr(m, k) is not None})
                yield row
            if len(messages) < PAGE:
                break
            after = messages[-1].seq


def export_lines(
    client: Any, *, scope: str | None = None, session: str | None = None
) -> Iterator[str]:
    """The JSONL lines (with their newline): UTF-8 text, floats exactly as stored."""
    for row in export_rows(client, scope=scope, session=session):
        yield json.dumps(row, ensure_ascii=False) + "\n"
