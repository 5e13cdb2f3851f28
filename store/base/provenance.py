"""The log's messages behind a summary: what a history episode or a ``MEMORY.md`` fact covers.

An episode names the messages it summarises (its session and their ids), and
a fact the turns that hold its words (``sources``: session → ids, kept in
``MEMORY.md``). Both stay in the log after a consolidation, so a search that
finds a summary can lead to its turns; a message forgotten since is not found.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..facts import parse_memory
from .index_feed import fact_doc_text

if TYPE_CHECKING:
    from collections.abc import Sequence
__all__ = [
    "MAX_COVERED",
    "ProvenanceSql",
    "ProvenanceTx",
    "fact_sources",
]

#: Messages looked up for one search at most: an episode may cover hundreds, and the
#: search ranks every one it looked up (``search_message_text``'s ``among``).
MAX_COVERED = 1000


def fact_sources(memory_text: str, doc_text: str) -> list[tuple[str, str]]:
    """The ``(session, id)`` sources of the fact of ``memory_text`` whose doc holds ``doc_text``.

    Empty when no fact matches: the file was edited since the search's index read it.
    """
    for fact in parse_memory(memory_text)[0]:
        if fact_doc_text(fact) == doc_text:
            return [(session, mid) for session, ids in fact.sources.items() for mid in ids]
    return []


class ProvenanceSql(Protocol):
    """What each engine's ``provenance`` module provides: the log's messages a summary covers, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def covered_messages(
        self,
        conn: Any,
        named: Sequence[tuple[str, str]],
        /,
        *,
        since: float | None = None,
        until: float | None = None,
    ) -> list[tuple[int, str]]: ...


class ProvenanceTx:
    """``Tx``'s calls of the log's messages a summary covers: each is the engine's ``provenance``
    function of the same name on the transaction's connection (docs/design.md, "The store
    seam")."""

    conn: Any
    _provenance: ProvenanceSql

    def covered_messages(
        self,
        named: Sequence[tuple[str, str]],
        *,
        since: float | None = None,
        until: float | None = None,
    ) -> list[tuple[int, str]]:
        return self._provenance.covered_messages(self.conn, named, since=since, until=until)
