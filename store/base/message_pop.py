"""Taking back a session's newest message: the log, the session's row, and the index's marker.

A pop is the undo of an append (a framework's ``pop_item``). It deletes the
session's newest row in one transaction with the session's counters (seq,
tail count and tokens step back, so seqs stay gap free and the next append
takes the popped seq again); the ``message_text`` delete trigger takes its
words out of the full-text index in the same commit. Refused, as
``Conflict``, when consolidation has the message: behind the cursor (its
words are in a history entry and ``MEMORY.md``) or inside a running job.

The search index is outside SQLite: the same commit records an *unindex*
marker (``markers``, like a forget's job) naming the message's uid. The index
follower applies markers (``pending_unindex``): it deletes the uid's row and,
should the session hold a new message at that seq already indexed, writes
that one back; then it drops the marker. A crash in between leaves the marker
for the next start, so a popped message never stays in the search index.
The index cursor is clamped to the log's end: the popped row's gid may be
the log's last, and SQLite hands it to the next append.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from .markers import marker_key

if TYPE_CHECKING:
    from ..ranking import IndexDoc
    from .journal import MessageRecord, SessionRecord
__all__ = [
    "MessagePopSql",
    "MessagePopTx",
    "Unindex",
]

_PREFIX = "unindex:"


class Unindex(msgspec.Struct, frozen=True, kw_only=True):
    """The marker of a popped message whose search-index row must go."""

    session: str
    seq: int

    @property
    def key(self) -> str:
        return marker_key(_PREFIX, self)


class MessagePopSql(Protocol):
    """What each engine's ``message_pop`` module provides: a pop's message and the index's to-dos after it, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def pop_newest(self, conn: Any, session: SessionRecord, /) -> MessageRecord | None: ...

    def pending_unindex(self, conn: Any, /) -> list[Unindex]: ...

    def unindexed_doc(self, conn: Any, marker: Unindex, /) -> IndexDoc | None: ...

    def finish_unindex(self, conn: Any, markers: list[Unindex], /) -> None: ...


class MessagePopTx:
    """``Tx``'s calls of a popped message and its unindexing: each is the engine's ``message_pop``
    function of the same name on the transaction's connection (docs/design.md, "The store
    seam")."""

    conn: Any
    _message_pop: MessagePopSql

    def pop_newest(self, session: SessionRecord) -> MessageRecord | None:
        return self._message_pop.pop_newest(self.conn, session)

    def pending_unindex(self) -> list[Unindex]:
        return self._message_pop.pending_unindex(self.conn)

    def unindexed_doc(self, marker: Unindex) -> IndexDoc | None:
        return self._message_pop.unindexed_doc(self.conn, marker)

    def finish_unindex(self, markers: list[Unindex]) -> None:
        return self._message_pop.finish_unindex(self.conn, markers)
