"""What the search index is fed from: the message log after a cursor, and the memory tree.

The index follows the global message log (``messages.gid``) through a
durable cursor kept in the ``meta`` table: every message with ``gid <=``
the cursor is in the index. The cursor is written only after the index
write it covers, and index writes are upserts by uid, so a crash between
the two re-adds a batch rather than losing it.

History entries and ``MEMORY.md`` facts are turned into documents here too,
so that the follower and a full rebuild produce exactly the same rows.

Here are the records, the documents' shapes, ``IndexFeedSql`` (what each
engine's ``index_feed`` module provides, in the caller's transaction) and
``IndexFeedTx`` (the ``Tx`` calls of it; docs/design.md, "The store seam").
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from ..facts import Fact, parse_memory
from ..history import HistoryEntry, entry_day
from ..ranking import IndexDoc

__all__ = [
    "CURSOR_KEY",
    "INDEX_DIR_KEY",
    "IndexFeedSql",
    "IndexFeedTx",
    "LogPosition",
    "entry_doc",
    "fact_doc_text",
    "fact_docs",
    "memory_docs",
    "message_doc",
    "message_uid",
    "retired_docs",
]

CURSOR_KEY = "index.messages_gid"
#: The ``meta`` key naming the index directory the daemon serves from (under its data dir).
INDEX_DIR_KEY = "index.dir"


class LogPosition:
    """The index's place in the log: its cursor and the log's last gid.

    How long the index has lagged is the indexer's to track (``LagClock``):
    a message's ``ts`` is the host's and says nothing about when it arrived.
    """

    __slots__ = ("cursor", "max_gid")

    def __init__(self, cursor: int, max_gid: int) -> None:
        self.cursor = cursor
        self.max_gid = max_gid


def message_uid(session: str, seq: int) -> str:
    """The index uid of a session's ``seq``-th message."""
    return f"m:{session}:{seq}"


def message_doc(session: str, seq: int, mid: str, content: str, ts: float, scope: str) -> IndexDoc:
    """A stored message as a ``message`` doc: the one shape both search signals return."""
    return IndexDoc(
        uid=message_uid(session, seq),
        kind="message",
        text=content,
        scope=scope,
        session=session,
        ts=float(ts),
        message_ids=[mid],
        source=f"session {session} seq {seq}",
    )


def entry_doc(entry: HistoryEntry) -> IndexDoc | None:
    """A history entry as one ``episode`` doc (summary and facts), or None when empty.

    The facts it retired are docs of their own (``retired_docs``), so a search
    finds each as history, with its day, rather than inside the episode."""
    text = "\n".join([entry.summary, *entry.facts]).strip()
    if not text:
        return None
    return IndexDoc(
        uid=f"e:{entry.id}",
        kind="episode",
        text=text,
        scope=entry.scope,
        session=entry.session,
        ts=entry.end_ts,
        message_ids=list(entry.message_ids),
        source=f"history entry {entry.id}",
    )


def retired_docs(entry: HistoryEntry) -> list[IndexDoc]:
    """One ``fact`` doc per fact ``entry`` retired (``HistoryEntry.retired``), with the
    entry's session and end time: true until that day (``is_retired``). The session
    makes a forget of it remove them with the episode, and keeps a scope's rewrite
    of its ``MEMORY.md`` facts from deleting them (``delete_facts``)."""
    docs = []
    for text in entry.retired:
        digest = hashlib.sha1(f"{entry.id}\n{text}".encode(errors="surrogatepass")).hexdigest()
        docs.append(
            IndexDoc(
                uid=f"f:{entry.scope}:{digest}",
                kind="fact",
                text=text,
                scope=entry.scope,
                session=entry.session,
                ts=entry.end_ts,
                source=f"history entry {entry.id}: no longer true (until {entry_day(entry)})",
            )
        )
    return docs


def fact_doc_text(fact: Fact) -> str:
    """What a fact's doc holds: its dated text (the source comment is not indexed)."""
    return f"[{fact.date}] {fact.text}" if fact.date else fact.text


def fact_docs(scope: str, memory_text: str, ts: float) -> list[IndexDoc]:
    """One ``fact`` doc per fact of a ``MEMORY.md`` (``parse_memory``): its dated text,
    with its source message ids; the source comment itself is not indexed."""
    docs = []
    for fact in parse_memory(memory_text)[0]:
        text = fact_doc_text(fact)
        digest = hashlib.sha1(text.encode("utf-8", errors="surrogatepass")).hexdigest()
        docs.append(
            IndexDoc(
                uid=f"f:{scope}:{digest}",
                kind="fact",
                text=text,
                scope=scope,
                ts=ts,
                message_ids=sorted({i for ids in fact.sources.values() for i in ids}),
                source=f"MEMORY.md of {scope}",
            )
        )
    return docs


def memory_docs(scope: str, memory_text: str, history: list[HistoryEntry]) -> list[IndexDoc]:
    """The docs of a scope's facts (its ``MEMORY.md``) and of ``history``'s entries (each
    episode and the facts it retired).

    Facts are stamped with the end of the scope's newest episode (the
    consolidation that wrote them), so a rebuild stamps them identically.
    """
    ts = history[-1].end_ts if history else 0.0
    docs = fact_docs(scope, memory_text, ts)
    for entry in history:
        doc = entry_doc(entry)
        if doc is not None:
            docs.append(doc)
        docs += retired_docs(entry)
    return docs


class IndexFeedSql(Protocol):
    """What each engine's ``index_feed`` module provides: what the search index is fed from, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def read_meta(self, conn: Any, key: str, /) -> object: ...

    def write_meta(self, conn: Any, key: str, value: object, /) -> None: ...

    def read_cursor(self, conn: Any, /) -> int: ...

    def write_cursor(self, conn: Any, gid: int, /) -> None: ...

    def move_cursor(self, conn: Any, start: int, last: int, count: int, /) -> bool: ...

    def swap_index(self, conn: Any, name: str, reached: int, /) -> None: ...

    def log_position(self, conn: Any, /) -> LogPosition: ...

    def messages_after(
        self, conn: Any, gid: int, limit: int, /, *, newest: bool = False, upto: int | None = None
    ) -> list[tuple[int, IndexDoc]]: ...

    def feed_horizon(self, conn: Any, /) -> int: ...


class IndexFeedTx:
    """``Tx``'s calls of what the search index is fed from: each is the engine's ``index_feed``
    function of the same name on the transaction's connection (docs/design.md, "The store
    seam")."""

    conn: Any
    _index_feed: IndexFeedSql

    def read_meta(self, key: str) -> object:
        return self._index_feed.read_meta(self.conn, key)

    def write_meta(self, key: str, value: object) -> None:
        return self._index_feed.write_meta(self.conn, key, value)

    def read_cursor(self) -> int:
        return self._index_feed.read_cursor(self.conn)

    def write_cursor(self, gid: int) -> None:
        return self._index_feed.write_cursor(self.conn, gid)

    def move_cursor(self, start: int, last: int, count: int) -> bool:
        return self._index_feed.move_cursor(self.conn, start, last, count)

    def swap_index(self, name: str, reached: int) -> None:
        return self._index_feed.swap_index(self.conn, name, reached)

    def log_position(self) -> LogPosition:
        return self._index_feed.log_position(self.conn)

    def messages_after(
        self, gid: int, limit: int, *, newest: bool = False, upto: int | None = None
    ) -> list[tuple[int, IndexDoc]]:
        return self._index_feed.messages_after(self.conn, gid, limit, newest=newest, upto=upto)

    def feed_horizon(self) -> int:
        return self._index_feed.feed_horizon(self.conn)
