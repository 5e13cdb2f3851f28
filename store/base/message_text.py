"""The words of the message log, as both engines' word searches take them.

What is a word of a query (``STOP_WORDS`` left out), how much a message's
context weighs beside its own words, how many previous messages make that
context: the SQLite engine's FTS5 index (``files/message_text.py``) and the
Postgres engine's tsvector columns (``postgres/message_text.py``) index and
score the same way, so a search's ``words`` score means the same on both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..ranking import text_terms

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..ranking import SearchHit
    from .term_counts import TermCounts
__all__ = [
    "CONTEXT_WEIGHT",
    "STOP_WORDS",
    "MessageTextSql",
    "MessageTextTx",
]

CONTEXT_WEIGHT = 0.5
#: Messages before a message that are indexed as its context.
CONTEXT_MESSAGES = 2
MAX_MATCH_TERMS = 64
#: How many rows of a word's list ``bm25()`` walks in the time ``reverie_bm25`` takes
#: per row of the session (``_ranked_in_python``). Measured on the benchmark's 100k
#: and 1M stores: 23-36 ns a walked row, 3-4.5 µs a session row (130-200 to one).
_ROWS_PER_SCORED_ROW = 100

STOP_WORDS = frozenset(
    (
        "a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can",
        "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "him",
        "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or",
        "our", "she", "so", "some", "that", "the", "their", "them", "they", "this", "to", "was",
        "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with",
        "would", "you", "your",
    )
)  # fmt: skip


def _query_words(query: str) -> list[str]:
    """The query's distinct words as searched: function words dropped unless nothing is left.

    A word of underscores alone is no word: the tokenizer keeps nothing of it.
    """
    words = list(dict.fromkeys(w for w in text_terms(query) if w.strip("_")))
    return ([w for w in words if w not in STOP_WORDS] or words)[:MAX_MATCH_TERMS]


def _bound(pairs: tuple[tuple[str, object], ...]) -> tuple[list[str], list[object]]:
    """The clauses whose value is given, and their values in the same order."""
    given = [(clause, value) for clause, value in pairs if value is not None]
    return [clause for clause, _ in given], [value for _, value in given]


class MessageTextSql(Protocol):
    """What each engine's ``message_text`` module provides: the log's words, in the
    transaction of ``conn`` (``Tx`` calls it; mypy checks both engines' modules)."""

    def search_message_text(
        self,
        conn: Any,
        query: str,
        counts: TermCounts,
        /,
        *,
        scope: str | None = None,
        session: str | None = None,
        since: float | None = None,
        until: float | None = None,
        among: Sequence[int] | None = None,
        limit: int = 10,
    ) -> list[SearchHit]: ...

    def words_reference(self, conn: Any, query: str, counts: TermCounts, /) -> float: ...

    def with_log_text(self, conn: Any, hits: list[SearchHit], /) -> list[SearchHit]: ...

    def vector_gap(
        self,
        conn: Any,
        /,
        *,
        scope: str | None,
        session: str | None,
        since: float | None,
        until: float | None,
    ) -> tuple[int, int]: ...


class MessageTextTx:
    """``Tx``'s calls of the log's words: each is the engine's ``message_text`` function of the
    same name on the transaction's connection (docs/design.md, "The store seam")."""

    conn: Any
    _message_text: MessageTextSql
    #: The words index's per-word row counts, shared by the reader threads' searches.
    term_counts: TermCounts

    def search_message_text(
        self,
        query: str,
        *,
        scope: str | None = None,
        session: str | None = None,
        since: float | None = None,
        until: float | None = None,
        among: Sequence[int] | None = None,
        limit: int = 10,
    ) -> list[SearchHit]:
        return self._message_text.search_message_text(
            self.conn,
            query,
            self.term_counts,
            scope=scope,
            session=session,
            since=since,
            until=until,
            among=among,
            limit=limit,
        )

    def words_reference(self, query: str) -> float:
        return self._message_text.words_reference(self.conn, query, self.term_counts)

    def with_log_text(self, hits: list[SearchHit]) -> list[SearchHit]:
        return self._message_text.with_log_text(self.conn, hits)

    def vector_gap(
        self, *, scope: str | None, session: str | None, since: float | None, until: float | None
    ) -> tuple[int, int]:
        return self._message_text.vector_gap(
            self.conn, scope=scope, session=session, since=since, until=until
        )
