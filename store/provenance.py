"""The log's messages behind a summary: what a history episode or a ``MEMORY.md`` fact covers.

An episode names the messages it summarises (its session and their ids), and
a fact the turns that hold its words (``sources``: session → ids, kept in
``MEMORY.md``). Both stay in the log after a consolidation, so a search that
finds a summary can lead to its turns; a message forgotten since is not found.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import apsw

from .facts import parse_memory
from .index_feed import fact_doc_text, message_uid

__all__ = ["MAX_COVERED", "covered_messages", "fact_sources"]

#: Messages looked up for one search at most: an episode may cover hundreds, and the
#: search ranks every one it looked up (``search_message_text``'s ``among``).
MAX_COVERED = 1000


def covered_messages(
    conn: apsw.Connection,
    named: Sequence[tuple[str, str]],
    *,
    since: float | None = None,
    until: float | None = None,
) -> list[tuple[int, str]]:
    """The log position (``gid``) and index uid of each ``(session, id)`` still in the log.

    Only those with ``since <= ts < until``; at most ``MAX_COVERED`` looked
    up, in the order named, each by one probe of the ``(session, id)`` index.
    """
    pairs = json.dumps([list(pair) for pair in named[:MAX_COVERED]])
    # apsw types each value as any SQLite value; the schema fixes these columns' types.
    rows: list[Any] = conn.execute(
        "SELECT m.gid, m.session, m.seq FROM json_each(?) AS j"
        " JOIN messages m ON m.session = j.value ->> 0 AND m.id = j.value ->> 1"
        " WHERE m.ts >= coalesce(?, m.ts) AND m.ts < coalesce(?, m.ts + 1) ORDER BY j.key",
        (pairs, since, until),
    ).fetchall()
    return [(int(gid), message_uid(str(session), int(seq))) for gid, session, seq in rows]


def fact_sources(memory_text: str, doc_text: str) -> list[tuple[str, str]]:
    """The ``(session, id)`` sources of the fact of ``memory_text`` whose doc holds ``doc_text``.

    Empty when no fact matches: the file was edited since the search's index read it.
    """
    for fact in parse_memory(memory_text)[0]:
        if fact_doc_text(fact) == doc_text:
            return [(session, mid) for session, ids in fact.sources.items() for mid in ids]
    return []
